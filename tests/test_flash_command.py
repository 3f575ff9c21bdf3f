"""bgc flash against a fake BOOTSEL drive (a folder holding the RP2040 boot ROM's INFO_UF2.TXT), a
virtual Pico for the wait after the copy, and the errors a user meets: no drive, a Pico 2's drive,
a file that is not a UF2 image or not the RP2040's, a damaged download, a copy that fails.

The UF2 images here are written from the format's specification (github.com/microsoft/uf2: 512-byte
blocks, magics 0x0A324655 0x9E5D5157 ... 0x0AB16F30, flag 0x2000 = family ID present, RP2040
family 0xE48BFF56), not with bgc's reader."""

import hashlib
import os
import struct

import pytest

from bgc import cli
from bgc.pico import device
from bgc.commands import flash
from bgc.pico.vpico import VirtualPico

# INFO_UF2.TXT as the RP2040's boot ROM (B1/B2) serves it on the RPI-RP2 drive.
INFO_RP2040 = "UF2 Bootloader v3.0\r\nModel: Raspberry Pi RP2\r\nBoard-ID: RPI-RP2\r\n"
INFO_RP2350 = "UF2 Bootloader v1.0\r\nModel: Raspberry Pi RP2350\r\nBoard-ID: RP2350\r\n"
RP2040, RP2350_ARM = 0xE48BFF56, 0xE48BFF59


def uf2(payload, family=RP2040, base=0x10000000):
    blocks = [payload[k:k + 256] for k in range(0, len(payload), 256)]
    out = b""
    for n, data in enumerate(blocks):
        head = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, base + 256 * n, 256, n, len(blocks), family)
        out += head + data.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30)
    return out


@pytest.fixture
def image(tmp_path):
    path = tmp_path / "bgcompanion-9.9.9.uf2"
    path.write_bytes(uf2(bytes(range(256)) * 12))
    return path


def fake_drive(where, info=INFO_RP2040):
    where.mkdir()
    (where / "INFO_UF2.TXT").write_text(info)
    (where / "INDEX.HTM").write_text("<html>redirect to raspberrypi.com</html>")
    return where


@pytest.fixture
def no_board(monkeypatch):
    """No Pico on a serial port and no picotool: only drives count."""
    monkeypatch.setattr(device, "find_picos", lambda: [])
    monkeypatch.setattr(flash.shutil, "which", lambda name: None)


def bgc(capsys, *args):
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def one_error(err):
    lines = err.strip().splitlines()
    assert lines[0].startswith("bgc: ") and len(lines) == 2 and lines[1].startswith("hint: "), err
    return lines[0]


def test_the_image_lands_on_the_drive_given(tmp_path, image, capsys, no_board):
    drive = fake_drive(tmp_path / "RPI-RP2")
    status, out, err = bgc(capsys, "flash", image, "--drive", drive, "--no-wait")
    assert status == 0, err
    assert (drive / image.name).read_bytes() == image.read_bytes()
    assert "calibration, settings and journals are kept" in out


def test_the_bootsel_drive_is_found_by_its_info_file(tmp_path, image, capsys, no_board, monkeypatch):
    usb_stick = tmp_path / "STICK"
    usb_stick.mkdir()
    (usb_stick / "notes.txt").write_text("Board-ID: RPI-RP2 (a file that is not INFO_UF2.TXT)")
    pico2 = fake_drive(tmp_path / "RP2350", INFO_RP2350)
    drive = fake_drive(tmp_path / "RPI-RP2")
    monkeypatch.setattr(flash, "mount_points", lambda: [str(usb_stick), str(pico2), str(drive), "/nonexistent"])
    status, out, err = bgc(capsys, "flash", image, "--no-wait")
    assert status == 0, err
    assert (drive / image.name).read_bytes() == image.read_bytes()
    assert not (usb_stick / image.name).exists() and not (pico2 / image.name).exists()
    assert str(drive) in out


def test_real_micropython_image_is_accepted(tmp_path, capsys, no_board):
    real = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools", "rp2emu", "firmware.uf2")
    if not os.path.isfile(real):
        pytest.skip("no MicroPython RPI_PICO .uf2 in ../shared/tools/rp2emu")
    drive = fake_drive(tmp_path / "RPI-RP2")
    status, _, err = bgc(capsys, "flash", real, "--drive", drive, "--no-wait")
    assert status == 0, err
    with open(real, "rb") as f:
        assert (drive / "firmware.uf2").read_bytes() == f.read()


def test_no_bootsel_drive_is_one_line(capsys, image, no_board, monkeypatch):
    monkeypatch.setattr(flash, "mount_points", lambda: [])
    status, _, err = bgc(capsys, "flash", image, "--no-wait")
    assert status == 2
    assert one_error(err).startswith("bgc: no Pico in BOOTSEL mode found")
    assert "BOOTSEL button" in err


def test_a_folder_without_info_file_is_not_a_drive(tmp_path, image, capsys, no_board):
    status, _, err = bgc(capsys, "flash", image, "--drive", tmp_path, "--no-wait")
    assert status == 2
    assert "is not a Pico in BOOTSEL mode (no INFO_UF2.TXT there)" in one_error(err)


def test_a_pico_2_drive_is_refused(tmp_path, image, capsys, no_board, monkeypatch):
    pico2 = fake_drive(tmp_path / "RP2350", INFO_RP2350)
    monkeypatch.setattr(flash, "mount_points", lambda: [str(pico2)])
    status, _, err = bgc(capsys, "flash", image, "--no-wait")
    assert status == 2
    assert "Board-ID 'RP2350'" in one_error(err)
    assert set(os.listdir(pico2)) == {"INFO_UF2.TXT", "INDEX.HTM"}


@pytest.mark.parametrize("content, says", [
    (b"MicroPython v1.27.0 firmware.bin\n" * 40, "is not a UF2 image"),
    (b"", "is not a UF2 image"),
    (uf2(b"\0" * 512, family=RP2350_ARM), "is a UF2 image for another chip"),
    (uf2(b"\0" * 512, base=0x10100000), "does not start at the beginning of the Pico's flash"),
])
def test_a_wrong_image_is_refused_before_anything_is_written(tmp_path, capsys, no_board, content, says):
    drive = fake_drive(tmp_path / "RPI-RP2")
    bad = tmp_path / "bad.uf2"
    bad.write_bytes(content)
    status, _, err = bgc(capsys, "flash", bad, "--drive", drive, "--no-wait")
    assert status == 2
    assert says in one_error(err)
    assert not (drive / "bad.uf2").exists()


def test_a_damaged_download_is_refused_by_its_checksum(tmp_path, image, capsys, no_board):
    drive = fake_drive(tmp_path / "RPI-RP2")
    good = hashlib.sha256(image.read_bytes()).hexdigest()
    (tmp_path / (image.name + ".sha256")).write_text("%s  %s\n" % (good, image.name))
    assert bgc(capsys, "flash", image, "--drive", drive, "--no-wait")[0] == 0
    data = bytearray(image.read_bytes())
    data[600] ^= 1
    image.write_bytes(bytes(data))
    status, _, err = bgc(capsys, "flash", image, "--drive", drive, "--no-wait")
    assert status == 2
    assert "does not match its checksum file" in one_error(err)


def test_a_failed_copy_is_one_line(tmp_path, image, capsys, no_board):
    drive = fake_drive(tmp_path / "RPI-RP2")
    (drive / image.name).mkdir()  # the name is taken by a folder: the write fails
    status, _, err = bgc(capsys, "flash", image, "--drive", drive, "--no-wait")
    assert status == 2
    assert one_error(err).startswith("bgc: copying the image onto %s failed" % drive)


def test_missing_image_is_one_line(tmp_path, capsys, no_board):
    status, _, err = bgc(capsys, "flash", tmp_path / "nope.uf2", "--no-wait")
    assert status == 2
    assert "cannot read the image" in one_error(err)


# A stand-in for the companion after the restart: silent until asked for its status (the boot
# status may go out before the host opens the port), then it answers as docs/protocol.md says.
ANSWERS_STATUS = """\
import sys, json
while True:
    line = sys.stdin.readline()
    if "status" in line:
        print(json.dumps({"ev": "status", "phase": "setup"}))
"""


def test_after_the_copy_it_waits_for_the_companion(tmp_path, image, capsys, monkeypatch):
    monkeypatch.setattr(flash.shutil, "which", lambda name: None)
    drive = fake_drive(tmp_path / "RPI-RP2")
    fs = tmp_path / "flash"
    fs.mkdir()
    (fs / "main.py").write_text(ANSWERS_STATUS)
    with VirtualPico(str(fs)) as pico:
        status, out, err = bgc(capsys, "flash", image, "--drive", drive, "--port", pico.port)
    assert status == 0, err
    assert "the companion is running on %s (phase 'setup')" % pico.port in out


def test_a_board_that_never_answers_is_one_line(tmp_path, image, capsys, monkeypatch):
    monkeypatch.setattr(flash.shutil, "which", lambda name: None)
    monkeypatch.setattr(flash, "PORT_TIMEOUT", 3.0)
    drive = fake_drive(tmp_path / "RPI-RP2")
    fs = tmp_path / "flash"
    fs.mkdir()
    (fs / "main.py").write_text("import time\nwhile True:\n    time.sleep_ms(50)\n")
    with VirtualPico(str(fs)) as pico:
        status, _, err = bgc(capsys, "flash", image, "--drive", drive, "--port", pico.port)
    assert status == 2
    assert "did not report its status" in one_error(err)


def test_modules_an_earlier_deploy_left_are_removed_and_the_calibration_kept(tmp_path, image, capsys, monkeypatch):
    # bgc deploy copies the firmware into / and lists it in /.bgc-manifest.json; MicroPython finds
    # modules in / before the frozen ones, so they would run instead of the image's.
    import json

    monkeypatch.setattr(flash.shutil, "which", lambda name: None)
    drive = fake_drive(tmp_path / "RPI-RP2")
    fs = tmp_path / "flash"
    (fs / "bgrules" / "variants").mkdir(parents=True)
    (fs / "journal").mkdir()
    (fs / "main.py").write_text(ANSWERS_STATUS)
    (fs / "bgrules" / "__init__.mpy").write_bytes(b"M\x06old")
    (fs / "bgrules" / "variants" / "eureka.mpy").write_bytes(b"M\x06old")
    (fs / "calib.bin").write_bytes(b"BGC1 calibration")
    (fs / "journal" / "0001.jnl").write_text('{"a": "new"}\n')
    (fs / ".bgc-manifest.json").write_text(json.dumps({"format": 1, "mpy": 6, "files": {
        "/bgrules/__init__.mpy": "x", "/bgrules/variants/eureka.mpy": "y"}}))
    with VirtualPico(str(fs)) as pico:
        status, out, err = bgc(capsys, "flash", image, "--drive", drive, "--port", pico.port)
    assert status == 0, err
    assert "removed the 2 files an earlier `bgc deploy` put on the Pico" in out
    assert "the companion is running" in out
    assert sorted(os.listdir(fs)) == ["calib.bin", "journal", "main.py"]
    assert (fs / "calib.bin").read_bytes() == b"BGC1 calibration"
    assert (fs / "journal" / "0001.jnl").read_text() == '{"a": "new"}\n'


def test_a_pico_running_micropython_is_asked_into_bootsel_mode(tmp_path, image, capsys, monkeypatch):
    # No drive mounted, but a Pico on a serial port: bgc asks it for machine.bootloader() and
    # waits for its drive, which the OS mounts a moment later.
    import threading

    monkeypatch.setattr(flash.shutil, "which", lambda name: None)
    where = tmp_path / "media"
    where.mkdir()
    monkeypatch.setattr(flash, "mount_points", lambda: [str(p) for p in where.iterdir()])
    fs = tmp_path / "flash"
    fs.mkdir()
    (fs / "main.py").write_text(ANSWERS_STATUS)
    with VirtualPico(str(fs)) as pico:
        monkeypatch.setattr(device, "find_picos", lambda: [device.PicoPort(pico.port)])
        boots = pico.boot_count
        done = threading.Event()

        def restart_shows_the_drive():  # as a real Pico's drive appears once it restarted into BOOTSEL
            while not done.wait(0.05):
                if pico.boot_count > boots:
                    fake_drive(where / "RPI-RP2")
                    return

        watcher = threading.Thread(target=restart_shows_the_drive)
        watcher.start()
        try:
            status, out, err = bgc(capsys, "flash", image)
        finally:
            done.set()
            watcher.join()
    assert status == 0, err
    assert "asked the Pico on %s to restart in BOOTSEL mode" % pico.port in out
    assert (where / "RPI-RP2" / image.name).read_bytes() == image.read_bytes()
    assert "the companion is running" in out


@pytest.mark.parametrize("answer, rc", [("", 0), ("No accessible RP-series devices in BOOTSEL mode were found.", 1)])
def test_without_a_drive_picotool_writes_the_image(tmp_path, image, capsys, monkeypatch, answer, rc):
    # A stand-in picotool on PATH that records its arguments and answers as picotool 2.1 does.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    args_file = tmp_path / "args"
    fake = bin_dir / "picotool"
    fake.write_text("#!/bin/sh\necho \"$@\" > %s\n[ -z '%s' ] || echo '%s' >&2\nexit %d\n" % (args_file, answer, answer, rc))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", "%s:%s" % (bin_dir, os.environ["PATH"]))
    monkeypatch.setattr(device, "find_picos", lambda: [])
    monkeypatch.setattr(flash, "mount_points", lambda: [])
    status, out, err = bgc(capsys, "flash", image, "--no-wait")
    assert args_file.read_text().split() == ["load", "-x", str(image)]
    if rc == 0:
        assert status == 0, err
        assert "writing bgcompanion-9.9.9.uf2 with picotool" in out
    else:
        assert status == 2
        assert one_error(err) == "bgc: picotool could not write the image: " + answer


def test_without_an_image_it_takes_the_newest_built_one_or_says_how_to_build(tmp_path, capsys, no_board, monkeypatch):
    import bgc as package

    drive = fake_drive(tmp_path / "RPI-RP2")
    monkeypatch.setattr(package, "CHECKOUT", str(tmp_path))
    status, _, err = bgc(capsys, "flash", "--drive", drive, "--no-wait")
    assert status == 2
    assert one_error(err).startswith("bgc: no firmware image given and none built in this checkout")
    assert "scripts/build/build_image.sh" in err
    (tmp_path / "build" / "image").mkdir(parents=True)
    (tmp_path / "build" / "image" / "bgcompanion-0.0.9.uf2").write_bytes(uf2(b"old" * 100))
    newest = tmp_path / "build" / "image" / "bgcompanion-0.1.0.uf2"
    newest.write_bytes(uf2(b"new" * 100))
    os.utime(newest, (2e9, 2e9))
    status, out, err = bgc(capsys, "flash", "--drive", drive, "--no-wait")
    assert status == 0, err
    assert (drive / "bgcompanion-0.1.0.uf2").read_bytes() == newest.read_bytes()
    assert not (drive / "bgcompanion-0.0.9.uf2").exists()
