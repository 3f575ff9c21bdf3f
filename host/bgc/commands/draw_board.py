"""bgc draw-board: write the sensor-layout drawing (hardware/board.svg) from hardware/geometry.json."""

import os

from .. import hwdraw
from ..cli import UserError


def register(subparsers):
    p = subparsers.add_parser("draw-board", help="draw the sensor layout (SVG) from hardware/geometry.json")
    p.add_argument("-o", "--output", default=hwdraw.SVG_PATH, help="SVG file to write (default: %(default)s)")
    p.add_argument("--geometry", default=hwdraw.GEOMETRY_PATH, help="geometry file to read")
    p.add_argument("--write-geometry", action="store_true",
                   help="regenerate the geometry file from the firmware pin map first")
    p.set_defaults(func=run)


def run(args):
    if args.write_geometry:
        with open(args.geometry, "w") as f:
            f.write(hwdraw.geometry_json())
    try:
        geo = hwdraw.load(args.geometry)
    except (OSError, ValueError) as exc:
        raise UserError("cannot read geometry %s: %s" % (args.geometry, exc)) from None
    svg = hwdraw.render_svg(geo)
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        raise UserError("no such directory: %s" % out_dir)
    with open(args.output, "w") as f:
        f.write(svg)
    print("wrote %s (%d cells)" % (args.output, len(geo["cells"])))
    return 0
