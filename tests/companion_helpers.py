"""Helpers for the companion tests: classifier frames built from positions, forced dice, a
Companion with its journal in a temporary directory."""
import os

from bgc.board.virtual.frames import ideal_frame
from bgrules.position import OPP, Position
from companion.controller import Companion, ROLL_W, CUBE_W, ROLL_B, CUBE_B, SHORT, LONG
from companion.store import Store


def position_from_random_play(rng, most_turns=60):
    """A position reached by random legal play from the start (the mover on roll), or None when
    the walk ended a game (the board player's tests take the game's middle and its end alike)."""
    from bgrules.turn import Turn

    pos = Position.start()
    for _ in range(rng.randint(2, most_turns)):
        plays = Turn(pos, rng.randint(1, 6), rng.randint(1, 6)).plays()
        if plays:
            pos = rng.choice(plays).position
        if pos.cells[0] == 15:
            break
        pos = pos.swapped()
    return pos if pos.cells[0] < 15 and pos.cells[26] < 15 else None


def board_of(pos, white_on_roll=True):
    """(white, black): lists of 26 counts by board point (white's numbering 1..24); index 25
    is that colour's bar."""
    c = pos.cells
    white = [0] * 26
    black = [0] * 26
    wb, bb = (0, OPP) if white_on_roll else (OPP, 0)
    for p in range(1, 25):
        white[p] = c[wb + p]
        black[p] = c[bb + 25 - p]
    white[25] = c[wb + 25]
    black[25] = c[bb + 25]
    return white, black


def frame_pos(pos, white_on_roll=True, stack_flags=True):
    w, b = board_of(pos, white_on_roll)
    return ideal_frame(w, b, stack_flags)



def _colour_names():
    """The LED codes' names: the controller's, then the computer's play (companion.phase_computer)."""
    from companion.controller import COLOUR_NAMES
    from companion.phase_computer import GNU_COLOUR_NAMES

    return COLOUR_NAMES + GNU_COLOUR_NAMES

class ForcedDice:
    """Dice from a script: ``rolls`` for roll(), ``openings`` for first_roll()."""

    def __init__(self, rolls=(), openings=()):
        self.rolls = list(rolls)
        self.openings = list(openings)

    def roll(self):
        return self.rolls.pop(0)

    def first_roll(self):
        return self.openings.pop(0)


class FakeFs:
    """os-like file system calls on a real directory, with a settable free space."""

    def __init__(self, free=10 ** 6):
        self.free_bytes = free

    def mkdir(self, p):
        os.makedirs(p)

    def listdir(self, p):
        return os.listdir(p)

    def stat(self, p):
        return os.stat(p)

    def rmdir(self, p):
        os.rmdir(p)

    def remove(self, p):
        self.free_bytes += os.stat(p).st_size
        os.remove(p)

    def rename(self, a, b):
        os.replace(a, b)

    def statvfs(self, p):
        return (1, 1, 1, self.free_bytes, 0, 0, 0, 0, 0, 0)


class Harness:
    """A Companion driven like main.py drives it, with the board kept as white/black counts."""

    def __init__(self, tmp, rolls=(), openings=(), fs=None, boot=True):
        self.dir = os.path.join(str(tmp), "journal")
        self.fs = fs or FakeFs()
        self.dice = ForcedDice(rolls, openings)
        self.c = Companion(Store(self.dir, self.fs), self.dice)
        self.now = 0
        self.white = [0] * 26
        self.black = [0] * 26
        self.set_pos(Position.start())
        if boot:
            self.c.boot(self.frame(), self.now)

    def frame(self):
        return ideal_frame(self.white, self.black)

    def set_pos(self, pos, white_on_roll=True):
        self.white, self.black = board_of(pos, white_on_roll)

    def show(self):
        """The board changed: give the controller the new stable frame."""
        self.now += 30
        self.c.on_frame(self.frame(), self.now)

    def move(self, colour, src, dst, show=True):
        """Move one checker (board points, white's numbering; 25 = bar, 0 = off)."""
        side = self.white if colour == "w" else self.black
        if src != 0:
            assert side[src] > 0, "no %s checker on %d" % (colour, src)
            side[src] -= 1
        if dst != 0:
            side[dst] += 1
        if show:
            self.show()

    def lift(self, colour, src):
        self.move(colour, src, 0)

    def put(self, colour, dst):
        self.move(colour, 0, dst)

    def press(self, button, kind=SHORT):
        self.now += 100
        self.c.on_button(button, kind, self.now)

    def line(self, text):
        self.now += 10
        self.c.on_line(text, self.now)

    def events(self, ev=None):
        import json

        out = [json.loads(x) for x in self.c.fx.out]
        return [e for e in out if ev is None or e["ev"] == ev]

    def clear(self):
        self.c.fx.out.clear()

    def led(self, point):
        from companion.controller import led_index

        return _colour_names()[self.c.fx.leds[led_index(point)]]

    def leds(self, colour):
        names = _colour_names()
        out = []
        for p in range(0, 26):
            from companion.controller import led_index

            if names[self.c.fx.leds[led_index(p)]] == colour:
                out.append(p)
        return sorted(out)

    def screen(self):
        return "\n".join(self.c.fx.screen)

    def journal(self):
        from companion import journal as J

        return J.Journal(os.path.join(self.dir, self.c.name)).read()

    def start_match(self, **settings):
        s = {"length": 5}
        s.update(settings)
        err = self.c.new_match(s, True)
        assert err is None, err
        self.show()
