"""bgrules: the backgammon rules engine shared by the Pico firmware and the host tool.

Pure Python that runs unchanged on MicroPython and CPython: no I/O, no dataclasses, no typing.

    >>> from bgrules import Position, Turn
    >>> turn = Turn(Position.start(), 3, 1)
    >>> sorted(p.notation() for p in turn.plays())[:2]
    ['13/10 6/5', '13/10 10/9']
"""

from bgrules.position import Position, PositionError, OFF, BAR
from bgrules.rules import Rules, STANDARD, NACKGAMMON, RULESETS
from bgrules.turn import Play, Turn, legal_plays, check_play
from bgrules.notation import format_steps, parse_moves, apply_moves, NotationError
from bgrules.match import Match, MatchError
from bgrules.matchid import MatchKey, MatchIdError, decode as decode_match_id, encode as encode_match_id
