# The controller's serial commands: a line from the host parsed (companion.protocol) and answered
# with events; the calibration main.py took on request. Functions of the Companion ``c``, imported
# with the first serial line (controller.Companion.on_line): a board without a host never loads it.

from bgrules.rules import VARIANTS
from companion import protocol
from companion.codes import chouette as _cs, computer as _pc


def on_line(c, line, now):
    c.now = now
    try:
        cmd, args = protocol.parse(line)
    except protocol.ProtocolError as exc:
        c.error(str(exc), line)
        return
    try:
        command(c, cmd, args, line)
    finally:
        c.render()


def command(c, cmd, args, line):
    if cmd == "status":
        c.status()
    elif cmd == "new":
        force = args.pop("force", False)
        err = c.new_match(args, force)
        if err:
            c.error(err, line)
    elif cmd == "options":
        cur = None
        if c.match is not None:
            m = c.match
            cur = {"length": m.length, "crawford": m.crawford_rule, "holland": m.holland, "auto": m.auto_doubles,
                   "beavers": m.beavers, "jacoby": m.jacoby, "names": list(m.names)}
        c.emit("options", {"current": cur, "choices": {
            "length": "0 (money) or 1-64", "crawford": [True, False], "holland": [True, False],
            "auto": "0-15 (money)", "beavers": "0-3 (money)", "jacoby": [True, False],
            "names": "two names, 1-20 characters", "rules": list(VARIANTS)}})
    elif cmd == "logs":
        from companion import flash_room  # (dropped again at the next collection: main.ONCE_ONLY)

        c.emit("logs", {"files": c.store.listing(c.name), "free": flash_room.space(c.store)[0]})
    elif cmd == "delete":
        try:
            c.store.delete(args["name"], c.name)
        except (ValueError, OSError) as exc:
            c.error(str(exc), line)
            return
        c.emit("deleted", {"name": args["name"]})
    elif cmd in protocol.CHOUETTE_COMMANDS:
        _cs().command(c, cmd, args, line)
    elif cmd == "calibrate":
        if c.phase not in ("setup", "gameover", "matchover"):
            c.error("calibrate needs an empty board: finish or leave the game first", line)
            return
        c.fx.calibrate = True
    elif cmd == "dice":
        if c.phase == "choose":
            from companion import parts_board  # a chosen double or free-choice roll

            err = parts_board.command(c, args["dice"])
        else:
            err = c._dice_entry().command(c, args["dice"])
        if err:
            c.error(err, line)
    elif cmd == "view":
        c.view_out = c.view_due = args["on"]
    elif cmd == "gnu":
        _pc().command(c, args, line)


def calibrated(c, suspect, note):
    c.emit("calibrated", {"suspect": list(suspect), "note": note})
    c.say("Calibrated" if not suspect else "%d cells suspect" % len(suspect))
    c.render()
