"""Against GNU Backgammon: perft-style counts from a fixture, and its live move generator."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgrules import Position, Turn

HERE = os.path.dirname(__file__)
FIXTURE = json.load(open(os.path.join(HERE, "fixtures", "perft.json")))


@pytest.mark.parametrize("row", FIXTURE, ids=[r["position"] for r in FIXTURE])
def test_distinct_play_counts_match_gnu_backgammon_fixture(row):
    pos = Position.from_id(row["position"])
    got = {}
    for roll in row["plays"]:
        a, b = map(int, roll.split("-"))
        got[roll] = len(Turn(pos, a, b).plays())
    assert got == row["plays"]


def test_hardest_known_position_has_1777_plays_of_1_1():
    assert len(Turn(Position.from_id("aDcQID2kUqkKKg"), 1, 1).plays()) == 1777


def test_moves_batch_agrees_with_gnubg_on_random_game_positions():
    gnubg_ref = pytest.importorskip("bgc.rules.gnubg_ref")
    pytest.importorskip("gnubg_nn")
    cases = gnubg_ref.random_positions(600, seed=11)
    lines = "".join("%s %d %d\n" % c for c in cases)
    out = subprocess.run(
        [sys.executable, "-m", "bgc", "moves", "--batch"], input=lines, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    for (pid, a, b), line in zip(cases, out):
        assert line.split() == gnubg_ref.reference_results(pid, a, b), (pid, a, b)


def test_moves_batch_reports_bad_lines_and_goes_on():
    lines = "4HPwATDgc/ABMA 6 5\nnonsense\n4HPwATDgc/ABMA 0 5\n\n4HPwATDgc/ABMA 6 6\n"
    out = subprocess.run(
        [sys.executable, "-m", "bgc", "moves", "--batch"], input=lines, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert len(out[0].split()) == 7
    assert out[1].startswith("error: ")
    assert out[2].startswith("error: ")
    assert out[3] == ""
    assert len(out[4].split()) == 11


def test_moves_batch_prints_an_empty_line_when_nothing_can_be_played():
    closed = Position.from_points([14] + [0] * 23, [2] * 6 + [0] * 18, mover_bar=1).id()
    out = subprocess.run(
        [sys.executable, "-m", "bgc", "moves", "--batch"], input=closed + " 6 5\n", capture_output=True, text=True, check=True
    ).stdout
    assert out == "\n"


def _positions():
    """Random reachable positions: a random walk of legal plays from the start."""

    @st.composite
    def walk(draw):
        pos = Position.start()
        for _ in range(draw(st.integers(0, 60))):
            a, b = draw(st.integers(1, 6)), draw(st.integers(1, 6))
            plays = Turn(pos, a, b).plays()
            if plays:
                pos = plays[draw(st.integers(0, len(plays) - 1))].position
            if pos.result():
                break
            pos = pos.swapped()
        return pos

    return walk()


@settings(max_examples=60, deadline=None)
@given(_positions(), st.integers(1, 6), st.integers(1, 6))
def test_property_fifteen_checkers_a_side_after_every_play(pos, a, b):
    for play in Turn(pos, a, b).plays():
        assert play.position.problem() is None


@settings(max_examples=60, deadline=None)
@given(_positions(), st.integers(1, 6), st.integers(1, 6))
def test_property_every_play_uses_as_many_dice_as_any_play_can(pos, a, b):
    turn = Turn(pos, a, b)
    counts = {len(p.steps) for p in turn.plays()}
    assert counts <= {turn.dice_to_play}
    assert turn.check(pos) is None if not counts else turn.check(pos) is not None


@settings(max_examples=60, deadline=None)
@given(_positions(), st.integers(1, 6), st.integers(1, 6))
def test_property_no_play_lands_on_a_blocked_point(pos, a, b):
    for play in Turn(pos, a, b).plays():
        for src, dst, hit in play.steps:
            if dst:
                assert pos.opponent(25 - dst) < 2


@settings(max_examples=200, deadline=None)
@given(_positions())
def test_property_position_id_round_trip(pos):
    assert Position.from_id(pos.id()) == pos
    assert Position.from_id(pos.swapped().id()) == pos.swapped()


@settings(max_examples=60, deadline=None)
@given(_positions(), st.integers(1, 6), st.integers(1, 6))
def test_property_every_listed_play_checks_legal_and_every_step_is_a_partial(pos, a, b):
    turn = Turn(pos, a, b)
    for play in turn.plays()[:20]:
        assert turn.check(play.position) is None


@settings(max_examples=80, deadline=None)
@given(_positions(), st.integers(1, 6), st.integers(1, 6))
def test_property_notation_round_trip_gives_the_same_position(pos, a, b):
    from bgc.rules.notation_read import apply_moves

    for play in Turn(pos, a, b).plays():
        assert apply_moves(pos, play.notation()) == play.position, play.notation()


def test_the_boards_questions_agree_with_gnubg_on_random_game_positions():
    """DONE's question (Turn.is_legal) and the mid-turn one (Turn.locate) are searches toward
    the board's position, not a listing of plays: each is checked against GNU Backgammon's
    plays. Every final position GNU reaches is legal and begins a play with no dice left; a
    position one pip off a GNU play (a checker a point short, one too far) is legal only when
    GNU reaches it too. (The searches begin from the start's counts kept by the turn and refuse
    by the pips moved before searching: a mistake there refuses a legal play.)"""
    gnubg_ref = pytest.importorskip("bgc.rules.gnubg_ref")
    pytest.importorskip("gnubg_nn")
    checked = near = 0
    for pid, a, b in gnubg_ref.random_positions(150, seed=23):
        start = Position.from_id(pid)
        turn = Turn(start, a, b)
        finals = gnubg_ref.reference_results(pid, a, b)
        ids = set(finals)
        for fid in finals[:12]:
            final = Position.from_id(fid)
            assert turn.is_legal(final), (pid, a, b, fid)
            if fid != pid:
                assert turn.locate(final) == [b""], (pid, a, b, fid)
            checked += 1
            for p in range(1, 25):
                if final.cells[p] and not final.cells[26 + 25 - p]:
                    for q in (p - 1, p + 1):
                        if 1 <= q <= 24 and not final.cells[26 + 25 - q]:
                            moved = final.copy()
                            moved.cells[p] -= 1
                            moved.cells[q] += 1
                            assert turn.is_legal(moved) == (moved.id() in ids), (pid, a, b, moved.id())
                            near += 1
                    break
    assert checked > 300 and near > 300
