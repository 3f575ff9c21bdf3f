"""Position and GNU Backgammon Position ID."""

import pytest
from bgpos import board

from bgrules import Position, PositionError


def test_start_position_id_is_gnubgs():
    assert Position.start().id() == "4HPwATDgc/ABMA"


def test_start_pip_counts_are_167_each():
    assert Position.start().pips() == (167, 167)


def test_mover_is_second_half_of_the_id():
    # GNU Backgammon: after 24/23 24/21 from the start, the mover's side of the key changes.
    pos = Position.start()
    pos.cells[24] -= 2
    pos.cells[23] += 1
    pos.cells[21] += 1
    assert pos.id() == "4HPwATDgc/ABEg"
    assert pos.id()[:7] == Position.start().id()[:7]


def test_round_trip_of_a_known_id():
    for pid in ("aDcQID2kUqkKKg", "4HPwATDgc/ABMA", "79IOIAAAAAAAAA"):
        assert Position.from_id(pid).id() == pid


def test_borne_off_checkers_are_counted_by_conservation():
    pos = board({6: 5})
    assert pos.mover(0) == 10
    assert pos.opponent(0) == 15


def test_sixteen_checkers_are_refused():
    with pytest.raises(PositionError, match="16 checkers"):
        board({6: 16})


def test_both_colours_on_one_point_are_refused():
    with pytest.raises(PositionError, match="Both colours on point 7"):
        board({7: 2}, {7: 1})


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA!", "!!!!!!!!!!!!!!", "//////////////", 42])
def test_malformed_ids_are_refused_with_a_reason(bad):
    with pytest.raises(PositionError) as err:
        Position.from_id(bad)
    assert "Position ID" in str(err.value) or "checkers" in str(err.value)


def test_swapped_passes_the_turn():
    pos = board({6: 2}, {19: 3})
    other = pos.swapped()
    assert other.mover(6) == 3 and other.opponent(6) == 2
    assert other.swapped() == pos
