"""GNU Backgammon Match ID: the examples GNU Backgammon produced, round trips, bad IDs."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgrules.matchid import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_PLAYING,
    MatchIdError,
    MatchKey,
    encode,
)
from bgrules.matchid_read import decode


def test_gnubg_example_9_point_match_2_4_player_0_owns_a_2_cube_player_1_rolled_5_2():
    mk = decode("QYkqASAAIAAA")
    assert (mk.length, mk.score, mk.cube, mk.cube_owner) == (9, [2, 4], 2, 0)
    assert (mk.on_roll, mk.to_act, mk.dice) == (1, 1, (5, 2))
    assert (mk.state, mk.crawford, mk.doubled, mk.resign) == (GAME_PLAYING, False, False, 0)
    assert mk.id() == "QYkqASAAIAAA"


def test_gnubg_example_7_point_match_0_0_player_1_to_play_3_1_cube_centred():
    mk = decode("cInlAAAAAAAE")
    assert (mk.length, mk.score, mk.cube, mk.cube_owner) == (7, [0, 0], 1, -1)
    assert (mk.on_roll, mk.to_act, mk.dice, mk.state) == (1, 1, (3, 1), GAME_PLAYING)
    # Bit 66, which the manual's table leaves out, is GNU Backgammon's "Jacoby off".
    assert mk.jacoby is False
    assert encode(mk) == "cInlAAAAAAAE"


def test_crawford_flag_decodes():
    mk = decode("8IhuACAACAAE")  # GNU Backgammon's manual example: 3-point match, 2-1, Crawford
    assert mk.crawford and mk.length == 3 and mk.score == [2, 1]
    assert mk.id() == "8IhuACAACAAE"


def test_dice_are_written_larger_first_as_gnubg_does():
    assert MatchKey(dice=(2, 5), length=9).id() == MatchKey(dice=(5, 2), length=9).id()


keys = st.builds(
    lambda cube_log, owner, on_roll, state, to_act, doubled, resign, dice, length, s0, s1, crawford, jacoby: MatchKey(
        cube=1 << cube_log,
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford and length > 0,
        state=state,
        to_act=to_act,
        doubled=doubled,
        resign=resign,
        dice=dice,
        length=length,
        score=(min(s0, length) if length else s0, min(s1, length) if length else s1),
        jacoby=jacoby,
    ),
    st.integers(0, 15),
    st.sampled_from((-1, 0, 1)),
    st.integers(0, 1),
    st.integers(GAME_NONE, GAME_DROPPED),
    st.integers(0, 1),
    st.booleans(),
    st.integers(0, 3),
    st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.integers(0, 64),
    st.integers(0, 32767),
    st.integers(0, 32767),
    st.booleans(),
    st.booleans(),
)


@given(keys)
def test_match_id_round_trips(mk):
    mid = encode(mk)
    assert len(mid) == 12
    back = decode(mid)
    assert back == mk
    assert encode(back) == mid


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", min_size=12, max_size=12))
def test_any_12_base64_characters_decode_or_raise_a_clear_error(text):
    try:
        mk = decode(text)
    except MatchIdError as exc:
        assert "Match ID" in str(exc) or "match length" in str(exc) or "score" in str(exc)
    else:
        # Everything that decodes is written back the same way, except bits GNU Backgammon
        # does not use (67-71) and the order of the dice.
        again = decode(encode(mk))
        assert again == mk


@pytest.mark.parametrize(
    "bad, words",
    [
        ("QYkqASAAIAA", "12 characters"),
        ("QYkqASAAIAA!", "not base64"),
        ("QYkqASAAIAAAA", "12 characters"),
        ("gAAAAAAAAAAA", "Crawford game in money play"),  # key byte 0 = 0x80: bit 7 alone
        ("///////////A", "not a Match ID"),
    ],
)
def test_bad_match_ids_raise_match_id_error(bad, words):
    with pytest.raises(MatchIdError, match=words):
        decode(bad)


def test_score_beyond_the_match_length_or_too_long_a_match_is_refused():
    assert decode(encode(MatchKey(length=4, score=(4, 0)))).score == [4, 0]
    with pytest.raises(MatchIdError, match="beyond the match length"):
        decode(encode(MatchKey(length=4, score=(5, 0))))
    with pytest.raises(MatchIdError, match="at most 64"):
        decode(encode(MatchKey(length=65)))


def test_cube_that_is_not_a_power_of_two_cannot_be_encoded():
    with pytest.raises(MatchIdError):
        encode(MatchKey(cube=3))
    with pytest.raises(MatchIdError):
        encode(MatchKey(cube=65536))
