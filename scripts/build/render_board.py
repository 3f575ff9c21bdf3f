"""Render the pictures in the docs from the real thing: the firmware (firmware/main.py) runs on the
virtual board, the players' hands and forced dice bring it to the moment shown, and the picture is
drawn from the board model's LED chain and the OLED panel's pixels as the firmware set them.

    docs/board.png     White opened 6-4 and lifted a back checker from 24: the firmware lights
                       where it may go (14, 18, 20) and shows the game screen
    docs/own-dice.png  a match with own dice: White keys in the opening roll with the buttons

Usage: .venv/bin/python scripts/build/render_board.py [--out DIR]   (default: docs/)
tests/test_docs_pictures.py renders them again and checks the ones in docs/ are up to date.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lifted_from_24(sim):
    sim.serial.send("new length=5")
    sim.run_ms(300)
    sim.dice.force(6, 4)
    sim.press("ROLL_W")
    sim.run_ms(200)
    sim.lift(24)
    if not sim.run_until(lambda s: s.serial.last("status") and len(_lit(s)) == 3, 3000):
        raise SystemExit("render_board: the firmware did not light the destinations of 24 with 6-4")
    sim.run_ms(100)


def own_dice_entry(sim):
    sim.serial.send("new length=5 own_dice=1 names=Ann,Bob")
    sim.run_ms(300)
    sim.press("ROLL_W")  # start keying in: Ann's die first
    for _ in range(3):
        sim.press("CUBE_W")
    sim.press("ROLL_W")  # keep 4: Bob's die
    sim.press("CUBE_B")
    if "Bob die: [2]" not in sim.oled_rows():
        raise SystemExit("render_board: the firmware does not show the dice being entered: %r" % sim.oled_rows())


def _lit(sim):
    from bgc.board import sim as simmod

    return simmod.lit_points(sim.board, "LEGAL")


PICTURES = (("board.png", lifted_from_24), ("own-dice.png", own_dice_entry))


def render(out_dir):
    from bgc.board import sim as simmod
    from bgc.board.virtual.render import board_png

    paths = []
    for name, scene in PICTURES:
        sim = simmod.Sim(seed=3)
        try:
            scene(sim)
            paths.append(board_png(sim.board, os.path.join(out_dir, name)))
        finally:
            sim.close()
            sim.remove_flash()
    return paths


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"), help="directory for the pictures (default docs/)")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for path in render(args.out):
        print(path)


if __name__ == "__main__":
    main()
