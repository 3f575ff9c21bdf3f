"""The virtual Pico's board link (bgc.board.vboard): an I2C write crosses from the guest in pieces
(vboard_guest.I2C_CALL_BYTES, so that the guest needs no large block of its heap) and reaches the
virtual OLED as the one bus transaction the firmware sent."""

import os
import re

from bgc.board.vboard import BoardSim
from bgc.board.virtual.board import I2C0_SCL, I2C0_SDA

import bgc.board.virtual

# (vboard_guest runs only inside MicroPython: its constant is read from its source)
with open(os.path.join(os.path.dirname(bgc.board.virtual.__file__), "vboard_guest.py")) as _f:
    I2C_CALL_BYTES = int(re.search(r"^I2C_CALL_BYTES = (\d+)", _f.read(), re.M).group(1))

OLED = 0x3C


def _pieces(data):
    return [data[i:i + I2C_CALL_BYTES] for i in range(0, len(data), I2C_CALL_BYTES)]


def test_a_whole_screen_sent_in_pieces_is_one_frame_on_the_oled():
    sim = BoardSim()
    try:
        oled = sim.board.i2c_device(I2C0_SDA, I2C0_SCL, OLED)
        sim._vb_i2c_write(I2C0_SDA, I2C0_SCL, OLED, b"\x00\x20\x00".hex())  # horizontal addressing, as ssd1306.py sets
        frames = oled.frames
        screen = bytes((7 * i) & 255 for i in range(1024))
        pieces = _pieces(b"\x40" + screen)  # control byte 0x40: the data that follows
        assert len(pieces) == 5
        for k, piece in enumerate(pieces):
            sim._vb_i2c_write(I2C0_SDA, I2C0_SCL, OLED, piece.hex(), k < len(pieces) - 1)
        assert oled.frames == frames + 1
        assert bytes(oled.ram) == screen
    finally:
        sim.close()


def test_a_write_cut_short_by_a_restart_does_not_prefix_the_next_one():
    # The guest restarted between two pieces (a power cut, a crash): its first call on the bus
    # after the boot drops the half transaction, and the next command is read as sent.
    sim = BoardSim()
    try:
        oled = sim.board.i2c_device(I2C0_SDA, I2C0_SCL, OLED)
        sim._vb_i2c_write(I2C0_SDA, I2C0_SCL, OLED, (b"\x40" + bytes(300)).hex(), True)
        assert sim._vb_i2c_scan(I2C0_SDA, I2C0_SCL) == [OLED]
        assert not oled.display_on
        sim._vb_i2c_write(I2C0_SDA, I2C0_SCL, OLED, b"\x00\xaf".hex(), False)  # command: display on
        assert oled.display_on
    finally:
        sim.close()
