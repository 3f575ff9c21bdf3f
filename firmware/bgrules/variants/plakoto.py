# Plakoto ("covered"), the second game of Tavli (docs/variants.md): all fifteen start on the
# own 24 point (the opponent's 1 point) and the two go round against each other as in
# backgammon; nothing is hit: a checker landing on a single opposing one pins it there (Pin's
# mechanism, bgrules/variants/pin.py), and the pinner with its pinned checker close the point
# to the pinned side, as two checkers do. The standard dice (as many as can be played, else the
# larger), no cube; a game counts 1, or 2 when the loser has borne off none, never 3; the
# opening's winner rolls again and the last game's winner starts the next (Rules.opening).
#
# The "mother" (Greek mána), the last checker on a player's start point: pinned there, its
# player loses 2 at once, unless the pinner still has checkers on its own start point; then
# pinning that player's mother in turn makes the game a draw (Wikipedia "Tavli"; fibs.com "The
# Board" rules; gamerz.net). Setting ``mother``: "draw" (that reading), "loses" (a pinned
# mother loses 2 at once, whatever: bkgm.com, Condos' Tavli), "none" (no mother rule, as Pin).
from bgrules.position import OPP
from bgrules.rules import DRAW, Rules
from bgrules.variants import pin

MOTHER = ("draw", "loses", "none")


def make(mother="draw"):
    """The ruleset with its settings (bgrules.rules.ruleset: "plakoto:mother=loses")."""
    if mother not in MOTHER:
        raise ValueError("mother is one of: " + ", ".join(MOTHER))
    rules = Rules("Plakoto", (0,) * 24 + (15, 0), key="plakoto", hitting=False, cube=False, opening="reroll",
                  backgammons=False)
    rules.search = pin.PinSearch
    rules.pinning = True
    rules.after = pin.after
    rules.locked = pin.locked

    def result(start, final):
        c = final.cells
        if mother != "none":
            # the opponent's checkers only ever reach the mover's 24 (their 1) by landing
            # there, so one there pins the mover's last checker on it; the same the other way
            mine = c[24] == 1 and c[OPP + 1]
            theirs = c[OPP + 24] == 1 and c[1]
            if mother == "loses":
                if theirs:
                    return 2
            elif mine and theirs:
                return DRAW
            elif theirs and not c[24]:
                return 2
            elif mine and not c[OPP + 24]:
                return -2
        return Rules.result(rules, start, final)  # 1 or 2: backgammons=False

    rules.result = result
    return rules


RULES = make()
