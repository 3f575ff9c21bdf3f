# What the board says for a game whose opening only says who starts (Rules.opening "reroll":
# Portes, Plakoto, Fevga, Long Nardy) and for a match of games in turn (Rules.cycle: Tavli).
# Imported only while such a game is played, so the code loaded at boot stays small (the Pico's
# free heap after import, docs/performance.md).


def opening(c):
    """After the opening roll: its higher die's player starts and now rolls both dice."""
    m = c.match
    c.say("%s starts: roll" % m.names[m.on_roll])
    c._enter("roll")
    c.status()


def next_game(m):
    """The line under "Game N" naming the game now played (Tavli: Portes, Plakoto, Fevga)."""
    return "" if m.rules is m.series else "\n" + m.rules.name
