# A turn made of parts (docs/variants.md, "Turns made of parts"): the underside of a double, Gioul's
# rising doubles, a chosen double, a second roll by the same player. Each part is an ordinary Turn
# with two dice values; Match keeps where the turn stands in ``part`` and asks here what follows a
# roll, a choice and a play. Imported only for a ruleset with such a turn (Match._parts).
#
# ``part`` is (kind, roller, value): the player whose turn it is, and
#   "t" the top of double ``value``     "u" its underside      "r" rising double ``value``
#   "d" a double that earns a new roll (played whole; any, for "once_again")   "a" the 1-2 of Acey Deucey
#   "c" a double to choose (phase CHOOSE) "p" the chosen double ``value``
#   "f" the first of two free-choice rolls, "z" the second
#   "g" the same player rolls again (phase ROLL), "s" the second free-choice roll is due

from bgrules import MatchError, ROLL, CHOOSE


def chooser(m):
    """Double against free choice: the player who chooses the dice (White in odd games)."""
    return (m.game + 1) % 2


def rolled(m, d1, d2):
    """The dice of a roll (or the opening roll) of the player on roll: the first part."""
    r = m.rules
    me = m.on_roll
    if r.free_choice and m.phase == ROLL and me == chooser(m):
        raise MatchError("Free choice: choose the dice")
    last = m.part
    m.part = None
    if r.free_choice and me != chooser(m):
        return _begin(m, ("z" if last and last[0] == "s" else "f", me, 0), d1, d2)
    if r.acey_deucey and d1 + d2 == 3 and d1 * d2 == 2:
        m.dice = (2, 1)
        if r.acey_deucey == "play":
            return _begin(m, ("a", me, 0), 2, 1)
        m.part = ("c", me, 0)
        m.phase = CHOOSE
        return
    mode = r.doubles
    if d1 == d2 and mode not in ("four", "once"):
        return _begin(m, ("r" if mode == "rising" else "d" if mode in ("roll_again", "once_again") else "t", me, d1), d1, d1)
    m._rolled(d1, d2)


def choose(m, d1, d2, player):
    """The player's chosen dice: a double after 1-2 (phase CHOOSE), or the free-choice player's
    roll, any but a double (instead of rolling)."""
    if player is not None and player != m.on_roll:
        raise MatchError("Not your turn")
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise MatchError("Dice show 1 to 6")
    if m.phase == CHOOSE:
        if d1 != d2:
            raise MatchError("Choose a double")
        return _begin(m, ("p", m.on_roll, d1), d1, d1)
    if m.phase != ROLL or not m.rules.free_choice or m.on_roll != chooser(m):
        raise MatchError("No choice now: roll the dice")
    if d1 == d2:
        raise MatchError("Free choice: any roll but a double")
    m.part = None
    m._rolled(d1, d2)


def played(m, final):
    """After the legal (or accepted) play of the current part: the next part, a choice, a new
    roll by the same player, or the opponent's turn."""
    kind, roller, value = m.part
    turn = m.turn
    whole = turn.dice_to_play == (4 if turn.double else 2)
    r = m.rules
    mode = r.doubles
    m.position = final
    again = None
    if kind == "t":
        if whole or mode == "underside_roll":
            return _begin(m, ("u", roller, value), 7 - value, 7 - value)
    elif kind == "u":
        if mode != "underside" and (whole or mode == "underside_roll"):
            again = "g"
    elif kind == "r":
        if value < 6:
            # Gioul: the next value; a part not played whole passes it to the other player.
            if not whole:
                m.position = final.swapped()
                m.on_roll = m.to_act = 1 - m.on_roll
            return _begin(m, ("r", roller, value + 1), value + 1, value + 1)
        if m.on_roll != roller:
            # The rising ended with the opponent, whose own turn comes next: no pass.
            m.turns[roller] += 1
            again = ""
    elif kind == "a" and whole:
        m.dice = (0, 0)
        m.turn = None
        m.part = ("c", roller, 0)
        m.phase = CHOOSE
        return
    elif (kind == "d" and (whole or mode == "once_again")) or (kind == "p" and (whole or r.acey_deucey == "skip")):
        again = "g"
    elif kind == "f":
        again = "s"
    if again is None:
        return m._next_turn(final)
    m.part = (again, roller, 0) if again else None
    m.dice = (0, 0)
    m.turn = None
    m.phase = ROLL


def larger_first(turn, cells):
    """Smaller die first (Turn.check): would the dice in the other order give ``cells``?"""
    orders = turn._orders
    turn._orders = (bytes((turn.d1, turn.d2)),)
    try:
        return turn._search_for(cells, 2, 8)  # _FIND_ANY, dice relaxed (_R_DICE): bgrules.turn
    finally:
        turn._orders = orders


def larger_put_first(turn, cells):
    """Smaller die first (Turn.locate), as the board sees it: the larger die's checker put down
    first begins a legal play when one step of the smaller die from there finishes one; the
    finished board cannot tell in which order two checkers went (and a player should not be
    flagged for the order in which the hand put them down). The options then: the smaller die."""
    s = turn._s
    hi = turn.d1
    lo = turn.d2
    orders = turn._orders
    turn._orders = (bytes((hi, lo)),)
    try:
        one = bytes((lo,)) in turn._search_for(cells, 2, 0, False)  # _FIND_ANY: after the larger die alone
    finally:
        turn._orders = orders
    if not one:
        return []
    finals = []
    s.load(cells)
    real = getattr(s, "real", None)  # a search that keeps waiting checkers on its bar
    src = 25
    while src > 0:
        if s.c[src]:
            t = s.dest(src, lo)
            if t >= 0:
                s.push(src, t, lo)
                finals.append(real() if real else bytes(s.c))
                s.pop()
        src -= 1
    for final in finals:
        if turn.is_legal(final):
            return [bytes((lo,))]
    return []


def _begin(m, part, d1, d2):
    m.part = part
    m._rolled(d1, d2)


def refusal(m):
    """Why the cube cannot turn now (in the middle of a turn made of parts), or None."""
    return "Choose a double first" if m.part[0] == "c" else "Roll again first"


def saved(m):
    """The part as a field of the saved match (Match.dumps)."""
    return "q%s.%d.%d" % m.part


def restore(m, field):
    kind, roller, value = field.split(".")
    m.part = (kind, int(roller), int(value))
    if kind == "c":
        m.phase = CHOOSE
