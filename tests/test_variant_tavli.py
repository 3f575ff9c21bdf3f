"""Tavli (docs/variants.md: Wikipedia "Tavli", neromyloscafe.com, backgammonline.net, bkgm.com's
Condos): "a compendium game [...] three different variants played in succession: Portes, Plakoto
and Fevga. These are played in a cycle until one player reaches the target score"; "After the
first game, the winner of the previous game goes first". The match in the rules engine, saved and
replayed; at the board (the score and the game in play); its exports; a whole match of `bgc sim`."""

import json

import pytest

from bgrules import Position
from bgrules.match import GAME_OVER, MATCH_OVER, OPENING, ROLL, Match, MatchError
from bgrules.match_series import game_rules
from bgrules.rules import ruleset
from companion import journal, recovery

from variant_parts_helpers import bgc

TAVLI = ruleset("tavli")


def _win(m, gammon=False):
    """The player on roll bears off the last checker: a single game, or a gammon."""
    mover = [0] * 24
    mover[0] = 1
    opponent = [0] * 24
    opponent[12] = 14 if not gammon else 15
    m.position = Position.from_points(mover, opponent, check=False)
    if not gammon:
        m.position.cells[26] = 1  # one borne off: a single game
    m.roll(2, 1, m.on_roll)
    m.play(m.turn.plays()[0].position)


def test_tavli_plays_portes_plakoto_and_fevga_in_turn_each_by_its_own_rules():
    m = Match(7, rules=TAVLI)
    seen = []
    assert m.opening_roll(3, 5)
    for game in range(1, 7):
        seen.append(m.rules.key)
        assert m.position == m.rules.start_position().swapped() if m.on_roll else m.rules.start_position()
        _win(m)
        m.next_game()
    assert seen == ["portes", "plakoto", "fevga", "portes", "plakoto", "fevga"]
    assert [game_rules(TAVLI, n).key for n in (1, 2, 3, 4)] == ["portes", "plakoto", "fevga", "portes"]


@pytest.mark.parametrize("key", ["portes", "plakoto", "fevga", "longnardy", "tavli"])
def test_a_resignation_offers_no_more_than_the_game_counts_a_gammon_at_most(key):
    # "There is no equivalent of a backgammon and therefore no triple win" (Wikipedia "Tavli");
    # Long Nardy: 1, or 2 (mars). A backgammon resigned would score 3 in a game that never
    # counts it: refused, with the game named; a gammon scores 2.
    m = Match(5, rules=ruleset(key))
    with pytest.raises(MatchError, match="counts at most a gammon"):
        m.resign(3, 1)
    assert m.phase == OPENING and not m.resign_offer  # nothing changed
    m.resign(2, 1)
    m.accept(0)
    assert m.result == (0, 2, 2, "resign") and m.score == [2, 0]


def test_a_resignation_is_capped_by_each_games_scoring_and_its_setting():
    assert ruleset("standard").most() == 3 and ruleset("portes").most() == 2
    assert ruleset("portes:backgammons=1").most() == 3  # Condos: "usually" no backgammon
    assert ruleset("mexican").most() == 1  # no gammons: a single game only
    m = Match(3, rules=ruleset("portes:backgammons=1"))
    m.resign(3, 1)
    m.accept(0)
    assert m.result[1] == 3
    single = Match(3, rules=ruleset("mexican"))
    with pytest.raises(MatchError, match="Mexican counts at most a single game"):
        single.resign(2, 0)


def test_a_journal_with_a_backgammon_resigned_in_portes_is_refused_on_replay():
    records = [journal.settings_record(length=3, crawford=False, rules="portes"),
               {"a": "resign", "p": 1, "kind": 3}]
    with pytest.raises(journal.JournalError, match="resign refused: Portes counts at most a gammon") as err:
        recovery.replay(records)
    assert err.value.index == 1


def test_tavli_the_winner_of_a_game_starts_the_next_with_no_opening_roll():
    m = Match(5, rules=TAVLI)
    assert m.phase == OPENING
    m.opening_roll(6, 2)  # White starts, rolling both dice anew
    assert m.phase == ROLL and m.on_roll == 0 and m.turn is None
    m.roll(4, 4, 0)
    m.play(m.turn.plays()[0].position)
    _win(m)  # Black, on roll, wins game 1
    assert m.phase == GAME_OVER and m.result[0] == 1
    m.next_game()
    assert m.rules.key == "plakoto" and m.phase == ROLL and m.on_roll == 1
    assert m.position == ruleset("plakoto").start_position()  # the same from either side


def test_tavli_scores_one_or_two_to_the_match_length_and_no_cube():
    m = Match(3, rules=TAVLI)
    m.opening_roll(5, 1)
    assert m.double_refusal(0) == "No cube in Portes"
    _win(m, gammon=True)
    assert m.score == [2, 0]
    m.next_game()
    _win(m)
    assert m.phase == MATCH_OVER and m.score == [3, 0] and m.winner == 0


def test_tavli_has_no_crawford_game_the_crawford_rule_is_a_cube_rule():
    # Seed 000: in the Crawford game "nessuno dei due giocatori può raddoppiare" (neither player may
    # double); Tavli has no cube, so no game of it is a Crawford game, and a saved or replayed
    # match says so too (GNU Backgammon keeps its Crawford flag with the cube off, but there it
    # only forbids doubling, which a cubeless match never has).
    m = Match(3, crawford=True, rules=TAVLI)
    assert not m.crawford_rule and not m.holland
    m.opening_roll(5, 1)
    _win(m, gammon=True)
    assert m.score == [2, 0]  # a player one point from the match
    m.next_game()
    assert not m.crawford_game and m.may_double(1) is False  # Plakoto: still no cube
    assert not Match.loads(m.dumps()).crawford_rule
    assert Match(3, crawford=True, holland=True, rules=TAVLI).holland is False
    assert Match(3, crawford=True).crawford_rule  # the standard match keeps it


def test_tavli_at_the_board_no_crawford_game_on_the_screen_the_status_or_the_journal(tmp_path):
    from companion_helpers import Harness, ROLL_W
    from test_companion_game import at

    h = Harness(tmp_path, openings=[(6, 1)])
    h.start_match(length=3, rules="tavli")
    assert h.events("new")[-1]["settings"]["crawford"] is False  # journaled as played
    h.press(ROLL_W)
    end = Position.from_points([1] + [0] * 23, [0] * 12 + [15] + [0] * 11)
    at(h, end, True, (2, 1))
    h.move("w", 1, 0)
    h.press(ROLL_W)
    ended = h.events("game_end")[-1]
    assert ended["score"] == [2, 0] and ended["crawford_next"] is False
    h.clear()
    h.press(ROLL_W)
    h.set_pos(ruleset("plakoto").start_position())
    h.show()
    assert "Crawford" not in h.screen(), h.screen()
    assert h.events("status")[-1]["crawford"] is False


def test_tavli_a_saved_match_in_its_fevga_game_resumes_fevga_on_fevgas_track():
    m = Match(7, rules=TAVLI)
    m.opening_roll(4, 2)
    _win(m)
    m.next_game()
    _win(m)
    m.next_game()
    assert m.rules.key == "fevga"
    m.roll(6, 5, m.on_roll)
    m.play(m.turn.plays()[0].position)  # 24/13: a position only Fevga's track allows
    line = m.dumps()
    assert ",rtavli," in line
    back = Match.loads(line)
    assert back.rules.key == "fevga" and back.series.key == "tavli" and back.game == 3
    assert back.position == m.position and back.phase == ROLL and back.on_roll == m.on_roll
    back.roll(3, 1, back.on_roll)
    assert back.turn.rules.key == "fevga"


def test_tavli_journal_replays_each_games_ruleset_and_exports_name_them(tmp_path, capsys):
    from bgc.logs import journals

    recs = journals.synthetic_records(3, length=5, rules="tavli")  # six games
    m = recovery.replay(recs)
    assert m.series.key == "tavli"
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    status, out, err = bgc(capsys, "export", str(path), "-f", "json")
    assert status == 0, err
    games = json.loads((tmp_path / "m0001.json").read_text())["games"]
    assert len(games) == 6
    assert [g["rules"] for g in games] == [("portes", "plakoto", "fevga")[i % 3] for i in range(len(games))]
    status, out, err = bgc(capsys, "export", str(path), "-f", "text")
    text = (tmp_path / "m0001.txt").read_text()
    assert "Game 1 - score Anna 0, Bruno 0 - Portes" in text and "Game 3 - score Anna 1, Bruno 1 - Fevga" in text
    for fmt in ("mat", "sgf"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 2 and "this match is tavli" in err


def test_tavli_moves_and_check_ask_for_one_of_its_games(capsys):
    status, out, err = bgc(capsys, "moves", "--variant", "tavli", "4HPwATDgc/ABMA", "3", "1")
    assert status == 2 and "give one of its games" in err and "--variant portes or plakoto or fevga" in err
    status, out, err = bgc(capsys, "moves", "--variant", "plakoto", "AACA/z8AAID/Pw", "3", "1")
    assert status == 0 and "24/20" in out


def test_tavli_at_the_board_the_opening_winner_rolls_and_the_next_game_is_named(tmp_path):
    from companion_helpers import Harness, ROLL_W
    from test_companion_game import at

    h = Harness(tmp_path, openings=[(6, 1)])
    h.start_match(length=3, rules="tavli")
    h.press(ROLL_W)
    assert "White starts" in h.screen() and h.c.phase == "roll"
    assert h.screen().split("\n")[:2] == ["Match to 3: 0-0", "Game 1 Portes"]
    st = h.events("status")[-1]
    assert st["rules"] == "portes" and st["game"] == 1
    end = Position.from_points([1] + [0] * 23, [0] * 12 + [15] + [0] * 11)
    at(h, end, True, (2, 1))
    h.move("w", 1, 0)
    h.press(ROLL_W)
    assert h.events("game_end")[-1]["points"] == 2  # a gammon: Black bore off none
    h.clear()
    h.press(ROLL_W)  # the next game: the board asks for Plakoto's start
    assert "missing on 24" in h.screen()
    plakoto = ruleset("plakoto").start_position()
    h.set_pos(plakoto)
    h.show()
    assert h.screen().split("\n")[:2] == ["Match to 3: 2-0", "Game 2 Plakoto"], h.screen()
    st = h.events("status")[-1]
    assert st["rules"] == "plakoto" and st["score"] == [2, 0] and st["phase"] == "roll" and st["on_roll"] == 0


def test_tavli_is_listed_with_its_games(capsys):
    status, out, err = bgc(capsys, "variants")
    block = out.split("\ntavli")[1].split("\n\n")[0]
    assert "Portes, Plakoto and Fevga" in block and "Wikipedia 'Tavli'" in block


def test_tavli_a_whole_match_by_the_automated_players_at_the_virtual_board(capsys):
    # the players set out each game's start, Fevga's on its own track
    status, out, err = bgc(capsys, "sim", "--demo", "--fast", "--quiet", "--variant", "tavli", "--length", "3",
                           "--seed", "5")
    assert status == 0, err
    assert "Match over" in out and "0 false illegal flags" in out, out
    path = out.split("Journal: ")[1].split()[0]
    records, problem = journal.parse(open(path).read())
    assert problem is None and records[0]["rules"] == "tavli"
    m = recovery.replay(records)
    assert m.phase == "matchover" and m.game >= 2
    ends = [r for r in records if r["a"] == "end"]
    starts = [records[records.index(r) + 2] for r in ends[:-1]]  # after "end", "next": the first roll
    assert [s["p"] for s in starts] == [e["winner"] for e in ends[:-1]]
