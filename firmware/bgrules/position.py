# A backgammon position seen from the player on roll (the mover), as GNU Backgammon sees it.
#
# Cells live in one bytearray of 52 so that the move search can change them in place:
#   cells[0]        mover's checkers borne off
#   cells[1..24]    mover's checkers on points 1..24 (mover's own numbering, 1 = ace point)
#   cells[25]       mover's checkers on the bar
#   cells[26 + i]   the opponent's checkers, same layout in the opponent's own numbering
# In the standard game the mover's point p is the opponent's point 25 - p (a variant's
# Rules.opposite says otherwise, e.g. both sides moving the same way).
# Checkers waiting off the board to be entered (bgrules/variants/entering.py) are neither on
# the board nor off: cells[0] then counts only the borne-off ones, and the waiting ones are the rest of 15
# (``waiting``). The Position ID holds points and bar only, so it does not tell waiting checkers
# from borne-off ones: where waiting checkers exist their count travels beside the ID.

import binascii

MOVER = 0
OPP = 26
OFF = 0
BAR = 25
CHECKERS = 15

_START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class PositionError(ValueError):
    """A position that cannot exist, or a Position ID that does not decode."""


class Position:
    """Both sides' checkers; the mover is the player on roll (the second half of the Position ID)."""

    # Pin: bit p set when the mover's checker on point p is the one pinned there (not in the ID)
    pinned = 0

    def __init__(self, cells=None):
        if cells is None:
            self.cells = bytearray(52)
        else:
            if len(cells) != 52:
                raise PositionError("a position has 52 cells, got %d" % len(cells))
            self.cells = bytearray(cells)

    # --- construction -------------------------------------------------------------------

    @classmethod
    def start(cls, layout=None):
        """The standard start (or the given 26-entry layout for both sides)."""
        layout = layout or _START
        pos = cls()
        for i in range(1, 26):
            pos.cells[i] = layout[i]
            pos.cells[OPP + i] = layout[i]
        pos._derive_off()
        return pos

    @classmethod
    def from_points(cls, mover, opponent, mover_bar=0, opponent_bar=0, check=True):
        """From two 24-entry lists of checker counts on points 1..24, each in its owner's numbering."""
        if len(mover) != 24 or len(opponent) != 24:
            raise PositionError("give 24 point counts for each side")
        pos = cls()
        c = pos.cells
        for i in range(24):
            if mover[i] < 0 or opponent[i] < 0:
                raise PositionError("a point cannot hold a negative number of checkers")
            c[1 + i] = mover[i]
            c[OPP + 1 + i] = opponent[i]
        c[BAR] = mover_bar
        c[OPP + BAR] = opponent_bar
        pos._derive_off()
        if check:
            pos.validate()
        return pos

    @classmethod
    def from_id(cls, position_id, opposite=None, pins=False):
        """Decode a GNU Backgammon Position ID (14 characters of base64); ``opposite``: the
        ruleset's track (Rules.opposite) for the check that no point holds both colours;
        ``pins``: a point may hold both colours (Pin)."""
        if not isinstance(position_id, str) or len(position_id) != 14:
            raise PositionError("a Position ID has 14 characters: %r" % (position_id,))
        try:
            key = binascii.a2b_base64(position_id + "==")
        except Exception:
            raise PositionError("not a Position ID (bad base64): %r" % position_id)
        if len(key) != 10:
            raise PositionError("not a Position ID: %r" % position_id)
        pos = cls()
        c = pos.cells
        # GNU Backgammon writes the opponent first, then the player on roll; for each of the 25
        # places (points 1..24, then the bar) as many 1 bits as checkers, then a 0 bit.
        side = OPP
        place = 1
        count = 0
        for bit in range(80):
            if key[bit >> 3] >> (bit & 7) & 1:
                count += 1
                if count > CHECKERS:
                    raise PositionError("not a Position ID (a side has more than 15 checkers): %r" % position_id)
            else:
                c[side + place] = count
                count = 0
                place += 1
                if place == 26:
                    if side == MOVER:
                        break
                    side = MOVER
                    place = 1
        else:
            raise PositionError("not a Position ID (too few fields): %r" % position_id)
        pos._derive_off()
        pos.validate(opposite, pins)
        return pos

    def _derive_off(self):
        # Borne-off checkers are not in the ID or on the sensors: they are counted by conservation.
        c = self.cells
        for side in (MOVER, OPP):
            on_board = 0
            for i in range(1, 26):
                on_board += c[side + i]
            c[side + OFF] = CHECKERS - on_board if on_board <= CHECKERS else 0

    # --- checks ---------------------------------------------------------------------------

    def problem(self, names=("White", "Black"), opposite=None, checkers=CHECKERS, pins=False, wait=0):
        """What makes this position impossible, in a few words; None when it is possible.

        ``names`` are the mover's and the opponent's names for the message; ``opposite`` maps the
        mover's point to the opponent's number for the same point (standard: 25 - p); a variant
        with fewer ``checkers`` a side counts the others as borne off from the start; with ``pins``
        a point may hold a single checker of one colour pinned under the other (Pin); with
        ``wait`` (Rules.waiting) checkers may wait off the board while none is borne off.
        """
        c = self.cells
        for side, name in ((MOVER, names[0]), (OPP, names[1])):
            total = c[side + OFF]
            on = 0
            for i in range(1, 26):
                on += c[side + i]
            total += on
            if total != CHECKERS and not (wait and total < CHECKERS and c[side + OFF] == CHECKERS - checkers):
                return "%s has %d checkers" % (name, total)
            if on > checkers:
                return "%s has %d checkers" % (name, on)
        for p in range(1, 25):
            q = opposite[p] if opposite else 25 - p
            if c[p] and c[OPP + q] and not (pins and (c[p] == 1 or c[OPP + q] == 1)):
                return "Both colours on point %d" % p
        return None

    def validate(self, opposite=None, pins=False):
        reason = self.problem(("The player on roll", "The opponent"), opposite, CHECKERS, pins)
        if reason:
            raise PositionError(reason)
        return self

    # --- the ID ---------------------------------------------------------------------------

    def key(self):
        """The 10-byte GNU Backgammon position key."""
        key = bytearray(10)
        c = self.cells
        bit = 0
        for side in (OPP, MOVER):
            for place in range(1, 26):
                for _ in range(c[side + place]):
                    key[bit >> 3] |= 1 << (bit & 7)
                    bit += 1
                bit += 1
        return bytes(key)

    def id(self):
        """The GNU Backgammon Position ID, e.g. '4HPwATDgc/ABMA' for the start."""
        return binascii.b2a_base64(self.key()).decode()[:14]

    # --- queries --------------------------------------------------------------------------

    def mover(self, place):
        """The mover's checkers at ``place`` (0 off, 1..24 points, 25 bar)."""
        return self.cells[place]

    def opponent(self, place):
        """The opponent's checkers at ``place`` in the opponent's numbering."""
        return self.cells[OPP + place]

    def pips(self):
        """Pip counts (mover, opponent); a checker on the bar, or waiting to enter, counts 25."""
        c = self.cells
        mine = 25 * waiting(c, MOVER)
        theirs = 25 * waiting(c, OPP)
        for i in range(1, 26):
            mine += i * c[i]
            theirs += i * c[OPP + i]
        return mine, theirs

    def set_waiting(self, mover, opponent):
        """The position with ``mover`` and ``opponent`` checkers waiting off the board (the
        Position ID counts them as borne off); returns self."""
        c = self.cells
        if not (0 <= mover <= c[OFF] and 0 <= opponent <= c[OPP + OFF]):
            raise PositionError("more checkers waiting than off the board")
        c[OFF] -= mover
        c[OPP + OFF] -= opponent
        return self

    def swapped(self):
        """The same position from the opponent's side: the turn passes."""
        pos = Position()
        pos.cells[0:26] = self.cells[26:52]
        pos.cells[26:52] = self.cells[0:26]
        return pos

    def copy(self):
        return Position(self.cells)

    def result(self, opposite=None, checkers=CHECKERS):
        """0 while the game goes on; +1/+2/+3 when the mover has won a single game, gammon or
        backgammon; -1/-2/-3 when the opponent has (a game of fewer ``checkers`` a side counts
        the others as borne off from the start)."""
        c = self.cells
        if c[OFF] == CHECKERS:
            return _win_kind(c, OPP, opposite, True, CHECKERS - checkers)
        if c[OPP + OFF] == CHECKERS:
            return -_win_kind(c, MOVER, opposite, False, CHECKERS - checkers)
        return 0

    def __eq__(self, other):
        return isinstance(other, Position) and self.cells == other.cells

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(bytes(self.cells))

    def __repr__(self):
        return "Position(%r)" % self.id()

    def __str__(self):
        return self.id()


def waiting(cells, side=MOVER):
    """Checkers of ``side`` (MOVER or OPP) waiting off the board to be entered."""
    n = CHECKERS - cells[side + OFF]
    for i in range(1, 26):
        n -= cells[side + i]
    return n


def _win_kind(c, loser, opposite, loser_is_opponent, absent=0):
    if c[loser + OFF] > absent:
        return 1
    if c[loser + BAR] or waiting(c, loser):
        return 3
    # Backgammon: a loser's checker still in the last quarter of its own track, its points
    # 19..24: the winner's home board when the two move against each other (the standard
    # game), the start quarter of both when they move the same way (docs/variants.md).
    for q in range(19, 25):
        if c[loser + q]:
            return 3
    return 2
