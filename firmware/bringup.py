"""Bring-up check of one sensor board on the Pico (hardware/README.md, "Bring-up").

    mpremote exec "import bringup; bringup.run(0)"   # the board under points 1..6 (frozen in the image)
    mpremote mount firmware exec "import bringup; bringup.run(0)"   # on a stock MicroPython

Keep the board empty for the first second (baselines), then walk one checker over the board's
cells in the order printed, rim first, point by point, then the two bar cells. Each cell prints
OK, WRONG (another cell reacted: swapped channel) or MISSING (nothing reacted), and the point's
LED lights green or red. Logic: drivers/bringup.py.
"""
import time

from drivers.bringup import BringUp, describe
from drivers.hall import HallScanner
from drivers.leds import ILLEGAL, LEGAL, Leds


def run(quadrant, timeout_ms=20000):
    scanner = HallScanner()
    leds = Leds()
    check = BringUp(quadrant, timeout_ms)
    frames = []
    for _ in range(32):
        frames.append(list(scanner.scan()))
        time.sleep_ms(5)
    for msg in check.calibrate(frames):
        print(msg)
    print("walk a checker over: " + ", ".join(str(c) for c in check.cells))
    shown = None
    while not check.done():
        if check.expected() != shown:
            shown = check.expected()
            print("now over " + describe(shown))
        msg = check.step(scanner.scan(), time.ticks_ms())
        if msg:
            print(msg)
            point, good = check.last
            leds.point(point, LEGAL if good else ILLEGAL)
            leds.show()
        time.sleep_ms(10)
    print(check.summary())
    for p in check.problems:
        print(p)
    return check
