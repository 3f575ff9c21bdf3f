"""Backwards (seed 002, "Rückwärts": "Jeder Spieler kann jederzeit seine Würfe auch für Züge
rückwärts nutzen"): a die may move a checker that many points back, point to point, landing by
the usual rules; never from the bar or onto it, never off; the bar rule and the bear-off rule hold
(docs/variants.md). Checked against the standard game's generator: every forward play is still
there, and the backward ones are exactly the rule's."""

from bgrules import Position, Turn
from bgrules.position import OPP
from bgrules.rules import ruleset, STANDARD
from companion_helpers import Harness, ROLL_W
from variant_parts_helpers import pos

BACK = ruleset("backwards")


def plays(position, d1, d2, rules=BACK):
    return {str(p): p.position for p in Turn(position, d1, d2, rules).plays()}


def test_backwards_every_die_may_also_move_a_checker_back():
    start = BACK.start_position()
    out = plays(start, 6, 1)
    assert "24/18 13/14" in out and "24/18 8/9" in out  # the 1 played backwards
    # every standard play is still one
    std = {p.position for p in Turn(start, 6, 1, STANDARD).plays()}
    assert std <= set(out.values()) and len(out) > len(std)


def test_backwards_a_backward_step_lands_by_the_usual_rules_blocks_and_hits():
    # a blot of the opponent behind our checker on 10 (our 13 = its 12) is hit going back
    start = pos({10: 1, 6: 14}, {12: 1, 1: 14})
    out = plays(start, 3, 1)
    hit = [k for k in out if "10/13*" in k]
    assert hit and out[hit[0]].cells[OPP + 25] == 1
    # two of its checkers there close the point both ways
    closed = pos({10: 1, 6: 14}, {12: 2, 1: 13})
    assert not any("10/13" in k for k in plays(closed, 3, 1))


def test_backwards_never_from_the_bar_nor_past_the_24_point():
    on_bar = pos({6: 14}, {1: 15}, 1)
    for k in plays(on_bar, 6, 5):
        assert k.startswith("bar/")  # the bar checker enters first, forward
    edge = pos({23: 1, 6: 14}, {12: 15})
    out = plays(edge, 2, 1)
    assert "23/24 6/4" in out  # one point back is still on the board
    assert not any(k.startswith("23/25") or "24/" in k for k in out)  # none goes past it


def test_backwards_bearing_off_waits_for_a_checker_moved_back_out_of_the_home_board():
    home = pos({6: 1, 2: 14}, {12: 15})
    out = plays(home, 6, 3)
    # 6/9 back out of the home board with the 3: the 6 may no longer bear off from the 2 (and
    # before that step the checker on 6 stood higher): that result is no play of 6-3
    final = pos({9: 1, 2: 13}, {12: 15})
    assert final not in out.values()
    assert Turn(home, 6, 3, BACK).check(final) is not None
    assert "6/off 2/off" in out  # both forward: the 3 bears off from the 2, nothing higher


def test_backwards_a_play_is_not_refused_as_moving_backwards():
    start = BACK.start_position()
    final = plays(start, 6, 1)["24/18 13/14"]
    assert Turn(start, 6, 1, BACK).check(final) is None
    assert Turn(start, 6, 1, STANDARD).check(final) == "Checkers only move forward"


def test_backwards_a_double_played_forth_and_back_leaves_the_position_as_it_was():
    # The literal rule: 3 forward and 3 back again. The board cannot tell that from not moving,
    # so after a double an unchanged board is legal when those steps were open (documented).
    start = BACK.start_position()
    assert Turn(start, 3, 3, BACK).check(start) is None
    assert Turn(start, 3, 3, STANDARD).check(start) is not None


def test_backwards_on_the_board_a_checker_moved_back_is_not_flagged_and_its_points_are_lit(tmp_path):
    h = Harness(tmp_path, openings=[(6, 1)])
    h.line("new length=3 variant=backwards")
    h.show()
    h.press(ROLL_W)  # white opens 6-1
    h.clear()
    h.lift("w", 13)
    assert 14 in h.leds("legal") and 7 in h.leds("legal")  # back one, forward six
    h.put("w", 14)
    h.move("w", 24, 18)
    assert not h.events("illegal"), h.events()
    h.press(ROLL_W)
    assert h.events("play")[-1]["move"] == "24/18 13/14"


# --- the board's questions against a brute force -------------------------------------------------
# The search behind locate / is_legal (bgrules/variants/backwards.py) prunes by what is still
# within reach and stops once it has what the question wants. The reference here walks every
# distinct board each number of dice can reach, breadth first, with the same single steps (the
# step rules themselves are checked by the tests above), and keeps those from which the rest of
# the roll can still be played: a board's options are then read off those sets.

import random

from bgrules.position import BAR


def _steps(s, cells, d):
    """Every board one step of die ``d`` makes from ``cells`` (both ways)."""
    out = []
    s.load(cells)
    for src in range(25, 0, -1):
        if s.c[src]:
            for t in (s.dest(src, d), s.back(src, d)):
                if t >= 0:
                    s.push(src, t, d)
                    out.append(bytes(s.c))
                    s.pop()
    return out


def _prefixes(turn, dice):
    """For one order of the dice, the boards after k dice (k = 0..n) that begin a whole play."""
    s = turn._s
    n = turn.dice_to_play
    layers = [{bytes(turn.start.cells): None}]
    for k in range(n):
        nxt = {}
        for board in layers[-1]:
            for b in _steps(s, board, dice[k]):
                nxt.setdefault(b, set()).add(board)
        layers.append(nxt)
    good = [set() for _ in range(n + 1)]
    good[n] = set(layers[n])
    for k in range(n, 0, -1):
        for b in good[k]:
            good[k - 1] |= layers[k][b]
    s.load(turn.start.cells)
    return good


def _reference_options(turn):
    """{board: sorted options (dice left)} for every board that begins a legal play."""
    n = turn.dice_to_play
    out = {}
    for dice in turn._orders:
        if n == 1 and turn.forced_die and dice[0] != turn.forced_die:
            continue
        for k, boards in enumerate(_prefixes(turn, dice)):
            left = bytes(dice[k:n])
            for b in boards:
                opts = out.setdefault(b, [])
                if k == 0:
                    left = turn._orders[0][:n] if n != 1 else bytes((turn.forced_die or dice[0],))
                if left not in opts:
                    opts.append(left)
    return {b: sorted(o) for b, o in out.items()}


def _backwards_positions(count, seed, every=4):
    """Positions of games whose players mostly go forward (so that they reach the bear-off),
    every ``every``-th turn, with a double every third position: the costly searches."""
    rng = random.Random(seed)
    out = []
    pos = BACK.start_position()
    turn = 0
    while len(out) < count:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        turn += 1
        if turn % every == 0:
            if len(out) % 3 == 0:
                d2 = d1
            out.append((pos, d1, d2))
        plays = Turn(pos, d1, d2, BACK).plays()
        if plays and rng.random() < 0.8:
            least = min(p.position.pips()[0] for p in plays)
            plays = [p for p in plays if p.position.pips()[0] == least]
        nxt = rng.choice(plays).position if plays else pos
        pos = BACK.start_position() if nxt.cells[0] == 15 else nxt.swapped()
    return out


def test_backwards_locate_and_done_agree_with_every_board_the_dice_reach():
    rng = random.Random(5)
    checked = 0
    positions = _backwards_positions(24, seed=3)
    # the bear-off too: a checker borne off, or one to bear off, changes how the search prunes
    assert sum(1 for pos, _a, _b in positions if not any(pos.cells[7:26])) >= 4
    for pos, d1, d2 in positions:
        turn = Turn(pos, d1, d2, BACK)
        ref = _reference_options(turn)
        whole = {b for b, opts in ref.items() if b"" in opts}
        boards = list(ref)
        probes = rng.sample(boards, min(60, len(boards))) + [bytes(pos.cells)]
        for _ in range(10):  # boards no play begins with: one checker moved a random distance
            c = bytearray(pos.cells)
            src = rng.choice([q for q in range(1, 26) if c[q]])
            c[src] -= 1
            c[max(0, min(24, src + rng.randint(-7, 7)))] += 1
            probes.append(bytes(c))
        for src in range(1, 26):  # and each checker taken off, as a hand's checker may count
            if pos.cells[src]:
                c = bytearray(pos.cells)
                c[src] -= 1
                c[0] += 1
                probes.append(bytes(c))
        for b in probes:
            turn._last = None
            assert sorted(turn.locate(b)) == ref.get(b, []), (pos.id(), d1, d2, Position(bytearray(b)).id())
            assert turn.is_legal(b) == (b in whole), (pos.id(), d1, d2, Position(bytearray(b)).id())
            checked += 1
    assert checked > 500


def test_backwards_the_unchanged_board_after_a_double_is_answered_without_walking_every_order():
    # A checker may step out and back: after a double the board as it was at the roll begins a
    # play with all four dice left, with two (one out-and-back) and with none (two of them).
    # The search stops once it has those three answers; walking every order of every step took
    # 7.6 s for this mid-game 1-1 on an emulated Pico (docs/performance.md).
    pos = Position.from_id("4AEM1R2AMlJoOw")
    turn = Turn(pos, 1, 1, BACK)
    steps = [0]
    push = turn._s.push

    def counted(*a):
        steps[0] += 1
        push(*a)

    turn._s.push = counted
    assert sorted(turn.locate(pos)) == [b"", b"\x01\x01", b"\x01\x01\x01\x01"]
    assert sorted(turn.locate(pos)) == sorted(_reference_options(Turn(pos, 1, 1, BACK))[bytes(pos.cells)])
    assert steps[0] < 200, steps[0]  # 11 steps; walking every order took 36,940


def test_backwards_a_checker_borne_off_with_one_still_outside_names_the_bear_off_rule():
    # 4-4 with checkers on 24 and 13: 6/2/off (the 4 from the 2 point) is no bear-off while a
    # checker is outside the home board. The refusal names that rule, not a blocked point the
    # search happened to look at on the way.
    start = Position.from_id("4PPIATDgc/ABMA")
    final = Position.from_id("4PPIATDgOfgAGA")
    assert final.cells[0] == start.cells[0] + 1
    assert Turn(start, 4, 4, BACK).check(final) == "Checker still on 24: no bear-off"


def test_backwards_a_checker_back_on_the_7_point_is_outside_the_home_board_for_the_bear_off():
    # 4-4 with a checker on the bar: it must enter (bar/21) and stays outside, so nothing may be
    # borne off. Going 3/7 and back 7/3 on the way must not fool the count of checkers outside
    # (the 7 point is outside: an earlier count missed a step back onto it, and bar/21 4/off
    # passed as a play).
    start = Position.from_id("fz6CABA/9wAAIA")
    assert start.cells[25] == 1 and start.cells[3] == 3 and start.cells[4] == 4
    turn = Turn(start, 4, 4, BACK)
    final = bytearray(start.cells)
    final[25] -= 1
    final[21] += 1
    final[4] -= 1
    final[0] += 1
    assert not turn.is_legal(final)
    assert turn.check(Position(final)) is not None
    for play in turn.plays():
        c = play.position.cells
        assert not (c[0] > start.cells[0] and any(c[7:26])), str(play)


def test_backwards_a_blot_taken_off_first_may_be_hit_by_a_checker_stepping_back(tmp_path):
    # The hand takes the blot off before the hitter comes, as it does in the standard game; here
    # the hitter is in front of the blot and hits it going back (10/15*/16 with 5-1): not flagged.
    from test_companion_game import at

    h = Harness(tmp_path, openings=[(6, 1)])
    h.line("new length=3 variant=backwards")
    h.show()
    h.press(ROLL_W)
    start = Position.from_id("3DANwDjMzG4DAA")
    at(h, start, True, (5, 1))
    assert "10/15*/16" in [str(p) for p in h.c.match.turn.plays()]
    assert h.black[15] == 1 and h.white[10] >= 1
    h.lift("b", 15)  # the blot in the hand: the hitter is still to come
    h.put("b", 25)
    assert h.events("illegal") == [], h.events("illegal")
    h.move("w", 10, 15)
    h.move("w", 15, 16)
    assert h.events("illegal") == [], h.events("illegal")
    h.press(ROLL_W)
    assert h.events("play")[-1]["move"] == "10/15*/16"


def test_backwards_a_lifted_checker_lights_only_places_that_begin_a_legal_play():
    # Every lit place, the checker put there, must be a board some legal play passes through
    # (checked against the breadth-first boards). A checker borne off goes no further: with 6-6
    # and two checkers left on the 1 point, 6, 12 and 18 are no "step back from off".
    end = Position.from_id("DwAAYAAAAAAAAA")
    assert Turn(end, 6, 6, BACK).destinations(end, 1) == [0, 1, 7, 13, 19]
    for pos, d1, d2 in _backwards_positions(12, seed=8):
        turn = Turn(pos, d1, d2, BACK)
        ref = _reference_options(turn)
        for point in range(1, 26):
            if not pos.cells[point]:
                continue
            for t in turn.destinations(pos, point):
                mine = bytearray(pos.cells[:OPP])
                mine[point] -= 1
                mine[t] += 1
                # some play's board with the checker there (blots it passed may have been hit)
                assert any(b[:OPP] == mine and _only_blots_hit(pos.cells, b) for b in ref), (
                    pos.id(), d1, d2, point, t)


def _only_blots_hit(start, board):
    """The opponent's side of ``board`` is ``start``'s with some blots sent to the bar."""
    hits = 0
    for p in range(1, 25):
        if board[OPP + p] != start[OPP + p]:
            if start[OPP + p] != 1 or board[OPP + p]:
                return False
            hits += 1
    return board[OPP + 25] == start[OPP + 25] + hits
