"""The automated hands' pace (`bgc vpico --board --demo --pace N`, Handling.pace): at pace N they
decide N times sooner (the pause before a lift, a press, a hesitation over a point), while what the
sensors see (a placement, a hover, a button held down) keeps a person's length. Rules checked: the
same turns take far fewer frames at pace 3; the firmware reads every hand as before (no false
flag, the same button presses answered); a pace under 1 is refused."""

import pytest

from bgc.board import players as P
from bgc.board import sim as simmod

TURNS = 8


def play_turns(pace):
    sim = simmod.Sim(seed=11)
    try:
        players = P.Players(sim, seed=11, handling=P.Handling(illegal=0.25, pace=pace))
        sim.serial.send("new length=3")
        while players.stats["turns"] < TURNS and not players.finished:
            assert sim.frames < 60000, "the hands stalled"
            sim.step()
        holds = [(b - a) for (a, da), (b, ub) in zip(players.history, players.history[1:])
                 if da.kind == "down" and ub.kind == "up"]
        return sim.frames, players, holds
    finally:
        sim.close()
        sim.remove_flash()


def test_pace_three_plays_the_same_turns_in_far_fewer_frames_and_the_board_reads_every_hand():
    slow, at_one, holds_one = play_turns(1)
    fast, at_three, holds_three = play_turns(3)
    assert at_one.stats["turns"] == at_three.stats["turns"] == TURNS
    assert fast < 0.7 * slow, (fast, slow)
    for players in (at_one, at_three):
        assert players.stats["false_illegal"] == 0, players.false_flags
        assert players.stats["done_refused"] == 0
    # a press is held as long as a finger holds it (players.press_actions: 8-15 frames, a long
    # one 95-120, then released in the next frame), at any pace
    for holds in (holds_one, holds_three):
        assert holds and all(9 <= h <= 16 or 96 <= h <= 121 for h in holds), holds


@pytest.mark.parametrize("pace", [0, 0.5, float("nan")])
def test_a_pace_under_a_persons_is_refused(pace):
    with pytest.raises(ValueError, match="pace is 1"):
        P.Handling(pace=pace)
