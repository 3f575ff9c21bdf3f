"""The game screen made again only when something it shows has changed, for the image.

``Companion.render`` asks for the game screen in every answer, and most answers change nothing
on it: a lifted checker, a checker set down, a hand over the board change the LEDs, while the
score, the cube, the dice, the pips (the match's position, which changes only when a play is
made) and the button lines stay. On the emulated Pico ``display.game`` took 3.6 ms of a lift's
11-12 ms answer (its text formatting, and the pip count's loop over the board), against issue
33's 5 ms target for the whole answer (docs/performance.md).

``game`` is ``display.game`` with the last screen kept: it compares what the screen's top four
lines are made of (the same attributes display.game reads; the position by identity, because a
Match replaces its position at every play and never changes one in place, and a new match has a
new one; the rules by their name, so that a variant's code is not kept alive by the last screen
once its match is over: tests/test_evening_micropython.py) and makes the screen again when any
of them differs; a new message or new button lines (a hit, the last checker set down) go under
the kept top lines without the pips counted again. main.py installs it where the code sits in
flash (companion.controller.PREPARES): there it costs no heap, and the .mpy deploy has none to
spare (tests/test_heap_budget.py).
"""
from companion import display

made = display.game  # display's own, which makes the screen (install() replaces display.game)
_KEYS = 17
_seen = [None] * _KEYS  # what the last top lines were made of
_last = [None, None, None, None]  # the last screen's top four lines, message, button lines, screen (never changed once made)


def game(match, msg, hint, marker=-1):
    """display.game(match, msg, hint, marker): the last screen when nothing it shows changed."""
    s = _seen
    last = _last
    score = match.score
    dice = match.dice
    names = match.names
    if not (s[0] is match.position and s[1] == match.on_roll and s[2] == match.to_act
            and s[3] == marker and s[4] == score[0] and s[5] == score[1] and s[6] == match.cube
            and s[7] == match.cube_owner and s[8] == match.game and s[9] == match.crawford_game
            and s[10] == match.rules.name and s[11] == dice[0] and s[12] == dice[1]
            and s[13] == names[0] and s[14] == names[1] and s[15] == match.length
            and s[16] == (match.rules is match.series)):
        s[0] = match.position
        s[1] = match.on_roll
        s[2] = match.to_act
        s[3] = marker
        s[4] = score[0]
        s[5] = score[1]
        s[6] = match.cube
        s[7] = match.cube_owner
        s[8] = match.game
        s[9] = match.crawford_game
        s[10] = match.rules.name
        s[11] = dice[0]
        s[12] = dice[1]
        s[13] = names[0]
        s[14] = names[1]
        s[15] = match.length
        s[16] = match.rules is match.series
        screen = made(match, msg, hint, marker)
        last[0] = screen[:4]
    elif last[1] == msg and last[2] == hint:
        return last[3]
    else:
        screen = made(match, msg, hint, marker, last[0])
    last[1] = msg
    last[2] = hint
    last[3] = screen
    return screen


def install():
    """Companion.render's game screens from here on (display.game replaced by ``game``)."""
    display.game = game
