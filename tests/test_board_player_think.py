"""The board's own player thinks in slices (boardplayer.player.Player.think, companion.phase_computer.think;
docs/board-player.md, "While it thinks"): a few plays valued per loop step, so the board goes on
answering the person (the tracker's verdicts on the LEDs and the OLED, the buttons) while it
thinks, and the play it chooses is the best of every legal play, as if it had thought at once.
The reference for "every legal play" is the rules engine's own list (Turn.plays(), checked against
GNU Backgammon's move generator in tests/test_rules_*); the same script runs under CPython and a
real MicroPython."""

import random

import pytest

from bgrules.match import Match
from bgrules.matchid import MatchKey
from bgrules.position import Position
from bgrules.turn import Turn
from boardplayer import player as P
from companion_helpers import board_of, position_from_random_play
from firmware_script import run_on_cpython


def _positions(n, seed):
    """(position, d1, d2) from random play, the mover on roll, doubles and non-doubles alike."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = position_from_random_play(rng, 50)
        if pos is not None:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if rng.random() < 0.3:
                d2 = d1
            out.append((pos, d1, d2))
    return out


def _best_of_every_play(pl, m):
    """The highest value (the player's own, with its level's noise) over the rules engine's list
    of the turn's legal plays, and how many of them needed the net (a play that does not end
    the game)."""
    pl.begin(m)  # the match's outcome values for value_after
    best = None
    evaluated = 0
    for play in m.turn.plays():
        c = play.position.cells
        v = pl.value_after(c)
        evaluated += c[0] != 15
        if pl.noise:
            v += pl.noise * P._noise(c, pl.seed)
        if best is None or v > best:
            best = v
    pl.turn = None  # the search begun above is dropped
    return best, evaluated


@pytest.mark.parametrize("level", ["expert", "beginner"])
def test_the_play_thought_in_slices_is_the_best_of_every_legal_play_each_valued_once(level):
    rng = random.Random(2)
    pl = P.Player(level, 7)
    slices_of_a_double = 0
    for pos, d1, d2 in _positions(60, 5):
        length, score = rng.choice(((0, [0, 0]), (5, [2, 3]), (7, [6, 4])))
        m = Match(length=length)
        m.turn = Turn(pos, d1, d2)
        m.score, m.on_roll = score, 0
        best, evaluated = _best_of_every_play(pl, m)
        for slice_ in (1, 3, P.SLICE, 10 ** 6):
            ev = pl.evaluations
            slices = 0
            if pl.begin(m):
                slices = 1
                while not pl.think(slice_):
                    slices += 1
                    # no slice values more plays than it is given
                    assert pl.evaluations - ev <= slice_ * slices
            final = pl.choice
            valued = pl.evaluations - ev
            if best is None:
                assert final is None and slices == 0  # nothing can be played
                continue
            assert pl.turn is m.turn
            assert Turn(pos, d1, d2).is_legal(final)
            pl.begin(m)
            assert abs(pl.value_after(final) + (pl.noise * P._noise(final, pl.seed) if pl.noise else 0) - best) < 1e-12
            pl.turn = None
            # each legal play valued once: no play reached in both orders of the dice valued twice
            assert valued == evaluated
            if slice_ == 1 and d1 == d2:
                slices_of_a_double = max(slices_of_a_double, slices)
        # the same as the whole search at once, in one call
        assert pl.choose(m) == final
    assert slices_of_a_double > 20  # a double with many plays took many slices


def test_a_new_turn_while_thinking_starts_the_search_again():
    pl = P.Player("expert")
    pos, _, _ = _positions(1, 8)[0]
    m = Match(length=0)
    m.turn = Turn(pos, 1, 1)
    m.on_roll = 0
    assert pl.begin(m) and not pl.think(1)
    m2 = Match(length=0)
    m2.turn = Turn(pos, 6, 5)
    m2.on_roll = 0
    want = P.Player("expert").choose(m2)
    assert pl.begin(m2)
    while not pl.think():
        pass
    assert pl.choice == want and pl.turn is m2.turn


# The board (Black) thinks about 1-1 in a middle-game position with hundreds of plays, in a
# 5-point match set up by `new pos= mid=`; while it thinks, a Black checker put on a White point is
# flagged at once (the `illegal` event, the OLED's words) and put back, and the thinking goes on;
# the play it shows is the best of the rules engine's list.
SCRIPT = r"""
import json
from bgrules.position import Position
from bgrules.turn import Turn
from boardplayer import player as P
from companion.controller import Companion
from companion.store import Store
from virtual.frames import ideal_frame

class Dice:
    def roll(self):
        return (6, 4)
    def first_roll(self):
        return (6, 1)

W0 = [0] * 26
B0 = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    W0[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    B0[p] = n
W = %(W)r
B = %(B)r
c = Companion(Store("."), Dice())
c.boot(ideal_frame(W0, B0), 0)
c.on_line("new pos=%(pos)s mid=%(mid)s length=5 force=1", 10)
c.on_frame(ideal_frame(W, B), 40)
c.on_line("gnu side=1 engine=board", 50)
print("ready", c.phase, c.match.on_roll, c.match.dice)

def events(kind):
    return [json.loads(x) for x in c.fx.out if json.loads(x)["ev"] == kind]

pl = c.gnu_player
now = 100
ticks = 0
most = 0
answered = None
while c.gnu is None and ticks < 1000:
    ev = pl.evaluations
    now += 10
    c.tick(now)
    ticks += 1
    most = max(most, pl.evaluations - ev)
    if ticks == 5:
        # the person puts a Black checker on a point White holds, while the board thinks
        c.fx.out = []
        B[%(src)d] -= 1
        B[%(dst)d] += 1
        c.on_frame(ideal_frame(W, B), now + 1)
        answered = (c.gnu is None, [e["reason"] for e in events("illegal")], c.fx.screen[-1] if c.fx.screen else "")
        B[%(dst)d] -= 1
        B[%(src)d] += 1
        c.on_frame(ideal_frame(W, B), now + 2)
print("answered while thinking", answered)
print("slices", ticks > 50, "most plays valued in a step", most <= P.SLICE)
m = c.match
turn = m.turn
ref = P.Player("expert")
ref.begin(m)
best = max(ref.value_after(p.position.cells) for p in turn.plays())
print("best", abs(ref.value_after(c.gnu.final) - best) < 1e-9, turn.is_legal(c.gnu.final))
print("shown", [e["move"] for e in events("gnu")] == [c.gnu.text])
"""


def script():
    pos = Position.from_id("4BYPETjaEDNAKw")  # Black's view: 429 plays of 1-1
    mid = MatchKey(on_roll=1, dice=(1, 1), length=5).id()
    white, black = board_of(pos, white_on_roll=False)
    # a Black checker (Black's point src) to a point White holds with two or more (dst)
    src = next(p for p in range(24, 0, -1) if black[p])
    dst = next(p for p in range(1, 25) if white[p] >= 2 and abs(p - src) < 6)
    return SCRIPT % {"W": white, "B": black, "pos": pos.id(), "mid": mid, "src": src, "dst": dst}


def _check(lines):
    assert lines[0] == "ready moving 1 (1, 1)", lines
    flag = lines[1]
    assert flag.startswith("answered while thinking (True, ['"), flag  # flagged, the board still thinking
    assert lines[2:] == ["slices True most plays valued in a step True", "best True True", "shown True"], lines


def test_the_board_answers_the_person_while_it_thinks_on_cpython(tmp_path):
    _check(run_on_cpython(script(), tmp_path).splitlines())


@pytest.mark.micropython
def test_the_board_answers_the_person_while_it_thinks_under_micropython():
    # the firmware's sources compiled in the heap (on a Pico they are frozen or .mpy): twice a
    # Pico's heap for the compiler, the player and the controller together
    from bgc.pico.upy import run
    from bgc import FIRMWARE_DIR
    from firmware_script import VIRTUAL

    _check(run(script(), sources=[FIRMWARE_DIR, VIRTUAL], heap_kb=480).splitlines())


# main.App's loop on the virtual board under MicroPython while the board thinks about the same
# 1-1: its garbage (floats, ~600 bytes an evaluation) is collected as it goes (every
# main.GC_THINKING_EVALUATIONS evaluations), so the free heap in play stays within that garbage of
# where a collection leaves it, instead of sinking to the quiet loop's GC_LOW_FREE.
LOOP = r"""
import virtual
board = virtual.install(seed=5, drift_lsb_per_s=0)
board.clock.listeners.remove(board._on_time)  # no drift: the physics only when a checker moves
board.set_points(%(W)r, %(B)r)
import gc
import main
from boardplayer import player as P

class Serial:
    lines = ["new pos=%(pos)s mid=%(mid)s length=5 force=1", "gnu side=1 engine=board"]
    def read_line(self):
        return self.lines.pop(0) if self.lines else None
    def write_line(self, text):
        pass

class Dice:
    def roll(self):
        return (6, 4)
    def first_roll(self):
        return (6, 1)

app = main.build(journal_dir="journal", serial=Serial(), dice=Dice(), buzzer=False)
c = app.companion
clock = board.clock

def step():
    app.step(clock.ticks_ms())
    clock.advance_ms(10)

for _ in range(300):
    step()
    app.collect_if_due()
    if c.gnu_player is not None and c.gnu_player.thinking():
        break
app.collect()
first = app.collections
free0 = gc.mem_free()
least = free0
most_step = 0
steps = 0
while c.gnu is None and steps < 1000:
    a = gc.mem_alloc()
    step()
    steps += 1
    most_step = max(most_step, gc.mem_alloc() - a)
    least = min(least, gc.mem_free())
    app.collect_if_due()
print("THOUGHT", c.gnu is not None, steps > 50)
print("COLLECTIONS", app.collections - first)
# a collection at least every GC_THINKING_EVALUATIONS / SLICE + 1 steps: the garbage of that many
# steps (and the step that collects) at most
print("DIP", free0 - least, (main.GC_THINKING_EVALUATIONS // P.SLICE + 2) * most_step)
"""


@pytest.mark.micropython
def test_the_loop_collects_the_thinkings_garbage_as_it_goes_under_micropython():
    import os

    from bgc import FIRMWARE_DIR
    from bgc.pico import libs
    from bgc.pico.upy import run
    from firmware_script import ROOT, VIRTUAL

    pos = Position.from_id("4BYPETjaEDNAKw")
    white, black = board_of(pos, white_on_roll=False)
    sources = [FIRMWARE_DIR, VIRTUAL, os.path.join(ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    code = LOOP % {"W": white, "B": black, "pos": pos.id(), "mid": MatchKey(on_roll=1, dice=(1, 1), length=5).id()}
    out = run(code, sources=sources, heap_kb=1024).splitlines()
    assert "THOUGHT True True" in out, out
    got = dict((line.split()[0], [int(x) for x in line.split()[1:]]) for line in out if line[:3] in ("COL", "DIP"))
    # 429 plays of ~600 bytes each: several collections while it thinks, none needed to be automatic
    assert got["COLLECTIONS"][0] >= 3, out
    dip, bound = got["DIP"]
    assert dip <= bound, out
