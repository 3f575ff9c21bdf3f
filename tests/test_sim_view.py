"""The terminal board of bgc sim: one grid in which every point's column holds its number, its LED
and its checkers (issue 14: lit points used to appear under the wrong numbers)."""

import re

import pytest

from bgc.board import sim as simmod

LETTER_OF = {"LEGAL": "g", "LIFTED": "b", "ILLEGAL": "r", "TURN": "a", "HINT": "p", "OFF": "."}


def parse_grid(text):
    """{column name: {"led": letter, "checkers": text}} read from the drawing: a token belongs to
    the column whose heading (the point number, bar, turn) ends at the same character."""
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines) if re.match(r"\s+13\s+14\s", line) or re.match(r"\s+12\s+11\s", line)]
    assert len(heads) == 2, text
    top, bottom = heads
    grid = {}
    width = re.match(r"\s+-+", lines[top + 3]).end()  # the rule between the halves spans the grid

    def tokens(line):
        line = line[:width]  # the OLED box is drawn to its right
        return {m.end(): m.group() for m in re.finditer(r"\S+", line[4:])}

    for head, led_row, chk_row, side in ((top, top + 1, top + 2, "top"), (bottom, bottom - 1, bottom - 2, "bottom")):
        names = tokens(lines[head])
        leds = tokens(lines[led_row])
        chks = tokens(lines[chk_row])
        assert set(leds) == set(names), "an LED outside the columns of the numbers:\n" + text
        assert set(chks) <= set(names), "checkers outside the columns of the numbers:\n" + text
        for end, name in names.items():
            key = name if name.isdigit() else "%s %s" % (name, side)
            grid[key] = {"led": leds[end], "checkers": chks.get(end, "")}
    return grid


@pytest.fixture
def sim():
    s = simmod.Sim(seed=5)
    yield s
    s.close()
    s.remove_flash()


def test_lifted_checker_lights_the_points_under_their_own_numbers(sim):
    # The case: White opens 3-1 and lifts from 8; the rules allow 7 (1), 5 (3) and 4 (3+1).
    sim.serial.send("new length=1")
    sim.run_ms(300)
    sim.dice.force(3, 1)
    sim.press("ROLL_W")
    sim.run_ms(200)
    sim.lift(8)
    assert sim.run_until(lambda s: simmod.lit_points(s.board, "LEGAL"), 2000)
    grid = parse_grid(sim.view())
    green = sorted(int(k) for k, v in grid.items() if k.isdigit() and v["led"] == "g")
    assert green == [4, 5, 7]
    assert grid["8"]["led"] == "b"  # lifted from here
    # Every column against the LED chain and the checkers as the board model holds them.
    for p in range(1, 25):
        colour, n = simmod.point_content(sim.board, p)
        assert grid[str(p)]["led"] == LETTER_OF[simmod.point_led(sim.board, p)], p
        want = "" if not n else ("W%d" if colour == simmod.WHITE else "B%d") % n
        assert grid[str(p)]["checkers"] in (want, "." if not n else want), p
    assert grid["8"]["checkers"] == "W2" and grid["6"]["checkers"] == "W5" and grid["19"]["checkers"] == "B5"
    assert grid["turn bottom"]["led"] == "a"  # White's status LED: White is to act
    assert grid["turn top"]["led"] == "."


def test_bar_column_holds_the_bar_checkers_and_the_bar_led(sim):
    w = [0] * 26
    b = [0] * 26
    w[6], w[25] = 14, 1
    b[1], b[25] = 13, 2
    sim.board.set_points(w, b)
    sim.board.leds[simmod.LED_BAR_BLACK] = simmod.LED_COLOURS["ILLEGAL"]
    grid = parse_grid(sim.view())
    assert grid["bar top"]["checkers"] == "W1"
    assert grid["bar bottom"]["checkers"] == "B2"
    assert grid["bar bottom"]["led"] == "r" and grid["bar top"]["led"] == "."
    assert grid["6"]["checkers"] == "W14" and grid["1"]["checkers"] == "B13"


def test_the_view_says_what_the_letters_and_the_bar_and_turn_columns_are(sim):
    text = sim.view()
    assert "g may go" in text and "r illegal" in text and "b lifted from" in text
    assert "bar column: checkers on the bar and the bar LED" in text
    assert "turn column: the status LED of the player to act" in text
    assert max(len(line) for line in text.splitlines()) <= 80  # fits a standard terminal
