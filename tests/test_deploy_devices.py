"""bgc deploy and bgc devices, end to end against the virtual Pico, and their user-facing errors."""

import errno
import os
import pty
import subprocess
import sys
import threading
import time

import pytest
import serial

from bgc import cli
from bgc.pico import device
from bgc.pico.vpico import VirtualPico

# A stand-in for the companion: after the boot event it reports its status (docs/protocol.md),
# which is what `bgc deploy` waits for before it says main.py is running.
MAIN = """\
import json, time
import pkg.mod
print(json.dumps({"ev": "boot", "value": pkg.mod.VALUE}))
time.sleep_ms(300)
print(json.dumps({"ev": "status", "phase": "setup"}))
while True:
    time.sleep_ms(50)
"""


@pytest.fixture
def firmware(tmp_path):
    fw = tmp_path / "fw"
    (fw / "pkg").mkdir(parents=True)
    (fw / "main.py").write_text(MAIN)
    (fw / "pkg" / "__init__.py").write_text("")
    (fw / "pkg" / "mod.py").write_text("VALUE = 42\n")
    return fw


@pytest.fixture
def libcache(tmp_path, monkeypatch):
    d = tmp_path / "libs"
    d.mkdir()
    (d / "ssd1306.py").write_text("class SSD1306_I2C:\n    def __init__(self, w, h, i2c):\n        self.width = w\n")
    monkeypatch.setenv("BGC_LIB_DIR", str(d))
    return d


@pytest.fixture
def pico(tmp_path):
    with VirtualPico(str(tmp_path / "flash")) as p:
        yield p


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def mtimes(root):
    return {
        os.path.relpath(os.path.join(d, f), root): os.stat(os.path.join(d, f)).st_mtime_ns
        for d, _, files in os.walk(root)
        for f in files
    }


def test_deploy_twice_copies_nothing_the_second_time(pico, firmware, libcache, capsys):
    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline")
    assert status == 0, err
    assert "3 copied" in out and "ssd1306 installed from the cached copy" in out
    assert "100%" in err  # the progress bar
    flash = pico.flash_dir
    for name in ("main.py", "pkg/__init__.mpy", "pkg/mod.mpy", "lib/ssd1306.mpy", ".bgc-manifest.json"):
        assert os.path.isfile(os.path.join(flash, name)), name
    with open(os.path.join(flash, "pkg/mod.mpy"), "rb") as f:
        assert f.read(2) == b"M\x06"
    before = mtimes(flash)

    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline")
    assert status == 0, err
    assert "0 copied (0 bytes), 3 unchanged, 0 removed" in out
    assert "ssd1306 already installed" in out
    assert mtimes(flash) == before

    # The soft reset at the end ran the deployed main.py, which imports the compiled module, and
    # deploy saw it report its status.
    assert "soft reset: main.py is running (the companion reports phase 'setup')" in out
    r = subprocess.run([sys.executable, "-m", "mpremote", "connect", pico.port, "exec",
                        "import pkg.mod; print(pkg.mod.VALUE, pkg.mod.__file__)"], capture_output=True, timeout=30)
    assert r.stdout.split() == [b"42", b"pkg/mod.mpy"]


def test_deploy_reports_a_main_py_that_crashes_after_the_reset(pico, firmware, libcache, capsys):
    # Issue 11 item 5: deploy said "main.py is running" while main.py had stopped at an import.
    (firmware / "main.py").write_text("from machine import Pin\n" + MAIN)
    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline")
    assert status == 2
    assert "main.py is running" not in out
    message = err[err.index("bgc: "):].strip().splitlines()  # after the progress bar
    assert message[0] == ("bgc: the firmware is on the Pico, but main.py stopped after the reset: "
                          "ImportError: can't import name Pin")
    assert message[1].startswith("hint: `mpremote connect %s repl` shows the whole traceback" % pico.port)
    assert len(message) == 2


def test_deploy_reports_a_main_py_that_never_reports_its_status(pico, firmware, libcache, monkeypatch, capsys):
    from bgc.commands import deploy

    monkeypatch.setattr(deploy, "BOOT_TIMEOUT", 2.0)
    (firmware / "main.py").write_text("import time\nwhile True:\n    time.sleep_ms(50)\n")
    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline")
    assert status == 2
    assert "main.py is running" not in out
    assert "main.py did not report the companion's status within 2 s after the reset" in err and "hint:" in err


def test_deploy_copies_only_the_changed_file_and_removes_stale_ones(pico, firmware, libcache, capsys):
    assert bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline")[0] == 0
    (firmware / "pkg" / "mod.py").write_text("VALUE = 43\n")
    (firmware / "pkg" / "__init__.py").unlink()
    before = mtimes(pico.flash_dir)
    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline", "--no-reset")
    assert status == 0, err
    assert "1 copied" in out and "1 unchanged, 1 removed" in out
    after = mtimes(pico.flash_dir)
    assert "pkg/__init__.mpy" not in after
    assert after["main.py"] == before["main.py"]
    assert after["pkg/mod.mpy"] != before["pkg/mod.mpy"]


def test_deploy_source_mode_replaces_mpy_with_py(pico, firmware, libcache, capsys):
    assert bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline")[0] == 0
    status, out, _ = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline", "--source")
    assert status == 0
    files = mtimes(pico.flash_dir)
    assert "pkg/mod.py" in files and "pkg/mod.mpy" not in files


def test_deploy_without_the_ssd1306_driver_says_how_to_get_it(pico, firmware, monkeypatch, capsys):
    from bgc.pico import libs

    def offline():
        raise libs.LibraryError("cannot download micropython-ssd1306 0.3 (no network)")

    monkeypatch.setattr(libs, "ssd1306_path", offline)
    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware), "--offline")
    assert status == 2
    assert "3 copied" in out
    assert "ssd1306 display driver could not be installed" in err and "hint:" in err


class FakePort:
    def __init__(self, device, vid=0x2E8A, pid=0x0005, serial_number="E6614104032B5E2C"):
        self.device, self.vid, self.pid = device, vid, pid
        self.serial_number, self.description = serial_number, "Board in FS mode"


def test_devices_without_a_pico_says_so(monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [FakePort("/dev/ttyUSB0", vid=0x0403, pid=0x6001)])
    status, out, err = bgc(capsys, "devices")
    assert status == 2
    assert "no Raspberry Pi Pico running MicroPython is plugged in" in err
    assert "hint:" in err and "bgc vpico" in err


def test_devices_lists_a_pico_with_its_firmware(pico, monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [FakePort(pico.port)])
    status, out, err = bgc(capsys, "devices")
    assert status == 0, err
    header, row = out.splitlines()
    assert row.split()[:2] == [pico.port, "E6614104032B5E2C"]
    assert "MicroPython 1.27.0, Raspberry Pi Pico with RP2040" in row


def test_deploy_finds_the_only_pico_by_itself(pico, firmware, libcache, monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [FakePort(pico.port)])
    status, out, err = bgc(capsys, "deploy", "--firmware", str(firmware), "--offline", "--no-reset")
    assert status == 0, err
    assert "Pico on %s" % pico.port in out


def test_deploy_with_two_picos_asks_which(firmware, monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [FakePort("/dev/ttyACM1"), FakePort("/dev/ttyACM0")])
    status, _, err = bgc(capsys, "deploy", "--firmware", str(firmware))
    assert status == 2 and "2 Picos are plugged in (/dev/ttyACM0, /dev/ttyACM1)" in err and "--port" in err


def test_missing_port(firmware, capsys):
    status, _, err = bgc(capsys, "deploy", "--port", "/dev/ttyACM-nonexistent", "--firmware", str(firmware))
    assert status == 2
    assert "port /dev/ttyACM-nonexistent does not exist" in err and "bgc devices" in err


def test_busy_port(pico, firmware, capsys):
    with serial.Serial(pico.port, exclusive=True):
        status, _, err = bgc(capsys, "deploy", "--port", pico.port, "--firmware", str(firmware))
    assert status == 2
    assert "is busy: another program has it open" in err and "hint:" in err


def test_permission_denied_names_the_group(firmware, monkeypatch, capsys):
    master, slave = pty.openpty()
    path = os.ttyname(slave)
    try:
        def refuse(*args, **kwargs):
            raise serial.SerialException(errno.EACCES, "could not open port %s: [Errno 13] Permission denied" % path)

        monkeypatch.setattr(serial.Serial, "open", refuse)
        status, _, err = bgc(capsys, "deploy", "--port", path, "--firmware", str(firmware))
    finally:
        os.close(master)
        os.close(slave)
    assert status == 2
    assert "permission denied on %s" % path in err
    assert "usermod -aG" in err and "log out" in err


def test_a_device_that_is_not_micropython(firmware, monkeypatch, capsys):
    # Something that talks on the port but never gives a raw REPL (say, an Arduino sketch).
    master, slave = pty.openpty()
    path = os.ttyname(slave)
    stop = threading.Event()

    def chatter():
        while not stop.is_set():
            try:
                os.write(master, b"temperature=21.5\r\n")
            except OSError:
                return
            time.sleep(0.05)

    t = threading.Thread(target=chatter, daemon=True)
    t.start()
    monkeypatch.setattr(device, "HANDSHAKE_TIMEOUT", 1.0)
    try:
        started = time.monotonic()
        status, _, err = bgc(capsys, "deploy", "--port", path, "--firmware", str(firmware))
        assert time.monotonic() - started < 10
    finally:
        stop.set()
        t.join(2)
        os.close(master)
        os.close(slave)
    assert status == 2
    assert "does not answer as MicroPython" in err and "hint:" in err
