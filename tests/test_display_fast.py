"""The image's game screen (companion.display_fast: the last screen kept while nothing it shows
changes) is the screen display.game makes, after every action of a match: rolls, plays, doubles,
takes, drops, beavers, resignations, the next game, the Crawford game, a Tavli match moving on to
its next game, a match read back from its journal line, the message and the button lines
changing; on CPython and under a real MicroPython (where the image runs it)."""

import pytest

from firmware_script import run_on_cpython, run_on_micropython, seeded_random

SCRIPT = seeded_random(20261129) + r"""
from bgrules.match import Match, MatchError
from bgrules.rules import ruleset
from companion import display, display_fast
import gc
import sys
BIG = sys.implementation.name != "micropython"


MSGS = ("", "Illegal: 13/7", "May bear off", "No legal move", "Doubles! Play four")
HINTS = ("DONE: play made", "ROLL: roll dice\nCUBE: double", "ROLL: take\nCUBE: drop\nhold: beaver", "")
KEYS = ("standard", "standard", "backwards", "tavli", "nackgammon")
OTHER = ruleset("nackgammon")


def poke(m, k):
    # one thing the screen shows changed alone (each of display.game's inputs in turn)
    if k == 0:
        m.position = m.position.swapped()
    elif k == 1:
        m.on_roll = 1 - m.on_roll
    elif k == 2:
        m.to_act = 1 - m.to_act
    elif k in (3, 4):
        m.score[k - 3] += 1
    elif k == 5:
        m.cube *= 2
    elif k == 6:
        m.cube_owner = (m.cube_owner + 2) % 3 - 1
    elif k == 7:
        m.game += 1
    elif k == 8:
        m.crawford_game = not m.crawford_game
    elif k == 9:
        m.rules = OTHER if m.rules is not OTHER else m.series
    elif k == 10:
        m.dice = (1 + (m.dice[0] % 6), m.dice[1])
    elif k == 11:
        m.dice = (m.dice[0] or 6, 1 + (m.dice[1] % 6))
    elif k == 12:
        m.names = (m.names[0] + "x", m.names[1])
    elif k == 13:
        m.names = (m.names[0], m.names[1] + "y")
    elif k == 14:
        m.length += 2
    else:
        m.series = OTHER if m.series is not OTHER else m.rules


def check(m, msg, hint, marker):
    global checked, kept, differ, last
    got = display_fast.game(m, msg, hint, marker)
    want = display.game(m, msg, hint, marker)  # (display's own: install() is never called here)
    checked += 1
    if got is last:
        kept += 1
    last = got
    if got != want:
        differ += 1
        if differ < 4:
            print("differs", m.dumps(), repr(msg), repr(hint), marker, got, want)


checked = differ = kept = actions = poked = 0
last = None
for case in range(CASES):
    key = KEYS[rnd(len(KEYS))]
    rules = ruleset(key)
    length = (0, 1, 3, 5)[rnd(4)]
    m = Match(length=length, rules=rules, crawford=rnd(4) > 0, beavers=0 if length else rnd(2),
              names=(("White", "Black"), ("Ann", "Bob"))[rnd(2)])
    for step in range(STEPS):
        a = rnd(12)
        try:
            if a == 0:
                m.opening_roll(1 + rnd(6), 1 + rnd(6))
            elif a in (1, 2):
                m.roll(1 + rnd(6), 1 + rnd(6))
            elif a in (3, 4, 5) and m.turn is not None and (BIG or m.dice[0] != m.dice[1]):
                plays = m.turn.plays()  # (a double's can be ~2,000: too many for a Pico's heap)
                if plays:
                    m.play(plays[rnd(len(plays))])
                else:
                    m.pass_turn()
                plays = None
                if not BIG:  # (CPython's collection walks every object the test process holds)
                    gc.collect()
            elif a == 6:
                m.double()
            elif a == 7:
                (m.take, m.drop, m.beaver)[rnd(3)]()
            elif a == 8:
                m.resign(1 + rnd(3))
            elif a == 9:
                (m.accept, m.reject)[rnd(2)]()
            elif a == 10:
                m.next_game()
            elif a == 11 and rnd(4) == 0:
                m = Match.loads(m.dumps())  # (as the board reads its journal back at power-up)
            actions += 1
        except MatchError:
            pass
        if m.is_over():
            break
        msg = MSGS[rnd(len(MSGS))]
        hint = HINTS[rnd(len(HINTS))]
        marker = (-1, -1, 0, 1)[rnd(4)]
        for _ in range(3):  # frames that change only the LEDs; now and then the message
            if rnd(3) == 0:
                msg = MSGS[rnd(len(MSGS))]
            if rnd(3) == 0:
                msg = "".join([c for c in msg])  # the same words in another string object
            if rnd(6) == 0:
                hint = HINTS[rnd(len(HINTS))]
            check(m, msg, hint, marker)
        if rnd(3) == 0:
            p = Match.loads(m.dumps())
            check(p, msg, hint, marker)
            poke(p, poked % 16)
            poked += 1
            check(p, msg, hint, marker)
print("display_fast", CASES, actions, checked, kept, differ, poked)
"""


def _result(out):
    line = [x for x in out.splitlines() if x.startswith("display_fast ")][-1]
    return [int(v) for v in line.split()[1:]]


def test_the_kept_game_screen_is_the_screen_display_makes_after_every_action(tmp_path):
    cases, actions, checked, kept, differ, poked = _result(run_on_cpython("CASES = 400\nSTEPS = 120\n" + SCRIPT, tmp_path))
    assert cases == 400 and actions > 10_000 and poked > 5_000
    assert checked // 8 < kept < checked // 2  # the kept screen is used, and made again often
    assert differ == 0


@pytest.mark.micropython
def test_the_kept_game_screen_under_micropython_is_the_screen_display_makes():
    cases, actions, checked, kept, differ, poked = _result(run_on_micropython("CASES = 40\nSTEPS = 120\n" + SCRIPT))
    assert cases == 40 and actions > 1000 and poked > 500
    assert checked // 8 < kept < checked // 2
    assert differ == 0
