"""Take docs/web-view.png: the live web view (bgc.web) of the firmware on the virtual board in
headless Chromium, a few turns into a 5-point match played by the automated players, with a
checker lifted so that the lit points show.

Usage: .venv/bin/python scripts/build/screenshot_web_view.py [--phone] [OUT.png]   (needs chromium:
scripts/install_test_tools.sh). Chromium draws text with the machine's fonts, so the picture is
not compared pixel for pixel; tests/test_web_view.py checks what the page shows. --phone: the
same moment on a 390x844 phone (docs/web-view-phone.png), laid out as Chromium's device mode does.
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from web_helpers import Browser, wait_for  # noqa: E402


PHONE = (390, 844, True)


def main(out, device=None):
    from bgc.board import players as P
    from bgc.board import sim as simmod
    from bgc.web import Hub, serve
    from bgc.web.virtual import Follower

    sim = simmod.Sim(seed=11)
    server = None
    try:
        hub = Hub("the virtual board")
        follower = Follower(sim, hub)
        server = serve(hub, "127.0.0.1", 0)
        players = P.Players(sim, seed=11, handling=P.Handling(illegal=0.0))
        sim.serial.send("new length=5 names=Ann,Bob")
        # Play until a checker is lifted (and its destinations lit) after a few plays.
        while not (len(hub.state["moves"]) >= 6 and sim.board.hand is not None
                   and simmod.lit_points(sim.board, "LEGAL")):
            sim.step()
        follower.push()
        with Browser(size=(1000, 640)) as browser:
            browser.open(server.url, device=device)
            wait_for(lambda: 'data-led="legal"' in (browser.dom() or ""), 20)
            time.sleep(1.0)
            browser.screenshot(out)
        del players
    finally:
        if server is not None:
            server.stop()
        sim.close()
        sim.remove_flash()
    print(out)


if __name__ == "__main__":
    phone = "--phone" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "--phone"]
    default = "web-view-phone.png" if phone else "web-view.png"
    main(args[0] if args else os.path.join(ROOT, "docs", default), PHONE if phone else None)
