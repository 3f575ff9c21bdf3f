"""The two loops that run every frame, compiled to machine code with MicroPython's viper emitter.

``scan_frame`` drives the RP2040's SIO and ADC registers directly (rp2 port only); ``classify_frame``
is the classifier's per-cell loop over its arrays. On a Pico they take a fraction of the bytecode
versions' time (docs/performance.md: scan + classify of 128 cells within 3 ms).

The viper code is a source string compiled when this module is imported, by the emitter of the
MicroPython that runs it (the Pico's Thumb emitter, the UNIX port's x86 one): so this file, like
every firmware file, compiles with a plain ``mpy-cross`` (no ``-march``), and one .mpy serves any
port. A MicroPython without an emitter raises SyntaxError at import, and drivers.classify /
drivers.hall keep their bytecode loops. Under CPython the decorator and the pointer casts are
plain functions, so the same code runs there.
"""
import sys

if sys.implementation.name != "micropython":
    class micropython:  # CPython: the decorator and the pointer casts degrade to plain Python
        @staticmethod
        def viper(f):
            return f

    def _cast(x):
        return x

    ptr8 = ptr16 = ptr32 = _cast

    def const(x):  # type: ignore[misc]  # same behaviour, looser signature than the stub
        return x
else:
    from micropython import const

# Bound by the exec below (named here for the type checker).
scan_frame = classify_frame = None

_SOURCE = '''
# RP2040 registers (datasheet 2.3.1.7 SIO, 4.9.6 ADC)
_SIO_OUT_SET = const(0xD0000014)
_SIO_OUT_CLR = const(0xD0000018)
_ADC_CS = const(0x4004C000)
_ADC_RESULT = const(0x4004C004)


@micropython.viper
def scan_frame(raw, steps, cells, n: int, channel: int, settle: int):
    """One frame of the hall grid into ``raw`` (array of u16 by cell): for each step of the
    Gray-code walk (``steps``: array('i'), + to SET, - to CLR), one GPIO register write, ``settle``
    busy-loop turns for the multiplexer, one ADC conversion of ``channel`` (as ADC.read_u16 scales
    it), stored at ``cells[step]``. rp2 only: the pointers are the chip's registers."""
    out = ptr16(raw)
    st = ptr32(steps)
    ce = ptr8(cells)
    sio_set = ptr32(_SIO_OUT_SET)
    sio_clr = ptr32(_SIO_OUT_CLR)
    cs = ptr32(_ADC_CS)
    result = ptr32(_ADC_RESULT)
    v = cs[0]
    cs[0] = (v ^ (v & 0x7000)) | (channel << 12) | 1  # AINSEL, EN
    for i in range(n):
        m = st[i]
        if m > 0:
            sio_set[0] = m
        else:
            sio_clr[0] = 0 - m
        k = settle
        while k > 0:
            k -= 1
        cs[0] = cs[0] | 4  # START_ONCE; READY drops until the conversion is done
        while not (cs[0] & 0x100):
            pass
        v = result[0] & 0xFFF
        out[ce[i]] = (v << 4) | (v >> 8)


@micropython.viper
def classify_frame(raw, base16, t_empty, t_stack, t_drop, level, inst, state, count, one,
                   n: int, need: int, under_need: int) -> int:
    """The classifier's per-cell step (drivers.classify.Classifier.update_bytecode documents it;
    the two must agree): returns changed stable cells + 65536 x faulty cells."""
    r16 = ptr16(raw)
    b32 = ptr32(base16)
    te = ptr16(t_empty)
    ts = ptr16(t_stack)
    tdrop = ptr16(t_drop)
    lev = ptr16(level)
    ins = ptr8(inst)
    st = ptr8(state)
    cnt = ptr8(count)
    on = ptr8(one)
    changed = 0
    faults = 0
    for c in range(n):
        r = r16[c]
        d = 0
        if r < 1500 or r > 64000:  # FAULT_LO, FAULT_HI of drivers.classify
            s = 8  # FAULT
            faults += 1
        else:
            d = r - (b32[c] >> 4)
            s = 1  # WHITE
            if d < 0:
                d = 0 - d
                s = 2  # BLACK
            if d < te[c]:
                s = 0
            elif d >= ts[c]:
                s |= 4  # STACK
            elif on[c] == s and d + tdrop[c] < lev[c]:
                s |= 16  # UNDER
        n_ok = need
        if s >= 16:
            n_ok = under_need
        if s == ins[c]:
            k = cnt[c]
            if k < n_ok:
                k += 1
                cnt[c] = k
            if k >= n_ok and st[c] != s:
                st[c] = s
                changed += 1
        else:
            ins[c] = s
            cnt[c] = 1
            if need == 1 and s < 16 and st[c] != s:
                st[c] = s
                changed += 1
        now = st[c]
        if (now & 3) == 0 or (now & 4):
            on[c] = 0
        elif s == now and now < 4:
            # settled on one checker: follow its level as drift moves it (only readings close to it)
            if on[c] != s:
                on[c] = s
                lev[c] = d
            else:
                lv = lev[c]
                e = d - lv
                tol = tdrop[c] >> 3
                if e < tol and e > 0 - tol:
                    lev[c] = lv + (e >> 6)
    return changed + (faults << 16)
'''

exec(_SOURCE, globals())
del _SOURCE
