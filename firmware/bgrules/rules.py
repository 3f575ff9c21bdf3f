# The ruleset seam: the move search reads every rule that differs between variants from here.
#
# A variant is a Rules object with a different start, a different mapping of the mover's points
# onto the opponent's, or different switches. A rule the standard search cannot express lives in a
# subclass of turn._Search named by ``search``, in the variant's own module under bgrules/variants/,
# so that the standard game's search stays as it is and the Pico imports only the chosen ruleset.

from bgrules.position import OPP, BAR


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
    key              the ruleset's name in journals, on the serial line and in ``bgc --variant``
    checkers         checkers a side (Hypergammon 3); the others count as borne off from the start
    larger_forced    when only one die can be played, it must be the larger (Old Britain: either)
    cube             the doubling cube is used
    gammons          gammons and backgammons count (else every game is single)
    backgammons      a backgammon counts 3 (else 2, as a gammon); most() the most a game counts
    last_out_wins    Reverse: the player who bears off the last checker first loses
    hit_loses        No hitting: a player who hits loses the game at once
    fixed_roll       Fixed roll: the opening roll is every roll of the game
    open_roll        Open roll: each roll is made before the opponent's play, so they see it
    search           a subclass of turn._Search for rules the standard search does not know
    smaller_first    the smaller die must be played first; if it cannot be, the larger is lost too
    doubles          how a double is played: "four" (standard), "once", "underside",
                     "underside_roll", "underside_roll_strict", "rising", "roll_again",
                     "once_again" (Catch me, Doublets: once, as an ordinary roll, then the same
                     player rolls again whether or not it could be played) (docs/variants.md)
    acey_deucey      the 1-2 roll: None, "play" (Acey Deucey) or "skip" (Mexican)
    free_choice      Double against free choice
    waiting          checkers a side that start off the board and are entered (Puff, French 1,
                     Acey Deucey: 15); they enter as a hit checker does, die d on the mover's
                     point 25 - d, and wait beside the board, unsensed (bgrules/variants/entering.py)
    enter_first      of the waiting checkers, how many must be entered before a checker on the
                     board may move (15: all, as from the bar; Russian Puff 2; Acey Deucey 0).
                     Hit checkers on the bar always enter before anything else, waiting ones too
    start_black      the start of black (player 1) in its own numbering when it is not
                     ``start`` (Straight); ``start`` is then white's (player 0)
    backwards        a die may also move a checker backwards (Backwards; its search is
                     variants/backwards.py)
    checker_points   the winner scores a point for each of the loser's checkers not borne off
                     (Acey Deucey), instead of 1, 2 or 3 times the cube
    opening          None: the two single dice of the opening roll are the first move (the
                     standard game); "reroll": the higher die only says who starts, and that
                     player rolls both dice; from a match's second game on, the last game's
                     winner starts, with no opening roll (Tavli's games, Long Nardy)
    cycle            a match of several games in turn (Tavli): the keys of the rulesets played,
                     game n of the match with cycle[(n - 1) % len(cycle)] (bgrules.match_series;
                     such a ruleset has the opening "reroll" too, which has Match load that code)

    Every rule is a class attribute holding the standard game's value; a Rules object stores only
    what its keyword arguments change (RAM on the Pico: a variant costs its differences).

    ``opposite`` must be its own inverse (the mover's p is the opponent's q and the other way
    round); it also names the board: black's own place p is the board (LED) point opposite[p],
    white's is p, and opposite[25] = 0, opposite[0] = 25 are the bar LEDs (led_of in
    companion/tracker.py). Two tracks exist: against each other (25 - p) and the same way
    (p: Long Puff, Russian, Straight).
    """

    start = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
    opposite = bytes([25 - p for p in range(26)])  # [0] = 25, [25] = 0: the bar LEDs (see above)
    block = 2
    hitting = True
    bar_first = True
    bear_off_higher = True
    max_dice = True
    checkers = 15
    larger_forced = True
    cube = True
    gammons = True
    # A backgammon counts 3; else 2, as a gammon (Tavli's games, Long Nardy, Turkish Gioul:
    # "there is no triple game").
    backgammons = True
    last_out_wins = False
    hit_loses = False
    fixed_roll = False
    open_roll = False
    smaller_first = False
    doubles = "four"
    acey_deucey = None
    free_choice = False
    search = None
    waiting = 0
    enter_first = 15
    start_black = None
    backwards = False
    checker_points = False
    opening = None
    cycle = None
    # A variant's own turn class (Turn's interface) for a game the move search cannot express.
    turn = None
    # The opposing point a checker landing on the mover's p hits or is blocked by, where that is
    # not the same point of the board (French 2 hits across the board); None: ``opposite``.
    across = None
    # Pin (bgrules/variants/pin.py): a checker landing on a single opposing one pins it (both stay
    # on the point; Position.pinned says whose is pinned); a roll not playable whole is lost; the
    # winner scores the loser's pips (times the kind).
    pinning = False
    whole_roll = False
    pip_score = False

    def __init__(self, name, start=None, opposite=None, key=None, **differs):
        self.name = name
        self.key = key or name.lower()
        if start is not None:
            self.start = tuple(start)
        if opposite is not None:
            self.opposite = bytes(opposite)
        for rule in differs:
            default = getattr(Rules, rule, self)  # self: no such rule
            if default is self or callable(default):
                raise TypeError("Rules has no rule %r" % rule)
            setattr(self, rule, differs[rule])
        if self.block < 2:
            self.hitting = False  # a lone checker closes the point: nothing can be hit

    def start_position(self):
        """The start, player 0 (white) on roll."""
        from bgrules.position import Position

        pos = Position.start(self.start)
        c = pos.cells
        if self.start_black:
            for i in range(1, 26):
                c[OPP + i] = self.start_black[i]
            pos._derive_off()
        return pos.set_waiting(self.waiting, self.waiting)

    def result(self, start, final):
        """The game's end after a play from ``start`` (mover's view) to ``final``: 0 while it goes
        on, +kind when the mover has won, -kind when the opponent has (1 single, 2 gammon, 3
        backgammon), as Position.result counts them for the standard game."""
        if self.hit_loses and final.cells[OPP + BAR] > start.cells[OPP + BAR]:
            return -1
        r = final.result(self.opposite, self.checkers)
        if r and self.last_out_wins:
            return -1 if r > 0 else 1
        if not self.gammons and r:
            return 1 if r > 0 else -1
        if not self.backgammons and r in (3, -3):
            return r // 3 * 2
        return r

    def most(self):
        """The most a game can count, as a kind (1 single, 2 gammon, 3 backgammon): the most a
        player may resign."""
        if not self.gammons:
            return 1
        return 3 if self.backgammons else 2

    def __repr__(self):
        return "Rules(%r)" % self.name


STANDARD = Rules("Backgammon", key="standard")

# Rules.result's answer for a game that ends with no winner and no points (Plakoto: both
# "mothers" pinned, docs/variants.md); +kind and -kind are the mover's win and loss.
DRAW = 4

# Nackgammon (Nick Ball's variant): the standard rules from a start with a back point more.
# The track where both move the same way (Long Puff, Russian, Straight): the mover's p is the
# opponent's p, so both enter into one quarter and bear off from one quarter.
SAME_WAY = bytes([25] + list(range(1, 25)) + [0])

NACKGAMMON = Rules("Nackgammon", (0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0))

RULESETS = {"standard": STANDARD, "nackgammon": NACKGAMMON}

# Every ruleset the board plays, by key; all but the two above live in bgrules/variants/<key>.py
# and are imported only when chosen (docs/variants.md has each one's rules and sources).
VARIANTS = ("standard", "nackgammon", "hypergammon", "eureka", "oldbritain", "reverse", "nohitting",
            "gioul", "mexican",
            "fixedroll", "openroll",
            "freechoice",
            "catchme", "ludus", "doublets",
            "puff", "longpuff", "russianpuff", "longrussianpuff", "french1", "russian", "aceydeucey", "straight",
            "backwards", "snake", "pin", "french2",
            "portes", "plakoto", "fevga", "tavli", "longnardy")


def ruleset(key):
    """The Rules called ``key`` (see VARIANTS); ValueError for a name that is not one. A game
    whose players differ on a rule has settings: "KEY:NAME=VALUE[:NAME=VALUE]" is the game with
    them (bgrules.rules_settings), and the key names that game everywhere (journal, saved match,
    serial line)."""
    if key in RULESETS:
        return RULESETS[key]
    if key not in VARIANTS:
        if key.split(":")[0] in VARIANTS:
            from bgrules.rules_settings import with_settings  # only for a game with settings

            return with_settings(key)
        raise ValueError("unknown variant %r (one of: %s)" % (key, ", ".join(VARIANTS)))
    return __import__("bgrules.variants." + key, None, None, ("RULES",)).RULES
