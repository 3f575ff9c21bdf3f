# The person's help in a match against the computer (docs/player-guide.md, "Advice", "The
# teacher", "Take back"): functions of the Companion ``c`` that companion.phase_computer calls when
# the person first holds ROLL or the PC first sends `gnu hint` or `gnu tell`; named "computer" so
# that main.py drops it with the computer's other modules (main.COMPUTER).
#
# Advice: ROLL held in the person's turn to move sends the `advice` event; the PC's answer (`gnu
# hint`) is lit as the computer's play is, over the person's own LEDs (phase_computer.leds), and the
# tracker is not narrowed to it. Take-back: ROLL held at another moment sets the match back to the
# one saved before the person's last play (phase_computer.acted), journaled as a `back` record
# (bgrules.match_read.restore, which the journal's readers use too); the board then asks for the
# checkers as after a power cut (the "board" phase, reason "back").

from bgrules.position import Position
from companion import moves
from companion.computer_turn import ComputerTurn


def ask_advice(c, player):
    """The person asks for GNU Backgammon's best play for their roll: the PC answers `gnu hint`."""
    m = c.match
    if m.turn.dice_to_play == 0:
        c.say("No legal move")
        return
    c.emit("advice", {"p": player, "match": m.match_id(), "pos": m.position_id()})
    c.say("Asking GNU...")


def hint_play(c, pos, line):
    """GNU Backgammon's best play for the person's roll (`gnu hint`): lit as the computer's play is
    (what is left of it from the board as it stands), said on the OLED; the person plays as they like."""
    turn = c.match.turn
    try:
        final = Position.from_id(pos)
    except ValueError as exc:
        c.error("gnu hint: %s" % exc, line)
        return
    if not turn.is_legal(final.cells):
        c.error("gnu hint: not a legal play of %d-%d from %s" % (turn.d1, turn.d2, turn.start.id()), line)
        return
    text = moves.notation(turn, final.cells)
    c.gnu_advice = ComputerTurn(turn, final.cells, text)
    c.say("Hint " + text)


def tell(c, text, computer_to_act):
    """The teacher's words on the person's last play or cube decision (`gnu tell`): in the OLED's
    bottom lines while the computer is to act (phase_computer.hint), else as the last message."""
    if computer_to_act:
        c.gnu_note = text
        c.hint = c._hint()
    else:
        c.say(text)


def take_back(c, player):
    """The person's last play taken back, and the computer's reply with it: the match goes back to
    the person's turn to move with the same dice, journaled (`back`), and the board asks for the
    checkers to be put back where they stood before that play (red points, as after a power cut)."""
    from bgrules.match_read import restore  # a take-back's only

    m = c.match
    snap = c.gnu_back
    c.gnu = None
    c.gnu_advice = None
    if not c._act({"a": "back", "p": player, "to": snap}, lambda: restore(m, snap, player)):
        return
    c.gnu_back = None
    c.gnu_note = ""
    c.emit("back", {"p": player, "pos": m.position_id(), "to": snap})
    c._board("back")
    c.status()
