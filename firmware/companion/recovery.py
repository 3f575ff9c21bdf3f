# Reading journal records back: checking a record's fields, the Match a settings record starts,
# applying an action record, replaying, reading a file at boot (``recover``) and repairing a
# damaged one (``salvage``). The Pico needs this at boot and for a new match, not for every
# append, so it lives apart from companion.journal and is imported where it is used
# (docs/performance.md); a chouette evening's records are read here too (new_chouette,
# apply_chouette), so companion.chouette_session imports this module and not the other way.

from bgrules.match import Match, MatchError
from bgrules.position import Position, PositionError
from bgrules.rules import ruleset
from companion import journal as J

# What each record must hold (docs/formats.md), checked before it reaches bgrules.Match, so that
# a record with a right checksum but a wrong field is refused by name and never half-applied.
# Kinds: i a number, p a player (0 or 1), b true/false, s text, d two dice, n two names.
_P = (("p", "p"),)
FIELDS = {
    "match": (("length", "i"), ("crawford", "b"), ("holland", "b"), ("auto", "i"), ("beavers", "i"),
              ("jacoby", "b"), ("names", "n")),
    "open": (("dice", "d"),),
    "roll": (("p", "p"), ("dice", "d")),
    "choose": (("p", "p"), ("dice", "d")),
    "play": (("p", "p"), ("move", "s"), ("pos", "s")),
    "double": _P, "take": _P, "drop": _P, "beaver": _P, "accept": _P, "reject": _P, "pass": _P,
    "resign": (("p", "p"), ("kind", "i")),
    "next": (),
    "back": (("p", "p"), ("to", "s")),  # a play taken back against the computer: the match before it
    "end": (),  # informational: the result follows from the actions
    "note": (),
    "setup": (("pos", "s"), ("mid", "s")),  # the first game starts at a set position (bgc setup)
}
OPTIONAL = {"match": (("rules", "s"), ("board", "p"), ("level", "s")), "play": (("condoned", "b"), ("w", "w"))}
KIND_WORDS = {"i": "a number", "p": "player 0 or 1", "b": "true or false", "s": "text", "d": "two dice",
              "n": "two names", "w": "two counts"}


def _fits(kind, v):
    if kind == "i":
        return type(v) is int
    if kind == "p":
        return type(v) is int and v in (0, 1)
    if kind == "b":
        return type(v) is bool
    if kind == "s":
        return type(v) is str
    if type(v) is not list or len(v) != 2:
        return False
    want = int if kind in "dw" else str
    return type(v[0]) is want and type(v[1]) is want


def check(record):
    """J.JournalError naming the first field of ``record`` that is missing or of the wrong kind."""
    a = record.get("a")
    fields = FIELDS.get(a)
    if fields is None:
        raise J.JournalError("unknown action %s" % J._short(a))
    for key, kind in fields:
        if key not in record:
            raise J.JournalError("%s record lacks %r" % (a, key))
        if not _fits(kind, record[key]):
            raise J.JournalError("%s record: %s is not %s" % (a, key, KIND_WORDS[kind]))
    for key, kind in OPTIONAL.get(a, ()):
        if key in record and not _fits(kind, record[key]):
            raise J.JournalError("%s record: %s is not %s" % (a, key, KIND_WORDS[kind]))


def new_match(record):
    """The Match a settings record starts."""
    if record.get("a") != "match":
        raise J.JournalError("a journal starts with the match settings")
    v = record.get("v")
    if type(v) is not int or v != J.VERSION:
        raise J.JournalError("journal version %s, this firmware reads %d" % (J._short(v), J.VERSION))
    check(record)
    name = record.get("rules", "standard")
    try:
        rules = ruleset(name)
    except (ValueError, TypeError):
        raise J.JournalError("unknown rules %s" % J._short(name))
    try:
        match = Match(record["length"], record["crawford"], record["holland"], record["auto"],
                      record["beavers"], record["jacoby"], (record["names"][0], record["names"][1]), rules)
    except MatchError as exc:
        raise J.JournalError(str(exc))  # the reason as the players see it (the new-match menu uses this too)
    # The players roll their own dice and key them in (a board setting kept with the match).
    match.own_dice = record.get("dice") == "own"
    # The board's own player plays a side (started from the menu, docs/board-player.md): kept with
    # the match, so a power cut does not turn the match into one for two people
    match.board_player = (record["board"], record.get("level", "expert")) if "board" in record else None
    return match


def apply(match, record):
    """Drive ``match`` with one action record (the inverse of what the companion journals). A
    record that does not fit raises J.JournalError and leaves ``match`` as it was: the fields are
    checked first, and bgrules.Match checks an action before it changes anything."""
    check(record)
    a = record["a"]
    p = record.get("p")
    try:
        if a == "open":
            match.opening_roll(record["dice"][0], record["dice"][1], record.get("next"))
        elif a == "roll":
            match.roll(record["dice"][0], record["dice"][1], p, record.get("next"))
        elif a == "choose":
            from bgrules import turn_parts  # a chosen double or free-choice roll: their variants only

            turn_parts.choose(match, record["dice"][0], record["dice"][1], p)
        elif a == "play":
            final = Position.from_id(record["pos"], match.rules.opposite, match.rules.pinning)
            if "w" in record:  # checkers waiting off the board (the ID counts them as off)
                final.set_waiting(record["w"][0], record["w"][1])
            match.play(final, bool(record.get("condoned")), p)
        elif a in ("double", "take", "drop", "beaver", "accept", "reject"):
            getattr(match, a)(p)
        elif a == "pass":
            match.pass_turn(p)
        elif a == "resign":
            match.resign(record["kind"], p)
        elif a == "next":
            match.next_game()
        elif a == "setup":
            from bgrules.match_setup import set_up  # a match from a set position only

            set_up(match, record["pos"], record["mid"])
        elif a == "back":
            # the person's last play (and the computer's reply) taken back: the match as it was
            # before that play, saved by Match.dumps (companion.phase_computer.take_back)
            from bgrules.match_read import restore

            restore(match, record["to"], p)
        # "end" and "note" are informational: the game end follows from the actions before it
    except (MatchError, PositionError) as exc:
        raise J.JournalError("%s refused: %s" % (a, exc))


# Board records the match journal already knows; in a chouette they drive the game on the board.
CHOUETTE_BOARD_ACTIONS = ("open", "roll", "play", "pass", "resign", "accept", "reject")


def new_chouette(record):
    """The Chouette a chouette journal's first record opens (companion.chouette_session writes it)."""
    from bgrules.chouette import Chouette, ChouetteError  # a chouette's only

    if record.get("v") != J.CHOUETTE_VERSION:
        raise J.JournalError("chouette journal version %r, this firmware reads %d" % (record.get("v"), J.CHOUETTE_VERSION))
    try:
        return Chouette(record["names"], record["cubes"], record["lone"], record["partner"], record["jacoby"])
    except (KeyError, TypeError) as exc:
        raise J.JournalError("chouette record lacks %s" % exc)
    except ChouetteError as exc:
        raise J.JournalError("chouette settings: %s" % exc)


def apply_chouette(ch, record):
    """Drive the chouette with one record (the inverse of what companion.chouette_session journals)."""
    from bgrules.chouette import ChouetteError, SEVERAL, GAME  # a chouette's only

    a = record.get("a")
    try:
        if a in CHOUETTE_BOARD_ACTIONS:
            if ch.phase != GAME or ch.is_over():
                raise ChouetteError("no game on the board")
            apply(ch.match, record)
            ch.check_over()
        elif a == "seat":
            if record["name"] != ch.to_roll():
                raise ChouetteError("%s does not roll now" % record["name"])
            ch.seat_roll(record["die"])
        elif a == "cgame":
            ch.start_game()
        elif a == "cdouble":
            if record["side"] == 0:
                ch.box_double(record.get("names"))
            else:
                # with one common cube the double is the captain's, whatever member an older
                # firmware wrote down (it took a member's double as the captain's)
                ch.team_double(record.get("name") if ch.cubes == SEVERAL else None)
        elif a == "canswer":
            ch.answer(record["take"], record["name"])
        elif a == "cbox":
            ch.box_answer(record["take"])
        elif a == "join":
            ch.join(record["name"])
        elif a == "leave":
            ch.leave(record["name"])
        elif a == "cubes":
            ch.set_cubes(record["cubes"])
        elif a == "partner":
            ch.choose_partner(record["accepts"], record.get("lot", 0))
        elif a == "close":
            ch.close()
        elif a in ("end", "ledger", "note"):
            pass  # informational: they follow from the actions before them
        else:
            raise J.JournalError("unknown action %r" % a)
    except MatchError as exc:
        raise J.JournalError("%s refused: %s" % (a, exc))
    except (KeyError, IndexError, TypeError):
        raise J.JournalError("%s record is incomplete" % a)


def _start(record):
    """The match, or chouette evening, a journal's first record opens, and the function that
    applies each later record to it."""
    if record.get("a") == "chouette":
        return new_chouette(record), apply_chouette
    return new_match(record), apply


def replay(records):
    """The match (or chouette evening) after every record; J.JournalError for the first one that
    does not apply, with its index in ``index`` and the match before it in ``match``."""
    if not records:
        raise J.JournalError("empty journal")
    match, step = _start(records[0])
    for i in range(1, len(records)):
        try:
            step(match, records[i])
        except J.JournalError as exc:
            exc.index = i
            exc.match = match
            raise
    return match


def _lines(f):
    """(line number, offset just past the line, line bytes) for each line of the binary file
    ``f``; the bytes are None for a line longer than MAX_LINE (not read into RAM whole). A last
    line without its newline comes with the offset as -1 - offset."""
    number = 0
    pos = 0
    buf = b""
    over = False
    while True:
        chunk = f.read(J.CHUNK)
        if not chunk:
            break
        buf += chunk
        while True:
            i = buf.find(b"\n")
            if i < 0:
                break
            number += 1
            pos += i + 1
            yield number, pos, None if over or i > J.MAX_LINE else buf[:i]
            over = False
            buf = buf[i + 1 :]
        if len(buf) > J.MAX_LINE:
            pos += len(buf)
            buf = b""
            over = True
    if buf or over:
        yield number + 1, -1 - (pos + len(buf)), None if over else buf  # negative: no newline at the end


class Reading:
    """What a journal file holds, read at boot (``recover``): the match after its consistent
    part, and where that part ends."""

    def __init__(self):
        self.match = None  # the Match after the last record that fits, or None
        self.records = 0  # records replayed, the settings record included
        self.good = 0  # bytes of the file up to the end of the last record replayed
        self.problem = None  # None, or (line number, what is wrong) for the first line that does not fit
        self.cut = False  # that line is a torn write: unreadable, unterminated, not a whole line plus a byte
        self.later = 0  # readable lines after it (not replayed: they are kept beside the journal)
        self.after = 0  # non-empty lines after it

    @property
    def torn(self):
        """The only damage is a torn last line: a power cut in the middle of a write (append
        writes the newline last, so a torn line never has one)."""
        return self.problem is not None and self.cut and not self.after


def recover(path, settle=False):
    """The Reading of the journal at ``path``, streamed (a few lines in RAM at a time). A missing
    file reads as no records; other OSErrors pass through. Never raises for what the file holds.
    ``settle`` (power-up): the lines a power cut left in the journal's tail (companion.tail) are
    moved into it first."""
    if settle:
        from companion import tail

        tail.flush(J.Journal(path), False)
    r = Reading()
    step = None  # how a record after the first changes the match (or the chouette): _start
    try:
        f = open(path, "rb")
    except OSError as exc:
        if exc.args and exc.args[0] == 2:  # ENOENT: no journal yet
            return r
        raise
    try:
        for number, end, line in _lines(f):
            if line is not None and not line.strip():
                continue
            if r.problem is not None:
                r.after += 1
                if line is not None:
                    try:
                        J.decode(line)
                        r.later += 1
                    except J.JournalError:
                        pass
                continue
            readable = False
            try:
                if line is None:
                    raise J.JournalError("line too long")
                record = J.decode(line)
                readable = True
                if r.match is None:
                    r.match, step = _start(record)
                else:
                    step(r.match, record)
            except J.JournalError as exc:
                r.problem = (number, str(exc))
                r.cut = not readable and end < 0 and line is not None and not _whole(line[:-1])
                continue
            except Exception as exc:  # a fault of the firmware itself must not stop every boot
                r.problem = (number, "cannot be replayed (%s)" % J._short(exc))
                r.match = None  # it may have been half-changed: resume nothing, keep the file
                continue
            r.records += 1
            r.good = end if end >= 0 else -1 - end
    finally:
        f.close()
    return r


def _whole(line):
    # A whole line whose newline was damaged (not a torn write).
    try:
        J.decode(line)
        return True
    except J.JournalError:
        return False


def _copy(src, dst, limit=-1, tail=""):
    """Copy the first ``limit`` bytes (all with -1) of ``src`` into a new ``dst``, then ``tail``."""
    fi = open(src, "rb")
    try:
        fo = open(dst, "wb")
        try:
            while limit:
                chunk = fi.read(J.CHUNK if limit < 0 else min(J.CHUNK, limit))
                if not chunk:
                    break
                fo.write(chunk)
                if limit > 0:
                    limit -= len(chunk)
            if tail:
                fo.write(tail.encode())
        finally:
            fo.close()
    finally:
        fi.close()


def salvage(path, reading, kept=None, fs=None):
    """Make the journal at ``path`` hold only its consistent part (``reading`` from recover),
    then a note record saying what happened. ``kept``: a path that does not exist yet, where the
    whole file is copied first, as it was (None drops the damaged part: only for a torn last
    line, which holds no record). Every step leaves a file the next boot reads again: the copy
    and the new journal are written under temporary names and renamed into place."""
    if fs is None:
        import os

        fs = os
    if kept:
        _copy(path, kept + ".tmp")
        fs.rename(kept + ".tmp", kept)
    tail = ""
    if reading.records:
        if reading.good and not J._ends_with_newline(path, reading.good):
            tail = "\n"
        tail += J.encode({"a": "note", "text": ("" if kept else "power cut: ") + salvage_note(reading, kept)})
    _copy(path, path + ".tmp", reading.good, tail)
    fs.rename(path + ".tmp", path)


def salvage_note(reading, kept):
    """The words for what ``salvage`` did (the note record, the serial event, the host)."""
    line, why = reading.problem
    if kept is None:
        return "dropped line %d: %s" % (line, why)
    slash = kept.rfind("/")
    return "line %d damaged (%s): %d readable line%s after it not replayed; the file as it was is kept as %s" % (
        line, why, reading.later, "" if reading.later == 1 else "s", kept[slash + 1 :])
