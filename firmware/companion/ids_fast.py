"""GNU Backgammon's Position ID packed by machine code (MicroPython's viper emitter), for the
image: on the emulated Pico the bytecode packing (``Position.key``'s loop over the checkers) took
1.4 ms a Position ID, and DONE asks for three (the journal's line, the match kept to put back if
the flash write fails, the status line) (docs/performance.md).

``install`` puts the packer in place of ``Position.key``; the base64 text around it stays
bgrules'. main.py installs it where the code sits in flash (companion.controller.PREPARES), as it
builds companion.tracker_fast's tracker: a viper function is compiled into the heap, and the .mpy
deploy has none to spare.
"""
from bgrules.position import Position
from companion.viper_source import compile_source

# Position.key: for each side (the opponent's places first, then the mover's), each place 1-25:
# as many 1 bits as checkers there, then a 0 bit, from the lowest bit of the first byte.
_SOURCE = (
    (
        '@micropython.viper',
        'def pack_position(cells, key):',
        '    c = ptr8(cells)',
        '    k = ptr8(key)',
        '    bit = 0',
        '    side = 26',
        '    while side >= 0:',
        '        place = side + 1',
        '        while place <= side + 25:',
        '            n = int(c[place])',
        '            while n > 0:',
        '                k[bit >> 3] = k[bit >> 3] | (1 << (bit & 7))',
        '                bit += 1',
        '                n -= 1',
        '            bit += 1',
        '            place += 1',
        '        side -= 26',
    ),
)
pack_position = None  # compiled by install (main.App): an import compiles nothing
EMITTER = None


def position_key(position):
    """Position.key: the 10-byte GNU Backgammon position key."""
    key = bytearray(10)
    pack_position(position.cells, key)
    return bytes(key)


def install():
    """Position IDs packed by ``pack_position`` (compiled now) from here on."""
    global pack_position, EMITTER
    if pack_position is None:
        (pack_position,), EMITTER = compile_source(_SOURCE, ("pack_position",))
    Position.key = position_key
