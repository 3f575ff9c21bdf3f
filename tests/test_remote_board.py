"""A remote opponent's dice on the board (issue 32, part 3): `bgc remote` plays the other board's
side through the computer's seam (the `gnu` command, docs/protocol.md), with the dice rolled on the
other board: `gnu opening dice=W,B`, `gnu roll dice=D1,D2`, and `gnu side=S opening=1` so that this
board's buttons do not roll an opening of their own. Rules checked: the roll taken is the dice
sent, not the board's; the opening is the PC's alone when asked; bad dice are refused with why."""

import pytest

from companion_helpers import Harness, ROLL_B, ROLL_W

BLACK = 1


def follower(tmp_path, rolls=()):
    """A 3-point match on Black's board: White is the remote board, which sends the opening roll."""
    h = Harness(tmp_path, rolls=rolls, openings=[(1, 2)])
    h.start_match(length=3)
    h.line("gnu side=0 opening=1")
    return h


def test_the_opening_roll_is_the_pcs_when_asked_and_the_buttons_roll_none(tmp_path):
    h = follower(tmp_path)
    h.clear()
    h.press(ROLL_W)  # the remote side's button
    assert "Opening roll:\nfrom the PC" in h.screen()
    h.clear()
    h.press(ROLL_B)  # the local person's: the opening comes from the other board
    assert h.c.phase == "opening" and not h.events("roll"), "a button rolled the opening"
    assert "Opening roll:\nfrom the PC" in h.screen()
    h.line("gnu opening dice=3,5")
    roll = h.events("roll")
    assert roll and roll[0]["dice"] == [3, 5] and roll[0]["opening"], roll
    assert h.c.phase == "moving" and h.c.match.on_roll == BLACK  # Black's 5 beats White's 3
    records = h.journal()[0]
    assert records[-1]["a"] == "open" and records[-1]["dice"] == [3, 5], records[-1]


def test_the_remote_sides_roll_is_the_dice_sent_not_the_boards(tmp_path):
    h = follower(tmp_path, rolls=[(1, 1)])
    h.line("gnu opening dice=6,1")  # White starts with 6-1: 13/7 6/5 as the remote played it
    assert h.c.phase == "moving" and h.c.match.on_roll == 0
    from bgc.rules.notation_read import apply_moves

    h.line("gnu play pos=%s" % apply_moves(h.c.match.turn.start, "13/7 6/5").id())
    h.move("w", 13, 7)
    h.move("w", 6, 5)
    assert h.c.phase == "roll" and h.c.match.on_roll == BLACK
    h.press(ROLL_B)  # the local person's roll: the board's own dice (1-1 here)
    assert h.events("roll")[-1]["dice"] == [1, 1]


def test_a_remote_roll_in_the_middle_of_the_match(tmp_path):
    # White's board (the leader) plays White itself; Black is the remote: its roll comes as dice
    h = Harness(tmp_path, rolls=[(2, 2)], openings=[(6, 1)])
    h.start_match(length=3)
    h.line("gnu side=1")
    h.press(ROLL_W)
    h.move("w", 13, 7)
    h.move("w", 6, 5)
    h.press(ROLL_W)
    assert h.c.phase == "roll" and h.c.match.on_roll == BLACK
    h.clear()
    h.line("gnu roll dice=5,4")
    assert h.events("roll")[0]["dice"] == [5, 4] and h.c.match.dice[:2] in ([5, 4], (5, 4), bytearray([5, 4]))
    assert h.c.phase == "moving"


@pytest.mark.parametrize("line, words", [
    ("gnu roll dice=7,1", "dice=D1,D2, each 1 to 6"),
    ("gnu roll dice=3", "dice=D1,D2, each 1 to 6"),
    ("gnu opening", "dice=D1,D2, each 1 to 6"),
])
def test_bad_dice_are_refused_with_why(tmp_path, line, words):
    h = follower(tmp_path)
    h.clear()
    h.line(line)
    err = h.events("error")
    assert err and words in err[0]["error"], err
    assert h.c.phase == "opening"


def test_the_opening_command_outside_the_opening_roll_is_refused(tmp_path):
    h = follower(tmp_path)
    h.line("gnu opening dice=6,1")
    h.clear()
    h.line("gnu opening dice=6,1")
    assert "not the opening roll" in h.events("error")[0]["error"]


MP_SCRIPT = r"""
import json
JDIR = "."
from companion.controller import Companion, ROLL_W, ROLL_B, SHORT
from companion.store import Store
from virtual.frames import ideal_frame

class Dice:
    def roll(self):
        return (1, 1)
    def first_roll(self):
        return (1, 2)

W = [0] * 26
B = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    W[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    B[p] = n
c = Companion(Store(JDIR), Dice())
c.boot(ideal_frame(W, B), 0)
c.on_line("new length=3 force=1", 10)
c.on_frame(ideal_frame(W, B), 40)
c.on_line("gnu side=0 opening=1", 50)
c.on_button(ROLL_B, SHORT, 100)
c.on_line("gnu opening dice=7,1", 120)
c.on_line("gnu opening dice=3,5", 150)
for line in c.fx.out:
    ev = json.loads(line)
    if ev["ev"] in ("roll", "error"):
        print(ev["ev"], ev.get("dice"), ev.get("error"))
print(c.phase, c.match.on_roll)
"""

MP_EXPECTED = ["error None gnu opening: dice=D1,D2, each 1 to 6", "roll [3, 5] None", "moving 1"]


def run_script_cpython(tmp_path):
    import contextlib
    import io

    buf = io.StringIO()
    code = MP_SCRIPT.replace('JDIR = "."', "JDIR = %r" % str(tmp_path)).replace(
        "from virtual.frames", "from bgc.board.virtual.frames")
    with contextlib.redirect_stdout(buf):
        exec(code, {"__name__": "script"})
    return buf.getvalue().splitlines()


def test_the_remote_dice_lines_on_cpython(tmp_path):
    assert run_script_cpython(tmp_path) == MP_EXPECTED


@pytest.mark.micropython
def test_the_remote_dice_lines_under_micropython_are_the_same():
    import os

    from bgc import FIRMWARE_DIR
    from bgc.pico.upy import run

    virtual = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host", "bgc", "board",
                           "virtual")
    assert run(MP_SCRIPT, sources=[FIRMWARE_DIR, virtual], heap_kb=320).splitlines() == MP_EXPECTED
