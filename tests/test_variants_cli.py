"""The host side of the variants: bgc variants, --variant for moves/check/demo/sim, the journal
naming the variant, and exports (.mat/.sgf only for what GNU Backgammon plays)."""

import json

import pytest

from bgc import cli
from bgc.logs import journals
from bgrules import Position
from bgrules.rules import VARIANTS
from companion import journal
from companion import recovery

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
    assert assumed == {"eureka", "reverse", "nohitting", "openroll", "fixedroll", "gioul", "mexican", "freechoice"} | {
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
    assert recovery.replay(recs).rules.key == key
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


# --- the CLI around the variants (issue 21, item 4) -------------------------------------------------

def test_variants_gives_each_games_start_as_a_position_id_with_its_waiting_checkers_and_in_words(capsys):
    status, out, err = bgc(capsys, "variants", "--json")
    rows = {r["key"]: r for r in map(json.loads, out.splitlines())}
    # the standard start as GNU Backgammon writes it; Puff has no set-up: "keine Startaufstellung,
    # sondern die Steine werden zunächst ... eingewürfelt" (all fifteen wait, the ID counts them off)
    assert (rows["standard"]["start"], rows["standard"]["waiting"]) == (START, [0, 0])
    assert rows["standard"]["start_words"].startswith("White and Black each 2 on 24, 5 on 13, 3 on 8, 5 on 6")
    assert (rows["puff"]["start"], rows["puff"]["waiting"]) == ("AAAAAAAAAAAAAA", [15, 15])
    assert "15 waiting to enter" in rows["puff"]["start_words"]
    # Straight: "ausgehend von der Originalstartaufstellung", black moving white's way round
    assert rows["straight"]["start_words"] == ("White 2 on 24, 5 on 13, 3 on 8, 5 on 6; Black 5 on 19, 3 on 17, "
                                               "5 on 12, 2 on 1 (own numbering)")
    # every start is taken back by --variant (with its waiting checkers)
    for key, r in rows.items():
        args = ["moves", "--variant", key, r["start"], "5", "3"]
        if any(r["waiting"]):
            args += ["--waiting", "%d,%d" % tuple(r["waiting"])]
        status, out, err = bgc(capsys, *args)
        assert status == 0, (key, err)
    status, out, err = bgc(capsys, "variants")
    assert "start: AAAAAAAAAAAAAA with --waiting 15,15" in out


def test_variants_names_nackgammons_checkers_on_the_8_point(capsys):
    # Nick Ball's Nackgammon: 2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6 (tests/test_variants_reference.py)
    status, out, err = bgc(capsys, "variants")
    line = [ln for ln in out.splitlines() if ln.startswith("nackgammon")][0]
    assert "3 on 8" in line and "4 on 6" in line


def test_a_position_with_more_checkers_than_the_variant_has_is_refused(capsys):
    # Hypergammon plays three checkers a side: the standard start is no Hypergammon position
    status, out, err = bgc(capsys, "moves", "--variant", "hypergammon", START, "6", "4")
    assert status == 2 and out == ""
    assert err.startswith("bgc: bad Position ID") and "15 checkers in play, Hypergammon plays with 3" in err
    assert "hint: Hypergammon's start is AACgAgAAKgAAAA" in err
    status, out, err = bgc(capsys, "check", "--variant", "french2", START, "6", "4", START)
    assert status == 2 and "French Backgammon 2 plays with 3" in err
    status, out, err = bgc(capsys, "moves", "--variant", "hypergammon", "AACgAgAAKgAAAA", "6", "4")
    assert status == 0 and "legal play" in out


def test_batch_lines_may_carry_their_own_waiting_checkers(capsys, monkeypatch):
    import io

    # Puff: all fifteen wait at the start; 6-4 enters two ("beide Würfel auf 2 Steine verteilt")
    lines = "AAAAAAAAAAAAAA 6 4 15,15\nAAAAAAAAAAAAAA 6 4\nAAAAAAAAAAAAAA 6 4 x\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status, out, err = bgc(capsys, "moves", "--batch", "--variant", "puff")
    first, second, third = out.splitlines()
    assert len(first.split()) == 1 and first != "AAAAAAAAAAAAAA"  # one board: a checker on 19 and on 21
    assert second == ""  # no checker waiting, none on the board: nothing to play
    assert third.startswith("error: waiting checkers are two counts")
    monkeypatch.setattr("sys.stdin", io.StringIO("AAAAAAAAAAAAAA 6 4\n"))
    status, out2, err = bgc(capsys, "moves", "--batch", "--variant", "puff", "--waiting", "15,15")
    assert out2.splitlines() == [first]


def test_the_hint_after_a_refused_id_suggests_one_the_variant_takes(capsys):
    # Straight's black starts on white's points: the standard start has both colours on point 6
    status, out, err = bgc(capsys, "moves", "--variant", "straight", START, "6", "4")
    assert status == 2 and "Both colours on point 6" in err
    hint = err.splitlines()[1]
    assert START not in hint and "A+CD8wHgc/ABMA" in hint
    status, out, err = bgc(capsys, "moves", "--variant", "straight", "A+CD8wHgc/ABMA", "6", "4")
    assert status == 0


def test_check_says_that_a_hit_in_no_hitting_loses_the_game(capsys):
    # "Wer seinen Gegner schlägt, verliert." A black blot on white's 20 point: 24/20* is legal
    # and loses the game at once
    from bgc.rules.notation_read import apply_moves
    from variant_parts_helpers import pos

    start = pos({24: 2, 13: 5, 8: 3, 6: 5}, {5: 1, 13: 5, 8: 3, 6: 5, 24: 1})
    hit = apply_moves(start, "24/20* 13/11")
    status, out, err = bgc(capsys, "check", "--variant", "nohitting", start.id(), "4", "2", hit.id())
    assert status == 0 and out.strip() == ("legal: a hit, so the player on roll loses a single game "
                                          "(No hitting: whoever hits loses)")
    quiet = apply_moves(start, "13/9 13/11")
    status, out, err = bgc(capsys, "check", "--variant", "nohitting", start.id(), "4", "2", quiet.id())
    assert out.strip() == "legal"


def test_mexicans_1_2_is_not_played_in_moves_nor_in_check(capsys):
    # "Die Kombination 1-2 wird nicht gezogen!" (FR "On n'utilise jamais la combinaison 1 + 2",
    # IT "La combinazione 1-2 non va giocata!")
    status, out, err = bgc(capsys, "moves", "--variant", "mexican", "7wUDgEwz2ykIAQ", "2", "1")
    assert status == 0 and out.startswith("No play: 1-2 is not played in Mexican") and "legal play" not in out
    status, out, err = bgc(capsys, "check", "--variant", "mexican", "7wUDgEwz2ykIAQ", "2", "1", "7wUDgEwz2xMIAQ")
    assert status == 1 and out.startswith("illegal: 1-2 is not played in Mexican")
    status, out, err = bgc(capsys, "moves", "--variant", "mexican", "7wUDgEwz2ykIAQ", "2", "2")
    assert "legal play" in out  # a chosen double is played as usual


def test_variants_shows_what_the_three_texts_say_and_marks_the_choices_left(capsys):
    # Ludus: FR "on n'utilise la valeur qu'une seule fois", IT "nella pariglia va giocato un solo
    # numero": one die's value, once; French 2: all three say a double's value is moved once;
    # Straight: no text says where a hit checker enters
    status, out, err = bgc(capsys, "variants", "--all", "--json")
    rows = {r["key"]: r for r in map(json.loads, out.splitlines())}
    assert "la valeur qu'une seule fois" in rows["ludus"]["texts"] and "one die" in rows["ludus"]["texts"]
    assert "one die" in rows["ludus"]["summary"]
    assert "una sola volta" in rows["french2"]["texts"] and "one die" in rows["french2"]["summary"]
    assert "enters" in rows["straight"]["assumed"]
    status, out, err = bgc(capsys, "variants", "--all")
    assert "texts: DE 'nur der Pasch wird nur einmal gezogen'" in out
