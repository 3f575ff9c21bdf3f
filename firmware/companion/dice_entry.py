# Playing with your own dice: the players roll real dice and key the values in, with the buttons
# or over serial (the "dice" command). The controller asks this module what a button press
# means while dice are being entered; once both dice are in, the roll goes on exactly as an
# electronic roll (journaled with "entered": true).
#
# Buttons while entering (the player on roll; at the opening roll, either player):
#   CUBE press: the next value (1..6, round again)   ROLL press: keep it (then the second die)
#   CUBE hold:  back (to the first die; from the first die, out: the player may double instead)

SHORT = 1  # the press kinds of drivers.buttons (as in controller.py)
LONG = 2

MORE = 0  # a press's outcome: keep entering
DONE = 1  # both dice are in: values()
LEFT = 2  # the player left the entry


class DiceEntry:
    def __init__(self):
        self.own = False  # the board setting: players roll their own dice
        self.active = False
        self.opening = False
        self.player = -1
        self.dice = [1, 1]
        self.index = 0

    def begin(self, player, opening):
        self.active = True
        self.opening = opening
        self.player = player
        self.dice[0] = self.dice[1] = 1
        self.index = 0

    def end(self):
        self.active = False

    def press(self, roll, kind):
        """MORE, DONE or LEFT after a press of ROLL (``roll``) or CUBE."""
        if roll:
            if self.index == 0:
                self.index = 1
                return MORE
            self.active = False
            return DONE
        if kind == LONG:
            if self.index == 1:
                self.index = 0
                return MORE
            self.active = False
            return LEFT
        self.dice[self.index] = self.dice[self.index] % 6 + 1
        return MORE

    def values(self):
        return self.dice[0], self.dice[1]

    def message(self, names):
        """The OLED message while entering: one line of at most 16 characters, the die being
        entered in brackets."""
        d = ["%d" % self.dice[0], "%d" % self.dice[1] if self.index else "?"]
        d[self.index] = "[%s]" % d[self.index]
        if self.opening:
            return "%s die: %s" % (names[self.index][:6], d[self.index])
        return "Dice: %s-%s" % (d[0], d[1])

    def hint(self):
        return "CUBE: next value\nROLL: keep it\nhold CUBE: back"


def parse(args):
    """(d1, d2) of a serial ``dice`` command's values, or the reason they cannot be dice."""
    v = args.get("dice")
    if not isinstance(v, list) or len(v) != 2:
        return "dice: two values, e.g. dice 6 4"
    for d in v:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            return "dice: each die shows 1 to 6"
    return v[0], v[1]


# --- the controller's hooks (companion.controller calls these) ----------------------------------

def begin(c, player):
    """The player on roll (-1: the opening roll) pressed ROLL on a board with own dice."""
    c.entry.begin(player, player < 0)
    _show(c)


def button(c, player, roll, kind):
    """A button press while dice are being entered."""
    e = c.entry
    m = c.match
    if not e.opening and player != m.on_roll:
        c.say("%s's turn" % m.names[m.on_roll])
        return
    r = e.press(roll, kind)
    if r == DONE:
        if e.opening:
            return c._opening(e.values())
        return c._roll(player, e.values())
    if r == LEFT:
        c.say("")
        c.hint = c._hint()
        return
    _show(c)


def command(c, values):
    """The serial ``dice D1 D2`` command: the dice the player on roll rolled (at the opening roll,
    White's die then Black's). The error text, or None when the roll was taken."""
    got = parse({"dice": values})
    if isinstance(got, str):
        return got
    if not c.entry.own:
        return "the board rolls the dice: start a match with own_dice=1 to enter them"
    if c.phase not in ("opening", "roll"):
        return "no roll now (phase %s)" % c.phase
    c.entry.end()
    if c.phase == "opening":
        c._opening(got)
    else:
        c._roll(c.match.on_roll, got)
    return None


def _show(c):
    e = c.entry
    c.say(e.message(c.match.names))
    c.hint = e.hint()
