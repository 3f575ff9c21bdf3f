"""A virtual Raspberry Pi Pico on a pseudo-terminal, for tests and for people without hardware.

It runs a real MicroPython (the UNIX port, as a subprocess: its own garbage collector, a bounded
Pico-like heap) behind a pty that speaks the rp2 port's REPL byte for byte: Ctrl-C, the friendly
REPL with its banner, raw REPL (Ctrl-A), raw-paste mode with flow control (Ctrl-E A Ctrl-A), soft
reset ("MPY: soft reboot", then boot.py and, from the friendly REPL, main.py). Unmodified mpremote
and ``bgc`` talk to it as to a Pico on /dev/ttyACM0. See docs/virtual-pico.md.

From Python::

    from bgc.pico.vpico import VirtualPico
    with VirtualPico(flash_dir="flash") as pico:
        subprocess.run(["mpremote", "connect", pico.port, "fs", "ls"])

Two threads do the work. The reader thread moves bytes from the pty into the receive buffer, and
turns the interrupt character into a KeyboardInterrupt while code runs (a byte on the interrupt
pipe the guest checks, or the answer to the host call it waits in), as rp2's USB receive handler
does. The board thread
runs the interpreter process, forwards its output to the pty and answers its host calls; the REPL
itself (pyexec.c's logic) runs on the host inside the guest's ``vp_next`` call, which returns the
next piece of code to run. One interpreter process lives from one soft reset to the next, so
globals persist between raw-REPL executions exactly as on the device.
"""

import errno
import json
import os
import posixpath
import select
import shutil
import subprocess
import tempfile
import termios
import threading
import time
import tty

from .. import resource

BOARD = "Raspberry Pi Pico with RP2040"
VERSION = (1, 27, 0)
# sys.implementation._mpy on rp2: bytecode 6, sub-version 3, native arch armv6m (4) in bits 10+.
MPY_RP2 = 6 | (3 << 8) | (4 << 10)
DEFAULT_UID = "e6614104032b5e2c"
FLASH_BYTES = 352 * 4096  # the littlefs partition of a 2 MB Pico
# rp2 waits this long for room in the USB buffer before it drops output.
TX_TIMEOUT = 0.5
RAW_PASTE_WINDOW = 128  # MICROPY_REPL_STDIN_BUFFER_MAX / 2
# The heap: a Pico's MicroPython has about 240 kB of heap; objects of a 64-bit build are about
# twice the size, so it gets twice the bytes for the same room.
HEAP_KB_32BIT = 256
HEAP_KB_64BIT = 512

_OK, _EXC, _FORCED_EXIT = 1, 0, 0x100
_FRIENDLY, _RAW = "friendly", "raw"
_GUEST_FILE = resource("pico", "vpico_guest.py")  # run by the guest MicroPython, never imported here
_BOOT = (
    "import sys, vfs\nvfs.mount(vfs.VfsPosix(%r), '/.vpico', readonly=True)\n"
    "sys.path[:] = ['/.vpico']\nimport _vpico\n_vpico.main(%d, %d, %d)\n"
)


class VirtualPicoError(RuntimeError):
    """The virtual Pico could not start (or its interpreter failed in a way it cannot recover)."""


class _Stop(Exception):
    pass


def _continue_with_input(src):
    """Whether the friendly REPL needs another line (a cut-down mp_repl_continue_with_input)."""
    depth = 0
    i = 0
    quote = None
    while i < len(src):
        c = src[i]
        if quote:
            if c == "\\":
                i += 1
            elif src.startswith(quote, i):
                i += len(quote) - 1
                quote = None
        elif c == "#":
            while i < len(src) and src[i] != "\n":
                i += 1
            continue
        elif src.startswith('"""', i) or src.startswith("'''", i):
            quote = src[i : i + 3]
            i += 2
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    if depth > 0 or (quote and len(quote) == 3) or src.endswith("\\"):
        return True
    first = src.split("\n", 1)[0].strip()
    compound = first.endswith(":") or first.startswith(
        ("if ", "while ", "for ", "def ", "class ", "with ", "try:", "async ", "@")
    )
    return compound and not src.endswith("\n")


def _auto_indent(src):
    """MICROPY_REPL_AUTO_INDENT: the indent of the last line, one level more after a colon."""
    last = src.rstrip("\n").rsplit("\n", 1)[-1]
    if not last.strip():
        return ""
    n = len(last) - len(last.lstrip(" "))
    return " " * (n + (4 if last.rstrip().endswith(":") else 0))


class VirtualPico:
    """A Pico running MicroPython, on a pseudo-terminal.

    flash_dir: the host directory that is the Pico's flash filesystem (``/`` on the device).
        It persists across soft resets, and across VirtualPico instances given the same directory.
        Default: a temporary directory removed by ``stop()``.
    link: also make this path a symlink to the pty (a stable name, e.g. ``/tmp/pico``).
    setup_code: MicroPython source (a string, or a list of strings) run in every fresh interpreter
        before boot.py, main.py and any REPL input: the hook where the virtual board puts its
        ``machine.Pin``/``ADC``/``I2C`` into place (``sys.modules['machine']`` is the virtual
        Pico's own machine stand-in there: set attributes on it, or replace it).
    host_functions: {name: callable} the guest can call: ``_vpico.call(name, *args)`` (arguments
        and result go through JSON).
    mounts: {guest_path: host_dir} extra read-only directories, e.g. guest-side modules of the
        virtual board; add the guest path to ``sys.path`` in ``setup_code`` to import from it.
    unique_id: 8 bytes as 16 hex digits (``machine.unique_id()``, the USB serial number).
    heap_kb: the interpreter's heap (default: Pico-like, see HEAP_KB_32BIT / HEAP_KB_64BIT).
    micropython: the interpreter's command (default: bgc.pico.mpunix.find_micropython()).
    kill_grace: seconds a Ctrl-C may stay unanswered by running code (code that never sleeps,
        prints, polls or reads the clock) before the interpreter is stopped the hard way and
        restarted at the REPL, losing its globals.
    on_output: a callable given every piece of the program's own output (bytes, as the program
        printed it; not the REPL's prompts and echo), from the board thread: how a host-side
        model of the board (bgc.vboard) hears the firmware's serial lines.
    """

    def __init__(
        self,
        flash_dir=None,
        *,
        link=None,
        setup_code=None,
        host_functions=None,
        mounts=None,
        unique_id=DEFAULT_UID,
        heap_kb=None,
        micropython=None,
        kill_grace=1.0,
        on_output=None,
    ):
        self.on_output = on_output
        self._own_flash = flash_dir is None
        self.flash_dir = os.path.abspath(flash_dir) if flash_dir else tempfile.mkdtemp(prefix="vpico-flash-")
        os.makedirs(self.flash_dir, exist_ok=True)
        self.link = link
        if isinstance(setup_code, str):
            setup_code = [setup_code]
        self.setup_code = list(setup_code or [])
        self.host_functions = dict(host_functions or {})
        self.mounts = dict(mounts or {})
        bytes.fromhex(unique_id)
        self.unique_id = unique_id.lower()
        self.heap_kb = heap_kb
        self.micropython = list(micropython) if micropython else None
        self.is_32bit = None
        self.kill_grace = kill_grace
        self.port = None
        self.mode = _FRIENDLY
        self.boot_count = 0
        self._master = self._slave = None
        self._guest_dir = None
        self._rx = bytearray()
        self._rx_cond = threading.Condition()
        self._tx_lock = threading.Lock()
        self._intr_char = -1
        self._stopping = False
        self._threads = []
        self._wake_r = self._wake_w = None
        self._proc = None
        self._gen = None
        self._resume_result = None
        self._next_action = "power_on"
        self._reset_kind = None
        self._running = False
        self._in_host = False
        self._kbd = False
        self._kbd_r = self._kbd_w = None
        self._kill_timer = None
        self._killed = False
        self._exit_expected = False
        self._banner = b""
        self._ready = threading.Event()
        self._recent = b""
        self._error = None
        self.log = []  # what went wrong inside the virtual Pico, for diagnostics

    # --- life cycle ----------------------------------------------------------------------------

    def start(self, timeout=30):
        """Open the pty, boot the Pico (boot.py, main.py), return once it is running."""
        from .mpunix import NoMicroPython, find_micropython, is_32bit

        if self.micropython is None:
            try:
                self.micropython, self.is_32bit = find_micropython(prefer_32bit=True)
            except NoMicroPython as exc:
                raise VirtualPicoError(str(exc)) from None
        elif self.is_32bit is None:
            self.is_32bit = is_32bit(self.micropython)
            if self.is_32bit is None:
                raise VirtualPicoError("%s does not run as MicroPython" % " ".join(self.micropython))
        if self.heap_kb is None:
            self.heap_kb = HEAP_KB_32BIT if self.is_32bit else HEAP_KB_64BIT
        self._guest_dir = tempfile.mkdtemp(prefix="vpico-guest-")
        shutil.copy(_GUEST_FILE, os.path.join(self._guest_dir, "_vpico.py"))
        for i, src in enumerate(self.setup_code):
            with open(os.path.join(self._guest_dir, "setup%d.py" % i), "w") as f:
                f.write(src)
        self._master, self._slave = os.openpty()
        # Raw at once: with the default line discipline the pty would echo the Pico's own output
        # back to it and turn \n into \r\n a second time.
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        if self.link:
            try:
                if os.path.islink(self.link):
                    os.unlink(self.link)
                os.symlink(self.port, self.link)
            except OSError as exc:
                link, self.link = self.link, None
                self.stop()
                raise VirtualPicoError("cannot make the link %s: %s" % (link, exc.strerror or exc)) from None
        self._wake_r, self._wake_w = os.pipe()
        for target, name in ((self._reader_main, "vpico-reader"), (self._board_main, "vpico-board")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)
        if not self._ready.wait(timeout):
            self.stop()
            raise VirtualPicoError("the virtual Pico did not boot within %s s" % timeout)
        if self._error:
            err = self._error
            self.stop()
            raise VirtualPicoError(err)
        return self

    def stop(self):
        """Stop the interpreter, close the pty, remove the link (and a temporary flash)."""
        if self._stopping:
            return
        self._stopping = True
        with self._rx_cond:
            self._rx_cond.notify_all()
        if self._wake_w is not None:
            os.write(self._wake_w, b"x")
        self._kill()
        for t in self._threads:
            t.join(10)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        if self.link and os.path.islink(self.link):
            os.unlink(self.link)
        if self._guest_dir:
            shutil.rmtree(self._guest_dir, ignore_errors=True)
        if self._own_flash:
            shutil.rmtree(self.flash_dir, ignore_errors=True)

    close = stop

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def serve_forever(self):
        """Block until stop() is called from another thread or the board thread ends."""
        while not self._stopping and any(t.is_alive() for t in self._threads):
            time.sleep(0.2)

    def send_input(self, data):
        """Bytes arriving on the serial port as if a host had written them (0x03 interrupts)."""
        self._receive(bytes(data))

    def power_cycle(self):
        """Cut the power and power up again: the interpreter ends wherever it is, the Pico boots
        (boot.py, main.py, friendly REPL); the flash and the pty stay."""
        with self._rx_cond:
            if self._proc is None:
                return
            self._exit_expected = True
            self._next_action = "hard"
        self._kill()

    def _kill(self):
        proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                proc.kill()
            except OSError:
                pass

    # --- the pty --------------------------------------------------------------------------------

    def _reader_main(self):
        while not self._stopping:
            try:
                r, _, _ = select.select([self._master, self._wake_r], [], [], 1.0)
            except (OSError, ValueError):
                return
            if self._master not in r:
                continue
            try:
                data = os.read(self._master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                if self._stopping:
                    return
                time.sleep(0.05)
                continue
            self._receive(data)

    def _receive(self, data):
        with self._rx_cond:
            for b in data:
                if b == self._intr_char:
                    # As rp2's USB receive handler: the interrupt character never reaches stdin.
                    self._raise_kbd()
                else:
                    self._rx.append(b)
            self._rx_cond.notify_all()

    def _raise_kbd(self):
        # Called with _rx_cond held. A guest waiting in a host call gets the interrupt with the
        # answer; running code finds it on the interrupt pipe (never a signal: see vpico_guest.py).
        if self._in_host or not self._running or self._proc is None:
            self._kbd = True
            self._rx_cond.notify_all()
            return
        try:
            os.write(self._kbd_w, b"\x03")
        except OSError:
            pass
        if self._kill_timer is None:
            self._kill_timer = threading.Timer(self.kill_grace, self._kill_if_unanswered)
            self._kill_timer.daemon = True
            self._kill_timer.start()

    def _kbd_in_pipe(self):
        """Whether a Ctrl-C waits on the interrupt pipe; takes it off if so."""
        try:
            if not select.select([self._kbd_r], [], [], 0)[0]:
                return False
            os.read(self._kbd_r, 64)
        except (OSError, ValueError, TypeError):
            return False
        return True

    def _kill_if_unanswered(self):
        with self._rx_cond:
            self._kill_timer = None
            if self._stopping or not self._running or self._in_host or self._proc is None:
                return
            try:
                unanswered = bool(select.select([self._kbd_r], [], [], 0)[0])
            except (OSError, ValueError, TypeError):
                return
            if not unanswered:
                return
            self._killed = True
        self._kill()

    def _tx(self, data, cook=False):
        """Write to the serial port as rp2 does: \\n becomes \\r\\n for program output, and
        output that does not fit is dropped instead of blocking: at once when no other process has
        the port open, after TX_TIMEOUT when one has but does not read."""
        if cook:
            data = data.replace(b"\n", b"\r\n")
        with self._tx_lock:
            deadline = None
            view = memoryview(data)
            while view and not self._stopping:
                try:
                    n = os.write(self._master, view)
                    view = view[n:]
                    continue
                except BlockingIOError:
                    pass
                except OSError:
                    return
                now = time.monotonic()
                if deadline is None:
                    # rp2 waits for a host that has the port open (DTR set) and drops the output
                    # at once when none has: a program that never opens the port never stalls it.
                    deadline = now + TX_TIMEOUT if self._port_open_elsewhere() else now
                if now >= deadline:
                    # Nobody is reading: drop what the port holds, like an unplugged USB host.
                    try:
                        termios.tcflush(self._slave, termios.TCIFLUSH)
                    except termios.error:
                        return
                    deadline = None
                    continue
                select.select([], [self._master], [], 0.02)

    def _port_open_elsewhere(self):
        """Whether a program holds the pty open (what a USB host's DTR tells rp2): any file
        descriptor on it in /proc but the virtual Pico's own; True when that cannot be told."""
        me = str(os.getpid())
        own = str(self._slave)  # the virtual Pico's own hold on the pty (a reader in this process counts)
        try:
            pids = [p for p in os.listdir("/proc") if p.isdigit()]
        except OSError:
            return True
        for pid in pids:
            fd_dir = "/proc/%s/fd" % pid
            try:
                fds = os.listdir(fd_dir)
            except OSError:
                continue  # gone, or another user's
            for fd in fds:
                if pid == me and fd == own:
                    continue
                try:
                    if os.readlink(fd_dir + "/" + fd) == self.port:
                        return True
                except OSError:
                    pass
        return False

    def _rx_chr(self):
        with self._rx_cond:
            while not self._rx:
                if self._stopping:
                    raise _Stop()
                self._rx_cond.wait(0.5)
            return self._rx.pop(0)

    # --- the interpreter ------------------------------------------------------------------------

    def _board_main(self):
        try:
            while not self._stopping:
                action = self._next_action
                if action in ("power_on", "hard"):
                    self.mode = _FRIENDLY
                    self._gen = None
                elif action == "soft":
                    self._tx(b"MPY: soft reboot\r\n")
                    self._gen = None
                self._next_action = "soft"
                self._run_instance()
        except BaseException as exc:  # pragma: no cover - reported to start() / the log
            self._error = "virtual Pico board thread failed: %r" % (exc,)
            self.log.append(self._error)
        finally:
            self._kill()
            self._ready.set()

    def _run_instance(self):
        """One interpreter process: start it, serve its output and host calls until it ends."""
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        out_r, out_w = os.pipe()
        kbd_r, kbd_w = os.pipe()
        # The guest reads without blocking (it waits in poll), see vpico_guest._take and check().
        os.set_blocking(resp_r, False)
        os.set_blocking(kbd_r, False)
        os.set_blocking(kbd_w, False)
        self._kbd_r, self._kbd_w = kbd_r, kbd_w
        boot = _BOOT % (self._guest_dir, req_w, resp_r, kbd_r)
        argv = self.micropython + ["-X", "heapsize=%dk" % self.heap_kb, "-c", boot]
        self._exit_expected = False
        self._killed = False
        try:
            # A session of its own: a Ctrl-C typed at `bgc vpico` stops the host, not the guest.
            self._proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w,
                                          pass_fds=(req_w, resp_r, kbd_r), cwd=self._guest_dir,
                                          start_new_session=True)
        except OSError as exc:
            self._proc = None
            why = "cannot start %s: %s" % (self.micropython[0], exc)
        for fd in (req_w, resp_r, out_w):
            os.close(fd)
        if self._proc is None:
            for fd in (req_r, resp_w, out_r, kbd_r, kbd_w):
                os.close(fd)
            self._guest_died(why)
            return
        proc = self._proc
        pending = bytearray()
        try:
            while not self._stopping:
                try:
                    r, _, _ = select.select([out_r, req_r, self._wake_r], [], [], 1.0)
                except (OSError, ValueError):
                    return
                if req_r in r:
                    # Everything the guest printed before this request is in the output pipe by
                    # now: forward it first, so the REPL's answer comes after the program's output.
                    self._forward(out_r, drain=True)
                    data = os.read(req_r, 65536)
                    if not data:
                        break
                    pending += data
                    while b"\n" in pending:
                        line, _, rest = bytes(pending).partition(b"\n")
                        pending = bytearray(rest)
                        self._answer(line, resp_w)
                elif out_r in r:
                    self._forward(out_r)
            self._forward(out_r, drain=True)
        finally:
            self._kill()
            code = proc.wait()
            self._forward(out_r, drain=True)
            with self._rx_cond:
                self._running = False
                self._in_host = False
                self._proc = None
                self._kbd_r = self._kbd_w = None
                if self._kill_timer:
                    self._kill_timer.cancel()
                    self._kill_timer = None
            for fd in (req_r, resp_w, out_r, kbd_r, kbd_w):
                os.close(fd)
        if self._stopping or self._exit_expected:
            return
        if self._killed:
            self._resume_result = {
                "status": "exc",
                "kbd": True,
                "trace": "vpico: the program did not notice Ctrl-C within %.1f s; "
                "restarted the interpreter (globals are lost)\nKeyboardInterrupt: \n" % self.kill_grace,
            }
            self._next_action = "resume"
        else:
            self._guest_died("the interpreter exited with status %d" % code)

    def _forward(self, fd, drain=False):
        while True:
            try:
                r, _, _ = select.select([fd], [], [], 0) if drain else ([fd], None, None)
                if not r:
                    return
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            self._guest_output(data)
            if not drain:
                return

    def _answer(self, line, resp_w):
        with self._rx_cond:
            self._in_host = True
            # A Ctrl-C the running code did not look for yet goes with this call's answer.
            if self._kbd_in_pipe():
                self._kbd = True
        try:
            name, args = json.loads(line)
            if name.startswith("vp_") and hasattr(self, "_" + name):
                value = getattr(self, "_" + name)(*args)
            else:
                value = self.host_functions[name](*args)
            response = {"v": value}
        except Exception as exc:
            response = {"e": "%s: %s" % (type(exc).__name__, exc)}
        with self._rx_cond:
            if self._kbd:
                response["k"] = 1
                self._kbd = False
            out = json.dumps(response, separators=(",", ":")).encode("utf-8") + b"\n"
            try:
                view = memoryview(out)
                while view:
                    view = view[os.write(resp_w, view):]
            except OSError:
                pass
            self._in_host = False

    def _guest_died(self, why):
        why += "; last output: %r" % self._recent[-600:].decode("utf-8", "replace")
        self.log.append(why)
        self._tx(("\nvpico: %s; resetting\n" % why).encode(), cook=True)
        self._next_action = "hard"
        if not self._ready.is_set() and self.boot_count == 0:
            self._error = why
            self._stopping = True

    def _guest_output(self, data):
        data = bytes(data)
        self._recent = (self._recent + data)[-2000:]
        if self.on_output is not None:
            self.on_output(data)
        self._tx(data, cook=True)

    # --- host functions the guest half (vpico_guest.py) calls ----------------------------------

    def _vp_hello(self, guest_version, maxsize):
        date = guest_version.rsplit(" on ", 1)[-1]
        version = "%d.%d.%d" % VERSION
        self._banner = ("MicroPython v%s on %s; %s\r\nType \"help()\" for more information.\r\n" % (version, date, BOARD)).encode()
        return {
            "impl": ["micropython", list(VERSION) + [""], BOARD, MPY_RP2, "RPI_PICO"],
            "version": version,
            "date": date,
            "uname": ["rp2", "rp2", version, "v%s on %s (GNU 14.2.1 MinSizeRel)" % (version, date), BOARD],
            "uid": self.unique_id,
            "reset_cause": 1,
            "flash": self.flash_dir,
            "mounts": [[guest, os.path.abspath(host_dir)] for guest, host_dir in self.mounts.items()],
            "setup": ["/.vpico/setup%d.py" % i for i in range(len(self.setup_code))],
        }

    def _vp_setup_failed(self, trace):
        self.log.append("setup hook failed:\n" + trace)
        self._tx(("vpico: the setup hook failed:\n" + trace).encode(), cook=True)

    def _vp_next(self, result):
        with self._rx_cond:
            self._running = False
        try:
            if self._gen is None:
                self.boot_count += 1
                self._gen = self._session()
                job = next(self._gen)
            elif self._resume_result is not None:
                result, self._resume_result = self._resume_result, None
                job = self._gen.send(result)
            else:
                job = self._gen.send(result)
        except StopIteration:
            self._gen = None
            self._next_action = self._reset_kind or "soft"
            self._reset_kind = None
            self._exit_expected = True
            return {"op": "exit"}
        except _Stop:
            self._exit_expected = True
            return {"op": "exit"}
        with self._rx_cond:
            self._running = True
        return job

    def _vp_rx(self, n, timeout_ms):
        with self._rx_cond:
            if not self._wait_rx(timeout_ms):
                return ""
            data = bytes(self._rx[:n])
            del self._rx[:n]
            return data.hex()

    def _vp_rx_wait(self, timeout_ms):
        with self._rx_cond:
            self._wait_rx(timeout_ms)
            return len(self._rx)

    def _wait_rx(self, timeout_ms):
        deadline = None if timeout_ms is None or timeout_ms < 0 else time.monotonic() + timeout_ms / 1000
        while not self._rx:
            if self._stopping or self._kbd:
                return False
            left = 0.5 if deadline is None else deadline - time.monotonic()
            if left <= 0:
                return False
            self._rx_cond.wait(min(left, 0.5))
        return True

    def _vp_kbd_intr(self, c):
        self._intr_char = c

    def _vp_reset(self, kind):
        self._reset_kind = kind

    def _vp_rename(self, old, new):
        """os.rename for the guest: 0, or the errno it fails with (paths are the Pico's)."""
        paths = []
        for p in (old, new):
            p = posixpath.normpath(p)
            if p == "/" or any(p == m.rstrip("/") or p.startswith(m.rstrip("/") + "/") for m in ["/.vpico"] + list(self.mounts)):
                return errno.EROFS if p != "/" else errno.EBUSY
            paths.append(os.path.join(self.flash_dir, p.lstrip("/")))
        try:
            os.rename(*paths)
        except OSError as exc:
            return exc.errno or errno.EIO
        return 0

    def _vp_statvfs(self):
        used = 0
        for root, dirs, files in os.walk(self.flash_dir):
            used += 4096 * len(dirs)
            for f in files:
                try:
                    used += -(-os.path.getsize(os.path.join(root, f)) // 4096) * 4096
                except OSError:
                    pass
        blocks = FLASH_BYTES // 4096
        free = max(0, blocks - 2 - used // 4096)
        return [4096, 4096, blocks, free, free, 0, 0, 0, 0, 255]

    # --- the REPL (shared/runtime/pyexec.c, on the host) ----------------------------------------

    def _session(self):
        """One interpreter's life: boot.py, main.py, then the REPL until a soft reset."""
        ret = yield from self._exec_file("boot.py")
        if ret & _FORCED_EXIT:
            return
        if self.mode == _FRIENDLY and ret != _EXC:
            ret = yield from self._exec_file("main.py")
            if ret & _FORCED_EXIT:
                return
        while True:
            if self.mode == _RAW:
                ret = yield from self._raw_repl()
            else:
                ret = yield from self._friendly_repl()
            if ret != 0:
                return

    def _execute(self, job, print_eof):
        with self._rx_cond:
            self._kbd = False
            self._kbd_in_pipe()  # one meant for the program before
            self._intr_char = 3
            if 3 in self._rx:
                # A Ctrl-C that came while the board was between programs (mid soft reset, say)
                # still stops the next one: mpremote's "\r\x03" right after a reset relies on it.
                self._rx[:] = self._rx.replace(b"\x03", b"")
                self._raise_kbd()
        self._ready.set()
        result = yield job
        self._intr_char = -1
        if print_eof:
            self._tx(b"\x04")
        status = (result or {}).get("status")
        if status == "exit":
            ret = _FORCED_EXIT
        elif status == "exc":
            self._tx(result["trace"].encode("utf-8"), cook=True)
            ret = _EXC
        else:
            ret = _OK
        if print_eof:
            self._tx(b"\x04")
        return ret

    def _exec_file(self, name):
        if not os.path.isfile(os.path.join(self.flash_dir, name)):
            return _OK
        return (yield from self._execute({"op": "run", "path": name}, False))

    def _raw_repl(self):
        self._ready.set()
        self._tx(b"raw REPL; CTRL-B to exit\r\n>")
        line = bytearray()
        while True:
            c = self._rx_chr()
            if c == 0x01:
                if len(line) == 2 and line[0] == 0x05:
                    ret = yield from self._raw_paste(line[1])
                    if ret & _FORCED_EXIT:
                        return ret
                    line.clear()
                    self._tx(b">")
                    continue
                line.clear()
                self._tx(b"raw REPL; CTRL-B to exit\r\n>")
            elif c == 0x02:
                self._tx(b"\r\n")
                self.mode = _FRIENDLY
                return 0
            elif c == 0x03:
                line.clear()
            elif c == 0x04:
                self._tx(b"OK")
                if not line:
                    self._tx(b"\r\n")
                    return _FORCED_EXIT
                src = line.decode("utf-8", "replace")
                ret = yield from self._execute({"op": "run", "src": src, "kind": "exec"}, True)
                if ret & _FORCED_EXIT:
                    return ret
                line.clear()
                self._tx(b">")
            else:
                line.append(c)

    def _raw_paste(self, cmd):
        if cmd != ord("A"):
            self._tx(b"R\x00")
            return 0
        self._tx(b"R\x01")
        self._tx(bytes([RAW_PASTE_WINDOW & 0xFF, RAW_PASTE_WINDOW >> 8, 0x01]))
        remain = RAW_PASTE_WINDOW
        data = bytearray()
        while True:
            c = self._rx_chr()
            if c in (0x03, 0x04):
                self._tx(b"\x04")
                if c == 0x03:
                    self._tx(b"\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n\x04")
                    return _EXC
                break
            data.append(c)
            remain -= 1
            if remain == 0:
                self._tx(b"\x01")
                remain = RAW_PASTE_WINDOW
        src = data.decode("utf-8", "replace")
        return (yield from self._execute({"op": "run", "src": src, "kind": "exec"}, True))

    def _friendly_repl(self):
        self._ready.set()
        self._tx(self._banner)
        while True:
            ret, line = self._readline(b">>> ")
            kind = "single"
            if ret == 0x01:
                self._tx(b"\r\n")
                self.mode = _RAW
                return 0
            if ret == 0x02:
                self._tx(b"\r\n" + self._banner)
                continue
            if ret == 0x03:
                self._tx(b"\r\n")
                continue
            if ret == 0x04:
                self._tx(b"\r\n")
                return _FORCED_EXIT
            if ret == 0x05:
                line = self._paste_mode()
                if line is None:
                    continue
                kind = "exec"
            elif not line:
                continue
            else:
                cancelled = False
                while _continue_with_input(line):
                    line += "\n"
                    ret, more = self._readline(b"... ", _auto_indent(line))
                    if ret == 0x03:
                        self._tx(b"\r\n")
                        cancelled = True
                        break
                    if ret == 0x04:
                        break
                    line += more
                if cancelled:
                    continue
            ret = yield from self._execute({"op": "run", "src": line, "kind": kind}, False)
            if ret & _FORCED_EXIT:
                return ret

    def _paste_mode(self):
        self._tx(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        buf = bytearray()
        while True:
            c = self._rx_chr()
            if c == 0x03:
                self._tx(b"\r\n")
                return None
            if c == 0x04:
                self._tx(b"\r\n")
                return buf.decode("utf-8", "replace")
            buf.append(c)
            self._tx(b"\r\n=== " if c == 0x0D else bytes([c]))

    def _readline(self, prompt, indent=""):
        """shared/readline: echo, backspace, Enter; control keys on an empty line come back.

        ``indent`` is the auto-indent: typed for the user, and dropped again if Enter is the
        first key, which ends a compound statement as on the device."""
        self._tx(prompt + indent.encode())
        line = bytearray(indent.encode())
        auto = bool(indent)
        last = None
        while True:
            c = self._rx_chr()
            prev, last = last, c
            if c in (0x01, 0x02, 0x04, 0x05) and not line:
                return c, ""
            if c == 0x03:
                return c, ""
            if c == 0x0D or (c == 0x0A and prev != 0x0D):
                if auto:
                    line.clear()
                self._tx(b"\r\n")
                return 0, line.decode("utf-8", "replace")
            if c == 0x0A:
                continue
            auto = False
            if c in (0x08, 0x7F):
                if line:
                    del line[-1]
                    self._tx(b"\x08\x1b[K")
            elif c == 0x1B:
                # Cursor keys and friends (ESC [ x): no history or editing here.
                nxt = self._rx_chr()
                if nxt in (ord("["), ord("O")):
                    while True:
                        k = self._rx_chr()
                        if 0x40 <= k <= 0x7E:
                            break
            elif c >= 0x20 or c == 0x09:
                line.append(c)
                self._tx(bytes([c]))
