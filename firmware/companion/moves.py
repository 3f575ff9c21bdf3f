# The notation of a play the board saw. The sensors give the final position, not the path; the
# journal wants the play as players write it (8/5 6/5, 24/20*/16). The rules engine names a legal
# play (Turn.play_to); a condoned illegal play has no legal path, so it is written as a plain
# pairing of the places checkers left with the places they reached.

from bgrules.position import OPP, BAR
from bgrules.notation import format_steps


def notation(turn, final):
    """The play from ``turn.start`` to ``final`` (mover-view cells) in standard notation."""
    play = turn.play_to(final)
    if play is not None:
        return play.notation()
    start = turn.start.cells
    opp = turn.rules.across or turn.rules.opposite
    gone = []
    came = []
    for i in range(25, -1, -1):
        for _ in range(start[i] - final[i]):
            gone.append(i)
        for _ in range(final[i] - start[i]):
            came.append(i)
    steps = []
    for j in range(min(len(gone), len(came))):
        dst = came[j]
        hit = 1 if dst and final[OPP + BAR] > start[OPP + BAR] and start[OPP + opp[dst]] == 1 and not final[OPP + opp[dst]] else 0
        steps.append((gone[j], dst, hit))
    return format_steps(steps)
