"""The firmware on the emulated Pico (MicroPython v1.27.0 RPI_PICO on rp2040js, ../shared/tools/rp2emu):
it boots, imports from .mpy compiled for armv6m (as bgc deploy ships it) with the heap the game
needs left over, answers a rules question as CPython does, and its machine-code scan and classifier
loops give what the bytecode loops give. Skipped where node or ../shared/tools are missing; about
30 s of host time. The figures themselves come from scripts/bench/bench_pico.py (docs/performance.md)."""
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))

import bench_pico  # noqa: E402

HEAP_AFTER_IMPORT = 150_000  # issue 10: free heap after importing the firmware


def _need_emulator():
    if not shutil.which("node") or not shutil.which("npm"):
        pytest.skip("node/npm not installed (sh scripts/install_test_tools.sh)")
    if not os.path.isfile(os.path.join(bench_pico.SHARED_EMU, "run.mjs")) and "BGC_RP2EMU" not in os.environ:
        pytest.skip("no emulated Pico: ../shared/tools/rp2emu is not present")


CHECKS = r"""
from bgrules import Position, Turn
t = Turn(Position.start(), 3, 1)
good = Position.from_id(GOOD)
bad = Position.from_id(BAD)
print("RULES", (t.dice_to_play, t.check(good), t.check(bad)))

import drivers.hall as H
from machine import mem32
sc = H.HallScanner()
fast = bytes(sc.scan())
gpio_fast = mem32[0xD0000010] & 0x3FC
kernel = H.scan_frame
H.scan_frame = None
slow = bytes(sc.scan())
gpio_slow = mem32[0xD0000010] & 0x3FC
print("SCAN", (kernel is not None, fast == slow, gpio_fast == gpio_slow, fast[:2]))

from array import array
from drivers.classify import Classifier
import random
random.seed(7)
a = Classifier()
b = Classifier()
same = True
for i in range(40):
    raw = array("H", [32768 + random.choice((0, 0, 0, 14000, -14000, 28000, -28000, 31000, -32000, 600))
                      + random.randrange(-3000, 3000) for _ in range(128)])
    for _ in range(1 + i % 4):
        if a.update(raw) != b.update_bytecode(raw) or a.state != b.state or a.faults != b.faults:
            same = False
print("CLASSIFY", (same, a.frames, a.faults))
"""


def test_firmware_boots_imports_and_answers_on_the_emulated_pico():
    _need_emulator()
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from bgrules import Position, Turn

    start = Position.start()
    turn = Turn(start, 3, 1)
    good = next(p.position for p in turn.plays() if p.steps[0][0] == 8)  # 8/5 6/5 and kin
    bad = start.copy()
    bad.cells[24] -= 1
    bad.cells[18] += 1  # 24/18 with 3-1: six pips for four
    expected = (turn.dice_to_play, turn.check(good), turn.check(bad))
    assert expected[0] == 2 and expected[1] is None and expected[2]  # legal / illegal, as the rules say

    tree = bench_pico.compile_tree(os.path.join(bench_pico.CACHE, "pico_mpy_test"))
    out, _ = bench_pico.emulate(
        [("boot", bench_pico.BOOT), ("imports", bench_pico.IMPORT),
         ("checks", "GOOD = %r\nBAD = %r\n" % (good.id(), bad.id()) + CHECKS)],
        flash_in=bench_pico.flash_holding(tree), max_emu_s=30, timeout=300)
    boot = bench_pico.results(out, "HEAP_BOOT")[0]
    after = bench_pico.results(out, "HEAP_IMPORT")[0]
    assert boot > 200_000, out
    assert after >= HEAP_AFTER_IMPORT, "free heap after importing the firmware: %d B" % after
    assert bench_pico.results(out, "RULES")[0] == expected
    has_kernel, same_raw, same_gpio, _ = bench_pico.results(out, "SCAN")[0]
    assert has_kernel, "the machine-code scan is not used on the Pico"
    assert same_raw and same_gpio
    same, frames, faults = bench_pico.results(out, "CLASSIFY")[0]
    assert same and frames > 40 and faults > 0


# The running games (Fevga, Long Nardy): each side's fifteen start on its own head, the heads in
# diagonally opposite corners (docs/variants.md's sources), so Black's head is the board's point 12
# as White counts, not its 1. The bench's match harness set out the standard track's mirror and the
# firmware waited for the start for ever (docs/performance.md: 0 turns); it sets out each ruleset's
# own start on its own track now.
RUNNING_TURNS = 3


@pytest.mark.parametrize("variant", ["longnardy", "fevga"])
def test_the_bench_match_of_a_running_game_plays_turns_on_the_emulated_pico(variant, tmp_path):
    """A few turns of bench_pico.py's whole-match harness: its players' plays chosen on CPython with the
    virtual board, then played through main.App on the emulated Pico, every DONE accepted."""
    _need_emulator()
    plays = bench_pico.choose_plays(str(tmp_path / "choose"), variant, RUNNING_TURNS)
    assert len(plays) == RUNNING_TURNS, "the harness's players played %d turns of %s" % (len(plays), variant)
    # the first play leaves the head (the mover's 24, where all fifteen start)
    assert plays[0] and plays[0][0][0] == 24
    tree = bench_pico.compile_tree(str(tmp_path / "lib"))
    frames = bench_pico.compile_tree(str(tmp_path / "frames"), [os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")],
                                     firmware=False)
    data = str(tmp_path / "data")
    bench_pico.write_data(data, [], plays)
    match = ("import os\nos.mkdir('/journal')\nJOURNAL_DIR = '/journal'\nPLAYS = '/data/plan.txt'\n"
             "VARIANT = %r\n" % variant + bench_pico.MATCH)
    out, _ = bench_pico.emulate([("boot", bench_pico.BOOT), ("match", match)],
                                flash_in=bench_pico.flash_holding(tree),
                                puts=[(os.path.join(frames, "frames.mpy"), "/lib/frames.mpy"), (data, "/data")],
                                max_emu_s=120, timeout=1500)
    st = bench_pico.results(out, "MATCH")[0]
    assert st["turns"] == RUNNING_TURNS and st["phase"] == "moving", st
    assert st["done"][0] >= RUNNING_TURNS  # a DONE answered for every turn
    assert st["frame"][0] >= sum(len(steps) for steps in plays)  # every checker moved was answered


def test_question_pico_times_a_boards_questions_with_the_hosts_answers(capsys):
    """scripts/bench/question_pico.py on the .mpy deploy: the Backwards board of issue 33's slowest
    lift (4-3 from turn 36's start, 4/1* played), each question the same answer as the rules on
    the host give, with its emulated time."""
    _need_emulator()
    import question_pico

    args = ["--variant", "backwards", "--id", "Nw0OByB0+5ACAQ", "--dice", "4-3", "--play", "4/1*"]
    assert question_pico.main(args) == 0
    rows = {}
    for line in capsys.readouterr().out.splitlines()[1:]:
        name, rest = line.strip().split("  ", 1)
        best, first, answer = rest.split(None, 2)
        rows[name.strip()] = (int(best), int(first), answer)
    from bgrules import Position, Turn
    from bgrules.rules import ruleset

    rules = ruleset("backwards")
    turn = Turn(Position.from_id("Nw0OByB0+5ACAQ", rules.opposite), 4, 3, rules)
    board = bytearray(question_pico.board_of("backwards", "Nw0OByB0+5ACAQ", "4/1*"))
    assert rows["locate(board)"][2] == repr(turn.locate(board)) == "[b'\\x04']"
    options = turn.locate(board)
    points = [p for p in range(25, 0, -1) if board[p]]
    assert points == [19, 13, 12, 10, 6, 5, 4, 3, 1]
    for p in points:
        off = bytearray(board)
        off[p] -= 1
        off[0] += 1
        assert rows["locate(%d read as off)" % p][2] == repr(turn.locate(off)) == "[]"
        assert rows["destinations(board, %d)" % p][2] == repr(turn.destinations(board, p, options))
    assert all(0 < best <= first for best, first, _ in rows.values())
