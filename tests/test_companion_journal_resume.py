"""Nothing lost: power cuts at every line boundary and in the middle of lines, torn lines,
the low-flash clean-up, and the serial line that never stops the game."""
import json
import os
import random

from bgrules.position import Position
from companion import journal as J
from companion import recovery
from companion import protocol
from companion_helpers import Harness, FakeFs, ROLL_W, CUBE_W, ROLL_B, CUBE_B, LONG


def played(tmp_path):
    """A short scripted game: opening, plays, a double and take, a roll, a play half done."""
    h = Harness(tmp_path, rolls=[(6, 4), (5, 2)], openings=[(1, 1), (3, 1)])
    h.start_match(length=0, auto=1)
    h.press(ROLL_W)  # tie: automatic double
    h.press(ROLL_W)  # white starts 3-1
    h.move("w", 8, 5, show=False)
    h.move("w", 6, 5)
    h.press(ROLL_W)
    h.press(CUBE_B)
    h.press(ROLL_W)  # take
    h.press(ROLL_B)  # black 6-4
    h.move("b", 1, 7)  # black 24/18, the 4 not yet played
    return h


def boot_with(tmp_path, text, board):
    d = tmp_path / "journal"
    d.mkdir(parents=True, exist_ok=True)
    (d / "m0001.jnl").write_text(text)
    h = Harness(tmp_path, boot=False, rolls=[(2, 1)])
    h.white, h.black = board
    h.c.boot(h.frame(), 0)
    return h


def test_power_cut_at_every_line_boundary_and_mid_line_resumes(tmp_path):
    src = played(tmp_path / "src")
    text = open(os.path.join(src.dir, src.c.name)).read()
    lines = text.splitlines(keepends=True)
    board = (list(src.white), list(src.black))
    n = 0
    for k in range(1, len(lines) + 1):
        for cut in (0, len(lines[k - 1]) // 2, len(lines[k - 1]) - 2):  # whole, half, last digit lost
            torn = cut != 0
            body = "".join(lines[: k - 1 if torn else k]) + (lines[k - 1][:cut] if torn else "")
            n += 1
            h = boot_with(tmp_path / ("c%d" % n), body, board)
            boot = h.events("boot")[0]
            records = J.parse(body)[0]
            assert boot["resumed"] == (len(records) >= 1), (k, cut)
            if torn:
                assert "dropped line %d" % k in boot["note"], boot
                assert h.events("note")[0]["text"] == boot["note"]
                if h.c.phase == "board":
                    assert "Torn line gone" in h.screen()
                # the torn line is gone from flash for good
                fixed = open(os.path.join(h.dir, "m0001.jnl")).read()
                assert J.parse(fixed)[1] is None
            if records:
                want = recovery.replay(records)
                assert h.c.match.match_id() == want.match_id()
                assert h.c.match.position.id() == want.position.id()
                status = h.events("status")[-1]
                assert status["match"] == want.match_id()
    assert n == 3 * len(lines)


def test_resume_mid_turn_keeps_the_checkers_already_moved(tmp_path):
    src = played(tmp_path / "src")
    text = open(os.path.join(src.dir, src.c.name)).read()
    h = boot_with(tmp_path / "b", text, (list(src.white), list(src.black)))
    assert h.c.phase == "moving" and h.leds("illegal") == []
    h.move("b", 12, 16)  # black finishes 13/9
    h.press(ROLL_B)
    assert h.events("play")[0]["move"] == "24/18 13/9"


def test_resume_asks_for_checkers_to_be_put_back(tmp_path):
    src = played(tmp_path / "src")
    text = open(os.path.join(src.dir, src.c.name)).read()
    lines = text.splitlines(keepends=True)
    upto_take = "".join(l for l in lines if '"roll", "p": 1' not in l)
    # the cut came after the take; someone knocked a white checker off the 13 point
    w, b = list(src.white), list(src.black)
    b[7] -= 1
    b[1] += 1  # black's half-move undone: the position of the last completed action
    w[13] -= 1
    h = boot_with(tmp_path / "b", upto_take, (w, b))
    assert h.c.phase == "board"
    assert h.leds("illegal") == [13]
    assert h.c.msg == "White: 1 missing on 13"
    h.white[13] += 1
    h.show()
    assert h.c.phase == "roll" and h.c.match.to_act == 1


def test_garbled_last_line_is_dropped_and_boot_goes_on(tmp_path):
    src = played(tmp_path / "src")
    text = open(os.path.join(src.dir, src.c.name)).read()
    bad = text.replace('"dice": [6, 4]', '"dice": [6, 5]')  # checksum no longer fits
    w, b = list(src.white), list(src.black)
    b[7] -= 1
    b[1] += 1  # black takes back 24/18: the roll it belongs to is lost
    h = boot_with(tmp_path / "b", bad, (w, b))
    boot = h.events("boot")[0]
    assert boot["resumed"] and "checksum" in boot["note"]
    assert h.events("note")[0]["text"] == boot["note"]
    assert h.c.phase == "roll" and h.c.match.to_act == 1  # before black's roll
    recs = J.parse(open(os.path.join(h.dir, "m0001.jnl")).read())[0]
    # A garbled whole line is flash damage, not a power cut (a torn write has no newline): the
    # note says so and the file as it was is kept beside the journal (issue 11).
    assert recs[-1] == {"a": "note", "text": boot["note"]} and "power cut" not in boot["note"]
    assert open(os.path.join(h.dir, "m0001.jnl.damaged")).read() == bad


def test_garbage_journal_never_stops_the_boot(tmp_path):
    h = boot_with(tmp_path, "\x00\xff garbage\n", ([0] * 26, [0] * 26))
    assert h.c.phase == "setup" and h.events("boot")[0]["resumed"] is False


def test_low_flash_removes_oldest_exported_logs_first(tmp_path):
    d = tmp_path / "journal"
    d.mkdir()
    for i in range(1, 5):
        (d / ("m%04d.jnl" % i)).write_text(J.encode(J.settings_record()) + J.encode({"a": "note", "text": "x" * 4900}))
    (d / "exported").write_text("m0001.jnl\nm0002.jnl\nm0004.jnl\n")
    fs = FakeFs(free=2000)
    h = Harness(tmp_path, fs=fs)
    h.start_match()
    notes = [e["text"] for e in h.events("note") if e["text"].startswith("flash")]
    left = sorted(os.listdir(d))
    # every exported log goes (m0003 is not exported), and the flash is still under 16 KB free:
    # the players are told to pull the logs
    assert notes[:3] == ["flash low: removed exported log m0001.jnl", "flash low: removed exported log m0002.jnl",
                         "flash low: removed exported log m0004.jnl"]
    assert len(notes) == 4 and notes[3].endswith("bytes free, pull the logs")
    assert h.c.msg == "Flash low" or h.c.msg.startswith("Flash low")
    assert "m0003.jnl" in left and "m0005.jnl" in left


def test_low_flash_never_removes_the_current_match(tmp_path):
    h = Harness(tmp_path, fs=FakeFs(free=10 ** 6))
    h.start_match()
    cur = h.c.name
    with open(os.path.join(h.dir, "exported"), "w") as f:
        f.write(cur + "\n")
    h.fs.free_bytes = 100
    from companion import flash_room

    assert flash_room.cleanup(h.c.store, current=cur) == []
    h.line("delete " + cur)
    assert h.events("error")[-1]["error"] == "%s is the current match" % cur
    assert os.path.exists(os.path.join(h.dir, cur))


def test_logs_and_delete_commands(tmp_path):
    h = Harness(tmp_path)
    h.start_match()
    h.start_match()
    with open(os.path.join(h.dir, "exported"), "w") as f:
        f.write("m0001.jnl\n")
    h.clear()
    h.line('{"cmd": "logs"}')
    files = h.events("logs")[0]["files"]
    assert [(f["name"], f["exported"], f["current"]) for f in files] == [("m0001.jnl", True, False),
                                                                        ("m0002.jnl", False, True)]
    h.line("delete m0001.jnl")
    assert h.events("deleted") == [{"ev": "deleted", "name": "m0001.jnl"}]
    h.line("delete m0009.jnl")
    assert h.events("error")[-1]["error"] == "no log m0009.jnl"


def test_new_match_over_serial_and_its_refusals(tmp_path):
    h = Harness(tmp_path)
    h.line("new length=7 names=Ann,Bob")
    assert h.events("new")[0]["settings"]["length"] == 7
    assert h.c.match.names == ("Ann", "Bob")
    h.clear()
    h.line('{"cmd": "new", "length": 3}')
    assert "in progress" in h.events("error")[0]["error"]
    h.line('{"cmd": "new", "length": 0, "beavers": 9, "force": true}')
    assert h.events("error")[-1]["error"] == "Beavers: 0-3 (otter)"
    h.line("new force=1 money beavers=2")
    assert h.c.match.length == 0 and h.c.match.beavers == 2
    h.line("options")
    assert h.events("options")[0]["current"]["beavers"] == 2


def test_calibrate_refused_during_a_game(tmp_path):
    h = Harness(tmp_path, openings=[(3, 1)])
    h.line("calibrate")
    assert h.c.fx.calibrate  # in the menu: main.py takes the baseline
    h.c.fx.calibrate = False
    h.start_match()
    h.press(ROLL_W)
    h.line("calibrate")
    assert not h.c.fx.calibrate and "empty board" in h.events("error")[-1]["error"]


def random_line(rng):
    kind = rng.randrange(8)
    if kind == 0:
        return "".join(chr(rng.randrange(0, 256)) for _ in range(rng.randrange(0, 40)))
    if kind == 1:
        return rng.choice(["", " ", "{", "}", "[]", "null", "{}", '{"cmd": 5}', '{"cmd": "status", "x": 1}',
                           "new length=x", "new crawford=maybe", "new names=A", "delete", "delete ../x",
                           "STATUS please", "x" * 300, '{"cmd": "new", "length": 99, "force": true}'])
    if kind == 2:
        return json.dumps({"cmd": rng.choice(["status", "logs", "options", "bogus", "delete", "new"]),
                           rng.choice(["length", "name", "q"]): rng.choice([1, "a", None, [1], True])})
    if kind == 3:
        return rng.choice(["status", "logs", "options"])
    word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz={}\":, 0123456789") for _ in range(rng.randrange(1, 30)))
    return word


def test_serial_garbage_gets_error_lines_and_the_game_goes_on(tmp_path):
    h = Harness(tmp_path, rolls=[(6, 4)], openings=[(3, 1)])
    h.start_match()
    h.press(ROLL_W)
    h.move("w", 8, 5)
    before = (h.c.phase, h.c.match.match_id(), h.c.name)
    rng = random.Random(7)
    for i in range(2000):
        line = random_line(rng)
        h.clear()
        h.line(line)
        out = h.events()
        assert len(out) >= 1, repr(line)
        try:
            cmd, args = protocol.parse(line)
        except protocol.ProtocolError:
            assert out[0]["ev"] == "error" and out[0]["error"], repr(line)
            continue
        assert cmd in ("status", "logs", "options", "new", "delete"), repr(line)
    assert (h.c.phase, h.c.match.match_id(), h.c.name) == before
    h.move("w", 6, 5)
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "8/5 6/5"
