# The guest side of scripts/reliability/reliability_evening.py: runs under the 32-bit UNIX-port MicroPython
# with a Pico-sized heap. It formats a littlefs volume the size of a Pico's (352 blocks of 4 KB,
# rp2's progsize) on a file outside the heap, as the Pico's flash is, copies the firmware's .mpy
# files onto it, imports them from there and runs the firmware's own loop (main.App: step and
# collect_if_due, as main.run does) with the real Classifier, Buttons and Leds drivers. The host
# sends each frame's raw hall readings and button levels down stdin and gets back what the
# firmware showed and said; the dice are asked of the host.
#
#   host -> guest: F <now u32> <buttons u8> <raw 128 x u16>   one loop iteration
#                  L <len u16> <text>                         a serial line for the firmware
#                  H <len u16> <text>                         a harness command (files, measures)
#                  Q                                          stop
#   guest -> host: E<json>  serial line   L<hex> LED chain   S<row>|<row>...  screen
#                  C <n>    a collection (mem_info follows)
#                  M ...    a measure (mem_info, qstr_info follow)   . end of the answer
import gc
import sys

import micropython
import os
import vfs

BLOCK = 4096
BLOCKS = 352
STDIN = sys.stdin.buffer
OUT = sys.stdout.write


class FileFlash:
    """The flash as littlefs's block device, kept in a file (not in the heap, as on the Pico)."""

    def __init__(self, path):
        self.f = open(path, "r+b")
        self.erased = bytearray(b"\xff" * BLOCK)

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * BLOCK + off)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, off=None):
        self.f.seek(n * BLOCK + (off or 0))
        self.f.write(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 5:
            return BLOCK
        if op == 6:  # erase
            self.f.seek(arg * BLOCK)
            self.f.write(self.erased)
            return 0
        if op == 3:  # sync
            self.f.flush()
            return 0
        return 0


def read_exact(buf):
    n = STDIN.readinto(buf)
    if n is None or n <= 0:
        raise SystemExit
    if n < len(buf):
        mv = memoryview(buf)
        while n < len(buf):
            k = STDIN.readinto(mv[n:])
            if not k:
                raise SystemExit
            n += k


HDR = bytearray(1)
TWO = bytearray(2)
FRAME_HEAD = bytearray(5)


def read_text():
    read_exact(TWO)
    b = bytearray(TWO[0] | TWO[1] << 8)
    read_exact(b)
    return b.decode()


# --- the hardware around the firmware ------------------------------------------------------------
BUTTON_LEVELS = bytearray(1)  # bit i: button pin 10+i is held (reads 0)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id

    def init(self, *a, **k):
        pass

    def value(self, v=None):
        if v is not None:
            return None
        if 10 <= self.id <= 13:
            return 0 if BUTTON_LEVELS[0] >> (self.id - 10) & 1 else 1
        return 1


class NeoPixel:
    ORDER = (1, 0, 2)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.n = n
        self.buf = bytearray(3 * n)

    def __setitem__(self, i, v):
        o = 3 * i
        b = self.buf
        b[o + 1] = v[0]
        b[o] = v[1]
        b[o + 2] = v[2]

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        OUT("L")
        HEX = "0123456789abcdef"
        for x in self.buf:
            OUT(HEX[x >> 4])
            OUT(HEX[x & 15])
        OUT("\n")


class Module:
    pass


class Unused:
    """What main.py imports but the guest does not drive (the hall scan is done by the host)."""

    def __init__(self, *a, **k):
        pass

    def __setitem__(self, i, v):
        pass


machine = Module()
machine.Pin = Pin
machine.ADC = Unused
machine.I2C = Unused
machine.PWM = Unused
machine.mem32 = Unused()
neopixel = Module()
neopixel.NeoPixel = NeoPixel
sys.modules["machine"] = machine
sys.modules["neopixel"] = neopixel


class RawIn:
    """The hall scanner's answer: the raw frame the host read off the virtual board."""

    def __init__(self):
        from array import array

        self.raw = array("H", bytes(256))
        self.frames = 0

    def scan(self):
        return self.raw


class Screen:
    dirty = 0  # (drivers.oled.Oled's pages not yet sent: this one sends a screen whole)

    def lines(self, rows, inverse_row=-1, pages=8):
        OUT("S")
        for r in rows:
            OUT(r)
            OUT("\x1f")
        OUT("\n")


class Serial:
    def __init__(self):
        self.incoming = []

    def read_line(self):
        if self.incoming:
            return self.incoming.pop(0)
        return None

    def write_line(self, text):
        OUT("E")
        OUT(text)
        OUT("\n")


class SeededDice:
    """The board's dice, seeded (an LCG): the same evening every run. The opening roll is
    never a tie (as bgc.board.sim.SimDice)."""

    def __init__(self, seed):
        self.s = seed & 0x7FFFFFFF

    def die(self):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 16) % 6 + 1

    def roll(self):
        return self.die(), self.die()

    def first_roll(self):
        while True:
            a = self.die()
            b = self.die()
            if a != b:
                return a, b


# --- the flash -------------------------------------------------------------------------------------
def copy_tree(src, dst):
    for name, kind, *_ in os.ilistdir(src):
        s = src + "/" + name
        d = dst + "/" + name
        if kind == 0x4000:
            os.mkdir(d)
            copy_tree(s, d)
        else:
            fi = open(s, "rb")
            fo = open(d, "wb")
            buf = bytearray(512)
            while True:
                n = fi.readinto(buf)
                if not n:
                    break
                fo.write(buf[:n] if n < 512 else buf)
            fi.close()
            fo.close()


def statvfs_line():
    st = os.statvfs("/flash")
    return "%d %d %d" % (st[0], st[2], st[3])


def write_file(path, size, mode="wb"):
    chunk = bytearray(b"x" * 256)
    f = open(path, mode)
    try:
        while size > 0:
            f.write(chunk if size >= 256 else chunk[:size])
            size -= 256
    finally:
        f.close()


def harness(cmd):
    """A harness command (not the firmware's): prints its answer line."""
    w = cmd.split()
    if w[0] == "statvfs":
        OUT("V " + statvfs_line() + "\n")
    elif w[0] == "fill":  # fill PATH BYTES: another file on the flash (the firmware may not remove it)
        try:
            write_file(w[1], int(w[2]))
            OUT("V ok\n")
        except OSError as exc:
            OUT("V failed %s\n" % exc)
    elif w[0] == "fillup":  # fillup NAME: other files until the flash refuses one of 256 bytes
        n = 0
        for size in (65536, 4096, 256):
            while True:
                n += 1
                try:
                    write_file("/flash/%s.%d" % (w[1], n), size)
                except OSError:
                    break
        OUT("V ok\n")
    elif w[0] == "log":  # log NAME BYTES: an old match log (a settings line and notes)
        try:
            f = open("/flash/journal/" + w[1], "wb")
            f.write(w[3] + "\n")
            f.close()
            write_file("/flash/journal/" + w[1], int(w[2]), "ab")
            OUT("V ok\n")
        except OSError as exc:
            OUT("V failed %s\n" % exc)
    elif w[0] == "modules":  # the modules loaded now, one a line, then the end
        for name in sorted(sys.modules):
            OUT("V %s\n" % name)
        OUT("V end\n")
    elif w[0] == "rm":
        try:
            os.remove(w[1])
        except OSError:
            pass
        OUT("V ok\n")
    elif w[0] == "ls":  # ls DIR: name size, one a line, then the end
        try:
            for e in os.ilistdir(w[1]):
                OUT("V %s %d\n" % (e[0], e[3] if len(e) > 3 else -1))
        except OSError:
            pass
        OUT("V end\n")
    elif w[0] == "exported":  # exported NAME...: what bgc pull writes after verifying the copies
        f = open("/flash/journal/exported", "a")
        for n in w[1:]:
            f.write(n + "\n")
        f.close()
        OUT("V ok\n")
    elif w[0] == "cat":
        try:
            f = open(w[1])
            for line in f:
                OUT("V " + line.rstrip("\n") + "\n")
            f.close()
        except OSError:
            pass
        OUT("V end\n")


def measure(tag):
    OUT(tag)
    OUT("\n")
    micropython.mem_info()
    micropython.qstr_info()
    OUT("V " + statvfs_line() + "\n")


def main():
    bdev = FileFlash("flash.img")
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/flash")
    copy_tree("mpy", "/flash")
    os.mkdir("/flash/journal")
    try:
        copy_tree("calib", "/flash")
    except OSError:
        pass
    os.chdir("/flash")  # the firmware's relative paths (the calibration file) are on its flash
    sys.path[:] = ["/flash"]
    gc.collect()
    measure("M start")
    OUT(".\n")

    import main as firmware
    from companion.controller import Companion
    from companion.store import Store
    from drivers.buttons import Buttons
    from drivers.classify import Classifier
    from drivers.leds import Leds

    scanner = RawIn()
    serial = Serial()
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    companion = Companion(Store("/flash/journal"), SeededDice(seed), buzzer=False)
    app = firmware.App(companion, scanner, Classifier(), Buttons(), Leds(), Screen(), serial, None)
    raw_bytes = bytearray(256)
    collections = 0
    gc.collect()
    measure("M loaded")
    OUT(".\n")
    while True:
        read_exact(HDR)
        k = HDR[0]
        if k == 70:  # F
            read_exact(FRAME_HEAD)
            h = FRAME_HEAD
            now = h[0] | h[1] << 8 | h[2] << 16 | h[3] << 24
            BUTTON_LEVELS[0] = h[4]
            read_exact(raw_bytes)
            r = scanner.raw
            for i in range(128):
                r[i] = raw_bytes[2 * i] | raw_bytes[2 * i + 1] << 8
            app.step(now)
            app.collect_if_due()
            if app.collections != collections:
                collections = app.collections
                OUT("C %d\n" % collections)
                micropython.mem_info()
        elif k == 76:  # L
            serial.incoming.append(read_text())
        elif k == 72:  # H
            cmd = read_text()
            if cmd == "collect":
                app.collect()
                collections = app.collections
                measure("M collect")
            else:
                harness(cmd)
        elif k == 81:  # Q
            break
        OUT(".\n")


if __name__ == "__main__":
    main()
