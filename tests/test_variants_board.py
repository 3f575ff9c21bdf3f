"""Each variant played to the end on the virtual board under MicroPython: the firmware chosen
with ``new length=1 variant=KEY`` over serial, the scripted players of test_sim_micropython
lifting and placing checkers cell by cell, under the real MicroPython with its collector on
(bgc.pico.upy); no false flag, a game end, and a journal that names
the variant and replays (on CPython) to the same winner."""

import os

import pytest

from bgc.pico import libs, upy
from bgrules.rules import VARIANTS, ruleset

import test_sim_micropython as base

ROOT = base.ROOT

pytestmark = pytest.mark.micropython


# With one roll for the whole game, the base test's choice (the smallest Position ID) can
# cycle for ever (4-1: hit and hit back); these players avoid hits, so the pips only go down.
NO_HITS_FIRST = ("fixedroll",)
# Hitting "opposite" (French Backgammon 2): the hit checker stands across the board; the players
# take it to the bar before they put the hitting checker down.
HIT_ACROSS = ("french2",)
# Games of 15 checkers entered from off the board are long (375 pips a side): players that
# avoid hits keep them to a couple of hundred turns.
NO_HITS_FIRST += ("puff", "longpuff", "russianpuff", "longrussianpuff", "french1", "russian", "aceydeucey",
                  "straight", "backwards")
# Players that may step back could wander for ever: these take the most progress first.
PROGRESS_FIRST = ("backwards",)


def _program(key):
    game = base.GAME
    rules = ruleset(key)
    # White is player 0, the mover of the start's first view (a variant's start may differ by side).
    cells = rules.start_position().cells

    def swap(old, new):
        nonlocal game
        assert game.count(old) == 1, old
        game = game.replace(old, new)

    swap("""for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    w[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    b[p] = n
""", """CELLS = %r
OPPOSITE = %r
for p in range(1, 25):
    w[p] = CELLS[p]
    b[OPPOSITE[p]] = CELLS[26 + p]
w[25] = CELLS[25]
b[25] = CELLS[51]
""" % (tuple(cells), tuple(rules.opposite)))
    # Black's points through the ruleset (the same way round in Straight, Long Puff, Russian).
    swap("    return p if colour == virtual.WHITE else 25 - p\n",
         "    return p if colour == virtual.WHITE else OPPOSITE[p]\n")
    swap('return "new length=1"', 'return "new length=1 variant=%s"' % key)
    # Checkers waiting off the board travel beside the Position ID ("wait" in the status); a
    # waiting checker is entered from beside the board, a hit one from the bar.
    swap('        turn = Turn(Position.from_id(st["pos"]), st["dice"][0], st["dice"][1])\n',
         '        pos = pinned(st)\n'
         '        turn = (RULES.turn or Turn)(pos, st["dice"][0], st["dice"][1], RULES)\n'
         '        bar = pos.cells[25]\n')
    swap("""            for a, b, hit in best.steps:
                take(board_point(a, colour), colour)
""", """            for a, b, hit in best.steps:
                if a == 25 and not bar:
                    board.hand = [colour, 0.0, 0.0, 40.0]  # from beside the board
                else:
                    bar -= a == 25
                    take(board_point(a, colour), colour)
""")
    swap("from bgrules import Position, Turn\n",
         "from bgrules import Position, Turn\nfrom bgrules.rules import ruleset\nRULES = ruleset(%r)\n" % key
         # Pin: whose checker is pinned on a point of both colours is in the status, not the ID
         + "def pinned(st):\n    pos = Position.from_id(st['pos'], RULES.opposite, RULES.pinning)\n"
           "    pos.set_waiting(*st.get('wait', (0, 0)))\n"
           "    pos.pinned = st.get('pinned', 0)\n    return pos\n")
    if key in HIT_ACROSS:
        swap("""            for a, b, hit in best.steps:
                if a == 25 and not bar:""", """            for a, b, hit in best.steps:
                if hit:
                    take(board_point(RULES.across[b], other), other)
                    put(25, other)
                    run(5)
                    hit = 0
                if a == 25 and not bar:""")
    if key in NO_HITS_FIRST:
        swap("""                if pl.position.id() < best.position.id():""",
             """                if (hits(pl), pl.position.id()) < (hits(best), best.position.id()):"""
             if key not in PROGRESS_FIRST else
             """                if (hits(pl), pl.position.pips()[0], pl.position.id()) < (hits(best), best.position.pips()[0], best.position.id()):""")
        swap("run(5)\nplayed = None", "def hits(pl):\n    return sum(s[2] for s in pl.steps)\n\nrun(5)\nplayed = None")
    if key in PROGRESS_FIRST:
        # Listing every play with backward steps (hundreds for a double) does not fit beside the
        # board's model in the guest's heap: the forward plays are legal whenever they use as
        # many dice as the turn allows, and only otherwise are the others listed.
        swap("        plays = turn.plays()\n",
             "        plays = Turn(pos, st[\"dice\"][0], st[\"dice\"][1]).plays()\n"
             "        if not plays or len(plays[0].steps) < turn.dice_to_play:\n"
             "            plays = turn.plays()\n")
    # Longer games than the base test's: keep only the recent events (status() reads the last
    # one), counting flags and game ends as they come, so the harness does not fill the heap.
    swap("""    def write_line(self, text):
        self.events.append(text)
""", """    def write_line(self, text):
        self.events.append(text)
        if '"illegal"' in text:
            Serial.flags += 1
        if '"match_end"' in text or '"game_end"' in text:
            Serial.ends.append(text)
        if len(self.events) > 200:
            del self.events[:100]
Serial.flags = 0
Serial.ends = []
""")
    swap("""for line in ser.events:
    if '"illegal"' in line:
        illegal += 1
    if '"match_end"' in line or '"game_end"' in line:
        print(line)
""", """illegal = Serial.flags
for line in Serial.ends:
    print(line)
""")
    # Asked which of two plays was made (a count on a stack of six or more the sensors cannot
    # tell), the player names its own: CUBE shows the next candidate, ROLL takes it.
    swap("""    elif ph == "ask":
        press("ROLL_W" if st["on_roll"] == 0 else "ROLL_B")
""", """    elif ph == "ask":
        asked += 1
        mine = st["msg"].split("\\n")[-1] == best.notation()
        press(("ROLL_" if mine or asked > 8 else "CUBE_") + ("W" if st["on_roll"] == 0 else "B"))
""")
    swap("        played = (st[\"game\"], st[\"pos\"], st[\"dice\"])\n",
         "        played = (st[\"game\"], st[\"pos\"], st[\"dice\"])\n        asked = 0\n")
    # A long game's journal is printed in pieces: one string of it would not fit the heap.
    swap('print(open("journal/m0001.jnl").read())\n',
         'f = open("journal/m0001.jnl")\nwhile True:\n    piece = f.read(1024)\n    if not piece:\n        break\n'
         '    print(piece, end="")\n')
    # Turns made of parts (bgrules.turn_parts): a double to choose, or the free-choice roll,
    # taken as the board offers it first (6-6, 6-5) with ROLL.
    swap("""    elif ph == "ask":
""", """    elif ph == "choose":
        press("ROLL_W" if st["on_roll"] == 0 else "ROLL_B")
    elif ph == "ask":
""")
    return game


# Doublets' towers need their own handling: tests/test_variant_doublets.py plays its whole game.
@pytest.mark.parametrize("key", [k for k in VARIANTS if k not in ("standard", "doublets")])
def test_a_whole_game_of_the_variant_on_the_virtual_board(key):
    sources = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host", "bgc", "board", "virtual"),
               os.path.join(ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    out = upy.run(_program(key), sources, heap_kb=base.BOARD_HEAP_KB)
    head, journal_text = out.split("JOURNAL\n", 1)
    assert '"match_end"' in head, head[-2000:]
    assert "illegal 0" in head, head[-2000:]
    from companion import journal as J
    from companion import recovery

    records, problem = J.parse(journal_text)
    assert problem is None
    assert records[0]["rules"] == key
    m = recovery.replay(records)
    assert m.rules is ruleset(key)
    assert m.phase == "matchover" and max(m.score) >= 1
    end = [r for r in records if r["a"] == "end"]
    assert len(end) == 1 and end[0]["winner"] == m.winner
