"""Fault injection on the match journal (docs/reliability.md, "Damaged journals").

The subjects are real journals that the automated players wrote playing on the virtual board with
the real firmware (`bgc sim` harness; ``make_fixture``): tests/fixtures/journal_1point.jnl (a
1-point match, seed 2, 106 lines) for the byte faults, tests/fixtures/journal_3point.jnl (a
3-point match, seed 3, 308 lines: cube actions, closed-out turns, four games) for the rest. Each
is damaged in every way below, and each time the firmware boots on it
(companion.controller.Companion on a companion.store.Store in a fresh directory, as main.py
builds them) and bgc reads it. The rules checked for every damaged file (the names the tests use):

  boots     Companion.boot returns (whatever the file holds) and sends its boot event
  prefix    the journal then holds exactly the original records before the damaged line (and a note
            saying what happened), and the match resumes at their replay (Match ID, Position ID)
            unless it was over there
  kept      damage other than a torn last line (a power cut in a write) keeps the file as it was,
            byte for byte, in m0001.jnl.damaged, and the `damaged` event gives the damaged line and
            the number of intact lines after it
  told      the boot note, the serial events and the OLED say it
  clean     a second boot on what the first one left finds nothing wrong and resumes the same match
  host      bgc's reader (bgc.logs.journals.load) never raises, replays exactly the records before the
            damage and counts the intact lines after it; `bgc replay` and `bgc export` answer with
            exit 1 (a warning and what could be read) or 2 (one line: nothing readable), no traceback

Faults: every byte position with its high bit flipped, its low bit flipped, zeroed, and the file
cut there; whole-file garbage (random bytes, erased flash, long lines); records with a right
checksum but a wrong content (wrong types, missing fields, actions the rules refuse), replacing a
record or inserted between two.

    .venv/bin/python scripts/reliability/journal_faults.py [--stride 1] [--jobs 2] [--cli-every 50]
"""

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _p in (os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from bgrules.position import OPP, Position  # noqa: E402
from companion import journal as J  # noqa: E402
from companion import recovery

FIXTURE = os.path.join(ROOT, "tests", "fixtures", "journal_3point.jnl")
FIXTURE_BYTES = os.path.join(ROOT, "tests", "fixtures", "journal_1point.jnl")
BYTE_FAULTS = ("high", "low", "zero", "cut")
NAME = "m0001.jnl"


class Reference:
    """The undamaged journal: its lines, records, and the match after each number of records."""

    def __init__(self, data):
        assert data.endswith(b"\n")
        self.data = data
        self.spans = []  # (start, end): the line's bytes are data[start:end], its newline at end
        start = 0
        while start < len(data):
            end = data.index(b"\n", start)
            self.spans.append((start, end))
            start = end + 1
        self.lines = [data[s:e] for s, e in self.spans]
        self.records = [J.decode(line) for line in self.lines]
        m = recovery.new_match(self.records[0])
        self.states = [None, _state(m)]  # states[k]: after the first k records
        for r in self.records[1:]:
            recovery.apply(m, r)
            self.states.append(_state(m))

    def line_at(self, pos):
        lo, hi = 0, len(self.spans) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.spans[mid][1] < pos:
                lo = mid + 1
            else:
                hi = mid
        return lo


def _state(m):
    return {"match": m.match_id(), "pos": m.position_id(), "phase": m.phase, "on_roll": m.on_roll,
            "position": m.position.copy()}


class Case:
    """A damaged file and what must come of it: ``prefix`` original records intact before the
    damaged line ``line`` (1-based; None when nothing is damaged), ``later`` intact original lines
    after it, ``torn`` when the damage is a torn last line."""

    def __init__(self, name, data, prefix, line, later=0, torn=False, group=None):
        self.name = name
        self.group = group or name.split("@")[0]  # the line of the figures table it counts in
        self.data = data
        self.prefix = prefix
        self.line = line
        self.later = later
        self.torn = torn

    def __repr__(self):
        return "Case(%s)" % self.name


# --- the faults ---------------------------------------------------------------------------------


def byte_case(ref, pos, kind):
    data = ref.data
    n = len(ref.lines)
    if kind == "cut":
        complete = sum(1 for s, e in ref.spans if e <= pos)  # the newline may be missing
        partial = complete < n and ref.spans[complete][0] < pos
        return Case("cut@%d" % pos, data[:pos], complete, complete + 1 if partial else None, 0, partial)
    old = data[pos]
    new = {"high": old ^ 0x80, "low": old ^ 0x01, "zero": 0}[kind]
    if new == old:
        return None
    k = ref.line_at(pos)
    merged = pos == ref.spans[k][1] and k < n - 1  # the newline itself: lines k and k+1 become one
    later = n - k - 1 - (1 if merged else 0)
    return Case("%s@%d" % (kind, pos), data[:pos] + bytes([new]) + data[pos + 1 :], k, k + 1, later)


def _line(record):
    return J.encode(record).encode()


def _raw_line(text_bytes):
    """A line with a right checksum around any bytes."""
    import binascii

    return text_bytes + (" %08x\n" % (binascii.crc32(text_bytes) & 0xFFFFFFFF)).encode()


def _replace(ref, i, line, name):
    lines = list(ref.lines)
    body = b"".join(x + b"\n" for x in lines[:i]) + line + b"".join(x + b"\n" for x in lines[i + 1 :])
    return Case(name, body, i, i + 1, len(lines) - i - 1, group="right checksum, wrong content")


def _insert(ref, i, line, name):
    lines = list(ref.lines)
    body = b"".join(x + b"\n" for x in lines[:i]) + line + b"".join(x + b"\n" for x in lines[i:])
    return Case(name, body, i, i + 1, len(lines) - i, group="right checksum, an action the rules refuse, inserted")


def _first(ref, a, start=1):
    for i in range(start, len(ref.records)):
        if ref.records[i]["a"] == a:
            return i
    raise LookupError("the journal has no %r record" % a)


def content_cases(ref):
    """Records with a right checksum but a wrong content, each named by what is wrong."""
    out = []
    recs = ref.records

    def changed(i, what, **fields):
        r = dict(recs[i])
        for k, v in fields.items():
            if v is _GONE:
                r.pop(k, None)
            else:
                r[k] = v
        out.append(_replace(ref, i, _line(r), "%s: %s" % (recs[i]["a"], what)))

    # the settings record (line 1): nothing can be resumed, everything is kept aside
    for what, fields in (
        ("names null", {"names": None}), ("one name", {"names": ["Ann"]}), ("names are numbers", {"names": [1, 2]}),
        ("names a string", {"names": "AnnBob"}), ("rules [1]", {"rules": [1]}), ("rules unknown", {"rules": "chess"}),
        ("length as text", {"length": "3"}), ("length -1", {"length": -1}), ("length 65", {"length": 65}),
        ("length true", {"length": True}), ("crawford text", {"crawford": "yes"}), ("crawford null", {"crawford": None}),
        ("jacoby 1", {"jacoby": 1}), ("auto text", {"auto": "x"}), ("beavers null", {"beavers": None}),
        ("version 2", {"v": 2}), ("version text", {"v": "1"}), ("version true", {"v": True}),
        ("no version", {"v": _GONE}), ("no length", {"length": _GONE}), ("no names", {"names": _GONE}),
        ("auto-doubles in a match", {"auto": 1}), ("bar in a name", {"names": ["A|B", "C"]}),
    ):
        changed(0, what, **fields)
    i = _first(ref, "open")
    for what, fields in (("dice null", {"dice": None}), ("die 7", {"dice": [7, 1]}), ("die 0", {"dice": [0, 3]}),
                         ("one die", {"dice": [3]}), ("dice as text", {"dice": ["3", "1"]}),
                         ("dice as floats", {"dice": [3.0, 1.0]}), ("no dice", {"dice": _GONE})):
        changed(i, what, **fields)
    i = _first(ref, "roll")
    p = recs[i]["p"]
    for what, fields in (("player 2", {"p": 2}), ("player null", {"p": None}), ("player as text", {"p": str(p)}),
                         ("no player", {"p": _GONE}), ("player true", {"p": True}), ("the other player", {"p": 1 - p}),
                         ("one die", {"dice": [6]}), ("die as text", {"dice": [6, "4"]}),
                         ("die 4.5", {"dice": [6, 4.5]}), ("dice 9-9", {"dice": [9, 9]})):
        changed(i, what, **fields)
    i = _first(ref, "play", _first(ref, "roll"))
    p = recs[i]["p"]
    start = ref.states[i]["pos"]  # the position before the play, from the mover's side
    other = recs[_first(ref, "play", i + 8)]["pos"]
    for what, fields in (("pos null", {"pos": None}), ("pos too short", {"pos": "4HPw"}),
                         ("pos of an empty board", {"pos": "AAAAAAAAAAAAAA"}), ("no move made (refused)", {"pos": start}),
                         ("a position from later in the game (refused)", {"pos": other}),
                         ("the other player", {"p": 1 - p}), ("no pos", {"pos": _GONE}), ("move a number", {"move": 5}),
                         ("condoned as text", {"condoned": "yes"})):
        changed(i, what, **fields)
    for a in ("double", "drop", "pass"):
        i = _first(ref, a)
        changed(i, "the other player (refused)", p=1 - recs[i]["p"])
        changed(i, "no player", p=_GONE)
    i = _first(ref, "next")
    for what, line in (("unknown action", _line({"a": "teleport", "p": 0})), ("action a number", _line({"a": 5})),
                       ("a JSON list", _raw_line(b"[1, 2]")), ("a JSON string", _raw_line(b'"roll"')),
                       ("not JSON", _raw_line(b"hello board")), ("not UTF-8", _raw_line(b'{"a": "note", "text": "\xff"}')),
                       ("deeply nested JSON", _raw_line(b"[" * 400 + b"]" * 400)),
                       ("a line over 1 KB", _line({"a": "note", "text": "x" * 2000}))):
        out.append(_replace(ref, i, line, "next replaced: " + what))
    # actions the rules refuse, inserted between two records
    r = _first(ref, "roll")
    out.append(_insert(ref, r + 1, ref.lines[r] + b"\n", "roll written twice (refused)"))
    out.append(_insert(ref, r + 1, _line({"a": "next"}), "next in mid-game (refused)"))
    out.append(_insert(ref, r, _line({"a": "take", "p": 1 - recs[r]["p"]}), "take without a double (refused)"))
    out.append(_insert(ref, r, _line({"a": "accept", "p": 1 - recs[r]["p"]}), "accept without a resignation (refused)"))
    last = len(ref.lines)
    out.append(_insert(ref, last, _line({"a": "roll", "p": 0, "dice": [3, 1]}), "roll after the match (refused, last line)"))
    return out


_GONE = object()


GARBAGE = "whole-file garbage"
GARBAGE_IN = "garbage inside a journal"


def garbage_cases(seed=11):
    rng = random.Random(seed)
    out = []
    for size in (1, 9, 100, 1000, 1024, 1025, 5000, 20000, 100000):
        data = bytes(rng.randrange(256) for _ in range(size))
        torn = b"\n" not in data and size <= J.MAX_LINE
        out.append(Case("random %d bytes" % size, data, 0, 1, 0, torn, GARBAGE))
    out.append(Case("erased flash (0xff) 4096 bytes", b"\xff" * 4096, 0, 1, 0, False, GARBAGE))
    out.append(Case("zeros 4096 bytes", b"\x00" * 4096, 0, 1, 0, False, GARBAGE))
    out.append(Case("one line of 100000 bytes", b"x" * 100000 + b"\n", 0, 1, 0, False, GARBAGE))
    lines = b"".join(b"%d garbage line\n" % i for i in range(50))
    out.append(Case("50 short text lines", lines, 0, 1, 0, False, GARBAGE))
    return out


def garbage_in(ref, seed=12):
    """Random bytes over a stretch in the middle, and appended at the end."""
    rng = random.Random(seed)
    out = []
    n = len(ref.lines)
    for k in (1, n // 3, n // 2, n - 1):
        s, e = ref.spans[k]
        junk = bytes(rng.randrange(256) for _ in range(e - s)).replace(b"\n", b"?")
        data = ref.data[:s] + junk + ref.data[e:]
        out.append(Case("line %d replaced by random bytes" % (k + 1), data, k, k + 1, n - k - 1, group=GARBAGE_IN))
    tail = bytes(rng.randrange(256) for _ in range(300)).replace(b"\n", b"?")
    out.append(Case("300 random bytes appended, no newline", ref.data + tail, n, n + 1, 0, True, GARBAGE_IN))
    out.append(Case("300 random bytes appended, then a newline", ref.data + tail + b"\n", n, n + 1, 0, False,
                    GARBAGE_IN))
    return out


# --- the checks ---------------------------------------------------------------------------------


class _Dice:
    def roll(self):
        return 3, 1

    def first_roll(self):
        return 3, 1


def _frame(state):
    """The classifier frame of the board showing ``state``'s position (the players set it up)."""
    from bgc.board.virtual.frames import ideal_frame

    white, black = [0] * 26, [0] * 26
    if state is not None:
        c = state["position"].cells
        wb, bb = (0, OPP) if state["on_roll"] == 0 else (OPP, 0)  # white's and black's halves of the cells
        for p in range(1, 25):
            white[p] = c[wb + p]
            black[p] = c[bb + 25 - p]
        white[25] = c[wb + 25]
        black[25] = c[bb + 25]
    return ideal_frame(white, black)


def _boot(directory, frame):
    from companion.controller import Companion
    from companion.store import Store

    c = Companion(Store(directory), _Dice())
    c.boot(frame, 0)
    return c, [json.loads(x) for x in c.fx.out]


def check(ref, case, workdir, cli=False):
    """The rules that ``case`` breaks: a list of "rule: what" strings (empty when all hold)."""
    bad = []
    d = os.path.join(workdir, "journal")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, NAME)
    with open(path, "wb") as f:
        f.write(case.data)
    kept = path + ".damaged"
    want = ref.states[case.prefix] if case.prefix else None
    resumes = want is not None and want["phase"] != "matchover"
    try:
        c, evs = _boot(d, _frame(want if resumes else None))
    except Exception as exc:  # the rule under test: nothing may escape the boot
        return ["boots: %s: %s" % (type(exc).__name__, exc)]
    boot = [e for e in evs if e["ev"] == "boot"]
    if len(boot) != 1:
        return ["boots: no boot event"]
    boot = boot[0]
    damaged = [e for e in evs if e["ev"] == "damaged"]
    with open(path, "rb") as f:
        after = f.read()
    records, problem = J.parse(after)
    if case.line is None:
        if after != case.data or boot["note"] or damaged:
            bad.append("prefix: an undamaged journal was changed or reported")
    else:
        if problem is not None:
            bad.append("prefix: the journal still has a bad line %s" % (problem,))
        want_records = ref.records[: case.prefix]
        if records[: case.prefix] != want_records:
            bad.append("prefix: records before the damage changed")
        extra = records[case.prefix :]
        if case.prefix and [r["a"] for r in extra] != ["note"]:
            bad.append("prefix: after the kept records: %r, not one note" % [r["a"] for r in extra])
        if not case.prefix and after:
            bad.append("prefix: nothing to keep, yet the journal holds %d bytes" % len(after))
    if boot["resumed"] != resumes:
        bad.append("prefix: resumed=%s, should be %s" % (boot["resumed"], resumes))
    elif resumes and (c.match.match_id() != want["match"] or c.match.position_id() != want["pos"]):
        bad.append("prefix: resumed at %s %s, not %s %s" % (c.match.match_id(), c.match.position_id(),
                                                            want["match"], want["pos"]))
    if case.line is not None and not case.torn:
        if not os.path.exists(kept):
            bad.append("kept: no %s.damaged" % NAME)
        else:
            with open(kept, "rb") as f:
                if f.read() != case.data:
                    bad.append("kept: the copy differs from the damaged file")
        if len(damaged) != 1:
            bad.append("told: %d damaged events" % len(damaged))
        else:
            e = damaged[0]
            if e["line"] != case.line or e["later"] != case.later or e["kept"] != kept:
                bad.append("kept: damaged event line %s later %s, should be line %s later %s" % (
                    e["line"], e["later"], case.line, case.later))
        screen = "\n".join(c.fx.screen)
        if "Log damaged L%d" % case.line not in screen:
            bad.append("told: the OLED does not say 'Log damaged L%d': %r" % (case.line, screen))
    if case.torn:
        if os.path.exists(kept) or damaged:
            bad.append("kept: a torn last line was kept aside")
        if "dropped line %d" % case.line not in boot["note"]:
            bad.append("told: the boot note does not name the torn line: %r" % boot["note"])
        screen = "\n".join(c.fx.screen)
        if "Torn line gone" not in screen and "Line dropped" not in screen:
            bad.append("told: the OLED does not say the torn line was dropped: %r" % screen)
    if case.line is not None and not [e for e in evs if e["ev"] == "note"]:
        bad.append("told: no note event")
    # a second boot on what the first one left
    try:
        c2, evs2 = _boot(d, _frame(want if resumes else None))
        boot2 = [e for e in evs2 if e["ev"] == "boot"][0]
        if boot2["note"] or [e for e in evs2 if e["ev"] == "damaged"]:
            bad.append("clean: the second boot still finds damage: %r" % boot2["note"])
        if boot2["resumed"] != resumes or (resumes and c2.match.match_id() != want["match"]):
            bad.append("clean: the second boot resumes elsewhere")
        if os.path.exists(kept + "2"):
            bad.append("clean: a second copy was kept")
    except Exception as exc:
        bad.append("clean: the second boot raised %s: %s" % (type(exc).__name__, exc))
    bad += check_host(ref, case, kept if os.path.exists(kept) else path if case.line is None else None, workdir, cli)
    return bad


def check_host(ref, case, path, workdir, cli):
    """bgc's reader on the damaged bytes (and, with ``cli``, bgc replay and bgc export)."""
    from bgc.logs import journals

    bad = []
    src = os.path.join(workdir, "host.jnl")
    with open(src, "wb") as f:
        f.write(case.data)
    try:
        log = journals.load(src)
    except Exception as exc:
        return ["host: journals.load raised %s: %s" % (type(exc).__name__, exc)]
    if log.records != case.prefix:
        bad.append("host: replayed %d records, not %d" % (log.records, case.prefix))
    if case.line is None:
        if log.problem:
            bad.append("host: a problem in an undamaged journal: %r" % (log.problem,))
    elif not log.problem or log.problem[0] != case.line:
        bad.append("host: problem %r, not at line %d" % (log.problem, case.line))
    elif log.later != case.later:
        bad.append("host: %d readable lines after the damage, not %d" % (log.later, case.later))
    if cli:
        bad += check_cli(src, case, workdir)
    return bad


def check_cli(src, case, workdir):
    from bgc import cli

    bad = []
    for argv in (["replay", "-q", src], ["export", src, "-o", os.path.join(workdir, "out.mat")]):
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main(argv)
        except SystemExit as exc:
            status = exc.code
        except Exception as exc:
            bad.append("host: bgc %s raised %s: %s" % (argv[0], type(exc).__name__, exc))
            continue
        text = err.getvalue()
        want = 2 if not case.prefix else 0 if case.line is None else 1  # 2: nothing readable (bgc.cli.UserError)
        if status != want:
            bad.append("host: bgc %s exit %s, not %s: %s" % (argv[0], status, want, text.strip()[:200]))
        if "Traceback" in text:
            bad.append("host: bgc %s printed a traceback" % argv[0])
        if case.line is not None and ("line %d" % case.line) not in text:
            bad.append("host: bgc %s does not name line %d: %s" % (argv[0], case.line, text.strip()[:200]))
        if len(text) > 2000:
            bad.append("host: bgc %s wrote %d characters of errors" % (argv[0], len(text)))
    if os.path.exists(os.path.join(workdir, "out.mat.part")):
        bad.append("host: bgc export left out.mat.part")
    return bad


# --- the run ------------------------------------------------------------------------------------


def byte_cases(ref, stride=1, kinds=BYTE_FAULTS):
    cases = []
    for pos in range(0, len(ref.data), stride):
        for kind in kinds:
            c = byte_case(ref, pos, kind)
            if c is not None:
                cases.append(c)
    return cases


def other_cases(ref):
    return content_cases(ref) + garbage_cases() + garbage_in(ref)


def _work(job):
    data, cases, cli_every = job
    ref = Reference(data)
    out = []
    with tempfile.TemporaryDirectory(prefix="bgc-faults-") as tmp:
        for i, case in enumerate(cases):
            cli = "@" not in case.name or (bool(cli_every) and i % cli_every == 0)
            out.append((case.group, case.name, check(ref, case, tmp, cli), cli))
    return out


def run(byte_data, other_data, stride=1, jobs=1, cli_every=50):
    """Check every byte fault of ``byte_data`` (every ``stride``-th position) and every other
    fault of ``other_data``; a list of (group, case name, broken rules, bgc commands run)."""
    n = max(1, jobs * 8)
    groups = [(byte_data, byte_cases(Reference(byte_data), stride)), (other_data, other_cases(Reference(other_data)))]
    chunks = [(data, cases[i::n], cli_every) for data, cases in groups for i in range(n)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.map(_work, chunks)
    else:
        parts = [_work(c) for c in chunks]
    return [r for part in parts for r in part]


def summarize(results):
    s = {"cases": len(results), "failed": [], "by_kind": {}, "cli": 0}
    for group, name, bad, cli in results:
        k = s["by_kind"].setdefault(group, [0, 0])
        k[0] += 1
        s["cli"] += cli
        if bad:
            k[1] += 1
            s["failed"].append((name, bad))
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--journal", default=FIXTURE_BYTES, help="the journal for the byte faults (default: %(default)s)")
    ap.add_argument("--content-journal", default=FIXTURE, help="the journal for the other faults (default: %(default)s)")
    ap.add_argument("--stride", type=int, default=1, help="damage every Nth byte position (default: every one)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--cli-every", type=int, default=50,
                    help="run bgc replay and export on every Nth byte fault (and on every other case)")
    args = ap.parse_args(argv)
    with open(args.journal, "rb") as f:
        data = f.read()
    with open(args.content_journal, "rb") as f:
        other = f.read()
    t = time.time()
    results = run(data, other, args.stride, args.jobs, args.cli_every)
    s = summarize(results)
    ref = Reference(data)
    print("byte faults on %s (%d bytes, %d lines), the rest on %s; %d damaged files in %.0f s (%d jobs)" % (
        os.path.relpath(args.journal, ROOT), len(data), len(ref.lines), os.path.relpath(args.content_journal, ROOT),
        s["cases"], time.time() - t, args.jobs))
    print("%-56s %7s %7s" % ("fault", "files", "failed"))
    for kind in sorted(s["by_kind"]):
        n, f = s["by_kind"][kind]
        print("%-56s %7d %7d" % (kind, n, f))
    print("bgc replay + export run on %d of them" % s["cli"])
    for name, bad in s["failed"][:30]:
        print("FAILED %s: %s" % (name, "; ".join(bad)))
    return 1 if s["failed"] else 0


def make_fixture(path=FIXTURE, seed=3, length=3):
    """How the fixture was made: the automated players play a match on the virtual board with
    the real firmware (about 45 s)."""
    from bgc.board import players as P
    from bgc.board import sim as S

    s = S.Sim(seed=seed)
    pl = P.Players(s, seed=seed, handling=P.Handling(illegal=0.1))
    s.run_ms(50)
    s.serial.send("new length=%d" % length)
    while not pl.finished:
        s.step()
    shutil.copy(s.journal_path(), path)


if __name__ == "__main__":
    sys.exit(main())
