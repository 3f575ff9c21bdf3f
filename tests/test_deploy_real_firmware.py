"""bgc deploy puts the real firmware (the files bgc sim runs) on a Pico, and its rules engine and
journal code run there from the compiled .mpy files."""

import os
import subprocess
import sys

from test_deploy_devices import bgc, libcache, pico  # noqa: F401  (fixtures)

from bgc import FIRMWARE_DIR


def mpremote(port, *args):
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", port, *args],
                          capture_output=True, text=True, timeout=60)


def test_deploy_of_the_real_firmware_runs_its_engine_on_the_pico(pico, libcache, capsys):  # noqa: F811
    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--offline", "--no-reset")
    assert status == 0, err
    flash = pico.flash_dir
    assert os.path.exists(os.path.join(flash, "main.py"))
    for module in ("bgrules/turn", "companion/journal", "companion/controller", "drivers/hall"):
        assert os.path.exists(os.path.join(flash, module + ".mpy")) or os.path.exists(os.path.join(flash, module + ".py")), module
    # main.py stays source (the Pico runs it by name); everything else is compiled.
    assert not os.path.exists(os.path.join(flash, "bgrules", "turn.py"))
    r = mpremote(pico.port, "exec",
                 "from bgrules import Position, Turn\n"
                 "t = Turn(Position.start(), 6, 4)\n"
                 "print(len(t.plays()), t.check(Position.start()))\n"
                 "from companion import journal\n"
                 "print(journal.decode(journal.encode({'a': 'next'})))")
    assert r.returncode == 0, r.stderr
    assert "14 Both dice must be played" in r.stdout
    assert "{'a': 'next'}" in r.stdout
    assert os.path.isdir(FIRMWARE_DIR)


def test_deploy_of_the_real_firmware_to_a_bare_virtual_pico_says_main_py_stopped(pico, libcache, capsys):  # noqa: F811
    # Issue 11 item 5. A virtual Pico without the virtual board has no machine.Pin: main.py stops
    # at its first import of the drivers. deploy must say so, not "main.py is running".
    status, out, err = bgc(capsys, "deploy", "--port", pico.port, "--offline")
    assert status == 2
    assert "main.py is running" not in out
    assert "main.py stopped after the reset: ImportError: can't import name Pin" in err
    assert "bgc sim" in err  # the hint names the way to run the firmware without hardware
    # Nothing is lost: the firmware stays on the flash for a board that has the hardware.
    assert os.path.exists(os.path.join(pico.flash_dir, "main.py"))
