"""The board set as code (issue 19): SKiDL's ERC, the generated netlists checked against the
firmware's pin map and hardware/geometry.json, the sensors' places on the board, KiCad's own DRC,
and the committed outputs being the ones the code makes.

The references are independent of hardware/gen: KiCad's symbol library names the pins of the
multiplexer and the decoder, the Raspberry Pi Pico datasheet's pinout (below) names the Pico's,
firmware/drivers/pinmap.py and geometry.json say what the firmware expects, KiCad's DRC judges the
boards. CI installs skidl (the test extra) and KiCad (scripts/install_test_tools.sh); without them
these tests skip and say so.
"""
import filecmp
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "hardware", "gen")
KICAD_DIR = os.path.join(ROOT, "hardware", "kicad")
SYMBOLS = "/usr/share/kicad/symbols"
KICAD_PY = "/usr/bin/python3"
sys.path.insert(0, GEN)
sys.path.insert(0, os.path.join(ROOT, "firmware"))

import layout  # noqa: E402
import netlist  # noqa: E402
from drivers import pinmap  # noqa: E402

from bgc.board import hwdraw  # noqa: E402

HAVE_SKIDL = importlib.util.find_spec("skidl") is not None  # (importing it starts log files)


def _have_pcbnew():
    try:
        return subprocess.run([KICAD_PY, "-c", "import pcbnew"], capture_output=True).returncode == 0
    except OSError:
        return False


HAVE_KICAD = os.path.isdir(SYMBOLS) and _have_pcbnew()
needs_skidl = pytest.mark.skipif(not (HAVE_SKIDL and os.path.isdir(SYMBOLS)),
                                 reason="skidl or KiCad's symbols missing (sh scripts/bootstrap.sh test installs them)")
needs_kicad = pytest.mark.skipif(not HAVE_KICAD,
                                 reason="KiCad 6 missing (sh scripts/install_test_tools.sh installs it)")

# Raspberry Pi Pico datasheet, pinout: physical pin -> GPIO (the other pins are GND/power/RUN).
PICO_GPIO = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9, 14: 10, 15: 11, 16: 12,
             17: 13, 19: 14, 20: 15, 21: 16, 22: 17, 24: 18, 25: 19, 26: 20, 27: 21, 29: 22, 31: 26,
             32: 27, 34: 28}
PICO_3V3_OUT = "36"


def symbol_pins(lib, name):
    """{pin name: pin number} of a symbol in KiCad's own library file."""
    with open(os.path.join(SYMBOLS, lib + ".kicad_sym"), encoding="utf-8") as f:
        text = f.read()
    start = text.index('(symbol "%s"' % name)
    nxt = re.compile(r'\n  \(symbol "').search(text, start + 1)
    block = text[start:nxt.start() if nxt else len(text)]
    return {m.group(1): m.group(2) for m in
            re.finditer(r'\(name "([^"]*)".*?\)\s*\)\s*\(number "([^"]*)"', block, re.S)}


@pytest.fixture(scope="module")
def system():
    return netlist.load(os.path.join(KICAD_DIR, "system.net"))


@pytest.fixture(scope="module")
def sensor_pcb():
    return netlist.load_pcb(os.path.join(KICAD_DIR, "sensor.kicad_pcb"))


@pytest.fixture(scope="module")
def geometry():
    return hwdraw.load()


def nets_of(nl, ref):
    return {pin: name for (r, pin), name in nl.pin_net.items() if r == ref}


# ------------------------------------------------------------------ the schematic as code

@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    out = tmp_path_factory.mktemp("nets")
    r = subprocess.run([sys.executable, os.path.join(GEN, "circuit.py"), str(out)], capture_output=True, text=True)
    return r, out


@needs_skidl
def test_skidl_erc_has_no_errors_and_no_warnings(regenerated):
    r, _ = regenerated
    assert r.returncode == 0, r.stderr[-2000:]
    for which in ("sensor", "main", "system"):
        assert "%s: ERC 0 errors, 0 warnings" % which in r.stdout


@needs_skidl
def test_erc_reports_two_outputs_driving_one_net():
    """The ERC as circuit.py runs it does see a fault: two sensor outputs tied together."""
    import circuit

    sk = circuit.build("sensor")
    import builtins

    parts_by_ref = {p.ref: p for p in builtins.default_circuit.parts}
    bad = sk.Net("SHORT")
    bad += parts_by_ref["H1"]["OUT"], parts_by_ref["H2"]["OUT"]
    errors, _ = circuit.erc(sk)
    assert errors


@needs_skidl
def test_committed_netlists_are_the_generated_ones(regenerated):
    _, out = regenerated
    for name in ("sensor.net", "main.net", "system.net", "sensor-schematic.svg", "main-schematic.svg"):
        assert filecmp.cmp(os.path.join(out, name), os.path.join(KICAD_DIR, name), shallow=False), (
            "%s is out of date: run .venv/bin/python scripts/build_hardware.py" % name)


def test_no_net_has_a_single_pin():
    for name in ("sensor.net", "main.net", "system.net"):
        nl = netlist.load(os.path.join(KICAD_DIR, name))
        single = [n for n, nodes in nl.nets.items() if len(nodes) < 2]
        assert not single, (name, single)


# ------------------------------------------------------------------ the circuit the firmware drives

def _mux_and_decoder_pins():
    if not os.path.isdir(SYMBOLS):
        pytest.skip("KiCad's symbol library missing (sh scripts/install_test_tools.sh installs it)")
    return symbol_pins("74xx", "CD74HC4067M"), symbol_pins("74xx", "74LS138")


def test_every_sensor_reaches_the_mux_and_channel_of_its_cell(system, sensor_pcb, geometry):
    mux_pins, dec_pins = _mux_and_decoder_pins()
    channel_of_pin = {num: int(name[1:]) for name, num in mux_pins.items() if re.fullmatch(r"I\d+", name)}
    # Which decoder output (= which multiplexer) enables each multiplexer: its /E net.
    dec = {num: name for name, num in dec_pins.items()}
    decoder_ref = [r for r, c in system.components.items() if c["part"] == "74LS138"]
    assert len(decoder_ref) == 1
    mux_number = {}
    for ref, comp in system.components.items():
        if comp["part"] == "CD74HC4067M":
            en_net = system.pin_net[(ref, mux_pins["~{E}"])]
            outs = [dec[pin] for (r, pin) in system.nets[en_net] if r == decoder_ref[0]]
            assert len(outs) == 1 and outs[0].startswith("O"), (ref, outs)
            mux_number[ref] = int(outs[0][1:])
    assert sorted(mux_number.values()) == list(range(8))
    cells = {(c["x"], c["y"]): c for c in geometry["cells"]}
    seen = {}
    for ref, comp in system.components.items():
        if comp["part"] != "DRV5055A1xDBZxQ1":
            continue
        q, local = ref.split("_", 1)
        q = int(q[1:])
        x, y = layout.to_surface(q, *sensor_pcb[local]["at"])
        (cx, cy), cell = min(cells.items(), key=lambda kv: (kv[0][0] - x) ** 2 + (kv[0][1] - y) ** 2)
        assert (cx - x) ** 2 + (cy - y) ** 2 <= 0.25, (ref, x, y)
        out = system.pin_net[(ref, "2")]  # DRV5055 SOT-23: pin 2 is OUT
        mux_nodes = [(r, p) for (r, p) in system.nets[out] if r in mux_number]
        assert len(mux_nodes) == 1, (ref, system.nets[out])
        mux_ref, pin = mux_nodes[0]
        assert (mux_number[mux_ref], channel_of_pin[pin]) == (cell["mux"], cell["channel"]), (ref, cell)
        seen[cell["cell"]] = ref
    assert sorted(seen) == list(range(128))


def test_firmware_signals_sit_on_the_pico_pins_of_pinmap(system):
    mux_pins, dec_pins = _mux_and_decoder_pins()
    pico = [r for r, c in system.components.items() if c["part"] == "RaspberryPi_Pico"]
    assert len(pico) == 1
    net_at_gpio = {gpio: system.pin_net.get((pico[0], str(pin))) for pin, gpio in PICO_GPIO.items()}
    muxes = [r for r, c in system.components.items() if c["part"] == "CD74HC4067M"]
    decoder = [r for r, c in system.components.items() if c["part"] == "74LS138"][0]

    def reaches(gpio, ref, pin):
        net = net_at_gpio[gpio]
        return net is not None and (ref, pin) in system.nets[net]

    for s in range(4):
        for m in muxes:
            assert reaches(pinmap.PINS["MUX_S%d" % s], m, mux_pins["S%d" % s]), (s, m)
    for a in range(3):
        assert reaches(pinmap.PINS["MUX_A%d" % a], decoder, dec_pins["A%d" % a])
    assert reaches(pinmap.PINS["MUX_EN"], decoder, dec_pins["E1"])  # 74x138 E1 = /G2A
    # ADC0: through 1 k to the common line of all eight multiplexers.
    adc = net_at_gpio[pinmap.PINS["ADC0"]]
    series = [r for (r, p) in system.nets[adc] if system.components[r]["value"] == "1k"]
    assert len(series) == 1
    other = [n for (r, p), n in system.pin_net.items() if r == series[0] and n != adc][0]
    assert set(muxes) == {r for (r, p) in system.nets[other] if r in muxes and p == mux_pins["COM"]}
    # ... and 100 k from the common line to GND: an unselected line reads 0 V.
    pulldown = [r for (r, p) in system.nets[other] if system.components[r]["value"] == "100k"]
    assert len(pulldown) == 1 and set(nets_of(system, pulldown[0]).values()) == {other, "GND"}
    # LED data: the buffer's input, its output through 330 R to the first LED of the chain.
    led = net_at_gpio[pinmap.PINS["LED_DATA"]]
    buffer = [r for (r, p) in system.nets[led] if system.components[r]["part"] == "74LS125"]
    assert buffer == [r for r, c in system.components.items() if c["part"] == "74LS125"]
    # I2C and buttons reach the frame's OLED header and buttons.
    assert ("F_DS1", "4") in system.nets[net_at_gpio[pinmap.PINS["I2C_SDA"]]]
    assert ("F_DS1", "3") in system.nets[net_at_gpio[pinmap.PINS["I2C_SCL"]]]
    for i, name in enumerate(("BTN_ROLL_W", "BTN_CUBE_W", "BTN_ROLL_B", "BTN_CUBE_B")):
        assert ("F_SW%d" % (i + 1), "1") in system.nets[net_at_gpio[pinmap.PINS[name]]], name


def test_the_led_chain_runs_in_pinmap_order(system, geometry):
    """From GP15 through the buffer and every LED's DOUT -> DIN: the LED of point 1 first, then
    points 2..24, the bar LEDs (white's half, black's half), then the two status LEDs."""
    leds = {r for r, c in system.components.items() if c["part"] == "WS2812B"}
    assert len(leds) == pinmap.N_LEDS
    net = system.pin_net[("U3", "3")]  # buffer gate 1 output
    net = [n for (r, p), n in system.pin_net.items() if r == "R4" and n != net][0]
    order = []
    while True:
        nxt = [r for (r, p) in system.nets[net] if r in leds and p == "4"]  # WS2812B DIN
        if not nxt:
            break
        order.append(nxt[0])
        net = system.pin_net.get((nxt[0], "2"))  # DOUT
        if net is None:
            break
    assert len(order) == pinmap.N_LEDS
    # Where each LED of the chain sits on the playing surface, against geometry.json's LEDs.
    sensor = netlist.load_pcb(os.path.join(KICAD_DIR, "sensor.kicad_pcb"))
    for index, ref in enumerate(order[:26]):
        q, local = ref.split("_", 1)
        x, y = layout.to_surface(int(q[1:]), *sensor[local]["at"])
        led = geometry["leds"][index]
        assert abs(led["x"] - x) <= 0.5 and abs(led["y"] - y) <= 0.5, (index, ref, x, y, led)


def test_every_sensor_and_mux_has_its_own_100nf(sensor_pcb):
    nl = netlist.load(os.path.join(KICAD_DIR, "sensor.net"))
    caps = {r: sensor_pcb[r] for r, c in nl.components.items() if c["value"].startswith("100nF")}
    used = set()
    for ref, comp in nl.components.items():
        if comp["part"] not in ("DRV5055A1xDBZxQ1", "CD74HC4067M"):
            continue
        rail = {sensor_pcb[ref]["pads"][p] for p in (("1", "3") if ref.startswith("H") else ("24", "12"))}
        x, y = sensor_pcb[ref]["at"]
        near = [c for c, fp in caps.items() if c not in used and set(fp["pads"].values()) == rail
                and abs(fp["at"][0] - x) + abs(fp["at"][1] - y) <= 12.0]
        assert near, "%s has no 100 nF of its own across %s" % (ref, sorted(rail))
        used.add(min(near, key=lambda c: abs(caps[c]["at"][0] - x) + abs(caps[c]["at"][1] - y)))


def test_the_sensor_rail_is_its_own_regulator(system):
    """power.md: the sensors and multiplexers run from their own 3.3 V regulator, not the Pico's."""
    reg = [r for r, c in system.components.items() if c["part"] == "LM1085-3.3"]
    assert len(reg) == 1
    rail = system.pin_net[(reg[0], "2")]  # LM1085 VO
    pico = [r for r, c in system.components.items() if c["part"] == "RaspberryPi_Pico"][0]
    assert (pico, PICO_3V3_OUT) not in system.nets[rail]
    for ref, comp in system.components.items():
        if comp["part"] == "DRV5055A1xDBZxQ1":
            assert system.pin_net[(ref, "1")] == rail, ref
        if comp["part"] == "CD74HC4067M":
            assert system.pin_net[(ref, "24")] == rail, ref


# ------------------------------------------------------------------ the boards

def test_every_sensor_lies_on_its_cell(sensor_pcb, geometry):
    cells = [(c["x"], c["y"]) for c in geometry["cells"]]
    worst = 0.0
    for q, (_, _, _, side) in layout.SENSOR_PLACEMENT.items():
        unused = ("H33", "H34") if side == "L" else ("H31", "H32")
        for ref, fp in sensor_pcb.items():
            if re.fullmatch(r"H\d+", ref) and ref not in unused:
                x, y = layout.to_surface(q, *fp["at"])
                d = min(((cx - x) ** 2 + (cy - y) ** 2) ** 0.5 for cx, cy in cells)
                worst = max(worst, d)
    assert worst <= 0.5


def test_boards_implement_their_netlists():
    for name in layout.BOARDS:
        nl = netlist.load(os.path.join(KICAD_DIR, name + ".net"))
        pcb = netlist.load_pcb(os.path.join(KICAD_DIR, name + ".kicad_pcb"))
        for (ref, pin), net in nl.pin_net.items():
            assert pcb[ref]["pads"].get(pin) == net, (name, ref, pin, net)


def drc(board, tmp_path):
    path = tmp_path / (board + ".kicad_pcb")
    shutil.copy(os.path.join(KICAD_DIR, board + ".kicad_pcb"), path)
    r = subprocess.run([KICAD_PY, os.path.join(GEN, "fab.py"), "drc", str(path)], capture_output=True, text=True)
    report = (tmp_path / (board + ".kicad_pcb.drc.txt")).read_text()
    return r, report


@needs_kicad
def test_kicad_drc_finds_no_violation_and_no_unconnected_pad_on_the_main_board(tmp_path):
    r, report = drc("main", tmp_path)
    assert "0 DRC violations (0 errors), 0 unconnected pads" in r.stdout, (r.stdout, report[:3000])
    assert r.returncode == 0


@needs_kicad
def test_kicad_drc_of_the_sensor_board_finds_no_error_and_no_unconnected_pad(tmp_path):
    """NOT yet 0 violations: the fan-out stubs that a route joined part-way leave a short dangling
    end each, which KiCad reports as warnings (track_dangling). No error, nothing unconnected,
    no other kind of finding."""
    r, report = drc("sensor", tmp_path)
    assert "0 unconnected pads" in r.stdout, (r.stdout, report[:3000])
    kinds = set(re.findall(r"^\[(\w+)\]", report, re.M))
    assert kinds <= {"track_dangling"}, report[:3000]
    assert "Severity: error" not in report


@needs_kicad
def test_committed_fabrication_outputs_are_the_ones_the_boards_make(tmp_path):
    fab, pictures = tmp_path / "fab", tmp_path / "pictures"
    r = subprocess.run([KICAD_PY, os.path.join(GEN, "fab.py"), "outputs", str(fab), str(pictures)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    for made_dir, committed_dir in ((fab, os.path.join(ROOT, "hardware", "fab")),
                                    (pictures, os.path.join(ROOT, "hardware", "pictures"))):
        for dirpath, _, files in os.walk(made_dir):
            for name in files:
                made = os.path.join(dirpath, name)
                committed = os.path.join(committed_dir, os.path.relpath(made, made_dir))
                assert os.path.exists(committed), committed
                assert filecmp.cmp(made, committed, shallow=False), (
                    "%s is out of date: run .venv/bin/python scripts/build_hardware.py --no-route" % committed)


def test_committed_cost_estimate_is_up_to_date():
    import cost

    with open(os.path.join(ROOT, "hardware", "cost.md"), encoding="utf-8") as f:
        assert f.read() == cost.markdown(), "run: python hardware/gen/cost.py"


# ------------------------------------------------------------------ errors a builder can meet

def run_build(*args, env=None):
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "build_hardware.py"), *args],
                          capture_output=True, text=True, env=env)


@needs_skidl
def test_missing_kicad_is_one_line_with_a_hint():
    env = dict(os.environ, BGC_KICAD_PYTHON="/nonexistent/python3")
    r = run_build(env=env)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("build_hardware: ") and "install_test_tools" in lines[0]


def test_broken_geometry_is_one_clear_error(tmp_path):
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import build_hardware

    bad = tmp_path / "geometry.json"
    bad.write_text('{"board": {}, "cells": [], "leds": []}')
    with pytest.raises(build_hardware.BuildError, match="geometry.json: board has no number 'width'"):
        build_hardware.check_sensor_positions(str(bad))


def test_unknown_part_names_the_part_and_the_known_ones():
    import parts

    with pytest.raises(parts.UnknownPart) as e:
        parts.part("flux_capacitor")
    assert "flux_capacitor" in str(e.value) and "hall" in str(e.value)
