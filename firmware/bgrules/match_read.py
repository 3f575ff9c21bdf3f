# Reading a saved match (Match.dumps) back: kept apart from bgrules.match because a board needs
# it only to undo an action whose journal write failed, so it stays out of RAM until then.
from bgrules import matchid
from bgrules.matchid_read import decode
from bgrules import (MatchError, DOUBLED, GAME_OVER, MATCH_OVER, OPENING, PLAY, RESIGN, ROLL)
from bgrules.position import Position
from bgrules.rules import ruleset
from bgrules.match_series import game_rules


def loads(cls, line):
    """The match saved by ``dumps``, as an instance of ``cls`` (Match); MatchError when the line
    is torn or not one."""
    parts = line.strip().split(" ", 3)
    if len(parts) != 4 or "|" not in parts[3]:
        raise MatchError("Not a saved match")
    mid, pid, flags, names = parts
    f = {}
    for item in flags.split(","):
        if item:
            f[item[0]] = item[1:]
    try:
        mk = decode(mid)
        rules = game_rules(ruleset(f.get("r", "standard")), int(f.get("n", "1")))  # the game's (Tavli)
        position = Position.from_id(pid, rules.opposite, True)  # pins: below
    except ValueError as exc:
        raise MatchError("Saved match: %s" % exc)
    if f.get("v") != "1":
        raise MatchError("Saved match: unknown version")
    try:
        series = ruleset(f.get("r", "standard"))
        auto, auto_done = [int(x) for x in f["a"].split(".")]
        beavers, offer = [int(x) for x in f["b"].split(".")]
        t0, t1 = [int(x) for x in f["t"].split(".")]
        condoned, last_condoned = [int(x) for x in f["k"].split(".")]
        cstate = int(f["s"])
        m = cls(mk.length, f["c"] == "1", f["h"] == "1", auto, beavers, f["j"] == "1",
                names.split("|", 1), series)
        m.game = int(f["n"])
        m.rules = rules
        if rules.pinning:
            position.pinned = int(f.get("p", 0))
        else:
            position.validate(rules.opposite)
        if "x" in f:
            m.preset = tuple(int(x) for x in f["x"].split("."))
        if "w" in f:
            w0, w1 = [int(x) for x in f["w"].split(".")]
            position.set_waiting(w0, w1)
        if "g" in f:
            g = f["g"].split(".")
            m.result = (int(g[0]), int(g[1]), int(g[2]), g[3])
    except (KeyError, ValueError, IndexError):
        raise MatchError("Saved match: bad fields")
    m.score = [mk.score[0], mk.score[1]]
    m.crawford_game = cstate == 1
    m.post_crawford = cstate == 2
    m.cube = mk.cube
    m.cube_owner = mk.cube_owner
    m.on_roll = mk.on_roll
    m.to_act = mk.to_act
    m.position = position
    m.auto_done = auto_done
    m.offer = offer
    m.turns = [t0, t1]
    m.condoned = condoned
    m.last_condoned = bool(last_condoned)
    m.resign_offer = mk.resign
    state = mk.state
    if state >= matchid.GAME_OVER:
        if m.result is None:
            raise MatchError("Saved match: no result")
        over = m.length and max(m.score) >= m.length
        m.phase = MATCH_OVER if over else GAME_OVER
        if over:
            m.winner = m.result[0]
    else:
        if mk.dice[0]:
            d1, d2 = mk.dice
            m._rolled(d1, d2)
        if mk.doubled:
            m.phase = DOUBLED
        elif mk.resign:
            m.phase = RESIGN
        elif mk.dice[0]:
            m.phase = PLAY
        else:
            m.phase = ROLL if state == matchid.GAME_PLAYING else OPENING
        if "q" in f:
            m._parts().restore(m, f["q"])
    return m


def restore(match, line, player):
    """``match`` set back, in place, to the match ``dumps`` saved in ``line`` earlier in the same
    game: a play taken back against the computer (companion.phase_computer, the journal's `back`
    record). In place because the journal's reader drives one Match record by record. The board's
    own setting (own dice) stays; MatchError, ``match`` unchanged, when the line is not ``player``'s turn to
    move in this game."""
    m = loads(type(match), line)
    if m.game != match.game or m.score != match.score or m.phase != PLAY or m.on_roll != player:
        raise MatchError("Take-back: not a turn of this game")
    own = getattr(match, "own_dice", False)
    for k in m.__dict__:
        setattr(match, k, getattr(m, k))
    match.own_dice = own
