# The controller's set-up phase (a mixin of controller.Companion): the new-match menu and a new
# match (from the menu or the serial command ``new``), journaled before it starts.

from bgrules.match import MatchError, MATCH_OVER
from bgrules.rules import VARIANTS
from companion import journal as J
from companion.codes import SHORT, LONG, chouette as _cs

LENGTHS = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 25)


class SetupPhase:
    def _setup(self):
        self.phase = "setup"
        self.cursor = 0
        self.pick = None
        self.hint = ""

    def _menu_items(self):
        s = self.settings
        items = [("Length", "money" if not s["length"] else str(s["length"])), ("Game", s["rules"])]
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

    def _menu(self, roll, kind):
        items = self._menu_items()
        if self.cursor >= len(items):
            self.cursor = 0
        label = items[self.cursor][0]
        if roll and (kind == LONG or label == "Start"):
            if self.settings["chouette"] and not self.settings["length"]:
                return _cs().start(self, _cs().roster(self.settings), self.settings["cubes"], force=True)
            return self.new_match(dict(self.settings), True)
        if not roll:
            self.cursor = (self.cursor + (1 if kind == SHORT else -1)) % len(items)
            self.say("")
            return
        s = self.settings
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
            s["rules"] = VARIANTS[(VARIANTS.index(s["rules"]) + 1) % len(VARIANTS)]
        elif label == "Own dice":
            s["own_dice"] = not s["own_dice"]
        elif label == "Chouette":
            s["chouette"] = 0 if s["chouette"] >= _cs().MENU_MAX else max(3, s["chouette"] + 1)
        elif label == "Cubes":
            s["cubes"] = "several" if s["cubes"] == "common" else "common"

    def new_match(self, settings, force=False):
        """Start a new match (menu or the ``new`` command). Returns the error text or None."""
        if self.match is not None and not force and self.match.phase != MATCH_OVER and self.phase != "setup":
            return "a match is in progress: new force=1"
        s = self.settings.copy()
        for k in settings:
            if k in s:
                s[k] = settings[k]
        length = s["length"]
        rec = J.settings_record(length, s["crawford"] if length else False, s["holland"] if length else False,
                                s["auto"] if not length else 0, s["beavers"] if not length else 0,
                                s["jacoby"] if not length else False, s["names"], settings.get("variant") or settings.get("rules", "standard"))
        if s["own_dice"]:
            rec["dice"] = "own"  # the players roll their own dice and key them in
        try:
            match = J.new_match(rec)
        except (MatchError, J.JournalError) as exc:
            self.say(str(exc))
            return str(exc)
        name = self.store.next_name()
        for gone in self.store.cleanup(current=name):
            self.emit("note", {"text": "flash low: removed exported log %s" % gone})
        j = J.Journal(self.store.path(name))
        try:
            j.append(rec)
        except OSError as exc:
            self.say("Flash write failed")
            return "journal write failed: %s" % exc
        self.settings = s
        self._own_dice(s["own_dice"])
        self.match = match
        self.chouette = None
        self.journal = j
        self.name = name
        self.pick = None
        self.emit("new", {"journal": self.store.path(name), "settings": rec})
        free = self.store.free()
        self.say("Flash low: pull logs" if 0 <= free < 16 * 1024 else "New match")
        self._board("start")
        self.status()
        return None
