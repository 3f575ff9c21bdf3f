"""Figures for docs/performance.md ("A club on one broker"): N boards relayed to one Mosquitto and
one club page (bgc club) open in headless Chromium. Each board is bgc.net.relay.Relay (what `bgc
relay` runs) replaying the serial events of a match played on the virtual board, at a given pace;
all N in this one process. Measured: the latency from a board's state leaving its relay to its card
drawn on the page (median, 99th percentile, worst), the relays' CPU (this process, per board), the
page's frame time (its redraw of the cards a frame), and that every board is on the page.

    .venv/bin/python scripts/bench/bench_club.py [--boards 64] [--seconds 60] [--pace 1.0]

--pace: events a second per board (a person's turn is a roll, a few LED/OLED updates, a play and
the statuses: about 8 events in 8-15 s; 1.0 is brisk play). Needs mosquitto and chromium
(scripts/install_test_tools.sh).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from mqtt_helpers import Mosquitto, free_port  # noqa: E402
from web_helpers import Browser, wait_for  # noqa: E402

FIGURES_JS = """JSON.stringify({lat: latencies, frames: frames, cards: document.querySelectorAll('a.board').length,
  seq: Object.fromEntries([...document.querySelectorAll('a.board')].map(a => [a.dataset.name, +a.dataset.seq]))})"""


def recorded_match(seed=8, events=600):
    """The serial events of a match on the virtual board, played by the automated players; in a
    child process, since the virtual board makes ``time`` its own clock in the process it runs in."""
    code = """
import json, sys
from bgc.board import players as P
from bgc.board import sim as simmod
sim = simmod.Sim(seed=%d)
try:
    sim.serial.send("view on=1")
    players = P.Players(sim, seed=%d, handling=P.Handling(illegal=0.1))
    sim.serial.send("new length=5")
    while not players.finished and len(sim.serial.events) < %d:
        sim.step()
    json.dump(list(sim.serial.events), sys.stdout)
finally:
    sim.close()
    sim.remove_flash()
""" % (seed, seed, events)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def page_ready(page):
    """The club page's script has run (its figures exist); False while the page is still loading."""
    try:
        return page.js("typeof latencies") == "object"
    except RuntimeError:  # (no page to evaluate in yet)
        return False


def cpu_seconds(pid):
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid):
    """CPU seconds of process ``pid`` and all its descendants (Chromium's renderer, GPU, ...)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            total += cpu_seconds(p)
        except OSError:
            pass
        todo.extend(children.get(p, []))
    return total


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def run(boards=64, seconds=60.0, pace=1.0, browser=True, out=sys.stdout):
    from bgc.net.broker import Broker
    from bgc.net.relay import Relay

    events = recorded_match()
    names = ["table%02d" % i for i in range(1, boards + 1)]
    tmp = tempfile.mkdtemp(prefix="bgc-bench-club-")
    broker = Mosquitto(os.path.join(tmp, "broker"), names)
    relays = []
    club = page = None
    try:
        web = free_port()
        club = subprocess.Popen([sys.executable, "-m", "bgc", "club", "--broker", broker.url("viewer"),
                                 "--password-file", broker.password_file("viewer"), "--web-port", str(web)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url = "http://127.0.0.1:%d/" % web
        assert "club club from" in club.stdout.readline(), "bgc club did not start"
        for n in names:
            r = Relay(Broker(broker.url(n), password=broker.passwords[n]), "club", n)
            r.start()
            relays.append(r)
        for r in relays:
            assert r.wait_connected(10)
        if browser:
            page = Browser(size=(1920, 1080))
            page.open(url)
            if not wait_for(lambda: page_ready(page), 30):
                raise RuntimeError("the club page %s did not load in 30 s" % url)
        stop = threading.Event()
        cpu0, wall0, club0 = time.process_time(), time.monotonic(), cpu_seconds(club.pid)
        broker0 = cpu_seconds(broker.proc.pid)
        page0 = tree_cpu_seconds(page.proc.pid) if page is not None else 0.0

        def replay():
            # every board one event per 1/pace s, the boards spread over the interval; each starts
            # at its own point of the match, so the page sees every phase at once
            step = 1.0 / pace
            k = 0
            start = time.monotonic()
            while not stop.is_set():
                for i, r in enumerate(relays):
                    due = start + k * step + i * step / len(relays)
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    if stop.is_set():
                        return
                    r.feed([events[(k + i * 37) % len(events)]])
                k += 1

        t = threading.Thread(target=replay, daemon=True)
        t.start()
        time.sleep(seconds)
        stop.set()
        t.join(10)
        cpu = time.process_time() - cpu0
        wall = time.monotonic() - wall0
        club_cpu = cpu_seconds(club.pid) - club0
        broker_cpu = cpu_seconds(broker.proc.pid) - broker0
        page_cpu = tree_cpu_seconds(page.proc.pid) - page0 if page is not None else 0.0
        sent = sum(r.seq for r in relays)
        figures = {"boards": boards, "seconds": round(wall, 1), "pace": pace, "events": sent,
                   "relays_cpu_percent": round(100 * cpu / wall, 1),
                   "relay_cpu_percent_per_board": round(100 * cpu / wall / boards, 2),
                   "club_cpu_percent": round(100 * club_cpu / wall, 1),
                   "broker_cpu_percent": round(100 * broker_cpu / wall, 1),
                   "chromium_cpu_percent": round(100 * page_cpu / wall, 1)}
        if page is not None:
            # the page catches up (every board's last state drawn; on a loaded machine that takes
            # seconds), at most 30 s: a state still missing then is lost, as the caller asserts
            sent = {r.name: r.seq for r in relays}
            wait_for(lambda: json.loads(page.js(FIGURES_JS, must=True))["seq"] == sent, 30)
            got = json.loads(page.js(FIGURES_JS, must=True))
            if not got["lat"]:
                raise RuntimeError("the club page drew no board's state in %.0f s (cards: %d)" % (wall, got["cards"]))
            lat = got["lat"][len(got["lat"]) // 10:]  # the first tenth: the page filling in
            frames = got["frames"]
            figures.update(cards=got["cards"], shown_seq=got["seq"], sent_seq=sent,
                           latency_ms={"n": len(lat), "median": statistics.median(lat),
                                                            "p99": pct(lat, 0.99), "max": max(lat)},
                           frame_ms={"n": len(frames), "median": round(statistics.median(frames), 2),
                                     "p99": round(pct(frames, 0.99), 2), "max": round(max(frames), 2)})
        shown = {k: v for k, v in figures.items() if k not in ("shown_seq", "sent_seq")}
        out.write(json.dumps(shown) + "\n")
        return figures
    finally:
        if page is not None:
            page.close()
        for r in relays:
            r.close(timeout=2)
        if club is not None:
            club.terminate()
            club.wait(10)
        broker.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--pace", type=float, default=1.0, help="events a second per board (default 1.0)")
    ap.add_argument("--no-browser", action="store_true", help="the relays and the club without a page")
    a = ap.parse_args()
    run(a.boards, a.seconds, a.pace, browser=not a.no_browser)


if __name__ == "__main__":
    main()
