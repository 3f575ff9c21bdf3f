"""bgc match: a Match ID (and a Position ID) in words."""

from bgc.cli import main


def run(capsys, *argv):
    status = main(["match", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_bgc_match_explains_gnubgs_9_point_example(capsys):
    status, out, _ = run(capsys, "QYkqASAAIAAA")
    assert status == 0
    assert "9-point match, score White 2, Black 4" in out
    assert "Cube: 2, owned by White" in out
    assert "Black on roll, rolled 5-2" in out
    assert "Game in progress" in out


def test_bgc_match_explains_a_centred_cube_and_names(capsys):
    status, out, _ = run(capsys, "cInlAAAAAAAE", "--names", "Anna,Bruno")
    assert status == 0
    assert "7-point match, score Anna 0, Bruno 0" in out
    assert "Cube: 1, centred" in out
    assert "Bruno on roll, rolled 3-1" in out


def test_bgc_match_says_crawford_double_and_resign(capsys):
    from bgrules.matchid import MatchKey

    _, out, _ = run(capsys, "8IhuACAACAAE")
    assert "3-point match" in out and "Crawford game: no doubling" in out
    doubled = MatchKey(cube=2, cube_owner=1, on_roll=1, to_act=0, doubled=True, length=0).id()
    _, out, _ = run(capsys, doubled)
    assert "Money game" in out and "Black doubles to 4; White to take or drop" in out
    resigned = MatchKey(on_roll=0, to_act=1, resign=2, length=5, score=(1, 3)).id()
    _, out, _ = run(capsys, resigned)
    assert "White offers to resign a gammon; Black to accept or reject" in out


def test_bgc_match_draws_the_board_with_pip_counts(capsys):
    status, out, _ = run(capsys, "cInlAAAAAAAE", "4HPwATDgc/ABMA")
    assert status == 0
    lines = out.splitlines()
    top = lines.index(" +13-14-15-16-17-18------19-20-21-22-23-24-+")
    # The player on roll (Black, X) sits at the bottom with the home board on the right: the
    # midpoint (13) and the back checkers (24) on top, the six and eight points below.
    assert lines[top + 1] == " | X           O    |   | O              X |"
    assert lines[top + 11] == " | O           X    |   | X              O |"
    assert lines[top + 6].startswith("v|                  |BAR|")
    assert "X Black on roll (bottom): pips 167, off 0" in out
    assert "O White: pips 167, off 0" in out


def test_bgc_match_refuses_a_bad_match_id(capsys):
    status, _, err = run(capsys, "QYkqASAAIAA")
    assert status == 2 and "12 characters" in err


def test_bgc_match_refuses_a_bad_position_id(capsys):
    status, _, err = run(capsys, "QYkqASAAIAAA", "//////////////")
    assert status == 2 and "bgc:" in err
