# A match that starts from a set position (`bgc setup`, docs/match-play.md "A position to
# practise"): GNU Backgammon's Position ID and Match ID put a new match's first game where they
# say, before anything is played. Loaded only for such a match (companion.recovery's "setup"
# record): a board that never sets a position never holds it.

from bgrules import MatchError, OPENING, ROLL
from bgrules.matchid import GAME_PLAYING
from bgrules.matchid_read import decode
from bgrules.position import Position, OFF, OPP, CHECKERS

# the games whose positions GNU Backgammon's IDs describe (15 checkers a side, the standard track)
SET_UP_GAMES = ("standard", "nackgammon")


def set_up(m, position_id, match_id):
    """Put the new match ``m`` at ``position_id`` (the player on roll's view) with the score, the
    cube, the player on roll and any dice of ``match_id``. MatchError says what does not fit; ``m``
    is unchanged then."""
    if m.phase != OPENING or m.game != 1 or m.cube != 1 or m.turns[0] or m.turns[1]:
        raise MatchError("A position is set before the first roll")
    if m.series.key not in SET_UP_GAMES:
        raise MatchError("Positions: %s only" % " and ".join(SET_UP_GAMES))
    try:
        mk = decode(match_id)
        pos = Position.from_id(position_id)
    except ValueError as exc:
        raise MatchError(str(exc))
    if mk.length != m.length:
        raise MatchError("Match ID: %s, not this match's %s" % (_length(mk.length), _length(m.length)))
    if not m.length and mk.jacoby != m.jacoby:
        raise MatchError("Match ID: Jacoby %s, this session's is %s" % (_on(mk.jacoby), _on(m.jacoby)))
    if mk.state != GAME_PLAYING:
        raise MatchError("Match ID: no game under way")
    if mk.doubled or mk.resign or mk.to_act != mk.on_roll:
        raise MatchError("Match ID: a double or resignation pending")
    if mk.crawford and not m.crawford_rule:
        raise MatchError("Match ID: Crawford game, the rule is off")
    if m.length and mk.crawford and m.length - 1 not in mk.score:
        raise MatchError("Match ID: Crawford game, nobody at %d" % (m.length - 1))
    if mk.crawford and (mk.cube > 1 or mk.cube_owner >= 0):
        raise MatchError("Match ID: cube turned in the Crawford game")
    c = pos.cells
    if c[OFF] == CHECKERS or c[OPP + OFF] == CHECKERS:
        raise MatchError("That game is over: all 15 borne off")
    m.score = [mk.score[0], mk.score[1]]
    m.crawford_game = bool(mk.crawford)
    # after the Crawford game: a player at N-1 in a game that is not the Crawford game
    m.post_crawford = bool(m.length and m.crawford_rule and not mk.crawford and m.length - 1 in mk.score)
    m.cube = mk.cube
    m.cube_owner = mk.cube_owner
    m.on_roll = m.to_act = mk.on_roll
    m.position = pos
    # a game under way: both have played (what the Holland rule and a resignation's phase count)
    m.turns = [1, 1]
    if mk.dice[0]:
        m._rolled(mk.dice[0], mk.dice[1])
    else:
        m.phase = ROLL


def _length(n):
    return "%d points" % n if n else "money"


def _on(flag):
    return "on" if flag else "off"
