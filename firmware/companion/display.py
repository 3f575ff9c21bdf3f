# The OLED screens: 8 lines of at most 16 characters (128x64 with the 8x8 font). Every game
# screen shows whose turn, the dice, the cube value and owner, the match score ("Crawford" in
# the Crawford game), pip counts, the last message and what the buttons do now.

W = 16


def fit(text):
    return text[:W]


def _name(match, p):
    return match.names[p][:6]


def split(msg):
    """A message over two lines, broken at a space where possible."""
    if len(msg) <= W:
        return msg, ""
    cut = msg.rfind(" ", 0, W + 1)
    if cut <= 0:
        cut = W
    return msg[:cut], msg[cut:].strip()[:W]


def game(match, msg, hint, marker=-1):
    """The game screen. ``marker`` is the player whose button is awaited (-1: on roll)."""
    p = match.to_act if marker < 0 else marker
    if match.length:
        top = "%d-%d to %d" % (match.score[0], match.score[1], match.length)
        if match.crawford_game:
            top += " CRAW"
    else:
        top = "Money %d-%d" % (match.score[0], match.score[1])
    owner = match.cube_owner
    cube = "Cube %d %s" % (match.cube, "mid" if owner < 0 else ("W" if owner == 0 else "B"))
    d = match.dice
    dice = "%d-%d" % (d[0], d[1]) if d[0] else ""
    turn = "%s%s" % ("W>" if p == 0 else "B>", _name(match, p))
    turn = turn + " " * max(1, W - len(turn) - len(dice)) + dice
    pw, pb = match.pips()
    pips = "Pip W%d B%d" % (pw, pb)
    m1, m2 = split(msg)
    h1, h2 = split(hint)
    return [fit(top), fit(cube), fit(turn), fit(pips), m1, m2, h1, h2]


def menu(items, cursor, note):
    """The new-match menu: one item per line, the cursor marked."""
    lines = ["New match"]
    first = max(0, min(cursor - 2, len(items) - 5))
    for i in range(first, min(len(items), first + 5)):
        label, value = items[i]
        mark = ">" if i == cursor else " "
        text = "%s%s" % (mark, label)
        text = text + " " * max(1, W - len(text) - len(value)) + value
        lines.append(fit(text))
    while len(lines) < 6:
        lines.append("")
    lines.append("CUBE:next ROLL:+")
    lines.append(fit(note or "hold ROLL: start"))
    return lines


def board(title, msg, hint, note=""):
    m1, m2 = split(msg)
    h1, h2 = split(hint)
    return [fit(title), fit(note), m1, m2, "", "", h1, h2]
