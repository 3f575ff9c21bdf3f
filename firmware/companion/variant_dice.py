# Dice for the variants that fix them in advance (docs/variants.md): Fixed roll plays the
# opening roll all game; Open roll rolls the next turn's dice before the current play, so the
# player moving sees the opponent's coming roll. The controller asks here instead of the dice,
# for those games only (companion.phase_roll).

# Fixed roll's hint when the same position comes a third time, a loop the one roll lets go on for
# ever (bgrules/variants/fixedroll.py): how the game ends, as Pin's lock (Companion._hint)
HINT = "Same position 3x\nhold CUBE:resign"


def opening(match, dice):
    """(die0, die1, next): the opening dice and, for Open roll, the dice of the turn after."""
    d0, d1 = dice.first_roll()
    return d0, d1, _next(match, dice)


def roll(match, dice):
    """(d1, d2, next): the roll of the player on roll (the preset one if the variant has it)."""
    pre = match.preset_dice()
    if pre:
        d1, d2 = pre
    else:
        d1, d2 = dice.roll()
    return d1, d2, _next(match, dice)


def _next(match, dice):
    if not match.rules.open_roll:
        return None
    a, b = dice.roll()
    return [a, b]


def say_next(match):
    """The line the screen shows while a player moves under Open roll: the opponent's roll."""
    pre = match.preset_dice()
    if not match.rules.open_roll or not pre:
        return ""
    return "Next %s %d-%d" % (match.names[1 - match.on_roll], pre[0], pre[1])
