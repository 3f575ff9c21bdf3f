"""End to end with the real companion firmware: it plays a 3-point match on the virtual board
(bgc.board.sim: firmware/main.py's App with the automated players) and journals it on its flash; the
journal is pulled from a virtual Pico with that flash, exported to .mat and .sgf, and GNU
Backgammon must rebuild the same positions and scores (bgc export --check)."""

import os
import shutil

import pytest

from bgc import cli
from bgc.logs import export, journals
from bgc.pico.vpico import VirtualPico

STAND_IN = "import time\nwhile True:\n    time.sleep_ms(50)\n"


# GNU Backgammon is part of the test setup (scripts/install_test_tools.sh); only an explicit
# BGC_SKIP_GNUBG=1 (a machine where it cannot be installed) skips these checks.
@pytest.mark.skipif(export.find_gnubg() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                    reason="GNU Backgammon is not installed and BGC_SKIP_GNUBG=1")
def test_a_match_the_firmware_journaled_round_trips_through_pull_export_and_gnubg(tmp_path, capsys):
    from bgc.board import players as P
    from bgc.board import sim as S

    s = S.Sim(seed=4)
    try:
        pl = P.Players(s, seed=4, handling=P.Handling(illegal=0.0))
        s.run_ms(50)
        s.serial.send("new length=3")
        frames = 0
        while not pl.finished and frames < 400000:
            s.step()
            frames += 1
        assert pl.finished
        flash = tmp_path / "flash"
        shutil.copytree(os.path.join(s.flash_dir, "journal"), flash / "journal")
    finally:
        s.close()
        s.remove_flash()
    (flash / "main.py").write_text(STAND_IN)
    names = sorted(n for n in os.listdir(flash / "journal") if n.endswith(".jnl"))
    assert names
    with VirtualPico(str(flash)) as pico:
        status = cli.main(["pull", "--port", pico.port, "--out", str(tmp_path / "pulled")])
        out, err = capsys.readouterr()
    assert status == 0, out + err
    assert "%d verified, 0 not verified" % len(names) in out
    log = journals.load(str(tmp_path / "pulled" / names[0]))
    assert log.problem is None and log.complete and log.length == 3
    for fmt in ("mat", "sgf"):
        status = cli.main(["export", str(tmp_path / "pulled"), "--format", fmt, "-o", str(tmp_path / "x"), "--check"])
        out, err = capsys.readouterr()
        assert status == 0, out + err
        assert "GNU Backgammon agrees on" in out
