"""The computer resigns, answers a resignation and beavers through the board, as GNU Backgammon
decides (play.c's ComputerTurn: it considers resigning in a race, at 0-ply, and never offers again
in a game a resignation the person refused; it beavers a double it would take as a favourite when
the session allows beavers). The board (the real controller) shows its offer on the OLED for the
person to accept with ROLL or refuse with CUBE, carries out its answer to the person's offer, and
its beaver. The positions are ones whose answer the rules settle without an engine: a gammon
certain for one side (no checker of the loser borne off, the winner's last two on its 1 point),
and a race the doubled side leads by some 90 pips."""

import os

import pytest

from bgc.logs import analysis
from bgc.logs.gnubg_player import GnubgPlayer, Opponent
from bgrules.position import Position
from companion_helpers import Harness, ROLL_W, CUBE_W, LONG

needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")
BLACK = 1


@pytest.fixture(scope="module")
def gnu():
    with GnubgPlayer("expert") as player:
        yield player


class PC:
    """The PC's side of the serial line, as `bgc play` runs it: every board event to the
    Opponent, its `gnu` line back to the board."""

    def __init__(self, h, player, side=BLACK):
        self.h, self.opp, self.seen = h, Opponent(player, side), 0

    def fresh(self):
        """Forget the events so far and ask the board where it stands (as `bgc play` starts)."""
        self.h.clear()
        self.seen = 0
        self.h.line("status")

    def run(self):
        sent = []
        while True:
            out = self.h.events()
            new, self.seen = out[self.seen:], len(out)
            lines = []
            for ev in new:
                self.opp.event(ev)
                if ev["ev"] == "status":
                    line = self.opp.line(ev)
                    if line:
                        lines.append(line)
            if not lines:
                return sent
            for line in lines:
                self.h.line(line)
                sent.append(line)


def white_plays_first(tmp_path, **settings):
    """White (the person) wins the opening roll 6-1 and plays 13/7 8/7; Black is the computer."""
    h = Harness(tmp_path, openings=[(6, 1)], rolls=[(6, 5)])
    h.start_match(names=["You", "gnubg (expert)"], **settings)
    h.line("gnu side=1")
    h.press(ROLL_W)
    h.move("w", 13, 7)
    h.move("w", 8, 7)
    h.press(ROLL_W)  # DONE
    assert h.c.phase == "roll" and h.c.match.on_roll == BLACK
    return h


def set_position(h, pos, on_roll):
    """The game goes on from ``pos`` (the view of ``on_roll``, the player on roll, as GNU
    Backgammon's Position ID) before that player's roll, the checkers set out so on the board
    (setting up a position is issue 30's own slice: here the match is told directly)."""
    m = h.c.match
    m.position = pos
    m.on_roll = m.to_act = on_roll
    h.set_pos(pos, on_roll == 0)
    h.c._enter("roll")
    h.show()
    assert h.c.board_ok


# a certain gammon for White: its last two checkers on its 1 point, Black's 15 on its 13 point
# (no contact: a race; none of Black's borne off, none in White's home board: no backgammon)
BLACK_GAMMONED = Position.from_points([0] * 12 + [15] + [0] * 11, [2] + [0] * 23)


@needs_engine
def test_the_computer_resigns_a_lost_race_on_the_oled_and_the_person_refuses_then_accepts(tmp_path, gnu):
    h = white_plays_first(tmp_path)  # a 5-point match: a gammon counts
    pc = PC(h, gnu)
    set_position(h, BLACK_GAMMONED, BLACK)
    pc.fresh()
    assert pc.run() == ["gnu resign kind=2"]  # a gammon lost whatever it rolls: it resigns one
    assert h.c.phase == "resign" and h.c.match.to_act == 0
    screen = h.screen()
    assert "gnubg (expert) resigns gammon" in " ".join(screen.split()), screen
    assert "ROLL: accept" in screen and "CUBE: refuse" in screen
    h.press(CUBE_W)  # refused: it plays on, and does not offer the gammon again this game
    assert h.c.phase == "roll" and "Resign rejected" in h.screen()
    sent = pc.run()
    assert pc.opp.declined == 2
    # it rolls (the board's dice) and plays them: a backgammon it cannot lose is not offered
    assert sent[0] == "gnu roll" and sent[1].startswith("gnu play pos="), sent
    assert h.c.phase == "moving" and "GNU 13/8 13/7" in " ".join(h.screen().split())


@needs_engine
def test_the_computers_resignation_accepted_scores_the_gammon(tmp_path, gnu):
    h = white_plays_first(tmp_path)
    pc = PC(h, gnu)
    set_position(h, BLACK_GAMMONED, BLACK)
    pc.fresh()
    assert pc.run() == ["gnu resign kind=2"]
    h.press(ROLL_W)  # accepted
    end = h.events("game_end")
    assert end and end[-1]["winner"] == 0 and end[-1]["points"] == 2 and end[-1]["kind"] == "gammon"
    assert h.c.match.score == [2, 0]


@needs_engine
def test_the_computer_rejects_a_single_game_when_it_wins_a_gammon_and_accepts_the_gammon(tmp_path, gnu):
    h = white_plays_first(tmp_path)
    pc = PC(h, gnu)
    # White (the person) on roll, its gammon certain: BLACK_GAMMONED with the colours swapped
    set_position(h, BLACK_GAMMONED, 0)
    pc.fresh()
    h.press(CUBE_W, LONG)  # the person offers to resign: a single game first
    h.press(ROLL_W)
    assert h.c.phase == "resign" and h.c.match.to_act == BLACK
    assert pc.run() == ["gnu reject"]  # a single game when its gammon is certain: refused
    assert "Resign rejected" in h.screen() and h.c.phase == "roll"
    h.press(CUBE_W, LONG)  # now a gammon
    h.press(CUBE_W)
    h.press(ROLL_W)
    assert pc.run() == ["gnu accept"]
    end = h.events("game_end")
    assert end and end[-1]["winner"] == BLACK and end[-1]["points"] == 2


# White on roll behind in a race: White's 20 checkers-worth on its 4-9 points (about 110 pips),
# Black's on its 1-5 (45 pips); White's double gives Black the favourite's cube
WHITE_BEHIND = Position.from_points([0, 0, 0, 2, 3, 3, 3, 2, 2] + [0] * 15, [3, 3, 3, 3, 3, 0] + [0] * 18)


@needs_engine
def test_the_computer_beavers_a_bad_double_in_a_money_session_that_allows_it(tmp_path, gnu):
    for beavers, answer in ((0, "gnu take"), (1, "gnu beaver")):
        h = white_plays_first(tmp_path / str(beavers), length=0, jacoby=True, beavers=beavers)
        pc = PC(h, gnu)
        set_position(h, WHITE_BEHIND, 0)
        pc.fresh()
        pc.opp.event({"ev": "options", "current": {"length": 0, "jacoby": True, "beavers": beavers}})
        h.press(CUBE_W)  # the person doubles
        assert pc.run() == [answer]
        if beavers:
            # its beaver on the OLED; the person (the doubler) answers the redouble: no raccoon
            assert "beaver!" in h.screen() and h.c.phase == "doubled" and h.c.match.to_act == 0
            assert "hold ROLL:beaver" not in h.screen()
            h.press(ROLL_W)  # takes the beaver: the cube at 4, with the computer (it was doubled)
            assert h.c.match.cube == 4 and h.c.match.cube_owner == BLACK and h.c.phase == "roll"
        else:
            assert h.c.match.cube == 2 and h.c.match.cube_owner == BLACK
