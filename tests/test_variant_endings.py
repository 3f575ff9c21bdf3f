"""Every game of every variant ends (issue 22, "Games that never end").

Doublets: "Zunächst müssen alle Steine „entstapelt", dann wieder gestapelt und dann endlich
ausgespielt werden": a game always goes on to its end, since every die's point has its work in
each stage. The board passed both players for ever once both had every tower apart and a marker on
the bar (each "closed out" by the other's six points): a marker is no checker to enter.

Fixed roll: "Der Eröffnungswurf gilt für beide Spieler das gesamte Spiel über." With one roll for
the whole game two players can hit each other back and forth for ever; the seed has no rule for
it. The board's (docs/variants.md, assumed): the position with the same player on roll coming back
a third time is said ("Same position 3x", as Pin's "Locked for good") and the game ends by a
resignation, the player further from home resigning in the automated games.

The whole 20-seed check of every variant is scripts/reliability/variant_endings.py (figures in
docs/variants.md); here a short version: 20 seeds of the two games, 3 of every other variant."""

import os
import sys

import pytest

from bgrules import Position
from bgrules.match import GAME_OVER, ROLL
from bgrules.position import BAR, OPP
from bgrules.rules import VARIANTS, ruleset
from companion_helpers import Harness
from variant_parts_helpers import at

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "reliability"))

import variant_endings  # noqa: E402

DOUBLETS = ruleset("doublets")
FIXED = ruleset("fixedroll")


def test_doublets_a_marker_on_the_bar_is_never_closed_out():
    # both players have all six towers apart (two checkers on each of 1-6) and a marker on the bar:
    # the next stage is stacking ("Sobald alle Türme aufgelöst sind, werden sie ... wieder
    # zusammen gesetzt"), so the player on roll rolls and stacks
    c = bytearray(52)
    for side in (0, OPP):
        for p in range(1, 7):
            c[side + p] = 2
        c[side + BAR] = 1
        c[side] = 15 - 13
    m = at(DOUBLETS, Position(c))
    assert not m.closed_out()
    m.roll(5, 3, 0)
    assert m.turn.dice_to_play == 2
    plays = m.turn.plays()
    assert [p.notation() for p in plays][:1] and plays[0].position.cells[5] == 1  # the 5 stacked again


def finishes(rules, seed, limit=3000):
    """Whether `bgc demo --variant KEY --seed SEED` comes to a result within ``limit`` plays and
    as many passes (scripts/reliability/variant_endings.py counts them)."""
    return variant_endings.demo_game(rules, seed, limit) is not None


def test_bgc_demo_doublets_seed_2_ends():
    # both markers on the bar, each closed out by the other's six points: passed for ever
    assert finishes(DOUBLETS, 2)


# The loop `bgc sim --demo --seed 913090 --variant fixedroll` played for ever with 3-2: fourteen
# turns, each checker entering hitting the other's (positions before each roll, player on roll).
LOOP = [("/x0AgDD8BgAAAQ", 1), ("/AYACPx3AADCAA", 0), ("/x0ABDD8BgAIAA", 1), ("/AZAAPx3ABDAAA", 0),
        ("/x0gADD8BgAAAQ", 1), ("/AYACPx3gADAAA", 0), ("/x0BADD8BgAAAQ", 1), ("/AYACPx3AABgAQ", 0),
        ("/x0AgDD8BgAIAA", 1), ("/AZAAPx3AADCAA", 0), ("/x0ABDD8BkAAAA", 1), ("/AYCAPx3AABgAQ", 0),
        ("/x0AgDD8BgIAAA", 1), ("/BYAAPx3AABgAQ", 0)]


def _play_the_loop(m, turns):
    """Play ``turns`` turns of LOOP with 3-2, counting each position's visits here."""
    visits = {}
    seen_third = []
    for k in range(turns):
        m.roll(3, 2, m.on_roll)
        want = LOOP[(k + 1) % len(LOOP)][0]
        play = [p for p in m.turn.plays() if p.position.swapped().id() == want]
        assert len(play) == 1, (k, want)
        m.play(play[0].position)
        key = (m.position.id(), m.on_roll)
        assert key == LOOP[(k + 1) % len(LOOP)]
        visits[key] = visits.get(key, 0) + 1
        assert m.repeated == (visits[key] >= 3), (k, visits[key])
        if m.repeated:
            seen_third.append(k)
    return seen_third


def test_fixed_roll_the_same_position_on_roll_a_third_time_is_noticed():
    m = at(FIXED, Position.from_id(LOOP[0][0]), on_roll=1)
    m.preset = (3, 2)
    third = _play_the_loop(m, 3 * len(LOOP))
    assert min(third) == 2 * len(LOOP)  # the first position after a play, seen a third time
    # the player further from home resigns (the automated players' way) and the game is over
    m.resign(1, 1)
    m.accept()
    assert m.phase in (GAME_OVER, "matchover")


def test_fixed_roll_the_board_says_the_loop_and_how_the_game_ends(tmp_path):
    h = Harness(tmp_path, openings=[(3, 2)])
    h.line("new length=3 variant=fixedroll")
    c = h.c
    m = c.match
    m.opening_roll(3, 2)
    m.phase = ROLL
    m.position = Position.from_id(LOOP[0][0])
    m.on_roll = m.to_act = 1
    m.turn = None
    _play_the_loop(m, 2 * len(LOOP) + 1)
    assert m.repeated
    c._enter("roll")
    assert c.hint == "Same position 3x\nhold CUBE:resign"  # what the buttons do now
    assert c.status_fields().get("locked") is True


@pytest.mark.parametrize("key", VARIANTS)
def test_every_game_of_the_demo_ends(key):
    seeds = range(20) if key in ("doublets", "fixedroll") else range(2)
    assert [seed for seed in seeds if not finishes(ruleset(key), seed)] == []
