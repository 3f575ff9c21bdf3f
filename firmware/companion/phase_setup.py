# The controller's set-up phase: the new-match menu and a new match (from the menu or the serial
# command ``new``), journaled before it starts. Functions of the Companion ``c``, imported on first
# use (controller.Companion._menu_items, new_match): a match resumed at power-up never loads it.

from bgrules.match import MatchError, MATCH_OVER
from bgrules.rules import VARIANTS
from companion import journal as J
from companion.codes import SHORT, LONG, chouette as _cs

LENGTHS = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 25)


def menu_items(c):
    s = c.settings
    items = [("Length", "money" if not s["length"] else str(s["length"])), ("Game", s["rules"])]
    # against the board's own player (docs/board-player.md): which side it plays, and how well
    items.append(("Board", ("off", "White", "Black")[s["board"] + 1]))
    if s["board"] >= 0:
        items.append(("Level", s["level"]))
    if s["length"]:
        items.append(("Crawford", "on" if s["crawford"] else "off"))
        items.append(("Holland", "on" if s["holland"] else "off"))
    else:
        items.append(("Auto double", str(s["auto"])))
        items.append(("Beavers", ("off", "beaver", "raccoon", "otter")[s["beavers"]]))
        items.append(("Jacoby", "on" if s["jacoby"] else "off"))
    items.append(("Own dice", "on" if s["own_dice"] else "off"))
    if not s["length"]:
        items.append(("Chouette", str(s["chouette"]) if s["chouette"] else "off"))
        if s["chouette"]:
            items.append(("Cubes", s["cubes"]))
    items.append(("Start", ""))
    return items


def menu(c, roll, kind):
    items = menu_items(c)
    if c.cursor >= len(items):
        c.cursor = 0
    label = items[c.cursor][0]
    if roll and (kind == LONG or label == "Start"):
        if c.settings["chouette"] and not c.settings["length"]:
            return _cs().start(c, _cs().roster(c.settings), c.settings["cubes"], force=True)
        return against_board(c) if c.settings["board"] >= 0 else new_match(c, dict(c.settings), True)
    if not roll:
        c.cursor = (c.cursor + (1 if kind == SHORT else -1)) % len(items)
        c.say("")
        return
    s = c.settings
    if label == "Length":
        i = LENGTHS.index(s["length"]) if s["length"] in LENGTHS else 0
        s["length"] = LENGTHS[(i + 1) % len(LENGTHS)]
    elif label == "Crawford":
        s["crawford"] = not s["crawford"]
        if not s["crawford"]:
            s["holland"] = False
    elif label == "Holland":
        s["holland"] = not s["holland"]
        if s["holland"]:
            s["crawford"] = True
    elif label == "Auto double":
        s["auto"] = (s["auto"] + 1) % 4
    elif label == "Beavers":
        s["beavers"] = (s["beavers"] + 1) % 4
    elif label == "Jacoby":
        s["jacoby"] = not s["jacoby"]
    elif label == "Game":  # the variant (docs/variants.md)
        # (a game with settings from the serial line, "plakoto:mother=loses", steps on from its game)
        s["rules"] = VARIANTS[(VARIANTS.index(s["rules"].split(":")[0]) + 1) % len(VARIANTS)]
    elif label == "Board":
        s["board"] = (s["board"] + 2) % 3 - 1  # off, White, Black
        if s["board"] >= 0:
            s["chouette"] = 0  # a chouette is people only
    elif label == "Level":
        from boardplayer.player import level_names

        names = level_names()
        s["level"] = names[(names.index(s["level"]) + 1) % len(names)] if s["level"] in names else names[0]
    elif label == "Own dice":
        s["own_dice"] = not s["own_dice"]
    elif label == "Chouette":
        s["chouette"] = 0 if s["chouette"] >= _cs().MENU_MAX else max(3, s["chouette"] + 1)
        s["board"] = -1
    elif label == "Cubes":
        s["cubes"] = "several" if s["cubes"] == "common" else "common"


def against_board(c):
    """A new match from the menu against the board's own player: the side and level chosen, the
    player named after its level ("board (expert)", as the PC's is "gnubg (expert)")."""
    from companion.phase_computer import PLAYS_WITH, command

    s = c.settings
    side = s["board"]
    if s["rules"].split(":")[0] not in PLAYS_WITH:
        c.say("Board plays only\n" + " & ".join(PLAYS_WITH))
        return "the board plays %s only" % " and ".join(PLAYS_WITH)
    settings = dict(s)
    names = ["You", "You"]
    names[side] = "board (%s)" % s["level"]
    settings["names"] = names
    err = new_match(c, settings, True)
    if err is None:
        c.settings["names"] = ["White", "Black"]  # the next two-people match's names
        command(c, {"do": "side", "side": side, "engine": "board", "level": s["level"]}, "menu")
    return err


def new_match(c, settings, force=False):
    if c.match is not None and not force and c.match.phase != MATCH_OVER and c.phase != "setup":
        return "a match is in progress: new force=1"
    s = c.settings.copy()
    for k in settings:
        if k in s:
            s[k] = settings[k]
    length = s["length"]
    rec = J.settings_record(length, s["crawford"] if length else False, s["holland"] if length else False,
                            s["auto"] if not length else 0, s["beavers"] if not length else 0,
                            s["jacoby"] if not length else False, s["names"], settings.get("variant") or settings.get("rules", "standard"))
    if s["own_dice"]:
        rec["dice"] = "own"  # the players roll their own dice and key them in
    if settings.get("board", -1) >= 0:
        rec["board"] = settings["board"]  # the side the board's own player plays, at this level
        rec["level"] = settings["level"]
    from companion import recovery  # the journal's reader: dropped again below (c.collect)

    setup = None
    if settings.get("pos") or settings.get("mid"):
        # a position to practise (bgc setup): its own record after the settings, so that a
        # journal without one reads as before
        setup = {"a": "setup", "pos": settings.get("pos", ""), "mid": settings.get("mid", "")}
    try:
        match = recovery.new_match(rec)
        if setup is not None:
            recovery.apply(match, setup)
    except (MatchError, J.JournalError) as exc:
        c.say(str(exc)[:40])
        return str(exc)
    if c.collect is not None:
        # The journal reader that built the match (companion.recovery) is done with: main.py
        # drops it and collects before the journal, the events and the board add theirs, so this
        # answer does not hold the reader, the menu and the serial commands' import garbage at
        # once (the Pico's least free heap of a match, docs/performance.md)
        c.collect(match)
    # the journal says what the match plays: a game without a cube has no Crawford rule
    rec["crawford"], rec["holland"] = match.crawford_rule, match.holland
    failed = c.open_journal(rec, setup)
    if failed:
        return failed
    c.settings = s
    if c.gnu_player is not None:
        c.gnu_player = c.gnu_side = None  # the board's own player played the last match only
    c._own_dice(s["own_dice"])
    c.match = match
    c.chouette = None
    c.pick = None
    new = {"journal": c.store.path(c.name), "settings": rec}
    if setup is not None:
        new["setup"] = setup
    c.emit("new", new)
    c.say("Flash low: pull logs" if c.note_line == "Flash low" else "New match")
    c._board("start" if setup is None else "setup")
    c.status()
    return None
