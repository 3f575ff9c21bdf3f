# The match journal: one line per completed action, written to flash before the action is shown
# as done. Each line is a JSON object and a checksum of exactly the JSON text written:
#
#     {"a": "roll", "p": 0, "dice": [6, 4]} 3f1c2a9b
#
# so a torn or garbled line (power cut in the middle of a write, flash trouble) is recognised,
# whichever interpreter wrote it. Replaying the records through bgrules.Match rebuilds the match
# exactly: the same code serves the Pico's resume after a power cut and the host's replay and
# export. Whatever the file holds (any byte anywhere, a record with a right checksum but a wrong
# field or a play the rules refuse), reading it never raises: ``recover`` finds the consistent
# part and ``salvage`` keeps it, the damaged file being copied aside first so that no record is
# thrown away. docs/formats.md describes every record and the recovery. Reading records back
# (check, new_match, apply, replay, recover, salvage) is companion.recovery's, which imports this
# module: it is kept out of the RAM every append needs, imported where it is used.

import binascii
import json


VERSION = 1
CHOUETTE_VERSION = 1  # of a chouette evening's journal (companion.chouette_session writes it)
# The longest line the firmware writes is the settings record with two 20-character names (JSON
# may escape a character to 12 bytes): a longer line is damage, and is never held in RAM whole.
MAX_LINE = 1024
CHUNK = 512  # bytes read (and copied) at a time


class JournalError(ValueError):
    """A journal line or record that cannot be read or does not fit the match."""


def _short(value):
    # Never echo a long piece of a damaged file back into a message.
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def encode(record):
    """The line (with its newline) for one record."""
    text = json.dumps(record)
    return "%s %08x\n" % (text, binascii.crc32(text.encode()) & 0xFFFFFFFF)


def decode(line):
    """The record of one line (bytes or str); JournalError says what is wrong with it. The
    checksum is taken over the bytes, so a byte that is not UTF-8 is caught like any other."""
    if isinstance(line, str):
        line = line.encode()
    line = line.rstrip(b"\r\n")
    if len(line) > MAX_LINE:
        raise JournalError("line too long")
    cut = line.rfind(b" ")
    if cut < 0 or len(line) - cut != 9:
        raise JournalError("no checksum (torn line?)")
    data = line[:cut]
    crc = "%08x" % (binascii.crc32(data) & 0xFFFFFFFF)
    if crc.encode() != line[cut + 1 :].lower():
        raise JournalError("checksum mismatch (garbled line)")
    try:
        record = json.loads(data.decode())
    except (ValueError, RuntimeError):  # UnicodeError is a ValueError; RuntimeError: nesting
        raise JournalError("not JSON")
    if not isinstance(record, dict) or type(record.get("a")) is not str:
        raise JournalError("not a journal record")
    return record


def parse(text):
    """Read a whole journal (str or bytes). Returns (records, problem): ``problem`` is None, or
    (line number, what is wrong) for the first line that could not be read; reading stops there,
    so what is returned is exactly what was completed before it."""
    if isinstance(text, str):
        text = text.encode()
    records = []
    number = 0
    for line in text.split(b"\n"):
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


def _ends_with_newline(path, size=-1):
    """Whether the file's first ``size`` bytes (-1: all) end with a newline; an empty or missing
    file counts as ended."""
    try:
        f = open(path, "rb")
    except OSError:
        return True
    try:
        if size < 0:
            size = f.seek(0, 2)
        if not size:
            return True
        f.seek(size - 1)
        return f.read(1) == b"\n"
    finally:
        f.close()


class Journal:
    """A journal file on flash. ``append`` returns only once the line is written and closed:
    the action counts as done from then on. On littlefs (the Pico's flash) the line goes to the
    journal's tail, a small file beside it that costs no flash erase, moved into the journal
    where nobody waits (companion.tail)."""

    def __init__(self, path):
        self.path = path
        self._unterminated = None  # unknown until the first append of this boot
        # where the next line goes in the journal, its tail included (companion.tail); None:
        # not known yet; -1: lines go to the file itself (not on littlefs, a chouette evening's)
        self.end = None

    def append(self, record):
        line = encode(record)
        if self.end != -1:
            from companion import tail

            if tail.append(self, line, _ends_with_newline):
                return line
        if self._unterminated is None:
            # A power cut between a line's checksum and its newline leaves a whole, readable line
            # with no end: the next line must not be glued onto it.
            self._unterminated = not _ends_with_newline(self.path)
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
            f = open(self.path, "rb")
        except OSError:
            return [], None
        try:
            data = f.read()
        finally:
            f.close()
        return parse(data)
