# Numbers and names the controller's modules share (controller.py and its phase modules).

from bgrules import OPENING, ROLL, DOUBLED, PLAY, RESIGN, GAME_OVER, MATCH_OVER, CHOOSE

# Button codes and press kinds: the numbers of drivers.buttons (not imported: it needs machine).
ROLL_W = 0
CUBE_W = 1
ROLL_B = 2
CUBE_B = 3
SHORT = 1
LONG = 2

KIND_WORDS = ("drop", "single", "gammon", "backgammon")
# The controller's phase for each phase of bgrules.match.Match (docs/protocol.md).
PHASE_OF = {OPENING: "opening", ROLL: "roll", DOUBLED: "doubled", PLAY: "moving", RESIGN: "resign",
            GAME_OVER: "gameover", MATCH_OVER: "matchover", CHOOSE: "choose"}


def chouette():
    # The chouette's session (and rules) are imported on first use: about 17 KB of RAM on a Pico
    # that a two-player match does not need.
    from companion import chouette_session

    return chouette_session


def computer():
    # A match against the PC's GNU Backgammon (the `gnu` command): its hooks in the controller call
    # into companion.phase_computer, which a board that never plays the computer never loads.
    from companion import phase_computer

    return phase_computer


def parts():
    # A turn made of parts (chosen doubles, rolling again): only for the variants that have one.
    from companion import parts_board

    return parts_board
