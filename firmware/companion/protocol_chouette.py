# The arguments of the chouette commands (docs/protocol.md): read only when a chouette command
# comes in, so a two-player match does not hold them in RAM (companion.protocol parses the rest;
# the error and the typed values both use are companion.codes').

from companion.codes import ProtocolError, CHOUETTE_WORD, typed_value

# their keys and types (L: list of names, A: list of on/off answers)
CHOUETTE_KEYS = {"chouette": {"names": "L", "cubes": "s", "lone": "i", "partner": "i", "jacoby": "b", "force": "b"},
                 "join": {"name": "s"}, "leave": {"name": "s"}, "ledger": {}, "cubes": {"cubes": "s"},
                 "partner": {"accepts": "A"}, "cdouble": {"name": "s"},
                 "boxdouble": {"names": "L"}}


def chouette_args(cmd, raw):
    keys = CHOUETTE_KEYS[cmd]
    args = {}
    for k in raw:
        kind = keys.get(k)
        if kind is None:
            raise ProtocolError("%s: unknown key %r" % (cmd, k[:20]))
        v = raw[k]
        if kind in ("L", "A"):
            if isinstance(v, str):
                v = v.split(",") if v else []
            if not isinstance(v, list):
                raise ProtocolError("%s: a list separated by commas" % k)
            if kind == "A":
                v = [typed_value(k, "b", x) for x in v]
            else:
                v = [x.strip() if isinstance(x, str) else x for x in v]
                for n in v:
                    if not isinstance(n, str) or not n or len(n) > 20:
                        raise ProtocolError("names: 1 to 20 characters each")
        else:
            v = typed_value(k, kind, v)
        args[k] = v
    need = CHOUETTE_WORD.get(cmd, "names" if cmd == "chouette" else None)
    if cmd == "boxdouble":
        need = None  # no names: every member whose cube the box may turn
    if need and need not in args:
        raise ProtocolError("%s needs %s=" % (cmd, need))
    if cmd == "chouette" and not 3 <= len(args["names"]) <= 12:
        raise ProtocolError("chouette: 3 to 12 names")
    if "cubes" in args and args["cubes"] not in ("common", "several"):
        raise ProtocolError("cubes: common or several")
    return args
