"""Pin (seed 002): pinning instead of hitting, two checkers of any colour close a point, a roll
not playable whole is lost, no cube, the loser's pips as the score (gammon x2, backgammon x3);
the start (picture lost) is the documented Pin Game's (docs/variants.md, "Pin"). One test per
rule that differs from the standard game, each named after it."""

import json

import pytest

from bgc import cli
from bgc.logs import journals
from bgrules import Position, Turn
from bgrules.match import MATCH_OVER, Match, MatchError
from bgrules.position import OPP, PositionError
from bgrules.rules import ruleset
from companion import recovery

PIN = ruleset("pin")


def points(**kw):
    out = [0] * 24
    for k, v in kw.items():
        out[int(k[1:]) - 1] = v
    return out


def pos(mover, opponent, pinned=0):
    p = Position.from_points(mover, opponent, check=False)
    p.pinned = pinned
    return p


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def notations(turn):
    return sorted(p.notation() for p in turn.plays())


def test_pin_start_thirteen_on_the_opponents_1_point_one_each_on_its_8_and_10_points():
    # bkgm.com "The Pin Game": "thirteen checkers on the opponent's onepoint, and one checker of
    # each of the opponent's eightpoint and tenpoint"; the opponent's point q is the own 25 - q.
    own = points(p24=13, p17=1, p15=1)
    assert PIN.start_position() == Position.from_points(own, own)
    assert PIN.start_position().pips() == (13 * 24 + 17 + 15,) * 2


def test_pin_landing_on_a_single_opposing_checker_pins_it_on_the_point_not_on_the_bar():
    # White's 13/7 lands on Black's single checker on White's 7 point (Black's 18).
    start = pos(points(p13=2, p6=13), points(p18=1, p24=14))
    turn = Turn(start, 6, 1, PIN)
    final = pos(points(p13=1, p7=1, p6=12, p5=1), points(p18=1, p24=14))
    assert turn.check(final) is None
    play = turn.play_to(final)
    assert all(hit == 0 for _, _, hit in play.steps)
    assert final.cells[OPP + 25] == 0  # nothing on the bar
    nxt = PIN.after(start, final)
    assert nxt.pinned == 1 << 18  # Black (now on roll) has its checker on its 18 point pinned


def test_pin_a_pinned_checker_may_not_move_while_the_pinner_stays():
    # Black on roll; its checker on its 18 point is pinned under White's checker (White's 7).
    start = pos(points(p18=1, p24=14), points(p7=1, p2=14), pinned=1 << 18)
    turn = Turn(start, 6, 5, PIN)
    assert turn.plays()
    for play in turn.plays():
        assert all(src != 18 for src, _, _ in play.steps)
    moved = pos(points(p12=1, p19=1, p24=13), points(p7=1, p2=14))
    assert turn.check(moved) == "Checker on 18 is pinned"
    # the same position with the checker not pinned (the pin is not in the Position ID)
    free = pos(points(p18=1, p24=14), points(p7=1, p2=14))
    assert "18/12" in " ".join(notations(Turn(free, 6, 5, PIN)))


def test_pin_pinner_and_pinned_close_the_point_to_the_pinned_side():
    # Black on roll, pinned on its 18 point (White's 7): Black's 24/18 may not land there.
    start = pos(points(p18=1, p24=14), points(p7=1, p6=14), pinned=1 << 18)
    turn = Turn(start, 6, 2, PIN)
    assert not any(dst == 18 for play in turn.plays() for _, dst, _ in play.steps)
    onto = pos(points(p18=2, p24=12, p22=1), points(p7=1, p6=14))
    assert turn.check(onto) == "Point 18 is blocked"


def test_pin_two_checkers_of_one_colour_close_a_point_the_owner_may_add_to_it():
    # Assumed (docs/variants.md): "two checkers of any colour" close a point to the other side;
    # the owner's own checkers may still join (else fifteen checkers never fit a home board).
    # Black holds White's 6 point with two (Black's 19); White has two on its 7 point.
    start = pos(points(p13=1, p12=1, p7=2, p5=11), points(p19=2, p24=13))
    steps = [(src, dst) for play in Turn(start, 6, 1, PIN).plays() for src, dst, _ in play.steps]
    assert (13, 7) in steps  # onto White's own two
    assert not any(dst == 6 for _, dst in steps)  # never onto Black's two
    blocked = pos(points(p12=1, p7=2, p5=12), points(p19=2, p24=13))
    assert Turn(blocked, 6, 1, PIN).check(pos(points(p7=2, p6=1, p5=12), points(p19=2, p24=13))) \
        == "Point 6 is blocked"


def test_pin_the_pinner_leaving_releases_the_pinned_checker():
    # White pins Black's checker on White's 7 point (Black's 18); no checker of White's is pinned.
    start = pos(points(p7=1, p6=14), points(p18=1, p23=14))
    turn = Turn(start, 6, 1, PIN)
    final = pos(points(p6=13, p5=1, p1=1), points(p18=1, p23=14))  # 7/1 6/5: the pinner leaves
    assert turn.check(final) is None
    assert PIN.after(start, final).pinned == 0  # Black's checker is free again
    stays = pos(points(p7=1, p6=12, p5=1, p4=1), points(p18=1, p23=14))  # 2-1 played 6/4 6/5
    assert Turn(start, 2, 1, PIN).check(stays) is None
    assert PIN.after(start, stays).pinned == 1 << 18  # still pinned


def test_pin_a_roll_that_cannot_be_played_whole_is_lost():
    # White's last checker outside can move 6 (13/7) or 5 (13/8) but then the other die lands on
    # a closed point or would bear off with a checker outside: one die only, so nothing is played.
    # Black holds White's 2 to 6 points (its 23 to 19) and has five on its own 1 point.
    black = points(p19=2, p20=2, p21=2, p22=2, p23=2, p1=5)
    start = pos(points(p13=1, p1=14), black)
    turn = Turn(start, 6, 5, PIN)
    assert turn.dice_to_play == 0 and turn.plays() == []
    one_die = pos(points(p7=1, p1=14), black)
    assert turn.check(one_die) == "Roll lost: not playable whole"
    std = Turn(start, 6, 5)
    assert std.dice_to_play == 1  # the standard game plays the one die
    # Assumed: bearing off the last checker ends the game, so the die left over is not lost.
    last = Turn(pos(points(p1=1), black), 6, 5, PIN)
    assert last.dice_to_play == 1 and last.check(pos(points(), black)) is None


def test_pin_no_cube():
    m = Match(0, rules=PIN)
    m.opening_roll(6, 1)
    m.play(m.turn.plays()[0])
    assert m.double_refusal() == "No cube in Pin"
    with pytest.raises(MatchError, match="No cube"):
        m.double()


def _end(loser_points, loser_off_none=False):
    """White (on roll) bears off its last checker with 1-1 against Black's ``loser_points``."""
    m = Match(0, rules=PIN)
    m.opening_roll(6, 1)
    m.position = pos(points(p1=1), loser_points)
    m._rolled(2, 1)
    m.play(pos(points(), loser_points))
    return m


def test_pin_the_winner_scores_the_pips_the_loser_still_needs():
    # The seed's example: one checker 3 points from off and two 1 point from off = 5 points.
    m = _end(points(p3=1, p1=2))
    assert m.result[0] == 0 and m.result[2] == 1 and m.result[1] == 5


def test_pin_a_gammon_doubles_the_pips_a_backgammon_triples_them():
    # Gammon: Black has borne off nothing (all fifteen still on its home board).
    m = _end(points(p1=13, p2=2))
    assert m.result[2] == 2 and m.result[1] == 2 * (13 + 4)
    # Backgammon: a Black checker still in White's home board (Black's 24 = White's 1).
    m = _end(points(p1=13, p24=1, p2=1))
    assert m.result[2] == 3 and m.result[1] == 3 * (13 + 24 + 2)


def test_pin_the_match_keeps_who_is_pinned_across_turns_and_in_a_saved_match():
    m = Match(0, rules=PIN)
    m.opening_roll(6, 1)
    m.position = pos(points(p13=2, p6=13), points(p18=1, p24=14))
    m._rolled(6, 1)
    m.play(pos(points(p13=1, p7=1, p6=12, p5=1), points(p18=1, p24=14)))
    assert m.on_roll == 1 and m.position.pinned == 1 << 18
    back = Match.loads(m.dumps())
    assert back.position == m.position and back.position.pinned == 1 << 18
    # a point of both colours is refused outside Pin
    line = m.dumps().replace(",rpin", ",rstandard")
    with pytest.raises(MatchError):
        Match.loads(line)


def test_pin_both_colours_on_a_point_only_as_a_pin():
    mixed = pos(points(p7=1, p6=14), points(p18=1, p24=14))
    assert mixed.problem() == "Both colours on point 7"
    assert mixed.problem(pins=True) is None
    crowded = pos(points(p7=2, p6=13), points(p18=2, p24=13))
    assert crowded.problem(pins=True) == "Both colours on point 7"
    with pytest.raises(PositionError):
        Position.from_id(mixed.id())
    assert Position.from_id(mixed.id(), pins=True) == mixed


def test_pin_journal_replays_pins_and_exports_json_and_text_but_not_mat_or_sgf(tmp_path, capsys):
    recs = journals.synthetic_records(4, length=1, rules="pin", p_condone=0)
    m = recovery.replay(recs)
    assert m.rules is PIN and m.phase == MATCH_OVER
    end = [r for r in recs if r["a"] == "end"][0]
    assert end["how"] == "play" and end["winner"] == m.winner
    last = Position.from_id([r for r in recs if r["a"] == "play"][-1]["pos"], pins=True)
    loser_pips = sum(q * last.cells[OPP + q] for q in range(1, 26))
    assert end["points"] == end["kind"] * loser_pips == m.result[1]
    mixed = 0
    for r in recs:
        if r["a"] == "play":
            p = Position.from_id(r["pos"], pins=True)
            mixed += any(p.cells[q] and p.cells[OPP + 25 - q] for q in range(1, 25))
    assert mixed, "no pin in this game: pick another seed"
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 2 and "this match is pin, which GNU Backgammon does not play" in err
    for fmt in ("json", "text"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 0, err


def test_pin_is_listed_with_its_assumptions(capsys):
    status, out, err = bgc(capsys, "variants", "--json")
    rows = {json.loads(line)["key"]: json.loads(line) for line in out.splitlines()}
    assert rows["pin"]["playable"] and "Pin Game" in rows["pin"]["assumed"]


def test_pin_at_the_board_a_pinner_put_on_top_of_the_blot_is_seen_and_keeps_the_point(tmp_path):
    # The pinned checker sits under the pinner: the cell reads the pinned colour, weaker (UNDER,
    # hardware/sensing.md), and the pinner is not seen at all; the board still takes the play,
    # and on Black's turn the point stays closed to Black and Black's checker stays pinned.
    from companion_helpers import Harness, ROLL_B, ROLL_W
    from drivers.classify import UNDER
    from test_companion_game import at

    h = Harness(tmp_path, openings=[(6, 1)])
    h.start_match(length=1, rules="pin")
    h.press(ROLL_W)
    h.clear()
    start = pos(points(p13=2, p6=13), points(p18=1, p24=4, p22=5, p21=5))  # Black's blot on White's 7
    at(h, start, True, (6, 1))
    plain = h.frame

    def covered():
        f = plain()
        assert f[5 * 6] & 3 == 2  # board point 7: Black's checker in the first cell
        f[5 * 6] |= UNDER
        return f

    h.lift("w", 13)
    h.frame = covered  # the white checker goes on top of the black one: not seen itself
    h.show()
    assert h.events("illegal") == []
    h.move("w", 6, 5)
    h.press(ROLL_W)
    assert [e["move"] for e in h.events("play")] == ["13/7 6/5"]
    assert h.events("illegal") == []
    h.clear()
    h.dice.rolls.append((6, 2))
    h.press(ROLL_B)
    assert h.c.match.position.pinned == 1 << 18
    status = [e for e in h.events("status")][-1]
    assert status["pinned"] == 1 << 18
    h.move("b", 1, 7)  # Black's 24/18: onto its own pinned checker under White's
    assert h.events("illegal")[-1]["reason"] == "Point 18 is blocked"
    h.move("b", 7, 1)
    h.move("b", 1, 9)
    h.press(ROLL_B)
    assert [e["move"] for e in h.events("play")] == ["24/22 22/16"]  # not by way of 18
    assert h.c.match.position.pinned == 0  # White on roll: its checker on 7 is the pinner


# --- a game neither player can end ----------------------------------------------------------------
# Each side's last checker pinned in the other's home board under its 13 others: neither may bear
# off, nothing else can move. The seed has no rule for it; the players end it by resigning.
LOCKED_FOR_WHITE = (points(p1=13, p2=1, p24=1), points(p1=14, p24=1), 1 << 24)


def test_pin_a_game_where_neither_player_can_ever_move_is_seen_as_locked():
    from bgrules.variants.pin import locked

    assert locked(pos(*LOCKED_FOR_WHITE), PIN)
    # the same with White's spare checker on its 8 point: White still has rolls to play
    assert not locked(pos(points(p1=13, p8=1, p24=1), points(p1=14, p24=1), 1 << 24), PIN)
    # and with Black's last checker free (not pinned: White's is the pinned one there)
    free = pos(points(p1=13, p2=1, p24=1), points(p1=13, p20=1, p24=1), 1 << 24)
    assert not locked(free, PIN)


def test_pin_at_the_board_a_locked_game_says_so_and_how_to_end_it(tmp_path):
    # (the companion's turn start itself: the board's cells cannot hold 14 checkers on a point,
    # so this position cannot be set out on the virtual board's frames)
    from companion_helpers import Harness, ROLL_W
    from test_companion_game import at

    h = Harness(tmp_path, openings=[(6, 1)])
    h.start_match(length=1, rules="pin")
    h.press(ROLL_W)
    m = h.c.match
    m.position = pos(*LOCKED_FOR_WHITE)
    m.on_roll = m.to_act = 0
    m.phase = "roll"
    m.turn = None
    m.roll(6, 5)
    h.clear()
    h.c._moving_frame = lambda: None  # the frames' verdict would speak of the board instead
    h.c._start_turn()
    assert m.turn.dice_to_play == 0
    assert h.c.msg == "Locked for good\nhold CUBE:resign"
    h.c.status()
    assert h.events("status")[-1].get("locked") is True
    # a turn with no move that is not locked says only that
    m.position = pos(points(p1=13, p8=1, p24=1), points(p1=14, p24=1), 1 << 24)
    m.turn = None
    m.phase = "roll"
    m.roll(6, 6)  # 8/2, and no second 6: not playable whole, so lost; but other rolls play
    h.clear()
    h.c._start_turn()
    assert m.turn.dice_to_play == 0
    assert h.c.msg == "No legal move"
    h.c.status()
    assert "locked" not in h.events("status")[-1]


def test_pin_demo_ends_a_locked_game_by_a_resignation(capsys):
    # seed 1 plays into the lock above; it used to roll for ever
    status, out, _err = bgc(capsys, "demo", "--variant", "pin", "--seed", "1", "--quiet")
    assert status == 0
    assert out.strip() == "White wins a single game (39 points) by resignation: neither player could ever move again."


def _at_the_board(tmp_path, position_id, dice):
    """A Pin match on the board at ``position_id`` (Black on roll with ``dice``)."""
    from companion_helpers import Harness, ROLL_W
    from test_companion_game import at

    h = Harness(tmp_path, openings=[(6, 1)])
    h.start_match(length=1, rules="pin")
    h.press(ROLL_W)
    at(h, Position.from_id(position_id, PIN.opposite, True), False, dice)
    return h


def _white_reads_weak(h, board_point):
    """The harness's frames from now, with White's one checker on ``board_point`` reading weak
    (UNDER: a checker on top of it, or a weakly sensed one)."""
    from drivers.classify import UNDER

    plain = h.frame

    def frame():
        f = plain()
        cells = [c for c in range(5 * (board_point - 1), 5 * board_point) if f[c] & 3 == 1]
        assert len(cells) == 1  # White's pinned checker
        f[cells[0]] |= UNDER
        return f

    return frame


def test_pin_at_the_board_a_checker_that_joined_a_pinned_one_on_a_full_point_is_counted_once(tmp_path):
    # `bgc sim --demo --seed 913252 --variant pin`: Black 5-4 plays 12/7 5/1. Black's 7 (board
    # point 18) holds White's pinned checker and four of Black's: 12/7 fills it, the fifth black
    # goes on top of the white (UNDER). Lifting the checker on Black's 5 then flagged "Checkers
    # only move forward" on 18: the full point's count, taken from what the tracker knows, already
    # held the checker on top, and the weak cell counted it a second time.
    from companion_helpers import ROLL_B

    h = _at_the_board(tmp_path, "3gYBFgeHz4MDAA", (5, 4))
    assert (h.white[18], h.black[18]) == (1, 4)
    covered = _white_reads_weak(h, 18)
    h.move("b", 13, 18, show=False)  # 12/7: on top of the pinned checker, not seen itself
    h.black[18] -= 1
    h.frame = covered
    h.show()
    assert h.events("illegal") == []
    h.lift("b", 20)  # Black's 5
    assert h.events("illegal") == []
    assert 24 in h.leds("legal")  # 5/1
    h.put("b", 24)
    h.press(ROLL_B)
    assert h.events("illegal") == []
    assert [e["move"] for e in h.events("play")] == ["12/7 5/1"]


def test_pin_at_the_board_a_pinner_beside_a_weakly_sensed_pinned_checker_is_seen_to_leave(tmp_path):
    # `reliability_games.py --variant pin --illegal 0.1`, seed 1 (issue 22): Black 4-1 with its
    # pinner beside White's pinned checker on board point 24 (Black's 1 point), White's cell
    # reading weak (UNDER: a weakly sensed checker, every checker accounted for). Black plays
    # 3/off 1/off: the pinner, seen in its own cell, is lifted off, but the weak white cell was
    # taken for the pinner still on top: "Both dice must be played" at DONE, then again and again
    # until the game stalled (96 false flags, the game never ended).
    from companion_helpers import ROLL_B

    h = _at_the_board(tmp_path, "974BACB9DwAAAA", (4, 1))
    assert (h.white[24], h.black[24]) == (1, 1)
    h.frame = _white_reads_weak(h, 24)  # White's pinned checker, in a cell of its own
    h.show()
    assert h.events("illegal") == []
    h.lift("b", 22)  # 3/off
    h.lift("b", 24)  # 1/off: the pinner leaves its cell
    assert h.events("illegal") == []
    h.press(ROLL_B)
    assert h.events("illegal") == []
    assert [e["move"] for e in h.events("play")] == ["3/off 1/off"]
