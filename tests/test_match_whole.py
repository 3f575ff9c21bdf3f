"""Whole matches driven through Match from the opening roll to the match winner, with seeded dice
and plays chosen among Turn.plays(); every cube action is tried and checked against the rules
computed independently here, and the resume line is round-tripped after every action."""

import random

import pytest

from bgrules.match import DOUBLED, GAME_OVER, MATCH_OVER, OPENING, PLAY, RESIGN, ROLL, Match, MatchError


def expected_double_refusal(m, crawford_game, post_crawford, holland, turns):
    if crawford_game:
        return "Crawford game: no doubling"
    if m.cube_owner not in (-1, m.on_roll):
        return "Only the cube owner may double"
    me = m.on_roll
    if holland and post_crawford and m.score[me] < m.score[1 - me] and turns[me] < 2:
        return "Holland: double from turn 3"
    if m.cube >= 32768:
        return "Cube at its limit"
    return None


def drive(seed, length, games=None, **settings):
    rng = random.Random(seed)
    m = Match(length, **settings)
    holland = settings.get("holland", False)
    crawford_rule = settings.get("crawford", True) and length > 0
    crawford_game = post_crawford = False
    crawford_games = 0
    turns = [0, 0]
    game_start_score = list(m.score)
    cube_turned = False
    finished = 0
    steps = 0
    while m.phase != MATCH_OVER and (games is None or finished < games):
        steps += 1
        assert steps < 20000
        phase = m.phase
        if phase == OPENING:
            d0, d1 = rng.randint(1, 6), rng.randint(1, 6)
            cube = m.cube
            started = m.opening_roll(d0, d1)
            assert started == (d0 != d1)
            if started:
                assert m.on_roll == (0 if d0 > d1 else 1) and m.phase == PLAY
            elif length:
                assert m.cube == 1
            else:
                assert m.cube in (cube, 2 * cube) and m.cube_owner == -1
        elif phase == ROLL:
            want = expected_double_refusal(m, crawford_game, post_crawford, holland, turns)
            if rng.random() < 0.25:
                if want:
                    with pytest.raises(MatchError) as info:
                        m.double()
                    assert str(info.value) == want
                else:
                    m.double()
                    assert m.phase == DOUBLED
                    continue
            if rng.random() < 0.01:
                m.resign(rng.randint(1, 3), player=rng.randint(0, 1))
                continue
            if m.closed_out() and rng.random() < 0.5:
                me = m.on_roll
                m.pass_turn()
                turns[me] += 1
                continue
            m.roll(rng.randint(1, 6), rng.randint(1, 6))
        elif phase == DOUBLED:
            r = rng.random()
            if r < 0.2 and m.beavers > m.offer:
                cube = m.cube
                m.beaver()
                assert m.cube == 2 * cube
            elif r < 0.5:
                cube, loser = m.cube, m.to_act
                m.drop()
                assert m.result == (1 - loser, cube, 0, "drop")
            else:
                cube, taker = m.cube, 1 - m.on_roll
                m.take()
                cube_turned = True
                assert m.cube == 2 * cube and m.cube_owner == taker
        elif phase == PLAY:
            plays = m.turn.plays()
            me = m.on_roll
            if plays and m.position not in [p.position for p in plays]:
                with pytest.raises(MatchError):
                    m.play(m.position)  # not moving when a play exists
            cube = m.cube
            if plays:
                m.play(rng.choice(plays))
            else:
                m.play(m.position)
            turns[me] += 1
            if m.phase in (GAME_OVER, MATCH_OVER) and m.result[3] == "play":
                kind = m.result[2]
                counted = 1 if settings.get("jacoby") and not cube_turned else kind
                assert m.result[1] == counted * cube
        elif phase == RESIGN:
            if rng.random() < 0.5:
                kind, cube = m.resign_offer, m.cube
                m.accept()
                counted = 1 if settings.get("jacoby") and not cube_turned else kind
                assert m.result[1] == counted * cube
            else:
                m.reject()
        if m.phase in (GAME_OVER, MATCH_OVER) and phase not in (GAME_OVER, MATCH_OVER):
            finished += 1
            winner, points = m.result[0], m.result[1]
            expect = game_start_score[winner] + points
            if length:
                expect = min(expect, length)  # no bonus beyond N
            assert m.score[winner] == expect and m.score[1 - winner] == game_start_score[1 - winner]
        if m.phase == GAME_OVER:
            # The Crawford bookkeeping, computed here from the scores alone.
            if crawford_game:
                crawford_game, post_crawford = False, True
            elif crawford_rule and not post_crawford and length - 1 in m.score:
                crawford_game = True
                crawford_games += 1
            m.next_game()
            assert m.crawford_game == crawford_game and m.post_crawford == post_crawford
            assert (m.phase, m.cube, m.cube_owner) == (OPENING, 1, -1)
            turns = [0, 0]
            cube_turned = False
            game_start_score = list(m.score)
        line = m.dumps()
        assert Match.loads(line).dumps() == line
    return m, crawford_games


@pytest.mark.parametrize("seed", range(4))
def test_whole_7_point_match_is_driven_to_the_winner(seed):
    m, _ = drive(seed, 7)
    assert m.phase == MATCH_OVER
    assert m.score[m.winner] == 7 and m.score[1 - m.winner] < 7


def test_whole_matches_with_crawford_and_holland_rules():
    crawford_games = 0
    for seed in range(10, 16):
        m, n = drive(seed, 5, holland=True)
        crawford_games += n
        assert m.winner is not None and max(m.score) == 5
    assert crawford_games >= 2  # the seeds do reach the Crawford game


def test_money_session_with_every_optional_rule():
    m, _ = drive(99, 0, games=6, auto_doubles=2, beavers=3, jacoby=True)
    assert m.winner is None and m.game == 7
    assert sum(m.score) > 0
