"""The circuit of the board set as code (SKiDL, KiCad 6's own symbol libraries).

Three netlists come out of it (hardware/kicad/):

- ``sensor.net``: one sensor board. Four of them are fitted, one under each quadrant; boards under
  quadrants 2 and 3 are the boards of quadrants 0 and 1 turned by 180 degrees (hardware/README.md).
- ``main.net``: the main board (Pico, 74HC138, 74AHCT125, sensor regulator, connectors).
- ``system.net``: everything as built and wired: the main board, the four sensor boards as fitted
  for their quadrant (the tab's solder jumpers bridged, the unused tab's parts left off), the
  ribbon cables (each pin of a main-board header on one net with the same pin of its sensor board's
  header) and the parts on the frame (OLED module, buttons, piezo, two status LEDs). The tests read
  this one to check the circuit the firmware drives.

Run with the project's virtualenv: ``python hardware/gen/circuit.py`` (scripts/build/build_hardware.py
runs it). Nets are named as wiring.md, power.md and pinmap.md name them.
"""
import contextlib
import io
import logging
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import parts  # noqa: E402

OUT_DIR = os.path.join(os.path.dirname(HERE), "kicad")

# The 16 pins of the ribbon between the main board and a sensor board (2x8 IDC, odd/even).
CABLE = {1: "+3V3_SENS", 2: "GND", 3: "MUX_S0", 4: "MUX_S1", 5: "MUX_S2", 6: "MUX_S3",
         7: "MUX_EN_A", 8: "MUX_EN_B", 9: "MUX_COM", 10: "GND", 11: "+5V", 12: "GND",
         13: "LED_IN", 14: "LED_OUT", 15: "BAR_LED_IN", 16: "BAR_LED_OUT"}

# Raspberry Pi Pico pins (Pico datasheet, pinout): physical pin -> name.
PICO_PINS = {1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
             9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
             16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
             23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
             30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF",
             36: "3V3", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS"}

# Sensor board: which hall sensor (H1..H34) sits on which multiplexer (A = U1, B = U2) and
# channel. Channels 0..14: three columns of five cells per mux (channel = 5 * column + row);
# channel 15: one bar cell on each tab (left tab H31/H32, right tab H33/H34), chosen by jumpers.
def sensor_channels():
    out = []
    for i in range(30):
        out.append(("H%d" % (i + 1), "A" if i < 15 else "B", i % 15))
    out += [("H31", "A", 15), ("H32", "B", 15), ("H33", "A", 15), ("H34", "B", 15)]
    return out


TAB_SENSORS = {"L": ("H31", "H32"), "R": ("H33", "H34")}


class CircuitError(Exception):
    pass


def _skidl():
    try:
        import skidl
    except ImportError:
        raise CircuitError("skidl is not installed; run: sh scripts/bootstrap.sh test") from None
    if not os.path.isdir(parts.KICAD_SYMBOLS):
        raise CircuitError("KiCad's symbol library %s is missing; run: sh scripts/install_test_tools.sh"
                           % parts.KICAD_SYMBOLS)
    return skidl


class Builder:
    """Makes parts from parts.py keys with fixed references (no random tags: the netlists are
    the same on every run)."""

    def __init__(self, sk, prefix=""):
        self.sk = sk
        self.prefix = prefix

    def part(self, key, ref):
        sk = self.sk
        p = parts.part(key)
        full_ref = self.prefix + ref
        if p.lib is None:
            made = _pico(sk, p)
        else:
            made = sk.Part(_library(sk, p.lib), p.symbol, footprint=p.footprint, tag=full_ref)
        made.ref = full_ref
        made.value = p.value
        return made

    def between(self, key, ref, net1, net2):
        """A two-pin part (capacitor, resistor, jumper, button, 2-pin header): pin 1 on ``net1``,
        pin 2 on ``net2``."""
        made = self.part(key, ref)
        made[1] += net1
        made[2] += net2
        return made


_LIBS = {}


def _library(sk, name):
    """KiCad symbol library, parsed once (skidl otherwise searches the folders for every part).

    The netlists name each part's library by its nickname in KiCad's default symbol library
    table ("Device" for Device.kicad_sym), whatever the machine: skidl would write the path it
    was given, or, from its pickle cache in the home folder (~/.local/share/skidl), whatever
    name the run that made the cache used. So the cache is neither read nor written, and the
    nickname is set here."""
    if name not in _LIBS:
        lib = sk.SchLib(os.path.join(parts.KICAD_SYMBOLS, name + ".kicad_sym"), tool=sk.KICAD6,
                        use_pickle=False)
        lib.filename = name  # what the netlist's (libsource (lib ...)) says
        _LIBS[name] = lib
    return _LIBS[name]


def _quick_trace():
    """Where an object was made, as skidl's get_skidl_trace gives it, without inspect.stack():
    that reads the source of every frame and took most of the build's time (80 of 150 s)."""
    skidl_dir = os.path.dirname(_skidl().__file__)
    frame = sys._getframe(1)
    trace = []
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(skidl_dir) and not filename.startswith("<"):
            trace.append((filename, str(frame.f_lineno)))
        frame = frame.f_back
    return trace[::-1]


def _speed_up(sk):
    from skidl import circuit as sk_circuit
    from skidl import node as sk_node

    sk_circuit.get_skidl_trace = _quick_trace
    sk_node.get_skidl_trace = _quick_trace


def _pico(sk, p):
    types = sk.Pin.types
    pins = []
    for num, name in PICO_PINS.items():
        if name in ("GND", "AGND"):
            func = types.PWRIN
        elif name == "3V3":
            func = types.PWROUT  # the Pico's own 3.3 V regulator output (300 mA)
        elif name in ("VSYS", "VBUS"):
            func = types.PWRIN
        else:
            func = types.BIDIR
        pins.append(sk.Pin(num=str(num), name=name, func=func))
    return sk.Part(name=p.symbol, tool=sk.SKIDL, dest=sk.TEMPLATE, pins=pins, ref_prefix="U",
                   footprint=p.footprint)(tag="pico")


def _nc():
    import builtins

    return builtins.NC  # SKiDL's no-connect net of the current circuit (it lives in builtins)


def sensor_board(sk, prefix="", side=None, nets=None):
    """One sensor board; ``side`` None: the board as designed (both tabs), "L"/"R": as fitted under
    a quadrant (only that tab's bar parts, its jumpers bridged). ``nets``: the cable's nets by
    name when the board is wired to a main board (the system netlist)."""
    b = Builder(sk, prefix)
    names = sorted(set(CABLE.values()))
    if side == "R":  # the bar LED is on the left tab, cut off under quadrants 1 and 3
        names = [name for name in names if not name.startswith("BAR_LED")]
    n = dict(nets) if nets else {name: sk.Net(prefix + name) for name in names}
    vs, gnd, v5 = n["+3V3_SENS"], n["GND"], n["+5V"]
    if side is None:
        # The board's supplies arrive through J1 from the main board's regulator and jack;
        # a connector pin is passive in KiCad's library, so say here that these nets are driven.
        vs.drive = gnd.drive = v5.drive = sk.POWER
    mux = {"A": b.part("mux", "U1"), "B": b.part("mux", "U2")}
    for i, (label, m) in enumerate(sorted(mux.items())):
        m["VCC"] += vs
        m["GND"] += gnd
        for s in range(4):
            m["S%d" % s] += n["MUX_S%d" % s]
        m["~{E}"] += n["MUX_EN_" + label]
        m["COM"] += n["MUX_COM"]
        b.between("c100n", "C%d" % (35 + i), vs, gnd)
    channel_nets = {}
    unused = set(TAB_SENSORS["R" if side == "L" else "L"]) if side else set()
    for idx, (ref, label, ch) in enumerate(sensor_channels()):
        if ref in unused:
            continue
        h = b.part("hall", ref)
        h["VCC"] += vs
        h["GND"] += gnd
        b.between("c100n", "C%d" % (idx + 1), vs, gnd)
        key = (label, ch)
        if key not in channel_nets:
            channel_nets[key] = sk.Net(prefix + "MUX_%s_CH%d" % (label, ch))
            mux[label]["I%d" % ch] += channel_nets[key]
        if ch < 15:
            h["OUT"] += channel_nets[key]
        elif side is None:
            out = sk.Net(prefix + ref + "_OUT")
            h["OUT"] += out
            b.between("jumper", "JP%d" % (int(ref[1:]) - 30), out, channel_nets[key])
        else:
            h["OUT"] += channel_nets[key]  # the jumper of the tab in use, bridged
    # Six point LEDs in a chain along the rim, then the bar LED on the left tab with its own
    # input and output (it sits in the chain after all 24 point LEDs: pinmap.md's order).
    chain = n["LED_IN"]
    for i in range(6):
        d = b.part("led", "D%d" % (i + 1))
        d["VDD"] += v5
        d["VSS"] += gnd
        b.between("c100n", "C%d" % (37 + i), v5, gnd)
        d["DIN"] += chain
        chain = n["LED_OUT"] if i == 5 else sk.Net(prefix + "LED_D%d_OUT" % (i + 1))
        d["DOUT"] += chain
    if side != "R":
        d = b.part("led", "D7")
        d["VDD"] += v5
        d["VSS"] += gnd
        b.between("c100n", "C43", v5, gnd)
        d["DIN"] += n["BAR_LED_IN"]
        d["DOUT"] += n["BAR_LED_OUT"]
    b.between("c10u", "C44", vs, gnd)
    j = b.part("idc16", "J1")
    for pin, name in CABLE.items():
        if side == "R" and name.startswith("BAR_LED"):
            j[pin] += _nc()  # the bar LED sits on the left tab: a right-tab board has none to chain
        else:
            j[pin] += n[name]
    return j


def main_board(sk):
    """The main board. Returns {quadrant: its 2x8 header part} and the frame nets."""
    b = Builder(sk)
    N = {}

    def nt(name):
        if name not in N:
            N[name] = sk.Net(name)
        return N[name]

    gnd, v5, v3, vs = nt("GND"), nt("+5V"), nt("+3V3"), nt("+3V3_SENS")
    # The 5 V input is the jack (passive pins in KiCad's library): it drives +5V and GND.
    v5.drive = gnd.drive = sk.POWER
    b.between("jack", "J1", v5, gnd)
    b.between("c1000u", "C5", v5, gnd)
    pico = b.part("pico", "U1")
    for num, name in PICO_PINS.items():
        if name in ("GND", "AGND"):
            pico[str(num)] += gnd
    pico["3V3"] += v3
    vsys = nt("VSYS")
    vsys.drive = sk.POWER  # fed by the Schottky diode from +5V (a diode's pins are passive)
    pico["VSYS"] += vsys
    d = b.part("schottky", "D1")
    d["A"] += v5
    d["K"] += vsys
    # VBUS stays open: tying the 5 V input to it would back-feed a PC on USB (power.md).
    for name in ("VBUS", "RUN", "3V3_EN", "ADC_VREF", "GP0", "GP1", "GP18", "GP19", "GP20", "GP21",
                 "GP22", "GP27", "GP28"):
        pico[name] += _nc()
    signals = {"MUX_S0": "GP2", "MUX_S1": "GP3", "MUX_S2": "GP4", "MUX_S3": "GP5",
               "MUX_A0": "GP6", "MUX_A1": "GP7", "MUX_A2": "GP8", "MUX_EN": "GP9",
               "BTN_ROLL_W": "GP10", "BTN_CUBE_W": "GP11", "BTN_ROLL_B": "GP12", "BTN_CUBE_B": "GP13",
               "PIEZO": "GP14", "LED_DATA": "GP15", "I2C_SDA": "GP16", "I2C_SCL": "GP17", "ADC0": "GP26"}
    for name, gp in signals.items():
        pico[gp] += nt(name)
    # Sensor regulator (power.md): LM1085-3.3 from +5V, its own rail for sensors, muxes and 138.
    reg = b.part("regulator", "U4")
    reg["VI"] += v5
    reg["VO"] += vs
    reg["GND"] += gnd
    b.between("c10u", "C3", v5, gnd)
    b.between("c10u_tant", "C4", vs, gnd)
    # 74HC138 on the sensor rail: A0..A2, /G2A = MUX_EN (10k pull-up to the Pico's 3V3), G1 high,
    # /G2B low; output /Yn enables multiplexer n.
    dec = b.part("decoder", "U2")
    dec["VCC"] += vs
    dec["GND"] += gnd
    for i in range(3):
        dec["A%d" % i] += nt("MUX_A%d" % i)
    dec["E1"] += nt("MUX_EN")  # /G2A (74x138 E1, active low)
    dec["E2"] += gnd  # /G2B
    dec["E3"] += vs  # G1
    for i in range(8):
        dec["O%d" % i] += nt("MUX_EN%d" % i)
    b.between("c100n", "C1", vs, gnd)
    b.between("r10k", "R3", nt("MUX_EN"), v3)
    # Common line: 1k into ADC0, 100k to GND (wiring.md).
    b.between("r1k", "R1", nt("MUX_COM"), nt("ADC0"))
    b.between("r100k", "R2", nt("MUX_COM"), gnd)
    # LED data: GP15 -> 74AHCT125 gate 1 (5 V) -> 330 R -> first LED.
    buf = b.part("buffer", "U3")
    buf["14"] += v5
    buf["7"] += gnd
    buf["1"] += gnd  # /1OE: gate 1 always on
    buf["2"] += nt("LED_DATA")
    buf["3"] += nt("LED_DATA_5V")
    for oe, a, y in ((4, 5, 6), (10, 9, 8), (13, 12, 11)):
        buf[str(oe)] += gnd  # spare gates: inputs grounded, outputs open
        buf[str(a)] += gnd
        buf[str(y)] += _nc()
    b.between("c100n", "C2", v5, gnd)
    b.between("r330", "R4", nt("LED_DATA_5V"), nt("LED_DIN"))
    # Headers for the four sensor boards (J2..J5 for quadrants 0..3).
    headers = {}
    chain_in = {0: "LED_DIN", 1: "LED_Q0_OUT", 2: "LED_Q1_OUT", 3: "LED_Q2_OUT"}
    chain_out = {0: "LED_Q0_OUT", 1: "LED_Q1_OUT", 2: "LED_Q2_OUT", 3: "LED_Q3_OUT"}
    # Bar LEDs: 24 (white's half) on quadrant 2's tab, 25 (black's half) on quadrant 0's, then the
    # status LEDs on the frame.
    bar_in = {2: "LED_Q3_OUT", 0: "BAR_W_OUT"}
    bar_out = {2: "BAR_W_OUT", 0: "BAR_B_OUT"}
    for q in range(4):
        j = b.part("idc16", "J%d" % (2 + q))
        headers[q] = j
        for pin, name in CABLE.items():
            if name in ("+3V3_SENS", "GND", "+5V", "MUX_COM") or name.startswith("MUX_S"):
                j[pin] += nt(name)
            elif name == "MUX_EN_A":
                j[pin] += nt("MUX_EN%d" % (2 * q))
            elif name == "MUX_EN_B":
                j[pin] += nt("MUX_EN%d" % (2 * q + 1))
            elif name == "LED_IN":
                j[pin] += nt(chain_in[q])
            elif name == "LED_OUT":
                j[pin] += nt(chain_out[q])
            elif name == "BAR_LED_IN":  # only the boards with a bar LED (left tab) take the chain
                j[pin] += nt(bar_in[q]) if q in bar_in else _nc()
            elif name == "BAR_LED_OUT":
                j[pin] += nt(bar_out[q]) if q in bar_out else _nc()
    j = b.part("header4", "J6")  # OLED module: GND, VCC, SCL, SDA (the common module order)
    for pin, name in enumerate(("GND", "+3V3", "I2C_SCL", "I2C_SDA"), 1):
        j[pin] += nt(name)
    j = b.part("header5", "J7")  # the four buttons, each to GND
    for pin, name in enumerate(("GND", "BTN_ROLL_W", "BTN_CUBE_W", "BTN_ROLL_B", "BTN_CUBE_B"), 1):
        j[pin] += nt(name)
    b.between("r100", "R5", nt("PIEZO"), nt("PIEZO_OUT"))
    b.between("header2", "J8", nt("PIEZO_OUT"), gnd)  # piezo (optional)
    j = b.part("header3", "J9")  # status LEDs 26 and 27 on the frame
    for pin, name in enumerate(("+5V", "BAR_B_OUT", "GND"), 1):
        j[pin] += nt(name)
    return headers, N


def frame_parts(sk, N):
    """Parts on the frame, wired to J6..J9: OLED module, four buttons, piezo, status LEDs."""
    b = Builder(sk, "F_")
    gnd, v5 = N["GND"], N["+5V"]
    oled = b.part("oled", "DS1")
    for pin, name in enumerate(("GND", "+3V3", "I2C_SCL", "I2C_SDA"), 1):
        oled[pin] += N[name]
    for i, name in enumerate(("BTN_ROLL_W", "BTN_CUBE_W", "BTN_ROLL_B", "BTN_CUBE_B")):
        b.between("button", "SW%d" % (i + 1), N[name], gnd)
    bz = b.part("buzzer", "BZ1")
    bz["+"] += N["PIEZO_OUT"]
    bz["-"] += gnd
    chain = N["BAR_B_OUT"]
    for i in range(2):
        d = b.part("led", "D%d" % (i + 1))
        d["VDD"] += v5
        d["VSS"] += gnd
        b.between("c100n", "C%d" % (i + 1), v5, gnd)
        d["DIN"] += chain
        if i == 0:
            chain = sk.Net("LED_STATUS_W_OUT")
            d["DOUT"] += chain
        else:
            d["DOUT"] += _nc()  # the last LED of the chain


def _fresh(sk):
    import builtins

    builtins.default_circuit.mini_reset()  # keeps the parsed symbol libraries (reset() drops them)
    # (SKiDL's netlist writer warns "Missing tag on  instantiated at" this line: the circuit object
    # itself has no tag. Tags keep references stable between runs; Builder fixes ours. Not an ERC
    # finding: the ERC reports 0 warnings.)
    from skidl.logger import stop_log_file_output

    stop_log_file_output(True)  # no .log/.erc files in the working directory
    sk.set_default_tool(sk.KICAD6)
    if parts.KICAD_SYMBOLS not in sk.lib_search_paths[sk.KICAD6]:
        sk.lib_search_paths[sk.KICAD6].append(parts.KICAD_SYMBOLS)


def build(which):
    """Builds one circuit ("sensor", "main" or "system") in SKiDL's default circuit."""
    sk = _skidl()
    _speed_up(sk)
    _fresh(sk)
    if which == "sensor":
        sensor_board(sk)
    elif which == "main":
        main_board(sk)
    elif which == "system":
        headers, N = main_board(sk)
        for q in range(4):
            # The ribbon cable: pin n of the main board's header on the net of pin n of the board's.
            cable = {name: headers[q][pin].nets[0] for pin, name in CABLE.items()
                     if headers[q][pin].is_connected() and headers[q][pin].nets[0] is not _nc()}
            sensor_board(sk, prefix="Q%d_" % q, side="L" if q in (0, 2) else "R", nets=cable)
        frame_parts(sk, N)
    else:
        raise CircuitError("unknown circuit %r" % which)
    return sk


def erc(sk):
    """(errors, warnings) of SKiDL's ERC on the circuit just built."""
    seen = []

    class Collect(logging.Handler):
        def emit(self, record):
            seen.append((record.levelno, record.getMessage()))

    handler = Collect()
    sk.erc_logger.addHandler(handler)
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            sk.ERC()
    finally:
        sk.erc_logger.removeHandler(handler)
    errors = [m for lvl, m in seen if lvl >= logging.ERROR]
    warnings = [m for lvl, m in seen if lvl == logging.WARNING]
    return errors, warnings


def write_netlist(sk, path):
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf), contextlib.redirect_stdout(buf):
        sk.generate_netlist(file_=path, do_backup=False)  # no <script>_sklib.py beside it
    _normalise(path)


def _normalise(path):
    """Drops what changes from run to run without changing the circuit (date, source lines)."""
    out = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    skip = 0
    for i, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        s = line.strip()
        if s.startswith("(date "):
            continue
        if s == "(field" and i + 1 < len(lines) and "SKiDL Line" in lines[i + 1]:
            skip = 1
            nxt = lines[i + 1]
            extra = nxt.count(")") - nxt.count("(") - 1  # closers of the enclosing lists
            out[-1] += ")" * extra
            continue
        if s.startswith("(source "):
            line = line[:line.index("(source")] + '(source "hardware/gen/circuit.py")'
        out.append(line)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


CIRCUITS = ("sensor", "main", "system")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out_dir = argv[0] if argv else OUT_DIR
    os.makedirs(out_dir, exist_ok=True)
    try:
        for which in CIRCUITS:
            sk = build(which)
            errors, warnings = erc(sk)
            if errors:
                print("circuit.py: ERC of %s: %d errors\n%s" % (which, len(errors), "\n".join(errors)),
                      file=sys.stderr)
                return 1
            for w in warnings:
                print("  " + w)
            write_netlist(sk, os.path.join(out_dir, which + ".net"))
            if which != "system":
                with open(os.path.join(out_dir, which + "-schematic.svg"), "w", encoding="utf-8") as f:
                    f.write(schematic_svg("%s board" % which))
            print("%s: ERC 0 errors, %d warnings; %s.net" % (which, len(warnings), which))
    except (CircuitError, parts.UnknownPart) as e:
        print("circuit.py: %s" % e, file=sys.stderr)
        return 2
    return 0



# ------------------------------------------------------------------ the schematic picture

def schematic_svg(title):
    """A net-label schematic of the circuit just built: every part a box with its pins (number,
    name) and on each pin the name of its net, as KiCad's global labels join pins by name.
    Parts are grouped by reference prefix and laid out in rows."""
    import builtins

    circuit = builtins.default_circuit
    items = sorted(circuit.parts, key=lambda p: (_ref_sort(p.ref)))
    boxes = []
    for p in items:
        pins = sorted(p.pins, key=lambda q: int(q.num) if str(q.num).isdigit() else 0)
        rows = []
        for q in pins:
            nets = [n for n in q.nets if n is not _nc()] if q.is_connected() else []
            label = nets[0].name if nets else "(open)"
            rows.append((str(q.num), q.name if q.name not in ("~", "") else "", label))
        boxes.append((p.ref, p.value, p.name, rows))
    col_w, line_h, top = 250, 11, 40
    cols = 6
    out = []
    x = y = 0
    heights = []
    placed = []
    for i, (ref, value, name, rows) in enumerate(boxes):
        h = 26 + line_h * len(rows)
        if i % cols == 0 and i:
            y += max(heights) + 16
            heights = []
        x = (i % cols) * col_w
        heights.append(h)
        placed.append((x, y, h, ref, value, name, rows))
    total_h = y + (max(heights) if heights else 0) + top + 20
    out.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" '
               'font-size="9">' % (cols * col_w + 20, total_h))
    out.append('<rect width="100%" height="100%" fill="white"/>')
    out.append('<text x="10" y="20" font-size="14" font-family="sans-serif">%s: every pin with the name of its net '
               '(pins of one name are connected); generated by hardware/gen/circuit.py</text>' % _esc(title))
    for x, y, h, ref, value, name, rows in placed:
        x += 10
        y += top
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#fffbe8" stroke="#803030"/>'
                   % (x, y, col_w - 20, h))
        out.append('<text x="%d" y="%d" font-weight="bold">%s %s</text>' % (x + 4, y + 12, _esc(ref), _esc(value)))
        out.append('<text x="%d" y="%d" fill="#666">%s</text>' % (x + 4, y + 22, _esc(name)))
        for j, (num, pname, label) in enumerate(rows):
            ty = y + 34 + j * line_h
            out.append('<text x="%d" y="%d">%3s %-9s</text>' % (x + 4, ty, _esc(num), _esc(pname[:9])))
            out.append('<text x="%d" y="%d" fill="#1a4fa0">%s</text>' % (x + 95, ty, _esc(label)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _ref_sort(ref):
    import re

    m = re.match(r"([A-Za-z_]*?)(\d+)$", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


if __name__ == "__main__":
    sys.exit(main())
