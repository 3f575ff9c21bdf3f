"""Computer offline on the board (companion.phase_computer): a board waiting for the computer's
decision that hears no `gnu` line for OFFLINE_MS says "Computer offline", refuses every button,
and is back with the next `gnu` line; `gnu here` (bgc play's heartbeat) keeps it online through a
long think; the person's own turn never waits for the PC. The same under the real MicroPython."""

import json
import os

import pytest

from companion.phase_computer import OFFLINE_MS, offline
from companion_helpers import Harness, ROLL_W, ROLL_B, CUBE_W
from firmware_script import compile_with_mpy_cross, run_on_cpython, run_on_micropython


def computer_to_roll(tmp_path):
    """A 3-point match, GNU Backgammon Black; White opened and played, Black (the computer) to roll."""
    h = Harness(tmp_path, rolls=[(6, 3)], openings=[(6, 1)])
    h.start_match(length=3)
    h.line("gnu side=1")
    h.press(ROLL_W)  # the opening roll: White 6, Black 1
    h.move("w", 13, 7)
    h.move("w", 8, 7)
    h.press(ROLL_W)
    assert h.c.phase == "roll" and h.c.match.on_roll == 1
    return h


def at(h, ms):
    h.now += ms
    h.c.tick(h.now)


def test_the_board_says_computer_offline_after_the_timeout_and_is_back_with_the_next_gnu_line(tmp_path):
    h = computer_to_roll(tmp_path)
    at(h, 0)  # the board starts to wait for the computer's roll
    at(h, OFFLINE_MS - 10)
    assert not offline(h.c) and "offline" not in " ".join(h.c.fx.screen)
    h.clear()
    at(h, 10)
    assert offline(h.c) and "Computer offline" in " ".join(h.c.fx.screen)
    assert h.events("status")[-1]["offline"] is True
    # nothing goes on while the PC is away: every button is refused with the reason
    h.press(ROLL_W)
    h.press(CUBE_W)
    h.press(ROLL_B)
    assert h.c.phase == "roll" and h.c.match.dice == (0, 0) and h.c.msg == "Computer offline"
    h.line("gnu roll")
    assert not offline(h.c) and h.c.phase == "moving" and h.c.match.on_roll == 1
    assert "offline" not in h.events("status")[-1]


def test_the_heartbeat_keeps_the_board_online_while_the_engine_thinks(tmp_path):
    h = computer_to_roll(tmp_path)
    at(h, 0)
    for _ in range(20):  # twenty seconds of thinking at a deep level, heard every second
        at(h, 1000)
        h.line("gnu here")
    assert not offline(h.c) and h.c.phase == "roll"


def test_the_persons_turn_does_not_wait_for_the_pc(tmp_path):
    h = computer_to_roll(tmp_path)
    h.line("gnu roll")
    h.line("gnu play pos=%s" % _play(h, "13/7 13/10"))
    h.move("b", 12, 18)
    h.move("b", 12, 15)
    assert h.c.phase == "roll" and h.c.match.on_roll == 0
    at(h, 0)
    at(h, 60000)  # the person thinks a minute: the PC is not needed
    assert not offline(h.c)


def _play(h, notation):
    from bgc.rules.notation_read import apply_moves

    return apply_moves(h.c.match.turn.start, notation).id()


UPY = r"""
import json
from companion.controller import Companion, ROLL_W, ROLL_B, SHORT
from companion.phase_computer import offline
from companion.store import Store
from virtual.frames import ideal_frame

class Dice:
    def roll(self):
        return (6, 4)
    def first_roll(self):
        return (6, 1)

W = [0] * 26
B = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    W[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    B[p] = n
c = Companion(Store("."), Dice())
c.boot(ideal_frame(W, B), 0)
# a set position: the 5-point match at 2-3, Black on roll with 6-4, one White checker to move 24 -> 8
c.on_line('{"cmd": "new", "length": 5, "pos": "4PPgAyDgc/ABMA", "mid": "cAmzACAAGAAE", "force": true}', 10)
print("setup", c.phase, c.fx.screen[0], sorted(c.tracker.wrong_points()))
W[24] -= 1
W[8] += 1
c.on_frame(ideal_frame(W, B), 40)
st = [json.loads(x) for x in c.fx.out if json.loads(x)["ev"] == "status"][-1]
print("ready", c.phase, st["match"], st["pos"], st["dice"])
c.on_line("new pos=4PPgAyDgc/ABMA mid=cAmzACAAGAAx length=5 force=1", 50)
print("bad", [json.loads(x)["error"] for x in c.fx.out if json.loads(x)["ev"] == "error"][-1])
# the computer plays White in a new match: it won the opening roll, and the PC goes quiet
W[8] -= 1
W[24] += 1
c.on_frame(ideal_frame(W, B), 100)
c.on_line("new length=3 force=1", 110)
c.on_frame(ideal_frame(W, B), 140)
c.on_line("gnu side=0", 150)
c.on_button(ROLL_B, SHORT, 400)
print("opening", c.phase, c.match.on_roll, offline(c))
c.tick(400)
c.tick(5399)
print("4999", offline(c))
c.tick(5400)
print("5000", offline(c), " ".join(" ".join(c.fx.screen).split()))
c.on_button(ROLL_B, SHORT, 5500)
print("pressed", c.phase, c.msg)
c.on_line("gnu here", 5600)
print("back", offline(c), c.msg)
"""


def upy_script():
    return UPY


EXPECTED = [
    "setup board Set up: position [8, 24]",
    "ready moving cAmzACAAGAAE 4PPgAyDgc/ABMA [6, 4]",
    "bad setup refused: score 2-8195 beyond the match length 5",
    "opening moving 0 False",
    "4999 False",
    "5000 True Match to 3: 0-0 Cube 1 centred White dice 6-1 Pips W167 B167 Computer offline Start bgc play on the PC again",
    "pressed moving Computer offline",
    "back False Computer back",
]


def test_set_position_and_computer_offline_script_on_cpython(tmp_path):
    assert run_on_cpython(upy_script(), tmp_path).splitlines() == EXPECTED


@pytest.mark.micropython
def test_set_position_and_computer_offline_are_the_same_under_micropython():
    assert run_on_micropython(upy_script()).splitlines() == EXPECTED


def test_the_set_position_module_compiles_with_mpy_cross(tmp_path):

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in ("bgrules/match_setup.py", "companion/phase_computer.py", "companion/recovery.py"):
        assert os.path.getsize(compile_with_mpy_cross(os.path.join(root, "firmware", path), tmp_path)) > 0
