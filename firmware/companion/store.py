# The journal directory on flash: one file per match (mNNNN.jnl, the number only grows), the
# host's list of exported logs, and the low-flash clean-up. File-system calls go through ``fs``
# (the ``os`` module on the Pico) so that tests can give a small or failing flash.

LOW_FREE = 16 * 1024  # the least free space a new match leaves before "Flash low" (small volumes)
LOW_PART = 10  # "Flash low" once less than 1/LOW_PART of the volume is free (exported logs go first)
EXPORTED = "exported"
DAMAGED = ".damaged"  # m0001.jnl.damaged: a damaged journal as it was, kept when the board repaired it


def _is_log(name):
    return len(name) == 9 and name[0] == "m" and name.endswith(".jnl") and name[1:5].isdigit()


def _is_kept(name):
    # m0001.jnl.damaged, m0001.jnl.damaged2, ...: a damaged log as it was (companion.journal.salvage)
    rest = name[9:]
    return _is_log(name[:9]) and rest.startswith(DAMAGED) and (rest == DAMAGED or rest[len(DAMAGED):].isdigit())


class Store:
    def __init__(self, directory="/journal", fs=None):
        if fs is None:
            import os

            fs = os
        self.fs = fs
        self.dir = directory.rstrip("/") or "/"

    def path(self, name):
        return self.dir + "/" + name

    def ensure(self):
        """Make the journal folder. A file where it should be (copied there by hand, a flash
        from another program) is renamed aside, never deleted: returns its new path, else None."""
        aside = None
        try:
            is_dir = self.fs.stat(self.dir)[0] & 0x4000
        except OSError:
            is_dir = None  # not there yet
        if is_dir == 0 and self.dir != "/":
            n = 1
            while True:
                aside = self.dir + ".file" + (str(n) if n > 1 else "")
                try:
                    self.fs.stat(aside)
                except OSError:
                    break
                n += 1
            try:
                self.fs.rename(self.dir, aside)
            except OSError:
                aside = None  # the first append will say what is wrong
        try:
            self.fs.mkdir(self.dir)
        except OSError:
            pass  # exists (or cannot be made: the first append will say so)
        return aside

    def names(self):
        """Match logs, oldest first."""
        try:
            found = self.fs.listdir(self.dir)
        except OSError:
            return []
        out = [n for n in found if _is_log(n)]
        out.sort()
        return out

    def latest(self):
        names = self.names()
        return names[-1] if names else None

    def next_name(self):
        last = self.latest()
        n = int(last[1:5]) + 1 if last else 1
        return "m%04d.jnl" % n

    def damaged_name(self, name):
        """A name not yet taken for the copy of the damaged log ``name``: NAME.damaged, then
        NAME.damaged2, ..."""
        n = 1
        while True:
            kept = name + DAMAGED + (str(n) if n > 1 else "")
            if self.size(kept) < 0:
                return kept
            n += 1

    def size(self, name):
        try:
            return self.fs.stat(self.path(name))[6]
        except OSError:
            return -1

    def exported(self):
        """Names ``bgc pull`` has verified and listed in /journal/exported."""
        try:
            f = open(self.path(EXPORTED))
        except OSError:
            return []
        try:
            text = f.read()
        finally:
            f.close()
        return [w.strip() for w in text.split("\n") if w.strip()]

    def space(self):
        """(free bytes, size in bytes) of the journal's file system, (-1, -1) when the port cannot
        tell. Near full, littlefs counts more blocks in use than the volume has (its count takes
        blocks that copy-on-write holds twice: 363 of 352 on a Pico): that is 0 free, not unknown."""
        try:
            st = self.fs.statvfs(self.dir)
        except (OSError, AttributeError):
            return -1, -1
        return max(0, st[0] * st[3]), st[0] * st[2]

    def free(self):
        """Free bytes on the journal's file system, -1 when the port cannot tell."""
        return self.space()[0]

    def low_mark(self, size=None):
        """Free bytes under which the flash is low: a tenth of the volume (LOW_FREE at least)."""
        if size is None:
            size = self.space()[1]
        return max(LOW_FREE, size // LOW_PART)

    def low(self):
        """True when the flash is low ("Flash low: pull logs"); False when the port cannot tell.
        (statvfs walks littlefs's blocks: asked once here)"""
        free, size = self.space()
        return 0 <= free < self.low_mark(size)

    def kept(self):
        """Copies of damaged logs, oldest first (never removed but by ``delete``)."""
        try:
            found = self.fs.listdir(self.dir)
        except OSError:
            return []
        out = [n for n in found if _is_kept(n)]
        out.sort()
        return out

    def listing(self, current=None):
        exported = self.exported()
        out = [{"name": n, "size": self.size(n), "exported": n in exported, "current": n == current}
               for n in self.names()]
        return out + [{"name": n, "size": self.size(n), "exported": False, "current": False, "damaged": True}
                      for n in self.kept()]

    def delete(self, name, current=None):
        """Remove one log (or a kept copy of a damaged one); ValueError with the reason when it
        may not or does not exist."""
        if not (_is_log(name) or _is_kept(name)):
            raise ValueError("not a log name: %r" % name)
        if name == current:
            raise ValueError("%s is the current match" % name)
        if name not in self.names() and name not in self.kept():
            raise ValueError("no log %s" % name)
        self.fs.remove(self.path(name))

    def cleanup(self, current=None, need=None):
        """Remove exported logs, oldest first, until ``need`` bytes (default: the low mark) are
        free; never ``current`` and never a log that has not been exported. Returns the names
        removed."""
        removed = []
        if need is None:
            need = self.low_mark()
        while 0 <= self.free() < need:
            gone = self.remove_exported(current)
            if gone is None:
                break
            removed.append(gone)
        return removed

    def remove_exported(self, current=None):
        """Remove the oldest exported log that is not ``current`` (the host has a verified copy:
        ``bgc pull``); its name, or None when there is none to remove."""
        exported = self.exported()
        for name in self.names():
            if name == current or name not in exported:
                continue
            try:
                self.fs.remove(self.path(name))
            except OSError:
                continue
            return name
        return None
