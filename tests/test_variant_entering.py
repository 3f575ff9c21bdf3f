"""The games whose checkers start off the board and are entered (seed 002: Puff, Long Puff,
Russian Puff, Long Russian Puff, French Backgammon 1, Russian Backgammon, Acey Deucey): one test
per rule that differs from the standard game, on the engine, the match, the journal and the board
(the companion fed with sensor frames). The dice rules (smaller die first, the underside of a
double, Acey Deucey's 1-2) are helper ``dice``'s and tested there."""

import pytest

from bgrules import Position, Turn
from bgrules.match import Match
from bgrules.position import waiting, OPP
from bgrules.rules import ruleset
from companion_helpers import Harness, ROLL_W, ROLL_B
from variant_parts_helpers import pos

ENTERING = ("puff", "longpuff", "russianpuff", "longrussianpuff", "french1", "russian", "aceydeucey")


def results(rules, position, d1, d2):
    return sorted(str(p) for p in Turn(position, d1, d2, rules).plays())


@pytest.mark.parametrize("key", ENTERING)
def test_every_checker_starts_off_the_board_waiting_to_be_entered(key):
    # Puff: "es gibt hier keine Startaufstellung, sondern die Steine werden zunaechst [...]
    # eingewuerfelt"; French 1, Russian, Acey Deucey: "Die Steine werden eingewuerfelt".
    start = ruleset(key).start_position()
    assert sum(start.cells[1:26]) == 0 and sum(start.cells[27:52]) == 0
    assert waiting(start.cells) == 15 and waiting(start.cells, OPP) == 15
    assert start.cells[0] == 0  # none borne off: the ID alone cannot tell
    assert start.pips() == (375, 375)  # a waiting checker counts 25, as one on the bar


def test_puff_a_roll_enters_two_checkers_into_the_start_quarter_as_from_the_bar():
    # "der Wurf 2-4 bringt waehrend der Einsetzphase einen Stein auf Feld 2 bzw. 23 und einen
    # anderen auf 4 bzw. 21": die d on the mover's point 25 - d.
    rules = ruleset("puff")
    turn = Turn(rules.start_position(), 4, 2, rules)
    plays = turn.plays()
    assert [str(p) for p in plays] == ["bar/23 bar/21"]
    after = plays[0].position
    assert after.cells[23] == 1 and after.cells[21] == 1 and waiting(after.cells) == 13


def test_puff_every_checker_is_entered_before_a_checker_on_the_board_moves():
    # "Sobald alle eigenen Steine im Startviertel stehen, duerfen die beiden Wuerfel auch fuer
    # einen Stein genutzt werden": until then each die enters a checker.
    rules = ruleset("puff")
    start = pos({21: 1, 23: 1}, {}, wait=(13, 15))
    assert results(rules, start, 6, 5) == ["bar/20 bar/19"]
    final = pos({23: 1, 20: 1, 15: 1}, {}, wait=(12, 15))  # 21/15 and bar/20
    assert Turn(start, 6, 5, rules).check(final) == "Enter checkers first"
    # The last one in: the other die may move any checker, the new one too.
    last = pos({19: 14}, {}, wait=(1, 15))
    assert "bar/20 19/13" in results(rules, last, 6, 5) and "bar/14" in results(rules, last, 6, 5)


@pytest.mark.parametrize("key", ("russianpuff", "longrussianpuff"))
def test_russian_puff_after_the_first_two_checkers_each_die_may_enter_or_move(key):
    # "sobald er die ersten beiden Steine eingesetzt hat, bei jedem Wurf entscheiden, ob er
    # weiter einsetzen moechte [...] Auch Kombinationen (1 Stein einsetzen, 1 auf dem Brett
    # bewegen) sind moeglich."
    rules = ruleset(key)
    assert results(rules, rules.start_position(), 4, 2) == ["bar/23 bar/21"]
    two = pos({21: 1, 23: 1}, {}, wait=(13, 15))
    out = results(rules, two, 6, 5)
    assert "bar/20 bar/19" in out  # both entered
    assert "bar/19 21/16" in out  # one entered, one moved
    assert "23/12" in out  # both on the board
    # One checker in (a hit sent the other back): the second must still come in first.
    one = pos({21: 1}, {}, wait=(14, 15))
    assert all(s.startswith("bar/") for s in results(rules, one, 6, 5)[0].split())


def test_acey_deucey_checkers_are_entered_at_will_one_two_or_none():
    # "wobei der Spieler jederzeit entscheiden kann, ob er ein oder zwei neue Steine einsetzt oder
    # auf dem Brett befindliche weiter zieht. Auch die Kombination beider Moeglichkeiten ist
    # erlaubt."
    rules = ruleset("aceydeucey")
    on = pos({21: 1, 23: 1}, {}, wait=(13, 15))
    out = results(rules, on, 6, 5)
    assert "bar/20 bar/19" in out and "bar/19 23/18" in out and "23/12" in out and "23/18 21/15" in out
    # The first roll can only enter (nothing on the board yet).
    # The first roll enters (nothing is on the board yet), and the checker just in may go on.
    assert results(rules, rules.start_position(), 4, 2) == ["bar/19", "bar/23 bar/21"]


def test_acey_deucey_a_hit_checker_still_enters_before_anything_else():
    # The standard bar rule holds for a checker that was hit ("Grundsaetzlich gelten die
    # Standardzugregeln"); entering at will is for the checkers not yet brought in.
    rules = ruleset("aceydeucey")
    hit = pos({13: 2}, {}, wait=(12, 15), mover_bar=1)
    out = results(rules, hit, 6, 5)
    assert out and all("bar/" in s for s in out)  # the hit checker enters first, then any
    # a waiting checker entered with the 6 (bar/19 from beside the board), 13/8, the hit one
    # left on the bar
    final = pos({13: 1, 8: 1, 19: 1}, {}, wait=(11, 15), mover_bar=1)
    assert Turn(hit, 6, 5, rules).check(final) == "Enter from the bar first"


def test_a_waiting_checker_enters_with_a_hit_on_the_entry_point():
    rules = ruleset("aceydeucey")
    start = pos({}, {3: 1}, wait=(15, 14))  # the opponent's blot on its 3 = our 22
    plays = Turn(start, 3, 1, rules).plays()
    assert "bar/24 bar/22*" in [str(p) for p in plays]
    p = [p for p in plays if str(p) == "bar/24 bar/22*"][0].position
    assert p.cells[OPP + 25] == 1 and waiting(p.cells, OPP) == 14  # the hit one is on the bar


def test_no_checker_is_borne_off_while_checkers_wait():
    # "Das Hinauswuerfeln erfolgt wie beim klassischen Backgammon": every checker home first.
    rules = ruleset("aceydeucey")
    home = pos({1: 7, 2: 7}, {}, wait=(1, 15))
    assert not any("off" in s for s in results(rules, home, 2, 1))


def test_closed_out_with_checkers_waiting_the_turn_passes():
    rules = ruleset("puff")
    m = Match(1, rules=rules)
    m.opening_roll(3, 1)
    # the opponent (black, not on roll) holds our whole entry quarter
    m.position = pos({}, {p: 2 for p in range(1, 7)}, wait=(15, 3))
    m.turn = None
    m.phase = "roll"
    assert m.closed_out()
    acey = ruleset("aceydeucey")
    m2 = Match(1, rules=acey)
    m2.position = pos({10: 1}, {p: 2 for p in range(1, 7)}, wait=(14, 3))
    assert not m2.closed_out()  # a checker on the board may still move


def test_acey_deucey_the_winner_scores_a_point_for_each_checker_not_borne_off():
    # "Der Dopplerwuerfel wird nicht verwendet, jeder noch auf dem Brett befindliche Stein
    # zaehlt einen Minuspunkt." (assumed: waiting checkers count too; the loser's minus points
    # are the winner's points in a match.)
    rules = ruleset("aceydeucey")
    m = Match(25, rules=rules)
    m.opening_roll(3, 1)
    last = pos({1: 1}, {20: 3, 5: 2}, wait=(0, 10))  # white: 14 off; black: 10 still out
    m.position = last
    m._rolled(2, 1)
    m.play(Turn(last, 2, 1, rules).plays()[0])
    assert m.result[0] == 0 and m.result[1] == 15  # 3 + 2 on the board, 10 waiting
    m2 = Match(25, rules=rules)
    m2.opening_roll(3, 1)
    m2.position = pos({1: 1}, {20: 3, 5: 2})  # black: 10 borne off
    m2._rolled(2, 1)
    m2.play(Turn(m2.position, 2, 1, rules).plays()[0])
    assert m2.result[1] == 5
    assert m.double_refusal(0) in ("The game is over", "No cube in Acey Deucey")


def test_a_loser_with_checkers_still_waiting_loses_a_backgammon():
    rules = ruleset("puff")
    final = pos({}, {20: 3}, wait=(0, 12))
    final.cells[0] = 15
    assert rules.result(final, final) == 3


def test_waiting_checkers_travel_beside_the_position_id_in_the_journal_and_the_saved_match(tmp_path):
    rules = ruleset("russianpuff")
    m = Match(3, rules=rules)
    m.opening_roll(4, 2)
    m.play(Turn(m.position, 4, 2, rules).plays()[0])
    back = Match.loads(m.dumps())
    assert back.position == m.position and waiting(back.position.cells, OPP) == 13
    from companion import journal as J
    from companion import recovery

    records = [J.settings_record(3, names=("White", "Black"), rules="russianpuff"),
               {"a": "open", "dice": [4, 2]},
               {"a": "play", "p": 0, "move": "bar/23 bar/21", "pos": m.position.swapped().id(), "w": [13, 15]}]
    replayed = recovery.replay(records)
    assert replayed.position == m.position
    bad = records[:2] + [dict(records[2], w=[14, 15])]  # 16 checkers
    with pytest.raises(J.JournalError):
        recovery.replay(bad)


# --- on the board: the companion fed with sensor frames ----------------------------------------


def _board(tmp_path, key, openings=((4, 2),), rolls=()):
    h = Harness(tmp_path, openings=list(openings), rolls=list(rolls))
    h.white = [0] * 26
    h.black = [0] * 26
    h.line("new length=3 variant=%s" % key)
    h.show()
    assert h.c.phase == "opening", h.screen()  # the empty board is the start: all wait beside it
    return h


def test_on_the_board_the_entry_points_are_lit_and_a_checker_from_beside_the_board_enters(tmp_path):
    h = _board(tmp_path, "puff")
    h.press(ROLL_W)  # white 4, black 2: white plays 4-2 from beside the board
    assert h.c.phase == "moving"
    # where a waiting checker may go (the lift from beside the board is not seen): Puff plays the
    # smaller die first, so the 2 (point 23) before the 4 (point 21)
    assert h.leds("legal") == [23]
    h.put("w", 23)
    assert not h.events("illegal")
    assert h.leds("legal") == [21]
    h.put("w", 21)
    assert h.c.tracker.complete
    h.press(ROLL_W)  # DONE
    plays = h.events("play")
    assert plays and plays[-1]["move"] == "bar/23 bar/21"
    import os
    from companion import journal as J

    name = sorted(f for f in os.listdir(h.dir) if f.endswith(".jnl"))[-1]
    records, _problem = J.parse(open(os.path.join(h.dir, name)).read())
    rec = [r for r in records if r.get("a") == "play"][-1]
    assert rec["w"] == [13, 15]


def test_on_the_board_the_larger_die_entered_first_is_not_flagged(tmp_path):
    # Puff plays the smaller die first, but two checkers entered end the same whichever the hand
    # put down first: the 4's checker (21) before the 2's (23) is no illegal placement.
    h = _board(tmp_path, "puff")
    h.press(ROLL_W)  # white 4-2
    h.put("w", 21)
    assert not h.events("illegal"), h.events()
    assert h.leds("legal") == [23]
    h.put("w", 23)
    assert h.c.tracker.complete and not h.events("illegal")
    h.press(ROLL_W)  # DONE
    assert h.events("play")[-1]["move"] == "bar/23 bar/21"


def test_on_the_board_a_board_checker_moved_before_all_are_in_is_flagged(tmp_path):
    h = _board(tmp_path, "puff", rolls=[(3, 1), (6, 5)])
    h.press(ROLL_W)
    h.put("w", 21)
    h.put("w", 23)
    h.press(ROLL_W)  # DONE
    h.press(ROLL_B)  # black rolls 3-1
    h.put("b", 3)  # black's 22 is board point 3, its 24 board point 1
    h.put("b", 1)
    h.press(ROLL_B)
    h.press(ROLL_W)  # white rolls 6-5: the 5 first (Puff's smaller die)
    h.clear()
    h.move("w", 21, 16)
    ill = h.events("illegal")
    assert ill and ill[-1]["reason"] == "Enter checkers first", h.events()
    h.move("w", 16, 21)
    h.put("w", 20)
    h.put("w", 19)
    assert h.c.tracker.complete


@pytest.mark.parametrize("key", ENTERING + ("straight",))
def test_export_writes_json_and_text_and_refuses_mat_and_sgf(tmp_path, capsys, key):
    # GNU Backgammon plays none of these games: .mat/.sgf would import as the standard game
    from bgc import cli
    from bgc.logs import journals
    from companion import recovery

    recs = journals.synthetic_records(5, length=1, rules=key)
    m = recovery.replay(recs)
    assert m.rules.key == key and m.phase == "matchover"
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        assert cli.main(["export", str(path), "-f", fmt]) == 2
        err = capsys.readouterr().err
        assert "this match is %s, which GNU Backgammon does not play" % key in err
    for fmt in ("json", "text"):
        assert cli.main(["export", str(path), "-f", fmt]) == 0
        capsys.readouterr()
    text = (tmp_path / "m0001.txt").read_text()
    assert "wins" in text
    if key != "straight":
        assert "bar/" in text  # the entries, written as from the bar


def test_bgc_moves_and_check_take_the_waiting_counts_beside_the_position_id(capsys):
    # A Position ID counts checkers off the board as borne off: --waiting says they wait.
    from bgc import cli

    empty = "AAAAAAAAAAAAAA"
    assert cli.main(["moves", "--variant", "puff", empty, "4", "2", "--waiting", "15,15"]) == 0
    out = capsys.readouterr().out
    assert "bar/23 bar/21" in out and "1 legal play" in out
    assert cli.main(["moves", "--variant", "puff", empty, "4", "2"]) == 0
    assert "No legal move" in capsys.readouterr().out  # as an ID alone says: all borne off
    after = ruleset("aceydeucey").start_position()
    after = Turn(after, 4, 2, ruleset("aceydeucey")).plays()
    one = [p for p in after if str(p) == "bar/19"][0].position.id()
    assert cli.main(["check", "--variant", "aceydeucey", empty, "4", "2", one, "--waiting", "15,15"]) == 0
    assert capsys.readouterr().out.strip() == "legal"
    assert cli.main(["check", "--variant", "puff", empty, "4", "2", one, "--waiting", "15,15"]) == 1
    assert capsys.readouterr().out.startswith("illegal:")  # Puff: each die enters a checker
    assert cli.main(["moves", "--variant", "puff", empty, "4", "2", "--waiting", "15"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bgc: --waiting takes two counts") and "hint:" in err


def test_on_the_board_a_checker_entered_on_a_wrong_point_is_told_the_rule_not_extra(tmp_path):
    # A checker from beside the board is one of the player's waiting ones, not a checker too many
    # (companion/tracker.py, _extra): put on a point no die of 4-2 enters on, the board names
    # the rule
    h = _board(tmp_path, "puff")
    h.press(ROLL_W)  # white 4-2
    h.put("w", 20)  # the 5 point of entry: no die of 4-2 enters there
    ill = h.events("illegal")
    assert ill and not ill[-1]["reason"].startswith("Extra"), ill
    assert ill[-1]["board_point"] == 20
