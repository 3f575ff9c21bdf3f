# Reading a journal back at boot (``recover``) and repairing a damaged one (``salvage``): the
# Pico needs this once per boot, so it lives apart from companion.journal (which every append
# uses) and is imported only when a journal is read back; companion.journal hands these names
# out on first use, so ``journal.recover`` and the like work as before (docs/performance.md).

from companion import journal as J

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


def recover(path):
    """The Reading of the journal at ``path``, streamed (a few lines in RAM at a time). A missing
    file reads as no records; other OSErrors pass through. Never raises for what the file holds."""
    r = Reading()
    step = J.apply  # how a record after the first changes the match (or the chouette)
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
                    if record.get("a") == "chouette":
                        # A chouette evening: its session module, imported only for one.
                        from companion import chouette_session

                        r.match = chouette_session.new_chouette(record)
                        step = chouette_session.apply
                    else:
                        r.match = J.new_match(record)
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
        import os  # lazily: the wasm MicroPython used by some tests ends on import os

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
