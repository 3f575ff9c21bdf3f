# The match journal: one line per completed action, written to flash before the action is shown
# as done. Each line is a JSON object and a checksum of exactly the JSON text written:
#
#     {"a": "roll", "p": 0, "dice": [6, 4]} 3f1c2a9b
#
# so a torn or garbled line (power cut in the middle of a write, flash trouble) is recognised and
# dropped, whichever interpreter wrote it. Replaying the records through bgrules.Match rebuilds
# the match exactly: the same code serves the Pico's resume after a power cut and the host's
# replay and export. docs/formats.md describes every record.

import binascii
import json

from bgrules.match import Match, MatchError
from bgrules.position import Position, PositionError
from bgrules.rules import ruleset

VERSION = 1


class JournalError(ValueError):
    """A journal line or record that cannot be read or does not fit the match."""


def encode(record):
    """The line (with its newline) for one record."""
    text = json.dumps(record)
    return "%s %08x\n" % (text, binascii.crc32(text.encode()) & 0xFFFFFFFF)


def decode(line):
    """The record of one line; JournalError says what is wrong with it."""
    line = line.rstrip("\r\n")
    cut = line.rfind(" ")
    if cut < 0 or len(line) - cut != 9:
        raise JournalError("no checksum (torn line?)")
    text = line[:cut]
    try:
        crc = int(line[cut + 1 :], 16)
    except ValueError:
        raise JournalError("bad checksum field")
    if binascii.crc32(text.encode()) & 0xFFFFFFFF != crc:
        raise JournalError("checksum mismatch (garbled line)")
    try:
        record = json.loads(text)
    except ValueError:
        raise JournalError("not JSON")
    if not isinstance(record, dict) or "a" not in record:
        raise JournalError("not a journal record")
    return record


def parse(text):
    """Read a whole journal. Returns (records, problem): ``problem`` is None, or (line number,
    what is wrong) for the first line that could not be read; reading stops there, so what is
    returned is exactly what was completed before it."""
    records = []
    number = 0
    for line in text.split("\n"):
        number += 1
        if not line.strip():
            continue
        try:
            records.append(decode(line))
        except JournalError as exc:
            return records, (number, str(exc))
    return records, None


def settings_record(length=0, crawford=True, holland=False, auto_doubles=0, beavers=0, jacoby=False,
                    names=("White", "Black"), rules="standard"):
    return {"a": "match", "v": VERSION, "length": length, "crawford": bool(crawford), "holland": bool(holland),
            "auto": auto_doubles, "beavers": beavers, "jacoby": bool(jacoby), "names": list(names), "rules": rules}


def new_match(record):
    """The Match a settings record starts."""
    if record.get("a") != "match":
        raise JournalError("a journal starts with the match settings")
    if record.get("v") != VERSION:
        raise JournalError("journal version %r, this firmware reads %d" % (record.get("v"), VERSION))
    try:
        rules = ruleset(record.get("rules", "standard"))
    except ValueError:
        raise JournalError("unknown rules %r" % record.get("rules"))
    try:
        return Match(record["length"], record["crawford"], record["holland"], record["auto"],
                     record["beavers"], record["jacoby"], tuple(record["names"]), rules)
    except (KeyError, TypeError) as exc:
        raise JournalError("settings record lacks %s" % exc)


def apply(match, record):
    """Drive ``match`` with one action record (the inverse of what the companion journals)."""
    a = record.get("a")
    p = record.get("p")
    try:
        if a == "open":
            match.opening_roll(record["dice"][0], record["dice"][1], record.get("next"))
        elif a == "roll":
            match.roll(record["dice"][0], record["dice"][1], p, record.get("next"))
        elif a == "play":
            match.play(Position.from_id(record["pos"]), bool(record.get("condoned")), p)
        elif a in ("double", "take", "drop", "beaver", "accept", "reject"):
            getattr(match, a)(p)
        elif a == "pass":
            match.pass_turn(p)
        elif a == "resign":
            match.resign(record["kind"], p)
        elif a == "next":
            match.next_game()
        elif a in ("end", "note"):
            pass  # informational: the game end follows from the actions before it
        else:
            raise JournalError("unknown action %r" % a)
    except (MatchError, PositionError) as exc:
        raise JournalError("%s refused: %s" % (a, exc))
    except (KeyError, IndexError, TypeError):
        raise JournalError("%s record is incomplete" % a)


def replay(records):
    """(match, applied): the match after every record that applies; JournalError for the first
    one that does not, with its index in ``index``."""
    if not records:
        raise JournalError("empty journal")
    match = new_match(records[0])
    for i in range(1, len(records)):
        try:
            apply(match, records[i])
        except JournalError as exc:
            exc.index = i
            exc.match = match
            raise
    return match


class Journal:
    """A journal file on flash. ``append`` returns only once the line is written and closed:
    the action counts as done from then on."""

    def __init__(self, path):
        self.path = path
        self._unterminated = None  # unknown until the first append of this boot

    def _ends_unterminated(self):
        # A power cut between a line's checksum and its newline leaves a whole, readable line
        # with no end: the next line must not be glued onto it.
        try:
            f = open(self.path, "rb")
        except OSError:
            return False
        try:
            size = f.seek(0, 2)
            if not size:
                return False
            f.seek(size - 1)
            return f.read(1) != b"\n"
        finally:
            f.close()

    def append(self, record):
        line = encode(record)
        if self._unterminated is None:
            self._unterminated = self._ends_unterminated()
        f = open(self.path, "a")
        try:
            if self._unterminated:
                f.write("\n")
            f.write(line)
        finally:
            f.close()
        self._unterminated = False
        return line

    def read(self):
        """(records, problem) as parse(); a missing file reads as no records."""
        try:
            f = open(self.path)
        except OSError:
            return [], None
        try:
            text = f.read()
        finally:
            f.close()
        return parse(text)

    def repair(self, records):
        """Rewrite the file with only ``records`` (drops a torn last line for good)."""
        tmp = self.path + ".tmp"
        f = open(tmp, "w")
        try:
            for r in records:
                f.write(encode(r))
        finally:
            f.close()
        import os

        os.rename(tmp, self.path)
