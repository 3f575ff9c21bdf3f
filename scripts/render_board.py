"""Render docs/board.png: the virtual board at the start, White has rolled 6-4 and lifted the
checker from 24; the drivers light its legal destinations (from bgrules) and draw the OLED.

Usage: .venv/bin/python scripts/render_board.py [OUT.png]
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from bgc import virtual  # noqa: E402
from bgc.virtual.render import board_png  # noqa: E402
from bgrules import Position, Turn  # noqa: E402


def main(out):
    board = virtual.install(seed=3)
    try:
        white = [0] * 26
        black = [0] * 26
        for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            white[p] = n
            black[25 - p] = n
        white[24] = 1  # the other back checker is in the hand
        board.set_points(white, black)
        from drivers.leds import LEGAL, LIFTED, TURN, Leds
        from drivers.oled import Oled

        start = Position.start()
        turn = Turn(start, 6, 4)
        leds = Leds()
        oled = Oled()
        leds.clear()
        leds.point(24, LIFTED)
        for p in turn.destinations(start, 24):
            leds.point(p, LEGAL)
        leds.status(True, TURN)
        leds.show()
        w, b = start.pips()
        oled.lines(["White to play", "Dice: 6-4", "Cube: 1 centred", "Score 0-0 of 5", "Pips W%d B%d" % (w, b), "", "Lifted from 24", "Legal: 14 18 20"])
        board_png(board, out)
    finally:
        virtual.uninstall()
    print(out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "board.png"))
