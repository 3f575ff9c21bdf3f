# Fixed roll ("Fester Wurf", seed 002): the opening roll is every roll of the game, for both.
#
# With one roll for the whole game two players can hit each other back and forth for ever (3-2:
# each checker entering hits the other's). The seed has no rule for it; the board's (assumed,
# docs/variants.md): when the position with the same player on roll comes back a third time, the
# game can go on for ever as it is played, and the board says so ("Same position 3x", as Pin's
# "Locked for good"); the player further from home resigns. The Match notes each turn's position
# in a ring of the last RING turns (RING * 11 bytes, only in this variant): a loop of up to
# RING / 2 turns is seen.
from bgrules.rules import STANDARD, Rules

RING = 64
_KEY = 11  # the 10-byte position key and the player on roll


def note_turn(m):
    """After a turn (Match._next_turn): note the position the next player rolls from, and set
    ``m.repeated`` when it stands in the ring twice already (this is its third time)."""
    seen = getattr(m, "seen", None)
    if seen is None or m.seen_game != m.game:
        seen = m.seen = bytearray(RING * _KEY)
        m.seen_game = m.game
        m.seen_n = 0
    key = m.position.key()
    who = m.on_roll + 1  # 0 marks an empty slot
    times = 0
    n = m.seen_n if m.seen_n < RING else RING
    for i in range(n):
        at = i * _KEY
        if seen[at + 10] == who and seen[at:at + 10] == key:
            times += 1
    at = (m.seen_n % RING) * _KEY
    seen[at:at + 10] = key
    seen[at + 10] = who
    m.seen_n += 1
    m.repeated = times >= 2


RULES = Rules("Fixed roll", STANDARD.start, key="fixedroll", fixed_roll=True)
RULES.note_turn = note_turn
