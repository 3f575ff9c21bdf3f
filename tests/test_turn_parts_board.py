"""Turns made of parts at the board: the screen names the part being played, a double is chosen
with the buttons or with the serial ``dice`` command, the journal records each part and replays
it, and a power cut in the middle of a part resumes there."""

import os

from bgrules import rules as R
from bgrules.rules import STANDARD, Rules
from companion import journal as J
from companion import recovery
from companion_helpers import Harness, ROLL_W, CUBE_W, ROLL_B, CUBE_B

from test_companion_journal_resume import boot_with


def play_first(h):
    """The player on roll sets out the first legal play of the part and presses DONE."""
    m = h.c.match
    p = m.on_roll
    plays = m.turn.plays()
    final = plays[0].position if plays else m.position
    h.set_pos(final, p == 0)
    h.show()
    h.press(ROLL_W if p == 0 else ROLL_B)
    return final


def records(h):
    recs, problem = J.parse(open(os.path.join(h.dir, h.c.name)).read())
    assert problem is None
    return recs


def test_mexican_chooses_a_double_with_the_buttons_then_rolls_again(tmp_path):
    # Mexican: 1-2 is not played; a double of the player's choice, then a new roll.
    h = Harness(tmp_path, openings=[(2, 1)], rolls=[(5, 3)])
    h.start_match(length=1, variant="mexican")
    h.press(ROLL_W)  # White's 2 against Black's 1: White opens with the Mexican 2-1
    assert h.c.phase == "choose"
    assert "Choose a double" in h.screen() and "> 6-6" in h.screen()
    h.press(ROLL_B)
    assert "White chooses" in h.screen()
    h.press(CUBE_W)
    h.press(CUBE_W)
    assert "> 4-4" in h.screen()
    h.press(ROLL_W)
    assert h.c.phase == "moving" and h.c.match.dice == (4, 4)
    assert h.events("choose")[-1] == {"ev": "choose", "p": 0, "dice": [4, 4]}
    play_first(h)
    assert h.c.phase == "roll" and h.c.match.on_roll == 0
    assert "Roll again" in h.screen() and "ROLL: roll again" in h.screen()
    h.press(CUBE_W)  # no cube in Mexican, and none in the middle of a turn
    assert h.c.phase == "roll"
    h.press(ROLL_W)  # 5-3
    assert h.c.match.dice == (5, 3) and h.c.match.on_roll == 0
    play_first(h)
    assert h.c.match.on_roll == 1 and h.c.phase == "roll"
    recs = records(h)
    assert [r["a"] for r in recs[1:]] == ["open", "choose", "play", "roll", "play"]
    replayed = recovery.replay(recs)
    assert replayed.position == h.c.match.position and replayed.on_roll == 1


def test_serial_dice_command_chooses_and_refuses_a_non_double(tmp_path):
    h = Harness(tmp_path, openings=[(2, 1)])
    h.start_match(length=1, variant="mexican")
    h.press(ROLL_W)
    h.clear()
    h.line("dice 4 3")
    assert h.events("error")[-1]["error"] == "Choose a double"
    assert h.c.phase == "choose"
    h.line("dice 9")
    assert "1 to 6" in h.events("error")[-1]["error"]
    h.line("dice 3")
    assert h.c.phase == "moving" and h.c.match.dice == (3, 3)
    assert records(h)[-1] == {"a": "choose", "p": 0, "dice": [3, 3]}


def test_underside_part_named_on_the_screen_and_replayed(tmp_path, monkeypatch):
    # French 1's doubles: 4x the top, 4x the underside, then the same player rolls again.
    r = Rules("Under test", STANDARD.start, key="undertest")
    r.doubles = "underside_roll"
    monkeypatch.setitem(R.RULESETS, "undertest", r)
    h = Harness(tmp_path, openings=[(3, 1)], rolls=[(6, 6), (4, 2)])
    h.start_match(length=1, variant="undertest")
    h.press(ROLL_W)
    play_first(h)  # White's 3-1
    h.press(ROLL_B)  # Black: 6-6
    assert "6-6 top, then" in h.screen() and "under: 1-1" in h.screen()
    play_first(h)
    assert h.c.match.dice == (1, 1) and h.c.match.on_roll == 1
    assert "6-6 under: 1-1" in h.screen()
    assert h.events("part")[-1] == {"ev": "part", "p": 1, "part": "under", "dice": [1, 1]}
    play_first(h)
    assert h.c.phase == "roll" and h.c.match.on_roll == 1 and "Roll again" in h.screen()
    h.press(ROLL_B)  # 4-2
    play_first(h)
    assert h.c.match.on_roll == 0
    replayed = recovery.replay(records(h))
    assert replayed.position == h.c.match.position and replayed.on_roll == 0


def test_power_cut_in_the_middle_of_a_part_resumes_there(tmp_path, monkeypatch):
    r = Rules("Under test", STANDARD.start, key="undertest")
    r.doubles = "underside_roll"
    monkeypatch.setitem(R.RULESETS, "undertest", r)
    h = Harness(tmp_path / "a", openings=[(3, 1)], rolls=[(6, 6)])
    h.start_match(length=1, variant="undertest")
    h.press(ROLL_W)
    play_first(h)
    h.press(ROLL_B)
    play_first(h)  # the top played; the underside 1-1 is on
    text = open(os.path.join(h.dir, h.c.name)).read()
    again = boot_with(tmp_path / "b", text, (list(h.white), list(h.black)))
    m = again.c.match
    assert (m.phase, m.on_roll, m.dice, m.part) == ("play", 1, (1, 1), ("u", 1, 6))
    assert again.c.phase == "moving"
    # ... and in the middle of a choice
    h = Harness(tmp_path / "c", openings=[(2, 1)])
    h.start_match(length=1, variant="mexican")
    h.press(ROLL_W)
    text = open(os.path.join(h.dir, h.c.name)).read()
    again = boot_with(tmp_path / "d", text, (list(h.white), list(h.black)))
    assert again.c.match.phase == "choose" and again.c.phase == "choose"
    again.press(ROLL_W)
    assert again.c.match.dice == (6, 6) and again.c.phase == "moving"


def test_gioul_rising_double_passes_to_the_opponent_on_the_board(tmp_path):
    # Gioul: a part not played whole passes the next value to the opponent; the screen says so.
    from bgrules import Position
    from bgrules.variants.gioul import RULES

    h = Harness(tmp_path, openings=[(3, 1)], rolls=[(5, 5)])
    h.set_pos(RULES.start_position())
    h.start_match(length=1, variant="gioul")
    h.press(ROLL_W)
    play_first(h)
    m = h.c.match
    # Put the match where Black's next 5-5 rises to 6-6 and check who plays what.
    h.press(ROLL_B)
    assert m.dice == (5, 5) and "5-5 then" not in h.screen()
    start = Position(m.position.cells)
    while m.part is not None and m.phase == "play":
        mover = m.on_roll
        whole = m.turn.dice_to_play == 4
        value = m.dice[0]
        play_first(h)
        if m.part is None or m.phase != "play":
            break
        assert m.dice[0] == value + 1
        assert m.on_roll == (mover if whole else 1 - mover)
        if not whole:
            assert "takes over" in h.screen()
    assert m.phase == "roll" and m.on_roll == 0  # after Black's 5-5 and 6-6 (or a pass), White
    assert start != m.position


def test_free_choice_the_chooser_picks_a_roll_with_the_buttons(tmp_path):
    h = Harness(tmp_path, openings=[(1, 3)], rolls=[(6, 2), (5, 4)])
    h.start_match(length=1, variant="freechoice")
    h.press(ROLL_W)  # Black opens 3-1 (Black rolls twice: the opening is the first)
    play_first(h)
    assert h.c.phase == "roll" and h.c.match.on_roll == 1 and "Second roll" in h.screen()
    h.press(ROLL_B)  # 6-2
    play_first(h)
    assert h.c.match.on_roll == 0 and "ROLL: pick dice" in h.screen()
    h.press(ROLL_W)
    assert h.c.phase == "choose" and "Choose your roll" in h.screen() and "> 6-5" in h.screen()
    h.press(CUBE_W)
    assert "> 6-4" in h.screen()
    h.press(ROLL_W)
    assert h.c.match.dice == (6, 4) and h.c.phase == "moving"
    play_first(h)
    assert h.c.match.on_roll == 1
    assert [r["a"] for r in records(h)[1:]] == ["open", "play", "roll", "play", "choose", "play"]


def test_an_accepted_illegal_part_goes_on_with_the_same_player(tmp_path, monkeypatch):
    # The opponent accepts a refused play by pressing ROLL (seed 000, irregularities); in a turn
    # made of parts that press is not the opponent's roll: the mover's next part follows.
    r = Rules("Under test", STANDARD.start, key="undertest")
    r.doubles = "underside_roll"
    monkeypatch.setitem(R.RULESETS, "undertest", r)
    h = Harness(tmp_path, openings=[(3, 1)], rolls=[(6, 6)])
    h.start_match(length=1, variant="undertest")
    h.press(ROLL_W)
    play_first(h)
    h.press(ROLL_B)  # Black: 6-6, top first
    h.move("b", 1, 7)  # only one of the four sixes
    h.press(ROLL_B)
    assert h.events("illegal")[-1]["at"] == "done"
    h.clear()
    h.press(ROLL_W)  # White accepts the play
    m = h.c.match
    assert (m.on_roll, m.dice, h.c.phase) == (1, (1, 1), "moving")
    assert not h.events("roll")
    assert records(h)[-1]["condoned"] is True
