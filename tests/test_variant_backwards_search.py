"""Backwards' own search (bgrules/variants/backwards.py, BackSearch) within the Pico's time: the
firmware image prepares a turn's answers in units cut off after 5 ms (companion.prepared), and on
the emulated Pico each node of this search (a walk step, a "can the rest still be played" check)
costs about a millisecond, so a question that walks many nodes is cut off and the hand's lift asks
the engine instead (20-36 ms). The answers must stay those of every play (test_variant_backwards.py
checks them against the plays the dice reach); these check the nodes walked, and that what the
search keeps between the questions of a turn never changes an answer, a search cut off included,
on CPython and on a real MicroPython alike."""

import pytest

from bgrules import Position, Turn
from bgrules.rules import ruleset
from firmware_script import run_on_cpython, run_on_micropython, seeded_random
from test_variant_backwards import _backwards_positions, _reference_options

BACK = ruleset("backwards")


class Cut(Exception):
    pass


def nodes(turn, ask):
    """The search nodes (calls of the search's stop hook, as companion.prepared's deadline sees
    them) that ``ask()`` walks, and its answer."""
    n = [0]

    def stop():
        n[0] += 1

    turn._s.stop = stop
    try:
        answer = ask()
        return n[0], answer
    finally:
        turn._s.stop = None


def _landed(cells, src, dst):
    c = bytearray(cells)
    c[src] -= 1
    c[dst] += 1
    return bytes(c)


def _begins_a_play(turn):
    """Every board that begins a legal play of the turn: the reference, every order of every step
    both ways (test_variant_backwards._reference_options)."""
    return set(_reference_options(turn))


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 6])
def test_backwards_a_lifted_checker_in_a_double_has_its_places_within_13_search_nodes(d):
    # The rule: after a step of a double on the board the same checker may step back with the
    # next die and out again, so the rest of the roll can always be played; the search checked
    # it by walking the rest (17-20 nodes a lift at the start, ~1 ms each on the Pico: cut off).
    start = BACK.start_position()
    turn = Turn(start, d, d, BACK)
    begins = _begins_a_play(turn)
    for point in (24, 13, 8, 6):
        walked, places = nodes(turn, lambda: turn.destinations(start, point))
        # the places (but its own: put back after a step out and back) are exactly those where
        # the lifted checker makes a board that begins a legal play
        assert set(places) - {point} == {t for t in range(25) if t != point and _landed(start.cells, point, t) in begins}, (d, point)
        assert walked <= 13, (d, point, walked)  # 17-20 when the rest was walked


def test_backwards_a_search_cut_off_midway_leaves_every_later_answer_as_a_fresh_turns():
    # companion.prepared cuts a search off at its deadline (an exception from the stop hook)
    # and asks other questions of the same turn after it: what the search keeps between
    # questions (the board a find measured, where the target has fewer checkers) must not carry
    # the cut walk's steps into them.
    start = BACK.start_position()
    for d1, d2 in ((3, 3), (6, 1), (1, 1), (5, 2)):
        fresh = Turn(start, d1, d2, BACK)
        boards = sorted(_begins_a_play(fresh))[:40]
        want = [fresh.locate(b) for b in boards]
        for cut_at in range(1, 7):
            turn = Turn(start, d1, d2, BACK)
            for i, b in enumerate(boards):
                n = [0]

                def stop():
                    n[0] += 1
                    if n[0] == cut_at:
                        raise Cut()

                turn._s.stop = stop
                try:
                    turn.locate(b)
                except Cut:
                    pass
                turn._s.stop = None
                assert turn.locate(b) == want[i], (d1, d2, cut_at, i)
                assert turn.locate(boards[i - 1]) == want[i - 1], (d1, d2, cut_at, i)


def _loads(turn, ask):
    """How many times ``ask()`` loads a board into the search (each is a loop over the board, and
    a search loads the start up to three times), and its answer."""
    s = turn._s
    n = [0]
    load = s.load

    def counted(cells):
        n[0] += 1
        load(cells)

    s.load = counted
    try:
        answer = ask()
        return n[0], answer
    finally:
        del s.load


def test_backwards_a_frame_that_bears_off_more_than_the_dice_can_is_refused_without_a_search():
    # The rule: a checker is borne off only with every checker home, so the checkers outside
    # home each take a die to come in before the first bear-off. The emulated Pico's slowest
    # Backwards lift (issue 33: 4-3, "10/6 4/1*", the 10 point's checker lifted in the frame the
    # hit was put down) read that checker as borne off first and searched ~1 ms to refuse it.
    start = BACK.start_position()
    positions = _backwards_positions(18, seed=5, every=3)
    positions.append((start, 4, 3))
    # bear-offs: every checker home, or one or two outside that a die or a double brings in
    for mover, rolls in (((0, 3, 3, 3, 2, 2, 2), ((6, 5), (2, 1), (3, 3))),
                         ((0, 2, 3, 3, 2, 2, 2, 0, 1), ((6, 2), (2, 1), (2, 2), (1, 1))),
                         ((0, 2, 2, 3, 2, 2, 2, 1, 0, 0, 1), ((4, 3), (4, 4), (6, 6)))):
        cells = bytearray(start.cells)
        cells[0:26] = bytes(26)
        cells[:len(mover)] = bytes(mover)
        cells[0] = 15 - sum(cells[1:26])
        positions += [(Position(cells), d1, d2) for d1, d2 in rolls]
    refused = answered = 0
    for pos, d1, d2 in positions:
        turn = Turn(pos, d1, d2, BACK)
        begins = _begins_a_play(turn)
        for src in range(1, 25):
            if not pos.cells[src]:
                continue
            off = bytearray(pos.cells)  # the checker of ``src`` read as borne off
            off[src] -= 1
            off[0] += 1
            loads, options = _loads(turn, lambda: turn.locate(off))
            # the reference: the boards every order of every step both ways begins a play with
            assert bool(options) == (bytes(off) in begins), (pos.cells, d1, d2, src)
            outside = sum(pos.cells[7:26])
            if outside + 1 > len(turn._orders[0]):
                assert loads == 0 and options == [], (pos.cells, d1, d2, src)
                refused += 1
            else:
                answered += 1
    assert refused > 100 and answered > 10  # (both kinds of board met)


SCRIPT = seeded_random(11) + """
from bgrules import Position, Turn
from bgrules.rules import ruleset
BACK = ruleset("backwards")

class Cut(Exception):
    pass

def cut_after(s, limit):
    n = [0]
    def stop():
        n[0] += 1
        if n[0] >= limit:
            raise Cut()
    s.stop = stop

pos = BACK.start_position()
for game_turn in range(14):
    d1 = rnd(6) + 1
    d2 = d1 if game_turn % 3 == 0 else rnd(6) + 1
    turn = Turn(pos, d1, d2, BACK)
    cells = bytearray(pos.cells)
    seen = []
    # boards the hand may make: the start, each checker moved a die forward or back
    probes = [bytes(cells)]
    for src in range(1, 26):
        if cells[src]:
            for t in (src - d1, src - d2, src + d1, src + d2):
                if 0 < t < 25 and src < 25:
                    c = bytearray(cells)
                    c[src] -= 1
                    c[t] += 1
                    probes.append(bytes(c))
    for i in range(len(probes)):
        b = probes[i]
        if i % 4 == 1:
            cut_after(turn._s, 1 + i % 5)
            try:
                turn.locate(b)
            except Cut:
                pass
            turn._s.stop = None
        opts = turn.locate(b)
        print(game_turn, d1, d2, i, sorted(opts))
        if opts:
            seen.append(b)
    for b in seen[:6]:
        for src in range(1, 26):
            if b[src]:
                print("D", src, turn.destinations(b, src))
    # the next turn: the probe that begins a play and moved most, from the other side
    nxt = seen[-1] if seen else bytes(cells)
    pos = Position(bytearray(nxt)).swapped()
print("end")
"""


def test_backwards_the_search_answers_alike_on_cpython_and_on_a_real_micropython(tmp_path):
    # The search uses bytearray.rfind and compares bytearrays: MicroPython's own (the Pico's
    # interpreter) must give the answers CPython gives, cut-off searches in between included.
    cpy = run_on_cpython(SCRIPT, str(tmp_path))
    assert cpy.rstrip().endswith("end") and cpy.count("\n") > 300
    assert run_on_micropython(SCRIPT) == cpy
