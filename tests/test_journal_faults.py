"""Fault injection on the match journal (issue 11): a real journal, written by the firmware while
the automated players played on the virtual board, damaged at sampled byte positions (high bit,
low bit, zeroed, cut there), replaced by garbage, and given records with a right checksum but a
wrong content. Every time, the rules of scripts/reliability/journal_faults.py hold (the script runs the full
sweep, docs/reliability.md has its figures):

  boots   the firmware starts whatever its flash holds
  prefix  every record before the damage is kept and the match resumes right after them
  kept    nothing after the damage is thrown away: the file as it was stays beside the journal
  told    the boot note, the `damaged` serial event and the OLED say so
  clean   the next boot finds a clean journal
  host    bgc's reader, `bgc replay` and `bgc export` read what they can, name the line, never a traceback
"""

import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _script():
    spec = importlib.util.spec_from_file_location("journal_faults", os.path.join(ROOT, "scripts", "reliability", "journal_faults.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


F = _script()
with open(F.FIXTURE_BYTES, "rb") as _f:
    REF1 = F.Reference(_f.read())
with open(F.FIXTURE, "rb") as _f:
    REF3 = F.Reference(_f.read())


def _sample_positions(ref, n, seed=5):
    """Every line's first byte, its checksum's first digit and its newline on a few lines, the
    first and last bytes of the file, and ``n`` seeded random positions."""
    rng = random.Random(seed)
    pos = {0, 1, len(ref.data) - 1, len(ref.data) - 2}
    for k in (0, 1, 2, len(ref.spans) // 2, len(ref.spans) - 2, len(ref.spans) - 1):
        s, e = ref.spans[k]
        pos |= {s, e - 9, e - 8, e - 1, e}
    pos |= {rng.randrange(len(ref.data)) for _ in range(n)}
    return sorted(pos)


BYTE_CASES = [c for p in _sample_positions(REF1, 60) for k in F.BYTE_FAULTS for c in [F.byte_case(REF1, p, k)] if c]


@pytest.mark.parametrize("case", BYTE_CASES, ids=lambda c: c.name)
def test_a_damaged_byte_or_a_cut_boots_keeps_the_records_before_and_the_file(case, tmp_path):
    """Rules boots, prefix, kept, told, clean, host (bgc replay and export on every 10th)."""
    cli = case.name.endswith("0") and not case.name.startswith("cut")
    assert F.check(REF1, case, str(tmp_path), cli=cli) == []


CONTENT_CASES = F.content_cases(REF3)


@pytest.mark.parametrize("case", CONTENT_CASES, ids=lambda c: c.name)
def test_a_record_with_a_right_checksum_but_a_wrong_content(case, tmp_path):
    """Wrong types, missing fields, actions the rules refuse: the record is refused by name, the
    records before it are kept, the file as it was stays beside the journal (rules boots, prefix,
    kept, told, clean, host with bgc replay and export)."""
    assert F.check(REF3, case, str(tmp_path), cli=True) == []


@pytest.mark.parametrize("case", F.garbage_cases() + F.garbage_in(REF3), ids=lambda c: c.name)
def test_whole_file_garbage_and_garbage_inside(case, tmp_path):
    """Random bytes, erased flash, 100 KB lines: rules boots, prefix, kept, told, clean, host."""
    assert F.check(REF3, case, str(tmp_path), cli=True) == []


def test_the_sweep_cases_cover_every_fault_kind():
    # The script's full sweep (docs/reliability.md) is every byte position of the journal times
    # the four byte faults; here: that the generator really produces them all.
    cases = F.byte_cases(REF1, stride=1)
    assert len(cases) == 4 * len(REF1.data)
    torn = [c for c in cases if c.torn]
    # A cut inside a line is a torn write; a cut at the end of a line (before or after its
    # newline) damages nothing.
    assert len(torn) == len(REF1.data) - 2 * len(REF1.lines)
    assert all(c.line is not None for c in cases if not c.name.startswith("cut"))


# --- the cases of issue 11, one by one, with what the user sees ----------------------------------


def _boot(tmp_path, data):
    d = tmp_path / "journal"
    d.mkdir(parents=True)
    (d / "m0001.jnl").write_bytes(data)
    c, evs = F._boot(str(d), F._frame(None))
    return d, c, evs


def _bgc(*args):
    r = subprocess.run([sys.executable, "-m", "bgc"] + list(args), capture_output=True, text=True, cwd=ROOT)
    return r.returncode, r.stdout, r.stderr


def test_issue_11_a_non_utf8_byte_no_longer_stops_the_boot(tmp_path):
    data = REF3.data
    pos = REF3.spans[40][0] + 10
    bad = data[:pos] + b"\xff" + data[pos + 1 :]
    d, c, evs = _boot(tmp_path, bad)
    boot = evs[0]
    assert boot["ev"] == "boot" and boot["resumed"]
    assert c.match.match_id() == REF3.states[40]["match"]  # the 40 records before line 41
    damaged = [e for e in evs if e["ev"] == "damaged"][0]
    assert damaged["line"] == 41 and damaged["later"] == len(REF3.lines) - 41
    assert (d / "m0001.jnl.damaged").read_bytes() == bad


def test_issue_11_damage_in_the_middle_keeps_every_later_record_beside_the_journal(tmp_path):
    data = REF3.data
    s, e = REF3.spans[22]
    bad = data[:s] + b"garbage" + data[e:]
    d, c, evs = _boot(tmp_path, bad)
    damaged = [e for e in evs if e["ev"] == "damaged"][0]
    assert damaged == {"ev": "damaged", "journal": str(d / "m0001.jnl"), "line": 23,
                       "reason": "no checksum (torn line?)", "kept": str(d / "m0001.jnl.damaged"),
                       "later": len(REF3.lines) - 23, "records": 22, "resumed": True}
    # the game's end and everything after line 23 are in the copy, byte for byte
    assert (d / "m0001.jnl.damaged").read_bytes() == bad
    assert "Log damaged L23" in "\n".join(c.fx.screen)
    note = [e for e in evs if e["ev"] == "note"][0]["text"]
    assert "power cut" not in note and "m0001.jnl.damaged" in note
    # bgc replay on the copy: what is readable, the line, and how much follows it
    status, out, err = _bgc("replay", "-q", str(d / "m0001.jnl.damaged"))
    assert status == 1 and "Traceback" not in err
    assert "line 23" in err and "%d readable lines after it" % (len(REF3.lines) - 23) in err


def test_issue_11_names_null_no_longer_wipes_the_journal_and_says_what_is_wrong(tmp_path):
    rec = dict(REF3.records[0], names=None)
    bad = F._line(rec) + REF3.data[REF3.spans[1][0] :]
    d, c, evs = _boot(tmp_path, bad)
    assert evs[0]["resumed"] is False and c.phase == "setup"
    assert (d / "m0001.jnl.damaged").read_bytes() == bad  # the whole match is still on flash
    assert "Log damaged L1" in "\n".join(c.fx.screen)
    for verb in ("replay", "export"):
        status, out, err = _bgc(verb, str(d / "m0001.jnl.damaged"))
        assert status == 2, err
        assert "names is not two names" in err and "NoneType" not in err and "Traceback" not in err


def test_issue_11_rules_list_is_refused_by_name_at_boot_and_in_bgc(tmp_path):
    rec = dict(REF3.records[0], rules=[1])
    bad = F._line(rec) + REF3.data[REF3.spans[1][0] :]
    d, c, evs = _boot(tmp_path, bad)
    assert [e for e in evs if e["ev"] == "damaged"][0]["reason"] == "match record: rules is not text"
    for verb in ("replay", "export"):
        status, out, err = _bgc(verb, str(d / "m0001.jnl.damaged"))
        assert status == 2 and "rules is not text" in err and "Traceback" not in err


def test_issue_11_a_checksummed_play_the_rules_refuse_keeps_the_later_lines(tmp_path):
    i = F._first(REF3, "play", F._first(REF3, "roll"))
    rec = dict(REF3.records[i], pos=REF3.states[i]["pos"])  # no checker moved although the dice allow it
    case = F._replace(REF3, i, F._line(rec), "refused play")
    d, c, evs = _boot(tmp_path, case.data)
    damaged = [e for e in evs if e["ev"] == "damaged"][0]
    assert damaged["line"] == i + 1 and damaged["reason"].startswith("play refused:")
    assert damaged["later"] == len(REF3.lines) - i - 1
    assert c.match.match_id() == REF3.states[i]["match"]
    assert (d / "m0001.jnl.damaged").read_bytes() == case.data


def test_a_torn_last_line_is_still_a_power_cut_not_damage(tmp_path):
    # Rule "torn": a write cut by a power failure ends without its newline; it is dropped, as
    # before, with no copy (tests/test_companion_journal_resume.py covers every cut instant).
    s, e = REF3.spans[50]
    d, c, evs = _boot(tmp_path, REF3.data[: s + 20])
    assert evs[0]["resumed"] and "dropped line 51" in evs[0]["note"]
    assert not [e for e in evs if e["ev"] == "damaged"] and not (d / "m0001.jnl.damaged").exists()


def test_a_second_damage_keeps_a_second_copy(tmp_path):
    # Rule "kept": a copy is never overwritten; the next one is m0001.jnl.damaged2.
    d, c, evs = _boot(tmp_path, REF3.data[: REF3.spans[30][0]] + b"x\n" + REF3.data[REF3.spans[31][0] :])
    first = (d / "m0001.jnl.damaged").read_bytes()
    again = (d / "m0001.jnl").read_bytes() + b"junk\n" + b"".join(x + b"\n" for x in REF3.lines[30:33])
    (d / "m0001.jnl").write_bytes(again)
    c, evs = F._boot(str(d), F._frame(REF3.states[30]))
    assert (d / "m0001.jnl.damaged").read_bytes() == first
    assert (d / "m0001.jnl.damaged2").read_bytes() == again
    assert [e for e in evs if e["ev"] == "damaged"][0]["kept"] == str(d / "m0001.jnl.damaged2")


def test_pull_copies_the_kept_damaged_journal_and_says_what_it_is(tmp_path, capsys):
    from bgc import cli
    from bgc.pico.vpico import VirtualPico

    flash = tmp_path / "flash"
    (flash / "journal").mkdir(parents=True)
    (flash / "main.py").write_text("import time\nwhile True:\n    time.sleep_ms(50)\n")
    data = REF3.data
    bad = data[: REF3.spans[60][0]] + b"\x00" * 30 + b"\n" + data[REF3.spans[61][0] :]
    (flash / "journal" / "m0001.jnl").write_bytes(bad)
    F._boot(str(flash / "journal"), F._frame(REF3.states[60]))  # the firmware keeps the copy and repairs
    (flash / "journal" / "m0002.jnl").write_bytes(data[:500] + b"\xfe" + data[501:])  # not booted yet
    out_dir = tmp_path / "pulled"
    with VirtualPico(str(flash)) as pico:
        status = cli.main(["pull", "--port", pico.port, "--out", str(out_dir), "--no-restart"])
    out, err = capsys.readouterr()
    assert status == 1 and "Traceback" not in out + err  # m0002 does not verify
    assert (out_dir / "m0001.jnl.damaged").read_bytes() == bad
    row = [line for line in out.splitlines() if "m0001.jnl.damaged" in line][0]
    assert "damaged, kept" in row
    assert "%d readable lines after it are not replayed" % (len(REF3.lines) - 61) in out
    assert "m0002.jnl" in out and "NOT VERIFIED" in out and "line 7: unreadable" in out
    # never marked as exported (so the firmware never frees it)
    exported = flash / "journal" / "exported"
    assert not exported.exists() or "damaged" not in exported.read_text()


# --- under MicroPython ----------------------------------------------------------------------------

UPY_BOOT = r'''
import os
from companion.controller import Companion
from companion.store import Store

class Dice:
    def roll(self): return (3, 1)
    def first_roll(self): return (3, 1)

for d in DIRS:
    c = Companion(Store(d), Dice())
    c.boot(bytearray(128), 0)
    for line in c.fx.out:
        print(line)
    print("FILES", d, sorted(os.listdir(d)))
'''


def test_damaged_journals_boot_under_micropython(tmp_path):
    """Rules boots and kept under a real MicroPython (UnicodeError there, not UnicodeDecodeError)."""
    from bgc.pico import upy

    data = REF3.data
    cases = {
        "utf8": data[:700] + b"\xff" + data[701:],
        "middle": data[: REF3.spans[22][0]] + b"garbage\n" + data[REF3.spans[23][0] :],
        "names": F._line(dict(REF3.records[0], names=None)) + data[REF3.spans[1][0] :],
        "rules": F._line(dict(REF3.records[0], rules=[1])) + data[REF3.spans[1][0] :],
        "garbage": bytes(random.Random(3).randrange(256) for _ in range(3000)),
    }
    dirs = []
    for name, body in cases.items():
        d = tmp_path / name
        d.mkdir()
        (d / "m0001.jnl").write_bytes(body)
        dirs.append(str(d))
    out = upy.run("DIRS = %r\n" % dirs + UPY_BOOT, [os.path.join(ROOT, "firmware")])
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    boots = [e for e in events if e["ev"] == "boot"]
    damaged = [e for e in events if e["ev"] == "damaged"]
    assert len(boots) == 5 and len(damaged) == 5
    assert [e["line"] for e in damaged] == [REF3.line_at(700) + 1, 23, 1, 1, 1]
    assert [b["resumed"] for b in boots] == [True, True, False, False, False]
    for name, body in cases.items():
        assert (tmp_path / name / "m0001.jnl.damaged").read_bytes() == body


def test_a_fault_of_the_rules_engine_on_one_record_does_not_stop_the_boot(tmp_path, monkeypatch):
    # Rule "boots", even for a fault of the firmware's own: the match is not resumed (it may be
    # half-changed), the file is kept, and the next boot resumes from the records before it.
    from bgrules.match import Match

    real = Match.pass_turn
    monkeypatch.setattr(Match, "pass_turn", lambda self, p=None: 1 // 0)
    i = F._first(REF3, "pass")
    d, c, evs = _boot(tmp_path, REF3.data)
    damaged = [e for e in evs if e["ev"] == "damaged"][0]
    assert damaged["line"] == i + 1 and "ZeroDivisionError" in damaged["reason"] and not damaged["resumed"]
    assert (d / "m0001.jnl.damaged").read_bytes() == REF3.data
    monkeypatch.setattr(Match, "pass_turn", real)
    c, evs = F._boot(str(d), F._frame(REF3.states[i]))
    assert evs[0]["resumed"] and c.match.match_id() == REF3.states[i]["match"]


def test_logs_lists_the_kept_copy_and_delete_removes_it(tmp_path):
    # Rule "kept": the copy stays until the players remove it on purpose (serial `delete`); the
    # low-flash clean-up never touches it (it is never marked exported).
    from companion_helpers import Harness

    d = tmp_path / "journal"
    d.mkdir()
    (d / "m0001.jnl").write_bytes(REF3.data[: REF3.spans[10][0]] + b"x\n" + REF3.data[REF3.spans[11][0] :])
    h = Harness(tmp_path, boot=False)
    h.c.boot(h.frame(), 0)
    h.line('{"cmd": "logs"}')
    files = h.events("logs")[0]["files"]
    assert [(f["name"], f.get("damaged", False)) for f in files] == [("m0001.jnl", False), ("m0001.jnl.damaged", True)]
    h.line("delete m0001.jnl.damaged2")
    assert h.events("error")[-1]["error"] == "no log m0001.jnl.damaged2"
    h.line("delete m0001.jnl.damaged")
    assert h.events("deleted")[0]["name"] == "m0001.jnl.damaged" and not (d / "m0001.jnl.damaged").exists()
