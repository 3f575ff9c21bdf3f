"""Where everything sits on each board, and where each board sits under the playing surface.

Pure Python: the board generator (pcb.py), the tests and the docs read it. Millimetres; board
coordinates have x right and y down like geometry.json.

The sensor board is one design fitted four times. Its coordinates are those of quadrant 0 (points
1..6, bottom right as white sees the board) minus ``SENSOR_OFFSET[0]``; the board of quadrant 2
is the same board turned 180 degrees about the playing surface's centre, and quadrants 1 and 3 are
the same again moved left (their points and channels fall on the same columns and rows, see
hardware/README.md). Only the bar cells differ: quadrants 0 and 2 use the bar cells on the left
tab, quadrants 1 and 3 those on the right tab; the other tab is cut off.
"""

SURFACE_W, SURFACE_H = 612.0, 480.0  # geometry.json's board width and height

# Rules every board is made and checked to (a common 2-layer fab house offer accepts them).
RULES = {
    "layers": 2,
    "track_mm": 0.25,  # signals; the fab's minimum is 0.15, this leaves margin
    "power_track_mm": 0.6,  # +5V, +3V3_SENS and +3V3 on the main board
    "clearance_mm": 0.2,
    "via_mm": 0.6,
    "via_drill_mm": 0.3,
    "min_track_mm": 0.15,
    "min_drill_mm": 0.3,
    "edge_clearance_mm": 0.5,
    "thickness_mm": 1.6,
}

# Placement of each fitted sensor board: quadrant -> (dx, dy, rotation in degrees, tab used).
# A point (x, y) of the sensor board lies at (dx + x, dy + y) on the playing surface, turned by
# 180 degrees about (dx, dy) when rotation is 180: (dx - x, dy - y).
SENSOR_PLACEMENT = {
    0: (336.0, 260.0, 0, "L"),
    1: (0.0, 260.0, 0, "R"),
    2: (276.0, 220.0, 180, "L"),
    3: (612.0, 220.0, 180, "R"),
}


def to_surface(q, x, y):
    dx, dy, rot, _ = SENSOR_PLACEMENT[q]
    return (dx + x, dy + y) if rot == 0 else (dx - x, dy - y)


# Sensor board columns (x) of the 6 points and rows (y) of the 5 cells; bar cells on the tabs.
COLUMNS_A = (253.0, 207.0, 161.0)  # mux A channels 0-4, 5-9, 10-14
COLUMNS_B = (115.0, 69.0, 23.0)  # mux B channels 0-4, 5-9, 10-14
ROW_Y = tuple(198.0 - 44.0 * k for k in range(5))  # cell k of a point (k = 0 at the rim)
TAB_CELLS = {"H31": (-30.0, 10.0), "H32": (-30.0, 54.0), "H33": (306.0, 98.0), "H34": (306.0, 142.0)}
LED_Y = 230.0
BAR_LED = (-30.0, -8.0)

# Outline: the main rectangle and the two tabs (each tab overlaps the rectangle so that their
# union is one piece); the polygon is the union's outline, clockwise.
SENSOR_RECTS = [(1.0, 1.0, 275.0, 238.0), (-42.0, -16.0, 10.0, 66.0), (266.0, 86.0, 318.0, 154.0)]
SENSOR_OUTLINE = [(-42.0, -16.0), (10.0, -16.0), (10.0, 1.0), (275.0, 1.0), (275.0, 86.0), (318.0, 86.0),
                  (318.0, 154.0), (275.0, 154.0), (275.0, 238.0), (1.0, 238.0), (1.0, 66.0), (-42.0, 66.0)]
SENSOR_HOLES = [(8.0, 8.0), (268.0, 8.0), (8.0, 231.0), (268.0, 231.0), (138.0, 44.0), (138.0, 176.0),
                (-36.0, 28.0), (312.0, 120.0)]
# Where to cut a tab off (a straight line across its neck), for the README and the silkscreen.
TAB_CUTS = {"L": ((1.0, -16.0), (1.0, 66.0)), "R": ((275.0, 86.0), (275.0, 154.0))}


def sensor_channels():
    """(ref, mux "A"/"B", channel) for H1..H34, the same order as circuit.sensor_channels."""
    out = [("H%d" % (i + 1), "A" if i < 15 else "B", i % 15) for i in range(30)]
    return out + [("H31", "A", 15), ("H32", "B", 15), ("H33", "A", 15), ("H34", "B", 15)]


def sensor_positions():
    """ref -> (x, y, rotation, side) for every part of the sensor board ("F" top, "B" bottom)."""
    pos = {}
    for i, (ref, mux, ch) in enumerate(sensor_channels()):
        if ch < 15:
            cols = COLUMNS_A if mux == "A" else COLUMNS_B
            x, y = cols[ch // 5], ROW_Y[ch % 5]
        else:
            x, y = TAB_CELLS[ref]
        pos[ref] = (x, y, 0, "F")
        pos["C%d" % (i + 1)] = (x + 3.5, y, 90, "F")  # 100 nF beside its sensor
        if ch == 15:
            pos["JP%d" % (int(ref[1:]) - 30)] = (x, y + 6.0, 0, "F")
    # Turned so that inputs I0..I7 face the two columns on the right (channels 0-9) and I8..I15
    # the column on the left and the tab (channels 10-15).
    pos["U1"] = (184.0, 110.0, 180, "F")
    pos["U2"] = (46.0, 110.0, 180, "F")
    pos["C35"] = (184.0, 100.0, 0, "F")
    pos["C36"] = (46.0, 100.0, 0, "F")
    for i, x in enumerate(COLUMNS_A + COLUMNS_B):
        pos["D%d" % (i + 1)] = (x, LED_Y, 0, "F")
        pos["C%d" % (37 + i)] = (x + 6.0, LED_Y, 90, "F")
    pos["D7"] = (BAR_LED[0], BAR_LED[1], 0, "F")
    pos["C43"] = (BAR_LED[0] + 6.0, BAR_LED[1], 90, "F")
    # 2x8 box header under the board (taller than the spacers); its pin 1 is its origin, the row
    # runs 17.8 mm towards smaller x, between the rows of cells.
    pos["J1"] = (141.0, 110.0, 90, "B")
    pos["C44"] = (141.0, 124.0, 0, "F")
    return pos


# Main board: 130 x 100 mm, anywhere under the board or in its case (it holds no sensor).
MAIN_RECTS = [(0.0, 0.0, 130.0, 100.0)]
MAIN_OUTLINE = [(0.0, 0.0), (130.0, 0.0), (130.0, 100.0), (0.0, 100.0)]
MAIN_HOLES = [(4.0, 4.0), (126.0, 4.0), (4.0, 96.0), (126.0, 96.0)]


def main_positions():
    return {
        # The Pico in its sockets, turned so that GP2..GP15 (pins 4..20) face the logic; USB end
        # down. Between its two socket rows the board is free for tracks.
        "U1": (18.0, 50.0, 180, "F"),
        "U2": (50.0, 40.0, 0, "F"),  # 74HC138: address inputs left, enables right
        "C1": (50.0, 30.0, 0, "F"),
        "R3": (40.0, 30.0, 0, "F"),  # MUX_EN pull-up
        "U3": (50.0, 72.0, 0, "F"),  # 74AHCT125
        "C2": (50.0, 63.0, 0, "F"),
        "R4": (62.0, 80.0, 0, "F"),  # 330 R LED data
        "R1": (66.0, 56.0, 90, "F"),  # 1 k into ADC0
        "R2": (72.0, 56.0, 90, "F"),  # 100 k common line to GND
        "R5": (38.0, 86.0, 0, "F"),  # piezo 100 R
        "U4": (70.0, 8.0, 0, "F"),  # LM1085-3.3, heatsink towards the top edge
        "C3": (58.0, 14.0, 90, "F"),
        "C4": (82.0, 14.0, 90, "F"),
        "J1": (12.0, 78.0, 90, "F"),  # 5 V jack at the bottom left
        "C5": (30.0, 90.0, 0, "F"),
        "D1": (46.0, 94.0, 0, "F"),
        "J2": (103.0, 14.0, 90, "F"),  # sensor boards of quadrants 0..3
        "J3": (103.0, 38.0, 90, "F"),
        "J4": (103.0, 62.0, 90, "F"),
        "J5": (103.0, 86.0, 90, "F"),
        "J6": (62.0, 94.0, 90, "F"),  # OLED
        "J7": (76.0, 94.0, 90, "F"),  # buttons
        "J8": (38.0, 80.0, 90, "F"),  # piezo
        "J9": (86.0, 86.0, 90, "F"),  # status LEDs
    }


BOARDS = {
    "sensor": {"netlist": "sensor.net", "positions": sensor_positions, "fanout": ("U1", "U2"),
               # the 32 sensor outputs first, while the board is open, then the cable's nets
               "route_first": (r"MUX_._CH.*", r"MUX_S.|MUX_EN_.|MUX_COM|LED_IN|LED_OUT|BAR_LED_.*"), "rects": SENSOR_RECTS,
               "outline": SENSOR_OUTLINE, "holes": SENSOR_HOLES},
    "main": {"netlist": "main.net", "positions": main_positions, "rects": MAIN_RECTS,
             "outline": MAIN_OUTLINE, "holes": MAIN_HOLES},
}
