# The controller's first call after power-up (Companion.boot): read the last journal back,
# repair it if damaged, resume its match or open the new-match menu. Imported for that one call,
# so the game's modules do not hold it.

from bgrules.match import MATCH_OVER
from companion import flash_room, journal as J, recovery


def boot(c, frame, now, version):
    c.now = now
    c.frame[:] = frame
    note = ""
    aside = flash_room.ensure(c.store)  # a file where the journal folder goes is kept under another name
    resumed = False
    damaged = None
    name = c.store.latest()
    if name:
        path = c.store.path(name)
        try:
            r = recovery.recover(path, True)  # (its tail's lines moved into it first)
        except OSError as exc:
            r = None
            note = "journal unreadable (%s)" % exc
        if r is not None and r.problem:
            kept = None if r.torn else c.store.path(c.store.damaged_name(name))
            note = recovery.salvage_note(r, kept)
            if kept:
                damaged = {"journal": path, "line": r.problem[0], "reason": r.problem[1], "kept": kept,
                           "later": r.later, "records": r.records}
            try:
                recovery.salvage(path, r, kept, c.store.fs)
            except OSError as exc:
                note += "; repair failed: %s" % exc
                r = None  # the file still holds the damage: new records must not go after it
                if damaged and c.store.size(kept[kept.rfind("/") + 1 :]) < 0:
                    damaged["kept"] = None
        match = r.match if r is not None else None
        if match is not None and match.phase != MATCH_OVER:
            c._own_dice(getattr(match, "own_dice", False))
            c.match = match
            c.journal = J.Journal(path)
            c.name = name
            resumed = True
    c.emit("boot", {"version": version, "journal": c.store.path(c.name) if c.name else None,
                       "resumed": resumed, "note": note})
    if damaged:
        damaged["resumed"] = resumed
        c.emit("damaged", damaged)
    if note:
        c.emit("note", {"text": note})
    if aside:
        c.emit("note", {"text": "a file stood where the journal folder goes: kept as %s" % aside})
    if damaged:
        c.note_line = "Log damaged L%d" % damaged["line"]
    else:
        c.note_line = "Torn line gone" if note else ""
    if resumed:
        said = c.note_line + " rest kept aside" if damaged else c.note_line or "Match resumed"
        c.say(said)
        c._resume()
        bp = getattr(c.match, "board_player", None)
        if bp is not None:  # the board's own player goes on playing its side
            from companion.phase_computer import command

            command(c, {"do": "side", "side": bp[0], "engine": "board", "level": bp[1]}, "journal")
        if c.note_line and c.msg != said:  # e.g. "No legal move": show both
            c.say(c.note_line + " " + c.msg)
    else:
        c.say(c.note_line if damaged else "Line dropped" if note else
              "Flash low: pull logs" if flash_room.low(c.store) else "")
        c._setup()
    c.status()
    c.render()
