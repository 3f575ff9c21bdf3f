"""The firmware image (scripts/build/build_image.sh, scripts/build/image_manifest.py): its manifest freezes every
module of firmware/; a built image boots on the emulated Pico, starts the companion by itself,
plays a whole match, and plays a match against the board's own player started from the buttons; and what a builder keeps on the Pico's filesystem (calibration, journals) survives writing an
image over it, modelled as the RP2040 boot ROM writes a UF2: each block's 256 bytes at its address,
every 4 KB sector it touches erased first, nothing else changed.

The build itself is not run here (minutes of two cores, and the ARM toolchain): the image tests run
where one is built (build/image/bgcompanion-*.uf2, or BGC_IMAGE=FILE) and the emulated Pico is
present; the re-flash test writes the stock MicroPython .uf2 where no image is built. With
BGC_MICROPYTHON_DIR=<MicroPython source at v1.27.0> the manifest is also read by MicroPython's own
tools/manifestfile.py."""
import glob
import os
import shutil
import struct
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MANIFEST = os.path.join(ROOT, "scripts", "build", "image_manifest.py")
MANIFEST_PICOW = os.path.join(ROOT, "scripts", "build", "image_manifest_picow.py")
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))

import bench_pico  # noqa: E402


def firmware_modules():
    found = set()
    for root, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        for name in names:
            if name.endswith(".py"):
                found.add(os.path.relpath(os.path.join(root, name), FIRMWARE).replace(os.sep, "/"))
    return found


def read_manifest(path=MANIFEST):
    """The manifest's calls, by running it with recording stand-ins of the manifest functions."""
    calls = []
    env = {name: (lambda *a, _name=name, **k: calls.append((_name, a, k)))
           for name in ("include", "require", "freeze", "freeze_as_mpy", "freeze_as_str", "package", "module")}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), env)
    return calls


def test_the_manifest_freezes_every_firmware_module_and_the_display_driver():
    calls = read_manifest()
    frozen = set()
    for name, args, kw in calls:
        if name == "freeze":
            assert os.path.abspath(os.path.join(os.path.dirname(MANIFEST), args[0])) == FIRMWARE
            assert kw.get("opt") == 3  # as bgc deploy compiles (mpy-cross -O3)
            frozen.update(args[1])
    modules = firmware_modules()
    assert "main.py" in modules and "bgrules/variants/backwards.py" in modules
    missing = sorted(modules - frozen)
    assert not missing, "firmware modules not frozen into the image (add them to scripts/build/image_manifest.py): %s" % missing
    gone = sorted(frozen - modules)
    assert not gone, "scripts/build/image_manifest.py lists modules that firmware/ no longer has: %s" % gone
    assert ("require", ("ssd1306",), {}) in calls
    assert ("include", ("$(PORT_DIR)/boards/manifest.py",), {}) in calls  # the stock RPI_PICO modules


def test_the_pico_w_manifest_is_the_pico_image_plus_the_stock_pico_w_modules_and_the_tested_umqtt(monkeypatch):
    """The Pico W image (build_image.sh --board RPI_PICO_W) freezes what the Pico's does, the stock
    RPI_PICO_W modules (Wi-Fi's bundle), and umqtt.simple from the very folder the MicroPython test
    of drivers/mqtt_link.py runs (PyPI's 1.3.4, sha256-pinned by bgc.pico.libs): one umqtt for both."""
    from bgc.pico import libs

    umqtt = libs.umqtt_dir()
    monkeypatch.setenv("BGC_UMQTT_DIR", umqtt)
    calls = read_manifest(MANIFEST_PICOW)
    assert calls[0] == ("include", ("$(BOARD_DIR)/manifest.py",), {})  # the stock Pico W's, networking
    assert ("include", ("image_manifest.py",), {}) in calls  # the Pico image's whole manifest
    assert ("package", ("umqtt",), {"base_path": umqtt, "opt": 3}) in calls
    assert not [c for c in calls if c[0] == "require" and c[1][0].startswith("umqtt")]  # not micropython-lib's 1.7.0
    # without the folder the manifest stops the build with a message, rather than freezing no MQTT client
    monkeypatch.delenv("BGC_UMQTT_DIR")
    with pytest.raises(Exception, match="BGC_UMQTT_DIR"):
        read_manifest(MANIFEST_PICOW)


def test_micropythons_own_manifest_reader_freezes_the_firmware():
    src = os.environ.get("BGC_MICROPYTHON_DIR")
    if not src:
        pytest.skip("BGC_MICROPYTHON_DIR (a MicroPython source tree at v1.27.0) is not set")
    sys.path.insert(0, os.path.join(src, "tools"))
    try:
        import manifestfile
    finally:
        sys.path.pop(0)
    m = manifestfile.ManifestFile(manifestfile.MODE_FREEZE, {
        "MPY_DIR": src, "MPY_LIB_DIR": os.path.join(src, "lib", "micropython-lib"),
        "PORT_DIR": os.path.join(src, "ports", "rp2"), "BOARD_DIR": os.path.join(src, "ports", "rp2", "boards", "RPI_PICO")})
    m.execute(MANIFEST)
    targets = {f.target_path for f in m.files()}
    assert firmware_modules() <= targets
    assert {"ssd1306.py", "neopixel.py", "_boot.py"} <= targets
    assert not any(t.startswith("umqtt/") for t in targets)  # a Pico without Wi-Fi has no use for it


def test_micropythons_own_manifest_reader_freezes_the_pico_w_image(monkeypatch):
    src = os.environ.get("BGC_MICROPYTHON_DIR")
    if not src:
        pytest.skip("BGC_MICROPYTHON_DIR (a MicroPython source tree at v1.27.0) is not set")
    from bgc.pico import libs

    sys.path.insert(0, os.path.join(src, "tools"))
    try:
        import manifestfile
    finally:
        sys.path.pop(0)
    monkeypatch.setenv("BGC_UMQTT_DIR", libs.umqtt_dir())
    m = manifestfile.ManifestFile(manifestfile.MODE_FREEZE, {
        "MPY_DIR": src, "MPY_LIB_DIR": os.path.join(src, "lib", "micropython-lib"),
        "PORT_DIR": os.path.join(src, "ports", "rp2"), "BOARD_DIR": os.path.join(src, "ports", "rp2", "boards", "RPI_PICO_W")})
    m.execute(MANIFEST_PICOW)
    files = {f.target_path: f.full_path for f in m.files()}
    assert firmware_modules() <= set(files)
    assert {"ssd1306.py", "neopixel.py", "_boot.py", "requests/__init__.py", "aioble/__init__.py"} <= set(files)
    assert sorted(t for t in files if t.startswith("umqtt/")) == ["umqtt/simple.py"]
    with open(files["umqtt/simple.py"], "rb") as f, open(os.path.join(libs.umqtt_dir(), "umqtt", "simple.py"), "rb") as g:
        assert f.read() == g.read()  # the file the MicroPython test runs against Mosquitto


def built_image():
    path = os.environ.get("BGC_IMAGE")
    if path:
        return path
    found = glob.glob(os.path.join(ROOT, "build", "image", "bgcompanion-*.uf2"))
    return max(found, key=os.path.getmtime) if found else None


def need_emulator():
    try:
        bench_pico.find_emulator()
    except bench_pico.BenchError as exc:
        pytest.skip(str(exc))


def need_image():
    image = built_image()
    if not image:
        pytest.skip("no firmware image built (sh scripts/build/build_image.sh MICROPYTHON_DIR)")
    need_emulator()
    return image


# Right after power-up the runner breaks into the REPL (Ctrl-C): whatever of the firmware is
# imported by then was imported by the image's own main.py, which nothing put on the filesystem.
AT_BOOT = r"""
import os, sys, gc
print("FILES", sorted(os.listdir("/")))
print("STARTED", sorted(k for k in sys.modules if k.split(".")[0] in ("companion", "drivers", "bgrules")))
print("BUILD", (sys.implementation.version[:3], sys.implementation._build))
"""


def test_the_image_starts_the_companion_by_itself():
    image = need_image()
    out, _ = bench_pico.emulate([("at_boot", AT_BOOT)], image=image, soft_reset=False, max_emu_s=30, timeout=300)
    assert not [n for n in bench_pico.results(out, "FILES")[0] if n.endswith((".py", ".mpy"))]
    assert "companion.controller" in bench_pico.results(out, "STARTED")[0]
    assert bench_pico.results(out, "BUILD")[0] == ((1, 27, 0), "RPI_PICO")


# The whole match runs where the harness's players make the shortest whole match: Eureka, every
# checker already home, a bear-off race of 15 turns to the end of the 1-point match (the standard
# game's takes 62 turns, ~7 minutes of emulation: scripts/bench/bench_pico.py --image plays it).
WHOLE_MATCH_VARIANT = "eureka"
AFTER_MATCH = r"""
print("RESULT", (companion.phase, list(companion.match.score)))
"""


def test_the_image_plays_a_whole_match():
    """A whole 1-point match through main.App from the frozen modules only (/lib gets just the
    harness's frame maker): every play the host's rules engine chose on the virtual board is
    accepted by the image's rules, and the match ends with one player's point."""
    image = need_image()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        plays = bench_pico.choose_plays(tmp, WHOLE_MATCH_VARIANT)
        tree = bench_pico.compile_tree(os.path.join(tmp, "lib"), [os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")],
                                       firmware=False)
        assert os.listdir(tree) == ["frames.mpy"]
        data = os.path.join(tmp, "data")
        bench_pico.write_data(data, [], plays)
        match = ("import os\nos.mkdir('/journal')\nJOURNAL_DIR = '/journal'\nPLAYS = '/data/plan.txt'\n"
                 "VARIANT = %r\n" % WHOLE_MATCH_VARIANT + bench_pico.MATCH)
        out, _ = bench_pico.emulate([("boot", bench_pico.BOOT), ("imports", bench_pico.IMPORT), ("match", match),
                                     ("after", AFTER_MATCH)],
                                    puts=[(tree, "/lib"), (data, "/data")], image=image, max_emu_s=300, timeout=1200)
    assert bench_pico.results(out, "HEAP_IMPORT")[0] >= 200_000  # frozen: the code stays in flash
    st = bench_pico.results(out, "MATCH")[0]
    assert st["turns"] == len(plays) >= 10
    assert st["done"][0] >= len(plays)  # a DONE answered for every turn
    assert st["frame"][0] >= sum(len(steps) for steps in plays)  # every checker moved was answered
    phase, score = bench_pico.results(out, "RESULT")[0]
    assert phase == "matchover" and sorted(score) == [0, 1]


# A match against the board's own player (docs/board-player.md), started as a person starts it: the
# new-match menu from the buttons alone (Length 1, Board Black, Level stepped through to expert,
# Start), nothing on the serial line. The person (White) takes the first play of the Pico's own
# list of legal plays in position-ID order and every double; the board's plays are read from the
# controller on the Pico (the play it lights) and set down a checker at a time.
AGAINST_BOARD = r"""
import os
os.mkdir('/journal')
JOURNAL_DIR = '/journal'
PLAYS = None
MAX_TURNS = 0
VARIANT = 'standard'
BOARD = 1
LEVEL_NAME = 'expert'
"""


def test_the_image_plays_a_match_against_the_board_started_from_its_buttons():
    """Issue 31's last check: on the emulated Pico (flash cache modelled) from the firmware image, a
    1-point match against the board, started from the buttons alone, is played to its end; the
    board thinks on the Pico's loop, every play it lights is taken as set down (no frame of it
    refused by the tracker), and the match ends with one side's point. Its think times are printed
    (docs/board-player.md)."""
    image = need_image()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        tree = bench_pico.compile_tree(os.path.join(tmp, "lib"), [os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")],
                                       firmware=False)
        out, _ = bench_pico.emulate([("boot", bench_pico.BOOT), ("against_board", AGAINST_BOARD + bench_pico.MATCH)],
                                        puts=[(tree, "/lib")], image=image, xip=True, max_emu_s=300, timeout=2400)
    (menu, phase, side, length, names), = bench_pico.results(out, "MENU")
    assert menu == {"Length": ["money", "1"], "Board": ["off", "White", "Black"],
                    "Level": ["expert", "club", "beginner", "expert"]}  # three named levels, stepped through
    assert phase == "opening" and side == 1 and length == 1 and list(names) == ["You", "board (expert)"]
    st, = bench_pico.results(out, "BOARD_MATCH")
    assert st["phase"] == "matchover" and sorted(st["score"]) == [0, 1]
    assert st["flagged"] == []
    assert st["lit"] == st["plays"] >= 10  # each of its plays lit on the LEDs before it was moved
    assert st["board_turns"] >= 10 and st["turns"] >= 10 and len(st["think_us"]) == st["board_turns"]
    think = sorted(st["think_us"])
    print("AGAINST THE BOARD: %d ms of emulated play, %d of the board's turns, %d of the person's, score %s, "
          "%d evaluations, doubles taken %s; think time per play median %.0f ms, worst %.0f ms; least free heap (the harness loaded) %d B"
          % (st["ms"], st["board_turns"], st["turns"], st["score"], st["evaluations"], st["doubles"],
             think[len(think) // 2] / 1000, think[-1] / 1000, st["min_free"]))
    # the goals for the think time per play, here with whole loop steps (scan, classify,
    # LEDs, collections) counted: median under 0.5 s, worst under 2 s
    assert think[len(think) // 2] < 500_000 and think[-1] < 2_000_000


# ---------------------------------------------------------------- re-flash

def write_uf2(flash, uf2):
    """What the RP2040 boot ROM does with a UF2 copied onto its drive, on a 2 MB flash image."""
    flash = bytearray(flash)
    erased = set()
    for k in range(0, len(uf2), 512):
        m0, m1, flags, addr, size = struct.unpack_from("<5I", uf2, k)
        assert (m0, m1) == (0x0A324655, 0x9E5D5157) and size == 256
        offset = addr - 0x10000000
        sector = offset // 4096
        if sector not in erased:
            flash[sector * 4096:(sector + 1) * 4096] = b"\xff" * 4096
            erased.add(sector)
        flash[offset:offset + 256] = uf2[k + 32:k + 32 + 256]
    return bytes(flash)


# The calibration as the firmware saves it (drivers/classify.py), and a journal record
# (companion/journal.py), written before the re-flash and read back after it.
SAVE = r"""
import sys
sys.path.insert(0, "/lib")
from drivers.classify import Classifier
from companion.journal import Journal
import os
c = Classifier()
c.set_unit(7, 12345)
c.empty_pct = 31
c.save()
os.mkdir("/journal")
Journal("/journal/0001.jnl").append({"a": "play", "p": 0, "dice": [3, 1], "steps": [[8, 5, 0], [6, 5, 0]]})
for n in ("/calib.bin", "/journal/0001.jnl"):
    print("SAVED", (n, open(n, "rb").read()))
"""

LOAD = r"""
import sys
sys.path.insert(0, "/lib")
from drivers.classify import Classifier
c = Classifier()
print("LOADED", (c.load(), c.calib_source, c.unit[7], c.empty_pct))
for n in ("/calib.bin", "/journal/0001.jnl"):
    print("SAVED", (n, open(n, "rb").read()))
print("BUILD", repr(sys.implementation._build))
"""


def test_calibration_and_journals_survive_writing_an_image_over_them(tmp_path):
    need_emulator()
    image = built_image()
    stock = os.path.join(bench_pico.find_emulator(), "firmware.uf2")
    new = image or stock  # without a built image: the stock MicroPython written over itself
    tree = bench_pico.compile_tree(str(tmp_path / "lib"))
    shutil.rmtree(os.path.join(tree, "bgrules"))  # copying files is slow: only what SAVE uses
    for name in os.listdir(os.path.join(tree, "companion")):
        if name not in ("__init__.mpy", "journal.mpy", "tail.mpy"):  # (the journal's tail: companion.tail)
            os.remove(os.path.join(tree, "companion", name))
    before = str(tmp_path / "before.bin")
    out, _ = bench_pico.emulate([("save", SAVE)], puts=[(tree, "/lib")], flash_out=before, max_emu_s=30, timeout=300)
    saved = dict(bench_pico.results(out, "SAVED"))
    assert len(saved["/calib.bin"]) == 12 + 4 * 128 + 2

    with open(before, "rb") as f, open(new, "rb") as g:
        after = write_uf2(f.read(), g.read())
    reflashed = str(tmp_path / "after.bin")
    with open(reflashed, "wb") as f:
        f.write(after)
    out, _ = bench_pico.emulate([("load", LOAD)], flash_in=reflashed, soft_reset=bool(image), max_emu_s=30, timeout=300)
    assert bench_pico.results(out, "LOADED")[0] == (True, "file", 12345, 31)
    assert dict(bench_pico.results(out, "SAVED")) == saved
    assert bench_pico.results(out, "BUILD")[0] == "RPI_PICO"


def built_picow_image():
    path = os.environ.get("BGC_IMAGE_PICOW")
    if path:
        return path
    found = glob.glob(os.path.join(ROOT, "build", "image-picow", "bgcompanion-*-picow.uf2"))
    if not found:
        pytest.skip("no Pico W image built (sh scripts/build/build_image.sh --board RPI_PICO_W MICROPYTHON_DIR)")
    need_emulator()
    return max(found, key=os.path.getmtime)


# main.build() as the image's main.py calls it at power-up, with the settings on the flash (the runner
# copies files only after its break into the REPL, so the power-up's own run never sees them)
PICOW_BUILD = r"""
import sys, main
app = main.build()
print("BUILD", (sys.implementation.version[:3], sys.implementation._build))
print("SERIAL", repr(type(app.serial).__name__))
print("LINK", repr(app.link_note))
"""


def test_the_pico_w_image_without_its_radio_still_starts_the_board_and_says_why(tmp_path):
    """The Pico W image with Wi-Fi settings on the flash, on the emulated Pico, which has no Wi-Fi
    chip (as a plain Pico given the Pico W image, or a Pico W whose radio fails): the radio does not
    start, and main.build() still gives the board, on USB alone, with the reason for the note after
    the boot event."""
    image = built_picow_image()
    settings = tmp_path / "mqtt.json"
    settings.write_text('{"ssid": "club", "wifi_password": "x", "broker": "192.0.2.1", "board": "table7"}')
    out, _ = bench_pico.emulate([("build", PICOW_BUILD)], puts=[(str(settings), "/mqtt.json")], image=image,
                                max_emu_s=60, timeout=900)
    assert bench_pico.results(out, "BUILD")[0] == ((1, 27, 0), "RPI_PICO_W")
    assert bench_pico.results(out, "SERIAL")[0] == "UsbSerial"
    assert bench_pico.results(out, "LINK")[0].startswith("Wi-Fi did not start (OSError("), out[-2000:]


def test_the_profile_says_where_a_frame_answer_goes(capsys):
    """scripts/bench/profile_pico.py, a short version (Eureka's first two turns): each timed
    method of the frame and button answers (DONE's among them) is listed with its calls, every
    frame answer of the match timed."""
    image = need_image()
    sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
    import profile_pico

    assert profile_pico.main(["--image", image, "--variant", "eureka", "--max-turns", "2"]) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        if line.startswith("PROFILE "):
            name, rest = line[len("PROFILE "):].split(": ", 1)
            calls, total = rest.split(", ")[:2]
            rows[name] = (int(calls.split()[0]), int(total.split()[0]))
    for name in ("Companion.on_frame", "Companion._moving_frame", "Companion.render", "Tracker.update",
                 "Companion.on_button", "MovingPhase._done", "Match.play"):
        assert rows.get(name, (0,))[0] > 0, "%s not timed:\n%s" % (name, out)
    head = out.splitlines()[0]
    assert head.startswith("eureka, 2 turns on the image"), out
    # every frame answer in play was timed (the controller's frame answers include the others')
    assert rows["Companion.on_frame"][0] >= int(head.split("frame answers ")[1].split(",")[0]) > 0
