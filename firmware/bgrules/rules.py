# The ruleset seam: the move search reads every rule that differs between variants from here.
#
# The search itself never changes for a variant; a variant is a Rules object with a different
# start, a different mapping of the mover's points onto the opponent's, or different switches.


class Rules:
    """The parameters of a backgammon game that the move search honours.

    name             what players call the game
    start            26 entries: checkers on points 1..24 (index 1..24) and the bar (25), the same
                     for both players in their own numbering
    opposite         bytes(26): the opponent's number for the mover's point p (standard 25 - p)
    block            opposing checkers that close a point (2; 1 in games without hitting)
    hitting          a single opposing checker is hit and sent to the bar
    bar_first        every checker on the bar must enter before another checker moves
    bear_off_higher  a die larger than needed bears off from the highest point when no checker
                     stands higher
    max_dice         as many dice as possible must be played; if only one die, the larger
    """

    def __init__(self, name, start, opposite=None, block=2, hitting=True, bar_first=True,
                 bear_off_higher=True, max_dice=True):
        self.name = name
        self.start = tuple(start)
        if opposite is None:
            opposite = bytes([0] + [25 - p for p in range(1, 25)] + [0])
        self.opposite = bytes(opposite)
        self.block = block
        self.hitting = hitting and block > 1
        self.bar_first = bar_first
        self.bear_off_higher = bear_off_higher
        self.max_dice = max_dice

    def start_position(self):
        from bgrules.position import Position

        return Position.start(self.start)

    def __repr__(self):
        return "Rules(%r)" % self.name


STANDARD = Rules("Backgammon", (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0))

# Nackgammon (Nick Ball's variant): the standard rules from a start with a back point more.
NACKGAMMON = Rules("Nackgammon", (0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0))

RULESETS = {"standard": STANDARD, "nackgammon": NACKGAMMON}
