"""The exported .mat and .sgf files, read by GNU Backgammon itself (gnubg, Python mode).

GNU Backgammon's .mat import accepts some illegal moves without a word and drops others with a
warning, so importing without an error proves little: for every exported match we take what GNU
Backgammon rebuilt (gnubg.match(): each move's player, dice and the position before it, every cube
action, each game's starting score, winner and points, and the position at the end of each game)
and compare it with replaying our journal through the rules engine. One gnubg run reads all files.
"""

import os
import shutil
from collections import Counter

import pytest

from bgc import cli
from bgc.logs import export, journals

GNUBG = export.find_gnubg()
pytestmark = pytest.mark.skipif(
    GNUBG is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
    reason="GNU Backgammon is not installed and BGC_SKIP_GNUBG=1 (scripts/install_test_tools.sh installs it)",
)

# Matches to several lengths (Crawford games, drops, takes, resignations accepted and rejected,
# condoned illegal plays, closed-out turns passed without a roll, opening ties) and money
# sessions (Jacoby rule; beavers and automatic doubles for the SGF).
MATCHES = [
    dict(seed=1, length=7, p_condone=0.02, p_resign=0.01),
    dict(seed=3, length=5, p_condone=0.02, p_resign=0.01, blitz=True),
    dict(seed=5, length=5, p_condone=0.02, p_resign=0.01, blitz=True),
    dict(seed=7, length=3, p_resign=0.03),
    dict(seed=8, length=1),
    dict(seed=9, length=9, p_double=0.1, p_condone=0.01),
    dict(seed=10, length=0, games=5, jacoby=True, p_double=0.1, p_resign=0.03),
    dict(seed=11, length=0, games=4, p_double=0.08, blitz=True),
]
SGF_ONLY = [
    dict(seed=2, length=0, games=4, beavers=3, auto_doubles=2, jacoby=True, p_double=0.1),
    dict(seed=4, length=0, games=4, beavers=1, auto_doubles=1, p_double=0.15),
]
# The other games GNU Backgammon plays, in the .mat's variation header; what GNU Backgammon calls
# the variation it read (gnubg.match()'s match-info).
MAT_VARIANTS = [
    (dict(seed=12, length=5, p_double=0.1, p_condone=0.02, p_resign=0.01, rules="nackgammon"), "Nackgammon"),
    (dict(seed=13, length=5, p_double=0.1, p_condone=0.02, p_resign=0.01, rules="hypergammon"), "Hypergammon3"),
]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gnubg")
    logs, files = [], []
    for i, spec in enumerate(MATCHES + SGF_ONLY + [v[0] for v in MAT_VARIANTS]):
        jnl = tmp / ("m%04d.jnl" % (i + 1))
        jnl.write_text(journals.encode_records(journals.synthetic_records(**spec)))
        log = journals.load(str(jnl))
        assert log.problem is None
        fmts = ("mat", "sgf") if spec in MATCHES else ("sgf",) if spec in SGF_ONLY else ("mat",)
        for fmt in fmts:
            text, warnings = export.export_text(log, fmt)
            assert warnings == [], warnings
            path = tmp / ("m%04d.%s" % (i + 1, fmt))
            path.write_text(text)
            logs.append(log)
            files.append(str(path))
    data = export.gnubg_read(files)
    return list(zip(logs, files, data))


def test_the_corpus_covers_what_the_journal_can_hold(corpus):
    seen = Counter()
    for log, _, _ in {id(c[0]): c for c in corpus}.values():
        for g in log.games:
            seen["crawford game"] += g.crawford
            seen["auto double"] += g.start_cube > 1
            seen["condoned"] += sum(1 for a in g.moves if a["condoned"])
            seen["dance"] += sum(1 for a in g.moves if not a["steps"])
            seen["gammon or backgammon"] += bool(g.result and g.result[2] >= 2)
            for a in g.actions:
                seen[a["a"]] += 1
    for what in ("crawford game", "auto double", "condoned", "dance", "gammon or backgammon", "double",
                 "take", "drop", "beaver", "pass", "resign", "accept", "reject", "tie"):
        assert seen[what] > 0, what


def test_gnubg_rebuilds_every_position_and_score(corpus):
    totals = Counter()
    for log, path, d in corpus:
        assert export.gnubg_warnings(d["output"]) == [], path
        checked, diffs = export.compare(log, d["match"], d["walks"])
        assert diffs == [], (path, diffs[:5])
        assert checked["moves"] == sum(len(g.moves) for g in log.games)
        totals.update(checked)
        totals["files"] += 1
        # The match as GNU Backgammon ends it: names, length, final score.
        info = d["match"]["match-info"]
        assert info["match-length"] == log.length
        assert [info["X"]["name"], info["O"]["name"]] == list(log.names)
        last = d["match"]["games"][-1]["info"]
        final = [last["score-X"], last["score-O"]]
        final[{"X": 0, "O": 1}[last["winner"]]] += last["points-won"]
        if log.length:
            final = [min(s, log.length) for s in final]
        assert final == log.score(), path
    assert totals["files"] == 2 * len(MATCHES) + len(SGF_ONLY) + len(MAT_VARIANTS)
    assert totals["moves"] > 1000 and totals["positions"] == totals["moves"]
    print("gnubg verified: %(files)d files, %(games)d games, %(moves)d moves, %(positions)d positions, "
          "%(cube)d cube actions" % totals)


def test_gnubg_reads_a_nackgammon_or_hypergammon_mat_as_that_game_with_every_action(corpus):
    """A .mat of Nackgammon or Hypergammon says its variation as GNU Backgammon reads it: the
    program imports the game named (from that game's start) and every move and cube action, not
    a standard match that stops at the first move impossible there."""
    variants = {spec["rules"]: name for spec, name in MAT_VARIANTS}
    seen = []
    for log, path, d in corpus:
        rules = log.settings.get("rules", "standard")
        if rules not in variants:
            continue
        seen.append(rules)
        m = d["match"]
        assert m["match-info"]["variation"] == variants[rules], path
        read = Counter(r["action"] for g in m["games"] for r in g["game"])
        ours = Counter(a["a"] for g in log.games for a in g.actions)
        assert len(m["games"]) == len(log.games), path
        assert read["move"] == sum(len(g.moves) for g in log.games) > 20, (path, read)
        for cube in ("double", "take", "drop"):
            assert read[cube] == ours[cube], (path, cube, read, ours)
        assert ours["double"] > 0, path  # the cube is in play in this match
    assert sorted(seen) == sorted(variants)


def test_the_comparison_catches_a_wrong_move(corpus, tmp_path):
    log, path, _ = next(c for c in corpus if c[1].endswith(".mat"))
    text = open(path).read()
    first = next(a for a in log.games[0].moves if len(a["steps"]) == 2 and not a["condoned"])
    a, b, hit = first["steps"][1]
    good = "%d/%d%s" % (a, b, "*" if hit else "")
    # The same dice, another checker: still a move GNU Backgammon accepts.
    bad_text = text.replace(good, "%d/%d" % (first["steps"][0][0], first["steps"][0][0] - (a - b)), 1)
    assert bad_text != text
    bad = tmp_path / "bad.mat"
    bad.write_text(bad_text)
    d = export.gnubg_read([str(bad)])[0]
    checked, diffs = export.compare(log, d["match"], d["walks"])
    assert diffs or export.gnubg_warnings(d["output"])


def test_bgc_export_check_reports_agreement(tmp_path, capsys):
    jnl = tmp_path / "m0001.jnl"
    jnl.write_text(journals.encode_records(journals.synthetic_records(seed=21, length=3, p_condone=0.03)))
    for fmt in ("mat", "sgf"):
        status = cli.main(["export", str(jnl), "--format", fmt, "--check"])
        out, err = capsys.readouterr()
        assert status == 0, err
        assert "GNU Backgammon agrees on %s" % (tmp_path / ("m0001." + fmt)) in out


def test_gnubg_missing_is_a_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(export, "find_gnubg", lambda: None)
    jnl = tmp_path / "m0001.jnl"
    jnl.write_text(journals.encode_records(journals.synthetic_records(seed=21, length=1)))
    status = cli.main(["export", str(jnl), "--check"])
    out, err = capsys.readouterr()
    assert status == 2 and "gnubg) is not installed" in err and "hint:" in err
