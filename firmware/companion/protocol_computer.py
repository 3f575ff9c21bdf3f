# The `gnu` command's arguments (docs/protocol.md, "A match against the computer"): what the PC's
# GNU Backgammon decided, for the board to carry out, or (side engine=board) that the board's own
# player (boardplayer) decides for a side. Loaded with the first `gnu` line.

from companion.protocol_args import ProtocolError, typed_value as _value

ACTIONS = ("side", "roll", "double", "take", "drop", "beaver", "accept", "reject", "resign", "play", "hint", "tell",
           "here", "opening")
# hint: the best play for the person's roll, asked for with a held ROLL (the `advice` event); tell:
# the teacher's words on the person's last play or cube decision (bgc play --teach); roll dice=5,3
# and opening dice=W,B: the dice rolled elsewhere (a remote board's, bgc remote); side opening=1:
# the opening roll is the PC's (gnu opening), not this board's buttons'
KEYS = {"side": ("side", "engine", "level", "opening"), "resign": ("kind",), "play": ("pos",), "hint": ("pos",),
        "tell": ("text",), "roll": ("dice",), "opening": ("dice",)}
ENGINES = ("pc", "board")  # who decides: the PC's GNU Backgammon, or the board's own player


def gnu_args(raw):
    do = raw.get("do") or ("side" if "side" in raw else None)  # gnu side=1
    if do not in ACTIONS:
        raise ProtocolError("gnu: what did the computer do? (%s)" % ", ".join(ACTIONS))
    keys = KEYS.get(do, ())
    args = {"do": do}
    for k in raw:
        if k != "do" and k not in keys:
            raise ProtocolError("gnu %s: unknown key %r" % (do, k[:20]))
    if do == "side":
        side = _value("side", "i", raw.get("side", ""))
        if side not in (-1, 0, 1):
            raise ProtocolError("gnu side: 0 (White), 1 (Black) or -1 (none)")
        args["side"] = side
        engine = raw.get("engine", "pc")
        if engine not in ENGINES:
            raise ProtocolError("gnu side: engine=pc (the PC's GNU Backgammon) or engine=board (the board's own player)")
        args["engine"] = engine
        level = raw.get("level")
        if level is not None:
            if engine != "board":
                raise ProtocolError("gnu side: level= is the board's own player's (engine=board); the PC sets GNU's")
            if not isinstance(level, str) or len(level) > 20:
                raise ProtocolError("gnu side: level=<name of the board's level>")
            args["level"] = level
        args["opening"] = _value("opening", "b", raw.get("opening", False))
    elif do == "resign":
        kind = _value("kind", "i", raw.get("kind", 1))
        if kind not in (1, 2, 3):
            raise ProtocolError("gnu resign: kind 1 (single), 2 (gammon) or 3 (backgammon)")
        args["kind"] = kind
    elif do in ("play", "hint"):
        pos = raw.get("pos")
        if not isinstance(pos, str) or len(pos) != 14:
            raise ProtocolError("gnu %s: pos=<Position ID after the play>" % do)
        args["pos"] = pos
    elif do == "tell":
        text = raw.get("text")
        if not isinstance(text, str) or not text or len(text) > 64:
            raise ProtocolError("gnu tell: text=<at most 64 characters>")
        args["text"] = text
    if do == "opening" or "dice" in raw:
        args["dice"] = _dice(raw.get("dice"), do)
    return args


def _dice(v, do):
    # "5,3" (the text form) or [5, 3] (JSON): two dice of 1 to 6
    if isinstance(v, str):
        v = v.split(",")
    if isinstance(v, list) and len(v) == 2:
        try:
            d = (int(v[0]), int(v[1]))
        except (TypeError, ValueError):
            d = (0, 0)
        if 1 <= d[0] <= 6 and 1 <= d[1] <= 6 and not isinstance(v[0], bool) and not isinstance(v[1], bool):
            return d
    raise ProtocolError("gnu %s: dice=D1,D2, each 1 to 6" % do)
