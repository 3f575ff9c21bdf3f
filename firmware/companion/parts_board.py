# What the board shows and takes for a turn made of parts (bgrules.turn_parts, docs/variants.md):
# the screen line naming the part being played, the choice of a double (or of the free-choice
# roll) with the buttons or the serial ``dice`` command, and the journal record of the choice.
# Imported by the controller only for a ruleset whose turns have parts.

from bgrules.match import CHOOSE, ROLL, PLAY
from bgrules.turn_parts import chooser

LONG = 2
WORDS = {"t": "top", "u": "under", "r": "rising", "d": "double", "a": "acey", "c": "choose", "p": "chosen",
         "f": "first", "z": "second", "g": "again", "s": "again"}


def _options(m):
    if m.phase == CHOOSE:
        return [(v, v) for v in range(6, 0, -1)]
    return [(a, b) for a in range(6, 1, -1) for b in range(a - 1, 0, -1)]


def free_chooser(c, player):
    """True when ``player`` chooses the dice instead of rolling (Double against free choice)."""
    return player == chooser(c.match)


def begin(c):
    """The choice opens: a double after 1-2, or the free-choice player's roll."""
    c.phase = "choose"
    c.choice = 0
    c.tracker.begin(c.match.position, c.match.on_roll == 0, None)
    c._hold_frame(False)
    _show(c)


def _show(c):
    d1, d2 = _options(c.match)[c.choice]
    c.say(("Choose a double" if c.match.phase == CHOOSE else "Choose your roll") + "\n> %d-%d" % (d1, d2))
    c.hint = hint(c)


def hint(c):
    return "ROLL: take it\nCUBE: next one"


def button(c, player, roll, kind):
    m = c.match
    if player != m.on_roll:
        c.say("%s chooses" % m.names[m.on_roll])
        return
    options = _options(m)
    if roll:
        d1, d2 = options[c.choice]
        return take(c, d1, d2)
    c.choice = (c.choice + (-1 if kind == LONG else 1)) % len(options)
    _show(c)


def command(c, values):
    """The serial ``dice`` command while a player chooses: ``dice 5`` or ``dice 5 5`` for a double,
    ``dice 6 4`` for the free-choice roll. The error text, or None when the choice was taken."""
    if type(values) is not list or not 1 <= len(values) <= 2:
        return "dice: give the chosen dice (dice 5 5)"
    for v in values:
        if type(v) is not int or not 1 <= v <= 6:
            return "dice: 1 to 6 each (dice 5 5)"
    d1 = values[0]
    d2 = values[-1]
    return take(c, d1, d2)


def take(c, d1, d2):
    m = c.match
    p = m.on_roll
    if not c._act({"a": "choose", "p": p, "dice": [d1, d2]}, lambda: m.choose(d1, d2, p)):
        return c.msg
    c.emit("choose", {"p": p, "dice": [d1, d2]})
    c.say("Chosen %d-%d" % (d1, d2))
    c._start_turn()
    c.status()
    return None


def next_part(c):
    """After a roll or a play that leaves the turn unfinished: show and start the next part."""
    m = c.match
    kind, roller, value = m.part
    c.emit("part", {"p": m.on_roll, "part": WORDS[kind], "dice": list(m.dice)})
    if m.phase == CHOOSE:
        c._enter("choose")
    elif m.phase == ROLL:
        c._enter("roll")
        c.say("Second roll" if kind == "s" else "Roll again")
    elif m.phase == PLAY:
        c._start_turn()
        d = m.dice[0]
        if kind == "t":
            c.say("%d-%d top, then\nunder: %d-%d" % (d, d, 7 - d, 7 - d))
        elif kind == "u":
            c.say("%d-%d under: %d-%d" % (7 - d, 7 - d, d, d))
        elif kind == "r":
            c.say("Rising: %d-%d%s" % (d, d, "" if m.on_roll == roller else "\n%s takes over" % m.names[m.on_roll]))
        elif kind == "a":
            c.say("Acey Deucey: 1-2\nthen a double")
        if m.turn.dice_to_play == 0:
            c.say(c.msg.split("\n")[0] + "\nNo legal move")
    c.status()
