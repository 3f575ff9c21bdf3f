"""What the web page shows, built from the board's serial events (and, for the virtual board, its
checkers, LEDs and OLED), and the match journal rebuilt from the same events for the save links."""

import json
import threading

from ..logs.journals import Recorder  # noqa: F401  (the page saves the match seen from its events)
from ..pico.events import describe
from ..rules.engine import colour_counts

LED_CODES = ("off", "legal", "lifted", "illegal", "turn", "hint", "gnu_from", "gnu_to", "gnu_hit", "gnu_off")


def counts_from_status(status, variant=None):
    """(white, black) checker counts per board point (white's numbering; 0 unused, 25 = the bar),
    from a status event's Position ID (the view of the player on roll) on the track of
    ``variant`` (a bgrules ruleset key: black's point p is Rules.opposite[p]); None when there is
    none. Checkers waiting off the board, like borne-off ones, are on no point."""
    from bgrules import Position, PositionError, STANDARD
    from bgrules.rules import ruleset

    try:
        opposite = ruleset(variant).opposite if variant else STANDARD.opposite
        pos = Position.from_id(status.get("pos") or "", opposite)
    except (PositionError, TypeError, ValueError, AttributeError):
        return None
    return colour_counts(pos, status.get("on_roll", 0) == 0, opposite)


def off_from_status(status, variant=None):
    """[white, black]: the checkers borne off as the firmware counts them, from a status event
    (its Position ID, which counts waiting checkers as off too, less ``wait``); None when there
    is no position. A checker in a player's hand is still on the board for the firmware."""
    from bgrules.rules import ruleset

    counts = counts_from_status(status, variant)
    if counts is None:
        return None
    try:
        total = ruleset(variant).checkers if variant else 15
    except (KeyError, ValueError):
        total = 15
    wait = status.get("wait") or [0, 0]
    on_roll = 0 if status.get("on_roll", 0) == 0 else 1
    off = []
    for colour in (0, 1):
        waiting = wait[0] if colour == on_roll else wait[1]
        off.append(max(0, total - sum(counts[colour][1:26]) - waiting))
    return off


class Hub:
    """The state every open page shows; ``wait`` blocks until it changes (for the event stream)."""

    def __init__(self, source, journal_text=None):
        self.cond = threading.Condition()
        self.seq = 0
        self.recorder = Recorder()
        self._journal_text = journal_text  # callable: the match journal where the host has it
        self._analysis = None  # analysis.MatchAnalysis of the match, kept between reviews
        self._analysis_lock = threading.Lock()
        self.state = {"source": source, "connected": True, "status": None, "moves": [], "last": "",
                      "checkers": None, "off": None, "leds": None, "oled": None, "events": 0}
        self._dice = {}

    def _changed(self):
        self.seq += 1
        self.cond.notify_all()

    def feed(self, ev):
        """One serial event."""
        with self.cond:
            s = self.state
            kind = ev.get("ev")
            s["events"] += 1
            self.recorder.feed(ev)
            if kind == "status":
                s["status"] = ev
                if ev.get("msg"):
                    s["last"] = ev["msg"]
                if s["checkers"] is None or not s.get("physical"):
                    settings = self.recorder.records[0] if self.recorder.records else {}
                    # the game in play names its own ruleset in a match of games in turn (Tavli)
                    counts = counts_from_status(ev, ev.get("rules") or settings.get("rules"))
                    if counts is not None:
                        s["checkers"] = {"white": counts[0], "black": counts[1]}
                settings = self.recorder.records[0] if self.recorder.records else {}
                s["off"] = off_from_status(ev, ev.get("rules") or settings.get("rules"))
            elif kind == "view":
                s["oled"] = {"rows": list(ev.get("screen") or [])}
                codes = ev.get("leds") or ""
                s["leds"] = [LED_CODES[int(c)] if c.isdigit() and int(c) < len(LED_CODES) else "off" for c in codes]
            else:
                s["last"] = describe(ev, s["status"])
                names = (s["status"] or {}).get("names") or ["White", "Black"]
                if kind == "new":
                    s["moves"] = []
                    names = (ev.get("settings") or {}).get("names") or names
                if kind == "roll" and not ev.get("tie"):
                    d = ev.get("dice") or [0, 0]
                    self._dice[ev.get("p")] = "%d-%d" % (max(d), min(d))
                elif kind == "play" and ev.get("p") in (0, 1):
                    s["moves"].append({"p": ev["p"], "text": "%s %s: %s%s" % (
                        names[ev["p"]], self._dice.pop(ev["p"], ""), ev.get("move") or "no move",
                        " (accepted)" if ev.get("condoned") else "")})
                elif kind in ("cube", "resign", "game_end", "match_end", "pass", "back"):
                    s["moves"].append({"p": ev.get("p", ev.get("winner", -1)), "text": s["last"]})
            self._changed()

    def set_view(self, checkers, leds, oled_rows, oled_pixels=None):
        """The virtual board as it is: checkers (white, black lists 0..25), the LED chain (colour
        names per LED), the OLED (8 text rows; its 64 pixel rows as hex where known)."""
        with self.cond:
            s = self.state
            s["physical"] = True
            s["checkers"] = {"white": list(checkers[0]), "black": list(checkers[1])}
            s["leds"] = list(leds)
            s["oled"] = {"rows": list(oled_rows)}
            if oled_pixels is not None:
                s["oled"]["pixels"] = list(oled_pixels)
            self._changed()

    def set_connected(self, connected):
        with self.cond:
            if self.state["connected"] != connected:
                self.state["connected"] = connected
                self._changed()

    def snapshot(self):
        with self.cond:
            return self.seq, json.dumps(self.state)

    def wait(self, seq, timeout):
        """(seq, state JSON) once the state is newer than ``seq``; None after ``timeout`` seconds."""
        with self.cond:
            if self.seq == seq:
                self.cond.wait(timeout)
            if self.seq == seq:
                return None
            return self.seq, json.dumps(self.state)

    def _match_text(self, what):
        """The journal of the match so far; ValueError says why there is none."""
        text = self._journal_text() if self._journal_text else None
        if not text:
            with self.cond:
                text = self.recorder.journal_text()
        if not text:
            raise ValueError("no match to %s yet: the page %ss a match it has seen from its start "
                             "(for an older one, bgc pull copies the journal off the board)" % (what, what))
        return text

    def _match_log(self, what="save"):
        """The match so far, replayed (journals.MatchLog); ValueError says why there is none."""
        from ..logs.journals import replay_text

        log = replay_text(self._match_text(what), "live")
        if not log.games:
            raise ValueError("the match has no game yet")
        return log

    def review(self, ply=0):
        """GNU Backgammon's analysis of the match so far (bgc analyze's JSON, without the SGF);
        ValueError says why there is none (no match, a variant, the engine missing)."""
        from ..logs import analysis
        from ..logs.journals import replay_text

        text = self._match_text("review")
        log = replay_text(text, "live")
        if not log.games:
            raise ValueError("the match has no game yet")
        if analysis.engine_version() is None:
            raise ValueError(analysis.ENGINE_MISSING.replace("\nhint: ", "; "))
        # the plays and cube decisions analysed before are kept: after a play (the live review)
        # the engine analyses that play alone, not the match again
        with self._analysis_lock:
            if self._analysis is None or self._analysis.ply != ply:
                self._analysis = analysis.MatchAnalysis(ply)
            try:
                result = self._analysis.update(text, "live")
            except (analysis.NoAnalysis, analysis.AnalysisError) as exc:
                raise ValueError(str(exc).replace("\nhint: ", "; ")) from None
        # the board before each play and at each cube action, as the page draws it (white's numbering)
        variant = (log.settings or {}).get("rules")
        for g in result["games"]:
            for rec in g["records"]:
                if rec.get("position"):
                    counts = counts_from_status({"pos": rec["position"],
                                                 "on_roll": rec.get("position_player", rec["player"])}, variant)
                    if counts:
                        rec["board"] = {"white": counts[0], "black": counts[1]}
        return result

    def export(self, fmt):
        """(filename, text) of the match so far as .mat or .sgf; ValueError says why not."""
        from ..logs.export import EXTENSIONS, export_text

        log = self._match_log()
        out, _warnings = export_text(log, fmt)
        names = log.names
        return "%s-%s%s" % (names[0], names[1], EXTENSIONS[fmt]), out
