"""A virtual board in a process of its own (the virtual board is one per process), for tests with
several boards: the firmware on bgc's virtual board behind a serial port at LINK, played by the
automated players, as `bgc vpico --board --demo` plays it but without a MicroPython.

    python tests/played_board.py LINK SEED OUT [COMPUTER [LENGTH]]

On SIGUSR1 the players stop, the firmware's loop runs on for a moment (the screen's rows go out a
few per loop step), and the board's last status, LEDs and OLED rows (and its journal) are written
to OUT (JSON); the same when the match is over. SIGTERM ends it.
COMPUTER (0 or 1): that side is the PC's (a `gnu side=` line sets it): the players move its
checkers as lit, and the board starts no match of its own (the PC starts it)."""

import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from bgc.board import players as P  # noqa: E402
from bgc.board import sim as simmod  # noqa: E402
from web_helpers import SerialBoard  # noqa: E402


def main(link, seed, out, computer=None, length=3):
    sim = simmod.Sim(seed=seed)
    board = SerialBoard(sim, link)
    board.plug()
    players = P.Players(sim, seed=seed, handling=P.Handling(illegal=0.1), computer=computer)
    if computer is None:
        sim.serial.send("new length=%d" % length)
    state = {"go": True, "run": True, "told": None}

    def pause(*_):
        state["go"] = False
        state["told"] = time.monotonic()

    signal.signal(signal.SIGUSR1, pause)
    signal.signal(signal.SIGTERM, lambda *_: state.update(run=False))
    try:
        while state["run"]:
            if state["go"] and not players.finished:
                sim.step()
            elif not state["go"] and state["told"] is not None:
                # paused: the hands stop, the firmware's loop goes on until what it shows is out (a
                # screen's rows go to the OLED a few per loop step, drivers/oled.py), then stands
                # still once the state is written
                if players.tick in sim.on_frame:
                    sim.on_frame.remove(players.tick)
                sim.step()
            else:
                time.sleep(0.01)
            board.pump()
            if players.finished and state["told"] is None and not os.path.exists(out):
                state["told"] = time.monotonic()
            if state["told"] is not None and time.monotonic() - state["told"] > 0.5:
                state["told"] = None
                try:
                    journal = open(sim.journal_path()).read()
                except (OSError, TypeError):
                    journal = None
                with open(out + ".tmp", "w") as f:
                    json.dump({"status": sim.serial.last("status"), "oled": sim.oled_rows(),
                               "leds": [simmod.point_led(sim.board, p).lower() for p in range(1, 25)],
                               "journal": journal, "finished": players.finished}, f)
                os.replace(out + ".tmp", out)
            time.sleep(0.0005)
    finally:
        board.unplug()
        sim.close()
        sim.remove_flash()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else None)
