# Decoding a GNU Backgammon Match ID (bgrules.matchid writes them): the host's, and the Pico's
# only when an action whose journal write failed is undone (bgrules.match_read imports it then).
# The key's fields, the error and the limits are bgrules.matchid's: this module imports them.

import binascii

from bgrules.matchid import MatchKey, MatchIdError, MAX_LENGTH, GAME_DROPPED, _B64


def _get(key, pos, n):
    v = 0
    for i in range(n):
        if key[(pos + i) >> 3] >> ((pos + i) & 7) & 1:
            v |= 1 << i
    return v



def decode(match_id):
    """A MatchKey from a 12-character Match ID; MatchIdError if it is not one GNU Backgammon
    would accept."""
    if not isinstance(match_id, str) or len(match_id) != 12:
        raise MatchIdError("a Match ID has 12 characters: %r" % (match_id,))
    for ch in match_id:
        if ch not in _B64:
            raise MatchIdError("not a Match ID (%r is not base64): %r" % (ch, match_id))
    key = binascii.a2b_base64(match_id)
    owner = _get(key, 4, 2)
    if owner == 2:
        raise MatchIdError("not a Match ID (cube owner 2): %r" % match_id)
    state = _get(key, 8, 3)
    if state > GAME_DROPPED:
        raise MatchIdError("not a Match ID (game state %d): %r" % (state, match_id))
    d1 = _get(key, 15, 3)
    d2 = _get(key, 18, 3)
    if d1 > 6 or d2 > 6:
        raise MatchIdError("not a Match ID (a die shows %d): %r" % (max(d1, d2), match_id))
    if (d1 == 0) != (d2 == 0):
        raise MatchIdError("not a Match ID (one die rolled): %r" % match_id)
    length = _get(key, 21, 15)
    s0 = _get(key, 36, 15)
    s1 = _get(key, 51, 15)
    crawford = _get(key, 7, 1)
    if length > MAX_LENGTH:
        raise MatchIdError("match length %d: at most %d" % (length, MAX_LENGTH))
    if length:
        if s0 > length or s1 > length:
            raise MatchIdError("score %d-%d beyond the match length %d" % (s0, s1, length))
    elif crawford:
        raise MatchIdError("not a Match ID (Crawford game in money play): %r" % match_id)
    mk = MatchKey(
        cube=1 << _get(key, 0, 4),
        cube_owner=-1 if owner == 3 else owner,
        on_roll=_get(key, 6, 1),
        crawford=crawford,
        state=state,
        to_act=_get(key, 11, 1),
        doubled=_get(key, 12, 1),
        resign=_get(key, 13, 2),
        dice=(d1, d2),
        length=length,
        score=(s0, s1),
        jacoby=not _get(key, 66, 1),
    )
    return mk
