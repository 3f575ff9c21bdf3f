"""Issue 33: the OLED sends only the SSD1306 pages whose text changed, and a screen can be spread
over loop steps, yet the panel (the virtual board decodes the SSD1306 command stream into
pixels) always ends showing exactly the screen a whole redraw shows."""
import pytest

from bgc.board import virtual

from test_drivers_io import expected_text_pixels


@pytest.fixture
def board():
    b = virtual.install(seed=3)
    yield b
    virtual.uninstall()


GAME = ["WHITE 3  BLACK 1", "Dice 6-5", "Cube 2 (white)", "Pips 167 / 158", "", "", "", "White to move"]


def test_one_changed_row_sends_one_page_and_the_panel_shows_the_new_screen(board):
    from drivers.oled import Oled

    o = Oled()
    o.lines(GAME)
    whole = board.oled.data_bytes
    assert whole >= 1024  # the first screen: every page
    new = GAME[:7] + ["May bear off"]
    o.lines(new)
    sent = board.oled.data_bytes - whole
    assert 0 < sent <= 1024 // 8  # one page of 128 columns
    assert board.oled.pixels() == expected_text_pixels(new)
    o.lines(new)  # nothing changed: nothing on the bus
    assert board.oled.data_bytes - whole == sent


def test_a_screen_spread_over_steps_ends_as_the_whole_screen(board):
    from drivers.oled import Oled

    o = Oled()
    o.lines(GAME)
    new = ["Accepted: 24/13", "Dice -", "Cube 2 (white)", "Pips 156 / 158", "x", "y", "z", "Black to roll"]
    before = board.oled.data_bytes
    waiting = o.lines(new, -1, 2)
    assert o.dirty  # more than two rows changed: the rest waits for the next steps
    assert board.oled.data_bytes - before <= 2 * 128
    steps = 0
    while o.flush(2):
        steps += 1
    assert steps == 2  # 7 changed rows, two pages a step: 2 + 2 + 2 + 1
    assert board.oled.pixels() == expected_text_pixels(new)


def _whole(rows, inverse_row):
    """The panel as the whole-screen redraw (the driver before issue 33) left it."""
    from bgc.board.virtual import framebuf

    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    for i, r in enumerate(rows):
        if i == inverse_row:
            fb.fill_rect(0, i * 8, 8 * len(r), 8, 1)
        fb.text(r, 0, i * 8, 0 if i == inverse_row else 1)
    return [bytearray(fb.pixel(x, y) for x in range(128)) for y in range(64)]


def test_an_inverse_row_and_text_drawn_elsewhere_are_redrawn(board):
    from drivers.oled import Oled

    o = Oled()
    menu = ["MENU", "New match", "Resume"]
    o.lines(menu, inverse_row=1)
    assert board.oled.pixels() == _whole(menu, 1)
    sent = board.oled.data_bytes
    o.lines(menu, inverse_row=2)  # the cursor moved: rows 1 and 2, in one write
    assert board.oled.data_bytes - sent == 2 * 128
    assert board.oled.pixels() == _whole(menu, 2)
    o.clear()
    o.text(5, 0, "calibrating")
    o.show()
    o.lines(menu, inverse_row=2)  # drawn outside lines(): every row is drawn again
    assert board.oled.pixels() == _whole(menu, 2)
