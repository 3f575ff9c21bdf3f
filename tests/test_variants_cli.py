"""The host side of the variants: bgc variants, --variant for moves/check/demo/sim, the journal
naming the variant, and exports (.mat/.sgf only for what GNU Backgammon plays)."""

import json

import pytest

from bgc import cli
from bgc.logs import journals
from bgrules import Position
from bgrules.rules import VARIANTS
from companion import journal

START = "4HPwATDgc/ABMA"


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_variants_lists_every_playable_ruleset_and_flags_assumptions(capsys):
    status, out, err = bgc(capsys, "variants", "--json")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert sorted(r["key"] for r in rows) == sorted(VARIANTS)
    assumed = {r["key"] for r in rows if r["assumed"]}
    assert assumed == {"eureka", "reverse", "nohitting", "openroll", "gioul", "mexican", "freechoice"} | {
        "catchme", "ludus", "doublets"} | {"puff", "longpuff", "russianpuff", "longrussianpuff", "french1", "russian",
                                           "aceydeucey", "straight", "backwards"} | {"snake", "pin", "french2"}
    status, out, err = bgc(capsys, "variants", "--all", "--json")
    everything = [json.loads(line) for line in out.splitlines()]
    # the seed's 24 games (French Backgammon counted twice) plus standard, Nackgammon, Hypergammon
    assert len(everything) == 27
    # every game of the seed is playable now
    assert [r["key"] for r in everything if not r["playable"]] == []


def test_moves_with_a_variant_applies_its_rules(capsys):
    # Old Britain: at most five checkers on a point, so 8/6 6/5 and 8/6 24/23 are gone.
    status, std, _ = bgc(capsys, "moves", START, "2", "1")
    status2, ob, _ = bgc(capsys, "moves", "--variant", "oldbritain", START, "2", "1")
    assert status == status2 == 0
    assert "13/11 6/5" in std and "13/11 6/5" in ob
    assert "24/23 8/6" in std and "24/23 8/6" not in ob


def test_check_with_a_variant_names_the_variants_rule(capsys):
    after = Position.from_id(START)
    after.cells[8] -= 1
    after.cells[6] += 1
    after.cells[24] -= 1
    after.cells[23] += 1
    status, out, _ = bgc(capsys, "check", "--variant", "oldbritain", START, "2", "1", after.id())
    assert status == 1 and out.strip() == "illegal: At most 5 checkers on 6"
    status, out, _ = bgc(capsys, "check", START, "2", "1", after.id())
    assert status == 0 and out.strip() == "legal"


def test_demo_plays_a_whole_game_of_each_variant(capsys):
    for key in VARIANTS:
        status, out, err = bgc(capsys, "demo", "--variant", key, "--seed", "7", "--quiet")
        assert status == 0, (key, err)
        assert " wins " in out


def test_an_unknown_variant_is_a_one_line_error(capsys):
    for cmd in (["moves", START, "6", "5"], ["demo"], ["check", START, "6", "5", START]):
        status, out, err = bgc(capsys, *(cmd + ["--variant", "tavla"]))
        assert status == 2
        # The project's error form: one bgc: line, one hint line (docs/user-guide-host.md).
        first, hint = err.rstrip("\n").split("\n")
        assert first.startswith("bgc: unknown variant") and "tavla" in first and "eureka" in first
        assert hint.startswith("hint:") and "bgc variants" in hint


@pytest.mark.parametrize("key", ["oldbritain", "reverse"])
def test_export_refuses_mat_and_sgf_for_a_variant_gnubg_does_not_play(tmp_path, capsys, key):
    recs = journals.synthetic_records(3, length=1, rules=key)
    assert journal.replay(recs).rules.key == key
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 2
        assert "this match is %s, which GNU Backgammon does not play" % key in err
        assert not (tmp_path / ("m0001." + fmt)).exists()
    for fmt in ("json", "text"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 0, err


def test_export_writes_mat_for_hypergammon(tmp_path, capsys):
    recs = journals.synthetic_records(4, length=1, rules="hypergammon")
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    status, out, err = bgc(capsys, "export", str(path), "-f", "mat")
    assert status == 0
    assert (tmp_path / "m0001.mat").exists()


def test_sim_demo_plays_a_variant_match_on_the_virtual_board(capsys):
    status, out, err = bgc(capsys, "sim", "--demo", "--fast", "--quiet", "--variant", "hypergammon", "--seed", "2")
    assert status == 0, err
    assert "Match over" in out and "0 false illegal flags" in out
    path = out.split("Journal: ")[1].split()[0]
    records, problem = journal.parse(open(path).read())
    assert problem is None and records[0]["rules"] == "hypergammon"
