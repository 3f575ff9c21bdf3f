# Numbers and names the controller's modules share (controller.py, its phase modules, and the two
# halves of the serial protocol's parser: companion.protocol parses every line and imports
# companion.protocol_chouette for a chouette command only; both take their error, typed values and
# the chouette commands' bare word from here, so neither imports the other back).

from bgrules import OPENING, ROLL, DOUBLED, PLAY, RESIGN, GAME_OVER, MATCH_OVER, CHOOSE

# Button codes and press kinds: the numbers of drivers.buttons (not imported: it needs machine).
ROLL_W = 0
CUBE_W = 1
ROLL_B = 2
CUBE_B = 3
SHORT = 1
LONG = 2

KIND_WORDS = ("drop", "single", "gammon", "backgammon")
# The controller's phase for each phase of bgrules.match.Match (docs/protocol.md).
PHASE_OF = {OPENING: "opening", ROLL: "roll", DOUBLED: "doubled", PLAY: "moving", RESIGN: "resign",
            GAME_OVER: "gameover", MATCH_OVER: "matchover", CHOOSE: "choose"}


def chouette():
    # The chouette's session (and rules) are imported on first use: about 17 KB of RAM on a Pico
    # that a two-player match does not need.
    from companion import chouette_session

    return chouette_session


def computer():
    # A match against the PC's GNU Backgammon (the `gnu` command): its hooks in the controller call
    # into companion.phase_computer, which a board that never plays the computer never loads.
    from companion import phase_computer

    return phase_computer


def parts():
    # A turn made of parts (chosen doubles, rolling again): only for the variants that have one.
    from companion import parts_board

    return parts_board


# --- the serial protocol's parser (docs/protocol.md) ---------------------------------------------

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
