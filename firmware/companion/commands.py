# The controller's serial commands (a mixin of controller.Companion): a line from the host parsed
# (companion.protocol) and answered with events; the calibration main.py took on request.

from bgrules.rules import VARIANTS
from companion import protocol
from companion.codes import chouette as _cs


class Commands:
    # --- serial commands --------------------------------------------------------------------

    def on_line(self, line, now):
        self.now = now
        try:
            cmd, args = protocol.parse(line)
        except protocol.ProtocolError as exc:
            self.error(str(exc), line)
            return
        try:
            self._command(cmd, args, line)
        finally:
            self.render()

    def _command(self, cmd, args, line):
        if cmd == "status":
            self.status()
        elif cmd == "new":
            force = args.pop("force", False)
            err = self.new_match(args, force)
            if err:
                self.error(err, line)
        elif cmd == "options":
            cur = None
            if self.match is not None:
                m = self.match
                cur = {"length": m.length, "crawford": m.crawford_rule, "holland": m.holland, "auto": m.auto_doubles,
                       "beavers": m.beavers, "jacoby": m.jacoby, "names": list(m.names)}
            self.emit("options", {"current": cur, "choices": {
                "length": "0 (money) or 1-64", "crawford": [True, False], "holland": [True, False],
                "auto": "0-15 (money)", "beavers": "0-3 (money)", "jacoby": [True, False],
                "names": "two names, 1-20 characters", "rules": list(VARIANTS)}})
        elif cmd == "logs":
            self.emit("logs", {"files": self.store.listing(self.name), "free": self.store.free()})
        elif cmd == "delete":
            try:
                self.store.delete(args["name"], self.name)
            except (ValueError, OSError) as exc:
                self.error(str(exc), line)
                return
            self.emit("deleted", {"name": args["name"]})
        elif cmd in protocol.CHOUETTE_COMMANDS:
            _cs().command(self, cmd, args, line)
        elif cmd == "calibrate":
            if self.phase not in ("setup", "gameover", "matchover"):
                self.error("calibrate needs an empty board: finish or leave the game first", line)
                return
            self.fx.calibrate = True
        elif cmd == "dice":
            err = self._dice_entry().command(self, args["dice"])
            if err:
                self.error(err, line)
        elif cmd == "view":
            self.view_out = self.view_due = args["on"]

    def calibrated(self, suspect, note):
        """main.py took the empty-board baseline."""
        self.emit("calibrated", {"suspect": list(suspect), "note": note})
        self.say("Calibrated" if not suspect else "%d cells suspect" % len(suspect))
        self.render()
