"""One test per rule in which a variant differs from the standard game (seed 002, "Classic Line
Backgammon, 24 variants"; docs/variants.md quotes the sentences). Each test names its rule."""

import sys

import pytest

from bgrules import Position, Turn
from bgrules.match import GAME_OVER, MATCH_OVER, Match, MatchError
from bgrules.rules import STANDARD, VARIANTS, ruleset

E, B = [0] * 24, [0] * 24


def points(**kw):
    """24 counts from p6=5 style keywords."""
    out = [0] * 24
    for k, v in kw.items():
        out[int(k[1:]) - 1] = v
    return out


def ids(turn):
    return sorted(p.position.id() for p in turn.plays())


# --- the registry ------------------------------------------------------------------------


def test_every_listed_variant_loads_and_names_itself():
    for key in VARIANTS:
        rules = ruleset(key)
        assert rules.key == key
        start = rules.start_position()
        assert start.problem(opposite=rules.opposite, checkers=rules.checkers, wait=rules.waiting) is None


def test_an_unknown_variant_is_refused_with_the_list():
    with pytest.raises(ValueError, match="unknown variant 'chess'.*hypergammon"):
        ruleset("chess")


# --- Hypergammon ---------------------------------------------------------------------------


def test_hypergammon_three_checkers_a_side_and_a_fourth_is_impossible():
    rules = ruleset("hypergammon")
    start = rules.start_position()
    assert [start.mover(p) for p in (22, 23, 24)] == [1, 1, 1]
    four = Position.from_points(points(p22=1, p23=1, p24=1, p6=1), points(p22=1, p23=1, p24=1))
    assert four.problem(checkers=3) == "White has 4 checkers"


def test_hypergammon_gammon_when_the_loser_has_borne_off_none_of_three():
    rules = ruleset("hypergammon")
    before = Position.from_points(points(p1=1), points(p10=1, p11=1, p12=1))
    final = Position.from_points(E, points(p10=1, p11=1, p12=1))
    assert rules.result(before, final) == 2
    one_off = Position.from_points(E, points(p10=1, p11=1))
    assert rules.result(before, one_off) == 1
    in_home = Position.from_points(E, points(p10=1, p11=1, p22=1))  # white's 3 point
    assert rules.result(before, in_home) == 3


# --- Eureka ----------------------------------------------------------------------------------


def test_eureka_starts_in_the_home_board_and_bears_off_from_the_first_roll():
    rules = ruleset("eureka")
    start = rules.start_position()
    assert [start.mover(p) for p in range(1, 7)] == [3, 3, 3, 2, 2, 2]
    plays = {p.notation() for p in Turn(start, 6, 5, rules).plays()}
    assert "6/off 5/off" in plays


def test_eureka_no_hitting_a_single_checker_blocks():
    rules = ruleset("eureka")
    assert not rules.hitting
    pos = Position.from_points(points(p6=1, p5=14), points(p22=1, p1=14))  # black's 22 is white's 3
    turn = Turn(pos, 3, 3, rules)
    assert turn.check(Position.from_points(points(p3=1, p5=14), points(p1=14), opponent_bar=1)) is not None
    assert all(p.position.mover(3) == 0 for p in turn.plays())


# --- Old Britain ---------------------------------------------------------------------------


def test_old_britain_at_most_five_checkers_on_a_point():
    rules = ruleset("oldbritain")
    start = rules.start_position()
    turn = Turn(start, 2, 1, rules)
    # 8/6 would put a sixth checker on the 6 point.
    assert all(p.position.mover(6) <= 5 for p in turn.plays())
    assert any(p.position.mover(6) == 6 for p in Turn(start, 2, 1).plays())
    final = Position(start.cells)
    final.cells[8] -= 1
    final.cells[6] += 1
    final.cells[24] -= 1
    final.cells[23] += 1
    assert turn.check(final) == "At most 5 checkers on 6"


def test_old_britain_either_die_when_both_cannot_be_played():
    # White: one checker on 24 and the rest home; black holds white's 13 point: 6-5: the 6
    # (24/18) and the 5 (24/19) are each playable, but not both (13 is closed).
    mover = points(p24=1, p1=14)
    opp = points(p12=2, p2=13)
    pos = Position.from_points(mover, opp)
    std = Turn(pos, 6, 5)
    ob = Turn(pos, 6, 5, ruleset("oldbritain"))
    assert std.dice_to_play == 1 and ob.dice_to_play == 1
    assert {p.notation() for p in std.plays()} == {"24/18"}
    assert {p.notation() for p in ob.plays()} == {"24/18", "24/19"}
    after5 = Position.from_points(points(p19=1, p1=14), opp)
    assert std.check(after5) == "The 6 must be played"
    assert ob.check(after5) is None


def test_old_britain_no_cube():
    m = Match(0, rules=ruleset("oldbritain"))
    m.opening_roll(6, 1)
    m.play(m.turn.plays()[0])
    assert m.double_refusal() == "No cube in Old Britain"
    with pytest.raises(MatchError, match="No cube"):
        m.double()


# --- Reverse and No hitting ----------------------------------------------------------------


def _race_end(rules):
    """A match where the player on roll bears off the last checker now."""
    m = Match(1, rules=rules)
    m.opening_roll(6, 1)
    m.position = Position.from_points(points(p1=1), points(p1=3))
    m._rolled(6, 1)
    m.play(Position.from_points(E, points(p1=3)))
    return m


def test_reverse_the_last_one_out_wins():
    m = _race_end(ruleset("reverse"))
    assert m.phase == MATCH_OVER
    assert m.result[0] == 1  # white bore off first and lost
    assert _race_end(STANDARD).result[0] == 0


def test_no_hitting_whoever_hits_loses():
    rules = ruleset("nohitting")
    m = Match(1, rules=rules)
    m.opening_roll(6, 1)
    start = m.position
    hit = [p for p in Turn(start, 6, 1, rules).plays() if any(s[2] for s in p.steps)]
    quiet = [p for p in Turn(start, 6, 1, rules).plays() if not any(s[2] for s in p.steps)]
    assert quiet and not hit  # no blots at the start: nothing can be hit yet
    m.position = Position.from_points(points(p13=1, p6=14), points(p18=1, p1=14))  # black blot on white's 7
    m._rolled(6, 1)
    m.play(Position.from_points(points(p7=1, p6=13, p5=1), points(p1=14), opponent_bar=1))
    assert m.phase == MATCH_OVER and m.result[0] == 1 and m.result[1] == 1


# --- records -------------------------------------------------------------------------------


@pytest.mark.parametrize("key", VARIANTS)
def test_a_saved_match_keeps_its_variant(key):
    m = Match(3, rules=ruleset(key))
    back = Match.loads(m.dumps())
    assert back.rules is ruleset(key)
    assert back.position == ruleset(key).start_position()


# --- compact on the Pico ---------------------------------------------------------------------


@pytest.mark.micropython
def test_under_micropython_only_the_chosen_variant_is_imported():
    from bgc.pico import upy

    out = upy.run("""
import sys
from bgrules.rules import ruleset, VARIANTS
from bgrules import Turn
rules = ruleset("oldbritain")
loaded = sorted(k for k in sys.modules if k.startswith("bgrules.variants."))
turn = Turn(rules.start_position(), 2, 1, rules)
print(loaded, len(turn.plays()))
""")
    assert out.split() == ["['bgrules.variants.oldbritain']", str(len(Turn(ruleset("oldbritain").start_position(), 2, 1, ruleset("oldbritain")).plays()))]


# --- Fixed roll and Open roll --------------------------------------------------------------


def test_fixed_roll_the_opening_roll_is_every_roll_of_the_game():
    m = Match(1, rules=ruleset("fixedroll"))
    m.opening_roll(6, 3)
    assert m.dice == (6, 3)
    m.play(m.turn.plays()[0])
    assert m.preset_dice() == (6, 3)
    with pytest.raises(MatchError, match="Fixed roll: the roll is 6-3"):
        m.roll(5, 2)
    m.roll(3, 6)
    assert m.dice == (6, 3)
    back = Match.loads(m.dumps())
    assert back.preset_dice() == (6, 3)


def test_open_roll_the_next_turns_dice_are_rolled_before_the_play():
    m = Match(1, rules=ruleset("openroll"))
    with pytest.raises(MatchError, match="roll the next dice too"):
        m.opening_roll(6, 3)
    m.opening_roll(6, 3, (5, 2))
    assert m.on_roll == 0 and m.preset_dice() == (5, 2)  # black's coming roll, seen by white
    m.play(m.turn.plays()[0])
    with pytest.raises(MatchError, match="Open roll: the roll is 5-2"):
        m.roll(4, 1, 1, (1, 1))
    m.roll(2, 5, 1, (4, 4))
    assert m.dice == (5, 2) and m.preset_dice() == (4, 4)
    assert Match.loads(m.dumps()).preset_dice() == (4, 4)


def test_open_and_fixed_roll_journals_replay():
    from companion import journal as J
    from companion import recovery

    for key in ("fixedroll", "openroll"):
        recs = [J.settings_record(1, rules=key), {"a": "open", "dice": [6, 3]}]
        if key == "openroll":
            recs[-1]["next"] = [5, 2]
        back = recovery.replay(recs)
        assert back.preset_dice() == ((6, 3) if key == "fixedroll" else (5, 2))
