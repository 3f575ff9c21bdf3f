# The serial protocol (docs/protocol.md): command lines in, one JSON event per line out.
# Commands come as JSON ({"cmd": "status"}) or as words for a human in a terminal
# ("new length=5 names=Ann,Bob"). Anything malformed raises ProtocolError with what is wrong;
# the controller answers it with an error event and the game goes on. The events' line is written
# by companion.controller (Companion.emit); this parser is imported with the first command line
# (companion.commands), so a board that no host talks to never holds it in RAM.

import json

from companion.protocol_args import ProtocolError, CHOUETTE_WORD, typed_value

MAX_LINE = 255
COMMANDS = ("status", "new", "options", "logs", "delete", "calibrate", "view", "dice",
            "chouette", "join", "leave", "ledger", "cubes", "partner", "cdouble", "boxdouble", "gnu")
CHOUETTE_COMMANDS = COMMANDS[8:16]  # their arguments: companion.protocol_chouette
# new-match keys and their types: b bool, i int, n names
NEW_KEYS = {"length": "i", "crawford": "b", "holland": "b", "auto": "i", "beavers": "i", "jacoby": "b",
            "names": "n", "force": "b", "rules": "s", "variant": "s", "own_dice": "b",
            "pos": "s", "mid": "s"}  # pos, mid: a set position's Position ID and Match ID (bgc setup)


def parse(line):
    """(command, args) of one input line; ProtocolError when it is not a valid command."""
    if len(line) > MAX_LINE:
        raise ProtocolError("line too long (%d > %d)" % (len(line), MAX_LINE))
    line = line.strip()
    if not line:
        raise ProtocolError("empty line")
    if line[0] == "{":
        try:
            msg = json.loads(line)
        except ValueError:
            raise ProtocolError("not JSON")
        if not isinstance(msg, dict):
            raise ProtocolError("not a JSON object")
        cmd = msg.get("cmd")
        if not isinstance(cmd, str):
            raise ProtocolError('no "cmd"')
        raw = {}
        for k in msg:
            if k != "cmd":
                raw[k] = msg[k]
    else:
        words = line.split()
        cmd = words[0].lower()
        raw = {}
        for w in words[1:]:
            if "=" in w:
                k, v = w.split("=", 1)
                raw[k.lower()] = v
            elif cmd == "dice" and w.isdigit():
                raw.setdefault("dice", []).append(int(w))
            elif cmd == "delete" and "name" not in raw:
                raw["name"] = w
            elif cmd in CHOUETTE_WORD and CHOUETTE_WORD[cmd] not in raw:
                raw[CHOUETTE_WORD[cmd]] = w
            elif cmd == "new" and w.lower() in ("force", "money"):
                raw["force" if w.lower() == "force" else "length"] = "1" if w.lower() == "force" else "0"
            elif cmd == "new" and w.isdigit():
                raw["length"] = w
            else:
                raise ProtocolError("%s: unexpected %r" % (cmd, w))
    if cmd not in COMMANDS:
        raise ProtocolError("unknown command %r (status, new, options, logs, delete, calibrate, view, dice, chouette, "
                            "join, leave, ledger, cubes, partner, cdouble, boxdouble, gnu)" % cmd[:20])
    args = {}
    if cmd == "new":
        for k in raw:
            kind = NEW_KEYS.get(k)
            if kind is None:
                raise ProtocolError("new: unknown setting %r" % k[:20])
            args[k] = typed_value(k, kind, raw[k])
    elif cmd == "delete":
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise ProtocolError("delete: which log? (delete m0001.jnl)")
        args["name"] = name
        for k in raw:
            if k != "name":
                raise ProtocolError("delete: unknown key %r" % k[:20])
    elif cmd == "dice":
        for k in raw:
            if k != "dice":
                raise ProtocolError("dice: unknown key %r (dice 6 4)" % k[:20])
        args["dice"] = raw.get("dice")
    elif cmd == "view":
        for k in raw:
            if k != "on":
                raise ProtocolError("view: unknown key %r (view on=1)" % k[:20])
        args["on"] = typed_value("on", "b", raw.get("on", True))
    elif cmd in CHOUETTE_COMMANDS:
        from companion.protocol_chouette import chouette_args  # a chouette's only: loaded for one

        args = chouette_args(cmd, raw)
    elif cmd == "gnu":
        from companion import protocol_computer  # a match against the computer's only

        args = protocol_computer.gnu_args(raw)
    elif raw:
        raise ProtocolError("%s takes no arguments" % cmd)
    return cmd, args
