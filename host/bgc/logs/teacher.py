"""The computer as a teacher (`bgc play --teach`, `bgc sim --computer ... --teach`): after each of
the person's plays and cube decisions, GNU Backgammon's mark and the better play when it lost more
than the doubtful threshold ("Bad -0.082: 24/18 13/11"), for the board's OLED (`gnu tell`).

The numbers are `bgc analyze`'s by construction: the match so far is rebuilt from the board's
events as its journal (journals.Recorder) and analysed by analysis.MatchAnalysis, the live review
of the web page, which asks GNU Backgammon to analyse each new record once (``analyse move`` of the
match imported up to it, at 0-ply as `bgc analyze` by default); the mark is the one GNU Backgammon
writes in its SGF, with its own thresholds (``show analysis``). A take-back (the journal's `back`
record) drops the game's cached records, so the replayed play is analysed afresh.
"""

from . import analysis
from .journals import Recorder

CUBE_WORDS = {"no double": "double", "double": "no double", "take": "pass", "pass": "take"}  # the other choice


def note_of(rec):
    """The teacher's words on one analysed record (analysis.analyse_sgf's), or None when GNU
    Backgammon gave it no mark: the cube decision's when it has one (a missed double before a
    roll, a double, take or pass), else the play's."""
    c = rec.get("cube") or {}
    if c.get("mark") and "error" in c:
        return "%s -%.3f: %s" % (c["mark"].capitalize(), c["error"], CUBE_WORDS[c["action"]])
    if rec.get("kind") == "move" and rec.get("mark") and "loss" in rec:
        return "%s -%.3f: %s" % (rec["mark"].capitalize(), rec["loss"], rec["best"])
    return None


class Teacher:
    """Follows the board's events (``feed``); ``note()`` after the person (``person``: 0 White, 1
    Black) played or took a cube decision: the words for the OLED, or None (no mark, or not due)."""

    def __init__(self, person, ply=0, nets="auto"):
        self.person = person
        self.recorder = Recorder()
        self.analysis = analysis.MatchAnalysis(ply, nets)
        self.due = 0  # the person's records still to be told about
        self.told = []  # (game number, the analysed record, its words or None): what was said

    def feed(self, ev):
        kind = ev.get("ev")
        self.recorder.feed(ev)
        if kind == "back":
            # the game's plays from the one taken back are analysed again when played again
            game = sum(1 for r in self.recorder.records if r.get("a") == "next")  # its index
            self.analysis.records = {k: v for k, v in self.analysis.records.items() if k[0] < game}
            self.due = 0
        elif kind == "play" and ev.get("p") == self.person:
            self.due += 1
        elif kind == "cube" and ev.get("p") == self.person:
            self.due += 1
        elif kind == "new":
            self.due = 0

    def note(self):
        """Analyse what is new; the words on the person's last decision, or None."""
        if not self.due:
            return None
        text = self.recorder.journal_text()
        if not text:
            return None
        try:
            result = self.analysis.update(text, "live")
        except analysis.NoAnalysis:
            self.due = 0
            return None
        games = result["games"]
        if not games:
            return None
        mine = [r for r in games[-1]["records"] if r["player"] == self.person]
        # a double is analysed once answered: wait for the answer
        if not mine or (mine[-1]["kind"] == "double" and "error" not in (mine[-1].get("cube") or {})):
            return None
        self.due = 0
        rec = mine[-1]
        words = note_of(rec)
        self.told.append((games[-1]["number"], rec, words))
        return words
