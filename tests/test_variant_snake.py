"""Snake ("Schlange", seed 002): the standard rules from an unusual start whose picture was
lost; the start is the documented one (docs/variants.md, "Snake"). One test per rule that
differs from the standard game, each named after it."""

import pytest

from bgc import cli
from bgc.logs import journals
from bgrules import Position, Turn
from bgrules.match import Match
from bgrules.rules import ruleset
from companion import recovery

SNAKE = ruleset("snake")


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_snake_start_white_two_each_on_blacks_1_2_3_points_nine_on_the_bar_black_as_usual():
    # The source's words, in its notation: Black "five on B6, three on B8, five on W12, and two
    # on W1"; White "two each on B1, B2, B3", the other nine waiting to enter (on the bar).
    white = [0] * 24
    for blacks_point in (1, 2, 3):
        white[24 - blacks_point] = 2  # Black's point q is White's 25 - q
    black = [0] * 24
    for own_point, n in ((6, 5), (8, 3), (13, 5), (24, 2)):  # W12 is Black's 13, W1 its 24
        black[own_point - 1] = n
    expected = Position.from_points(white, black, mover_bar=9)
    assert SNAKE.start_position() == expected
    assert SNAKE.start_position().pips() == (2 * (24 + 23 + 22) + 9 * 25, 167)


def test_snake_white_enters_first_and_blacks_six_point_is_closed():
    # 6-5 at the start: the 6 cannot enter (Black holds its 6 point, White's 19), the 5 enters on
    # White's 20 and, with eight still on the bar, nothing else may move.
    turn = Turn(SNAKE.start_position(), 6, 5, SNAKE)
    plays = turn.plays()
    assert [p.notation() for p in plays] == ["bar/20"]
    assert turn.dice_to_play == 1


def test_snake_black_opening_plays_from_the_ordinary_start_against_the_snake():
    m = Match(1, rules=SNAKE)
    m.opening_roll(1, 3)  # Black's die is higher: Black plays 3-1 first
    assert m.on_roll == 1
    assert m.position == SNAKE.start_position().swapped()
    assert "8/5 6/5" in [p.notation() for p in m.turn.plays()]


def test_snake_keeps_the_cube_and_gammons_of_the_standard_game():
    m = Match(0, rules=SNAKE)
    m.opening_roll(4, 2)
    assert SNAKE.cube and SNAKE.gammons
    m.play(m.turn.plays()[0])
    assert m.may_double()


def test_snake_journal_replays_and_exports_json_and_text_but_not_mat_or_sgf(tmp_path, capsys):
    recs = journals.synthetic_records(11, length=1, rules="snake")
    m = recovery.replay(recs)
    assert m.rules is SNAKE and m.phase == "matchover"
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 2 and "this match is snake, which GNU Backgammon does not play" in err
        assert not (tmp_path / ("m0001." + fmt)).exists()
    for fmt in ("json", "text"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 0, err
        assert (tmp_path / ("m0001." + fmt)).exists() or out


def test_snake_is_listed_with_its_assumption(capsys):
    status, out, err = bgc(capsys, "variants")
    assert status == 0
    lines = out.splitlines()
    row = [i for i, l in enumerate(lines) if l.startswith("snake ")]
    assert row and "assumed" in lines[row[0]]
    # the game's own lines follow its row (start:, texts:, assumed:): the assumption names the nine
    assumed = [l for l in lines[row[0] + 1:row[0] + 6] if l.strip().startswith("assumed:")]
    assert assumed and "nine" in assumed[0] and "bar" in assumed[0]
