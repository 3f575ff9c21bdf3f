"""Each variant played to the end on the virtual board under MicroPython: the firmware chosen
with ``new length=1 variant=KEY`` over serial, the scripted players of test_sim_micropython
lifting and placing checkers cell by cell, under the real MicroPython with its collector on
(bgc.upy); no false flag, a game end, and a journal that names
the variant and replays (on CPython) to the same winner."""

import os

import pytest

from bgc import libs, upy
from bgrules.rules import VARIANTS, ruleset

import test_sim_micropython as base

ROOT = base.ROOT

pytestmark = pytest.mark.micropython


# With one roll for the whole game, the base test's choice (the smallest Position ID) can
# cycle for ever (4-1: hit and hit back); these players avoid hits, so the pips only go down.
NO_HITS_FIRST = ("fixedroll",)
# Hitting "opposite" (French Backgammon 2): the hit checker stands across the board; the players
# take it to the bar before they put the hitting checker down.
HIT_ACROSS = ("french2",)


def _program(key):
    game = base.GAME
    # White is player 0, the mover of the start's first view (a variant's start may differ by side).
    cells = ruleset(key).start_position().cells

    def swap(old, new):
        nonlocal game
        assert game.count(old) == 1, old
        game = game.replace(old, new)

    swap("""for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    w[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    b[p] = n
""", """CELLS = %r
for p in range(1, 25):
    w[p] = CELLS[p]
    b[25 - p] = CELLS[26 + p]
w[25] = CELLS[25]
b[25] = CELLS[51]
""" % (tuple(cells),))
    swap('return "new length=1"', 'return "new length=1 variant=%s"' % key)
    swap('turn = Turn(Position.from_id(st["pos"]), st["dice"][0], st["dice"][1])',
         'turn = (RULES.turn or Turn)(pinned(st), st["dice"][0], st["dice"][1], RULES)')
    swap("from bgrules import Position, Turn\n",
         "from bgrules import Position, Turn\nfrom bgrules.rules import ruleset\nRULES = ruleset(%r)\n" % key
         # Pin: whose checker is pinned on a point of both colours is in the status, not the ID
         + "def pinned(st):\n    pos = Position.from_id(st['pos'], RULES.pinning)\n"
           "    pos.pinned = st.get('pinned', 0)\n    return pos\n")
    if key in HIT_ACROSS:
        swap("""            for a, b, hit in best.steps:
                take(board_point(a, colour), colour)""", """            for a, b, hit in best.steps:
                if hit:
                    take(board_point(RULES.opposite[b], other), other)
                    put(25, other)
                    run(5)
                    hit = 0
                take(board_point(a, colour), colour)""")
    if key in NO_HITS_FIRST:
        swap("""                if pl.position.id() < best.position.id():""",
             """                if (hits(pl), pl.position.id()) < (hits(best), best.position.id()):""")
        swap("run(5)\nplayed = None", "def hits(pl):\n    return sum(s[2] for s in pl.steps)\n\nrun(5)\nplayed = None")
    # Longer games than the base test's: keep only the recent events (status() reads the last
    # one), counting flags and game ends as they come, so the harness does not fill the heap.
    swap("""    def write_line(self, text):
        self.events.append(text)
""", """    def write_line(self, text):
        self.events.append(text)
        if '"illegal"' in text:
            Serial.flags += 1
        if '"match_end"' in text or '"game_end"' in text:
            Serial.ends.append(text)
        if len(self.events) > 200:
            del self.events[:100]
Serial.flags = 0
Serial.ends = []
""")
    swap("""for line in ser.events:
    if '"illegal"' in line:
        illegal += 1
    if '"match_end"' in line or '"game_end"' in line:
        print(line)
""", """illegal = Serial.flags
for line in Serial.ends:
    print(line)
""")
    # Turns made of parts (bgrules.turn_parts): a double to choose, or the free-choice roll,
    # taken as the board offers it first (6-6, 6-5) with ROLL.
    swap("""    elif ph == "ask":
""", """    elif ph == "choose":
        press("ROLL_W" if st["on_roll"] == 0 else "ROLL_B")
    elif ph == "ask":
""")
    return game


# Doublets' towers need their own handling: tests/test_variant_doublets.py plays its whole game.
@pytest.mark.parametrize("key", [k for k in VARIANTS if k not in ("standard", "doublets")])
def test_a_whole_game_of_the_variant_on_the_virtual_board(key):
    sources = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host", "bgc", "virtual"),
               os.path.join(ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    out = upy.run(_program(key), sources, heap_kb=base.BOARD_HEAP_KB)
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
