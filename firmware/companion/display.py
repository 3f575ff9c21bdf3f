# The OLED screens: 8 lines of at most 16 characters (128x64 with the 8x8 font). Every game
# screen shows the match score (and "Crawford game"), the cube value and who owns it, whose turn
# with the dice, pip counts, the last message and what each button does now. Words a newcomer
# can read: no abbreviations but ROLL and CUBE, the names printed on the buttons.

W = 16


def fit(text):
    return text[:W]


def split(msg):
    """A message over two lines: at a newline if it has one, else broken at a space where possible."""
    nl = msg.find("\n")
    if nl >= 0:
        return fit(msg[:nl]), fit(msg[nl + 1:])
    if len(msg) <= W:
        return msg, ""
    cut = msg.rfind(" ", 0, W + 1)
    if cut <= 0:
        cut = W
    return msg[:cut], msg[cut:].strip()[:W]


def pair(left, right):
    """``left`` and ``right`` on one line, ``right`` flush with the right edge."""
    if not right:
        return fit(left)
    left = left[:W - len(right) - 1]
    return left + " " * (W - len(left) - len(right)) + right


def game(match, msg, hint, marker=-1, lines=None):
    """The game screen. ``marker`` is the player whose button is awaited (-1: the one to act);
    ``lines``, its first four (score, cube, whose turn with the dice, pips) as a caller kept
    them from a screen of the same match state (companion.display_fast)."""
    if lines is None:
        p = match.to_act if marker < 0 else marker
        if match.length:
            top = "Match to %d: %d-%d" % (match.length, match.score[0], match.score[1])
            if len(top) > W:
                top = "To %d: %d-%d" % (match.length, match.score[0], match.score[1])
        else:
            top = "Money %d-%d" % (match.score[0], match.score[1])
        owner = match.cube_owner
        if match.rules is not match.series:
            cube = "Game %d %s" % (match.game, match.rules.name)  # Tavli: the game in play; no cube
        elif match.length and match.crawford_game:
            cube = "Crawford game"  # no doubling in it
        elif owner < 0:
            cube = "Cube %d centred" % match.cube
        else:
            cube = "Cube %d %s's" % (match.cube, match.names[owner][:W - 8])
        d = match.dice
        turn = pair(match.names[p] + ("" if d[0] else "'s turn"), "dice %d-%d" % (d[0], d[1]) if d[0] else "")
        pw, pb = match.pips()
        lines = [fit(top), fit(cube), turn, fit("Pips W%d B%d" % (pw, pb))]
    h = hint.split("\n")
    if len(h) == 3:  # three button lines: the message keeps one
        return lines + [fit(msg), fit(h[0]), fit(h[1]), fit(h[2])]
    m1, m2 = split(msg)
    h1, h2 = split(hint)
    return lines + [m1, m2, h1, h2]


MENU_KEYS = ("CUBE: next line", "ROLL: change it")


def menu(items, cursor, note):
    """The new-match menu: up to four items, the cursor marked, then what the buttons do."""
    lines = [fit(note) if note else "New match"]
    first = max(0, min(cursor - 1, len(items) - 4))
    for i in range(first, min(len(items), first + 4)):
        label, value = items[i]
        lines.append(pair(("> " if i == cursor else "  ") + label, value))
    while len(lines) < 5:
        lines.append("")
    lines.append(MENU_KEYS[0])
    lines.append(MENU_KEYS[1])
    lines.append("hold ROLL: start")
    return lines


def board(title, msg, hint, note=""):
    m1, m2 = split(msg)
    h1, h2 = split(hint)
    return [fit(title), fit(note), m1, m2, "", "", h1, h2]
