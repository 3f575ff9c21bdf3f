"""The OLED texts read with a player's eye (issue 14): every line of every screen fits the 128 px
panel (16 characters of the 8x8 font) without cutting a word, and each button hint line names one
button, so "ROLL:take hold CUBE:drop" cannot be read two ways."""

import ast
import os
import re

import pytest

from bgc import FIRMWARE_DIR
from bgrules.match import Match
from companion import display

W = 16
# The controller is its core and one module per phase (docs/architecture.md): all of its texts.
CONTROLLER = [os.path.join(FIRMWARE_DIR, "companion", name + ".py")
              for name in ("controller", "phase_setup", "phase_roll", "phase_moving", "phase_cube", "phase_end",
                           "commands")]


def _strings_in(func_names, call=None):
    """String constants in the given controller functions (or, with ``call``, the first argument
    of calls to self.<call>), with %-formats filled with long but real values."""
    out = []
    for node in [n for path in CONTROLLER for n in ast.walk(ast.parse(open(path).read()))]:
        if isinstance(node, ast.FunctionDef) and (func_names is None or node.name in func_names):
            for sub in ast.walk(node):
                if call is not None:
                    if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == call
                            and sub.args):
                        continue
                    arg = sub.args[0]
                    arg = arg.left if isinstance(arg, ast.BinOp) else arg
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        out.append(arg.value)
                elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value:
                    out.append(sub.value)
    fill = {"%s": "Black", "%d": "64"}
    return [re.sub(r"%[sd]", lambda m: fill[m.group()], s) for s in out]


def hints():
    from companion.dice_entry import DiceEntry

    return [s for s in _strings_in({"_hint"}) if s[:1].isupper() or "ROLL" in s or "CUBE" in s] + \
        [s for s in _strings_in({"_button"}) if "\n" in s] + [DiceEntry().hint()]


def test_every_button_hint_fits_and_names_one_button_per_line():
    found = hints()
    assert len(found) >= 12  # every phase has its hint
    for h in found:
        lines = h.split("\n")
        assert len(lines) <= 3, h
        for line in lines:
            assert len(line) <= W, "%r is wider than the panel" % line
            assert len(re.findall(r"\b(ROLL|CUBE|DONE)\b", line)) <= 1, "%r names two buttons on one line" % line
    shown = [display.game(Match(length=5), "", h) for h in found]
    for h, screen in zip(found, shown):
        assert [ln for ln in screen[4:] if ln] == h.split("\n"), "hint cut: %r" % h


def test_every_message_fits_two_lines_without_losing_a_word():
    msgs = _strings_in(None, call="say")
    assert len(msgs) >= 25
    for msg in msgs:
        m1, m2 = display.split(msg)
        assert len(m1) <= W and len(m2) <= W
        assert (m1 + " " + m2).split() == msg.replace("\n", " ").split(), "%r loses words: %r / %r" % (msg, m1, m2)


@pytest.mark.parametrize("length,score,cube,owner,crawford", [
    (5, (0, 0), 1, -1, False), (25, (24, 23), 64, 1, False), (25, (24, 20), 1, -1, True),
    (0, (12, 9), 8, 0, False), (11, (10, 3), 1, -1, True)])
def test_game_screen_fits_and_spells_things_out(length, score, cube, owner, crawford):
    m = Match(length=length, names=("Alexandra", "Bartholomew"))
    m.score = list(score)
    m.cube = cube
    m.cube_owner = owner
    m.crawford_game = crawford
    screen = display.game(m, "Bartholomew doubles to 64", "ROLL: take\nhold CUBE: drop")
    assert len(screen) == 8 and all(len(line) <= W for line in screen), screen
    if length:
        assert "%d-%d" % score in screen[0] and str(length) in screen[0]
    else:
        assert screen[0] == "Money %d-%d" % score
    if crawford:
        assert screen[1] == "Crawford game"
    elif owner < 0:
        assert screen[1] == "Cube %d centred" % cube
    else:
        assert screen[1].startswith("Cube %d %s" % (cube, m.names[owner][:4]))
    assert screen[3].startswith("Pips W")
    assert screen[4:6] == ["Bartholomew", "doubles to 64"]


def test_menu_screen_shows_every_setting_whole_and_what_the_buttons_do():
    from companion.controller import Companion

    class Store:
        def free(self):
            return 10 ** 6

    c = Companion(Store(), dice=None)
    for length, beavers in ((0, 3), (25, 0), (1, 0)):
        c.settings["length"] = length
        c.settings["beavers"] = beavers
        items = c._menu_items()
        for cursor in range(len(items)):
            screen = display.menu(items, cursor, "")
            assert len(screen) == 8 and all(len(line) <= W for line in screen), screen
            label, value = items[cursor]
            line = [ln for ln in screen if ln.startswith("> ")]
            assert len(line) == 1 and line[0].startswith("> " + label) and line[0].endswith(value), screen
        assert screen[-3:] == ["CUBE: next line", "ROLL: change it", "hold ROLL: start"]
