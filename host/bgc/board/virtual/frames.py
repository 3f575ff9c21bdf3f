"""Stand-ins for the companion's inputs that skip the physics, for tests and benchmarks under
either interpreter (it needs only the firmware tree, so a MicroPython guest can load it alone):
``ideal_frame``, the classifier frame a perfectly calibrated board shows for a position.
"""

from drivers.classify import BLACK, STACK, WHITE


def ideal_frame(white, black, stack_flags=True, out=None):
    """The classifier frame (bytearray(128)) of a board given as checker counts per board point
    (white's numbering 1..24, 25 = the colour's bar half). Checkers fill a point's 5 cells from
    the rim; from the 6th on they stack on the cells from the rim (STACK flag, unless
    ``stack_flags`` is False); a checker put beside an opponent's blot takes the next cell. Bars
    have 4 cells a colour. ``out``: a frame to fill instead of a new one (no allocation)."""
    f = out if out is not None else bytearray(128)
    for i in range(128):
        f[i] = 0
    for p in range(1, 25):
        used = 0
        for colour, n in ((WHITE, white[p]), (BLACK, black[p])):
            fits = n if n < 5 - used else 5 - used
            for k in range(fits):
                f[5 * (p - 1) + used + k] = colour | (STACK if stack_flags and n > 5 + k else 0)
            used += fits
    for colour, n, base in ((WHITE, white[25], 120), (BLACK, black[25], 124)):
        for k in range(n if n < 4 else 4):
            f[base + k] = colour | (STACK if stack_flags and n > 4 + k else 0)
    return f
