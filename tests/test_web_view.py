"""The live view in the browser (issue 14): `bgc sim --web` and `bgc watch --web` serve a page
that draws the board, the lit points, the OLED, dice, cube, score and the move list from the
firmware's own state, updated as events arrive; it survives the server going away and the board
being unplugged, and saves the match as files GNU Backgammon reads. Drawn in headless Chromium."""

import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from bgc.logs import export, journals
from bgc.board import players as P
from bgc.board import sim as simmod
from bgc.web import Hub, serve
from bgc.web.virtual import Follower
from web_helpers import CHROMIUM, Browser, SerialBoard, wait_for

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/install_test_tools.sh)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page(dom):
    """What the page shows, read from its DOM."""
    points = {int(p): (led, int(w), int(b)) for p, led, w, b in re.findall(
        r'data-point="(\d+)" data-led="(\w+)" data-white="(\d+)" data-black="(\d+)"', dom)}
    rows = re.search(r'id="oled"[^>]*data-rows="([^"]*)"', dom) or re.search(r'data-rows="([^"]*)"[^>]*id="oled"', dom)
    status = dict(re.findall(r'class="status-led" data-colour="(\w+)" data-led="(\w+)"', dom))
    dice = re.search(r'data-dice="([^"]*)"', dom)
    title = re.search(r'<h1 id="title">([^<]*)</h1>', dom)
    return {
        "points": points,
        "oled": json.loads(html.unescape(rows.group(1))) if rows else None,
        "status_leds": status,
        "dice": dice.group(1) if dice else None,
        "moves": [html.unescape(m) for m in re.findall(r'<li class="(?:white|black)">([^<]*)</li>', dom)],
        "history": re.findall(r"<li>(\w+)</li>", dom.split('id="history"', 1)[1]) if 'id="history"' in dom else [],
        "title": html.unescape(title.group(1)) if title else None,
    }


def led_word(board, p):
    return simmod.point_led(board, p).lower()


def test_sim_page_draws_the_firmware_state_and_reconnects_after_the_server_restarts(tmp_path):
    sim = simmod.Sim(seed=6)
    server = None
    try:
        hub = Hub("the virtual board", journal_text=lambda: open(sim.journal_path()).read())
        Follower(sim, hub)
        port = free_port()
        server = serve(hub, "127.0.0.1", port)
        assert server.url == "http://127.0.0.1:%d/" % port
        # A whole 1-point match by the automated players, then the page's save links.
        players = P.Players(sim, seed=6, handling=P.Handling(illegal=0.0))
        sim.serial.send("new length=1")
        while not players.finished and sim.board.clock.ms < 3600 * 1000:
            sim.step()
        assert players.finished
        log = journals.load(sim.journal_path())
        for fmt in ("mat", "sgf"):
            with urllib.request.urlopen(server.url + "match." + fmt) as r:
                assert "attachment" in r.headers["Content-Disposition"]
                saved = tmp_path / ("saved." + fmt)
                saved.write_bytes(r.read())
            if export.find_gnubg() is not None:  # GNU Backgammon rebuilds the same match
                d = export.gnubg_read([str(saved)])[0]
                checked, diffs = export.compare(log, d["match"], d.get("walks", ()))
                assert diffs == [] and checked["moves"] >= 10, (diffs, checked)
                assert export.gnubg_warnings(d["output"]) == []
        played = [e for e in sim.serial.events if e["ev"] == "play"]
        assert len(hub.state["moves"]) >= len(played)

        # The page opens; the server goes away and comes back; a new match starts meanwhile.
        with Browser() as browser:
            browser.open(server.url)
            assert wait_for(lambda: page(browser.dom())["moves"], 20), "the page shows no move"
            shown = page(browser.dom())
            assert shown["moves"] == [m["text"] for m in hub.state["moves"]]
            assert shown["history"] == ["live"]
            server.stop()
            assert wait_for(lambda: page(browser.dom())["history"][-1:] == ["reconnecting"], 10)
            server = serve(hub, "127.0.0.1", port)
            sim.on_frame[:] = [f for f in sim.on_frame if not isinstance(f, P.Players)]
            sim.serial.send("new force=1 length=3 names=Ann,Bob")
            sim.setup_start()
            sim.run_ms(500)
            sim.dice.force(6, 4)
            sim.press("ROLL_W")
            sim.run_ms(200)
            sim.lift(24)
            sim.run_ms(400)
            lit = sorted(simmod.lit_points(sim.board, "LEGAL"))

            def caught_up():
                shown = page(browser.dom())
                return shown["dice"] == "6-4" and sorted(p for p, v in shown["points"].items() if v[0] == "legal") == lit

            assert wait_for(caught_up, 20), page(browser.dom())
            result = {"dom": browser.dom()}
        shown = page(result["dom"])
        assert shown["history"][:3] == ["live", "reconnecting", "live"], shown["history"]
        assert shown["title"] == "Ann (White) vs Bob (Black)"
        assert shown["dice"] == "6-4"
        for p in range(1, 25):
            led, w, b = shown["points"][p]
            assert led == led_word(sim.board, p), p
        assert sorted(p for p, v in shown["points"].items() if v[0] == "legal") == [14, 18, 20]
        assert shown["points"][24][0] == "lifted"
        wc, bc = simmod.board_counts(sim.board)
        assert [shown["points"][p][1:] for p in range(1, 25)] == [(wc[p], bc[p]) for p in range(1, 25)]
        assert [r.rstrip() for r in shown["oled"]] == sim.oled_rows()
        assert shown["status_leds"]["white"] == "turn"
    finally:
        if server is not None:
            server.stop()
        sim.close()
        sim.remove_flash()


def test_watch_web_follows_a_game_on_a_serial_board_through_unplugging(tmp_path):
    # The firmware on the virtual board behind a serial port, played by the automated players.
    sim = simmod.Sim(seed=8)
    link = str(tmp_path / "ttyBoard")
    board = SerialBoard(sim, link)
    board.plug()
    players = P.Players(sim, seed=8, handling=P.Handling(illegal=0.1))
    sim.serial.send("new length=3")
    run = {"go": True, "stop": False}

    def play():
        while not run["stop"]:
            if run["go"] and not players.finished:
                sim.step()
            else:
                time.sleep(0.01)
            board.pump()
            time.sleep(0.0005)

    t = threading.Thread(target=play, daemon=True)
    t.start()
    port = free_port()
    watch = subprocess.Popen([sys.executable, "-m", "bgc", "watch", "--port", link, "--web", "--web-port", str(port),
                              "--wait", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = "http://127.0.0.1:%d/" % port

        def up():
            try:
                urllib.request.urlopen(url + "state", timeout=1).read()
                return True
            except OSError:
                return False

        assert wait_for(up, 20), "bgc watch --web did not serve its page"
        with Browser() as browser:
            browser.open(url)
            assert wait_for(lambda: page(browser.dom())["moves"], 30), "the page shows no move"
            board.unplug()
            assert wait_for(lambda: page(browser.dom())["history"][-1:] == ["unplugged"], 10)
            board.plug()
            moves = len(page(browser.dom())["moves"])
            assert wait_for(lambda: len(page(browser.dom())["moves"]) > moves + 2, 30), "no move after replugging"
            run["go"] = False  # the players stop: the page must settle on what the board shows
            time.sleep(0.5)
            want = ([led_word(sim.board, p) for p in range(1, 25)], sim.oled_rows())

            def settled():
                shown = page(browser.dom())
                return shown["oled"] is not None and (
                    [shown["points"][p][0] for p in range(1, 25)], [r.rstrip() for r in shown["oled"]]) == want

            wait_for(settled, 20)
            result = {"dom": browser.dom()}
        shown = page(result["dom"])
        assert shown["history"][:3] == ["live", "unplugged", "live"], shown["history"]
        for p in range(1, 25):
            assert shown["points"][p][0] == led_word(sim.board, p), p
        assert [r.rstrip() for r in shown["oled"]] == sim.oled_rows()
        plays = [e for e in sim.serial.events if e["ev"] == "play"]
        assert plays and shown["moves"], "no move listed"
        last = plays[-1]
        assert shown["moves"][-1].endswith(": " + (last["move"] or "no move")), (shown["moves"][-1], last)
        status = sim.serial.last("status")
        if status["dice"]:
            assert shown["dice"] == "%d-%d" % tuple(status["dice"])
    finally:
        run["stop"] = True
        watch.send_signal(signal.SIGINT)
        try:
            watch.wait(10)
        except subprocess.TimeoutExpired:
            watch.kill()
        sim.close()
        sim.remove_flash()
    assert "live view: http://127.0.0.1:%d/" % port in watch.stderr.read()
    out = watch.stdout.read()
    assert "board unplugged" in out and "board back on" in out
