# What both halves of the serial protocol's parser share (docs/protocol.md): its error, the value
# of a key=value argument read as its type, and the word a chouette command takes without "key=".
# companion.protocol parses every line and imports companion.protocol_chouette for a chouette
# command only; both import these from here, so neither imports the other back.

# the word a chouette command takes without "key=" (join Anna, cubes several)
# and the `gnu` command's action (gnu play pos=...)
CHOUETTE_WORD = {"join": "name", "leave": "name", "cubes": "cubes", "cdouble": "name", "boxdouble": "names",
                 "gnu": "do"}
_TRUE = ("1", "on", "true", "yes")
_FALSE = ("0", "off", "false", "no")


class ProtocolError(ValueError):
    pass


def typed_value(key, kind, v):
    """The argument ``key``=``v`` read as ``kind`` (b on/off, i a number, n two names, else a
    word); ProtocolError says what it should be."""
    if kind == "b":
        if isinstance(v, bool):
            return v
        if isinstance(v, int) and v in (0, 1):
            return bool(v)
        if isinstance(v, str):
            if v.lower() in _TRUE:
                return True
            if v.lower() in _FALSE:
                return False
        raise ProtocolError("%s: on or off, got %r" % (key, v))
    if kind == "i":
        if isinstance(v, bool):
            raise ProtocolError("%s: a number, got %r" % (key, v))
        if isinstance(v, int):
            return v
        if isinstance(v, str):
            if v.lower() == "money":
                return 0
            try:
                return int(v)
            except ValueError:
                pass
        raise ProtocolError("%s: a number, got %r" % (key, v))
    if kind == "n":
        if isinstance(v, str):
            v = v.split(",")
        if not isinstance(v, list) or len(v) != 2:
            raise ProtocolError("names: two names")
        for n in v:
            if not isinstance(n, str) or not n.strip() or len(n) > 20:
                raise ProtocolError("names: 1 to 20 characters each")
        return [v[0].strip(), v[1].strip()]
    if not isinstance(v, str):
        raise ProtocolError("%s: a word, got %r" % (key, v))
    return v
