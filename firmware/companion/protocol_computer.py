# The `gnu` command's arguments (docs/protocol.md, "A match against the computer"): what the PC's
# GNU Backgammon decided, for the board to carry out. Loaded with the first `gnu` line.

from companion.protocol_args import ProtocolError, typed_value as _value

ACTIONS = ("side", "roll", "double", "take", "drop", "beaver", "accept", "reject", "resign", "play", "hint", "tell",
           "here")
# hint: the best play for the person's roll, asked for with a held ROLL (the `advice` event); tell:
# the teacher's words on the person's last play or cube decision (bgc play --teach)
KEYS = {"side": ("side",), "resign": ("kind",), "play": ("pos",), "hint": ("pos",), "tell": ("text",)}


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
    return args
