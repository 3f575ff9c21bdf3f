"""A MatchLog as backgammon SGF, the way GNU Backgammon saves a match (``save match``).

One game tree per game; the root node carries the game information, then one node per action:

    (;FF[4]GM[6]CA[UTF-8]AP[bgc:0.1.0]MI[length:5][game:0][ws:0][bs:0]PW[Anna]PB[Bruno]
    RU[Crawford]RE[W+1]
    ;B[31hfgf]
    ;W[52mhxv]
    ;B[double]
    ;W[take]
    ...)

W is player 0 (white), B is player 1 (black). A move is the dice then one pair of letters per
checker step: for W point p is ``'a' + p - 1``, for B it is ``'x' - (p - 1)``; ``y`` is the bar and
``z`` is off. A resignation is only in the result (``RE[W+2R]``); GNU Backgammon rebuilds it from
there. A game from a set position (bgc setup) starts with the nodes GNU Backgammon writes for
``set board``, ``set cube value`` and ``set cube owner`` (setup_nodes). See docs/formats-export.md.
"""

from .. import __version__


def _esc(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def _letter(player, place):
    if place == 25:
        return "y"
    if place == 0:
        return "z"
    return chr(ord("a") + place - 1) if player == 0 else chr(ord("x") - (place - 1))


def move_value(act):
    d = act["dice"]
    p = act["p"]
    return "%d%d" % (d[0], d[1]) + "".join(_letter(p, a) + _letter(p, b) for a, b, _hit in act["steps"])


def setup_nodes(setup):
    """A game from a set position, as GNU Backgammon saves one set up with ``set board``, ``set
    cube value``, ``set cube owner`` (sgf.c): the player on roll and the board (AE[a:y] clears
    it, AW and AB put each side's checkers, one letter per checker), then the cube's value and
    its owner, each in a node of its own."""
    from bgrules.position import OPP

    p = setup["on_roll"]
    c = setup["pos"].cells  # the player on roll's view: their checkers first, the opponent's at OPP
    side = {p: "", 1 - p: ""}
    for who, base in ((p, 0), (1 - p, OPP)):
        side[who] = "".join("[%s]" % _letter(who, place) * c[base + place] for place in range(1, 26))
    nodes = [";PL[%s]AE[a:y]AW%sAB%s" % ("WB"[p], side[0], side[1])]
    if setup["cube"] > 1:
        nodes.append(";CV[%d]" % setup["cube"])
    if setup["owner"] >= 0:
        nodes.append(";CP[%s]" % "wb"[setup["owner"]])
    return nodes


def game_tree(log, game, warnings):
    s = log.settings
    props = ["FF[4]GM[6]CA[UTF-8]AP[bgc:%s]" % __version__,
             "MI[length:%d][game:%d][ws:%d][bs:%d]" % (log.length, game.number - 1, game.score[0], game.score[1]),
             "PW[%s]PB[%s]" % (_esc(log.names[0]), _esc(log.names[1]))]
    if log.length:
        if s.get("crawford"):
            props.append("RU[Crawford:CrawfordGame]" if game.crawford else "RU[Crawford]")
    elif s.get("jacoby"):
        props.append("RU[Jacoby]")
    if game.start_cube > 1 and game.setup is None:  # (a set position's cube: its own node)
        props.append("CV[%d]" % game.start_cube)
    if game.result is not None:
        winner, points, _kind, how = game.result
        props.append("RE[%s+%d%s]" % ("WB"[winner], points, "R" if how == "resign" else ""))
    nodes = setup_nodes(game.setup) if game.setup is not None else []
    for act in game.actions:
        a = act["a"]
        who = "WB"[act["p"]] if act.get("p") in (0, 1) else None
        if a == "move":
            if len(act["steps"]) > 4:
                warnings.append("game %d, line %d: the condoned play %s moves %d checkers; an SGF move "
                                "holds 4: the rest is left out" % (game.number, act["line"], act["notation"],
                                                                   len(act["steps"])))
                act = dict(act, steps=act["steps"][:4])
            nodes.append(";%s[%s]" % (who, move_value(act)))
        elif a in ("double", "beaver"):
            nodes.append(";%s[double]" % who)
        elif a in ("take", "drop"):
            nodes.append(";%s[%s]" % (who, a))
        # tie, pass, resign/accept/reject (the result says it), note: no node
    return "(;" + "".join(props) + "\n" + "\n".join(nodes) + ")\n"


def sgf_text(log):
    """(text, warnings): the SGF collection for ``log`` (a journals.MatchLog)."""
    warnings = []
    if log.settings.get("rules", "standard") != "standard":
        warnings.append("this match was %s; the SGF says standard backgammon" % log.settings["rules"])
    if log.settings.get("holland"):
        warnings.append("the Holland rule is not part of the SGF format")
    trees = [game_tree(log, g, warnings) for g in log.games if g.actions or g.result is not None]
    if log.problem:
        warnings.append("the journal stops at %s; the .sgf holds what came before" % log.problem[1])
    return "".join(trees), warnings
