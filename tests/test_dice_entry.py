"""Playing with your own dice (issue 14): with the own-dice setting the players roll real dice and
key the values in with the buttons or over serial; the journal records that they were entered,
and the rest (lit destinations, illegal flags, DONE) works as with the electronic dice. The
electronic dice are never asked (ForcedDice with no values would fail if they were)."""

from bgrules import Position, Turn
from companion import display
from companion.controller import CUBE_B, CUBE_W, LONG, ROLL_B, ROLL_W
from companion_helpers import Harness

W = display.W


def own_dice_match(tmp_path):
    h = Harness(tmp_path)  # no electronic rolls at all
    h.start_match(length=5, own_dice=True)
    assert h.c.phase == "opening"
    return h


def key_in(h, roll_button, cube_button, first, second):
    """Key in two dice: ROLL starts, CUBE steps each die up from 1, ROLL keeps it."""
    h.press(roll_button)
    for _ in range(first - 1):
        h.press(cube_button)
    h.press(roll_button)
    for _ in range(second - 1):
        h.press(cube_button)
    h.press(roll_button)


def test_dice_keyed_in_with_the_buttons_are_played_and_journaled_as_entered(tmp_path):
    h = own_dice_match(tmp_path)
    h.press(ROLL_W)
    assert "White die: [1]" in h.screen()
    assert h.c.fx.screen[-3:] == ["CUBE: next value", "ROLL: keep it", "hold CUBE: back"]
    for _ in range(3):
        h.press(CUBE_W)
    assert "White die: [4]" in h.screen()
    h.press(ROLL_W)
    assert "Black die: [1]" in h.screen()
    h.press(CUBE_B)  # at the opening roll either player keys in
    h.press(ROLL_W)
    assert h.c.phase == "moving" and h.c.match.dice == (4, 2)
    roll = h.events("roll")[-1]
    assert roll["opening"] and roll["dice"] == [4, 2] and roll["entered"] is True
    records, problem = h.journal()
    assert problem is None
    assert records[0]["dice"] == "own" and records[-1] == {"a": "open", "dice": [4, 2], "entered": True}
    # The lit destinations are the rules' (bgrules), as with electronic dice.
    start = Position.start()
    h.lift("w", 8)
    assert h.leds("legal") == sorted(Turn(start, 4, 2).destinations(start, 8))
    h.put("w", 4)
    h.move("w", 6, 4)
    h.press(ROLL_W)  # DONE
    assert h.events("play")[-1]["move"] == "8/4 6/4"
    assert h.c.phase == "roll" and h.c.match.on_roll == 1
    assert "ROLL: enter dice" in h.screen()


def test_dice_sent_over_serial_and_an_illegal_placement_is_still_flagged(tmp_path):
    h = own_dice_match(tmp_path)
    h.line("dice 3 1")  # White 3, Black 1: White starts 3-1
    assert h.events("roll")[-1]["entered"] is True and h.c.match.dice == (3, 1)
    h.move("w", 8, 5)
    h.move("w", 6, 5)
    h.press(ROLL_W)
    assert h.events("play")[-1]["move"] == "8/5 6/5"
    h.clear()
    h.line('{"cmd": "dice", "dice": [6, 5]}')  # Black's roll
    assert h.c.match.dice == (6, 5) and h.events("roll")[-1] == {"ev": "roll", "p": 1, "dice": [6, 5], "entered": True}
    records, _ = h.journal()
    assert records[-1] == {"a": "roll", "p": 1, "dice": [6, 5], "entered": True}
    h.move("b", 1, 3)  # black's 24/22: not a 6 or a 5
    assert h.events("illegal"), "a wrong placement with entered dice must be flagged"
    h.move("b", 3, 1)
    h.move("b", 1, 12)  # 24/13, Lover's Leap
    h.press(ROLL_B)
    assert h.events("play")[-1]["move"] == "24/13"


def test_holding_cube_backs_out_of_the_entry_and_the_cube_works_again(tmp_path):
    h = own_dice_match(tmp_path)
    h.line("dice 5 2")
    h.move("b", 12, 7)  # Black's 13/11 would be illegal for White's roll... White plays instead:
    h.move("b", 7, 12)
    h.move("w", 13, 8)
    h.move("w", 13, 11)
    h.press(ROLL_W)
    assert h.c.match.on_roll == 1
    h.press(ROLL_B)
    h.press(CUBE_B)
    assert "Dice: [2]-?" in h.screen()
    h.press(ROLL_B)
    assert "Dice: 2-[1]" in h.screen()
    h.press(CUBE_B, LONG)  # back to the first die
    assert "Dice: [2]-?" in h.screen()
    h.press(CUBE_B, LONG)  # out of the entry
    assert not h.c.entry.active and h.c.phase == "roll"
    h.press(CUBE_B)  # now CUBE doubles again
    assert h.events("cube")[-1]["action"] == "double"


def test_serial_dice_are_refused_clearly(tmp_path):
    h = Harness(tmp_path, openings=[(3, 1)])
    h.start_match(length=5)
    h.line("dice 3 1")
    assert "own_dice=1" in h.events("error")[-1]["error"]
    h2 = own_dice_match(tmp_path / "b")
    for line, why in (("dice 7 1", "1 to 6"), ("dice 3", "two values"), ('{"cmd": "dice", "dice": [true, 2]}', "1 to 6")):
        h2.line(line)
        assert why in h2.events("error")[-1]["error"], line
    assert h2.c.phase == "opening" and not h2.events("roll")


def test_own_dice_survive_a_power_cut(tmp_path):
    h = own_dice_match(tmp_path)
    h.line("dice 6 1")
    again = Harness(tmp_path)  # the Pico boots again from the same flash
    assert again.c.match is not None and again.c.entry.own


def test_entry_screens_fit_the_panel():
    from companion.dice_entry import DiceEntry

    e = DiceEntry()
    for opening in (True, False):
        e.begin(-1 if opening else 0, opening)
        for _ in range(2):
            for _ in range(6):
                assert len(e.message(("Alexandra", "Bartholomew"))) <= W
                e.press(False, 1)
            e.press(True, 1)
    assert all(len(line) <= W for line in e.hint().split("\n"))


UPY_OWN_DICE = r'''
import gc
from companion.controller import Companion, ROLL_W, CUBE_W, ROLL_B, SHORT
from companion.store import Store
from frames import ideal_frame

class NoDice:  # the board's dice must not be asked
    def roll(self): raise RuntimeError("electronic dice asked")
    def first_roll(self): raise RuntimeError("electronic dice asked")

white = [0] * 26; black = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    white[p] = n; black[25 - p] = n
frame = bytearray(128)
t = [0]
def show():
    t[0] += 30
    c.on_frame(ideal_frame(white, black, out=frame), t[0])
def mv(side, a, b):
    side[a] -= 1; side[b] += 1
    show()
def press(b):
    t[0] += 100
    c.on_button(b, SHORT, t[0])

c = Companion(Store("journal"), NoDice())
c.boot(ideal_frame(white, black, out=frame), 0)
c.on_line("view on=1", 10)
c.new_match({"length": 3, "own_dice": True}, True)
show()
press(ROLL_W); press(CUBE_W); press(CUBE_W); press(ROLL_W); press(ROLL_W)  # White 3, Black 1
mv(white, 8, 5); mv(white, 6, 5)
press(ROLL_W)
gc.collect()
c.on_line("dice 6 5", t[0] + 10)
mv(black, 1, 12)
press(ROLL_B)
for line in c.fx.out:
    print(line)
print("JOURNAL", open("journal/m0001.jnl").read())
'''


def test_own_dice_and_view_events_under_micropython():
    import json
    import os

    from bgc.pico import upy

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frames = os.path.join(root, "host", "bgc", "board", "virtual", "frames.py")
    out = upy.run(UPY_OWN_DICE, [os.path.join(root, "firmware"), frames])
    events, journal = out.split("JOURNAL", 1)
    evs = [json.loads(l) for l in events.splitlines() if l.startswith("{")]
    assert [e["move"] for e in evs if e["ev"] == "play"] == ["8/5 6/5", "24/13"]
    rolls = [e for e in evs if e["ev"] == "roll"]
    assert [r["dice"] for r in rolls] == [[3, 1], [6, 5]] and all(r["entered"] for r in rolls)
    views = [e for e in evs if e["ev"] == "view"]
    assert views and all(len(v["leds"]) == 28 and len(v["screen"]) == 8 for v in views)
    assert any("White die: [3]" in v["screen"] for v in views)
    assert journal.count('"entered": true') == 2 and '"dice": "own"' in journal  # journaled as entered
