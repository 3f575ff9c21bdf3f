"""A virtual board in a process of its own (the virtual board is one per process), for tests with
several boards: the firmware on bgc's virtual board behind a serial port at LINK, played by the
automated players, as `bgc vpico --board --demo` plays it but without a MicroPython.

    python tests/played_board.py LINK SEED OUT

On SIGUSR1 the players stop, and after a moment the board's last status, LEDs and OLED rows are
written to OUT (JSON); SIGTERM ends it."""

import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from bgc.board import players as P  # noqa: E402
from bgc.board import sim as simmod  # noqa: E402
from web_helpers import SerialBoard  # noqa: E402


def main(link, seed, out):
    sim = simmod.Sim(seed=seed)
    board = SerialBoard(sim, link)
    board.plug()
    players = P.Players(sim, seed=seed, handling=P.Handling(illegal=0.1))
    sim.serial.send("new length=3")
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
            else:
                time.sleep(0.01)
            board.pump()
            if state["told"] is not None and time.monotonic() - state["told"] > 0.5:
                state["told"] = None
                with open(out + ".tmp", "w") as f:
                    json.dump({"status": sim.serial.last("status"), "oled": sim.oled_rows(),
                               "leds": [simmod.point_led(sim.board, p).lower() for p in range(1, 25)]}, f)
                os.replace(out + ".tmp", out)
            time.sleep(0.0005)
    finally:
        board.unplug()
        sim.close()
        sim.remove_flash()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
