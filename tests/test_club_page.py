"""bgc club (issue 32, part 2): every board of a club on one page, from a real Mosquitto, drawn in
headless Chromium. Rules checked (docs/club.md): each relayed board has its card with its name,
the players' names and score and whose turn, as the firmware's last status says; a board whose
relay stopped is greyed as offline; a page opened after the boards played shows them at once
(retained states); a click on a card opens the live view of that board, which draws the board's
own LEDs and OLED."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from bgc.rules.engine import colour_counts
from mqtt_helpers import BoardProcess, Mosquitto, free_port, needs_mosquitto
from test_club_relay import ctrl_c_reaches_it, relay, stop
from test_web_view import page
from web_helpers import CHROMIUM, Browser, wait_for

pytestmark = [needs_mosquitto,
              pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/install_test_tools.sh)")]

CARDS_JS = """JSON.stringify([...document.querySelectorAll("a.board")].map(a => ({
  name: a.dataset.name, offline: a.classList.contains("offline"), href: a.getAttribute("href"),
  filter: getComputedStyle(a).filter, players: a.querySelector(".players").textContent,
  on: (a.querySelector(".players .on") || {}).textContent || null, turn: a.querySelector(".turn").dataset.turn,
  stacks: [...a.querySelectorAll("circle[data-point]")].reduce((m, c) => {
      const p = c.dataset.point; m[p] = (m[p] || 0) + 1; return m; }, {}) })))"""


def cards(browser):
    return {c["name"]: c for c in json.loads(browser.js(CARDS_JS) or "[]")}


def club(broker, web_port):
    return subprocess.Popen([sys.executable, "-m", "bgc", "club", "--broker", broker.url("viewer"), "--password-file",
                             broker.password_file("viewer"), "--web-port", str(web_port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_reaches_it)


def test_the_club_page_shows_every_board_late_viewers_included_and_follows_one(tmp_path):
    broker = Mosquitto(tmp_path / "broker", ["table1", "table2", "table3"])
    boards = {n: BoardProcess(tmp_path, s, n) for n, s in (("table1", 8), ("table2", 5), ("table3", 11))}
    relays = {n: relay(broker, b, n) for n, b in boards.items()}
    web = None
    try:
        for n in relays:
            assert wait_for(lambda: "as bgc/club/" in (relays[n].stdout.readline() or ""), 20), n
        time.sleep(3)  # the boards play before anyone looks
        out, err = stop(relays.pop("table3"))  # table3's relay stops: it is offline from now on
        # the players stop: the page must settle on what the firmware shows
        final = {n: boards[n].pause() for n in ("table1", "table2")}
        time.sleep(1.0)
        port = free_port()
        web = club(broker, port)  # the viewer comes late: everything it shows is retained
        url = "http://127.0.0.1:%d/" % port

        def up():
            try:
                urllib.request.urlopen(url + "club", timeout=1).read()
                return True
            except OSError:
                return False

        assert wait_for(up, 20), "bgc club did not serve its page"
        with Browser() as browser:
            browser.open(url)
            assert wait_for(lambda: len(cards(browser)) == 3, 15), cards(browser)
            for name in ("table1", "table2"):
                status = final[name]["status"]
                want_players = "%s %d - %d (%d) %s" % (status["names"][0], status["score"][0], status["score"][1],
                                                      status["length"], status["names"][1])

                def shows(name=name, status=status, want=want_players):
                    c = cards(browser)[name]
                    return (c["players"] == want and not c["offline"]
                            and c["on"] == status["names"][status["on_roll"]])

                assert wait_for(shows, 15), (name, cards(browser)[name], status)
                # the small board holds the firmware's checkers (stacks drawn up to 5)
                from bgrules import Position

                w, b = colour_counts(Position.from_id(status["pos"]), status["on_roll"] == 0,
                                     list(range(25, -1, -1)))
                want = {str(p): min(5, w[p] or b[p]) for p in range(1, 25) if w[p] or b[p]}
                got = {p: n for p, n in cards(browser)[name]["stacks"].items() if p != "25"}
                assert got == want, (name, got, want)
            t3 = cards(browser)["table3"]
            assert t3["offline"] and "grayscale(1)" in t3["filter"], t3
            # a click follows one board: its live view, drawn from the relayed state
            browser.js('document.getElementById("board-table1").click()')
            assert wait_for(lambda: (browser.js("location.pathname") or "") == "/board/table1/", 10)
            want = (final["table1"]["leds"], final["table1"]["oled"])

            def settled():
                shown = page(browser.dom())
                return shown["oled"] is not None and (
                    [shown["points"][p][0] for p in range(1, 25)], [r.rstrip() for r in shown["oled"]]) == want

            assert wait_for(settled, 15), (page(browser.dom()), want)
            # a board comes back: table3's relay again, and its card is no longer greyed
            browser.open(url)
            relays["table3"] = relay(broker, boards["table3"], "table3")
            assert wait_for(lambda: not cards(browser).get("table3", {"offline": True})["offline"], 20)
            shot = browser.screenshot(str(tmp_path / "club.png"))
        assert shot
    finally:
        for p in relays.values():
            stop(p)
        if web is not None:
            out, err = stop(web)
            assert "club club from mqtt://viewer@127.0.0.1:%d" % broker.port in out, (out, err)
        for b in boards.values():
            b.close()
        broker.close()
