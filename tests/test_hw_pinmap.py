"""hardware/ and firmware/drivers/pinmap.py describe the same board."""
import json
import os
import re

from drivers import pinmap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hardware")


def pin_table():
    """Rows of the table in hardware/pinmap.md whose second column is a GPn name."""
    rows = {}
    with open(os.path.join(HW, "pinmap.md")) as f:
        for line in f:
            cols = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
            if len(cols) >= 3 and re.fullmatch(r"GP\d+", cols[1]):
                assert cols[0] not in rows, "signal %s listed twice" % cols[0]
                rows[cols[0]] = int(cols[1][2:])
    return rows


def test_pinmap_md_equals_firmware_pin_map():
    assert pin_table() == pinmap.PINS


def test_pin_constants_agree_with_table():
    p = pinmap.PINS
    assert [p["MUX_S%d" % i] for i in range(4)] == list(range(pinmap.MUX_S0, pinmap.MUX_S0 + 4))
    assert [p["MUX_A%d" % i] for i in range(3)] == list(range(pinmap.MUX_A0, pinmap.MUX_A0 + 3))
    assert p["MUX_EN"] == pinmap.MUX_EN and p["ADC0"] == pinmap.ADC_PIN == 26
    assert p["LED_DATA"] == pinmap.LED_DATA
    assert (p["I2C_SDA"], p["I2C_SCL"]) == (pinmap.I2C_SDA, pinmap.I2C_SCL)
    assert pinmap.BUTTON_PINS == (p["BTN_ROLL_W"], p["BTN_CUBE_W"], p["BTN_ROLL_B"], p["BTN_CUBE_B"])


def test_select_lines_are_one_consecutive_field():
    # One SIO register write moves the address only if S0..S3, A0..A2 are consecutive GPIOs.
    p = pinmap.PINS
    field = [p[n] for n in ("MUX_S0", "MUX_S1", "MUX_S2", "MUX_S3", "MUX_A0", "MUX_A1", "MUX_A2")]
    assert field == list(range(pinmap.MUX_ADDR_SHIFT, pinmap.MUX_ADDR_SHIFT + pinmap.MUX_ADDR_BITS))


def test_pins_are_usable_rp2040_gpios_and_distinct():
    gpios = list(pinmap.PINS.values())
    assert len(set(gpios)) == len(gpios)
    for g in gpios:
        assert 0 <= g <= 22 or 26 <= g <= 28, g  # GP23-25 and GP29 are used by the Pico board itself
    assert pinmap.I2C_SDA % 4 == 0 and pinmap.I2C_SCL % 4 == 1  # valid I2C0 pins


def test_cell_slot_mapping_is_a_bijection():
    slots = [pinmap.cell_of_slot(s) for s in range(128)]
    assert sorted(slots) == list(range(128))
    for c in range(128):
        assert pinmap.cell_of_slot(pinmap.slot_of_cell(c)) == c


def test_geometry_file_matches_pin_map_and_board():
    with open(os.path.join(HW, "geometry.json")) as f:
        geo = json.load(f)
    cells = geo["cells"]
    assert [c["cell"] for c in cells] == list(range(128))
    for c in cells:
        assert pinmap.cell_of_slot(c["mux"] * 16 + c["channel"]) == c["cell"]
        assert pinmap.point_of_cell(c["cell"]) == c["point"]
    b = geo["board"]
    # Every cell is on the playing surface, and no two sensors are closer than a checker's width.
    for c in cells:
        assert 0 < c["x"] < b["width"] and 0 < c["y"] < b["height"]
    for i, a in enumerate(cells):
        for c in cells[i + 1:]:
            d = ((a["x"] - c["x"]) ** 2 + (a["y"] - c["y"]) ** 2) ** 0.5
            assert d >= b["checker_diameter"] - 1e-6, (a["cell"], c["cell"], d)
    # 5 cells per point, 4 per colour on the bar
    for p in range(1, 25):
        assert sum(1 for c in cells if c["kind"] == "point" and c["point"] == p) == 5
    assert sum(1 for c in cells if c["kind"] == "bar" and c["colour"] == "white") == 4
    assert len(geo["leds"]) == pinmap.N_LEDS


def test_geometry_file_is_generated_from_the_pin_map():
    from bgc.board import hwdraw

    with open(os.path.join(HW, "geometry.json")) as f:
        assert f.read() == hwdraw.geometry_json(), "run: bgc draw-board --write-geometry"


def test_committed_svg_is_up_to_date(tmp_path):
    from bgc import cli

    out = tmp_path / "board.svg"
    assert cli.main(["draw-board", "-o", str(out)]) == 0
    with open(os.path.join(HW, "board.svg")) as f:
        assert f.read() == out.read_text(), "hardware/board.svg is stale: run bgc draw-board"
    svg = out.read_text()
    assert svg.count("<circle") == 128 and "M7.15" in svg


def test_draw_board_reports_bad_geometry(tmp_path, capsys):
    from bgc import cli

    bad = tmp_path / "g.json"
    bad.write_text("{not json")
    assert cli.main(["draw-board", "--geometry", str(bad), "-o", str(tmp_path / "x.svg")]) == 2
    assert "cannot read geometry" in capsys.readouterr().err
