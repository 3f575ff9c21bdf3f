"""bgc pull: copy the match journals off the Pico, check each by replaying it, report.

mpremote's raw REPL interrupts the game loop (Ctrl-C); the firmware journals every completed
action before showing it, so nothing is lost, and after the copy the Pico is soft-reset so that
main.py starts again and resumes the match from its journal (``--no-restart`` leaves it at the
REPL). A copy is *verified* when its size and CRC-32s (one per 1 KB piece) match the file on the Pico and it replays
through the rules engine to its last line. Verified copies of finished matches (and of any older
journal than the newest one, which may be the match in progress) are added to /journal/exported,
so that the firmware may free their space first when flash runs low. Nothing is deleted on the
Pico unless ``--delete-after`` is given, and then only those same verified files. Copies the
firmware kept of a damaged journal (mNNNN.jnl.damaged: the file as it was before the board
resumed from its consistent part) are copied too and reported, never marked or deleted.
"""

import binascii
import json
import os
import sys

from ..errors import UserError

JOURNAL_DIR = "/journal"
EXPORTED = JOURNAL_DIR + "/exported"
CHUNK = 1024


def register(subparsers):
    p = subparsers.add_parser(
        "pull",
        help="copy the match journals off the Pico and check them",
        description="Copy every match journal (/journal/m*.jnl) from the Pico into a directory on the "
        "PC, check each copy against the Pico's (size, CRC-32) and by replaying it through the rules "
        "engine, and report what was copied. The Pico's files are kept unless --delete-after is given.",
    )
    p.add_argument("--port", help="serial port of the Pico (default: the only Pico plugged in)")
    p.add_argument("--out", metavar="DIR", default="journals",
                   help="directory for the copies (default: ./journals; created if missing)")
    p.add_argument("--delete-after", action="store_true",
                   help="delete from the Pico the journals whose copy was verified (never the match in progress)")
    p.add_argument("--no-restart", action="store_true",
                   help="leave the Pico at its REPL afterwards instead of restarting the firmware")
    p.set_defaults(func=run)


_LIST = """\
import os, json, binascii
r = {"files": [], "exported": [], "unmoved": []}
# Lines still in a journal's tail (m0001.tail/, docs/formats.md: a board cut off before its loop
# moved them) moved into their journal first, by the firmware's own companion.tail
try:
    from companion import journal as _j, tail as _t
    for n in os.listdir(%(dir)r):
        if n.endswith(".tail"):
            try:
                _t.flush(_j.Journal(%(dir)r + "/" + n[:-5] + ".jnl"), False)
            except OSError as e:
                r["unmoved"].append([n, repr(e)])
    for n in os.listdir(%(dir)r):
        if n.endswith(".tail") and not [x for x in r["unmoved"] if x[0] == n]:
            r["unmoved"].append([n, "a tail that does not fit its journal's end"])
except ImportError:
    pass  # a firmware without journal tails
except OSError:
    pass  # no /journal: said below
try:
    names = sorted(n for n in os.listdir(%(dir)r) if n.endswith(".jnl") or ".jnl.damaged" in n)
except OSError:
    names = None
if names is None:
    r["files"] = None
else:
    for n in names:
        p = %(dir)r + "/" + n
        crcs = []
        size = 0
        f = open(p, "rb")
        while True:
            b = f.read(%(chunk)d)
            if not b:
                break
            crcs.append(binascii.crc32(b))
            size += len(b)
        f.close()
        r["files"].append([n, size, crcs])
    try:
        f = open(%(exported)r)
        r["exported"] = [x.strip() for x in f.read().split("\\n") if x.strip()]
        f.close()
    except OSError:
        pass
print(json.dumps(r))
"""


def _exec(transport, code, what):
    from mpremote.transport import TransportError

    try:
        return transport.exec(code)
    except TransportError as exc:
        raise UserError("the Pico failed while %s: %s\nhint: is this the board companion firmware? "
                        "`mpremote connect PORT fs ls /journal` shows what is there" % (what, exc)) from None
    except (OSError, Exception) as exc:  # a cable pulled mid-transfer (serial errors, closed port)
        if isinstance(exc, UserError):
            raise
        raise UserError("lost the connection to the Pico while %s (%s)\nhint: check the USB cable and run "
                        "`bgc pull` again: nothing was deleted" % (what, exc)) from None


def list_journals(transport, unmoved=None):
    """(files [(name, size, crc)], exported names) on the Pico; files is None without /journal.
    The journals' tails are moved into them first; ``unmoved`` (a dict) gets, by journal name, why
    a tail could not be (its lines are then not in the copy, and stay on the Pico)."""
    out = _exec(transport, _LIST % {"dir": JOURNAL_DIR, "exported": EXPORTED, "chunk": CHUNK}, "listing /journal")
    data = json.loads(out.decode("utf-8").strip().splitlines()[-1])
    files = data["files"]
    if unmoved is not None:
        for name, why in data.get("unmoved", ()):
            unmoved[name[:-5] + ".jnl"] = why
    return (None if files is None else [tuple(f) for f in files]), data["exported"]


def read_file(transport, path, progress_cb):
    from mpremote.transport import TransportError

    try:
        return bytes(transport.fs_readfile(path, chunk_size=CHUNK, progress_callback=progress_cb))
    except TransportError as exc:
        raise UserError("the Pico could not read %s: %s" % (path, exc)) from None
    except Exception as exc:
        raise UserError("lost the connection to the Pico while copying %s (%s)\nhint: check the USB cable "
                        "and run `bgc pull` again: nothing was deleted" % (path, exc)) from None


def chunk_crcs(data):
    """CRC-32 of each CHUNK-byte piece, as the Pico computes them while listing (one CRC per
    piece, so the Pico never holds a whole journal in RAM)."""
    return [binascii.crc32(data[i:i + CHUNK]) & 0xFFFFFFFF for i in range(0, len(data), CHUNK)]


def _read_local(path):
    """The earlier copy's bytes, or None when there is none to compare with (only a regular file
    is read: a device such as /dev/zero never ends)."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def run(args):
    from ..logs.files import output_folder

    # (made before connecting, so that a bad --out is said at once; gone again if nothing is copied)
    with output_folder(args.out, "--out", "pick another directory with --out; nothing was copied or deleted"):
        return _pull(args, args.out)


def _pull(args, out_dir):
    from ..logs import chouette_log, journals
    from ..pico import device
    from ..logs.files import write_file

    results = []
    with device.connect(args.port) as transport:
        unmoved = {}
        files, exported = list_journals(transport, unmoved)
        if files is None:
            print("The Pico has no /journal directory: no match has been journaled on it yet.")
            restart_firmware(transport, args.no_restart)
            return 0
        if not files:
            print("The Pico's /journal holds no match journals.")
            restart_firmware(transport, args.no_restart)
            return 0
        total = sum(f[1] for f in files) or 1
        done = 0
        logs = [f[0] for f in files if f[0].endswith(".jnl")]
        newest = logs[-1] if logs else None
        for name, size, crc in files:
            base = done

            def cb(n, _size, base=base, name=name):
                device.progress(base + n, total, "copying " + name)

            data = read_file(transport, JOURNAL_DIR + "/" + name, cb)
            done += size
            if not size:
                device.progress(done, total, "copying " + name)
            local = os.path.join(out_dir, name)
            previous = _read_local(local)
            if previous != data:
                try:
                    write_file(local, data, hint="pick another directory with --out; nothing was deleted "
                                     "from the Pico")
                except UserError:
                    restart_firmware(transport, args.no_restart)  # the game goes on while the user makes room
                    raise
            problems = []
            if len(data) != size or chunk_crcs(data) != crc:
                problems.append("the copy differs from the Pico's file (%d of %d bytes)" % (len(data), size))
            kept = not name.endswith(".jnl")  # a damaged journal the board kept aside: damaged by definition
            text = data.decode("utf-8", "replace")
            if chouette_log.is_chouette_text(text):
                log = chouette_log.replay_text(text, local)
                if log.problem and not kept:
                    problems.append(log.problem[1])
            else:
                log = journals.replay_data(data, local)
                if log.problem and not kept:
                    problems.append(log.damage_text())
            if log.settings is None and not log.problem:
                problems.append("the journal is empty")
            if name in unmoved:
                problems.append("the last lines, still in its tail %s on the Pico, could not be moved into it there "
                                "(%s): not in this copy; they stay on the Pico" % (name[:-4] + ".tail", unmoved[name]))
            results.append({"name": name, "size": size, "log": log, "problems": problems, "kept": kept,
                            "changed": previous != data, "new": previous is None,
                            "current": name == newest and not log.complete})

        verified = [r for r in results if not r["problems"]]
        # The newest journal may be the match being played: never mark or delete it unfinished.
        releasable = [r["name"] for r in verified if not r["current"] and not r["kept"]]
        to_mark = [n for n in releasable if n not in exported]
        if to_mark:
            code = "f = open(%r, 'a')\nfor n in %r:\n    f.write(n + '\\n')\nf.close()\n" % (EXPORTED, to_mark)
            _exec(transport, code, "updating /journal/exported")
        deleted = []
        if args.delete_after and releasable:
            remaining = [n for n in exported + to_mark if n not in releasable]
            code = ("import os\nfor n in %r:\n    os.remove(%r + '/' + n)\n"
                    "f = open(%r, 'w')\nfor n in %r:\n    f.write(n + '\\n')\nf.close()\n"
                    % (releasable, JOURNAL_DIR, EXPORTED, remaining))
            _exec(transport, code, "deleting the verified journals")
            deleted = releasable
        restart_firmware(transport, args.no_restart)

    _report(results, out_dir, deleted, to_mark)
    return 0 if len(verified) == len(results) else 1


def restart_firmware(transport, no_restart=False):
    """Leave the raw REPL and soft-reset, so that main.py resumes the match (bgc analyze too)."""
    if no_restart:
        return
    from ..pico import device

    # main.py resumes the match from its journal.
    if not device.restart_firmware(transport):
        print("bgc: warning: could not restart the firmware; press the Pico's reset or replug it",
              file=sys.stderr)


def _report(results, out_dir, deleted, marked):
    print("%d journal%s from the Pico into %s:" % (len(results), "" if len(results) == 1 else "s", out_dir))
    for r in results:
        log = r["log"]
        if r["problems"]:
            status = "NOT VERIFIED"
        elif r["kept"]:
            status = "damaged, kept"
        elif r["new"]:
            status = "new, verified"
        elif r["changed"]:
            status = "updated, verified"
        else:
            status = "unchanged, verified"
        print("  %-10s %7d bytes  %-19s %s" % (r["name"], r["size"], status, log.summary()))
        if r["kept"] and log.problem:
            print("             the board kept this damaged journal as it was and resumed %s from before line %d;"
                  % (r["name"].split(".")[0] + ".jnl", log.problem[0]))
            print("             %s" % log.damage_text())
        for problem in r["problems"]:
            print("             %s" % problem)
            if log.settings is not None:
                print("             (the copy is kept; `bgc export` exports what comes before)")
    bad = [r for r in results if r["problems"]]
    good = len(results) - len(bad)
    print("%d verified, %d not verified" % (good, len(bad)))
    if marked:
        print("marked as exported on the Pico: %s" % ", ".join(marked))
    if deleted:
        print("deleted from the Pico: %s" % ", ".join(deleted))
    if bad:
        print("bgc: some journals did not verify; they were kept on the Pico\nhint: a journal that stops at a torn "
              "last line is normal after a power cut during a write; run `bgc replay FILE` for the details",
              file=sys.stderr)
