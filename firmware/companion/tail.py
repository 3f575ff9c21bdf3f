# A journal's tail on littlefs (companion.journal.Journal): the lines appended since the last
# flush, kept in small files in a folder beside the journal, m0001.tail/OFFSET for m0001.jnl,
# OFFSET being where the file's bytes belong in m0001.jnl.
#
# Why: littlefs never programs a block it has closed again, so a line appended to the journal
# copies the journal's last block into a newly erased one: a 4 KB sector erase (45 ms typical,
# 400 ms at most on the W25Q16JV) in every answer that journals. A file under 512 bytes (a block
# / 8) is kept inside its folder's metadata log instead, so a line written to it costs a commit
# to that log and no erase while the log's block has room; the folder is made anew at each flush,
# a metadata block with room for the lines until the next flush.
#
# ``flush`` moves the tail into the journal where nobody waits: a loop step that answers nothing
# after DONE (main.App), power-up (companion.recovery.recover), Ctrl-C before mpremote
# (main.App.run), `bgc pull` on a board whose loop did not (bgc.commands.pull); the erases come
# there. bgc's readers on the PC join a tail copied off a board by the same rule, nothing moved
# (bgc.logs.journals.read_data). Each tail file is copied whole into the journal (littlefs
# writes a file's change whole or not at all), then removed: a power cut between the two leaves
# a tail whose bytes already end the journal, which its OFFSET tells. A Journal's first flush
# also moves the tails other journals of its folder left (the last match's, when the next one
# began). A chouette evening's journal keeps no tail (its answers take the erases, as before):
# main.py drops this module while a chouette is on, and scripts/bench/heap_modules.py leaves it
# out of that configuration. docs/formats.md: the files; docs/performance.md: the figures.

import os


def append(j, line, _ends_with_newline):
    """companion.journal.Journal.append on littlefs: ``line`` written to the Journal ``j``'s
    tail and closed; ``_ends_with_newline``: companion.journal's, passed in (that module imports
    this one, never the other way round). False when the journal
    is not on littlefs (``j.end`` is -1 from then on): the caller writes to the journal itself."""
    if j.end is None:
        flush(j, True)  # littlefs or not; the lines a tail kept moved first, a fresh folder
        if j.end < 0:
            return False
    if j._unterminated is None:
        # a whole line without its newline (a power cut, a file written elsewhere): the next
        # line must not be glued onto it
        j._unterminated = not _ends_with_newline(j.path)
    data = "\n" + line if j._unterminated else line
    end = j.end
    size = len(data.encode())
    # 400 bytes a tail file at most: under littlefs's inline limit of 512, past which the file
    # is moved out of the metadata into a block of its own (an erase)
    name = j.path
    if j.tail != -1 or end + size > 400:
        if j.tail == -1:  # a new journal's first line too long for its file inline
            os.mkdir(j.path[:-3] + "tail")  # (an erase)
            open(j.path, "a").close()  # the file made: Store.latest finds the match by it
            j.tail = None
        if j.tail is None or end - j.tail + size > 400:
            j.tail = end
        name = "%s%d" % (j.path[:-3] + "tail" + "/", j.tail)
    j.end = None  # until the line is written: after a failed write, flush reads the tail back
    f = open(name, "a")
    try:
        f.write(data)
    finally:
        f.close()
    j.end = end + size
    j._unterminated = False
    return True


def flush(j, keep):
    """The tail files of the Journal ``j`` moved into its file, oldest
    first, and their folder made anew (``keep``) or removed. A tail that fits neither at nor just
    before the file's end (the file changed by something else) stays where it is, never
    appended, and so does the folder; tails with no journal (a new match whose first line
    failed and whose file was removed) are removed. Returns whether there were lines to move;
    does nothing off littlefs, nor when no line came since the last flush and ``keep``."""
    if j.end is not None and (j.end < 0 or j.tail is None and keep):
        return False  # not on littlefs; or no line since the last flush, the folder is fresh
    if j.end is None:
        # the file system of the longest mount point the path starts with (a relative path, as
        # the host's tests give, counts as not littlefs)
        n = -1
        try:
            import vfs

            for fs, point in vfs.mount():
                if len(point) > n and j.path.startswith(point.rstrip("/") + "/"):
                    n = len(point)
                    j.end = 0 if type(fs) is vfs.VfsLfs2 else -1
        except (ImportError, AttributeError, TypeError):  # CPython, a port without vfs.mount()
            pass
        if j.end is None or j.end < 0:
            j.end = -1
            return False
        cut = j.path.rfind("/")
        for n in os.listdir(j.path[:cut] or "/"):
            if n[-4:] == "tail" and n[:-5] + ".jnl" != j.path[cut + 1:]:
                other = type(j)(j.path[: cut + 1] + n[:-5] + ".jnl")
                other.end = 0  # on the same littlefs
                other.tail = None
                flush(other, False)
    j.tail = None
    j._unterminated = None
    directory = j.path[:-3] + "tail"  # m0001.jnl's: m0001.tail
    try:
        names = os.listdir(directory)
    except OSError:
        names = ()
    for n in sorted(int(n) for n in names if n.isdigit()):
        name = "%s%d" % (directory + "/", n)
        try:
            size = os.stat(j.path)[6]
        except OSError:
            size = -1  # no journal: removed below
        if size == n:  # (bgc.logs.journals.read_data joins a copied tail by this rule)
            f = open(name)
            try:
                data = f.read()
            finally:
                f.close()
            f = open(j.path, "a")
            try:
                f.write(data)
            finally:
                f.close()
            size = -1  # moved: removed below
        if size < 0 or size == n + os.stat(name)[6]:
            os.remove(name)
    try:
        os.rmdir(directory)
    except OSError:
        pass  # none yet; or a tail that did not fit is still there
    try:
        j.end = os.stat(j.path)[6]
    except OSError:
        # a new journal: its first lines go into its file while it is small (kept in the
        # journals' folder's metadata, no erase either), the next flush makes the folder
        j.end = 0
        j.tail = -1
        return False
    if not keep:
        j.end = None  # no folder: the next flush (or append) makes it
    else:
        try:
            os.mkdir(directory)
        except OSError:
            pass  # a tail that did not fit is still there
    return bool(names)
