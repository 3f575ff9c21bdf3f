# The GNU Backgammon Match ID: 12 characters of base64 over a 9-byte key.
#
# The key is a little-endian bit string (bit 0 is the lowest bit of byte 0), laid out as GNU
# Backgammon's matchid.c writes it (manual, "A technical description of the Match ID"):
#
#   bits  0-3   log2 of the cube value            bit  12     a double is offered
#   bits  4-5   cube owner: 0, 1, or 3 centred    bits 13-14  resignation offered: 0 none, 1-3
#   bit   6     player on roll (dice owner)       bits 15-17  die 1 (the larger), 0 = not rolled
#   bit   7     this is the Crawford game         bits 18-20  die 2
#   bits  8-10  game state (GAME_* below)         bits 21-35  match length, 0 = money
#   bit  11     player to act (turn)              bits 36-50  player 0's score
#                                                 bits 51-65  player 1's score
#   bit  66     set when the Jacoby rule is OFF (the manual omits it; matchid.c writes it)
#
# The fields are packed into a bytearray bit by bit: no big integers, so the Pico's heap only
# sees a 9-byte buffer per ID. Decoding lives in bgrules.matchid_read, which imports from here
# (never the other way): the host's, and the Pico's only to undo an action whose journal write
# failed, so it is not in RAM with every Match.

import binascii

GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4

# GNU Backgammon refuses longer matches (MAXSCORE in its sources).
MAX_LENGTH = 64

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


class MatchIdError(ValueError):
    """A Match ID that does not decode, or match fields that cannot be encoded."""


class MatchKey:
    """The fields of a Match ID, named as a player would name them.

    cube        cube value (1, 2, 4, ... 32768)
    cube_owner  0 or 1, or -1 when the cube is centred
    on_roll     the player who rolls or rolled the dice (GNU Backgammon's fMove)
    crawford    True in the Crawford game
    state       GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED or GAME_DROPPED
    to_act      the player who must act now (GNU Backgammon's fTurn): the doubled player while a
                double is offered, the resigner's opponent while a resignation is offered
    doubled     a double is offered and not yet answered
    resign      0, or 1/2/3 when a single game/gammon/backgammon is offered (or was accepted)
    dice        (d1, d2), d1 >= d2, or (0, 0) before the roll
    length      match length, 0 for money play
    score       [player 0, player 1]
    jacoby      the Jacoby rule is on (money play)
    """

    def __init__(self, cube=1, cube_owner=-1, on_roll=0, crawford=False, state=GAME_PLAYING,
                 to_act=None, doubled=False, resign=0, dice=(0, 0), length=0, score=(0, 0),
                 jacoby=False):
        self.cube = cube
        self.cube_owner = cube_owner
        self.on_roll = on_roll
        self.crawford = bool(crawford)
        self.state = state
        self.to_act = on_roll if to_act is None else to_act
        self.doubled = bool(doubled)
        self.resign = resign
        d1, d2 = dice
        self.dice = (d1, d2) if d1 >= d2 else (d2, d1)
        self.length = length
        self.score = [score[0], score[1]]
        self.jacoby = bool(jacoby)

    def id(self):
        return encode(self)

    def __eq__(self, other):
        return isinstance(other, MatchKey) and self._fields() == other._fields()

    def __ne__(self, other):
        return not self.__eq__(other)

    def _fields(self):
        return (self.cube, self.cube_owner, self.on_roll, self.crawford, self.state, self.to_act,
                self.doubled, self.resign, self.dice, self.length, tuple(self.score), self.jacoby)

    def __repr__(self):
        return "MatchKey(%r)" % encode(self)


def _log2(cube):
    n = 0
    while cube > 1:
        if cube & 1:
            return -1
        cube >>= 1
        n += 1
    return n if cube == 1 else -1


def encode(mk):
    """The 12-character Match ID of a MatchKey."""
    log = _log2(mk.cube)
    if not 0 <= log <= 15:
        raise MatchIdError("cube value %r is not a power of 2 up to 32768" % (mk.cube,))
    if mk.cube_owner not in (-1, 0, 1):
        raise MatchIdError("cube owner is 0, 1 or -1 (centred)")
    if mk.on_roll not in (0, 1) or mk.to_act not in (0, 1):
        raise MatchIdError("players are 0 and 1")
    if not 0 <= mk.state <= GAME_DROPPED:
        raise MatchIdError("game state %r is not 0-4" % (mk.state,))
    if not 0 <= mk.resign <= 3:
        raise MatchIdError("resignation is 0-3")
    for d in mk.dice:
        if not 0 <= d <= 6:
            raise MatchIdError("dice are 1-6 (0 = not rolled)")
    for v in (mk.length, mk.score[0], mk.score[1]):
        if not 0 <= v <= 0x7FFF:
            raise MatchIdError("length and scores are 0-32767")
    d1, d2 = mk.dice
    if d2 > d1:
        d1, d2 = d2, d1
    # The fields at their bits (GNU Backgammon's manual; bit 66: Jacoby off), the lowest first, as
    # one number written little-endian: bits 0-20 a small int, the whole a long one
    low = (log | (mk.cube_owner & 3) << 4 | mk.on_roll << 6 | (1 if mk.crawford else 0) << 7 | mk.state << 8
           | mk.to_act << 11 | (1 if mk.doubled else 0) << 12 | mk.resign << 13 | d1 << 15 | d2 << 18)
    bits = low | mk.length << 21 | mk.score[0] << 36 | mk.score[1] << 51 | (0 if mk.jacoby else 1) << 66
    key = bits.to_bytes(9, "little")
    return binascii.b2a_base64(key).decode()[:12]
