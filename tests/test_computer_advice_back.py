"""Advice, the teacher's words and take-back at the board in a match against the computer
(companion.phase_computer; docs/player-guide.md, "Advice and take-back"): the person's ROLL held in
their turn to move asks the PC for GNU Backgammon's best play (the `advice` event) and the answer
(`gnu hint`) is lit as the computer's play is; held at another moment it takes the person's last
play back with the computer's reply, journaled (`back`) so that the board's own journal reader
(companion.recovery) and the host's (bgc.logs.journals) both see the game as finally played. The
plays are legal plays the test names (GNU Backgammon's choice is tests/test_computer_teach.py's);
the rules engine is the reference for their legality."""

import json

import pytest

from bgc.logs import journals
from bgc.rules.notation_read import apply_moves
from companion import recovery
from companion_helpers import CUBE_W, Harness, LONG, ROLL_B, ROLL_W
from firmware_script import compile_with_mpy_cross, run_on_cpython, run_on_micropython

WHITE, BLACK = 0, 1


def white_opens(tmp_path, rolls=((6, 1),)):
    """A 5-point match, GNU Backgammon Black; the person (White) wins the opening roll with 6-4."""
    h = Harness(tmp_path, rolls=list(rolls), openings=[(6, 4)])
    h.start_match()
    h.line("gnu side=1")
    h.press(ROLL_W)
    assert h.c.phase == "moving" and h.c.match.on_roll == WHITE
    return h


def white_plays_13_7_13_9_and_gnu_answers_13_7_8_7(h):
    h.move("w", 13, 7)
    h.move("w", 13, 9)
    h.press(ROLL_W)  # DONE
    assert h.c.phase == "roll" and h.c.match.on_roll == BLACK
    h.line("gnu roll")
    final = apply_moves(h.c.match.turn.start, "13/7 8/7")
    h.line("gnu play pos=%s" % final.id())
    h.move("b", 12, 18)  # Black's 13 and 8 are board points 12 and 17, its 7 board point 18
    h.move("b", 17, 18)
    assert h.c.phase == "roll" and h.c.match.on_roll == WHITE


def test_a_held_roll_in_the_persons_turn_asks_for_advice_and_the_hint_is_lit_as_gnus_play(tmp_path):
    h = white_opens(tmp_path)
    h.clear()
    h.press(ROLL_W, LONG)
    ask = h.events("advice")
    assert ask == [{"ev": "advice", "p": WHITE, "match": h.c.match.match_id(), "pos": h.c.match.position_id()}]
    assert h.c.phase == "moving" and not h.events("play")  # a held ROLL is not DONE here
    best = apply_moves(h.c.match.turn.start, "24/14")
    h.line("gnu hint pos=%s" % best.id())
    assert "Hint 24/14" in h.screen()
    assert h.leds("gnu_from") == [24] and h.leds("gnu_to") == [14]
    # the person plays as they like: the hint only shows what is left of the best play
    h.move("w", 24, 18)
    assert h.leds("gnu_from") == [18] and h.leds("gnu_to") == [14]
    h.move("w", 13, 9)
    h.press(ROLL_W)
    assert h.events("play")[-1]["move"] == "24/18 13/9"
    assert h.leds("gnu_from") == [] and h.leds("gnu_to") == []  # the hint was for that turn only


def test_a_hint_that_is_not_a_play_of_the_persons_roll_is_refused(tmp_path):
    h = white_opens(tmp_path)
    h.clear()
    h.line("gnu hint pos=4HPwATDgc/ABMA")  # the start: no play of 6-4
    assert "not a legal play of 6-4" in h.events("error")[0]["error"]
    assert h.leds("gnu_from") == []
    white_plays_13_7_13_9_and_gnu_answers_13_7_8_7(h)
    h.clear()
    h.line("gnu hint pos=4HPwATDgc/ABMA")  # the person's roll not rolled yet
    assert "not the person's turn to move" in h.events("error")[0]["error"]


def test_the_teachers_words_stay_on_the_oled_while_the_computer_is_to_act(tmp_path):
    h = white_opens(tmp_path)
    h.move("w", 13, 7)
    h.move("w", 13, 9)
    h.press(ROLL_W)
    h.line(json.dumps({"cmd": "gnu", "do": "tell", "text": "Bad -0.082: 24/14"}))
    lines = h.c.fx.screen
    assert lines[-2:] == ["Bad -0.082:", "24/14"]
    h.line("gnu roll")
    final = apply_moves(h.c.match.turn.start, "13/7 8/7")
    h.line("gnu play pos=%s" % final.id())
    assert h.c.fx.screen[-2:] == ["Bad -0.082:", "24/14"] and "GNU 13/7 8/7" in h.screen()
    h.move("b", 12, 18)
    h.move("b", 17, 18)
    assert h.c.fx.screen[-2:] == ["ROLL: roll dice", "CUBE: double"]  # the person's turn: their buttons
    # a long better play takes two lines; in the person's own turn the words are the message
    h.line(json.dumps({"cmd": "gnu", "do": "tell", "text": "Very bad -0.412: bar/22 24/20* 13/9"}))
    assert "Very bad -0.412: bar/22 24/20* 13/9" == h.c.msg
    h.clear()
    h.line(json.dumps({"cmd": "gnu", "do": "tell", "text": ""}))
    assert "gnu tell" in h.events("error")[0]["error"]


def test_a_held_roll_after_the_computers_reply_takes_the_play_back_and_the_board_asks_for_the_checkers(tmp_path):
    h = white_opens(tmp_path)
    before = h.c.match.dumps()
    white_plays_13_7_13_9_and_gnu_answers_13_7_8_7(h)
    h.clear()
    h.press(ROLL_W, LONG)
    back = h.events("back")
    assert back and back[0]["p"] == WHITE and back[0]["to"] == before
    assert h.c.phase == "board" and h.c.match.dumps() == before  # White to move 6-4 again
    screen = h.screen()
    assert screen.startswith("Take back")
    # red: the person's 7 and 9 and GNU's 18 (extra), White's 13 and Black's 12 and 17 (missing)
    assert h.leds("illegal") == [7, 9, 12, 13, 17, 18]
    h.move("b", 18, 12)
    h.move("b", 18, 17)
    h.move("w", 7, 13)
    h.move("w", 9, 13)
    assert h.c.phase == "moving" and h.c.match.on_roll == WHITE and h.c.match.dice == (6, 4)
    assert h.leds("illegal") == []
    h.move("w", 24, 14)
    h.press(ROLL_W)
    assert h.events("play")[-1]["move"] == "24/14"
    records, problem = h.journal()
    assert problem is None
    assert [r["a"] for r in records][-5:] == ["play", "roll", "play", "back", "play"]
    # the board's journal reader comes to the same match as the board
    assert recovery.replay(records).dumps() == h.c.match.dumps()
    # the host's reader shows the game as finally played: White's 24/14, GNU's reply not yet
    log = journals.replay_text(open(_path(h)).read())
    assert log.problem is None
    moves = [(a["p"], a["notation"], a["dice"], a["opening"]) for a in log.games[0].moves]
    assert moves == [(WHITE, "24/14", (6, 4), True)]


def _path(h):
    import os

    return os.path.join(h.dir, h.c.name)


def test_a_take_back_in_the_computers_turn_drops_its_play_shown_and_survives_a_power_cut(tmp_path):
    h = white_opens(tmp_path)
    before = h.c.match.dumps()
    h.move("w", 13, 7)
    h.move("w", 13, 9)
    h.press(ROLL_W)
    h.line("gnu roll")
    final = apply_moves(h.c.match.turn.start, "13/7 8/7")
    h.line("gnu play pos=%s" % final.id())
    assert h.leds("gnu_from") == [12, 17]
    h.clear()
    h.press(ROLL_W, LONG)  # while GNU's play is still to be made on the board
    assert h.events("back") and h.c.gnu is None and h.c.match.dumps() == before
    assert h.leds("gnu_from") == []
    # a power cut: the board boots from its journal into the same match, asking for the checkers
    h2 = Harness(tmp_path, boot=False)
    h2.white, h2.black = list(h.white), list(h.black)
    h2.c.boot(h2.frame(), 0)
    assert h2.c.match.dumps() == before


def test_nothing_to_take_back_a_held_roll_rolls_and_the_computers_buttons_stay_the_pcs(tmp_path):
    h = Harness(tmp_path, rolls=[(6, 4)], openings=[(4, 6)])
    h.start_match()
    h.line("gnu side=1")
    h.press(ROLL_W)
    h.line("gnu play pos=%s" % apply_moves(h.c.match.turn.start, "24/14").id())
    h.move("b", 1, 11)
    assert h.c.phase == "roll" and h.c.match.on_roll == WHITE
    h.clear()
    h.press(ROLL_W, LONG)  # no play of the person's yet in this game: the roll, as ever
    assert not h.events("back") and h.c.phase == "moving" and h.c.match.dice == (6, 4)
    h.clear()
    h.press(ROLL_B, LONG)
    assert "GNU decides (PC)" in h.screen() and not h.events("advice")


def test_a_back_record_that_does_not_fit_is_damage_named_by_the_reader(tmp_path):
    h = white_opens(tmp_path)
    other = h.c.match.dumps()
    white_plays_13_7_13_9_and_gnu_answers_13_7_8_7(h)
    records, _ = h.journal()
    # the match before the play, but Black's to move: not the person's play to take back
    with pytest.raises(Exception) as exc:
        recovery.replay(records + [{"a": "back", "p": BLACK, "to": other}])
    assert "back refused" in str(exc.value)
    with pytest.raises(Exception) as exc:
        recovery.replay(records + [{"a": "back", "p": WHITE, "to": "garbage"}])
    assert "back refused" in str(exc.value)


# Advice, the teacher's words and a take-back under MicroPython (the Pico's interpreter), as the PC
# sends its lines: the same script gives the same lines under CPython.
UPY = r"""
import json
from virtual.frames import ideal_frame  # the drivers' machine code first, as main.py has it
from companion.controller import Companion, ROLL_W, SHORT, LONG, COLOUR_NAMES, led_index
from companion.phase_computer import GNU_COLOUR_NAMES
from companion import recovery, journal
NAMES = COLOUR_NAMES + GNU_COLOUR_NAMES
from companion.store import Store

class Dice:
    def roll(self):
        return (6, 1)
    def first_roll(self):
        return (6, 4)

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

def move(side, a, b):
    side[a] -= 1
    side[b] += 1
    show()

def events(kind):
    return [json.loads(x) for x in c.fx.out if json.loads(x)["ev"] == kind]

def lit(name):
    return [p for p in range(26) if NAMES[c.fx.leds[led_index(p)]] == name]

c.boot(ideal_frame(W, B), 0)
c.new_match({"length": 3}, True)
show()
c.on_line("gnu side=1", 1)
c.on_button(ROLL_W, SHORT, 200)
before = c.match.dumps()
c.fx.out = []
c.on_button(ROLL_W, LONG, 300)
print("advice", [(e["p"], e["pos"]) for e in events("advice")], c.phase)
c.on_line("gnu hint pos=%s", 400)
print("hint", lit("gnu_from"), lit("gnu_to"), c.fx.screen[4])
move(W, 13, 7)
move(W, 13, 9)
c.on_button(ROLL_W, SHORT, 500)
c.on_line('{"cmd": "gnu", "do": "tell", "text": "Bad -0.107: 24/14"}', 600)
print("tell", c.fx.screen[6:])
c.on_line("gnu roll", 700)
c.on_line("gnu play pos=%s", 800)
move(B, 12, 18)
move(B, 17, 18)
print("after", c.phase, c.match.on_roll, c.fx.screen[6:])
c.fx.out = []
c.on_button(ROLL_W, LONG, 900)
print("back", [e["p"] for e in events("back")], c.phase, c.fx.screen[0], lit("illegal"), c.match.dumps() == before)
move(B, 18, 12)
move(B, 18, 17)
move(W, 7, 13)
move(W, 9, 13)
print("moving", c.phase, c.match.dice, lit("illegal"))
move(W, 24, 14)
c.on_button(ROLL_W, SHORT, 1000)
recs = journal.Journal(c.store.path(c.name)).read()[0]
print("journal", [r["a"] for r in recs][-5:], recovery.replay(recs).dumps() == c.match.dumps())
"""


def upy_script():
    from bgrules.position import Position
    from bgrules.turn import Turn

    start = Position.start()
    hint = apply_moves(Turn(start, 6, 4).start, "24/14")
    after = apply_moves(apply_moves(start, "13/7 13/9").swapped(), "13/7 8/7")
    return UPY % (hint.id(), after.id())


EXPECTED = [
    "advice [(0, '4HPwATDgc/ABMA')] moving",
    "hint [24] [14] Hint 24/14",
    "tell ['Bad -0.107:', '24/14']",
    "after roll 0 ['ROLL: roll dice', 'CUBE: double']",
    "back [0] board Take back [7, 9, 12, 13, 17, 18] True",
    "moving moving (6, 4) []",
    "journal ['play', 'roll', 'play', 'back', 'play'] True",
]


def test_advice_and_take_back_script_on_cpython(tmp_path):
    assert run_on_cpython(upy_script(), tmp_path).splitlines() == EXPECTED


@pytest.mark.micropython
def test_advice_and_take_back_are_the_same_under_micropython():
    assert run_on_micropython(upy_script()).splitlines() == EXPECTED


def test_the_persons_help_is_its_own_module_compiled_with_mpy_cross_and_loaded_only_when_asked_for(tmp_path):
    import os
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    assert os.path.getsize(compile_with_mpy_cross(os.path.join(root, "firmware", "companion", "computer_help.py"),
                                                  tmp_path)) > 0
    # a match against the computer whose person never asks for help does not load it
    import companion

    sys.modules.pop("companion.computer_help", None)
    companion.__dict__.pop("computer_help", None)
    h = white_opens(tmp_path / "m")
    h.move("w", 13, 7)
    h.move("w", 13, 9)
    h.press(ROLL_W)
    h.line("gnu roll")
    assert "companion.computer_help" not in sys.modules
    h.press(ROLL_W, LONG)  # a take-back: now it is
    assert "companion.computer_help" in sys.modules and h.events("back")
