"""The pictures in the docs are drawn from the real thing (issue 14): scripts/build/render_board.py runs
the firmware on the virtual board and draws its LED chain and OLED pixels. Rendering them again
must give the pictures that are in docs/, pixel for pixel; when the firmware's screen or lights
change, rerun the script."""

import os
import subprocess
import sys

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "build", "render_board.py")


def test_docs_pictures_are_up_to_date(tmp_path):
    r = subprocess.run([sys.executable, SCRIPT, "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    made = [line for line in r.stdout.splitlines() if line.endswith(".png")]
    assert made, r.stdout
    stale = []
    for path in made:
        name = os.path.basename(path)
        committed = os.path.join(ROOT, "docs", name)
        assert os.path.exists(committed), "docs/%s is missing: run scripts/build/render_board.py" % name
        new, old = Image.open(path).convert("RGB"), Image.open(committed).convert("RGB")
        if new.size != old.size or new.tobytes() != old.tobytes():
            stale.append(name)
    assert not stale, "out of date in docs/ (run scripts/build/render_board.py): %s" % ", ".join(stale)


def test_board_picture_shows_the_firmware_lights_and_screen(tmp_path):
    # The picture is of the firmware's own state: its LEDs (green where 24 may go with 6-4: 18, 20,
    # 14; blue on 24) and its OLED, not text typed into the script.
    sys.path.insert(0, os.path.join(ROOT, "scripts", "build"))
    try:
        import render_board
    finally:
        sys.path.pop(0)
    from bgc.board import sim as simmod

    sim = simmod.Sim(seed=3)
    try:
        render_board.lifted_from_24(sim)
        assert sorted(simmod.lit_points(sim.board, "LEGAL")) == [14, 18, 20]
        assert simmod.lit_points(sim.board, "LIFTED") == [24]
        rows = sim.oled_rows()
        assert rows[2] == "White   dice 6-4" and rows[3] == "Pips W167 B167"
    finally:
        sim.close()
        sim.remove_flash()


def test_sensor_drawing_puts_each_point_number_beside_its_led():
    # hardware/board.svg once printed point numbers on top of the LED squares ("1[12]3"). Each
    # point's number must stand clear to the right of its LED square, on the same line, and no
    # other text may cover it.
    import xml.etree.ElementTree as ET

    from bgc.board import hwdraw

    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(hwdraw.render_svg(hwdraw.load()))
    geo = hwdraw.load()
    squares = {}
    for led in geo["leds"]:
        if led["what"].startswith("point "):
            squares[int(led["what"][6:])] = (led["x"] - 5, led["y"] - 5, led["x"] + 5, led["y"] + 5)
    numbers = {}
    for t in root.iter(ns + "text"):
        if t.get("font-weight") == "bold":
            numbers.setdefault(int(t.text), []).append((float(t.get("x")), float(t.get("y"))))
    assert sorted(numbers) == list(range(1, 25))
    for p, ((x, y),) in ((p, numbers[p]) for p in range(1, 25)):
        x0, y0, x1, y1 = squares[p]
        assert x > x1, "point %d's number is not beside its LED" % p
        assert y0 <= y - 4 <= y1, "point %d's number is not on its LED's line" % p
        width = 8 * len(str(p))  # 12 px bold digits
        for q, (a0, b0, a1, b1) in squares.items():
            assert not (x < a1 and x + width > a0 and y - 10 < b1 and y > b0), "point %d's number covers LED %d" % (p, q)
