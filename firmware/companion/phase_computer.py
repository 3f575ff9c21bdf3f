# A match against the computer (docs/player-guide.md, "Playing against GNU Backgammon"): the PC
# plays one side with GNU Backgammon and sends each decision over the serial line (the `gnu`
# command, docs/protocol.md); the board carries it out. Functions of the Companion ``c``, imported
# with the first `gnu` command: a board that never plays the computer never loads them.
#
# The computer's play is shown all at once, not one step at a time: each checker to move lit on
# its point, where it goes in another colour (a hit, a checker from the bar and a bear-off each
# shown apart), the play in words on the OLED. All at once because the person may set the checkers
# down in any order (the tracker accepts every order of the play's steps, companion.computer_turn)
# and reads a play at a glance, as on paper; as checkers arrive the LEDs show only what is left.
# The turn passes by itself when the board shows the play: nobody presses the computer's DONE.

from bgrules.position import Position, BAR, CHECKERS
from companion import moves
from companion.computer_turn import ComputerTurn
from companion.tracker import LEGAL, HIT, LIFTED, led_of

# LED colour codes of the computer's play (controller.COLOUR_NAMES), and their colours (RGB), apart
# from every colour of drivers.leds: defined here so a board that never plays the computer holds none
C_GNU_FROM = 6  # a checker to move: cyan
C_GNU_TO = 7  # where it goes: yellow
C_GNU_HIT = 8  # a blot to hit, and the bar it goes to: pink
C_GNU_OFF = 9  # a checker to bear off: white
GNU_COLOURS = ((0, 255, 255), (255, 255, 0), (255, 0, 128), (255, 255, 255))
GNU_COLOUR_NAMES = ("gnu_from", "gnu_to", "gnu_hit", "gnu_off")  # codes 6-9 after controller.COLOUR_NAMES
# the phases in which the computer's side decides (the PC's, by `gnu` lines), not its buttons
DECIDES = ("roll", "doubled", "resign", "moving", "ask", "choose")

SHORT = 1  # a short press (companion.codes, drivers.buttons): codes loads this module, not the reverse
PLAYS_WITH = ("standard", "nackgammon")  # GNU Backgammon's nets (docs/analysis.md)


# The PC is gone when the board has waited this long for its decision and heard no `gnu` line:
# `bgc play` sends `gnu here` every second (HEARTBEAT_S in bgc.board.computer) while it runs, even
# while its engine thinks, so five missed in a row is a lost link (cable out, PC asleep, the
# program stopped), not a slow answer at a deep level; and five seconds tell a person sooner than
# they would start to wonder. A host that answers at once (bgc sim) needs no heartbeat.
OFFLINE_MS = 5000


def _link(c):
    """The PC's presence, kept on the Companion ``c`` from the first `gnu` line (not at boot: a
    board that never plays the computer holds none of it): [when the last `gnu` line came, when the
    board began to wait for the PC (None: not waiting), whether it says "Computer offline"]."""
    link = getattr(c, "gnu_link", None)
    if link is None:
        link = c.gnu_link = [None, None, False]
    return link


def offline(c):
    """Whether the board says "Computer offline"."""
    return _link(c)[2]


def command(c, args, line):
    do = args["do"]
    m = c.match
    link = _link(c)
    link[0] = c.now  # the PC is there (companion.commands set the time of this line)
    if link[2]:
        link[2] = False
        c.say("Computer back")
        c.hint = c._hint()
        c.status()
    if do == "here":
        return  # the heartbeat: nothing to do
    if do == "side":
        side = args["side"]
        if side >= 0 and m is not None and m.rules.key not in PLAYS_WITH:
            c.error("GNU Backgammon plays %s only, not %s" % (" and ".join(PLAYS_WITH), m.rules.key), line)
            return
        c.gnu_side = side if side >= 0 else None
        c.gnu_opening = side >= 0 and args["opening"]
        pal = getattr(c, "_palette", None)  # main.py's App shares it (none in a test's controller)
        if pal is not None and len(pal) == C_GNU_FROM:
            pal.extend(GNU_COLOURS)  # main.py's palette (App._palette): the computer's codes
        c.gnu = None
        c.say("GNU plays %s" % m.names[side] if side >= 0 and m is not None else "")
        c.status()
        return
    if m is None or c.gnu_side is None:
        c.error("no computer in this match (gnu side=0 or side=1 first)", line)
        return
    side = c.gnu_side
    ph = c.phase
    if do == "opening":
        if ph != "opening":
            c.error("gnu opening: not the opening roll (phase %s)" % ph, line)
            return
        if c.entry:
            c.entry.end()  # own dice being keyed in: the PC's roll comes first
        c._opening(args["dice"])
    elif do in ("roll", "double"):
        if ph != "roll" or m.on_roll != side:
            c.error("gnu %s: not the computer's roll (phase %s)" % (do, ph), line)
        elif do == "roll":
            if c.entry:
                c.entry.end()
            c._roll(side, args.get("dice"))
        else:
            c._cube("double", side)
    elif do in ("take", "drop", "beaver"):
        if ph != "doubled" or m.to_act != side:
            c.error("gnu %s: no double to answer" % do, line)
        else:
            c._cube(do, side)
    elif do in ("accept", "reject"):
        if ph != "resign" or m.to_act != side:
            c.error("gnu %s: no resignation to answer" % do, line)
        else:
            c._resign_answer(do, side)
    elif do == "resign":
        if ph not in ("roll", "moving") or m.on_roll != side:
            c.error("gnu resign: on the computer's turn only", line)
        else:
            c.pick = [side, args.get("kind", 1)]
            c._pick(True, SHORT)
    elif do == "play":
        if ph != "moving" or m.on_roll != side:
            c.error("gnu play: not the computer's turn to move (phase %s)" % ph, line)
            return
        try:
            final = Position.from_id(args["pos"])
        except ValueError as exc:
            c.error("gnu play: %s" % exc, line)
            return
        turn = m.turn
        if turn.dice_to_play == 0 and final.cells == turn.start.cells:
            c._play(bytearray(turn.start.cells), False)  # nothing can be played
            return
        if not turn.is_legal(final.cells):
            c.error("gnu play: not a legal play of %d-%d from %s" % (turn.d1, turn.d2, turn.start.id()), line)
            return
        show(c, final.cells)


def hint(c):
    """The OLED's hint while the computer's play is made (controller._hint)."""
    return "Move GNU's\ncheckers as lit"


def status_fields(c, f):
    """The `status` event's fields of a match against the computer (controller.status)."""
    f["computer"] = c.gnu_side  # the side GNU Backgammon plays; "gnu": its play being made
    f["gnu"] = c.gnu.text if c.gnu is not None else ""
    if offline(c):
        f["offline"] = True  # the board waits for the PC and has not heard it for OFFLINE_MS


def button(c, ph, player):
    """A press in a match against the computer (True: the press is refused): the PC decides for
    its side, and nothing goes on while the PC is away; with `gnu side=S opening=1` (a remote
    board, bgc remote) the opening roll is the PC's, so no button rolls it."""
    if offline(c):
        c.say("Computer offline")
        return True
    if ph == "opening" and getattr(c, "gnu_opening", False):
        c.say("Opening roll: from the PC")
        return True
    if player == c.gnu_side and ph in DECIDES:
        c.say("GNU decides (PC)")
        return True
    return False


def waits(c):
    """Whether the board waits for the PC's decision (its roll or double, its answer to a double
    or a resignation, its play once rolled)."""
    m = c.match
    side = c.gnu_side
    if m is None or side is None:
        return False
    ph = c.phase
    if ph == "opening":
        return getattr(c, "gnu_opening", False)  # the opening roll comes from the PC
    if ph == "roll" or (ph == "moving" and c.gnu is None):
        return m.on_roll == side
    if ph in ("doubled", "resign"):
        return m.to_act == side
    return False


def tick(c, now):
    """Time passes in a match against the computer (controller.tick): a bear-off's checkers
    stayed gone; the PC has not been heard for OFFLINE_MS while the board waits for it."""
    g = c.gnu
    if g is not None and g.due is not None and now - g.due >= 0:
        borne_off(c)
        c.render()
    link = _link(c)
    if not waits(c):
        link[1] = None
        return
    if link[1] is None:
        link[1] = now
    if link[2]:
        return
    heard = link[0]
    last = link[1] if heard is None or link[1] - heard > 0 else heard
    if now - last >= OFFLINE_MS:
        # nothing is lost: every action is journaled; `bgc play` started again goes on from here
        link[2] = True
        c.say("Computer offline")
        c.hint = "Start bgc play\non the PC again"
        c.status()
        c.render()


def show(c, final):
    """The computer's play to ``final`` (mover-view cells) on the board: the tracker takes only it."""
    m = c.match
    turn = m.turn
    g = ComputerTurn(turn, final, moves.notation(turn, final))
    c.gnu = g
    c.tracker.begin(turn.start, m.on_roll == 0, g)
    c.tracker.prev[0] = 255  # a fresh verdict on the board as it stands
    c.emit("gnu", {"p": m.on_roll, "move": g.text, "pos": Position(final).id()})
    c._moving_frame()
    c.status()


def on_frame(c):
    """After the tracker's verdict on a frame of the computer's turn: the play's words stay on the
    OLED, and the turn passes as soon as the board shows the whole play."""
    t = c.tracker
    g = c.gnu
    g.due = None
    if t.verdict not in (LEGAL, HIT, LIFTED):
        return  # refused: the tracker's reason is "GNU plays ..."
    off = g.final[0] - g.turn.start.cells[0]
    if not off and (t.complete or _ranged(t)):
        # every checker seen where the play puts it (six or more on a point are counted only as
        # "five or more", so the tracker cannot call such a play complete: DONE's judgement)
        if _take(c):
            return
    elif off and (_gone(t) == off or _ranged(t)):
        # A bear-off the sensors cannot see: a checker gone from the board is in a hand or off,
        # and only DONE says which. Here the play says it: when exactly the checkers it bears off
        # are gone and stay gone for BORNE_OFF_MS (a hand lifting one to put it on a point is
        # quicker), DONE's own judgement is asked (borne_off)
        g.due = c.now + BORNE_OFF_MS
    if t.verdict != HIT:  # a hit still to finish keeps its own words
        c.say("GNU " + g.text)


def _led(point):
    # the chain's index of LED point 1..24, 25 (white's bar half) or 0 (black's): controller.led_index
    return 24 if point == 25 else (25 if point == 0 else point - 1)


BORNE_OFF_MS = 1500


def _gone(t):
    """How many of the mover's checkers the board does not show (off, or in a hand)."""
    on = 0
    seen = t.seen
    for i in range(1, 26):
        on += seen[i]
    return CHECKERS - on - t.start.cells[0]


def _take(c):
    """The play is made when DONE's judgement of the board (tracker.final) is the computer's play."""
    found, _ = c.tracker.final()
    if len(found) == 1 and bytes(found[0]) == c.gnu.final:
        c.gnu = None
        c._play(found[0], False)
        return True
    return False


def borne_off(c):
    """The checkers the play bears off have stayed gone for BORNE_OFF_MS (controller.tick)."""
    c.gnu.due = None
    if c.phase == "moving":
        _take(c)


def _ranged(t):
    for r in t.rng:
        if r:
            return True
    return False


def leds(c, out):
    """The computer's play still to make, coloured on ``out`` (LED codes of the chain)."""
    g = c.gnu
    m = c.match
    mw = m.on_roll == 0
    opp = m.rules.opposite
    src, dst, hits, off = g.plan(c.tracker.known)
    for p in src:
        out[_led(led_of(mw, p, opp))] = C_GNU_OFF if p in off else C_GNU_FROM
    for p in dst:
        out[_led(led_of(mw, p, opp))] = C_GNU_TO
    for p in hits:
        out[_led(led_of(mw, p, opp))] = C_GNU_HIT
        out[_led(led_of(not mw, BAR, opp))] = C_GNU_HIT
