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
import os


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
    the action counts as done from then on.

    On littlefs (the Pico's flash) a line appended to a file copies the file's last block into
    a newly erased one (littlefs never programs a block it has closed again): a 4 KB sector
    erase, 45 ms typical and 400 ms at most on the W25Q16JV, in every answer that journals.
    There the lines go first to small tail files beside the journal (m0001.jnl.t/OFFSET, OFFSET
    being where their bytes belong in m0001.jnl): a file under 512 bytes is kept inside its
    directory's metadata log, so a line costs a commit to that log and no erase while the log's
    block has room. ``fold`` moves the tails into the journal and makes their directory anew
    (a metadata block with room for the next lines): the erases come there, in a loop step that
    answers nothing (main.App), at power-up, and before the journal is read or handed over.
    docs/formats.md: the tail files; docs/performance.md: the figures."""

    def __init__(self, path):
        self.path = path
        self._unterminated = None  # unknown until the first append of this boot
        self._end = None  # where the next line goes in the journal, tails included; None: fold
        # first (unknown, or a write failed); -1: not littlefs, lines are appended to the file
        # the offset naming the tail file lines go to now; None: no tail, their folder is made;
        # -1: not made yet (a new journal), lines go to the file while it is small
        self._tail = None

    def append(self, record):
        line = encode(record)
        if self._end is None:
            self.fold()
        if self._unterminated is None:
            # A power cut between a line's checksum and its newline leaves a whole, readable line
            # with no end: the next line must not be glued onto it.
            self._unterminated = not _ends_with_newline(self.path)
        data = ("\n" + line if self._unterminated else line).encode()
        end = self._end
        tail = self._tail
        # 400 bytes a file: below littlefs's inline limit of 512 (a block / 8), where it would be
        # moved out into a block of its own (an erase)
        if end < 0 or tail == -1 and end + len(data) <= 400:
            name = self.path  # off littlefs; or a new journal's first lines (the file inline)
        else:
            if tail == -1:  # a first line too long for that: the folder made now (an erase)
                os.mkdir(self.path + ".t")
                open(self.path, "ab").close()  # Store.latest finds the match by its file
            if tail is None or tail < 0 or end - tail + len(data) > 400:
                self._tail = end
            name = "%s.t/%d" % (self.path, self._tail)
        try:
            f = open(name, "ab")
            try:
                f.write(data)
            finally:
                f.close()
        except OSError:
            if end >= 0:
                self._end = None  # what reached the tail is read back from flash by fold
            raise
        if end >= 0:
            self._end = end + len(data)
        self._unterminated = False
        return line

    def fold(self, keep=True):
        """Move the tail files' lines into the journal file, oldest first (each copied whole, then
        removed: a power cut between leaves a tail whose bytes already end the file, recognised
        by its offset), and make their directory anew when ``keep``, else remove it. Erases
        flash: for a loop step that answers nothing, power-up, and before the file is read or
        handed over. A tail that fits neither before nor after the file's end (the file changed
        by something else) is kept beside it as NAME.damaged (NAME.damaged2, ...), never
        appended. Returns whether there was a tail to move; does nothing off littlefs, nor when
        no line was appended since the last fold (the directory is fresh) and ``keep``."""
        end = self._end
        if end is not None and self._tail is None and keep:
            return False
        if end is None:
            try:
                import vfs

                # the file system under the journal's path: the longest mount point before it
                mounts = vfs.mount()
                path = self.path if self.path[:1] == "/" else os.getcwd().rstrip("/") + "/" + self.path
                under = None
                for fs, point in mounts:
                    if path.startswith(point.rstrip("/") + "/") and (under is None or len(point) > len(under[1])):
                        under = (fs, point)
                end = 0 if under is not None and type(under[0]) is vfs.VfsLfs2 else -1
            except (ImportError, AttributeError, TypeError):  # CPython, a port without vfs.mount()
                end = -1
        if end < 0:
            self._end = -1
            return False
        self._tail = None
        self._unterminated = None
        tails = self.path + ".t"
        try:
            names = os.listdir(tails)
        except OSError:
            names = None
        had = bool(names)
        for at in sorted(int(n) for n in names or () if n.isdigit()):
            name = "%s.t/%d" % (self.path, at)
            f = open(name, "rb")
            try:
                data = f.read()
            finally:
                f.close()
            try:
                size = os.stat(self.path)[6]
            except OSError:
                size = 0
            if size == at:
                f = open(self.path, "ab")
                try:
                    f.write(data)
                finally:
                    f.close()
            elif size != at + len(data):
                n = 1
                while True:
                    kept = "%s.damaged%s" % (self.path, n if n > 1 else "")
                    try:
                        os.stat(kept)
                    except OSError:
                        break
                    n += 1
                os.rename(name, kept)
                continue
            os.remove(name)
        if names is not None:
            try:
                os.rmdir(tails)
                names = None
            except OSError:
                pass  # a name that is no tail's (none is written there): the directory stays
        try:
            size = os.stat(self.path)[6]
        except OSError:
            size = 0
            if keep and names is None:
                self._tail = -1  # no file yet: its first lines go into it, the folder comes next
                keep = False
        if keep and names is None:
            os.mkdir(tails)
        self._end = size
        return had

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
