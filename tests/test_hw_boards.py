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
    """circuit.py's outputs as a new machine makes them: a fresh, empty home folder (no KiCad
    user configuration, no skidl cache or settings), no KiCad or XDG variables, run from an
    empty folder."""
    out = tmp_path_factory.mktemp("nets")
    home = tmp_path_factory.mktemp("home")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KICAD", "XDG_", "SKIDL"))}
    env["HOME"] = str(home)
    r = subprocess.run([sys.executable, os.path.join(GEN, "circuit.py"), str(out)], capture_output=True,
                       text=True, env=env, cwd=str(home))
    return r, out


@needs_skidl
def test_skidl_erc_has_no_errors_and_no_warnings(regenerated):
    r, _ = regenerated
    assert r.returncode == 0, r.stderr[-2000:]
    for which in ("sensor", "main", "system"):
        assert "%s: ERC 0 errors, 0 warnings" % which in r.stdout


@needs_skidl
def test_erc_reports_two_outputs_driving_one_net(tmp_path):
    """The ERC as circuit.py runs it does see a fault: two sensor outputs tied together. (In a
    process of its own: SKiDL keeps the KiCad libraries it read, ~500,000 objects that every later
    collection of a test worker would walk.)"""
    script = """
import builtins
import circuit
sk = circuit.build("sensor")
parts_by_ref = {p.ref: p for p in builtins.default_circuit.parts}
bad = sk.Net("SHORT")
bad += parts_by_ref["H1"]["OUT"], parts_by_ref["H2"]["OUT"]
errors, _ = circuit.erc(sk)
print("ERRORS", len(errors))
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=str(tmp_path),
                       env=dict(os.environ, PYTHONPATH=GEN))
    line = [x for x in r.stdout.splitlines() if x.startswith("ERRORS ")]
    assert r.returncode == 0 and line, r.stderr[-2000:]
    assert int(line[-1].split()[1]) > 0


@needs_skidl
def test_committed_netlists_are_the_generated_ones(regenerated):
    _, out = regenerated
    for name in ("sensor.net", "main.net", "system.net", "sensor-schematic.svg", "main-schematic.svg"):
        assert filecmp.cmp(os.path.join(out, name), os.path.join(KICAD_DIR, name), shallow=False), (
            "%s is out of date: run .venv/bin/python scripts/build/build_hardware.py" % name)


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


def _wiring_tables():
    with open(os.path.join(ROOT, "hardware", "wiring.md"), encoding="utf-8") as f:
        text = f.read()
    cable = {}
    for m in re.finditer(r"^\| (\d+) \| ([^|]+) \| (\d+) \| ([^|]+) \|$", text, re.M):
        for pin, what in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
            cable[pin] = re.match(r"[+\w]+", what.strip()).group(0)
    headers = {}
    for m in re.finditer(r"^\| (J\d+) [^|]*\| ([^|]+) \|$", text, re.M):
        pins = dict(re.findall(r"(?:^|, )(\d+) ([+\w]+)", m.group(2).strip()))
        if "1" in pins:  # a pin list (the jack's row is prose)
            headers[m.group(1)] = pins
    return cable, headers


def test_the_cables_and_headers_of_wiring_md_are_the_netlists():
    """wiring.md's ribbon-cable table is sensor board J1's pins in sensor.net, and main board
    J2..J5 carry the same nets pin for pin (the board's mux enables as the decoder's outputs
    2q, 2q+1); its header table is main.net's J6..J9."""
    cable, headers = _wiring_tables()
    assert sorted(cable, key=int) == [str(n) for n in range(1, 17)]
    sensor = netlist.load(os.path.join(KICAD_DIR, "sensor.net"))
    main = netlist.load(os.path.join(KICAD_DIR, "main.net"))
    assert nets_of(sensor, "J1") == cable
    chain_in = ("LED_DIN", "LED_Q0_OUT", "LED_Q1_OUT", "LED_Q2_OUT")
    for q in range(4):
        on_main = nets_of(main, "J%d" % (2 + q))
        for pin, net in cable.items():
            want = {"MUX_EN_A": "MUX_EN%d" % (2 * q), "MUX_EN_B": "MUX_EN%d" % (2 * q + 1),
                    "LED_IN": chain_in[q], "LED_OUT": "LED_Q%d_OUT" % q}.get(net, net)
            if net.startswith("BAR_LED"):
                continue  # only quadrants 0 and 2 chain a bar LED (the tests of the LED chain)
            assert on_main.get(pin) == want, (q, pin, net, on_main.get(pin))
    assert sorted(headers) == ["J6", "J7", "J8", "J9"]
    for ref, pins in headers.items():
        assert nets_of(main, ref) == pins, ref


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
@pytest.mark.parametrize("board", sorted(layout.BOARDS))
def test_kicad_drc_finds_no_violation_and_no_unconnected_pad(board, tmp_path):
    """KiCad's own DRC under layout.RULES: nothing at all, warnings (a dangling track end, say)
    counted as violations like errors, and every pad connected."""
    r, report = drc(board, tmp_path)
    found = {kind: int(n) for n, kind in re.findall(r"\*\* Found (\d+) (DRC violations|unconnected pads) \*\*", report)}
    findings = re.findall(r"^\[(\w+)\]: .*\n.*Severity: (\w+)", report, re.M)
    assert found == {"DRC violations": 0, "unconnected pads": 0} and not findings, report[:3000]
    assert r.returncode == 0, r.stdout


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
                    "%s is out of date: run .venv/bin/python scripts/build/build_hardware.py --no-route" % committed)


def test_every_price_has_its_source_and_date():
    """Issue 19: each price of the cost estimate with its source and date; a part without a
    published price has none (no made-up figure) and cost.md says so on its line."""
    import cost
    import parts

    items, extras = cost.rows()
    for what, _, n, price in items + extras:
        if price is None:
            continue
        assert price.amount > 0 and price.currency and price.source, what
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", price.date), (what, price.date)
    text = cost.markdown()
    unpriced = [what for what, _, _, price in items + extras if price is None]
    assert text.count("no published price found (searched %s)" % parts.LOOKED_UP) == len(unpriced)
    assert "(an estimate)" in text


def test_committed_cost_estimate_is_up_to_date():
    import cost

    with open(os.path.join(ROOT, "hardware", "cost.md"), encoding="utf-8") as f:
        assert f.read() == cost.markdown(), "run: python hardware/gen/cost.py"


# ------------------------------------------------------------------ errors a builder can meet

def run_build(*args, env=None):
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "build", "build_hardware.py"), *args],
                          capture_output=True, text=True, env=env)


@needs_skidl
def test_missing_kicad_is_one_line_with_a_hint():
    env = dict(os.environ, BGC_KICAD_PYTHON="/nonexistent/python3")
    r = run_build(env=env)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("build_hardware: ") and "install_test_tools" in lines[0]


@pytest.mark.parametrize("text, says", [
    ('{"board": {}, "cells": [], "leds": []}', "board has no number 'width'"),
    ('{"board": {"width": 612', "Expecting"),
])
def test_broken_geometry_stops_the_build_at_once_with_one_line(tmp_path, text, says):
    bad = tmp_path / "geometry.json"
    bad.write_text(text)
    r = run_build("--geometry", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("build_hardware: ") and says in lines[0], r.stderr
    assert "regenerate it with: bgc draw-board" in lines[0]
    assert r.stdout == ""  # nothing built before the check


def test_a_part_missing_from_parts_py_is_one_line_naming_it(tmp_path):
    """cost.py on a system netlist with a part parts.py does not know (here the hall sensor's
    value changed): one line naming the part and where to add it, no cost.md written."""
    with open(os.path.join(KICAD_DIR, "system.net"), encoding="utf-8") as f:
        text = f.read()
    net = tmp_path / "system.net"
    net.write_text(text.replace('(value "DRV5055A1QDBZR")', '(value "SS49E")'))
    out = tmp_path / "cost.md"
    r = subprocess.run([sys.executable, os.path.join(GEN, "cost.py"), str(out), str(net)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "SS49E" in lines[0] and "hardware/gen/parts.py" in lines[0], r.stderr
    assert not out.exists()


def test_unknown_part_names_the_part_and_the_known_ones():
    import parts

    with pytest.raises(parts.UnknownPart) as e:
        parts.part("flux_capacitor")
    assert "flux_capacitor" in str(e.value) and "hall" in str(e.value)
