"""Doublets (seed 002, "Doubletten"; docs/variants.md): one test per rule that differs from the
standard game, each named after it, and a whole game on the virtual board under MicroPython with
real towers (two checkers on one cell) that the sensors see as one occupied cell."""

import os

import pytest

from bgc import cli
from bgc.logs import journals
from bgc.pico import libs, upy
from bgrules import Position
from bgrules.match import Match
from bgrules.position import BAR, OFF, OPP
from bgrules.rules import VARIANTS, ruleset

import test_sim_micropython as base
import test_variants_board

R = ruleset("doublets")


def pos(points, marker=0, theirs=(1, 1, 1, 1, 1, 1)):
    """The mover's points 1-6 as the board counts them (1 a tower, 2 apart), the marker."""
    m = list(points) + [0] * 18
    o = list(theirs) + [0] * 18
    p = Position.from_points(m, o, marker, 0)
    return p


def turn(p, d1, d2):
    return R.turn(p, d1, d2, R)


def final(t):
    (play,) = t.plays()
    return play.position


def test_doublets_is_a_playable_variant():
    assert "doublets" in VARIANTS and R.key == "doublets"


def test_twelve_checkers_as_towers_of_two_on_1_to_6_seen_as_one_each():
    c = R.start_position().cells
    assert list(c[1:7]) == [1] * 6 and sum(c[7:26]) == 0
    assert c[OFF] == 9  # six checkers hidden in the towers, three spare: 15 a side


def test_each_die_takes_its_tower_apart():
    t = turn(R.start_position(), 6, 3)
    assert list(final(t).cells[1:7]) == [1, 1, 2, 1, 1, 2]
    assert t.check(pos([1, 1, 2, 1, 1, 1])) == "Take the tower on 6 apart"


def test_checkers_never_change_points():
    t = turn(R.start_position(), 6, 3)
    moved = bytearray(R.start_position().cells)
    moved[6] = 0
    moved[9] = 1
    assert t.check(Position(moved)) == "Checkers stay on 1-6"


def test_a_die_whose_tower_is_already_apart_is_lost():
    t = turn(pos([1, 1, 2, 1, 1, 2]), 6, 4)
    assert list(final(t).cells[1:7]) == [1, 1, 2, 2, 1, 2]
    assert turn(pos([1, 1, 2, 1, 1, 2]), 6, 3).dice_to_play == 0


def test_a_double_counts_once_and_the_same_player_rolls_again():
    t = turn(R.start_position(), 4, 4)
    assert list(final(t).cells[1:7]) == [1, 1, 1, 2, 1, 1]
    m = Match(0, rules=R)
    m.opening_roll(5, 2)
    m.play(m.turn.plays()[0].position)
    player = m.on_roll
    m.roll(4, 4)
    m.play(m.turn.plays()[0].position)
    assert m.phase == "roll" and m.on_roll == player


def test_when_the_last_tower_comes_apart_the_marker_goes_on_the_bar():
    t = turn(pos([2, 2, 1, 2, 2, 2]), 3, 5)
    f = final(t)
    assert list(f.cells[1:7]) == [2] * 6 and f.cells[BAR] == 1
    without = pos([2] * 6)
    assert t.check(without) == "All apart: marker on bar"
    # partial plays in any order are the start of the play (the board's tracker asks this)
    assert t.locate(without) and t.locate(pos([2, 2, 1, 2, 2, 2], marker=1))


def test_then_the_towers_are_stacked_again_by_the_dice():
    t = turn(pos([2] * 6, marker=1), 2, 5)
    assert t.stage == 1 and list(final(t).cells[1:7]) == [2, 1, 2, 2, 1, 2]
    assert t.check(pos([2, 1, 2, 2, 2, 2], marker=1)) == "Stack the two on 5"


def test_then_borne_off_by_the_dice_and_the_first_out_wins():
    t = turn(pos([1] * 6, marker=1), 2, 5)
    assert t.stage == 2 and list(final(t).cells[1:7]) == [1, 0, 1, 1, 0, 1]
    assert 0 in t.destinations(pos([1] * 6, marker=1), 2)
    m = Match(1, rules=R)
    m.position = pos([0, 0, 1, 0, 0, 0], marker=1)
    m.opening_roll(3, 1)
    m.play(m.turn.plays()[0].position)
    assert m.phase == "matchover" and m.winner == 0 and m.result[2] == 1
    assert m.double_refusal() in ("The match is over",)
    assert Match(0, rules=R).rules.cube is False


def test_export_writes_json_and_text_and_refuses_mat_and_sgf(tmp_path, capsys):
    recs = journals.synthetic_records(2, length=1, rules="doublets")
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        assert cli.main(["export", str(path), "-f", fmt]) == 2
        assert "this match is doublets, which GNU Backgammon does not play" in capsys.readouterr().err
    for fmt in ("json", "text"):
        assert cli.main(["export", str(path), "-f", fmt]) == 0, capsys.readouterr().err


# --- a whole game on the virtual board -----------------------------------------------------

def _program():
    game = test_variants_board._program("doublets")

    def swap(old, new):
        nonlocal game
        assert game.count(old) == 1, old
        game = game.replace(old, new)

    # towers: the second checker of each goes on top of the first (one cell, a stack)
    swap("board.set_points(w, b)\n", """board.set_points(w, b)
for p in range(1, 7):
    board.place(5 * (p - 1), virtual.WHITE)
    board.place(5 * (24 - p), virtual.BLACK)
""")
    # (test_variants_board's players take a checker waiting beside the board by hand; Doublets has none)
    swap("""            for a, b, hit in best.steps:
                if a == 25 and not bar:
                    board.hand = [colour, 0.0, 0.0, 40.0]  # from beside the board
                else:
                    bar -= a == 25
                    take(board_point(a, colour), colour)
                run(5)
                if b == 0:
                    board.hand = None  # borne off: into the tray, out of the sensors' reach
                    board._stale = True
                else:
                    put(board_point(b, colour), colour)
                run(5)
""", """            for a, b, hit in best.steps:
                if b == 25:  # the marker, a spare checker from the tray
                    board.place(120 if colour == virtual.WHITE else 124, colour)
                    board._stale = True
                elif b == 0:  # the tower lifted whole into the tray
                    for _ in range(2):
                        take(board_point(a, colour), colour)
                        board.hand = None
                        board._stale = True
                        run(3)
                elif turn.stage == 0:  # the top checker beside the other
                    take(board_point(a, colour), colour)
                    run(5)
                    put(board_point(a, colour), colour)
                else:  # one of the two on top of the other
                    take(board_point(a, colour), colour)
                    run(5)
                    cs = [c for c in cells_of(board_point(a, colour), colour) if board.count(c)]
                    board.drop(cs[0])
                run(5)
""")
    return game


@pytest.mark.micropython
def test_a_whole_game_of_doublets_on_the_virtual_board_with_real_towers():
    sources = [os.path.join(base.ROOT, "firmware"), os.path.join(base.ROOT, "host", "bgc", "board", "virtual"),
               os.path.join(base.ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    out = upy.run(_program(), sources, heap_kb=base.BOARD_HEAP_KB)
    head, journal_text = out.split("JOURNAL\n", 1)
    assert '"match_end"' in head, head[-2000:]
    assert "illegal 0" in head, head[-2000:]
    from companion import journal as J
    from companion import recovery

    records, problem = J.parse(journal_text)
    assert problem is None and records[0]["rules"] == "doublets"
    m = recovery.replay(records)
    assert m.phase == "matchover" and m.rules is R
    end = [r for r in records if r["a"] == "end"]
    assert len(end) == 1 and end[0]["winner"] == m.winner


def test_the_sim_sets_doublets_out_as_towers_that_the_board_counts_as_one_checker_each():
    # docs/player-guide.md: "a tower of two on each of your points 1-6: the second checker on
    # top of the first, on one cell"
    from bgc.board import sim as S
    from bgc.board.virtual.view import point_cells

    with S.Sim(seed=3, rules=R) as s:
        for colour, points in ((S.WHITE, range(1, 7)), (S.BLACK, range(19, 25))):
            for p in points:
                assert [s.board.count(c) for c in point_cells(p)] == [2, 0, 0, 0, 0]
                assert s.board.colour(point_cells(p)[0]) == colour
        assert s.position(S.WHITE) == R.start_position()
        assert s.position(S.BLACK) == R.start_position()
        s.run_ms(50)
        s.serial.send("new length=1 variant=doublets")
        s.run_ms(1500)
        assert s.status()["phase"] == "opening", s.oled_rows()


def test_the_sim_demo_plays_a_game_of_doublets_to_its_end_with_towers(capsys):
    # the demo's hands take towers apart, stack them, lift them off whole and set the marker
    # (docs/player-guide.md), with the sensor noise and human handling; the board must follow
    # every step without a false flag and end the game
    assert cli.main(["sim", "--demo", "--fast", "--quiet", "--variant", "doublets", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Match over:" in out, out[-1500:]
    assert " 0 false illegal flags" in out, out[-1500:]
