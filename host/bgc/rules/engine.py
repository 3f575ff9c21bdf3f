"""Host-side helpers around the rules engine: argument parsing and board text shared by commands."""

from bgrules import Position, PositionError
from bgrules.position import BAR, OFF, OPP

from ..errors import UserError, shown


POSITION_HINT = "hint: a Position ID is 14 characters as GNU Backgammon shows them, e.g. 4HPwATDgc/ABMA"


def colour_counts(pos, white_on_roll, opposite):
    """(white, black): checkers per board point 1..24 (board numbering = White's) and on the bar
    (index 25) of the Position ``pos`` seen by the player on roll. ``opposite``: the ruleset's
    mapping of a player's point to the other's (Rules.opposite); waiting checkers are not counted."""
    w = [0] * 26
    b = [0] * 26
    own, other = (w, b) if white_on_roll else (b, w)
    for q in range(1, 25):
        # White's point q is board point q; black's is opposite[q] (25 - q, or q when both move
        # the same way)
        if white_on_roll:
            own[q] += pos.mover(q)
            other[opposite[q]] += pos.opponent(q)
        else:
            own[opposite[q]] += pos.mover(q)
            other[q] += pos.opponent(q)
    own[25] = pos.mover(25)
    other[25] = pos.opponent(25)
    return w, b


def position_hint(rules=None):
    """The hint after a refused Position ID: an example the ruleset takes (its start)."""
    if rules is None or rules.key == "standard":
        return POSITION_HINT
    pid, (mover, opponent) = start_of(rules)
    words = "hint: %s's start is %s" % (rules.name, pid)
    if mover or opponent:
        words += " with --waiting %d,%d" % (mover, opponent)
    return words + " (bgc variants --json gives every game's start)"


def start_of(rules):
    """(Position ID, (waiting of the player on roll, of the opponent)) of the ruleset's start;
    the ID counts the waiting checkers as borne off (--waiting gives them back)."""
    from bgrules.position import waiting

    pos = rules.start_position()
    return pos.id(), (waiting(pos.cells), waiting(pos.cells, OPP))


def read_position(text, rules=None, waiting=None):
    """The Position a Position ID names under ``rules`` (its track; Pin's points holding both
    colours are read as the opponent's checker pinned), with ``waiting`` (text 'M,O' of
    --waiting, or a (mover, opponent) pair) checkers of the player on roll and the opponent
    still off the board. A side with more checkers in play than the ruleset has is refused."""
    try:
        pos = Position.from_id(text.strip(), rules.opposite if rules else None, bool(rules and rules.pinning))
        if waiting:
            pos.set_waiting(*(read_waiting(waiting) if isinstance(waiting, str) else waiting))
        if rules is not None:
            _check_checkers(pos, rules)
        return pos
    except PositionError as exc:
        why = str(exc).split(": ", 1)[0]  # without the input it repeats, which may be huge
        raise UserError("bad Position ID %s: %s\n%s" % (shown(text, 20), why, position_hint(rules))) from None


def _check_checkers(pos, rules):
    """PositionError when a side has more checkers on the board, the bar or waiting than the
    ruleset gives it (Hypergammon 3 a side: a 15-checker ID is no Hypergammon position)."""
    from bgrules.position import waiting

    c = pos.cells
    for side, who in ((0, "the player on roll"), (OPP, "the opponent")):
        n = waiting(c, side)
        for i in range(1, 26):
            n += c[side + i]
        if n > rules.checkers:
            raise PositionError("%s has %d checkers in play, %s plays with %d a side"
                                % (who, n, rules.name, rules.checkers))


def unplayed_roll(rules, d1, d2):
    """Why a roll is never played as it fell under ``rules`` (Mexican's 1-2: "Die Kombination
    1-2 wird nicht gezogen!"), or None."""
    if rules is not None and rules.acey_deucey == "skip" and sorted((d1, d2)) == [1, 2]:
        return "1-2 is not played in %s: the player chooses a double, plays it and rolls again" % rules.name
    return None


def read_die(text):
    try:
        d = int(text)
    except ValueError:
        d = None
    if d is None or not 1 <= d <= 6:
        raise UserError("a die is a number from 1 to 6, got %s\nhint: give the two dice as numbers, e.g. 6 4"
                        % shown(text, 10))
    return d


def add_variant_argument(parser):
    parser.add_argument("--variant", default="standard", metavar="NAME",
                        help="the ruleset (bgc variants lists them; default standard)")
    parser.add_argument("--waiting", metavar="M,O",
                        help="games entered from off the board (Puff, Acey Deucey...): checkers of the "
                             "player on roll and of the opponent still waiting, which a Position ID counts "
                             "as borne off (default 0,0)")


def read_waiting(text):
    """(mover, opponent) from --waiting 'M,O'; a UserError otherwise."""
    from ..errors import shown

    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() and int(p) <= 15 for p in parts):
        raise UserError("--waiting takes two counts 0-15, the player on roll's first, got %s\n"
                        "hint: e.g. --waiting 13,15" % shown(text, 20))
    return int(parts[0]), int(parts[1])


def read_variant(name, one_game=False):
    """The bgrules Rules called ``name``; a UserError naming the choices otherwise. ``one_game``:
    a position's rules are asked for, so a match of games in turn (Tavli) names its games."""
    from bgrules.rules import VARIANTS, ruleset

    from ..errors import shown

    try:
        rules = ruleset(name)
        if one_game and rules.cycle:
            raise UserError("%s is a match of %s in turn: give one of its games\nhint: --variant %s"
                            % (rules.name, ", ".join(rules.cycle), " or ".join(rules.cycle)))
        return rules
    except ValueError as exc:
        if name.split(":")[0] in VARIANTS:  # a known game with a setting it does not have
            raise UserError("%s: %s\nhint: `bgc variants` lists each game's settings; docs/variants.md"
                            % (shown(name, 40), exc)) from None
        # (the whole list goes on the hint line: a bgc: line stays short as the games grow)
        raise UserError("unknown variant %s (e.g. %s)\nhint: `bgc variants` lists them: %s"
                        % (shown(name, 30), ", ".join(VARIANTS[:4]), ", ".join(VARIANTS))) from None


LETTERS = ("O", "X")


def board_lines(position, on_roll, names, cube=1, cube_owner=-1, opposite=None):
    """An ASCII board in GNU Backgammon's style, seen by the player on roll: their home board
    bottom right (points 1-6), the opponent's checkers on the same points above and below
    (``opposite``: the ruleset's track, bgrules Rules.opposite; standard 25 - p)."""
    from bgrules import STANDARD

    opp = opposite or STANDARD.opposite
    c = position.cells
    me = LETTERS[on_roll]
    them = LETTERS[1 - on_roll]

    def cell(point, row):
        # (letter, count) on the mover's point; the opponent's count is at opp[point].
        if c[point]:
            letter, n = me, c[point]
        elif c[OPP + opp[point]]:
            letter, n = them, c[OPP + opp[point]]
        else:
            return "   "
        if row < 4 or n <= 5:
            return " %s " % letter if n > row else "   "
        return "%2d " % n if n > 5 else " %s " % letter

    def bar(count, letter, row):
        if not count:
            return "   "
        if row < 4 or count <= 5:
            return " %s " % letter if count > row else "   "
        return "%2d " % count

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    out = [" +13-14-15-16-17-18------19-20-21-22-23-24-+"]
    for row in range(5):
        left = "".join(cell(p, row) for p in top[:6])
        right = "".join(cell(p, row) for p in top[6:])
        out.append(" |%s|%s|%s|" % (left, bar(c[OPP + BAR], them, row), right))
    cube_text = ""
    if cube_owner < 0:
        cube_text = "   (Cube: %d)" % cube
    out.append("v|                  |BAR|                  |" + cube_text)
    for row in range(4, -1, -1):
        left = "".join(cell(p, row) for p in bottom[:6])
        right = "".join(cell(p, row) for p in bottom[6:])
        out.append(" |%s|%s|%s|" % (left, bar(c[BAR], me, row), right))
    out.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    mine, theirs = position.pips()
    out.append(
        " %s %s on roll (bottom): pips %d, off %d" % (me, names[on_roll], mine, c[OFF])
    )
    out.append(
        " %s %s: pips %d, off %d" % (them, names[1 - on_roll], theirs, c[OPP + OFF])
    )
    if cube_owner >= 0:
        out.append(" Cube %d with %s" % (cube, names[cube_owner]))
    out.append(" Position ID %s" % position.id())
    return out
