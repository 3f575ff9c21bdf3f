"""The club at scale, short (issue 32, part 6; the full run is scripts/bench/bench_club.py and
docs/performance.md): sixteen boards relayed to one Mosquitto, replaying a match of the virtual
board at a brisk pace, and one club page in headless Chromium. Rules checked: every board is on the
page, each showing its relay's last state (nothing lost on the way), and half the states reach the
page within half a second. The tail (the goal: 99th percentile under 500 ms) depends on how busy
the machine is (docs/performance.md: from 0.4 s to 2.4 s on the shared 2-core machine at load 14-22),
so it is measured there, not asserted here."""

import os
import sys

import pytest

from mqtt_helpers import needs_mosquitto
from web_helpers import CHROMIUM

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))

pytestmark = [needs_mosquitto,
              pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/install_test_tools.sh)")]


def test_sixteen_boards_live_on_one_page():
    import io

    import bench_club

    figures = bench_club.run(boards=16, seconds=12, pace=1.0, out=io.StringIO())
    assert figures["cards"] == 16
    assert figures["shown_seq"] == figures["sent_seq"], "a board's last state did not reach the page"
    assert figures["events"] >= 16 * 10
    assert figures["latency_ms"]["median"] < 500, figures["latency_ms"]
