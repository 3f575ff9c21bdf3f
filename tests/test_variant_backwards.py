"""Backwards (seed 002, "Rückwärts": "Jeder Spieler kann jederzeit seine Würfe auch für Züge
rückwärts nutzen"): a die may move a checker that many points back, point to point, landing by
the usual rules; never from the bar or onto it, never off; the bar rule and the bear-off rule hold
(docs/variants.md). Checked against the standard game's generator: every forward play is still
there, and the backward ones are exactly the rule's."""

from bgrules import Position, Turn
from bgrules.position import OPP
from bgrules.rules import ruleset, STANDARD
from companion_helpers import Harness, ROLL_W

BACK = ruleset("backwards")


def pos(mover, opp, bar=(0, 0)):
    m = [0] * 24
    o = [0] * 24
    for p, n in mover.items():
        m[p - 1] = n
    for p, n in opp.items():
        o[p - 1] = n
    return Position.from_points(m, o, bar[0], bar[1])


def plays(position, d1, d2, rules=BACK):
    return {str(p): p.position for p in Turn(position, d1, d2, rules).plays()}


def test_backwards_every_die_may_also_move_a_checker_back():
    start = BACK.start_position()
    out = plays(start, 6, 1)
    assert "24/18 13/14" in out and "24/18 8/9" in out  # the 1 played backwards
    # every standard play is still one
    std = {p.position for p in Turn(start, 6, 1, STANDARD).plays()}
    assert std <= set(out.values()) and len(out) > len(std)


def test_backwards_a_backward_step_lands_by_the_usual_rules_blocks_and_hits():
    # a blot of the opponent behind our checker on 10 (our 13 = its 12) is hit going back
    start = pos({10: 1, 6: 14}, {12: 1, 1: 14})
    out = plays(start, 3, 1)
    hit = [k for k in out if "10/13*" in k]
    assert hit and out[hit[0]].cells[OPP + 25] == 1
    # two of its checkers there close the point both ways
    closed = pos({10: 1, 6: 14}, {12: 2, 1: 13})
    assert not any("10/13" in k for k in plays(closed, 3, 1))


def test_backwards_never_from_the_bar_nor_past_the_24_point():
    on_bar = pos({6: 14}, {1: 15}, bar=(1, 0))
    for k in plays(on_bar, 6, 5):
        assert k.startswith("bar/")  # the bar checker enters first, forward
    edge = pos({23: 1, 6: 14}, {12: 15})
    out = plays(edge, 2, 1)
    assert "23/24 6/4" in out  # one point back is still on the board
    assert not any(k.startswith("23/25") or "24/" in k for k in out)  # none goes past it


def test_backwards_bearing_off_waits_for_a_checker_moved_back_out_of_the_home_board():
    home = pos({6: 1, 2: 14}, {12: 15})
    out = plays(home, 6, 3)
    # 6/9 back out of the home board with the 3: the 6 may no longer bear off from the 2 (and
    # before that step the checker on 6 stood higher): that result is no play of 6-3
    final = pos({9: 1, 2: 13}, {12: 15})
    assert final not in out.values()
    assert Turn(home, 6, 3, BACK).check(final) is not None
    assert "6/off 2/off" in out  # both forward: the 3 bears off from the 2, nothing higher


def test_backwards_a_play_is_not_refused_as_moving_backwards():
    start = BACK.start_position()
    final = plays(start, 6, 1)["24/18 13/14"]
    assert Turn(start, 6, 1, BACK).check(final) is None
    assert Turn(start, 6, 1, STANDARD).check(final) == "Checkers only move forward"


def test_backwards_a_double_played_forth_and_back_leaves_the_position_as_it_was():
    # The literal rule: 3 forward and 3 back again. The board cannot tell that from not moving,
    # so after a double an unchanged board is legal when those steps were open (documented).
    start = BACK.start_position()
    assert Turn(start, 3, 3, BACK).check(start) is None
    assert Turn(start, 3, 3, STANDARD).check(start) is not None


def test_backwards_on_the_board_a_checker_moved_back_is_not_flagged_and_its_points_are_lit(tmp_path):
    h = Harness(tmp_path, openings=[(6, 1)])
    h.line("new length=3 variant=backwards")
    h.show()
    h.press(ROLL_W)  # white opens 6-1
    h.clear()
    h.lift("w", 13)
    assert 14 in h.leds("legal") and 7 in h.leds("legal")  # back one, forward six
    h.put("w", 14)
    h.move("w", 24, 18)
    assert not h.events("illegal"), h.events()
    h.press(ROLL_W)
    assert h.events("play")[-1]["move"] == "24/18 13/14"
