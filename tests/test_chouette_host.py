"""The chouette on the host: `bgc replay` tells every member's answer and the ledger, `bgc export`
writes the ledger as CSV and everything as JSON and refuses .mat/.sgf with a clear error, and
`bgc chouette` starts an evening on a board over its serial line."""
import csv
import io
import json
import os
import threading

import pytest

from bgc import cli
from bgc.logs import chouette_log
from companion_helpers import Harness, ROLL_W, CUBE_W, ROLL_B, CUBE_B, LONG
from test_chouette_board import seated, to_box_double, to_box_turn


def one_game(tmp_path):
    """The board test's game: Carla's double, Anna and Dario take, Bruno drops; the box resigns."""
    h = seated(tmp_path, rolls=[(6, 4)])
    to_box_double(h)
    h.press(ROLL_B)
    h.press(CUBE_B, LONG)
    h.press(ROLL_B)
    h.press(CUBE_W, LONG)
    h.press(ROLL_W)
    h.press(ROLL_B)
    return os.path.join(h.dir, h.c.name)


def test_replay_tells_the_seats_the_answers_and_the_ledger(tmp_path, capsys):
    path = one_game(tmp_path)
    assert cli.main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "the line: Carla, Anna, Bruno, Dario (box Carla, captain Anna)" in out
    assert "the box Carla doubles Anna, Bruno, Dario" in out
    assert "Anna takes" in out and "Bruno drops" in out and "Dario takes" in out
    assert "the team (captain Anna) wins: Carla -3, Anna +2, Bruno -1, Dario +2" in out
    assert "the line: Anna, Bruno, Dario, Carla" in out
    assert out.rstrip().splitlines()[-1].split() == ["total", "+2", "-1", "-3", "+2"]


def test_export_csv_is_the_ledger_and_json_holds_everything(tmp_path, capsys):
    path = one_game(tmp_path)
    assert cli.main(["export", path, "-f", "csv", "-o", str(tmp_path / "l.csv")]) == 0
    rows = list(csv.DictReader(open(tmp_path / "l.csv")))
    assert [(r["game"], r["player"], r["role"], r["points"], r["total"]) for r in rows] == [
        ("1", "Carla", "box", "-3", "-3"), ("1", "Anna", "captain", "2", "2"), ("1", "Bruno", "team", "-1", "-1"),
        ("1", "Dario", "team", "2", "2")]
    assert cli.main(["export", path, "-f", "json", "-o", str(tmp_path / "e.json")]) == 0
    data = json.load(open(tmp_path / "e.json"))
    assert data["format"] == "bgc-chouette" and data["ledger"][0]["points"] == [["Carla", -3], ["Anna", 2],
                                                                               ["Bruno", -1], ["Dario", 2]]
    assert any(e["text"] == "Bruno drops" for e in data["events"])


@pytest.mark.parametrize("fmt", ["mat", "sgf"])
def test_export_refuses_gnubg_formats_for_a_chouette(tmp_path, capsys, fmt):
    path = one_game(tmp_path)
    assert cli.main(["export", path, "-f", fmt]) == 2
    err = capsys.readouterr().err
    assert "is a chouette journal" in err and "-f csv" in err
    assert not os.path.exists(path.replace(".jnl", "." + fmt))


def test_csv_is_refused_for_a_two_player_match(tmp_path, capsys):
    h = Harness(tmp_path)
    h.start_match(length=3)
    path = os.path.join(h.dir, h.c.name)
    assert cli.main(["export", path, "-f", "csv"]) == 2
    assert "is a match, not a chouette" in capsys.readouterr().err


def test_a_torn_chouette_journal_replays_up_to_the_cut(tmp_path, capsys):
    path = one_game(tmp_path)
    text = open(path).read()
    open(path, "w").write(text[: len(text) - 20])
    assert cli.main(["replay", path]) == 1
    captured = capsys.readouterr()
    assert "the replay stops at line" in captured.err and "Bruno drops" in captured.out


class FakeBoard:
    """A companion behind a pseudo-terminal: what `bgc chouette` writes reaches on_line."""

    def __init__(self, tmp_path, harness=None):
        self.h = harness or Harness(tmp_path)
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self.slave = slave
        import tty

        tty.setraw(slave)
        self.stop = False
        self.t = threading.Thread(target=self.loop, daemon=True)
        self.t.start()

    def loop(self):
        import select

        buf = b""
        while not self.stop:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            buf += os.read(self.master, 1024)
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.h.clear()
                self.h.line(line.decode())
                for out in self.h.c.fx.out:
                    os.write(self.master, (out + "\n").encode())

    def close(self):
        self.stop = True
        self.t.join()
        os.close(self.master)
        os.close(self.slave)


def test_bgc_chouette_start_sends_the_names_and_the_board_opens_the_evening(tmp_path, capsys):
    board = FakeBoard(tmp_path)
    try:
        assert cli.main(["chouette", "--port", board.port, "start", "Anna", "Bruno", "Carla", "Dario",
                         "--cubes", "several"]) == 0
        out = capsys.readouterr().out
        assert "chouette started" in out and "Anna, Bruno, Carla, Dario" in out
        ch = board.h.c.chouette
        assert ch.players == ["Anna", "Bruno", "Carla", "Dario"] and ch.cubes == "several"
        assert board.h.c.phase == "seating"
        assert cli.main(["chouette", "--port", board.port, "leave", "Anna"]) == 2
        assert "the board refused" in capsys.readouterr().err
        assert cli.main(["chouette", "--port", board.port, "ledger"]) == 0
        assert "totals: Anna 0, Bruno 0, Carla 0, Dario 0" in capsys.readouterr().out  # even, not "+0"
    finally:
        board.close()


def test_bgc_chouette_checks_the_names_before_sending(capsys):
    assert cli.main(["chouette", "--port", "/dev/null", "start", "Anna", "Bruno"]) == 2
    assert "3 to 12 players" in capsys.readouterr().err
    assert cli.main(["chouette", "--port", "/dev/null", "start", "Anna", "Bruno", "Anna"]) == 2
    assert "same name: Anna" in capsys.readouterr().err


def test_bgc_sim_chouette_plays_an_evening_and_prints_the_ledger(capsys):
    assert cli.main(["sim", "--chouette", "--games", "1", "--seed", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    game = [l for l in out.splitlines() if l.startswith("game 1:")][0]
    assert sum(int(x.split()[-1]) for x in game[len("game 1:"):].split(",")) == 0
    assert "Ledger (points per game" in out and out.count("total") == 1


def test_bgc_pull_verifies_a_chouette_journal_by_replaying_it(tmp_path, capsys):
    from bgc.pico.vpico import VirtualPico

    path = one_game(tmp_path / "board")
    flash = tmp_path / "flash"
    (flash / "journal").mkdir(parents=True)
    (flash / "journal" / "m0001.jnl").write_text(open(path).read())
    (flash / "main.py").write_text("import time\nwhile True:\n    time.sleep_ms(50)\n")
    with VirtualPico(str(flash)) as pico:
        status = cli.main(["pull", "--port", pico.port, "--out", str(tmp_path / "pulled")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "1 verified, 0 not verified" in out and "chouette of 4 players" in out


def test_bgc_watch_shows_box_captain_team_the_member_asked_and_the_ledger(tmp_path):
    from bgc.commands import watch

    h = seated(tmp_path, rolls=[(6, 4)])
    to_box_double(h)
    screen = watch.Screen()
    for ev in h.events():
        screen.feed(ev)
    text = "\n".join(screen.lines())
    assert "chouette game 1: box Carla, captain Anna, team Bruno, Dario; Anna to answer" in text
    assert "ledger: Anna 0, Bruno 0, Carla 0, Dario 0" in text
    h.clear()
    h.press(ROLL_B)
    assert watch.describe(h.events("cube")[0], None) == "Anna takes (cube 2)"


def test_bgc_chouette_double_box_offers_the_double_to_the_members_named(tmp_path, capsys):
    # seed: "Il box può offrire il raddoppio ai singoli componenti della squadra"
    h = seated(tmp_path, rolls=[(6, 4)], cubes="several")  # Carla box; Anna, Bruno, Dario
    to_box_turn(h)
    board = FakeBoard(tmp_path, h)
    try:
        assert cli.main(["chouette", "--port", board.port, "double", "--box", "Dario", "Anna"]) == 0
        assert capsys.readouterr().out == "the box doubles Anna to 2, Dario to 2; each answers at the board\n"
        assert h.c.chouette.asking == ["Anna", "Dario"] and h.c.phase == "doubled"
        assert cli.main(["chouette", "--port", board.port, "double", "Anna", "Bruno"]) == 2
        assert "names one member" in capsys.readouterr().err
    finally:
        board.close()


def test_bgc_chouette_double_box_refused_with_the_boards_reason(tmp_path, capsys):
    h = seated(tmp_path, rolls=[(6, 4)])  # one common cube
    to_box_turn(h)
    board = FakeBoard(tmp_path, h)
    try:
        assert cli.main(["chouette", "--port", board.port, "double", "--box", "Anna"]) == 2
        assert "the board refused: one common cube: the box doubles the whole team" in capsys.readouterr().err
        assert cli.main(["chouette", "--port", board.port, "double", "Bruno"]) == 2
        assert "the board refused: Only the captain doubles" in capsys.readouterr().err
        assert cli.main(["chouette", "--port", board.port, "double", "--box"]) == 0
        assert "the box doubles Anna to 2, Bruno to 2, Dario to 2" in capsys.readouterr().out
    finally:
        board.close()


def test_the_words_of_a_chouette_one_common_cube_and_even_balances(tmp_path, capsys):
    path = one_game(tmp_path)
    log = chouette_log.load(path)
    assert "(one common cube)" in log.summary()
    from bgrules.chouette import cube_words

    assert (cube_words("common"), cube_words("several")) == ("one common cube", "several cubes")


def test_the_demo_story_says_takes(capsys):
    # the demo (bgc sim --demo) tells a cube action in the words of bgc watch and the web page
    from bgc.pico.events import describe

    ev = {"ev": "cube", "p": 1, "action": "take", "cube": 2}
    assert describe(ev, {"names": ["White", "Black"]}) == "Black takes (cube 2)"
    assert describe({"ev": "game_end", "winner": 0, "points": 2}, None) == "game over: White wins 2 points"
    assert describe({"ev": "game_end", "winner": 1, "points": 1}, None) == "game over: Black wins 1 point"


def test_replay_tells_the_partner_chosen_at_the_first_game_and_one_drawn_by_lot(tmp_path, capsys):
    seats = [(d, 1) for d in (6, 5, 4, 3, 2, 1, 1, 1, 3, 2, 1)]  # P1..P8 in order
    h = Harness(tmp_path, rolls=seats + [(1, 3)], openings=[(3, 1)])
    h.line("chouette names=" + ",".join("P%d" % i for i in range(1, 9)))
    for _ in range(len(seats)):
        h.press(ROLL_W)
    h.line("partner accepts=1")  # the captain P2 partners the box: P3 is captain at the board
    h.line("partner")  # asked again, nobody: 1-3 is outcome 2 of 36, the third of P3..P8
    assert cli.main(["replay", os.path.join(h.dir, h.c.name)]) == 0
    out = capsys.readouterr().out
    assert "P2 partners the box; P3 is captain" in out
    assert "P5 partners the box, drawn by lot; P2 is captain" in out
