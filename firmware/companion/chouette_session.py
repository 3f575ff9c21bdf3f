# A chouette evening at the board: the companion's side of bgrules.chouette.
#
# The controller (controller.py) keeps running each game on the board exactly as a money game
# (the box is White, the captain plays Black); this module adds what the chouette needs around
# it: the seating dice, the team's cube answers member by member, the box's answers, the ledger,
# the screens that show box, captain and team order, and the serial commands. Every action is
# validated by the Chouette, appended to the journal, and only then shown (principle 5); the
# evening's journal replays through ``replay`` after a power cut, in the middle of a team decision
# too. docs/chouette.md has the rules and the records; docs/player-guide.md the buttons. Reading
# the records back (new_chouette, apply_chouette) is companion.recovery's, with a match's.

from bgrules.chouette import Chouette, ChouetteError, COMMON, SEVERAL, SEATING, READY, GAME, draw_lot, signed
from bgrules.match import GAME_OVER, DOUBLED
from companion import journal as J
from companion.display import W, fit, pair, split

MENU_MAX = 8  # the menu offers 3 to 8 players; more over serial (up to 12)


def settings_record(names, cubes=COMMON, lone=5, partner=8, jacoby=False):
    return {"a": "chouette", "v": J.CHOUETTE_VERSION, "names": list(names), "cubes": cubes, "lone": lone,
            "partner": partner, "jacoby": bool(jacoby)}


def roster(settings):
    """The names for a chouette started from the menu: the last ones entered over serial when
    their number fits, else P1, P2, ..."""
    n = settings["chouette"]
    names = settings.get("roster") or []
    if len(names) == n:
        return list(names)
    return ["P%d" % (i + 1) for i in range(n)]


# --- the evening on the board ---------------------------------------------------------------------


def start(c, names, cubes=COMMON, lone=5, partner=8, jacoby=False, force=False):
    """Open a chouette evening (the ``chouette`` command or the menu). Returns the error or None."""
    if c.match is not None and not force and c.match.phase != GAME_OVER and c.phase not in ("setup", "matchover"):
        return "a game is in progress: chouette ... force=1"
    rec = settings_record(names, cubes, lone, partner, jacoby)
    from companion.recovery import new_chouette  # the journal's reader: dropped again by main.py

    try:
        ch = new_chouette(rec)
    except J.JournalError as exc:
        c.say(str(exc)[:40])
        return str(exc)
    failed = c.open_journal(rec)
    if failed:
        return failed
    c.chouette = ch
    c.match = None
    c.settings["roster"] = list(names)
    c.settings["chouette"] = len(names) if len(names) <= MENU_MAX else 0
    c.pick = None
    c.member_pick = None
    c.box_pick = None
    c.show_ledger = False
    c.emit("new", {"journal": c.store.path(c.name), "settings": rec})
    c.phase = "seating"
    c.say("Flash low: pull logs" if c.note_line == "Flash low" else "Roll for seats")
    c.hint = hint(c)
    c.status()
    return None


def act(c, record):
    """Apply ``record`` to the chouette and journal it. If the flash write fails, the evening is
    read back from the journal as it was. True when the action is done."""
    ch = c.chouette
    from companion import recovery  # the journal's reader (main.ONCE_ONLY): loaded for the action

    try:
        recovery.apply_chouette(ch, record)
    except J.JournalError as exc:
        text = str(exc)
        c.say(text[text.find(": ") + 2:] if " refused: " in text else text)
        return False
    try:
        c.write_record(record)
    except OSError as exc:
        # read back line by line (recovery.recover), never the whole evening's journal at once:
        # the heap after hours of play may hold no block that large
        c.chouette = recovery.recover(c.journal.path).match
        c.match = c.chouette.match
        c.say("Flash write failed")
        c.error("journal write failed: %s" % exc)
        return False
    return True


def resume(c):
    """After boot replayed a chouette journal into ``c.match``: the phase to go on in. False when
    the journal was a plain match."""
    ch = c.match
    if not isinstance(ch, Chouette):
        return False
    c.chouette = ch
    c.match = ch.match
    c.journal.end = -1  # its lines go to the journal itself (companion.tail)
    c.show_ledger = False
    c.member_pick = None
    c.box_pick = None
    if ch.phase == SEATING:
        c.phase = "seating"
        c.hint = hint(c)
        return True
    if ch.phase == READY and (ch.match is None or ch.match.phase != GAME_OVER):
        next_game(c)
        return True
    return False  # the controller resumes the game on the board (or its game-over screen)


def next_game(c):
    ch = c.chouette
    if not act(c, {"a": "cgame", "game": ch.game + 1}):
        return
    ch = c.chouette
    c.match = ch.match
    c.show_ledger = False
    c.emit("chouette", seats(ch))
    c.say("Game %d: box %s" % (ch.game, ch.box()))
    c._board("start")
    c.status()


def seat_press(c):
    ch = c.chouette
    who = ch.to_roll()
    die = c.dice.roll()[0]
    if not act(c, {"a": "seat", "name": who, "die": die}):
        return
    ch = c.chouette
    c.emit("seat", {"name": who, "die": die, "done": ch.phase == READY})
    if ch.phase == READY:
        next_game(c)
        c.say("Box %s, capt %s" % (ch.box(), ch.team()[0]))
        return
    c.say("%s rolls %d" % (who, die))
    c.hint = hint(c)
    c.status()


def button(c, player, roll, kind, long_press):
    """A button in a chouette phase the controller hands over; True when handled here."""
    ch = c.chouette
    ph = c.phase
    c.show_ledger = False
    if c.pick is not None:
        return False  # a resignation being chosen: the controller's grammar
    if ph == "seating":
        if roll:
            seat_press(c)
        return True
    if ph == "gameover":
        if roll:
            next_game(c)
        elif kind != long_press:
            c.show_ledger = True
        elif act(c, {"a": "close"}):
            c.emit("chouette_end", {"totals": totals(c.chouette), "games": c.chouette.game})
            c.chouette = None
            c.let_go()  # the evening's last game
            c._setup()
        return True
    if ph == "doubled" and ch.asking:
        if player != 1:
            c.say("%s to answer" % ch.to_answer())
            return True
        if not roll and kind != long_press:
            c.say("Hold CUBE to drop")
            return True
        answer(c, roll)
        return True
    if ph == "doubled" and ch.doubler:
        if player != 0:
            c.say("%s to answer" % ch.box())
            return True
        if not roll and kind != long_press:
            c.say("Hold CUBE to drop")
            return True
        box_answer(c, roll)
        return True
    if c.member_pick is not None:
        return _member_pick(c, player, roll, kind, long_press)
    if c.box_pick is not None:
        return _box_pick(c, player, roll, kind, long_press)
    if ph == "roll" and not roll and kind != long_press and player == c.match.on_roll:
        if player == 0 and ch.cubes == SEVERAL and ch.double_refusal(0) is None:
            targets = ch.box_targets()
            if len(targets) > 1:
                # Several cubes: the box offers the double to the members it chooses (seed: "ai
                # singoli componenti"); all of them to begin with
                c.box_pick = [targets, list(targets), 0]
                _box_pick_say(c)
                c.status()
                return True
        if player == 1 and ch.cubes == SEVERAL:
            members = [n for n in ch.playing if ch.double_refusal(1, n) is None]
            if len(members) > 1:
                # Several cubes: which member doubles? The captain is offered first.
                c.member_pick = [members, 0]
                _pick_say(c)
                c.status()
                return True
        double(c, player)
        return True
    return False


def _pick_say(c):
    members, i = c.member_pick
    c.say("%s doubles x%d?" % (members[i], c.chouette.cube_of(members[i])[0] * 2))
    c.hint = "ROLL:yes CUBE:next hold CUBE:no"


def _member_pick(c, player, roll, kind, long_press):
    """The team chooses whose cube is turned: CUBE the next member, ROLL that one doubles, CUBE
    held gives up. Nothing is journaled until ROLL."""
    if player != 1 or c.phase != "roll":
        c.member_pick = None
        return False
    members, i = c.member_pick
    if roll:
        c.member_pick = None
        double(c, 1, members[i])
    elif kind == long_press:
        c.member_pick = None
        c.say("")
        c.hint = c._hint()
        c.status()
    else:
        c.member_pick[1] = (i + 1) % len(members)
        _pick_say(c)
        c.status()
    return True


def _box_pick_say(c):
    targets, chosen, i = c.box_pick
    who = targets[i]
    ask = " x%d? %s" % (c.chouette.cube_of(who)[0] * 2, "yes" if who in chosen else "no")
    c.say("%s%s\n%d of %d ROLL:y/n" % (who[:W - len(ask)], ask, len(chosen), len(targets)))
    c.hint = BOX_PICK_HINT


BOX_PICK_HINT = "CUBE:next member\nhold ROLL:double"  # hold CUBE: no double (docs/player-guide.md)


def _box_pick(c, player, roll, kind, long_press):
    """The box chooses the members it doubles: CUBE the next member, ROLL puts the one shown in
    or out, ROLL held doubles those chosen, CUBE held gives up. Nothing is journaled until then."""
    if player != 0 or c.phase != "roll":
        if player == 1:
            c.say("The box chooses")
            return True
        c.box_pick = None
        return False
    targets, chosen, i = c.box_pick
    if roll and kind == long_press:
        if not chosen:
            c.say("Choose a member")
            return True
        c.box_pick = None
        double(c, 0, [n for n in targets if n in chosen])
        return True
    if roll:
        who = targets[i]
        if who in chosen:
            chosen.remove(who)
        else:
            chosen.append(who)
    elif kind == long_press:
        c.box_pick = None
        c.say("")
        c.hint = c._hint()
        c.status()
        return True
    else:
        c.box_pick[2] = (i + 1) % len(targets)
    _box_pick_say(c)
    c.status()
    return True


def double(c, side, name=None):
    ch = c.chouette
    if not c.board_ok:
        c.say("Fix the board first")
        return
    if side == 0:
        names = None if ch.cubes == COMMON else (name or ch.box_targets())
        rec = {"a": "cdouble", "side": 0, "names": names}
        why = ch.double_refusal(0)
        if why is None and names:
            targets = ch.box_targets()
            for n in names:
                if n not in targets:
                    why = "No double to %s" % n
                    break
            rec["names"] = [n for n in targets if n in names]  # line order
    else:
        rec = {"a": "cdouble", "side": 1, "name": name or ch.captain}
        why = ch.double_refusal(1, rec["name"])
    if why:
        c.say(why)
        return
    if not act(c, rec):
        return
    ch = c.chouette
    c.match = ch.match
    if side == 0:
        c.say("Box doubles: %s?" % ch.to_answer())
        c.emit("cube", {"p": 0, "action": "double", "to": list(ch.offer_names),
                        "cubes": [[n, ch.cube_of(n)[0] * 2] for n in ch.offer_names]})
    else:
        c.say("%s doubles" % ch.doubler)
        c.emit("cube", {"p": 1, "action": "double", "name": ch.doubler, "cube": ch.cube_of(ch.doubler)[0] * 2})
    c._enter("doubled")
    c.status()


def answer(c, take):
    ch = c.chouette
    who = ch.to_answer()
    value = ch.cube_of(who)[0]
    if not act(c, {"a": "canswer", "name": who, "take": bool(take)}):
        return
    ch = c.chouette
    c.emit("cube", {"p": 1, "name": who, "action": "take" if take else "drop", "cube": value * 2 if take else value})
    if ch.asking:
        c.say("%s %s; %s?" % (who, "takes" if take else "drops", ch.to_answer()))
        c.hint = hint(c)
        c.status()
        return
    _after_cube(c, "%s %s" % (who, "takes" if take else "drops"))


def box_answer(c, take):
    ch = c.chouette
    who = ch.doubler
    value = ch.cube_of(who)[0]
    if not act(c, {"a": "cbox", "take": bool(take)}):
        return
    c.emit("cube", {"p": 0, "name": who, "action": "take" if take else "drop", "cube": value * 2 if take else value})
    _after_cube(c, "Box %s" % ("takes" if take else "drops"))


def _after_cube(c, text):
    ch = c.chouette
    c.match = ch.match
    if ch.is_over():
        c._game_end()
    else:
        c.say(text)
        c._enter("roll" if ch.match.phase != DOUBLED else "doubled")
        c.emit("chouette", seats(ch))
    c.status()


def game_end(c):
    """The game on the board is over (played out, resigned or dropped): settle the ledger."""
    ch = c.chouette
    ch.check_over()
    number, box, cap, rows, box_won = ch.result
    m = ch.match
    winner, points, kind, how = m.result
    rec = {"a": "end", "winner": winner, "points": points, "kind": kind, "how": how}
    led = {"a": "ledger", "game": number, "box": box, "captain": cap, "points": [[n, p] for n, p in rows],
           "totals": totals(ch), "line": list(ch.line)}
    try:
        c.write_record(rec)  # informational: the result follows from the actions
        c.write_record(led)
    except OSError as exc:
        c.error("journal write failed: %s" % exc)
    c.emit("game_end", {"winner": winner, "points": points, "how": how, "box_won": box_won,
                        "kind": ("drop", "single", "gammon", "backgammon")[kind] if how != "drop" else "drop"})
    c.emit("ledger", {"game": number, "points": led["points"], "totals": led["totals"], "line": led["line"]})
    c.say("%s wins" % ("Box" if box_won else "Team"))
    c.show_ledger = True  # until the next button: CUBE shows it again
    c.phase = "gameover"
    c.hint = hint(c)


def totals(ch):
    return [[n, ch.totals[n]] for n in ch.players]


def seats(ch):
    return {"line": list(ch.line), "box": ch.box(), "captain": ch.captain if ch.phase == GAME else
            (ch.team()[0] if len(ch.line) > 1 else None), "playing": list(ch.playing), "cubes": ch.cubes,
            "partner": ch.partner}


# --- serial commands ------------------------------------------------------------------------------


def command(c, cmd, args, line):
    """The chouette's serial commands (docs/protocol.md)."""
    ch = c.chouette
    if cmd == "chouette":
        err = start(c, args["names"], args.get("cubes", COMMON), args.get("lone", 5), args.get("partner", 8),
                    args.get("jacoby", False), args.get("force", False))
        if err:
            c.error(err, line)
        return
    if ch is None:
        c.error("no chouette: chouette names=A,B,C first", line)
        return
    if cmd == "ledger":
        c.emit("ledger", {"game": ch.game, "totals": totals(ch),
                          "games": [[g[0], g[1], g[2], [[n, p] for n, p in g[3]]] for g in ch.ledger]})
        c.show_ledger = True
        return
    rec = None
    if cmd == "join":
        rec = {"a": "join", "name": args["name"]}
    elif cmd == "leave":
        rec = {"a": "leave", "name": args["name"]}  # the Chouette says who may leave now
    elif cmd == "cubes":
        rec = {"a": "cubes", "cubes": args["cubes"]}
    elif cmd == "partner":
        accepts = args.get("accepts", [])
        why = ch.partner_refusal()
        if why:
            c.error(why, line)
            return
        lot = 0
        if not any(accepts):
            try:
                lot = draw_lot(len(ch.lot_candidates()), c.dice.roll)
            except (ChouetteError, OSError) as exc:
                c.error(str(exc), line)
                return
        rec = {"a": "partner", "accepts": accepts, "lot": lot}
    elif cmd == "boxdouble":
        names = args.get("names") or None
        why = ch.double_refusal(0) if c.phase == "roll" and c.match.on_roll == 0 else "the box doubles before rolling, on its turn"
        if why is None and names:
            if ch.cubes == COMMON:
                why = "one common cube: the box doubles the whole team"
            else:
                for n in names:
                    if n not in ch.box_targets():
                        why = "No double to %s" % n
                        break
        if why:
            c.error(why, line)
            return
        c.box_pick = None
        double(c, 0, names)
        return
    elif cmd == "cdouble":
        why = ch.double_refusal(1, args["name"]) if c.phase == "roll" else "double before rolling, on the team's turn"
        if why:
            c.error(why, line)
            return
        double(c, 1, args["name"])
        return
    if not act(c, rec):
        c.error(c.msg, line)
        return
    ch = c.chouette
    c.emit(cmd, {"name": args.get("name"), "line": list(ch.line), "partner": ch.partner, "cubes": ch.cubes})
    if cmd == "partner" and ch.phase == GAME:
        c.emit("chouette", seats(ch))  # chosen before the opening roll: this game's captain may change
    c.status()


# --- what the players see ------------------------------------------------------------------------


def hint(c):
    ch = c.chouette
    ph = c.phase
    if ph == "seating":
        return "%s: ROLL 1 die" % ch.to_roll()
    if ph == "doubled" and ch.asking:
        return "B ROLL:take hold CUBE:drop"
    if ph == "doubled" and ch.doubler:
        return "W ROLL:take hold CUBE:drop"
    if ph == "gameover":
        return "ROLL:next CUBE:ledger"
    if c.member_pick:
        return "ROLL:yes CUBE:next hold CUBE:no"
    if c.box_pick:
        return BOX_PICK_HINT
    return None


def status_fields(c, fields):
    ch = c.chouette
    f = seats(ch)
    f["phase"] = ch.phase
    f["game"] = ch.game
    f["to_roll"] = ch.to_roll()
    f["asking"] = ch.to_answer()
    f["doubler"] = ch.doubler
    f["picking"] = c.member_pick[0][c.member_pick[1]] if c.member_pick else None
    if c.box_pick:
        # the box's choice: the member shown and those chosen so far (line order)
        f["box_picking"] = c.box_pick[0][c.box_pick[2]]
        f["box_chosen"] = [n for n in c.box_pick[0] if n in c.box_pick[1]]
    f["totals"] = totals(ch)
    if ch.phase == GAME and ch.cubes == SEVERAL:
        # in line order: MicroPython's dicts do not keep insertion order
        f["member_cubes"] = [[n, ch.cube[n][0], ch.cube[n][1]] for n in ch.line if n in ch.cube]
        if ch.captain in ch.cube:
            fields["cube"], fields["owner"] = ch.cube_of(ch.captain)
    fields["game"] = ch.game  # each game is a new Match: the evening's game number tells them apart
    fields["chouette"] = f
    return fields


def screen(c):
    """The 8 OLED lines of a chouette phase."""
    ch = c.chouette
    if c.show_ledger:
        return ledger_screen(ch)
    m1, m2 = split(c.msg)
    h1, h2 = split(c.hint or "")
    if c.phase == "seating":
        rolled = " ".join("%s%d" % (n[:3], d) for n, d in ch.seat_dice[-4:])
        return ["Chouette: seats", fit(rolled), "", "", m1, m2, h1, h2]
    box = ch.box() or ""
    if ch.partner:
        box = box[:6] + "+" + ch.partner[:5]  # the box's partner shares the box
    top = pair("Box " + box, "G%d" % ch.game)
    cap = ch.captain or (ch.team()[0] if ch.team() else "")
    m = ch.match
    if ch.cubes == COMMON or m is None:
        cube = "x%d %s" % (m.cube, "mid" if m.cube_owner < 0 else ("box" if m.cube_owner == 0 else "team")) if m else ""
    else:
        cube = "x" + "/".join(str(ch.cube[n][0]) for n in ch.playing)
    second = pair("Cpt " + cap, cube)
    others = [n for n in ch.line[1:] if n != cap]
    team = " ".join((n if n in ch.playing or ch.phase != GAME else n.lower())[:5] for n in others)
    turn = ""
    if m is not None:
        d = m.dice
        who = m.names[m.to_act]
        if c.phase == "doubled" and ch.asking:
            who = ch.to_answer()
        turn = pair(("W>" if m.to_act == 0 else "B>") + who[:8], "%d-%d" % d if d[0] else "")
    return [top, second, fit(team), turn, m1, m2, h1, h2]


def ledger_screen(ch):
    lines = [pair("Ledger", "game %d" % ch.game)]
    last = dict(ch.ledger[-1][3]) if ch.ledger else {}
    for n in ch.players[:6]:
        lines.append(pair("%s %s" % (n[:6], signed(ch.totals[n])), signed(last[n]) if n in last else ""))
    while len(lines) < 7:
        lines.append("")
    lines.append("ROLL:next game")
    return lines
