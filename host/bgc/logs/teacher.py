"""The computer as a teacher (`bgc play --teach`, `bgc sim --computer ... --teach`): after each of
the person's plays and cube decisions, GNU Backgammon's mark and the better play when it lost more
than the doubtful threshold ("Bad -0.082: 24/18 13/11"), for the board's OLED (`gnu tell`).

The numbers are `bgc analyze`'s by construction: the match so far is rebuilt from the board's
events as its journal (journals.Recorder) and analysed by analysis.MatchAnalysis, the live review
of the web page, which asks GNU Backgammon to analyse each new record once (``analyse move`` of the
match imported up to it, at 0-ply as `bgc analyze` by default); the mark is the one GNU Backgammon
writes in its SGF, with its own thresholds (``show analysis``). After a take-back (the journal's
`back` record) the game is analysed afresh, and the words said on the plays taken back are dropped.
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
    Black) played or took a cube decision: the words for the OLED, or None (no mark, or its
    analysis not there yet: an answer to a double is analysed with it)."""

    def __init__(self, person, ply=0, nets="auto"):
        self.person = person
        self.recorder = Recorder()
        self.analysis = analysis.MatchAnalysis(ply, nets)
        self.pending = []  # the person's decisions still to be told about: their index in the records
        # (index in the recorder's records, game number, the analysed record, its words or None):
        # what was said about the decisions that stand (a take-back drops those it took back)
        self.told = []

    def feed(self, ev):
        kind = ev.get("ev")
        self.recorder.feed(ev)
        recs = self.recorder.records
        if kind == "back":
            # the words on the play taken back and after it go (MatchAnalysis analyses the game afresh)
            play = max((i for i, r in enumerate(recs) if r.get("a") == "play" and r.get("p") == ev.get("p")),
                       default=len(recs))
            self.told = [t for t in self.told if t[0] < play]
            self.pending = [i for i in self.pending if i < play]
        elif kind == "new":
            self.pending, self.told = [], []
        elif ev.get("p") == self.person and (kind == "play" or (
                kind == "cube" and ev.get("action") in analysis.RECORD_ACTIONS)):
            self.pending.append(len(recs) - 1)

    def note(self):
        """Analyse what is new; the words on the person's latest decision analysed now, or None."""
        from .journals import replay_text

        text = self.recorder.journal_text() if self.pending else None
        if not text:
            return None
        try:
            self.analysis.update(text, "live")
        except analysis.NoAnalysis:
            self.pending = []
            return None
        log = replay_text(text, "live")
        place = {}  # journal line -> (game index, index among the analysed records): MatchAnalysis's keys
        for gi, g in enumerate(log.games):
            for k, x in enumerate(x for x in g.actions if x["a"] in analysis.RECORD_ACTIONS):
                place[x["line"]] = (gi, k)
        words, still = None, []
        for at in self.pending:
            where = place.get(at + 1)  # the settings are line 1
            if where is None:
                continue
            rec = self.analysis.records.get(where)
            if rec is None or (rec["kind"] != "move" and "error" not in (rec.get("cube") or {})):
                still.append(at)  # not analysed yet
                continue
            said = note_of(rec)
            self.told.append((at, log.games[where[0]].number, rec, said))
            words = said or words
        self.pending = still
        return words
