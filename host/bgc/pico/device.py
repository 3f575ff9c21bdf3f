"""Finding the Pico and talking to it, through mpremote's own serial transport.

Every failure a user can meet here becomes a bgc.cli.UserError whose message says what happened
and what to do about it: no board plugged in, several boards, a port that does not exist, a port
another program holds, no permission on the port (the dialout group), a device that does not
answer as MicroPython.
"""

import contextlib
import errno
import grp
import io
import os
import sys
import threading

import serial
import serial.tools.list_ports

from ..errors import UserError

PICO_VID, PICO_PID = 0x2E8A, 0x0005  # Raspberry Pi, MicroPython's USB CDC on the RP2040
HANDSHAKE_TIMEOUT = 5.0

NO_BOARD_HINT = (
    "hint: plug the Pico in with a USB data cable (some cables only charge). If it shows up as a "
    "USB drive named RPI-RP2 instead, it has no MicroPython yet: copy the RPI_PICO .uf2 from "
    "https://micropython.org/download/RPI_PICO/ onto that drive. Without hardware, run "
    "`bgc vpico --board` and pass the port it prints with --port."
)


class PicoPort:
    """A serial port that looks like a Pico running MicroPython."""

    def __init__(self, device, serial_number=None, description=None):
        self.device = device
        self.serial_number = serial_number
        self.description = description

    def __repr__(self):
        return "PicoPort(%r, %r)" % (self.device, self.serial_number)


def find_picos():
    """The plugged-in Picos that enumerate as MicroPython (USB 2E8A:0005), sorted by port."""
    found = []
    for p in serial.tools.list_ports.comports():
        if p.vid == PICO_VID and p.pid == PICO_PID:
            found.append(PicoPort(p.device, p.serial_number, p.description))
    return sorted(found, key=lambda p: p.device)


def choose_port(port=None):
    """The port to use: the one given, else the only Pico plugged in."""
    if port:
        return port
    picos = find_picos()
    if not picos:
        raise UserError("no Raspberry Pi Pico running MicroPython is plugged in (looked for USB "
                        "2E8A:0005)\n" + NO_BOARD_HINT)
    if len(picos) > 1:
        names = ", ".join(p.device for p in picos)
        raise UserError("%d Picos are plugged in (%s); say which one with --port\n"
                        "hint: `bgc devices` lists them with their serial numbers" % (len(picos), names))
    return picos[0].device


def _group_of(path):
    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (OSError, KeyError):
        return "dialout"


def explain_open_error(port, exc):
    """A UserError for a port that would not open, from the OSError pyserial raised."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    if os.path.islink(port) and not os.path.exists(port):
        return UserError("port %s is a link to %s, which is gone: the virtual Pico behind it has stopped\n"
                         "hint: start it again (`bgc vpico --board --link %s`), or give the port of a Pico"
                         % (port, os.readlink(port), port))
    if code == errno.ENOENT or (code is None and "No such file" in text) or not os.path.exists(port):
        return UserError("port %s does not exist (is the Pico plugged in?)\n"
                         "hint: `bgc devices` lists the Picos that are plugged in" % port)
    if code in (errno.EACCES, errno.EPERM) or "Permission denied" in text:
        group = _group_of(port)
        return UserError(
            "permission denied on %s\nhint: your user is not in the '%s' group that owns the port: "
            "run `sudo usermod -aG %s $USER`, then log out and back in (or run `newgrp %s`)"
            % (port, group, group, group)
        )
    if code in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY) or "lock" in text.lower():
        return UserError(
            "port %s is busy: another program has it open\nhint: close Thonny, mpremote, screen, "
            "minicom or a running `bgc watch` on that port, then try again" % port
        )
    if code == errno.ENOTTY or "Inappropriate ioctl" in text:
        return UserError("%s is not a serial port\nhint: give the Pico's port (e.g. /dev/ttyACM0); `bgc devices` "
                         "lists the Picos that are plugged in" % port)
    return UserError("cannot open %s: %s\nhint: `bgc devices` lists the Picos that are plugged in" % (port, text))


def _diagnose_open(port):
    # mpremote turns every open failure into "failed to access"; open it ourselves for the reason.
    try:
        s = serial.Serial(port, 115200, exclusive=True)
    except (OSError, serial.SerialException) as exc:
        return explain_open_error(port, exc)
    s.close()
    return UserError("cannot open %s (it may be in use by another program)" % port)


def not_micropython(port, detail=""):
    return UserError(
        "the device on %s does not answer as MicroPython (no raw REPL)%s\nhint: check that it is a "
        "Pico running MicroPython (`mpremote connect %s repl` should show a >>> prompt after "
        "Ctrl-C); if the firmware disabled Ctrl-C, hold BOOTSEL while plugging it in and "
        "reinstall MicroPython" % (port, detail, port)
    )


@contextlib.contextmanager
def connect(port=None, soft_reset=False, timeout=None):
    """Open the Pico on ``port`` (default: the only one plugged in) in raw REPL mode.

    Yields mpremote's SerialTransport. ``soft_reset`` starts from a fresh interpreter (boot.py
    runs, main.py does not). The caller's code runs with the port held exclusively; on exit the
    Pico is returned to its friendly REPL and the port closed.
    """
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    timeout = HANDSHAKE_TIMEOUT if timeout is None else timeout
    port = choose_port(port)
    if not os.path.exists(port):
        raise explain_open_error(port, OSError(errno.ENOENT, "No such file or directory"))
    try:
        transport = SerialTransport(port, baudrate=115200)
    except TransportError:
        raise _diagnose_open(port) from None
    try:
        # A pty read blocks in mpremote (timeout None); bound the handshake so a silent device
        # fails in seconds rather than hanging.
        transport.serial.timeout = min(1.0, timeout)
        # mpremote's own overall timeout only counts silence: a device that keeps talking (a
        # sketch printing sensor values) would hold it forever. Closing the port ends the wait.
        watchdog = threading.Timer(timeout * (3 if soft_reset else 1) + 1.0, transport.serial.close)
        watchdog.daemon = True
        watchdog.start()
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got
                transport.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
        except Exception as exc:  # TransportError, or whatever a port closed under it raises
            raise not_micropython(port) from exc
        finally:
            watchdog.cancel()
        if not transport.serial.is_open:
            raise not_micropython(port)
        transport.serial.timeout = None
        yield transport
    finally:
        try:
            if transport.in_raw_repl and transport.serial.is_open:
                transport.exit_raw_repl()
        except (OSError, serial.SerialException):
            pass
        try:
            transport.close()
        except Exception:  # a port the watchdog closed fails in pyserial with TypeError
            pass


def restart_firmware(transport):
    """Soft-reset from the friendly REPL so that main.py runs again: taking the raw REPL stopped
    the program the Pico was running (the companion), and a board left at its REPL plays no more.
    False when that could not be done (the port went away)."""
    try:
        transport.exit_raw_repl()
        transport.serial.write(b"\x04")
    except Exception:  # mpremote's TransportError, a closed port (OSError, SerialException)
        return False
    return True


def device_info(transport):
    """What the Pico says about itself: implementation, version, mpy ABI, board, serial number."""
    from mpremote.transport import TransportError

    code = (
        "import sys\n"
        "try:\n import machine, binascii\n uid = binascii.hexlify(machine.unique_id()).decode()\n"
        "except Exception:\n uid = None\n"
        "impl = sys.implementation\n"
        "print(repr((impl.name, tuple(impl.version[:3]), getattr(impl, '_mpy', 0), "
        "getattr(impl, '_machine', ''), sys.platform, uid)))\n"
    )
    try:
        name, version, mpy, machine, platform, uid = _eval_tuple(transport, code)
    except (TransportError, ValueError, SyntaxError) as exc:
        raise UserError("the Pico answered but could not report its version: %s" % exc) from None
    return {
        "name": name,
        "version": tuple(version),
        "version_str": ".".join(str(v) for v in version),
        "mpy": mpy,
        "mpy_version": mpy & 0xFF,
        "machine": machine,
        "platform": platform,
        "unique_id": uid,
    }


def _eval_tuple(transport, code):
    import ast

    out = transport.exec(code)
    return ast.literal_eval(out.decode("utf-8").strip())


def progress(done, total, label, stream=None):
    """One progress bar line on stderr (redrawn in place on a terminal, one line per step otherwise)."""
    stream = stream or sys.stderr
    width = 24
    frac = 1.0 if total <= 0 else min(1.0, done / total)
    fill = int(frac * width)
    line = "[%s%s] %3d%% %s" % ("#" * fill, "-" * (width - fill), int(frac * 100), label)
    if stream.isatty():
        stream.write("\r\x1b[K" + line)
        if done >= total:
            stream.write("\n")
    else:
        stream.write(line + "\n")
    stream.flush()
