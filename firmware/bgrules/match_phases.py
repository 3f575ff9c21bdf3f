# What a match waits for (its phases) and the error its actions raise: the names bgrules.match
# shares with the modules it loads on demand (bgrules.match_read, bgrules.turn_parts), kept here so
# that those import them from below and never from bgrules.match, which imports them.


class MatchError(ValueError):
    """An action the rules do not allow now; the message is the reason shown to the players."""


# Phases: what the match waits for.
OPENING = "opening"  # each player rolls one die
ROLL = "roll"  # the player on roll may double, then rolls
DOUBLED = "doubled"  # a double (or beaver, raccoon, otter) waits for an answer
PLAY = "play"  # dice are rolled; the play is awaited
CHOOSE = "choose"  # a double of the player's choice is awaited (bgrules.turn_parts)
RESIGN = "resign"  # a resignation waits for accept or reject
GAME_OVER = "gameover"
MATCH_OVER = "matchover"
