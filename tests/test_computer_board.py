"""The computer's turn on the board (companion.phase_computer, companion.computer_turn): the PC's GNU
Backgammon sends its play over the serial line (`gnu play pos=...`), the board lights each checker
to move and where it goes (a hit, the bar and a bear-off apart), the OLED says the play, the person
moves the computer's checkers in any order, anything else is refused with what to do, and the turn
passes when the board shows the play. The plays here are legal plays the test names (GNU Backgammon's
choice is tests/test_gnubg_player.py's); the rules engine is the reference for their legality."""

import json

import pytest

from bgc.rules.notation_read import apply_moves
from bgrules.position import Position
from companion.computer_turn import ComputerTurn
from bgrules.turn import Turn
from companion_helpers import Harness, ROLL_B, ROLL_W, CUBE_W
from firmware_script import compile_with_mpy_cross, run_on_cpython, run_on_micropython

BLACK = 1


def black_opens(tmp_path, white_die, black_die, rolls=()):
    """A 5-point match with GNU Backgammon as Black, who wins the opening roll."""
    h = Harness(tmp_path, rolls=rolls, openings=[(white_die, black_die)])
    h.start_match()
    h.line("gnu side=1")
    h.press(ROLL_W)  # the opening roll (either side's ROLL)
    assert h.c.match.on_roll == BLACK
    return h


def gnu_play(h, notation):
    """The PC sends the computer's play as the Position ID after it (the mover's view)."""
    final = apply_moves(h.c.match.turn.start, notation)
    h.clear()
    h.line("gnu play pos=%s" % final.id())
    return final


def test_the_computers_play_is_lit_said_and_passes_when_the_board_shows_it(tmp_path):
    h = black_opens(tmp_path, 1, 6)
    gnu_play(h, "13/7 8/7")
    assert "GNU 13/7 8/7" in h.screen()
    # Black's 13 and 8 are board points 12 and 17 (the checkers to move), its 7 board point 18
    assert h.leds("gnu_from") == [12, 17] and h.leds("gnu_to") == [18]
    assert h.events("gnu")[0]["move"] == "13/7 8/7"
    assert json.loads(h.c.fx.out[-1])["ev"] == "status" and h.events("status")[-1]["gnu"] == "13/7 8/7"
    h.clear()
    h.move("b", 12, 18)
    assert h.leds("gnu_from") == [17] and h.leds("gnu_to") == [18]  # only what is left
    assert not h.events("play")
    h.move("b", 17, 18)
    plays = h.events("play")
    assert plays and plays[0]["p"] == BLACK and plays[0]["move"] == "13/7 8/7"
    assert h.c.phase == "roll" and h.c.match.on_roll == 0
    records, problem = h.journal()
    assert problem is None and records[-1]["a"] == "play" and records[-1]["move"] == "13/7 8/7"


def test_the_steps_in_any_order_and_a_checker_straight_to_the_end_of_its_move(tmp_path):
    h = black_opens(tmp_path, 1, 6)
    gnu_play(h, "13/7 8/7")
    h.move("b", 17, 18)  # the 1 first
    h.move("b", 12, 18)
    assert h.events("play")[0]["move"] == "13/7 8/7"
    # 24/14 with 6-4 for White afterwards is the person's turn: not restricted
    h2 = black_opens(tmp_path / "b", 2, 6)
    gnu_play(h2, "24/18/16")
    h2.move("b", 1, 9)  # Black's 24 to its 16 in one go (board 1 to 9)
    assert h2.events("play")[0]["move"] == "24/16"


def test_another_placement_is_flagged_with_the_computers_play_and_can_be_put_right(tmp_path):
    h = black_opens(tmp_path, 1, 6)
    gnu_play(h, "13/7 8/7")
    h.clear()
    h.move("b", 1, 7)  # Black's 24/18: a legal step of 6-1, not GNU's play
    ill = h.events("illegal")
    assert ill and ill[0]["reason"] == "GNU plays 13/7 8/7" and ill[0]["p"] == BLACK
    assert "GNU plays 13/7 8/7" in " ".join(h.screen().split())  # on two lines of the OLED
    h.clear()
    h.move("b", 7, 1)  # back
    assert h.events("ok")
    h.move("b", 12, 18)
    h.move("b", 17, 18)
    assert h.events("play")[0]["move"] == "13/7 8/7"


def test_a_hit_lights_the_blot_and_the_bar_it_goes_to(tmp_path):
    # White opens 6-1 with 13/7 6/5 (blots on its 7 and 5); Black (GNU) rolls 6-4 and hits on 18
    h = Harness(tmp_path, rolls=[(6, 4)], openings=[(6, 1)])
    h.start_match()
    h.line("gnu side=1")
    h.press(ROLL_W)
    h.move("w", 13, 7)
    h.move("w", 6, 5)
    h.press(ROLL_W)  # done
    assert h.c.phase == "roll" and h.c.match.on_roll == BLACK
    h.line("gnu roll")
    assert h.c.phase == "moving"
    gnu_play(h, "24/18* 13/9")
    # Black's 24 (board 1) and 13 (board 12) move; its 18 is board 7 where White's blot is hit;
    # the hit blot goes to White's bar (LED point 25)
    assert h.leds("gnu_from") == [1, 12] and h.leds("gnu_to") == [16]
    assert h.leds("gnu_hit") == [7, 25]
    assert "GNU 24/18* 13/9" in h.screen()
    h.move("w", 7, 25)  # the person takes the blot to the bar first
    h.move("b", 1, 7)
    h.move("b", 12, 16)
    assert h.events("play")[-1]["move"] == "24/18* 13/9"


def test_the_computers_buttons_are_the_pcs_and_a_wrong_command_is_an_error(tmp_path):
    h = black_opens(tmp_path, 1, 6)
    h.clear()
    h.press(ROLL_B)
    assert "GNU decides (PC)" in h.screen() and h.c.phase == "moving"
    h.line("gnu play pos=4HPwATDgc/ABMA")  # the start: not a play of 6-1
    err = h.events("error")
    assert err and "not a legal play of 6-1" in err[0]["error"]
    h.clear()
    h.line("gnu take")
    assert "no double to answer" in h.events("error")[0]["error"]
    h.line("gnu fly")
    assert "gnu: what did the computer do?" in h.events("error")[-1]["error"]


def test_the_computer_doubles_and_answers_a_double(tmp_path):
    h = black_opens(tmp_path, 1, 6, rolls=[(3, 1)])
    gnu_play(h, "13/7 8/7")
    h.move("b", 12, 18)
    h.move("b", 17, 18)
    assert h.c.phase == "roll" and h.c.match.on_roll == 0
    h.press(CUBE_W)  # the person doubles
    assert h.c.phase == "doubled" and h.c.match.to_act == BLACK
    h.clear()
    h.line("gnu take")
    assert h.events("cube")[0]["action"] == "take" and h.c.match.cube == 2
    assert h.c.phase == "roll" and h.c.match.on_roll == 0


def test_a_checker_lifted_for_a_point_of_five_or_more_does_not_make_the_computers_play(tmp_path):
    # The sensors count a point's checkers only up to five (tracker: "five or more" from then on),
    # so the sixth one set down on Black's 6 point (board 19) is not seen landing. Lifting the
    # checker for it must not pass the turn as if it had landed: the checker is still in the hand
    # (the person may yet put it elsewhere). The play counts as made when the board has stayed so
    # for a moment (phase_computer.UNSEEN_MS), as a bear-off does.
    h = black_opens(tmp_path, 2, 6)
    gnu_play(h, "24/18 8/6")
    h.move("b", 1, 7)  # 24/18, seen
    h.lift("b", 17)  # the checker for 8/6 in the hand
    assert not h.events("play") and h.c.phase == "moving"
    assert h.leds("lifted") == [17] and h.leds("legal") == [19]  # a checker in the air: where it may go
    h.put("b", 19)  # on top of the five (the same frame as in the hand)
    h.now += 200
    h.c.tick(h.now)
    assert not h.events("play")
    h.now += 1500
    h.c.tick(h.now)
    plays = h.events("play")
    assert plays and plays[0]["move"] == "24/18 8/6" and h.c.phase == "roll"


def test_a_checker_for_a_point_of_five_or_more_put_elsewhere_is_flagged(tmp_path):
    # the same lift, the checker then set down on Black's 5 point instead: GNU's play is named
    h = black_opens(tmp_path, 2, 6)
    gnu_play(h, "24/18 8/6")
    h.move("b", 1, 7)
    h.lift("b", 17)
    h.now += 500  # a hand that takes its time
    h.c.tick(h.now)
    h.clear()
    h.put("b", 20)
    ill = h.events("illegal")
    assert ill and ill[0]["reason"] == "GNU plays 24/18 8/6" and not h.events("play")


def test_the_plan_of_a_bear_off_and_of_an_entry_from_the_bar():
    # the mover has checkers on its 6 and 2 and the rest borne off: 6/off 2/off with 6-2... 6/4 4/off
    mover = [0] * 24
    mover[5], mover[1] = 1, 1
    opp = [0] * 24
    opp[23] = 2
    start = Position.from_points(mover, opp)
    turn = Turn(start, 6, 2)
    final = apply_moves(start, "6/off 2/off")
    g = ComputerTurn(turn, final.cells, "6/off 2/off")
    src, dst, hits, off = g.plan(start.cells)
    assert src == [2, 6] and off == [2, 6] and dst == []
    # from the bar: the source is the bar (25)
    mover = [0] * 24
    mover[5] = 14
    start = Position.from_points(mover, [0] * 23 + [15], mover_bar=1)
    turn = Turn(start, 3, 1)
    final = apply_moves(start, "bar/22 6/5")
    g = ComputerTurn(turn, final.cells, "bar/22 6/5")
    src, dst, hits, off = g.plan(start.cells)
    assert src == [6, 25] and dst == [5, 22] and off == []


# The same turn under MicroPython (the Pico's interpreter): the `gnu` lines as the PC sends them,
# the computer's checkers moved in another order than the play's, a wrong placement first.
UPY = r"""
import json
from companion.controller import Companion, ROLL_W, SHORT, COLOUR_NAMES, led_index
from companion.phase_computer import GNU_COLOUR_NAMES  # codes 6-9: the computer's play
NAMES = COLOUR_NAMES + GNU_COLOUR_NAMES
from companion.store import Store
from virtual.frames import ideal_frame

class Dice:
    def roll(self):
        return (6, 4)
    def first_roll(self):
        return (1, 6)

W = [0] * 26
B = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    W[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    B[p] = n
now = [0]
c = Companion(Store("."), Dice())

def show():
    now[0] += 30
    c.on_frame(ideal_frame(W, B), now[0])

def move(a, b):
    B[a] -= 1
    B[b] += 1
    show()

def events(kind):
    return [json.loads(x) for x in c.fx.out if json.loads(x)["ev"] == kind]

c.boot(ideal_frame(W, B), 0)
c.new_match({"length": 3}, True)
show()
c.on_line("gnu side=1", 1)
c.on_button(ROLL_W, SHORT, 200)
c.fx.out = []
c.on_line("gnu play pos=%s", 300)
print("screen", " ".join(" ".join(c.fx.screen).split()))
print("from", [p for p in range(26) if NAMES[c.fx.leds[led_index(p)]] == "gnu_from"])
print("to", [p for p in range(26) if NAMES[c.fx.leds[led_index(p)]] == "gnu_to"])
move(1, 7)
print("illegal", [e["reason"] for e in events("illegal")])
move(7, 1)
move(17, 18)
move(12, 18)
print("play", [(e["p"], e["move"]) for e in events("play")], c.phase, c.match.on_roll)
"""


def upy_script():
    from bgrules.match import Match  # noqa: F401  (the script's play is the engine's legal one)

    final = apply_moves(Turn(Position.start(), 6, 1).start, "13/7 8/7")
    return UPY % final.id()


EXPECTED = [
    "screen Match to 3: 0-0 Cube 1 centred Black dice 6-1 Pips W167 B167 GNU 13/7 8/7 Move GNU's checkers as lit",
    "from [12, 17]",
    "to [18]",
    "illegal ['GNU plays 13/7 8/7']",
    "play [(1, '13/7 8/7')] roll 0",
]


# A checker lifted for a point of five or more (above), under MicroPython as under CPython.
UPY_STACKED = UPY.split("c.boot(")[0].replace("return (1, 6)", "return (2, 6)") + r"""
def lift(a):
    B[a] -= 1
    show()

def put(b):
    B[b] += 1
    show()

c.boot(ideal_frame(W, B), 0)
c.new_match({"length": 3}, True)
show()
c.on_line("gnu side=1", 1)
c.on_button(ROLL_W, SHORT, 200)
c.fx.out = []
c.on_line("gnu play pos=%s", 300)
move(1, 7)
lift(17)
print("lifted", len(events("play")), c.phase)
put(19)
c.tick(now[0] + 200)
print("set down", len(events("play")), c.phase)
c.tick(now[0] + 1700)
print("settled", [e["move"] for e in events("play")], c.phase)
"""


def upy_stacked_script():
    final = apply_moves(Turn(Position.start(), 6, 2).start, "24/18 8/6")
    return UPY_STACKED % final.id()


EXPECTED_STACKED = ["lifted 0 moving", "set down 0 moving", "settled ['24/18 8/6'] roll"]


def test_a_lift_for_a_point_of_five_or_more_script_on_cpython(tmp_path):
    assert run_on_cpython(upy_stacked_script(), tmp_path).splitlines() == EXPECTED_STACKED


@pytest.mark.micropython
def test_a_lift_for_a_point_of_five_or_more_is_the_same_under_micropython():
    assert run_on_micropython(upy_stacked_script()).splitlines() == EXPECTED_STACKED


def test_the_computers_turn_script_on_cpython(tmp_path):
    assert run_on_cpython(upy_script(), tmp_path).splitlines() == EXPECTED


@pytest.mark.micropython
def test_the_computers_turn_is_the_same_under_micropython():
    assert run_on_micropython(upy_script()).splitlines() == EXPECTED


def test_the_computers_modules_compile_with_mpy_cross(tmp_path):
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name in ("phase_computer", "computer_turn", "protocol_computer"):
        assert os.path.getsize(compile_with_mpy_cross(os.path.join(root, "firmware", "companion", name + ".py"),
                                                      tmp_path)) > 0
