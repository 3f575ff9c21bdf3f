# The guest half of the virtual Pico: this file runs INSIDE MicroPython (the UNIX port, as a
# subprocess of bgc.pico.vpico), never under CPython. bgc.pico.vpico mounts its folder read-only at /.vpico
# and imports it as ``_vpico`` before anything else runs.
#
# It makes the UNIX port look like the rp2 port to code on the Pico and to mpremote: the flash
# directory mounted at / (a VfsPosix rooted there, so /main.py and /journal/... are the flash's);
# rp2 values in sys.implementation, os.uname(), machine.unique_id(); an ``os`` whose ilistdir and
# statvfs answer like littlefs; sys.stdin and select.poll fed from the serial port. It does that by
# putting stand-ins into sys.modules: MicroPython looks there before its built-in modules, so
# ``import os`` in any later code gets the stand-in (time too, for Ctrl-C below). The garbage
# collector, the heap limit, gc, random and the rest are the interpreter's own.
#
# Host calls: one JSON line on the request pipe, one JSON line back on the response pipe.
#
# Ctrl-C: the UNIX port raises KeyboardInterrupt for SIGINT from inside the signal handler, at any
# instruction, also in the middle of an allocation or a collection; that leaves the heap locked or
# the collector's mutex held (seen: "heap is locked", then a deadlock). So the host never signals.
# It writes a byte into the interrupt pipe, and check() looks at that pipe (a poll of ~4 us) in
# time.ticks_ms/ticks_us, print, the sleeps (which wait on that pipe, so Ctrl-C cuts them short),
# machine.idle and WDT.feed. A Ctrl-C that comes while the guest waits in a host call (stdin reads,
# select.poll on stdin) is carried by the answer ("k"). Code that calls none of these is stopped
# the hard way after a grace period (bgc.pico.vpico kills and restarts the interpreter).

import sys as _rsys
import builtins
import io
import json
import micropython as _rmicropython
import os as _ros
import select as _rselect
import time as _rtime
import machine as _rmachine
import gc as _rgc
import vfs as _rvfs

_info = {}
_print = builtins.print
_req = None  # request pipe (guest -> host)
_resp = None  # response pipe (host -> guest), non-blocking
_resp_poll = None
_rbuf = b""
_line = None
# The response pipe is read into this buffer: a read(n) would allocate n + 1 bytes for every host
# call, and a fragmented heap may have no such block where the Pico's firmware itself needs none.
_rchunk = bytearray(512)
_rview = memoryview(_rchunk)
_dropping = False  # the rest of an answer line that did not fit in the heap is read and dropped
_kbd = None  # the interrupt pipe (host -> guest), non-blocking
_kbd_poll = None
_MAX_REQUEST = 60000  # below the pipe's 64 kB: the write never blocks, so it is never cut short


class HostGone(BaseException):
    # The host closed the pipes: nothing is left to do but end (not an Exception: firmware
    # that catches every Exception must not keep running without a host).
    pass


def check():
    # The one place a Ctrl-C from the serial port turns into KeyboardInterrupt in running code.
    if _kbd_poll.poll(0):
        _kbd.read(64)
        raise KeyboardInterrupt


def _wait_kbd(ms):
    # Sleep ``ms`` milliseconds unless Ctrl-C comes first.
    if _kbd_poll.poll(ms):
        _kbd.read(64)
        raise KeyboardInterrupt


def _take():
    # One step of reading the response: wait for bytes, keep them, cut off a complete line. A line
    # the heap cannot hold (a pasted program larger than the free heap) is read to its end and
    # dropped, then MemoryError: the link stays in step with the host, as the Pico's REPL stays.
    global _line, _rbuf, _dropping
    i = _rbuf.find(b"\n")
    if i < 0:
        _resp_poll.poll(-1)
        n = _resp.readinto(_rchunk)
        if n is None:
            return
        if not n:
            raise HostGone()
        if not _dropping:
            try:
                _rbuf += _rview[:n]
                return
            except MemoryError:
                _rbuf = b""
                _dropping = True
        i = _rchunk.find(b"\n", 0, n)
        if i >= 0:
            _dropping = False
            _rbuf = bytes(_rview[i + 1 : n])
            raise MemoryError("memory allocation failed: the host's answer did not fit in the heap")
        return
    try:
        _line = _rbuf[:i]
    finally:
        _rbuf = _rbuf[i + 1 :]


def _exchange(req):
    """Send one request (JSON text, its line's end added here), return its response line."""
    global _line
    _line = None
    # Written as it is (a str is a buffer to MicroPython): no encoded copy of the whole line.
    _req.write(req)
    _req.write(b"\n")
    while _line is None:
        _take()
    return _line


def _call(name, args, swallow_kbd=False):
    req = json.dumps([name, args])
    if len(req) >= _MAX_REQUEST:
        raise ValueError("host call %s: arguments too large (%d bytes)" % (name, len(req) + 1))
    r = json.loads(_exchange(req))
    if r.get("k"):
        _kbd.read(64)  # the host drained the pipe already; a byte written since is the same Ctrl-C
        if not swallow_kbd:
            raise KeyboardInterrupt
    if "e" in r:
        raise RuntimeError(r["e"])
    return r.get("v")


def call(name, *args):
    """Call a host function by name (arguments and result go through JSON)."""
    return _call(name, args)


def _unhex(s):
    return bytes.fromhex(s) if s else b""


class _Attrs:
    # A read-only record that prints like MicroPython's attrtuple (sys.implementation, uname).
    def __init__(self, names, values):
        self._names = names
        self._values = tuple(values)
        for n, v in zip(names, values):
            setattr(self, n, v)

    def __getitem__(self, i):
        return self._values[i]

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        return iter(self._values)

    def __repr__(self):
        return "(" + ", ".join("%s=%r" % (n, v) for n, v in zip(self._names, self._values)) + ")"


# --- serial input -------------------------------------------------------------------------------


class _StdinBuffer:
    # Bytes typed into the serial port that the REPL is not consuming (the rp2 stdin ring buffer).
    def fileno(self):
        return 0

    def _read(self, n):
        data = b""
        while len(data) < n:
            data += _unhex(call("vp_rx", n - len(data), -1))
        return data

    def read(self, n=-1):
        if n is None or n < 0:
            return _unhex(call("vp_rx", 4096, -1))
        return self._read(n)

    def readinto(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        data = self._read(n) if n else b""
        buf[: len(data)] = data
        return len(data)

    def readline(self):
        out = b""
        while not out.endswith(b"\n"):
            out += self._read(1)
        return out

    def close(self):
        pass


class _Stdin(_StdinBuffer):
    def __init__(self):
        self.buffer = _StdinBuffer()

    def read(self, n=-1):
        return str(_StdinBuffer.read(self, n), "utf-8")

    def readline(self):
        return str(_StdinBuffer.readline(self), "utf-8")

    def __iter__(self):
        return self

    def __next__(self):
        return self.readline()


_stdin = _Stdin()


def _input(prompt=""):
    # rp2's input() edits a line with echo; this keeps to echo and backspace.
    _rsys.stdout.write(prompt)
    line = ""
    while True:
        c = _stdin.read(1)
        if c in "\r\n":
            _rsys.stdout.write("\n")
            return line
        if c in "\x08\x7f":
            if line:
                line = line[:-1]
                _rsys.stdout.write("\x08\x1b[K")
        elif c == "\x04" and not line:
            raise EOFError
        else:
            line += c
            _rsys.stdout.write(c)


# --- select.poll --------------------------------------------------------------------------------

POLLIN = _rselect.POLLIN
POLLOUT = _rselect.POLLOUT


class _Poll:
    def __init__(self):
        self._reg = {}

    def register(self, obj, mask=POLLIN | POLLOUT):
        self._reg[id(obj)] = [obj, mask]

    def unregister(self, obj):
        self._reg.pop(id(obj), None)

    def modify(self, obj, mask):
        if id(obj) not in self._reg:
            raise OSError(2)
        self._reg[id(obj)][1] = mask

    def _ready(self, others):
        res = []
        stdin_in = [o for o, m in self._reg.values() if isinstance(o, _StdinBuffer) and m & POLLIN]
        for o, m in self._reg.values():
            if isinstance(o, _StdinBuffer) and m & POLLOUT:
                res.append((o, POLLOUT))
        if stdin_in and call("vp_rx_wait", 0):
            for o in stdin_in:
                res.append((o, POLLIN))
        if others is not None:
            res.extend(others.poll(0))
        return res

    def poll(self, timeout=-1):
        others = None
        for o, m in self._reg.values():
            if not isinstance(o, _StdinBuffer):
                if others is None:
                    others = _rselect.poll()
                others.register(o, m)
        start = _rtime.ticks_ms()
        while True:
            res = self._ready(others)
            if res or timeout == 0:
                return res
            wait = -1 if timeout is None or timeout < 0 else timeout - _rtime.ticks_diff(_rtime.ticks_ms(), start)
            if timeout is not None and timeout >= 0 and wait <= 0:
                return []
            if others is not None:
                # Other streams cannot wake the host; look at them every few milliseconds.
                wait = 5 if wait < 0 else min(wait, 5)
            call("vp_rx_wait", wait)

    def ipoll(self, timeout=-1, flags=0):
        return iter(self.poll(timeout))


def _select_select(rlist, wlist, xlist, timeout=None):
    p = _Poll()
    for o in rlist:
        p.register(o, POLLIN)
    for o in wlist:
        p.register(o, POLLOUT)
    ms = -1 if timeout is None else int(timeout * 1000)
    ready = p.poll(ms)
    return ([o for o, e in ready if e & POLLIN], [o for o, e in ready if e & POLLOUT], [])


class select:
    POLLIN = _rselect.POLLIN
    POLLOUT = _rselect.POLLOUT
    POLLERR = _rselect.POLLERR
    POLLHUP = _rselect.POLLHUP
    poll = _Poll
    select = _select_select


# --- time ---------------------------------------------------------------------------------------


def _sleep_ms(ms):
    check()
    if ms > 0:
        _wait_kbd(ms)


class time:
    ticks_add = _rtime.ticks_add
    ticks_diff = _rtime.ticks_diff
    ticks_cpu = _rtime.ticks_cpu
    time = _rtime.time
    time_ns = _rtime.time_ns
    gmtime = _rtime.gmtime
    localtime = _rtime.localtime
    mktime = _rtime.mktime

    def ticks_ms():
        check()
        return _rtime.ticks_ms()

    def ticks_us():
        check()
        return _rtime.ticks_us()

    sleep_ms = _sleep_ms

    def sleep(s):
        _sleep_ms(int(s * 1000))

    def sleep_us(us):
        if us >= 2000:
            _sleep_ms(us // 1000)
        else:
            check()
            _rtime.sleep_us(us)


def _print_checked(*args, **kwargs):
    check()
    _print(*args, **kwargs)


# --- vfs: one littlefs volume at / ----------------------------------------------------------------


class _VfsLfs2:
    def __repr__(self):
        return "<VfsLfs2>"


_root_vfs = _VfsLfs2()


class vfs:
    VfsLfs2 = _VfsLfs2

    def mount(*args, **kwargs):
        if not args:
            return [(_root_vfs, "/")]
        raise OSError(1)

    def umount(path):
        raise OSError(1)


# --- os -----------------------------------------------------------------------------------------


def _is_root(path):
    return path == "/" or (path in ("", ".") and _ros.getcwd() == "/")


def _ilistdir(path=""):
    base = path if path else _ros.getcwd()
    hidden = _info.get("hidden", ()) if _is_root(path) else ()
    for entry in _ros.ilistdir(path):
        name, kind = entry[0], entry[1]
        if name in hidden:
            continue  # the virtual Pico's own mounts are not on a Pico's flash
        size = 0
        if kind == 0x8000:
            size = _ros.stat(base.rstrip("/") + "/" + name)[6]
        # littlefs on rp2 gives (name, type, inode 0, size).
        yield (name, kind, 0, size)


def _listdir(path=""):
    return [e[0] for e in _ilistdir(path)]


def _rename(old, new):
    # VfsPosix rooted at the flash builds both host paths in one shared buffer, so its rename
    # loses the old name (MicroPython 1.27); the host renames instead.
    cwd = _ros.getcwd().rstrip("/") + "/"
    err = call("vp_rename", old if old.startswith("/") else cwd + old, new if new.startswith("/") else cwd + new)
    if err:
        raise OSError(err)


def _stat(path):
    st = _ros.stat(path)
    return (st[0], 0, 0, 0, 0, 0, st[6], st[7], st[8], st[9])


class os:
    sep = "/"
    chdir = _ros.chdir
    getcwd = _ros.getcwd
    listdir = _listdir
    mkdir = _ros.mkdir
    remove = _ros.remove
    unlink = _ros.remove
    rmdir = _ros.rmdir
    rename = _rename
    urandom = _ros.urandom
    ilistdir = _ilistdir
    stat = _stat
    VfsLfs2 = _VfsLfs2
    mount = vfs.mount
    umount = vfs.umount

    def statvfs(path="/"):
        return tuple(call("vp_statvfs"))

    def uname():
        return _info["uname"]

    def sync():
        pass

    def dupterm(stream=None, index=0):
        return None


# --- machine ------------------------------------------------------------------------------------


class _RTC:
    def datetime(self, t=None):
        if t is None:
            tm = _rtime.localtime()
            return (tm[0], tm[1], tm[2], tm[6], tm[3], tm[4], tm[5], 0)
        return None


class _WDT:
    # The virtual Pico does not reset on a missed feed; firmware that feeds it runs unchanged.
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        check()


class machine:
    PWRON_RESET = 1
    WDT_RESET = 3
    mem8 = getattr(_rmachine, "mem8", None)
    mem16 = getattr(_rmachine, "mem16", None)
    mem32 = getattr(_rmachine, "mem32", None)
    Signal = getattr(_rmachine, "Signal", None)
    PinBase = getattr(_rmachine, "PinBase", None)
    time_pulse_us = getattr(_rmachine, "time_pulse_us", None)
    RTC = _RTC
    WDT = _WDT

    def unique_id():
        return _unhex(_info["uid"])

    def freq(hz=None):
        return 125000000 if hz is None else None

    def reset_cause():
        return _info.get("reset_cause", 1)

    def idle():
        check()

    def lightsleep(ms=None):
        if ms is not None:
            _sleep_ms(ms)

    deepsleep = lightsleep

    def disable_irq():
        return 0

    def enable_irq(state=0):
        pass

    def soft_reset():
        raise SystemExit

    def reset():
        call("vp_reset", "hard")
        raise SystemExit

    def bootloader():
        call("vp_reset", "hard")
        raise SystemExit


# --- micropython --------------------------------------------------------------------------------


def _kbd_intr(c):
    # Never the interpreter's own: on the UNIX port kbd_intr(-1) would make SIGINT fatal. The
    # host decides whether 0x03 from the serial port interrupts.
    call("vp_kbd_intr", c)


class micropython:
    const = _rmicropython.const
    schedule = _rmicropython.schedule
    heap_lock = _rmicropython.heap_lock
    heap_unlock = _rmicropython.heap_unlock
    mem_info = _rmicropython.mem_info
    opt_level = _rmicropython.opt_level
    qstr_info = _rmicropython.qstr_info
    stack_use = _rmicropython.stack_use
    native = getattr(_rmicropython, "native", None)
    viper = getattr(_rmicropython, "viper", None)
    kbd_intr = _kbd_intr

    def alloc_emergency_exception_buf(size):
        pass


# --- sys ----------------------------------------------------------------------------------------


class sys:
    argv = []
    byteorder = _rsys.byteorder
    maxsize = _rsys.maxsize
    modules = _rsys.modules
    path = _rsys.path
    exit = _rsys.exit
    print_exception = _rsys.print_exception
    exc_info = getattr(_rsys, "exc_info", None)
    atexit = getattr(_rsys, "atexit", None)
    stdin = _stdin
    stdout = _rsys.stdout
    stderr = _rsys.stdout
    platform = "rp2"
    version_info = (3, 4, 0)
    ps1 = ">>> "
    ps2 = "... "


# --- running code -------------------------------------------------------------------------------

_KBD_TRACE = "Traceback (most recent call last):\nKeyboardInterrupt: \n"


def _trace(e):
    buf = io.StringIO()
    _rsys.print_exception(e, buf)
    # Drop the frames of this file: on a Pico the traceback starts at the user's code.
    lines = [ln for ln in buf.getvalue().split("\n") if '"/.vpico/' not in ln]
    return "\n".join(lines)[-8000:]


def _run(job, g):
    try:
        if job.get("kbd"):
            # A Ctrl-C came before the program started (e.g. mpremote's right after a reset).
            raise KeyboardInterrupt
        if job.get("path"):
            with open(job["path"]) as f:
                src = f.read()
            g["__file__"] = job["path"]
            code = compile(src, job["path"], "exec")
        else:
            code = compile(job["src"], job.get("file", "<stdin>"), job.get("kind", "exec"))
        exec(code, g)
        return {"status": "ok"}
    except SystemExit:
        return {"status": "exit"}
    except BaseException as e:  # noqa: B902 - everything is reported, as pyexec does
        if isinstance(e, HostGone):
            raise
        try:
            trace = _trace(e)
        except MemoryError:
            # The program's globals stay (as on a Pico) and may hold the heap: report the
            # exception itself rather than lose the interpreter with it.
            trace = "Traceback (most recent call last):\n%s: %s\n" % (type(e).__name__, e)
        return {"status": "exc", "trace": trace, "kbd": isinstance(e, KeyboardInterrupt)}


def _result_request(result):
    # A Pico's REPL reports a program's end whatever the heap holds: so does this, with less of
    # the traceback when the whole of it does not fit.
    try:
        return json.dumps(["vp_next", [result]])
    except MemoryError:
        pass
    _rgc.collect()
    if result and "trace" in result:
        trace = result["trace"]
        result["trace"] = trace[trace.rfind("\n", 0, len(trace) - 1) + 1:]  # the exception's line
    return json.dumps(["vp_next", [result]])


def _install(req_fd, resp_fd, kbd_fd):
    global _req, _resp, _resp_poll, _kbd, _kbd_poll
    _req = open(req_fd, "wb")
    _resp = open(resp_fd, "rb")
    _resp_poll = _rselect.poll()
    _resp_poll.register(resp_fd, _rselect.POLLIN)
    _kbd = open(kbd_fd, "rb")
    _kbd_poll = _rselect.poll()
    _kbd_poll.register(kbd_fd, _rselect.POLLIN)
    info = _call("vp_hello", (_rsys.version, _rsys.maxsize), swallow_kbd=True)
    _info.update(info)
    # The flash directory becomes the Pico's "/"; the virtual Pico's own folders stay mounted
    # beside it (the longest mount point wins) but are left out of listings of "/".
    _rvfs.umount("/")
    _rvfs.mount(_rvfs.VfsPosix(info["flash"]), "/")
    for guest, host_dir in info.get("mounts", ()):
        _rvfs.mount(_rvfs.VfsPosix(host_dir), guest, readonly=True)
    _ros.chdir("/")
    _info["hidden"] = [".vpico"] + [g.strip("/") for g, _ in info.get("mounts", ()) if g.strip("/").count("/") == 0]
    impl = info["impl"]
    impl[1] = tuple(impl[1])
    sys.implementation = _Attrs(("name", "version", "_machine", "_mpy", "_build"), impl)
    sys.version = "3.4.0; MicroPython v%s on %s" % (info["version"], info["date"])
    _info["uname"] = _Attrs(("sysname", "nodename", "release", "version", "machine"), info["uname"])
    builtins.input = _input
    builtins.print = _print_checked
    _rsys.path[:] = ["", ".frozen", "/lib"]
    for name, mod in (
        ("sys", sys),
        ("os", os),
        ("select", select),
        ("time", time),
        ("machine", machine),
        ("micropython", micropython),
        ("vfs", vfs),
    ):
        _rsys.modules[name] = mod
    return info


def main(req_fd, resp_fd, kbd_fd):
    info = _install(req_fd, resp_fd, kbd_fd)
    for path in info.get("setup", ()):
        # The setup hook (e.g. the virtual board) runs before boot.py, in its own namespace.
        r = _run({"path": path}, {"__name__": "_vpico_setup"})
        if r["status"] == "exc":
            call("vp_setup_failed", r["trace"])
    g = {"__name__": "__main__"}
    result = None
    while True:
        try:
            r = json.loads(_exchange(_result_request(result)))
        except MemoryError as e:
            # The next program did not fit in the heap as it came: its failure is its result
            result = {"status": "exc", "trace": "Traceback (most recent call last):\n  File \"<stdin>\"\nMemoryError: %s\n" % e,
                      "kbd": False}
            continue
        job = r.get("v")
        if job["op"] == "exit":
            break
        if r.get("k"):
            # A Ctrl-C that came as the program was handed over (mpremote's right after a reset).
            _kbd.read(64)
            job["kbd"] = 1
        if job.get("fresh"):
            g.clear()
            g["__name__"] = "__main__"
        result = _run(job, g)
