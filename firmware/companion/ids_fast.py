"""GNU Backgammon's Position ID and Match ID packed by machine code (MicroPython's viper
emitter), for the image: on the emulated Pico the bytecode packing took 1.4 ms a Position ID and
2.4 ms a Match ID, and DONE asks for three Position IDs and two Match IDs (the journal's line,
the match kept to put back if the flash write fails, the status line): about 9 ms of its answer
(docs/performance.md).

``install`` puts the packers in place of the bytecode ones (``Position.key``'s loop over the
checkers, ``matchid._put``'s loop over a field's bits); everything around them (the fields'
checks, the base64 text) stays bgrules'. main.py installs them where the code sits in flash
(companion.controller.PREPARES), as it builds companion.tracker_fast's tracker: a viper function
is compiled into the heap when its module is imported, and the .mpy deploy has none to spare.
"""
from bgrules import matchid
from bgrules.position import Position
from companion.viper_source import compile_source

# Position.key: for each side (the opponent's places first, then the mover's), each place 1-25:
# as many 1 bits as checkers there, then a 0 bit, from the lowest bit of the first byte.
# matchid._put: ``value``'s n lowest bits at bit ``pos`` of ``key``, lowest first.
(pack_position, put_bits), EMITTER = compile_source((
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
    (
        '@micropython.viper',
        'def put_bits(key, pos: int, n: int, value: int):',
        '    k = ptr8(key)',
        '    i = 0',
        '    while i < n:',
        '        if (value >> i) & 1:',
        '            b = pos + i',
        '            k[b >> 3] = k[b >> 3] | (1 << (b & 7))',
        '        i += 1',
    ),
), ("pack_position", "put_bits"))


def position_key(position):
    """Position.key: the 10-byte GNU Backgammon position key."""
    key = bytearray(10)
    pack_position(position.cells, key)
    return bytes(key)


def install():
    """Position IDs and Match IDs packed by ``pack_position`` and ``put_bits`` from here on."""
    Position.key = position_key
    matchid._put = put_bits
