"""Ludus Lumbadorum (seed 002; docs/variants.md): one test per rule that differs from the
standard game, each named after it, and every play of random positions against a reference
written here from the rules in the game's own numbering (points 1-12, the start on 1, the home
table 7-12), independent of the engine's search and of its mapping onto the board's 7-18."""

import random

import pytest

from bgc import cli
from bgc.logs import journals
from bgrules import Position
from bgrules.match import Match
from bgrules.position import BAR, OFF, OPP
from bgrules.rules import VARIANTS, ruleset

R = ruleset("ludus")


def board(L):
    """The mover's board point of the game's point L."""
    return 19 - L


def pos(mine, theirs, my_bar=0, their_bar=0):
    """From {L: count} of each side in its own game numbering."""
    m = [0] * 24
    o = [0] * 24
    for L, n in mine.items():
        m[board(L) - 1] = n
    for L, n in theirs.items():
        o[board(L) - 1] = n
    return Position.from_points(m, o, my_bar, their_bar)


def turn(p, d1, d2):
    return R.turn(p, d1, d2, R) if R.turn else __import__("bgrules").Turn(p, d1, d2, R)


def finals(p, d1, d2):
    return sorted(pl.position.id() for pl in turn(p, d1, d2).plays())


# --- the reference: the rules of the seed in the game's numbering ---------------------------

def _steps(me, opp, bar, d):
    """(new me, new opp, new bar, new off-count delta) for each legal single die ``d``."""
    out = []
    if bar:
        L = d
        sources = [0]
    else:
        sources = [L for L in range(1, 13) if me[L]]
    for s in sources:
        t = s + d
        if t <= 12:
            if opp[13 - t] >= 2:
                continue  # two opposing checkers block
            if me[t] and (t in (8, 9, 10) or t == 1):
                continue  # no point on the opponent's 3, 4, 5; own start only when empty
            if s == 0 and t == 1 and me[1]:
                continue
            m = list(me)
            o = list(opp)
            if s:
                m[s] -= 1
            m[t] += 1
            hit = 0
            if o[13 - t] == 1:
                o[13 - t] = 0
                hit = 1
            out.append((tuple(m), tuple(o), bar - (0 if s else 1), hit, 0))
        else:
            if bar or any(me[L] for L in range(1, 7)):
                continue  # bear off only with every checker in the home table 7-12
            if t > 13 and any(me[L] for L in range(7, s)):
                continue  # a higher die only from the farthest checker
            m = list(me)
            m[s] -= 1
            out.append((tuple(m), tuple(opp), bar, 0, 1))
    return out


def reference(p, d1, d2):
    c = p.cells
    me = [0] + [c[board(L)] for L in range(1, 13)]
    opp = [0] + [c[OPP + board(L)] for L in range(1, 13)]
    results = {}
    best = 0
    # a double: its value once, one die (FR "on n'utilise la valeur qu'une seule fois", IT "nella
    # pariglia va giocato un solo numero")
    for order in ((d1, d2), (d2, d1)) if d1 != d2 else ((d1,),):
        frontier = [(tuple(me), tuple(opp), c[BAR], 0, 0, 0)]
        for k, d in enumerate(order):
            nxt = []
            for m, o, bar, hits, off, _ in frontier:
                for m2, o2, bar2, hit, o_ff in _steps(m, o, bar, d):
                    nxt.append((m2, o2, bar2, hits + hit, off + o_ff, k + 1))
            if not nxt:
                break
            frontier = nxt
        for m, o, bar, hits, off, n in frontier:
            results.setdefault(n, {}).setdefault((m, o, bar, hits, off), (order, n))
    best = max(results)
    plays = results[best]
    if best == 1 and d1 != d2:
        larger = max(d1, d2)
        # only one die playable: the larger if it can be played
        if any(v[0][0] == larger for v in plays.values()):
            plays = {k: v for k, v in plays.items() if v[0][0] == larger}
    ids = set()
    for (m, o, bar, hits, off) in plays:
        cells = bytearray(52)
        for L in range(1, 13):
            cells[board(L)] = m[L]
            cells[OPP + board(L)] = o[L]
        cells[BAR] = bar
        cells[OPP + BAR] = c[OPP + BAR] + hits
        cells[OFF] = 15 - sum(m) - bar
        cells[OPP + OFF] = c[OPP + OFF]
        ids.add(Position(cells).id())
    return sorted(ids) if best else []


# --- the rules ------------------------------------------------------------------------------

def test_ludus_is_a_playable_variant():
    assert "ludus" in VARIANTS and R.key == "ludus"


def test_half_a_board_every_checker_starts_on_point_1_the_boards_18():
    c = R.start_position().cells
    assert c[18] == 15 and sum(c[1:26]) == 15
    assert c[OPP + 18] == 15  # black's 18 is the board's 7: the two starts face each other


def test_a_double_is_played_once_its_value_as_one_die():
    # DE "nur der Pasch wird nur einmal gezogen"; FR "si on obtient un doublet, on n'utilise la
    # valeur qu'une seule fois"; IT "nella pariglia va giocato un solo numero": one die's value
    t = turn(R.start_position(), 3, 3)
    assert t.dice_to_play == 1
    assert sorted(pl.notation() for pl in t.plays()) == ["18/15"]


def test_checkers_enter_on_the_games_point_of_the_die():
    p = pos({1: 10, 3: 4}, {1: 14}, my_bar=1)
    for d in (2, 4, 5):
        assert any(pl.steps[0] == (25, board(d), 0) for pl in turn(p, d, 6).plays())


def test_two_opposing_checkers_block_and_a_single_one_is_hit():
    p = pos({1: 15}, {1: 11, 7: 2, 8: 1, 11: 1})  # opponent's 7 is our 6; its 8 our 5
    plays = turn(p, 5, 4).plays()
    assert not any(s[1] == board(6) for pl in plays for s in pl.steps)  # 1+5: blocked
    hit = [pl for pl in plays if pl.steps[0][:2] == (board(1), board(5))]
    assert hit and hit[0].steps[0][2] == 1


def test_no_point_on_the_opponents_3_4_5():
    # the opponent's 3, 4, 5 are our 10, 9, 8 (the board's 9, 10, 11)
    p = pos({1: 13, 9: 1, 4: 1}, {1: 15})
    t = turn(p, 5, 2)
    made = pos({1: 13, 9: 2}, {1: 15})  # 4/9: a second checker on 9
    assert not t.is_legal(made)
    assert t.check(made) == "Only one checker on %d" % board(9)


def test_the_own_start_point_is_entered_only_when_no_checker_is_left_there():
    p = pos({1: 3, 5: 11}, {1: 15}, my_bar=1)
    assert not any(pl.steps[0] == (25, board(1), 0) for pl in turn(p, 1, 3).plays())
    empty = pos({5: 14}, {1: 15}, my_bar=1)
    assert any(pl.steps[0] == (25, board(1), 0) for pl in turn(empty, 1, 3).plays())


def test_bearing_off_from_the_home_table_7_to_12_over_the_bar():
    p = pos({7: 2, 10: 3, 12: 10}, {5: 15})
    t = turn(p, 6, 3)
    assert any(s[1] == 0 for pl in t.plays() for s in pl.steps)
    not_home = pos({6: 1, 10: 4, 12: 10}, {5: 15})
    assert not any(s[1] == 0 and s[0] != board(6) for pl in turn(not_home, 1, 2).plays() for s in pl.steps)


def test_every_play_of_random_positions_equals_the_reference():
    rng = random.Random(12)
    checked = 0
    for game in range(12):
        m = Match(0, rules=R)
        while not m.opening_roll(rng.randint(1, 6), rng.randint(1, 6)):
            pass
        while m.phase not in ("gameover", "matchover"):
            if m.phase == "roll":
                m.roll(rng.randint(1, 6), rng.randint(1, 6))
            t = m.turn
            assert finals(t.start, t.d1, t.d2) == reference(t.start, t.d1, t.d2), t.start.id()
            checked += 1
            plays = t.plays()
            m.play(rng.choice(plays).position if plays else m.position)
    assert checked > 500


def test_a_single_game_and_exports_json_and_text_but_not_mat_or_sgf(tmp_path, capsys):
    p = pos({12: 1}, {2: 15})
    m = Match(1, rules=R)
    m.position = p
    m.opening_roll(6, 1)
    m.play(m.turn.plays()[0].position)
    assert m.phase == "matchover" and m.result[2] == 1  # no gammon counted
    recs = journals.synthetic_records(5, length=1, rules="ludus")
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        assert cli.main(["export", str(path), "-f", fmt]) == 2
        assert "this match is ludus, which GNU Backgammon does not play" in capsys.readouterr().err
    for fmt in ("json", "text"):
        assert cli.main(["export", str(path), "-f", fmt]) == 0, capsys.readouterr().err


def test_the_simulated_players_hands_play_a_match_with_no_false_flag(capsys):
    # humanlike handling (bgc sim): blots taken off before the hitter lands, checkers carried
    # over the points, wrong placements made and corrected: no legal frame may be flagged
    assert cli.main(["sim", "--demo", "--fast", "--quiet", "--variant", "ludus", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Match over" in out and " 0 false illegal flags" in out, out
