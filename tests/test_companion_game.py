"""The companion at the board: one test per behaviour a player notices (issue: the companion).

Frames are built from positions (tests/companion_helpers.py) the way the classifier reports
them; the dice are forced; the journal is a real file in a temporary directory."""
import pytest

from bgrules.position import Position
from bgrules.turn import Turn
from companion import recovery
from companion_helpers import Harness, board_of, ROLL_W, CUBE_W, ROLL_B, CUBE_B, SHORT, LONG


def opened(tmp_path, opening=(3, 1), rolls=(), **settings):
    """A 5-point match (unless settings say otherwise) after the opening roll."""
    h = Harness(tmp_path, rolls=rolls, openings=[opening])
    h.start_match(**settings)
    assert h.c.phase == "opening"
    h.press(ROLL_W)
    h.clear()
    return h


def at(h, pos, white_on_roll, roll):
    """Put the match in ``pos`` with the given player on roll, then roll ``roll``."""
    m = h.c.match
    m.position = pos
    m.on_roll = m.to_act = 0 if white_on_roll else 1
    m.phase = "roll"
    m.turn = None
    m.dice = (0, 0)
    h.set_pos(pos, white_on_roll)
    h.c._enter("roll")
    h.show()
    h.dice.rolls.append(roll)
    h.press(ROLL_W if white_on_roll else ROLL_B)
    h.clear()


def test_lift_lights_legal_destinations(tmp_path):
    h = opened(tmp_path)  # white 3-1
    h.lift("w", 8)
    assert h.leds("lifted") == [8]
    assert h.leds("legal") == [4, 5, 7]  # 8/5, 8/7, 8/4
    assert h.events("illegal") == []


def test_illegal_placement_is_red_with_reason_at_once(tmp_path):
    h = opened(tmp_path)
    h.move("w", 8, 2)
    assert h.leds("illegal") == [2]
    ev = h.events("illegal")
    assert ev and ev[0]["at"] == "place" and ev[0]["board_point"] == 2 and ev[0]["reason"]
    assert ev[0]["reason"].split()[0] in h.screen()
    assert h.c.fx.buzz


def test_moving_back_clears_the_error(tmp_path):
    h = opened(tmp_path)
    h.move("w", 8, 2)
    h.move("w", 2, 8)
    assert h.leds("illegal") == []
    assert h.events("ok") == [{"ev": "ok", "p": 0}]
    assert h.c.msg == ""


def test_checker_in_hand_and_hovering_are_never_judged(tmp_path):
    h = opened(tmp_path)
    h.lift("w", 13)
    h.lift("w", 13)  # two in one hand
    assert h.events("illegal") == []
    h.put("w", 10)  # one put down (13/10), one still in the hand
    assert h.events("illegal") == []
    assert h.leds("illegal") == []
    # the same frame again (a hand hovering changes nothing stable): nothing new
    n = len(h.c.fx.out)
    h.show()
    assert len(h.c.fx.out) == n


def test_hit_checker_must_go_to_the_bar(tmp_path):
    h = opened(tmp_path)
    # a black blot on board point 5 (black's 20), taken from black's 13; white rolls 3-1
    w = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    b = list(w)
    b[12] -= 1
    b[19] += 1
    p2 = Position.from_points(w, b)
    at(h, p2, True, (3, 1))
    h.move("w", 8, 5)  # now both colours on 5
    assert h.leds("hint") == [0, 5] and h.leds("illegal") == []
    assert "bar" in h.c.msg
    h.move("w", 6, 5, show=False)
    h.move("b", 5, 25)  # the hit checker goes to black's bar
    assert h.leds("hint") == []
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "8/5* 6/5"


def test_done_refuses_an_incomplete_play_and_says_why(tmp_path):
    h = opened(tmp_path)
    h.move("w", 8, 5)
    h.press(ROLL_W)
    assert h.c.phase == "moving"
    ev = h.events("illegal")
    assert ev[-1]["at"] == "done" and ev[-1]["reason"] == "Both dice must be played"
    assert "Both dice" in h.screen()
    assert h.events("play") == []


def test_opponent_may_condone_an_illegal_play_by_rolling(tmp_path):
    h = opened(tmp_path, rolls=[(5, 2)])
    h.move("w", 8, 5)
    h.move("w", 6, 4)  # 6/4 with a 1 is illegal
    h.press(ROLL_W)
    assert h.events("illegal")[-1]["at"] == "done"
    h.clear()
    h.press(ROLL_B)  # black accepts the play by rolling
    play = h.events("play")[0]
    assert play["condoned"] is True
    assert h.events("roll")[0] == {"ev": "roll", "p": 1, "dice": [5, 2]}
    records, problem = h.journal()
    assert problem is None
    assert [r["a"] for r in records][-2:] == ["play", "roll"] and records[-2]["condoned"] is True
    assert recovery.replay(records).position.id() == h.c.match.position.id()


def _on_the_bar(open_point):
    # white on the bar; black holds its home points except ``open_point``
    w = [0] * 24
    w[12] = 14
    b = [0] * 24
    for i in range(6):
        b[i] = 0 if i + 1 == open_point else 2
    b[12] = 15 - sum(b)
    return Position.from_points(w, b, mover_bar=1)


def test_no_legal_move_passes_on_done(tmp_path):
    h = opened(tmp_path)
    at(h, _on_the_bar(6), True, (5, 4))  # only a 6 would enter
    assert "No legal move" in h.screen()
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == ""
    assert h.c.match.on_roll == 1


def test_closed_out_player_passes_without_dice(tmp_path):
    h = opened(tmp_path)
    pos = _on_the_bar(0)
    m = h.c.match
    m.position = pos
    m.on_roll = m.to_act = 0
    m.phase = "roll"
    h.set_pos(pos)
    h.c._enter("roll")
    h.show()
    assert "pass" in h.screen()
    h.press(ROLL_W)
    assert h.events("pass") == [{"ev": "pass", "p": 0}]
    assert h.c.match.on_roll == 1 and h.c.phase == "roll"


def test_bear_off_is_counted_by_conservation(tmp_path):
    h = opened(tmp_path)
    w = [0] * 24
    w[5] = 3  # three on the 6 point, the rest borne off
    w[3] = 2
    b = [0] * 24
    b[0] = 15
    at(h, Position.from_points(w, b), True, (6, 4))
    h.lift("w", 6)
    assert "bear off" in h.c.msg
    h.lift("w", 4)  # both into the tray: not sensed
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "6/off 4/off"
    assert h.c.match.position.opponent(0) == 12  # seen by black: white has 12 off


def test_ambiguous_stack_play_asks_the_player(tmp_path):
    # white: 6 on 2, 6 on 4, 1 on 5, 2 on 6 (pips low); 2-1 played 5/2 looks like 5/4 2/off
    h = opened(tmp_path)
    pos = Position.from_id("snvaAAB+fg0AAA")
    at(h, pos, True, (2, 1))
    final = [p for p in Turn(pos, 2, 1).plays() if p.notation() == "5/4 2/off"][0].position
    h.set_pos(final)
    h.show()
    h.press(ROLL_W)
    assert h.c.phase == "ask"
    assert h.events("ask")[0]["points"] == [2, 4]
    h.c.tick(h.now + 1000)
    assert h.leds("hint") == [2, 4]  # blinking
    # the player lifts a checker from the 2 point: four cells there, so it held exactly 5
    h.lift("w", 2)
    assert h.c.phase == "ask" and h.events("play") == []
    h.put("w", 2)
    assert h.events("play")[0]["move"] == "5/4 2/off"


def test_ambiguity_can_be_settled_with_the_buttons(tmp_path):
    h = opened(tmp_path)
    pos = Position.from_id("snvaAAB+fg0AAA")
    at(h, pos, True, (2, 1))
    final = [p for p in Turn(pos, 2, 1).plays() if p.notation() == "5/2"][0].position
    h.set_pos(final)
    h.show()
    h.press(ROLL_W)
    assert h.c.phase == "ask"
    while h.c.msg != "Which play?\n5/2":
        h.press(CUBE_W)
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "5/2"


def test_cube_double_take(tmp_path):
    h = opened(tmp_path, rolls=[(6, 5)])
    h.move("w", 8, 5, show=False)
    h.move("w", 6, 5)
    h.press(ROLL_W)
    h.clear()
    h.press(CUBE_B)  # black doubles before rolling
    assert h.c.phase == "doubled"
    h.press(ROLL_W)  # white takes
    assert [e["action"] for e in h.events("cube")] == ["double", "take"]
    assert h.c.match.cube == 2 and h.c.match.cube_owner == 0
    assert "Cube 2 W" in h.screen()
    h.press(ROLL_B)
    assert h.events("roll")[-1]["dice"] == [6, 5]


def test_cube_drop_ends_the_game(tmp_path):
    h = opened(tmp_path)
    h.move("w", 8, 5, show=False)
    h.move("w", 6, 5)
    h.press(ROLL_W)
    h.press(CUBE_B)
    h.press(CUBE_W)  # a short CUBE is not a drop
    assert h.c.phase == "doubled"
    h.press(CUBE_W, LONG)
    end = h.events("game_end")[0]
    assert end["winner"] == 1 and end["points"] == 1 and end["how"] == "drop"
    assert h.c.phase == "gameover"


def test_beaver_in_money_play(tmp_path):
    h = opened(tmp_path, length=0, beavers=1)
    h.move("w", 8, 5, show=False)
    h.move("w", 6, 5)
    h.press(ROLL_W)
    h.press(CUBE_B)
    h.press(ROLL_W, LONG)  # beaver
    assert h.events("cube")[-1]["action"] == "beaver"
    h.press(ROLL_B, LONG)  # a raccoon is not allowed
    assert "not allowed" in h.c.msg.lower()
    h.press(ROLL_B)  # take
    assert h.c.match.cube == 4 and h.c.match.cube_owner == 0


def test_resignation_offer_and_accept(tmp_path):
    h = opened(tmp_path)
    h.press(CUBE_W, LONG)  # white wants to resign
    h.press(CUBE_W)  # single -> gammon
    h.press(ROLL_W)  # offer
    assert h.c.phase == "resign"
    assert h.events("resign")[0] == {"ev": "resign", "p": 0, "action": "offer", "kind": 2}
    h.press(ROLL_B)  # black accepts
    end = h.events("game_end")[0]
    assert end["winner"] == 1 and end["points"] == 2 and end["how"] == "resign"


def test_resignation_rejected_goes_back_to_the_turn(tmp_path):
    h = opened(tmp_path)
    h.move("w", 8, 5)
    h.press(CUBE_W, LONG)
    h.press(ROLL_W)
    h.press(CUBE_B)
    assert h.c.phase == "moving"
    h.move("w", 6, 5)
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "8/5 6/5"


def test_game_end_scores_and_crawford(tmp_path):
    h = opened(tmp_path, length=3)
    m = h.c.match
    m.score = [1, 0]
    # white bears off its last checker; black has none off: a gammon (2 points) -> 3? capped
    w = [0] * 24
    w[0] = 1
    b = [0] * 24
    b[5] = 15
    at(h, Position.from_points(w, b), True, (2, 1))
    h.lift("w", 1)
    h.press(ROLL_W)
    end = h.events("game_end")[0]
    assert end["kind"] == "gammon" and end["points"] == 2 and end["score"] == [3, 0]
    assert h.events("match_end")[0]["winner"] == 0
    assert h.c.phase == "matchover"

    (tmp_path / "b").mkdir()
    h2 = opened(tmp_path / "b", length=3)
    w = [0] * 24
    w[0] = 1
    b = [0] * 24
    b[5] = 14
    b[23] = 0
    pos = Position.from_points(w, b)
    at(h2, pos, True, (2, 1))
    h2.lift("w", 1)
    h2.press(ROLL_W)
    end = h2.events("game_end")[0]
    assert end["points"] == 1 and end["crawford_next"] is False
    h2.c.match.score  # 1-0
    # next game: the board must show the start position again
    h2.press(ROLL_W)
    assert h2.c.phase == "board"
    assert h2.leds("illegal")
    assert "missing" in h2.c.msg
    h2.set_pos(Position.start())
    h2.show()
    assert h2.c.phase == "opening"


def test_crawford_game_shows_and_refuses_doubles(tmp_path):
    h = opened(tmp_path, length=3)
    m = h.c.match
    m.score = [1, 0]
    w = [0] * 24
    w[0] = 1
    b = [0] * 24
    b[5] = 14
    at(h, Position.from_points(w, b), True, (2, 1))
    h.lift("w", 1)
    h.press(ROLL_W)
    assert h.events("game_end")[0]["crawford_next"] is True
    h.press(ROLL_B)
    h.set_pos(Position.start())
    h.show()
    assert "Crawford game" in h.screen()
    h.dice.openings.append((2, 5))  # black starts
    h.press(ROLL_W)
    h.move("b", 1, 3, show=False)  # black's 24/22 13/8 in white's numbering
    h.move("b", 12, 17)
    h.press(ROLL_B)
    h.press(CUBE_W)
    assert h.c.msg == "Crawford game: no doubling"
    assert h.c.phase == "roll"


def test_start_position_check_names_what_is_missing(tmp_path):
    h = Harness(tmp_path, openings=[(3, 1)])
    h.white[6] -= 1  # one white checker missing on the 6 point
    h.black[1] += 1  # and a stray black one
    h.show()
    h.start_match()
    assert h.c.phase == "board"
    assert sorted(h.leds("illegal")) == [1, 6]
    assert "missing" in h.c.msg or "extra" in h.c.msg
    h.press(ROLL_W)
    assert h.c.phase == "board"  # no opening roll on a wrong board
    h.white[6] += 1
    h.black[1] -= 1
    h.show()
    assert h.c.phase == "opening" and h.leds("illegal") == []
