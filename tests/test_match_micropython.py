"""The same scripted match under MicroPython (the Pico's interpreter) and CPython: identical
journal of resume lines, so the firmware keeps score exactly as the host does."""

import pytest
from firmware_script import compile_with_mpy_cross, seeded_random

# Runs on both interpreters: no random module (the Pico's differs), a small LCG for the dice;
# each play is the legal play with the smallest Position ID, so the choice is the same on both.
SCRIPT = seeded_random(12345) + r"""
from bgrules.match import Match, MatchError, OPENING, ROLL, DOUBLED, PLAY, GAME_OVER, MATCH_OVER


def die():
    return rnd(6) + 1

m = Match(3, names=("Anna", "Bruno"))
out = []
refusals = []
steps = 0
while m.phase != MATCH_OVER and steps < 3000:
    steps += 1
    if m.phase == OPENING:
        m.opening_roll(die(), die())
    elif m.phase == ROLL:
        if rnd(5) == 0:
            try:
                m.double()
                continue
            except MatchError as e:
                refusals.append(str(e))
        if m.game == 1 and m.turns[0] + m.turns[1] == 6:
            m.resign(1, player=m.on_roll)
            m.accept()
            out.append(m.dumps())
            continue
        m.roll(die(), die())
    elif m.phase == DOUBLED:
        if rnd(3) == 0:
            m.drop()
            out.append(m.dumps())
        else:
            m.take()
    elif m.phase == PLAY:
        plays = m.turn.plays()
        if plays:
            best = plays[0]
            for p in plays:
                if p.position.id() < best.position.id():
                    best = p
            m.play(best)
        else:
            m.play(m.position)
        if m.phase in (GAME_OVER, MATCH_OVER):
            out.append(m.dumps())
    elif m.phase == GAME_OVER:
        m.next_game()
        out.append(m.match_id())
for line in out:
    print(line)
print("refused", sorted(set(refusals)))
print("winner", m.winner, m.score, m.game, steps)
print("resume", Match.loads(m.dumps()).dumps() == m.dumps())
"""


def run_cpython():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SCRIPT, {"__name__": "script"})
    return buf.getvalue()


@pytest.mark.micropython
def test_scripted_match_scores_the_same_under_micropython_and_cpython():
    from bgc.pico.upy import run

    expected = run_cpython()
    assert "winner" in expected and "resume True" in expected
    assert run(SCRIPT) == expected


def test_scripted_match_reaches_a_winner_on_cpython():
    out = run_cpython()
    winner = [line for line in out.splitlines() if line.startswith("winner")][0]
    assert winner.split()[1] in ("0", "1")
    assert "[3," in winner or ", 3]" in winner


def test_match_modules_compile_with_mpy_cross(tmp_path):
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name in ("match.py", "matchid.py"):
        assert os.path.getsize(compile_with_mpy_cross(os.path.join(root, "firmware", "bgrules", name), tmp_path)) > 0
