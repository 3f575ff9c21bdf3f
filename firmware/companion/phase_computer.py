# A match against the computer (docs/player-guide.md, "Playing against GNU Backgammon"): the PC
# plays one side with GNU Backgammon and sends each decision over the serial line (the `gnu`
# command, docs/protocol.md); the board carries it out. Or the board's own player decides
# (boardplayer, docs/board-player.md: `gnu side=1 engine=board`, or the new-match menu): ``think``
# hands its decisions to the same ``command`` the PC's lines reach, so its turn is shown, moved by
# hand and verified exactly as GNU Backgammon's. Functions of the Companion ``c``, imported with
# the first `gnu` command: a board that never plays the computer never loads them.
#
# The computer's play is shown all at once, not one step at a time: each checker to move lit on
# its point, where it goes in another colour (a hit, a checker from the bar and a bear-off each
# shown apart), the play in words on the OLED. All at once because the person may set the checkers
# down in any order (the tracker accepts every order of the play's steps, companion.computer_turn)
# and reads a play at a glance, as on paper; as checkers arrive the LEDs show only what is left.
# The turn passes by itself when the board shows the play: nobody presses the computer's DONE.
#
# Advice and take-back (docs/player-guide.md; companion.computer_help, loaded when first asked
# for): the person's ROLL held in their turn to move asks for GNU Backgammon's best play, held at
# any other moment takes their last play back (the match before it is kept here when it is made,
# acted()); the teacher's words take the OLED's bottom lines while the computer is to act (hint()).

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
LONG = 2  # a held one
PLAYS_WITH = ("standard", "nackgammon")  # GNU Backgammon's nets (docs/analysis.md)


# The PC is gone when the board has waited this long for its decision and heard no `gnu` line:
# `bgc play` sends `gnu here` every second (HEARTBEAT_S in bgc.board.computer) while it runs, even
# while its engine thinks, so five missed in a row is a lost link (cable out, PC asleep, the
# program stopped), not a slow answer at a deep level; and five seconds tell a person sooner than
# they would start to wonder. A host that answers at once (bgc sim) needs no heartbeat, and the
# board's own player (boardplayer) needs no PC at all.
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


def who(c):
    """The computer's name on the OLED: the board's own player, or the PC's GNU Backgammon."""
    return "Board" if c.gnu_player is not None else "GNU"


def command(c, args, line, board=False):
    """A decision for the computer's side: the PC's `gnu` line, or (``board``) the board's own
    player's (think)."""
    do = args["do"]
    m = c.match
    if not board:
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
            c.error("%s plays %s only, not %s" % ("The board" if args.get("engine") == "board" else "GNU Backgammon",
                                                   " and ".join(PLAYS_WITH), m.rules.key), line)
            return
        player = None
        if side >= 0 and args.get("engine") == "board":
            from boardplayer.player import Player

            try:
                player = Player(args.get("level") or "expert", m.game if m is not None else 0)
            except ValueError as exc:
                c.error("gnu side: %s" % exc, line)
                return
        c.gnu_player = player
        c.gnu_side = side if side >= 0 else None
        c.gnu_opening = side >= 0 and args.get("opening", False)  # (the board's own player: no opening key)
        pal = getattr(c, "_palette", None)  # main.py's App shares it (none in a test's controller)
        if pal is not None and len(pal) == C_GNU_FROM:
            pal.extend(GNU_COLOURS)  # main.py's palette (App._palette): the computer's codes
        c.gnu = None
        c.gnu_back = None
        c.say("%s plays %s" % (who(c), m.names[side]) if side >= 0 and m is not None else "")
        c.status()
        return
    if m is None or c.gnu_side is None:
        c.error("no computer in this match (gnu side=0 or side=1 first)", line)
        return
    if c.gnu_player is not None and not board:
        c.error("gnu %s: the board's own player decides for this side (gnu side=%d engine=pc hands it to the PC)"
                % (do, c.gnu_side), line)
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
    elif do == "tell":
        _help().tell(c, args["text"], m.to_act == side and ph in DECIDES)
    elif do == "hint":
        if ph != "moving" or m.on_roll == side:
            c.error("gnu hint: not the person's turn to move (phase %s)" % ph, line)
            return
        _help().hint_play(c, args["pos"], line)
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
    """The OLED's bottom lines while the computer is to act (controller._hint): the teacher's words
    on the person's last decision (they stay until the person acts again), else what to do while its
    play is made; None: the phase's own lines."""
    m = c.match
    if m is None or m.to_act != c.gnu_side or c.phase not in DECIDES:
        c.gnu_note = ""
        return None
    note = getattr(c, "gnu_note", "")
    if note:
        # "Bad -0.082:" over the better play (on two lines when it is long: the message keeps one)
        mark, _, play = note.partition(": ")
        if len(play) > 16:
            cut = play.rfind(" ", 0, 17)
            if cut > 0:
                play = play[:cut] + "\n" + play[cut + 1:]
        return mark + (":\n" + play if play else "")
    if c.gnu is not None and c.phase == "moving":
        return "Move %s's\ncheckers as lit" % who(c)
    return None


def status_fields(c, f):
    """The `status` event's fields of a match against the computer (controller.status)."""
    f["computer"] = c.gnu_side  # the side GNU Backgammon plays; "gnu": its play being made
    f["gnu"] = c.gnu.text if c.gnu is not None else ""
    if offline(c):
        f["offline"] = True  # the board waits for the PC and has not heard it for OFFLINE_MS
    if c.gnu_player is not None:
        f["engine"] = "board"  # the board's own player decides, at this level
        f["level"] = c.gnu_player.level


def button(c, player, roll, kind, ph):
    """A press in a match against the computer (controller._button); True when dealt with here
    (refused or done). Nothing goes on while the PC is away; with `gnu side=S opening=1` (a remote
    board, bgc remote) the opening roll is the PC's, so no button rolls it; the computer's buttons
    are the PC's (or the board's own player's); the person's ROLL held asks for advice in their
    turn to move, and at any other moment of the game takes their last play back (when there is
    one to take)."""
    if offline(c):
        c.say("Computer offline")
        return True
    if ph == "opening" and getattr(c, "gnu_opening", False):
        c.say("Opening roll: from the PC")
        return True
    m = c.match
    if player == c.gnu_side:
        if ph in DECIDES:
            c.say("Board decides" if c.gnu_player is not None else "GNU decides (PC)")
            return True
        return False
    if not roll or kind != LONG or m is None:
        return False
    if ph == "moving" and m.on_roll == player:
        _help().ask_advice(c, player)
        return True
    if ph in ("roll", "moving") and getattr(c, "gnu_back", None):
        _help().take_back(c, player)
        return True
    return False


def waits(c):
    """Whether the board waits for the PC's decision (its roll or double, its answer to a double
    or a resignation, its play once rolled)."""
    m = c.match
    side = c.gnu_side
    if m is None or side is None or c.gnu_player is not None:
        return False  # (the board's own player needs no PC)
    ph = c.phase
    if ph == "opening":
        return getattr(c, "gnu_opening", False)  # the opening roll comes from the PC
    if ph == "roll" or (ph == "moving" and c.gnu is None):
        return m.on_roll == side
    if ph in ("doubled", "resign"):
        return m.to_act == side
    return False


def _help():
    # The person's advice, the teacher's words and a take-back (companion.computer_help): loaded
    # when first asked for, so a match in which the person never asks holds none of it.
    from companion import computer_help

    return computer_help


def acted(c, record, snap):
    """An action journaled (controller._act; ``snap``: the match before it). The person's play keeps
    the match before it, for a take-back; a new game or match forgets it."""
    a = record["a"]
    if a == "play" and record["p"] != c.gnu_side:
        c.gnu_back = snap
    elif a in ("open", "next"):
        c.gnu_back = None


def tick(c, now):
    """Time passes in a match against the computer (controller.tick): checkers not seen arriving
    (borne off, on a point of five or more) stayed so; the board's own player decides when it is its turn to; the PC has not been heard
    for OFFLINE_MS while the board waits for it."""
    g = c.gnu
    if g is not None:
        if g.due is not None and now - g.due >= 0:
            settled(c)
            c.render()
    elif c.gnu_player is not None and think(c):
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


def think(c):
    """The board's own player's decision, if one is due now (its roll or double, its answer to a
    double or a resignation, its play), carried out by ``command``; True when it acted."""
    m = c.match
    side = c.gnu_side
    ph = c.phase
    if m is None or side is None:
        return False
    pl = c.gnu_player
    if ph == "roll" and m.on_roll == side:
        if not c.board_ok:
            return False  # the person is still setting the board right: the OLED says so
        do = "roll"
        if m.may_double(side) and pl.double_decision(m, side)[0]:
            do = "double"
        command(c, {"do": do}, "", True)
    elif ph == "doubled" and m.to_act == side:
        command(c, {"do": pl.take_decision(m, side)}, "", True)
    elif ph == "resign" and m.to_act == side:
        command(c, {"do": pl.resign_decision(m, side, m.resign_offer)}, "", True)
    elif ph == "moving" and m.on_roll == side:
        # The search is sliced (Player.think: a few plays valued per loop step), so that the
        # scan, the LEDs, the OLED and the buttons go on answering while the board thinks (a
        # double's hundreds of plays take over a second on a Pico, docs/board-player.md). A
        # turn not the one thought about (a new turn, a take-back) starts the search again.
        if pl.turn is not m.turn:
            if pl.begin(m):
                c.say("Board thinks")
                return True
        elif not pl.think():
            return False
        final = pl.choice
        if final is None:
            final = m.turn.start.cells  # nothing can be played: the turn passes as it stands
        command(c, {"do": "play", "pos": Position(final).id()}, "", True)
    else:
        return False
    return True


def show(c, final):
    """The computer's play to ``final`` (mover-view cells) on the board: the tracker takes only it."""
    m = c.match
    turn = m.turn
    g = ComputerTurn(turn, final, moves.notation(turn, final), who(c))
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
    if not off and t.complete:
        # every checker seen where the play puts it
        if _take(c):
            return
    elif (not off and _ranged(t)) or (off and (_gone(t) == off or _ranged(t))):
        # A checker the sensors cannot see arrive: one borne off, or one set on top of a point of
        # five or more (counted only as "five or more"). Either is also a checker still in a hand,
        # and only DONE says which: lifting the checker must not make the play. So when the board
        # stays so for UNSEEN_MS (a hand carrying a checker to a point is quicker), DONE's own
        # judgement is asked (settled): the computer's play if it can be only that.
        g.due = c.now + UNSEEN_MS
    if t.verdict != HIT:  # a hit still to finish keeps its own words
        c.say(who(c) + " " + g.text)


def _led(point):
    # the chain's index of LED point 1..24, 25 (white's bar half) or 0 (black's): controller.led_index
    return 24 if point == 25 else (25 if point == 0 else point - 1)


UNSEEN_MS = 1500


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


def settled(c):
    """The board has shown the play but for checkers not seen arriving (borne off, or on a point of
    five or more) for UNSEEN_MS (controller.tick)."""
    c.gnu.due = None
    if c.phase == "moving":
        _take(c)


def _ranged(t):
    for r in t.rng:
        if r:
            return True
    return False


def leds(c, out):
    """The computer's play still to make, or the best play the person asked for, coloured on ``out``
    (LED codes of the chain)."""
    g = c.gnu
    m = c.match
    if g is None:
        g = getattr(c, "gnu_advice", None)
        if g is None or g.turn is not m.turn:
            return
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
