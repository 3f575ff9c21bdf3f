"""THE firmware pin map. hardware/pinmap.md is the same table for people; a test keeps them equal.

GPIO numbers are the RP2040's GPn. The 4 multiplexer select lines and the 3 bank-address lines of
the 74HC138 sit on 7 consecutive GPIOs so that one SIO register write moves the whole 7-bit
sensor address (bank << 4 | channel) at once.
"""
try:
    from micropython import const
except ImportError:  # CPython (tests, host tools)
    def const(x):  # type: ignore[misc]  # same behaviour, looser signature than the stub
        return x

MUX_S0 = const(2)  # CD74HC4067 S0..S3 on GP2..GP5
MUX_A0 = const(6)  # 74HC138 A0..A2 on GP6..GP8: which of the 8 multiplexers is enabled
MUX_EN = const(9)  # 74HC138 /G2A, active low; 10k pull-up keeps every mux off during boot
MUX_ADDR_SHIFT = const(2)  # bit position of S0 in the SIO GPIO registers
MUX_ADDR_BITS = const(7)  # S0..S3 + A0..A2
ADC_PIN = const(26)  # ADC0: common output of all 8 multiplexers
BTN_ROLL_W = const(10)  # white player's ROLL/DONE button, to GND, internal pull-up
BTN_CUBE_W = const(11)
BTN_ROLL_B = const(12)
BTN_CUBE_B = const(13)
PIEZO = const(14)  # optional buzzer (PWM)
LED_DATA = const(15)  # WS2812B chain data in, through a 74AHCT125 level shifter
I2C_ID = const(0)
I2C_SDA = const(16)  # I2C0 SDA: SSD1306 OLED
I2C_SCL = const(17)  # I2C0 SCL
OLED_ADDR = const(0x3C)

# Name -> GPIO, in the order of hardware/pinmap.md.
PINS = {
    "MUX_S0": 2,
    "MUX_S1": 3,
    "MUX_S2": 4,
    "MUX_S3": 5,
    "MUX_A0": 6,
    "MUX_A1": 7,
    "MUX_A2": 8,
    "MUX_EN": 9,
    "BTN_ROLL_W": 10,
    "BTN_CUBE_W": 11,
    "BTN_ROLL_B": 12,
    "BTN_CUBE_B": 13,
    "PIEZO": 14,
    "LED_DATA": 15,
    "I2C_SDA": 16,
    "I2C_SCL": 17,
    "ADC0": 26,
}

BUTTON_PINS = (BTN_ROLL_W, BTN_CUBE_W, BTN_ROLL_B, BTN_CUBE_B)

# Sensor cells: 0..119 are points 1..24 (5 cells each, cell 0 at the board's rim), 120..123 the
# white bar cells, 124..127 the black bar cells. hardware/geometry.json holds the same mapping
# with positions in millimetres.
N_CELLS = const(128)
N_POINT_CELLS = const(120)
CELLS_PER_POINT = const(5)
BAR_WHITE = const(120)
BAR_BLACK = const(124)


def cell_of_slot(slot):
    """Cell index wired to multiplexer ``slot >> 4``, channel ``slot & 15``.

    Muxes 2q and 2q+1 sit under quadrant q (points 6q+1..6q+6), three points each on channels
    0..14; channel 15 of every mux reaches over to one bar cell, so no wire crosses the board.
    """
    mux = slot >> 4
    ch = slot & 15
    if ch == 15:
        return BAR_WHITE + mux - 4 if mux >= 4 else BAR_BLACK + mux
    point0 = (mux >> 1) * 6 + (mux & 1) * 3 + ch // 5
    return point0 * 5 + ch % 5


def slot_of_cell(cell):
    for slot in range(N_CELLS):
        if cell_of_slot(slot) == cell:
            return slot
    raise ValueError("no such cell: %r" % (cell,))


def point_of_cell(cell):
    """Point 1..24 for a point cell, 25 for a white bar cell, 0 for a black bar cell.

    (25 and 0 are where each side's bar sits in its own pip count.)
    """
    if cell < N_POINT_CELLS:
        return cell // CELLS_PER_POINT + 1
    return 25 if cell < BAR_BLACK else 0


# WS2812B chain order: one LED per point, then the two bar halves, then two status LEDs.
N_LEDS = const(28)
LED_BAR_WHITE = const(24)
LED_BAR_BLACK = const(25)
LED_STATUS_WHITE = const(26)
LED_STATUS_BLACK = const(27)
