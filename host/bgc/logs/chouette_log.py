"""A chouette evening's journal on the host: replayed through the firmware's own
``companion.chouette_session`` (and so ``bgrules.chouette`` and ``bgrules.Match``), then told in
words (``bgc replay``), as the ledger in CSV and as JSON (``bgc export``).

GNU Backgammon's .mat and .sgf hold a match between two players; a chouette has a box against a
changing team with several cubes, so those formats are refused for it (docs/chouette.md).
"""

import csv
import io
import json
import os

from bgrules.chouette import CLOSED, cube_words, signed
from companion import journal as J
from companion import recovery

from .. import __version__


class ChouetteLog:
    def __init__(self, source):
        self.source = source
        self.settings = None
        self.chouette = None
        self.events = []  # (line, game number, text) in order
        self.problem = None  # (line, why)
        self.records = 0

    @property
    def complete(self):
        """The evening was ended at the board (CUBE hold between games)."""
        return self.chouette is not None and self.chouette.phase == CLOSED

    @property
    def ledger(self):
        return self.chouette.ledger if self.chouette else []

    def summary(self):
        if self.chouette is None:
            return "no chouette (nothing readable)"
        ch = self.chouette
        n = len(ch.ledger)
        return "chouette of %d players (%s), %d game%s settled, totals %s" % (
            len(ch.players), cube_words(ch.cubes), n, "" if n == 1 else "s",
            ", ".join("%s %s" % (p, signed(ch.totals[p])) for p in ch.players))


def is_chouette_text(text):
    for line in text.split("\n"):
        if line.strip():
            try:
                return J.decode(line).get("a") == "chouette"
            except J.JournalError:
                return False
    return False


def is_chouette_file(path):
    from .journals import read_text

    try:
        return is_chouette_text(read_text(path))
    except OSError:
        return False


def _describe(ch, rec, before):
    """The record in words, given the chouette after it and a few facts from before it."""
    a = rec["a"]
    m = ch.match
    if a == "seat":
        return "%s rolls %d for the seats" % (rec["name"], rec["die"]) + (
            "; the line: %s (box %s, captain %s)" % (", ".join(ch.line), ch.line[0], ch.line[1])
            if before["phase"] == "seating" and ch.phase != "seating" else "")
    if a == "cgame":
        return "game %d: box %s, captain %s, team %s; %s" % (
            ch.game, ch.box(), ch.captain, ", ".join(ch.playing[1:]) or "-", cube_words(ch.cubes))
    if a == "open":
        if m.phase == "opening":
            return "opening roll %d-%d: equal, roll again" % tuple(rec["dice"])
        return "opening roll %d-%d: %s starts" % (rec["dice"][0], rec["dice"][1], m.names[m.on_roll])
    if a == "roll":
        return "%s rolls %d-%d" % (before["names"][rec["p"]], rec["dice"][0], rec["dice"][1])
    if a == "play":
        return "%s plays %s%s" % (before["names"][rec["p"]], rec.get("move") or "no move",
                                  " (illegal, condoned)" if rec.get("condoned") else "")
    if a == "pass":
        return "%s is closed out: no roll" % before["names"][rec["p"]]
    if a == "cdouble":
        if rec["side"] == 0:
            return "the box %s doubles %s" % (before["box"], ", ".join(ch.offer_names))
        return "%s doubles the box%s" % (ch.doubler, " for the team" if ch.cubes == "common" else "")
    if a == "canswer":
        text = "%s %s" % (rec["name"], "takes" if rec["take"] else "drops")
        if not ch.asking:
            takers = [n for n, t in ch.answers if t]
            if len(takers) == 1 and takers[0] not in ch.playing:
                text += "; %s would take alone and must drop too (%d players or more)" % (takers[0], ch.lone_take)
            if before["captain"] != ch.captain and ch.captain and ch.phase == "game" and not ch.is_over():
                text += "; %s is captain, %s goes to the end of the line" % (ch.captain, before["captain"])
        return text
    if a == "cbox":
        return "the box %s %s" % (before["box"], "takes" if rec["take"] else "drops")
    if a == "resign":
        return "%s resigns a %s" % (before["names"][rec["p"]], ("", "single game", "gammon", "backgammon")[rec["kind"]])
    if a in ("accept", "reject"):
        return "%s %ss the resignation" % (before["names"][rec["p"]], a)
    if a == "join":
        return "%s joins at the end of the line" % rec["name"]
    if a == "leave":
        return "%s leaves the chouette" % rec["name"]
    if a == "cubes":
        return "from now on: %s" % cube_words(rec["cubes"])
    if a == "partner":
        how = "" if any(rec.get("accepts") or []) else ", drawn by lot"
        start = "; %s is captain" % ch.captain if ch.phase == "game" and ch.captain != before["captain"] else ""
        return "%s partners the box%s%s" % (ch.partner, how, start)
    if a == "close":
        return "the evening ends"
    if a == "note":
        return "note: %s" % rec.get("text", "")
    return a


def replay_text(text, source="journal"):
    """Replay a chouette journal; never raises for bad content (``problem`` says where)."""
    log = ChouetteLog(source)
    ch = None
    settled = 0
    number = 0
    for line in text.split("\n"):
        number += 1
        if not line.strip():
            continue
        try:
            rec = J.decode(line)
        except J.JournalError as exc:
            log.problem = (number, "line %d: unreadable (%s)" % (number, exc))
            break
        if ch is None:
            try:
                ch = recovery.new_chouette(rec)
            except J.JournalError as exc:
                log.problem = (number, "line %d: %s" % (number, exc))
                break
            log.settings = rec
            log.chouette = ch
            log.records = 1
            continue
        m = ch.match
        before = {"phase": ch.phase, "box": ch.box(), "captain": ch.captain,
                  "names": m.names if m is not None else ("", "")}
        try:
            recovery.apply_chouette(ch, rec)
        except J.JournalError as exc:
            log.problem = (number, "line %d: %s" % (number, exc))
            break
        log.records += 1
        if rec["a"] not in ("end", "ledger"):
            log.events.append((number, ch.game, _describe(ch, rec, before)))
        if len(ch.ledger) > settled:
            settled = len(ch.ledger)
            g, box, cap, rows, = ch.ledger[-1]
            won = ch.result[4]
            log.events.append((number, g, "%s wins: %s" % ("the box %s" % box if won else "the team (captain %s)" % cap,
                                                          ", ".join("%s %s" % (n, signed(p)) for n, p in rows))))
            log.events.append((number, g, "the line: %s" % ", ".join(ch.line)))
    return log


def load(path):
    from .journals import read_text

    return replay_text(read_text(path), path)


def text_lines(log):
    out = ["%s: %s" % (os.path.basename(log.source), log.summary())]
    game = -1
    for line, g, text in log.events:
        if g != game:
            game = g
            out.append("")
            out.append("Seats" if g == 0 else "Game %d" % g)
        out.append("  line %3d: %s" % (line, text))
    out.append("")
    out += ledger_lines(log)
    return out


def ledger_lines(log):
    ch = log.chouette
    if ch is None:
        return []
    out = ["Ledger (points per game, + won, - lost; every game sums to 0)"]
    head = "%-6s" % "game" + "".join("%9s" % p[:8] for p in ch.players)
    out.append(head)
    running = dict((p, 0) for p in ch.players)
    for g, box, cap, rows in ch.ledger:
        d = dict(rows)
        for p in d:
            running[p] += d[p]
        out.append("%-6d" % g + "".join("%9s" % (signed(d[p]) if p in d else "") for p in ch.players))
    out.append("%-6s" % "total" + "".join("%9s" % signed(running[p]) for p in ch.players))
    return out


def csv_text(log):
    """The ledger: one row per player per game, with the running total."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["game", "player", "role", "points", "total"])
    if log.chouette is None:
        return buf.getvalue()
    ch = log.chouette
    running = dict((p, 0) for p in ch.players)
    for i, (g, box, cap, rows) in enumerate(ch.ledger):
        for n, p in rows:
            running[n] += p
            role = "box" if n == box else ("partner" if n == ch.partners[i] else ("captain" if n == cap else "team"))
            w.writerow([g, n, role, signed(p).lstrip("+"), signed(running[n]).lstrip("+")])
    return buf.getvalue()


def json_data(log):
    ch = log.chouette
    games = []
    for g, box, cap, rows in (ch.ledger if ch else []):
        games.append({"game": g, "box": box, "captain": cap, "points": [[n, p] for n, p in rows]})
    return {
        "format": "bgc-chouette", "version": 1, "generator": "bgc " + __version__,
        "source": os.path.basename(log.source), "settings": log.settings,
        "players": list(ch.players) if ch else [], "line": list(ch.line) if ch else [],
        "totals": [[p, ch.totals[p]] for p in ch.players] if ch else [],
        "ledger": games,
        "events": [{"line": ln, "game": g, "text": t} for ln, g, t in log.events],
        "stopped": {"line": log.problem[0], "reason": log.problem[1]} if log.problem else None,
    }


def export_text(log, fmt):
    """(text, warnings); ValueError for a format a chouette cannot have."""
    warnings = ["the journal stops at %s" % log.problem[1]] if log.problem else []
    if fmt == "csv":
        return csv_text(log), warnings
    if fmt == "json":
        return json.dumps(json_data(log), indent=1) + "\n", warnings
    if fmt == "text":
        return "\n".join(text_lines(log)) + "\n", warnings
    raise ValueError("a chouette has no %s export: GNU Backgammon's .mat and .sgf hold a match between two "
                     "players, not a box against a team; use -f csv (the ledger), json (everything) or text" % fmt)
