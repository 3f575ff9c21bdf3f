"""bgc flash: write the bgcompanion firmware image (one .uf2) onto a Pico in BOOTSEL mode.

A Pico started with its BOOTSEL button held shows up as a USB drive named RPI-RP2 whose root holds
INFO_UF2.TXT (``Board-ID: RPI-RP2``); copying a .uf2 onto it writes the blocks the file carries into
flash and restarts the board. The image carries only the firmware's part of the flash, so the
filesystem after it (calibration, settings, match journals) stays as it was.

Steps: check the image (a UF2 for the RP2040, its .sha256 when one lies beside it); find the drive
(``--drive``, else the mounted drives whose INFO_UF2.TXT names an RP2040 bootloader; when none is
mounted and a Pico runs MicroPython on a serial port, ask it to restart into BOOTSEL mode and wait
for its drive; when no drive can be found and picotool is installed, load the image with it); copy;
wait for the board's serial port to come back and ask the companion for its status.
"""

import glob
import hashlib
import json
import os
import shutil
import string
import struct
import subprocess
import time

from ..errors import UserError

UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)  # first, second and final magic of every block
UF2_FAMILY_FLAG = 0x2000
RP2040_FAMILY = 0xE48BFF56
RP2040_BOARD_ID = "RPI-RP2"  # INFO_UF2.TXT of the RP2040's boot ROM; a Pico 2 (RP2350) says RP2350
DRIVE_TIMEOUT = 15.0  # seconds for the drive to appear after asking MicroPython for the bootloader
PORT_TIMEOUT = 30.0  # seconds for the serial port to come back and the companion to answer
FLASH_HINT = ("hint: unplug the Pico, hold its BOOTSEL button while plugging it back in, and run "
              "`bgc flash` again (or drag the .uf2 onto the RPI-RP2 drive yourself)")


def register(subparsers):
    p = subparsers.add_parser(
        "flash",
        help="write the firmware image (.uf2) onto a Pico in BOOTSEL mode",
        description="Copy the bgcompanion firmware image onto the Pico's RPI-RP2 drive (BOOTSEL mode), "
        "then wait until the board is back on its serial port and the companion answers. Calibration, "
        "settings and journals on the Pico's filesystem are kept.",
    )
    p.add_argument("image", nargs="?", metavar="IMAGE",
                   help="the .uf2 to write (default: the newest bgcompanion-*.uf2 in build/image/, "
                   "where scripts/build/build_image.sh writes it)")
    p.add_argument("--drive", metavar="DIR", help="the mounted RPI-RP2 drive (default: found by its INFO_UF2.TXT)")
    p.add_argument("--port", help="serial port of a Pico running MicroPython to restart into BOOTSEL mode, "
                   "and to watch after the copy (default: the only Pico plugged in)")
    p.add_argument("--no-wait", action="store_true", help="do not wait for the board to come back after the copy")
    p.set_defaults(func=run)


# ---------------------------------------------------------------- the image

def default_image():
    """The newest bgcompanion-*.uf2 that scripts/build/build_image.sh wrote in this checkout."""
    from .. import CHECKOUT

    found = glob.glob(os.path.join(CHECKOUT, "build", "image", "bgcompanion-*.uf2")) if CHECKOUT else []
    if not found:
        raise UserError("no firmware image given and none built in this checkout\nhint: `bgc flash "
                        "bgcompanion-VERSION.uf2`, or build one with `sh scripts/build/build_image.sh MICROPYTHON_DIR` "
                        "(docs/user-guide-deploy.md)")
    return max(found, key=os.path.getmtime)


def check_image(path):
    """The image's bytes, after checking it is a UF2 for the RP2040 and matches its .sha256 file."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise UserError("cannot read the image %s: it is not a regular file\nhint: give the path of a "
                        "bgcompanion-*.uf2" % path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise UserError("cannot read the image %s: %s\nhint: give the path of a bgcompanion-*.uf2"
                        % (path, exc.strerror or exc))
    if not data or len(data) % 512:
        raise UserError("%s is not a UF2 image (its size, %d bytes, is not a whole number of 512-byte "
                        "blocks)\nhint: give the bgcompanion-*.uf2 that scripts/build/build_image.sh writes" % (path, len(data)))
    addresses = []
    for k in range(0, len(data), 512):
        m0, m1, flags, addr, size, _n, _total, family = struct.unpack_from("<8I", data, k)
        (m_end,) = struct.unpack_from("<I", data, k + 508)
        if (m0, m1, m_end) != UF2_MAGIC or size > 476:
            raise UserError("%s is not a UF2 image (block %d has no UF2 magic)\nhint: give the "
                            "bgcompanion-*.uf2 that scripts/build/build_image.sh writes" % (path, k // 512))
        if flags & UF2_FAMILY_FLAG and family != RP2040_FAMILY:
            raise UserError("%s is a UF2 image for another chip (family 0x%08x, the Pico's RP2040 is "
                            "0x%08x)\nhint: the bgcompanion image is built for the RPI_PICO board" % (path, family, RP2040_FAMILY))
        addresses.append(addr)
    if min(addresses) != 0x10000000:
        raise UserError("%s does not start at the beginning of the Pico's flash (0x%08x)\nhint: give the "
                        "bgcompanion-*.uf2 that scripts/build/build_image.sh writes" % (path, min(addresses)))
    sha_file = path + ".sha256"
    if os.path.isfile(sha_file):
        with open(sha_file) as f:
            words = f.read().split()
        digest = hashlib.sha256(data).hexdigest()
        if not words or words[0].lower() != digest:
            raise UserError("%s does not match its checksum file %s (the download or copy is damaged)\n"
                            "hint: download or build the image again" % (path, os.path.basename(sha_file)))
    return data


# ---------------------------------------------------------------- the BOOTSEL drive

def mount_points():
    """Where removable drives may be mounted: the mount table (Linux), /Volumes (macOS), drive letters
    (Windows), and the usual automount folders."""
    found = []
    try:
        with open("/proc/mounts") as f:
            for line in f:
                fields = line.split()
                if len(fields) > 1:
                    found.append(fields[1].replace("\\040", " "))
    except OSError:
        pass
    for pattern in ("/Volumes/*", "/media/*", "/media/*/*", "/run/media/*/*"):
        found.extend(glob.glob(pattern))
    if os.name == "nt":
        found.extend("%s:\\" % letter for letter in string.ascii_uppercase)
    seen = []
    for p in found:
        if p not in seen:
            seen.append(p)
    return seen


def board_id(drive):
    """The Board-ID of the UF2 bootloader behind ``drive`` (from its INFO_UF2.TXT), None if none."""
    try:
        with open(os.path.join(drive, "INFO_UF2.TXT"), errors="replace") as f:
            text = f.read(4096)
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "board-id":
            return value.strip()
    return ""


def find_drives():
    """The mounted UF2 bootloader drives: [(mount point, Board-ID)]."""
    drives = []
    for p in mount_points():
        ident = board_id(p)
        if ident is not None:
            drives.append((p, ident))
    return drives


def choose_drive(drives):
    picos = [d for d, ident in drives if ident == RP2040_BOARD_ID]
    if len(picos) == 1:
        return picos[0]
    if len(picos) > 1:
        raise UserError("%d Picos are in BOOTSEL mode (%s); say which drive with --drive\nhint: or unplug all "
                        "but one" % (len(picos), ", ".join(picos)))
    if drives:
        raise UserError("the UF2 drive at %s is not a Pico's (Board-ID %r; a Pico says %s): the image is for "
                        "the Raspberry Pi Pico (RP2040)\nhint: a Pico 2 (RP2350) needs a build for RPI_PICO2"
                        % (drives[0][0], drives[0][1], RP2040_BOARD_ID))
    return None


def drive_from_arg(drive):
    ident = board_id(drive)
    if ident is None:
        raise UserError("%s is not a Pico in BOOTSEL mode (no INFO_UF2.TXT there)\nhint: --drive takes the "
                        "folder the RPI-RP2 drive is mounted at" % drive)
    if ident != RP2040_BOARD_ID:
        return choose_drive([(drive, ident)])
    return drive


def ask_for_bootloader(port):
    """Restart a Pico running MicroPython into BOOTSEL mode (machine.bootloader()). Returns the port
    asked, or None when no Pico runs MicroPython on a serial port."""
    from ..pico import device

    try:
        port = device.choose_port(port)
    except UserError:
        return None
    with device.connect(port) as transport:
        transport.exec_raw_no_follow("import machine\nmachine.bootloader()")
    print("asked the Pico on %s to restart in BOOTSEL mode" % port)
    return port


def wait_for_drive(timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        drive = choose_drive(find_drives())
        if drive:
            return drive
        time.sleep(0.5)
    return None


def copy_image(data, drive, name):
    """Write the image onto the drive. The boot ROM restarts the board as soon as it has the last
    block, so the drive may vanish while the file is being closed: that is success."""
    target = os.path.join(drive, name)
    written = 0
    try:
        with open(target, "wb") as f:
            for k in range(0, len(data), 64 * 1024):
                written += f.write(data[k:k + 64 * 1024])
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        if written == len(data) and not os.path.isdir(drive):
            return  # the board took the last block and restarted
        raise UserError("copying the image onto %s failed after %d of %d bytes: %s\n%s"
                        % (drive, written, len(data), exc.strerror or exc, FLASH_HINT))


def load_with_picotool(path):
    """picotool load -x: writes the image through the boot ROM's USB interface (no drive needed)."""
    proc = subprocess.run(["picotool", "load", "-x", path], capture_output=True, text=True)
    if proc.returncode:
        text = (proc.stderr or proc.stdout).strip().splitlines()
        raise UserError("picotool could not write the image: %s\n%s" % (text[-1] if text else "exit %d" % proc.returncode,
                                                                       FLASH_HINT))


# ---------------------------------------------------------------- after the copy

class _NotReady(Exception):
    pass


def remove_deployed(port):
    """Remove the modules an earlier `bgc deploy` copied onto the Pico's filesystem (the files its
    /.bgc-manifest.json lists, and the folders they leave empty): MicroPython looks in / before the
    frozen modules, so they would run instead of the image's. Calibration, settings and journals are
    not deploy's files and stay. Ends with a soft reset, so main.py starts again. Returns how many
    files went."""
    from ..pico import device
    from .deploy import MANIFEST, read_manifest

    with device.connect(port) as transport:
        files = sorted(read_manifest(transport))
        if files:
            dirs = set()
            for p in files:
                parts = p.strip("/").split("/")[:-1]
                dirs.update("/" + "/".join(parts[:i]) for i in range(1, len(parts) + 1))
            transport.exec("import os\nfor p in %r:\n try:\n  os.remove(p)\n except OSError:\n  pass\n"
                           "for d in %r:\n try:\n  os.rmdir(d)\n except OSError:\n  pass\n"
                           % (files + [MANIFEST], sorted(dirs, key=lambda d: -d.count("/"))))
        # Ctrl-D at the friendly REPL: a soft reset that runs main.py (from the raw REPL it would not).
        transport.exit_raw_repl()
        transport.serial.write(b"\x04")
    return len(files)


def wait_for_companion(port, timeout=None):
    """Wait for a Pico to come back on a serial port, remove what `bgc deploy` left there, and ask
    the companion for its status: what to tell the user."""
    import serial

    from ..pico import device

    timeout = PORT_TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + timeout
    cleaned = False
    while time.monotonic() < deadline:
        try:
            name = device.choose_port(port)
            if not os.path.exists(name):
                raise UserError(name)
        except UserError:
            time.sleep(0.5)
            continue
        try:
            if not cleaned:
                try:
                    removed = remove_deployed(name)
                except UserError as exc:  # the port is there but MicroPython not yet: try again
                    raise _NotReady(str(exc))
                cleaned = True
                if removed:
                    print("removed the %d files an earlier `bgc deploy` put on the Pico (they would run "
                          "instead of the image's)" % removed)
            with serial.Serial(name, 115200, timeout=0.2) as ser:
                return _ask_status(ser, name, deadline)
        except (OSError, serial.SerialException, _NotReady):
            time.sleep(0.5)  # the port exists but the board is still starting
    raise UserError("the image is written, but no Pico answered on a serial port within %g s\nhint: unplug "
                    "and replug the Pico; `bgc devices` lists it when MicroPython runs" % timeout)


def _ask_status(ser, name, deadline):
    data = b""
    asked = 0.0
    while time.monotonic() < deadline:
        now = time.monotonic()
        if now - asked > 2.0:  # main.py may still be importing: ask again until it answers
            ser.write(b'{"cmd": "status"}\r\n')
            asked = now
        data += ser.read(4096)
        lines = data.split(b"\n")
        data = lines.pop()
        for line in lines:
            line = line.strip()
            if line.startswith(b"Traceback"):
                raise UserError("the image is written, but main.py stopped on %s with an error\nhint: `mpremote "
                                "connect %s repl` shows it" % (name, name))
            if line.startswith(b"{"):
                try:
                    event = json.loads(line.decode("utf-8", "replace"))
                except ValueError:
                    continue
                if isinstance(event, dict) and event.get("ev") == "status":
                    return "the companion is running on %s (phase %r)" % (name, event.get("phase"))
    raise UserError("the image is written and the Pico is on %s, but the companion did not report its status\n"
                    "hint: `mpremote connect %s repl` shows what the board prints" % (name, name))


def run(args):
    path = args.image or default_image()
    data = check_image(path)
    drive = drive_from_arg(args.drive) if args.drive else choose_drive(find_drives())
    port = args.port
    if drive is None and not args.drive:
        asked = ask_for_bootloader(port)
        if asked:
            drive = wait_for_drive(DRIVE_TIMEOUT)
    if drive is None:
        if shutil.which("picotool"):
            print("no RPI-RP2 drive mounted: writing %s with picotool" % os.path.basename(path))
            load_with_picotool(path)
        else:
            raise UserError("no Pico in BOOTSEL mode found (no mounted drive with an INFO_UF2.TXT of an %s "
                            "bootloader)\n%s; if the RPI-RP2 drive shows up but is not mounted, mount it and "
                            "pass --drive" % (RP2040_BOARD_ID, FLASH_HINT))
    else:
        print("writing %s (%d bytes) to the Pico's BOOTSEL drive %s" % (os.path.basename(path), len(data), drive))
        copy_image(data, drive, os.path.basename(path))
    print("written: the Pico restarts with the new firmware (calibration, settings and journals are kept)")
    if args.no_wait:
        return 0
    print(wait_for_companion(port))
    return 0
