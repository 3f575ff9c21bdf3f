"""A position to practise (issue 30, item 5): GNU Backgammon's Position ID and Match ID start a new
match on the board at that position (the `new` command's pos and mid; `bgc setup`; `practise` at
the `bgc sim` prompt). The IDs are decoded as GNU Backgammon decodes them (checked against PyPI
gnubg itself: the board it sets up from the same IDs), the board lights the points whose checkers
are missing or extra until it shows the position, play goes on from there, and the journal's setup
record makes a power cut, `bgc replay` and `bgc export -f sgf` (re-read by the gnubg program) start
at the position. Bad IDs are refused with the reason and change nothing."""

import json
import os
import subprocess
import sys

import pytest

from bgc import cli
from bgc.logs import analysis, export, journals
from bgrules.position import Position, OPP
from companion_helpers import Harness, ROLL_B

needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")

# A 5-point match at 2-3 (Black leads), Black on roll with 6-4, White has one back checker more on
# its 8-point than at the start and one fewer on its 24-point (IDs written by GNU Backgammon)
POS, MID = "4PPgAyDgc/ABMA", "cAmzACAAGAAE"

_GNUBG = r'''
import json, os, sys
reply = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
import gnubg
out = []
for cmds in json.loads(sys.argv[1]):
    for c in ["set confirm new off", "set automatic roll off", "set player 0 human", "set player 1 human"] + cmds:
        gnubg.command(c)
    b = gnubg.board()
    out.append({"match": gnubg.matchid(), "pos": gnubg.positionid(), "board": [list(b[0]), list(b[1])]})
reply.write(json.dumps(out))
'''


def gnubg_boards(sessions):
    """For each list of GNU Backgammon commands: its Match ID, Position ID and board afterwards."""
    env = dict(os.environ, HOME=os.environ.get("TMPDIR", "/tmp"))
    p = subprocess.run([sys.executable, "-c", _GNUBG, json.dumps(sessions)], capture_output=True, text=True,
                       timeout=120, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


def set_up(h, pos=POS, mid=MID, **settings):
    """The `new` command of bgc setup; the board's error, or None."""
    s = {"cmd": "new", "length": 5, "pos": pos, "mid": mid, "force": True}
    s.update(settings)
    before = len(h.events("error"))
    h.line(json.dumps(s))
    errors = h.events("error")[before:]
    return errors[0]["error"] if errors else None


def test_the_board_lights_the_points_to_fix_and_play_goes_on_from_the_position(tmp_path):
    h = Harness(tmp_path)
    h.clear()
    assert set_up(h) is None
    board = h.events("board")[-1]
    # the checkers stand at the start: White's 24-point has one too many, its 8-point one too few
    assert board["ok"] is False and board["reason"] == "setup" and board["wrong"] == [8, 24]
    assert h.led(8) == "illegal" and h.led(24) == "illegal" and h.led(13) != "illegal"
    assert h.c.fx.screen[0] == "Set up: position" and h.c.phase == "board"
    h.move("w", 24, 8)
    assert h.c.phase == "moving" and h.c.match.on_roll == 1 and h.c.match.dice == (6, 4)
    st = h.events("status")[-1]
    # the board's match is the one the IDs say, as GNU Backgammon would write it
    assert (st["match"], st["pos"], st["score"], st["length"]) == (MID, POS, [2, 3], 5)
    # Black plays 24/18 13/9 from there, as from any position
    h.move("b", 1, 7)
    h.move("b", 12, 16)
    h.press(ROLL_B)
    assert h.events("play")[-1]["move"] == "24/18 13/9"
    records, problem = h.journal()
    assert problem is None
    assert [r["a"] for r in records[:3]] == ["match", "setup", "play"]
    assert records[1] == {"a": "setup", "pos": POS, "mid": MID}


def test_after_a_power_cut_the_match_resumes_at_the_set_position(tmp_path):
    h = Harness(tmp_path)
    assert set_up(h) is None
    h.move("w", 24, 8)
    again = Harness(tmp_path, boot=False)
    again.set_pos(Position.from_id(POS), white_on_roll=False)
    again.c.boot(again.frame(), 0)
    st = again.events("status")[-1]
    assert (st["match"], st["pos"], st["phase"]) == (MID, POS, "moving")


@pytest.mark.parametrize("pos,mid,why", [
    ("4PPgAyDgc/ABMX", MID, "too few fields"),
    (POS, "cAmzACAAGAAx", "beyond the match length"),
    (POS, "cAkWAAAAAAAA", "Match ID: money, not this match's 5 points"),
    (POS, "8ASgACAAIAAE", "no game under way"),  # a game over (GNU Backgammon's after a drop)
])
def test_bad_ids_are_refused_with_the_reason_and_change_nothing(tmp_path, pos, mid, why):
    h = Harness(tmp_path)
    assert h.c.new_match({"length": 3}, True) is None
    before = (h.c.name, h.c.match.match_id())
    h.clear()
    h.line(json.dumps({"cmd": "new", "length": 5, "pos": pos, "mid": mid, "force": True}))
    errors = h.events("error")
    assert errors and why in errors[0]["error"], errors
    assert (h.c.name, h.c.match.match_id()) == before and not h.events("new")


@needs_engine
def test_the_board_decodes_the_ids_as_gnu_backgammon_does(tmp_path):
    """GNU Backgammon sets up its own positions (score, cube and its owner, the player on roll, the
    dice, the Crawford game); the board started from the IDs it writes has the same checkers where
    GNU Backgammon has them and writes the same IDs back."""
    sessions = [
        ["new match 5", "set score 2 3", "set board 4PPgAyDgc/ABMA", "set turn 1", "set dice 6 4"],
        ["new match 7", "set score 3 6", "set crawford on", "set board sGfwATDg8+ADIA", "set turn 0", "set dice 3 1"],
        ["new match 9", "set score 4 1", "set cube value 4", "set cube owner 1", "set board 4HPhASDgc/ABMA",
         "set turn 0"],
        ["new session", "set cube value 2", "set cube owner 0", "set board 2G7BAyBwszoAMA", "set turn 1"],
    ]
    for theirs in gnubg_boards(sessions):
        h = Harness(tmp_path)
        from bgrules.matchid_read import decode

        mk = decode(theirs["match"])
        extra = {} if mk.length else {"jacoby": mk.jacoby}  # a session's Jacoby rule is the settings'
        assert set_up(h, theirs["pos"], theirs["match"], length=mk.length, **extra) is None, theirs
        m = h.c.match
        assert (m.match_id(), m.position_id()) == (theirs["match"], theirs["pos"])
        # gnubg.board(): [the opponent's, the player on roll's] checkers on points 1..24 and the bar
        cells = m.position.cells
        assert [cells[OPP + i] for i in range(1, 26)] == theirs["board"][0]
        assert [cells[i] for i in range(1, 26)] == theirs["board"][1]


def test_bgc_replay_and_text_say_where_the_game_starts_and_mat_is_refused(tmp_path, capsys):
    h = Harness(tmp_path)
    assert set_up(h) is None
    h.move("w", 24, 8)
    h.move("b", 1, 7)
    h.move("b", 12, 16)
    h.press(ROLL_B)
    path = tmp_path / "m0001.jnl"
    path.write_bytes(open(h.c.store.path(h.c.name), "rb").read())
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Game 1 - score White 2, Black 3 - from a set position" in out
    assert "set position %s, Match ID %s: Black on roll with 6-4" % (POS, MID) in out
    assert "Black 64: 24/18 13/9" in out
    assert cli.main(["export", str(path), "-f", "mat", "--out", str(tmp_path)]) == 2
    assert "a .mat cannot hold" in capsys.readouterr().err
    assert not (tmp_path / "m0001.mat").exists()
    log = journals.load(str(path))
    assert log.games[0].setup["pos"].id() == POS and log.games[0].score == [2, 3]


@needs_engine
def test_bgc_setup_against_the_computer_on_the_virtual_pico_board_ends_and_exports_from_the_position(tmp_path, capsys):
    """`bgc setup POSITION_ID MATCH_ID --computer black` with `bgc vpico --board --demo` (its hands set
    the checkers out as the board lights them, play the person's side and move the computer's
    checkers): the match ends, the journal starts with the position, and its SGF, written as GNU
    Backgammon writes a game set up with `set board`, is read back by the gnubg program with every
    position the same."""
    from bgc.rules import gnubg_ref

    # a 3-point match at 1-1, the cube on 2 White owns, Black to roll in a bear-off race (GNU
    # Backgammon's IDs for it)
    ids = gnubg_boards([["new match 3", "set score 1 1", "set cube value 2", "set cube owner 0",
                         "set turn 1", "set board 2+4OAADb7g4AAA"]])[0]
    from test_computer_play import demo_board

    with demo_board(tmp_path, 2) as (link, flash):
        status = cli.main(["setup", ids["pos"], ids["match"], "--port", link, "--computer", "black", "--wait", "180"])
        out, err = capsys.readouterr()
        assert status == 0, out + err
        assert "score You 1, gnubg (expert) 1" in out and "match over:" in out
    jdir = os.path.join(flash, "journal")
    path = os.path.join(jdir, sorted(n for n in os.listdir(jdir) if n.endswith(".jnl"))[-1])
    log = journals.load(path)
    assert log.problem is None and log.complete
    g = log.games[0]
    assert g.setup["pos"].id() == ids["pos"] and g.setup["mid"] == ids["match"] and g.score == [1, 1]
    first = g.moves[0]
    assert first["start"].id() == ids["pos"] and first["p"] == 1
    for a in g.moves:
        legal = gnubg_ref.reference_results(a["start"].id(), a["dice"][0], a["dice"][1])
        assert a["final"].id() in legal or (not legal and a["final"] == a["start"]), a["notation"]
    if export.find_gnubg() is None:
        pytest.skip("the gnubg program is not installed: the SGF is not read back")
    assert cli.main(["export", path, "--format", "sgf", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    sgf = str(tmp_path / (os.path.basename(path)[:-4] + ".sgf"))
    text = open(sgf).read()
    assert ";PL[B]AE[a:y]AW" in text and ";CV[2]" in text and ";CP[w]" in text
    d = export.gnubg_read([sgf])[0]
    assert export.gnubg_warnings(d["output"]) == []
    checked, diffs = export.compare(log, d["match"], d["walks"])
    assert diffs == [] and checked["moves"] == len(g.moves)


def _race_journal(tmp_path):
    """A journal from a set position: a 3-point match at 1-1, the cube on 2 owned by Black, White
    (You) to roll in a bear-off race; four plays."""
    from bgc.rules.notation_read import apply_moves
    from companion import journal, recovery

    records = [journal.settings_record(3, names=("You", "gnubg (expert)")),
               {"a": "setup", "pos": "2+4OAADb7g4AAA", "mid": "EQFgABAACAAE"}]
    pos = Position.from_id("2+4OAADb7g4AAA")
    for p, dice, move in ((0, (6, 5), "6/off 5/off"), (1, (4, 3), "4/off 3/off"), (0, (2, 1), "2/off 1/off"),
                          (1, (6, 6), "6/off(3) 5/off")):
        final = apply_moves(pos, move)
        records += [{"a": "roll", "p": p, "dice": list(dice)}, {"a": "play", "p": p, "move": move, "pos": final.id()}]
        pos = final.swapped()
    recovery.replay(records)  # every record fits
    path = tmp_path / "m0001.jnl"
    path.write_text("".join(journal.encode(r) for r in records))
    return str(path)


@needs_engine
def test_bgc_analyze_starts_from_the_set_position_with_its_cube(tmp_path):
    """The engine is given the position and the cube the Match ID says (GNU Backgammon's `set
    matchid`, `set board`), not the opening: each play is analysed from the position it was made
    in, and the cube decisions with the cube on 2 that Black owns."""
    log = journals.load(_race_journal(tmp_path))
    result = analysis.analyse(log)
    records = result["games"][0]["records"]
    moves = [r for r in records if r["kind"] == "move"]
    assert len(moves) == 4
    assert moves[0]["position"] == "2+4OAADb7g4AAA" and moves[0]["player"] == 0
    assert [m["position"] for m in moves] == [a["start"].id() for a in log.games[0].moves]
    assert all((r["cube_value"], r["cube_owner"]) == (2, 1) for r in records)
    # 6-5 from there: bearing off two checkers is the best play (from the opening, 6/off could not be played)
    assert moves[0]["best"] == "6/off 5/off" and moves[0]["loss"] == 0.0


def test_bgc_setup_for_two_people_on_the_virtual_pico_board(tmp_path, capsys):
    """`bgc setup POSITION_ID MATCH_ID --names Ann,Bob` on `bgc vpico --board`: the board takes the
    match and waits for the position (the points to fix lit); a second `bgc setup` does not throw
    away the match in progress unless --force says so."""
    import threading

    from test_computer_offline import board_status

    link = str(tmp_path / "pico")
    board = subprocess.Popen([sys.executable, "-m", "bgc", "vpico", "--board", "--link", link,
                              "--flash", str(tmp_path / "flash")],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in board.stdout:
            if "The firmware runs on the virtual board behind" in line:
                break
        threading.Thread(target=board.stdout.read, daemon=True).start()
        assert cli.main(["setup", POS, MID, "--port", link, "--names", "Ann,Bob", "--wait", "60"]) == 0
        out = capsys.readouterr().out
        assert "5-point match, score Ann 2, Bob 3" in out and "the board starts the match from the position" in out
        st = board_status(link, lambda ev: ev.get("match") is not None)
        assert (st["phase"], st["match"], st["pos"], st["names"]) == ("board", MID, POS, ["Ann", "Bob"])
        assert st["msg"] == "Ann: 1 extra on 24"
        assert cli.main(["setup", "4HPwATDgc/ABMA", "--port", link, "--wait", "60"]) == 2
        assert "a match is in progress on the board" in capsys.readouterr().err
        assert board_status(link, lambda ev: True)["match"] == MID  # untouched
    finally:
        board.terminate()
        try:
            board.wait(timeout=20)
        except subprocess.TimeoutExpired:
            board.kill()
