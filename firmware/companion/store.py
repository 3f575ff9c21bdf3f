# The journal directory on flash: one file per match (mNNNN.jnl, the number only grows) and the
# host's list of exported logs. File-system calls go through ``fs`` (the ``os`` module on the Pico)
# so that tests can give a small or failing flash. Making the folder, making room and telling
# "Flash low" are companion.flash_room's, imported only when a power-up, a new match or a full
# flash needs them.

EXPORTED = "exported"
DAMAGED = ".damaged"  # m0001.jnl.damaged: a damaged journal as it was, kept when the board repaired it


def _is_log(name):
    return len(name) == 9 and name[0] == "m" and name.endswith(".jnl") and name[1:5].isdigit()


def _is_kept(name):
    # m0001.jnl.damaged, m0001.jnl.damaged2, ...: a damaged log as it was (companion.recovery.salvage)
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
