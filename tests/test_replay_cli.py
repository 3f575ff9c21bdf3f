"""bgc replay and the journal reading shared by pull/replay/export: the game move by move,
condoned plays marked, a refused play or an unreadable line reported with its line number."""

import json

from bgc import cli
from bgc.logs import journals
from companion import recovery


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def records_with_condoned():
    for seed in range(1, 50):
        recs = journals.synthetic_records(seed, length=3, p_condone=0.05)
        if any(r.get("condoned") for r in recs):
            return recs
    raise AssertionError("no condoned play generated")


def test_replay_prints_every_move_and_marks_condoned_plays(tmp_path, capsys):
    recs = records_with_condoned()
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    status, out, err = bgc(capsys, "replay", str(path))
    assert status == 0, err
    plays = [r for r in recs if r["a"] == "play"]
    assert "%d plays checked" % len(plays) in out
    condoned = [r for r in plays if r.get("condoned")]
    assert out.count("[ILLEGAL, condoned:") == 2 * len(condoned)  # in the listing and the summary
    assert "Game 1 - score Anna 0, Bruno 0" in out
    m = recovery.replay(recs)
    assert "Score: Anna %d, Bruno %d" % tuple(m.score) in out
    assert "no illegal play that was not condoned" in out


def test_replay_reports_an_illegal_play_that_was_not_condoned(tmp_path, capsys):
    recs = records_with_condoned()
    i = next(i for i, r in enumerate(recs) if r.get("condoned"))
    del recs[i]["condoned"]
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    status, out, err = bgc(capsys, "replay", str(path))
    assert status == 1
    assert "stops at line %d: play refused" % (i + 1) in err and "hint:" in err
    # What came before is still shown.
    assert "Game 1" in out


def test_replay_of_a_torn_journal_says_where_it_stops(tmp_path, capsys):
    text = journals.encode_records(journals.synthetic_records(5, length=3))
    lines = text.splitlines(True)
    path = tmp_path / "m0002.jnl"
    path.write_text("".join(lines[:20]) + lines[20][:17])
    status, out, err = bgc(capsys, "replay", "-q", str(path))
    assert status == 1
    assert "line 21: unreadable (no checksum (torn line?))" in err
    assert "power cut" in err


def test_replay_errors(tmp_path, capsys):
    status, out, err = bgc(capsys, "replay", str(tmp_path / "missing.jnl"))
    assert status == 2 and "cannot read" in err
    (tmp_path / "empty.jnl").write_text("")
    status, out, err = bgc(capsys, "replay", str(tmp_path / "empty.jnl"))
    assert status == 2 and "holds no match" in err and "hint:" in err
    (tmp_path / "notes.txt").write_text("hello world\n")
    status, out, err = bgc(capsys, "replay", str(tmp_path / "notes.txt"))
    assert status == 2 and "unreadable" in err


def test_replay_boards_draws_the_position_after_each_move(tmp_path, capsys):
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(journals.synthetic_records(2, length=1)))
    status, out, err = bgc(capsys, "replay", "--boards", str(path))
    assert status == 0
    moves = sum(len(g.moves) for g in journals.load(str(path)).games)
    assert out.count("+13-14-15-16-17-18------19-20-21-22-23-24-+") == moves


def test_the_log_keeps_what_the_exports_need():
    recs = journals.synthetic_records(3, length=5, blitz=True, p_resign=0.01)
    log = journals.replay_text(journals.encode_records(recs))
    assert log.problem is None and log.complete
    assert [g.number for g in log.games] == list(range(1, len(log.games) + 1))
    from bgrules.position import BAR, OFF, OPP

    for g in log.games:
        for a in g.moves:
            # The checker steps the exports write lead from the start to the final position.
            pos = a["start"].copy()
            c = pos.cells
            for src, dst, hit in a["steps"]:
                c[src] -= 1
                if dst == OFF:
                    c[OFF] += 1
                    continue
                if hit:
                    assert c[OPP + 25 - dst] == 1
                    c[OPP + 25 - dst] = 0
                    c[OPP + BAR] += 1
                c[dst] += 1
            assert pos == a["final"], (g.number, a["line"], a["notation"])
    # JSON export keeps every action with Position IDs.
    from bgc.logs import export

    data = json.loads(export.export_text(log, "json")[0])
    assert data["score"] == log.score() and len(data["games"]) == len(log.games)
