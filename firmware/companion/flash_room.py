# The flash's upkeep: the journal folder made at power-up (a file in its place kept aside), room
# made for a new match or a write that found the flash full (exported logs removed, oldest first:
# the host has verified copies), and when to say "Flash low". Only a power-up, a new match and a
# full flash need it, so it is imported then and dropped at the next collection (main.ONCE_ONLY):
# the games' heap does not hold it.

LOW_FREE = 16 * 1024  # the least free space a new match leaves before "Flash low" (small volumes)
LOW_PART = 10  # "Flash low" once less than 1/LOW_PART of the volume is free (exported logs go first)


def ensure(store):
    """Make the journal folder. A file where it should be (copied there by hand, a flash from
    another program) is renamed aside, never deleted: returns its new path, else None."""
    fs = store.fs
    aside = None
    try:
        is_dir = fs.stat(store.dir)[0] & 0x4000
    except OSError:
        is_dir = None  # not there yet
    if is_dir == 0 and store.dir != "/":
        n = 1
        while True:
            aside = store.dir + ".file" + (str(n) if n > 1 else "")
            try:
                fs.stat(aside)
            except OSError:
                break
            n += 1
        try:
            fs.rename(store.dir, aside)
        except OSError:
            aside = None  # the first append will say what is wrong
    try:
        fs.mkdir(store.dir)
    except OSError:
        pass  # exists (or cannot be made: the first append will say so)
    return aside


def space(store):
    """(free bytes, size in bytes) of the journal's file system, (-1, -1) when the port cannot
    tell; the one reading of statvfs (it walks littlefs's blocks: ask once). Near full, littlefs
    counts more blocks in use than the volume has (its count takes blocks that copy-on-write holds
    twice: 363 of 352 on a Pico) and MicroPython's statvfs subtracts in unsigned 32-bit
    arithmetic: the Pico's 31-bit small ints read that as a negative count, a 64-bit port as about
    4.3 billion free blocks. Both are 0 free, not unknown: free blocks beyond the volume's are
    none. (Here, not in Store: this module is loaded only when the flash needs upkeep.)"""
    try:
        st = store.fs.statvfs(store.dir)
    except (OSError, AttributeError):
        return -1, -1
    blocks, free = st[2], st[3]
    if free < 0 or free > blocks:
        free = 0
    return st[0] * free, st[0] * blocks


def low_mark(store, size=None):
    """Free bytes under which the flash is low: a tenth of the volume (LOW_FREE at least)."""
    if size is None:
        size = space(store)[1]
    return max(LOW_FREE, size // LOW_PART)


def low(store):
    """True when the flash is low ("Flash low: pull logs"); False when the port cannot tell.
    (statvfs walks littlefs's blocks: asked once here)"""
    free, size = space(store)
    return 0 <= free < low_mark(store, size)


def remove_exported(store, current=None):
    """Remove the oldest exported log that is not ``current`` (the host has a verified copy:
    ``bgc pull``); its name, or None when there is none to remove."""
    exported = store.exported()
    for name in store.names():
        if name == current or name not in exported:
            continue
        try:
            store.fs.remove(store.path(name))
        except OSError:
            continue
        return name
    return None


def cleanup(store, current=None, need=None):
    """Remove exported logs, oldest first, until ``need`` bytes (default: the low mark) are free;
    never ``current`` and never a log that has not been exported. Returns the names removed."""
    removed = []
    if need is None:
        need = low_mark(store)
    while 0 <= space(store)[0] < need:
        gone = remove_exported(store, current)
        if gone is None:
            break
        removed.append(gone)
    return removed


def open_journal(c, rec, then=None):
    """A new journal file for the Companion ``c`` (the next name; exported logs removed when the
    flash is low) opened with ``rec``, its settings line, and ``then`` (a set position's record)
    when given; an error text when a write failed (nothing changed: a file half written is
    removed, so the next boot does not resume it)."""
    from companion import journal as J

    store = c.store
    name = store.next_name()
    for gone in cleanup(store, current=name):
        c.emit("note", {"text": "flash low: removed exported log %s" % gone})
    j = J.Journal(store.path(name))
    if rec["a"] == "chouette":
        j.end = -1  # a chouette evening's journal keeps no tail (companion.tail)
    try:
        c.write_record(rec, j, name)
        if then is not None:
            c.write_record(then, j, name)
    except OSError as exc:
        try:
            store.fs.remove(j.path)
        except OSError:
            pass  # never written
        c.say("Flash write failed")
        return "journal write failed: %s" % exc
    c.journal = j
    c.name = name
    if low(store):
        # told before the last tenth goes (what exported logs freed is counted already); shown
        # on the set-up screen and in place of "Board ready"
        c.note_line = "Flash low"
        c.emit("note", {"text": "flash low: %d bytes free, pull the logs" % space(store)[0]})
    elif c.note_line == "Flash low":
        c.note_line = ""
    return None
