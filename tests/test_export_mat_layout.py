"""The .mat layout as GNU Backgammon writes it, the export command's files and messages."""

import re

from bgc import cli
from bgc.logs import export, journals
from bgc.logs.export_mat import mat_name


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def log_of(**spec):
    return journals.replay_text(journals.encode_records(journals.synthetic_records(**spec)), "m0001.jnl")


def test_mat_layout():
    log = log_of(seed=1, length=7, p_condone=0.02, p_resign=0.01)
    text, warnings = export.export_text(log, "mat")
    assert warnings == []
    lines = text.splitlines()
    assert " 7 point match" in lines
    assert lines[lines.index(" 7 point match") + 2] == " Game 1"
    assert " Anna : 0                       Bruno : 0" in lines
    assert any(re.match(r"^  1\) {29}\d\d: ", l) or re.match(r"^  1\) \d\d: ", l) for l in lines)
    # Two columns: player 1's entry starts at column 33 as in GNU Backgammon's export.
    rows = [l for l in lines if re.match(r"^ *\d+\) \d\d: .{20,} \d\d: ", l)]
    assert rows and all(l[33:36].endswith(":") for l in rows)
    assert any(" Doubles => 2" in l for l in lines)
    assert any(l.rstrip().endswith("Takes") for l in lines) and any("Drops" in l for l in lines)
    assert any(re.search(r"Wins \d+ points?$", l) for l in lines)
    assert "Wins 1 points" not in text
    # Bar and off as GNU Backgammon's plain format: 25 and 0.
    text, _ = export.export_text(log_of(seed=3, length=5, blitz=True), "mat")
    assert re.search(r"\b25/\d+", text) and re.search(r"\d+/0\b", text)


def test_crawford_game_scores_and_money_header():
    log = log_of(seed=3, length=5, blitz=True)
    crawford = [g for g in log.games if g.crawford]
    assert crawford and 4 in crawford[0].score
    text, _ = export.export_text(log_of(seed=10, length=0, games=2, jacoby=True), "mat")
    assert " 0 point match" in text and '; [Jacoby "On"]' in text


def test_names_fit_the_player_line():
    assert mat_name("Anna Maria") == "Anna_Maria"
    assert mat_name("Dr: No") == "Dr-_No"
    assert len(mat_name("x" * 40)) == 31


def test_beavers_in_mat_warn_and_point_to_sgf():
    for seed in range(1, 40):
        log = log_of(seed=seed, length=0, games=2, beavers=1, p_double=0.2)
        if any(a["a"] == "beaver" for g in log.games for a in g.actions):
            break
    text, warnings = export.export_text(log, "mat")
    assert " Beavers => 4" in text
    assert any("use --format sgf" in w for w in warnings)
    assert export.export_text(log, "sgf")[1] == []


def test_export_writes_one_file_per_match(tmp_path, capsys):
    for i in (1, 2):
        (tmp_path / ("m%04d.jnl" % i)).write_text(journals.encode_records(journals.synthetic_records(i, length=3)))
    status, out, err = bgc(capsys, "export", str(tmp_path / "m0001.jnl"), str(tmp_path / "m0002.jnl"),
                           "--format", "sgf", "-o", str(tmp_path / "out"))
    assert status == 0, err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["m0001.sgf", "m0002.sgf"]
    assert (tmp_path / "out" / "m0001.sgf").read_text().startswith("(;FF[4]GM[6]")
    status, out, err = bgc(capsys, "export", str(tmp_path / "m0001.jnl"), "-o", str(tmp_path / "one.mat"))
    assert status == 0 and (tmp_path / "one.mat").read_text().count(" Game ") >= 1
    status, out, err = bgc(capsys, "export", str(tmp_path / "m0001.jnl"), "-f", "text", "-o", "-")
    assert status == 0 and out.startswith("m0001.jnl: 3-point match")


def test_export_of_a_corrupted_journal_exports_what_is_readable(tmp_path, capsys):
    lines = journals.encode_records(journals.synthetic_records(4, length=5)).splitlines(True)
    # A garbled line in the middle (a flipped character): the checksum catches it.
    lines[60] = lines[60].replace('"p": 0', '"p": 1', 1) if '"p": 0' in lines[60] else lines[60].replace('"p": 1', '"p": 0', 1)
    (tmp_path / "m0003.jnl").write_text("".join(lines))
    status, out, err = bgc(capsys, "export", str(tmp_path / "m0003.jnl"))
    assert status == 1
    assert "stops at line 61: unreadable (checksum mismatch (garbled line))" in err
    assert "exported the 60 records before it" in err and "hint:" in err
    mat = (tmp_path / "m0003.mat").read_text()
    assert " Game 1" in mat


def test_export_errors(tmp_path, capsys):
    status, out, err = bgc(capsys, "export", str(tmp_path))
    assert status == 2 and "no journal files" in err
    (tmp_path / "x.jnl").write_text("not a journal\n")
    status, out, err = bgc(capsys, "export", str(tmp_path / "x.jnl"))
    assert status == 2 and "nothing to export" in err and "hint:" in err  # a bad input: exit 2 (issue 11)
    status, out, err = bgc(capsys, "export", str(tmp_path / "x.jnl"), str(tmp_path / "x.jnl"), "-o", "-")
    assert status == 2 and "writes one journal" in err
