"""A hand held still over the board is not a checker put down (issue 22; hardware/sensing.md).

Players hold a checker over a point for seconds while they count. On the virtual board the hand
trembles as a healthy hand does and comes down at a speed (docs/hardware-virtual-board.md); the
firmware must tell a checker held 5-15 mm over a point from one resting on the stack there, and
still flag a checker set on an opponent's five-point within 1 s however slowly it is lowered.
The long run is scripts/reliability/reliability_hover.py (docs/reliability.md)."""

import pytest

from bgc.board import sim as S

WHITE_13 = [60, 61, 62, 63, 64]  # board point 13: White's five at the start (Black's 12)
WHITE_6 = [25, 26, 27, 28, 29]  # board point 6: White's five at the start (Black's 19)


@pytest.fixture
def black_to_play_5_2():
    """The standard start, Black to play 5-2 (won the opening roll), a black checker from
    Black's 24 point (board point 1) in the hand 40 mm up."""
    sim = S.Sim(seed=5)
    events = []
    sim.serial.listeners.append(events.append)
    sim.run_ms(50)
    sim.serial.send("new length=1")
    sim.run_ms(100)
    sim.dice.force(2, 5)
    sim.press("ROLL_W")
    sim.run_ms(200)
    st = sim.status()
    assert st["phase"] == "moving" and st["on_roll"] == 1 and sorted(st["dice"]) == [2, 5]
    sim.lift(1, S.BLACK)
    sim.run_ms(300)
    yield sim, events
    sim.close()
    sim.remove_flash()


def _illegal(events):
    return [e for e in events if e.get("ev") == "illegal"]


def test_a_hand_held_5mm_over_each_cell_of_an_opponents_five_point_for_2s_is_not_flagged(black_to_play_5_2):
    # the case: Black holds the checker low over White's 13 point while counting
    sim, events = black_to_play_5_2
    for cell in WHITE_13 + WHITE_6:
        sim.board.hover(cell, 5.0)  # the hand arrives at once: no slow approach to learn from
        sim.run_ms(2000)
        assert not _illegal(events), (cell, _illegal(events))
        assert "ILLEGAL" not in (S.point_led(sim.board, 13), S.point_led(sim.board, 6))
    sim.place(1)  # put back where it came from
    sim.run_ms(300)
    assert not _illegal(events)


def test_a_hand_held_5mm_over_an_empty_point_no_play_reaches_is_not_flagged(black_to_play_5_2):
    # Black's 16 and 15 points (board 9 and 10) are empty and out of reach of 5-2; a hand 5 mm
    # over an empty cell reads about 40 % of a checker there (hardware/sensing.md)
    sim, events = black_to_play_5_2
    for cell in range(40, 50):
        sim.board.hover(cell, 5.0)
        sim.run_ms(2000)
        assert not _illegal(events), (cell, _illegal(events))


@pytest.mark.parametrize("speed_mm_s", [40.0, 100.0, 300.0])
def test_a_checker_lowered_onto_an_opponents_five_point_is_flagged_within_1s_however_slowly(black_to_play_5_2, speed_mm_s):
    # 24/19 onto White's 6 point, the hand hesitating 1 s 15 mm over it first, then lowering
    # the checker onto the stack: the point is blocked
    sim, events = black_to_play_5_2
    cell = WHITE_6[2]
    sim.board.hover(cell, 30.0, speed_mm_s=300.0)
    sim.run_until(lambda s: not s.board.hand_moving())
    sim.board.hover(cell, 15.0, speed_mm_s=100.0)
    sim.run_until(lambda s: not s.board.hand_moving())
    sim.run_ms(1000)
    assert not _illegal(events)
    sim.board.drop(cell, speed_mm_s=speed_mm_s)
    assert sim.run_until(lambda s: not s.board.hand_moving())
    assert sim.board.count(cell) == 2 and sim.board.hand is None
    landed = sim.board.clock.ms
    assert sim.run_until(lambda s: _illegal(events), 1000), "not flagged within 1 s of landing"
    ev = _illegal(events)[0]
    assert (ev["board_point"], ev["reason"]) == (6, "Point 19 is blocked")
    assert sim.board.clock.ms - landed <= 1000
