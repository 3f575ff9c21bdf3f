# Turn's interface for games whose few legal plays are listed outright (Catch me, Doublets): a
# play is its steps (from, to, hit) and the cells after each step; what the board asks (locate,
# destinations, is_legal, play_to, plays) is answered from that list. Imported only by them.
from bgrules.position import OPP, Position
from bgrules.rules import Rules
from bgrules.notation import Play


def cells_of(position):
    return bytes(position.cells if isinstance(position, Position) else position)


class ListedTurn:
    """Subclasses set ``_plays`` = [(steps, [cells after each step])] in ``_list`` and give
    ``check`` its words for what breaks a rule."""

    def __init__(self, start, d1, d2, rules=None, names=("White", "Black")):
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise ValueError("dice are 1 to 6, got %d-%d" % (d1, d2))
        self.start = start
        self.rules = rules
        self.names = names
        self.d1 = max(d1, d2)
        self.d2 = min(d1, d2)
        self.double = d1 == d2
        self._plays = self._list(start.cells)
        self.dice_to_play = 2 if self._plays else 0

    def _walk(self, c, steps, step):
        """(steps with their hits, cells after each) for ``steps`` [(from, to)] applied by
        ``step(cells, from, to)`` (which returns the hit flag)."""
        w = bytearray(c)
        out = []
        after = []
        for a, b in steps:
            out.append((a, b, step(w, a, b)))
            after.append(bytes(w))
        return tuple(out), after

    def locate(self, position):
        cells = cells_of(position)
        if cells == bytes(self.start.cells):
            return [bytes((self.d1, self.d2)) if self._plays else b""]
        for steps, after in self._plays:
            if cells == after[-1]:
                return [b""]
            if cells in after:
                return [bytes((self.d1, self.d2))]
        return []

    def destinations(self, position, point, options=None):
        cells = cells_of(position)
        out = []
        for steps, after in self._plays:
            before = [bytes(self.start.cells)] + after[:-1]
            for i in range(len(steps)):
                if cells == before[i] and steps[i][0] == point:
                    for a, b, hit in steps[i:]:
                        if b not in out:
                            out.append(b)
                if cells == after[i] and steps[i][1] == point and steps[i][0] not in out:
                    out.append(steps[i][0])  # a step back
        out.sort()
        return out

    def play_to(self, final):
        cells = cells_of(final)
        if not self._plays:
            return Play((), Position(cells)) if cells == bytes(self.start.cells) else None
        for steps, after in self._plays:
            if cells == after[-1]:
                return Play(steps, Position(cells))
        return None

    def is_legal(self, final):
        return self.play_to(final) is not None

    def plays(self):
        out = []
        seen = []
        for steps, after in self._plays:
            if after[-1] not in seen:
                seen.append(after[-1])
                out.append(Play(steps, Position(after[-1])))
        return out


class EmptyLoses(Rules):
    """The game ends when a side has no checker left on the points, and the mover has won:
    Catch me's opponent has lost the last checker, Doublets' mover has borne off the last."""

    def result(self, start, final):
        c = final.cells
        for side in (0, OPP):
            if not any(c[side + 1:side + 25]):
                return 1
        return 0
