"""The game screen made again only when something it shows has changed, for the image.

``Companion.render`` asks for the game screen in every answer, and most answers change nothing
on it: a lifted checker, a checker set down, a hand over the board change the LEDs, while the
score, the cube, the dice, the pips (the match's position, which changes only when a play is
made) and the button lines stay. On the emulated Pico ``display.game`` took 3.6 ms of a lift's
11-12 ms answer (its text formatting, and the pip count's loop over the board), against issue
33's 5 ms target for the whole answer (docs/performance.md).

``game`` is ``display.game`` with the last screen kept: it compares what the screen is made of
(the same attributes display.game reads; the position by identity, because a Match replaces its
position at every play and never changes one in place, and a new match has a new one; the rules
by their name, so that a variant's code is not kept alive by the last screen once its match is
over: tests/test_evening_micropython.py) and makes the screen again when any of
them differs. main.py installs it where the code sits in flash (companion.controller.PREPARES):
there it costs no heap, and the .mpy deploy has none to spare (tests/test_heap_budget.py).
"""
from companion import display

made = display.game  # display's own, which makes the screen
_KEYS = 19
_seen = [None] * _KEYS  # what the last screen was made of
_last = [None]  # the last screen (a list of 8 lines, never changed once made)


def game(match, msg, hint, marker=-1):
    """display.game(match, msg, hint, marker): the last screen when nothing it shows changed."""
    s = _seen
    score = match.score
    dice = match.dice
    names = match.names
    if (s[0] is match.position and s[1] == match.on_roll and s[2] == match.to_act
            and s[3] == marker and s[4] == score[0] and s[5] == score[1] and s[6] == match.cube
            and s[7] == match.cube_owner and s[8] == match.game and s[9] == match.crawford_game
            and s[10] == match.rules.name and s[11] == dice[0] and s[12] == dice[1] and s[13] == msg
            and s[14] == hint and s[15] == names[0] and s[16] == names[1] and s[17] == match.length
            and s[18] == (match.rules is match.series)):
        return _last[0]
    screen = made(match, msg, hint, marker)
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
    s[13] = msg
    s[14] = hint
    s[15] = names[0]
    s[16] = names[1]
    s[17] = match.length
    s[18] = match.rules is match.series
    _last[0] = screen
    return screen


def install():
    """Companion.render's game screens from here on (display.game replaced by ``game``)."""
    display.game = game
