# What the board shows and takes for a turn made of parts (bgrules.turn_parts, docs/variants.md):
# the screen line naming the part being played, the choice of a double (or of the free-choice
# roll) with the buttons or the serial ``dice`` command, and the journal record of the choice.
# Imported by the controller only for a ruleset whose turns have parts.

from bgrules import CHOOSE, PLAY
from bgrules.turn_parts import choose, chooser  # chooser: the controller asks it through here

HINT = "ROLL: take it\nCUBE: next one"
# The "part" event's word for each kind of part (bgrules.turn_parts)
KINDS = "tuardcpfzgs"
WORDS = ("top", "under", "rising", "acey", "double", "choose", "chosen", "first", "second", "again", "again")


def hint(m):
    """The hint while a part's roll or the free-choice roll is to come (Companion._hint); None when
    the usual one applies."""
    if m.part:
        return "ROLL: roll again"
    if m.rules.free_choice and chooser(m) == m.on_roll:
        return "ROLL: pick dice\nCUBE: double" if m.may_double() else "ROLL: pick dice"
    return None


def _option(m, i):
    # The i-th choice: doubles 6-6 .. 1-1, or the 15 non-doubles 6-5 .. 2-1.
    if m.phase == CHOOSE:
        i %= 6
        return 6 - i, 6 - i
    i %= 15
    a = 6
    while i >= a - 1:
        i -= a - 1
        a -= 1
    return a, a - 1 - i


def begin(c):
    """The choice opens: a double after 1-2, or the free-choice player's roll."""
    c.phase = "choose"
    c.choice = 0
    c.tracker.begin(c.match.position, c.match.on_roll == 0, None)
    c._hold_frame(False)
    _show(c)


def _show(c):
    m = c.match
    c.say("Choose %s\n> %d-%d" % (("a double" if m.phase == CHOOSE else "your roll",) + _option(m, c.choice)))
    c.hint = HINT


def button(c, player, roll, kind):
    m = c.match
    if player != m.on_roll:
        c.say("%s chooses" % m.names[m.on_roll])
    elif roll:
        take(c, *_option(m, c.choice))
    else:
        c.choice += -1 if kind == 2 else 1  # 2: LONG, a held CUBE steps back
        _show(c)


def command(c, values):
    """The serial ``dice`` command while a player chooses: ``dice 5`` or ``dice 5 5`` for a double,
    ``dice 6 4`` for the free-choice roll. The error text, or None when the choice was taken."""
    if type(values) is not list or not 1 <= len(values) <= 2:
        return "dice: give the chosen dice (dice 5 5)"
    for v in values:
        if type(v) is not int or not 1 <= v <= 6:
            return "dice: 1 to 6 each (dice 5 5)"
    return take(c, values[0], values[-1])


def take(c, d1, d2):
    m = c.match
    p = m.on_roll
    if not c._act({"a": "choose", "p": p, "dice": [d1, d2]}, lambda: choose(m, d1, d2, p)):
        return c.msg
    c.emit("choose", {"p": p, "dice": [d1, d2]})
    c.say("Chosen %d-%d" % (d1, d2))
    c._start_turn()
    c.status()


def next_part(c):
    """After a roll or a play that leaves the turn unfinished: show and start the next part."""
    m = c.match
    kind, roller, value = m.part
    c.emit("part", {"p": m.on_roll, "part": WORDS[KINDS.find(kind)], "dice": list(m.dice)})
    if m.phase == CHOOSE:
        c._enter("choose")
    elif m.phase == PLAY:
        c._start_turn()
        d = m.dice[0]
        if kind == "t":
            c.say("%d-%d top, then\nunder: %d-%d" % (d, d, 7 - d, 7 - d))
        elif kind == "u":
            c.say("%d-%d under: %d-%d" % (7 - d, 7 - d, d, d))
        elif kind == "r":
            c.say("Rising: %d-%d" % (d, d) + ("" if m.on_roll == roller else "\n%s takes over" % m.names[m.on_roll]))
        elif kind == "a":
            c.say("Acey Deucey 1-2\nthen a double")
        if m.turn.dice_to_play == 0:
            c.say(c.msg.split("\n")[0] + "\nNo legal move")
    else:
        c._enter("roll")
        c.say("Second roll" if kind == "s" else "Roll again")
    c.status()
