"""bgc draw-board: write the sensor-layout drawing (hardware/board.svg) from hardware/geometry.json."""

from ..logs import files
from ..board import hwdraw
from .. import CHECKOUT
from ..errors import UserError


def register(subparsers):
    p = subparsers.add_parser("draw-board", help="draw the sensor layout (SVG) from hardware/geometry.json")
    p.add_argument("-o", "--output", default=hwdraw.SVG_PATH, help="SVG file to write (default: %(default)s)")
    p.add_argument("--geometry", default=hwdraw.GEOMETRY_PATH, help="geometry file to read")
    p.add_argument("--write-geometry", action="store_true",
                   help="regenerate the geometry file from the firmware pin map first")
    p.set_defaults(func=run)


def run(args):
    if args.write_geometry:
        if CHECKOUT is None and args.geometry == hwdraw.GEOMETRY_PATH:
            raise UserError("--write-geometry would rewrite the geometry this installed bgc carries\nhint: give "
                            "--geometry FILE for the file to write, or run it from a bgcompanion checkout")
        files.write_file(args.geometry, hwdraw.geometry_json(), hint="choose another file with --geometry")
    files.check_input(args.geometry, "geometry", "`bgc draw-board --write-geometry` writes it from the "
                      "firmware's pin map")
    try:
        geo = hwdraw.load(args.geometry)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise UserError("cannot read geometry %s: %s\nhint: `bgc draw-board --write-geometry` writes it from "
                        "the firmware's pin map" % (args.geometry, why)) from None
    svg = hwdraw.render_svg(geo)
    files.write_file(args.output, svg, hint="choose another file with -o")
    print("wrote %s (%d cells)" % (args.output, len(geo["cells"])))
    return 0
