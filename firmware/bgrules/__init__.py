"""bgrules: the backgammon rules engine shared by the Pico firmware and the host tool.

Pure Python that runs unchanged on MicroPython and CPython: no I/O, no dataclasses, no typing.

    >>> from bgrules import Position, Turn
    >>> turn = Turn(Position.start(), 3, 1)
    >>> sorted(p.notation() for p in turn.plays())[:2]
    ['13/10 6/5', '13/10 10/9']
"""

# What a match waits for (its phases) and the error its actions raise live here, in the package
# itself: bgrules.match shares them with the modules it loads on demand (bgrules.match_read,
# bgrules.turn_parts) and with the controller, and Python runs this file before any submodule,
# so every one of them imports these from below (a module of their own cost the Pico ~200 B).

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


# The names below are fetched from their modules on first use rather than imported here: Python
# runs this file before any bgrules submodule, and the Pico must not pay RAM for the host's parts
# (enumerating every play) just because it imports bgrules.match.
_HOMES = {
    "position": ("Position", "PositionError", "OFF", "BAR"),
    "rules": ("Rules", "STANDARD", "NACKGAMMON", "RULESETS"),
    "turn": ("Turn", "legal_plays", "check_play"),
    "notation": ("Play", "format_steps", "NotationError"),
    "match": ("Match",),
    "matchid": ("MatchKey", "MatchIdError", "encode_match_id"),
    "matchid_read": ("decode_match_id",),
}


def __getattr__(name):
    import sys

    for module, names in _HOMES.items():
        if name in names:
            __import__("bgrules." + module)
            return getattr(sys.modules["bgrules." + module], name.replace("_match_id", ""))
    try:  # a submodule (``from bgrules import matchid``): MicroPython asks here before importing it
        __import__("bgrules." + name)
    except ImportError:
        raise AttributeError(name)
    return sys.modules["bgrules." + name]
