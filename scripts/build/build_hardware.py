"""Builds every hardware output from the code in hardware/gen, in order:

1. the netlists (hardware/kicad/*.net) from the SKiDL circuit, with its ERC (this python: skidl);
2. the boards (hardware/kicad/*.kicad_pcb) placed and routed with KiCad's pcbnew (system python3);
3. KiCad's DRC on each board (any violation, a warning too, or an unconnected pad fails the build);
4. the fabrication outputs (hardware/fab/<board>/: Gerbers, drill, bom.csv, positions.csv) and the
   pictures of each side (hardware/pictures/);
5. hardware/cost.md, the cost of one board set (an estimate);
6. the check that every hall sensor sits on its cell of hardware/geometry.json.

    .venv/bin/python scripts/build/build_hardware.py            # everything
    .venv/bin/python scripts/build/build_hardware.py --no-route # keep the boards, redo netlists and outputs
    .venv/bin/python scripts/build/build_hardware.py --geometry PATH  # check the sensors against another file

hardware/geometry.json is read and checked first, so that a broken one stops the build at once.

Needs `sh scripts/bootstrap.sh test` (skidl, and KiCad 6 with its libraries through
scripts/install_test_tools.sh).
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "hardware", "gen")
KICAD_PYTHON = os.environ.get("BGC_KICAD_PYTHON", "/usr/bin/python3")
sys.path.insert(0, GEN)

HINT = "install it with: sh scripts/bootstrap.sh test (it runs scripts/install_test_tools.sh)"


class BuildError(Exception):
    pass


def kicad_python():
    """The python3 that has KiCad's pcbnew, or BuildError naming what is missing."""
    try:
        r = subprocess.run([KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True, text=True)
    except OSError:
        raise BuildError("%s not found: KiCad's pcbnew runs under the system python3; %s" % (KICAD_PYTHON, HINT))
    if r.returncode != 0:
        raise BuildError("KiCad's pcbnew module is missing (Debian package kicad); %s" % HINT)
    return KICAD_PYTHON


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    noise = ("couldn't be created", "INFO:", "WARNING:", "ERC INFO:", "swig/python detected")
    out = "\n".join(ln for ln in (r.stdout + "\n" + r.stderr).splitlines()
                    if ln.strip() and not any(n in ln for n in noise)).strip()
    if r.returncode != 0:
        raise BuildError("%s failed: %s" % (os.path.basename(cmd[1]), out.splitlines()[-1] if out else r.returncode))
    return out


def load_geometry(path=None):
    """hardware/geometry.json (or ``path``), checked, or BuildError saying what is wrong with it."""
    sys.path.insert(0, os.path.join(ROOT, "host"))
    try:
        from bgc.board import hwdraw
    except ImportError:
        raise BuildError("the bgc package is not installed; run: sh scripts/bootstrap.sh test")
    path = path or hwdraw.GEOMETRY_PATH
    try:
        return hwdraw.load(path)
    except (OSError, ValueError) as e:
        shown = os.path.relpath(path, ROOT) if os.path.abspath(path).startswith(ROOT + os.sep) else path
        raise BuildError("%s: %s; regenerate it with: bgc draw-board" % (shown, e))


def check_sensor_positions(geo):
    """Every hall sensor of every fitted board within 0.5 mm of its cell of ``geo`` (the loaded
    geometry); the worst distance."""
    import layout
    import netlist

    cells = {(c["x"], c["y"]): c for c in geo["cells"]}
    placed = {ref: fp["at"] for ref, fp in netlist.load_pcb(os.path.join(ROOT, "hardware", "kicad", "sensor.kicad_pcb")).items()}
    worst = 0.0
    for q, (_, _, _, side) in layout.SENSOR_PLACEMENT.items():
        unused = {"L": ("H33", "H34"), "R": ("H31", "H32")}[side]
        for ref, (x, y) in placed.items():
            if not ref.startswith("H") or ref in unused:
                continue
            sx, sy = layout.to_surface(q, x, y)
            (cx, cy), cell = min(cells.items(), key=lambda kv: (kv[0][0] - sx) ** 2 + (kv[0][1] - sy) ** 2)
            d = ((cx - sx) ** 2 + (cy - sy) ** 2) ** 0.5
            if d > 0.5:
                raise BuildError("sensor %s of quadrant %d is %.2f mm from cell %d" % (ref, q, d, cell["cell"]))
            worst = max(worst, d)
    return worst


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    route = "--no-route" not in argv
    geometry = argv[argv.index("--geometry") + 1] if "--geometry" in argv[:-1] else None
    try:
        geo = load_geometry(geometry)
        import importlib.util

        if importlib.util.find_spec("skidl") is None:  # (importing it would start its log files)
            raise BuildError("skidl is missing; %s" % HINT)
        kpy = kicad_python()
        print(run([sys.executable, os.path.join(GEN, "circuit.py")]))
        if route:
            print(run([kpy, os.path.join(GEN, "pcb.py")]))
        import layout

        for name in sorted(layout.BOARDS):
            print(run([kpy, os.path.join(GEN, "fab.py"), "drc", os.path.join(ROOT, "hardware", "kicad", name + ".kicad_pcb")]))
            os.remove(os.path.join(ROOT, "hardware", "kicad", name + ".kicad_pcb.drc.txt"))
        print(run([kpy, os.path.join(GEN, "fab.py"), "outputs"]))
        print(run([sys.executable, os.path.join(GEN, "cost.py")]))
        print("hall sensors: every one within %.2f mm of its cell" % check_sensor_positions(geo))
    except BuildError as e:
        print("build_hardware: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
