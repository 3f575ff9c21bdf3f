"""GNU Backgammon as a player: its play, its cube actions and its resignations at a named level.

The decisions are GNU Backgammon's own: the engine (PyPI ``gnubg``, the program as a Python
extension, the one ``bgc analyze`` uses) is given the match as it stands (the board's GNU
Backgammon Match ID and Position ID: score, cube, Crawford, whose turn, the dice, a double or a
resignation offered) with the computer's side set to ``gnubg`` at the level's settings, and asked
to ``play``: its own ComputerTurn (play.c) then resigns, doubles, takes, passes, beavers, accepts
or rejects a resignation, or moves, exactly as it does against a person in the gnubg program.
What it did is read from its match record. Before its roll it may double; when it does not it
rolls its own dice and moves, which is thrown away: the board rolls the dice, and the play is
asked for again with them.

The engine runs in one child process that lives as long as the player (loading its nets takes
about half a second; a question then costs what the level's search costs): it prints boards on
the C-level standard output and keeps global state, as analysis.py says. It loads the same nets
as ``bgc analyze`` (analysis.choose_nets) with the same cube efficiencies, so that at a level
without noise its best play is the one the analysis at that ply marks best.

Levels: GNU Backgammon's predefined settings (eval.c aecSettings, aiSettingsMoveFilter; the move
filters of movefilters.inc), named as it names them (aszSettings). Every level evaluates cubeful
with deterministic noise (the same position always gets the same noise, as the gnubg program's
computer player); the 0-ply levels do not prune (nothing to prune at 0-ply).
"""

import json
import os
import subprocess
import sys
import tempfile

from .analysis import AnalysisError, ENGINE_MISSING, choose_nets, data_dir_with_nets, engine_version, \
    CUBE_EFFICIENCY_107

# movefilters.inc: per ply searched (1-4), per lower ply (0-3): (accept, extra, threshold)
FILTER_NORMAL = (((0, 8, 0.16),),
                 ((0, 8, 0.16), (-1, 0, 0)),
                 ((0, 8, 0.16), (-1, 0, 0), (0, 2, 0.04)),
                 ((0, 8, 0.16), (-1, 0, 0), (0, 2, 0.04), (-1, 0, 0)))
FILTER_LARGE = (((0, 16, 0.32),),
                ((0, 16, 0.32), (-1, 0, 0)),
                ((0, 16, 0.32), (-1, 0, 0), (0, 4, 0.08)),
                ((0, 16, 0.32), (-1, 0, 0), (0, 4, 0.08), (-1, 0, 0)))

# (GNU Backgammon's name, plies, noise, move filter): eval.c's aecSettings and aiSettingsMoveFilter
LEVELS = (
    ("beginner", 0, 0.060, None),
    ("casual play", 0, 0.050, None),
    ("intermediate", 0, 0.040, None),
    ("advanced", 0, 0.015, None),
    ("expert", 0, 0.0, None),
    ("world class", 2, 0.0, FILTER_NORMAL),
    ("supremo", 2, 0.0, FILTER_LARGE),
    ("grandmaster", 3, 0.0, FILTER_LARGE),
)
DEFAULT_LEVEL = "expert"

# GNU Backgammon's rating of a player by its normalised error rate (mEMG per unforced play and
# close or actual cube decision: analysis.player_totals' "error_rate"): the manual's "Overall
# rating" table (gnu.org/software/gnubg/manual/html_node/Overall-rating.html), analysis.c's
# arThrsRating. (name, from, below)
RATINGS = (("Supernatural", 0.0, 2.0), ("World class", 2.0, 5.0), ("Expert", 5.0, 8.0), ("Advanced", 8.0, 12.0),
           ("Intermediate", 12.0, 18.0), ("Casual player", 18.0, 26.0), ("Beginner", 26.0, 35.0),
           ("Awful!", 35.0, float("inf")))
# the rating of the same name as a level: the band its error rate is expected in (GNU Backgammon
# names its levels and its ratings alike; supremo and grandmaster have no rating of their name)
LEVEL_RATING = {"beginner": "Beginner", "casual play": "Casual player", "intermediate": "Intermediate",
                "advanced": "Advanced", "expert": "Expert", "world class": "World class"}


def rating(error_rate):
    """GNU Backgammon's rating name for an error rate in mEMG (RATINGS)."""
    for name, lo, hi in RATINGS:
        if lo <= error_rate < hi:
            return name
    return RATINGS[-1][0]


def level_band(level):
    """(from, below) in mEMG: the error rates of the rating named as ``level``, or None."""
    name = LEVEL_RATING.get(read_level(level))
    return next(((lo, hi) for n, lo, hi in RATINGS if n == name), None)


def level_names():
    return [name for name, _, _, _ in LEVELS]


def read_level(text):
    """GNU Backgammon's name of the level ``text`` names ("world class", "worldclass",
    "world-class", "casual"); ValueError with the names for anything else."""
    key = (text or "").strip().lower().replace("-", " ").replace("_", " ")
    for name, _, _, _ in LEVELS:
        if key in (name, name.replace(" ", ""), name.split()[0]):
            return name
    raise ValueError("no level %r: the levels are %s" % (text, ", ".join(level_names())))


def level_commands(level, player, noise=True):
    """GNU Backgammon's commands that give ``player`` (0/1) the level's settings, for its plays
    and its cube decisions alike (as the gnubg program's level menu sets them); ``noise`` false:
    the level's search without its noise (the advice: GNU Backgammon's hint at the level)."""
    name, plies, level_noise, filters = next(x for x in LEVELS if x[0] == read_level(level))
    cmds = []
    for what in ("chequerplay", "cubedecision"):
        base = "set player %d %s evaluation " % (player, what)
        cmds += [base + "cubeful on", base + "plies %d" % plies, base + "prune %s" % ("on" if plies else "off"),
                 base + "deterministic on", base + "noise %.3f" % (level_noise if noise else 0.0)]
    for ply, row in enumerate(filters or (), 1):
        for lower, (accept, extra, threshold) in enumerate(row):
            cmds.append("set player %d movefilter %d %d %d %d %.3f" % (player, ply, lower, accept, extra, threshold))
    return cmds


_WORKER = r'''
import json, os, sys
reply = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the engine's boards and messages
import gnubg
from bgrules.matchid_read import decode
setup = json.loads(sys.argv[1])
for c in setup:
    gnubg.command(c)
reply.write(json.dumps({"ready": True}) + "\n")
reply.flush()
LETTER = {"X": 0, "O": 1}  # gnubg.match()'s players
for line in sys.stdin:
    q = json.loads(line)
    try:
        for p in (0, 1):
            gnubg.command("set player %d human" % p)
        gnubg.command("set jacoby %s" % ("on" if q["jacoby"] else "off"))
        gnubg.command("set beavers %d" % q["beavers"])
        gnubg.command("new match %d" % q["length"] if q["length"] else "new session")
        gnubg.command("set matchid " + q["match"])
        gnubg.command("set board " + q["pos"])
        if gnubg.matchid() != q["match"]:
            raise ValueError("GNU Backgammon read the Match ID %s as %s" % (q["match"], gnubg.matchid()))
        for c in q["level"]:
            gnubg.command(c)
        for c in q["offer"]:
            # the person's double or resignation (and the beavers after a double), made as they
            # were made: ``set matchid`` does not take an offer (GNU Backgammon clears it)
            gnubg.command(c)
        games = gnubg.match()["games"]
        game, before = len(games) - 1, len(games[-1]["game"])
        gnubg.command("set player %d gnubg" % q["computer"])
        gnubg.command("play")
        try:
            offered = decode(gnubg.matchid()).resign
        except ValueError:  # the game ended: GNU Backgammon writes a score past the match length
            offered = 0
        if offered and offered <= q["declined"]:
            # a resignation the person has declined in this game (ms.fResignationDeclined, which
            # the Match ID does not carry): declined again, GNU Backgammon plays on
            gnubg.command("decline")
            if not decode(gnubg.matchid()).resign and len(gnubg.match()["games"][game]["game"]) == before:
                gnubg.command("play")
        games = gnubg.match()["games"]
        # a play that ends the game may start the next one: the records from the game it was in
        recs = list(games[game]["game"][before:]) + [r for g in games[game + 1:] for r in g["game"]]
        out = []
        for r in recs:
            d = {"action": r["action"], "player": LETTER.get(r.get("player"))}
            if r["action"] == "move":
                d["steps"] = [list(s) for s in r.get("move") or ()]
                d["dice"] = list(r["dice"])
            if "resign" in r:
                d["resign"] = r["resign"]
            out.append(d)
        reply.write(json.dumps({"records": out, "after": gnubg.matchid()}) + "\n")
    except Exception as e:
        reply.write(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}) + "\n")
    reply.flush()
'''


class Decision:
    """What the computer does: ``action`` is "move" (``steps``, ``text``), "double", "roll" (no
    double: roll the dice), "take", "drop", "beaver", "resign" (``kind`` 1-3), "accept" or
    "reject" (a resignation offered to it)."""

    def __init__(self, action, steps=(), text="", kind=0):
        self.action, self.steps, self.text, self.kind = action, list(steps), text, kind

    def __repr__(self):
        return "Decision(%s%s)" % (self.action, " " + self.text if self.text else (
            " %d" % self.kind if self.kind else ""))


def _steps_applied(position_id, steps):
    """(cells after ``steps`` from ``position_id``, [(from, to, hit)]): the mover's view."""
    from bgrules import Position

    cells = bytearray(Position.from_id(position_id).cells)
    out = []
    for f, t in steps:
        hit = False
        if t > 0 and cells[26 + 25 - t] == 1:
            hit = True
            cells[26 + 25 - t] = 0
            cells[26 + 25] += 1
        cells[f] -= 1
        cells[t] += 1  # cells[0]: borne off
        out.append((f, t, hit))
    return cells, out


def final_id(position_id, steps):
    """Position ID after GNU Backgammon's play ``steps`` from ``position_id`` (the mover's view,
    the turn not passed: what the board's `gnu play pos=` takes)."""
    from bgrules import Position

    return Position(_steps_applied(position_id, steps)[0]).id()


def play_text(position_id, steps):
    """Notation of GNU Backgammon's play ``steps`` ((from, to) in the mover's numbering, 25 the
    bar, 0 off) from ``position_id`` (the mover's view): hits marked, as the board writes it."""
    from bgrules.notation import format_steps

    return format_steps(_steps_applied(position_id, steps)[1])


class GnubgPlayer:
    """GNU Backgammon playing one side of a match at ``level``; ``decide()`` asks it what it does
    now. One child process per player; ``close()`` (or ``with``) ends it."""

    def __init__(self, level=DEFAULT_LEVEL, nets="auto", timeout=120):
        if engine_version() is None:
            raise AnalysisError(ENGINE_MISSING)
        self.level = read_level(level)
        self.timeout = timeout
        self.nets = choose_nets(nets)
        self._tmp = tempfile.TemporaryDirectory(prefix="bgc-gnubg-player-")
        env = dict(os.environ, HOME=self._tmp.name)  # no ~/.gnubg of the user's
        data_dir = data_dir_with_nets(self.nets, os.path.join(self._tmp.name, "data"))
        if data_dir:
            env["GNUBG_DATA_DIR"] = data_dir
        setup = ["set threads 1", "set confirm new off", "set sound enable off", "set display off",
                 "set automatic roll off", "set automatic game off", "set player 0 name White",
                 "set player 1 name Black"]
        if self.nets["version"] == "1.00":
            setup += list(CUBE_EFFICIENCY_107)
        self._errors = open(os.path.join(self._tmp.name, "stderr.txt"), "w+b")
        self._proc = subprocess.Popen([sys.executable, "-c", _WORKER, json.dumps(setup)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self._errors, env=env, cwd=self._tmp.name,
                                      text=True, bufsize=1)
        self._answer()

    def _answer(self):
        import select

        ready, _, _ = select.select([self._proc.stdout], [], [], self.timeout)
        line = self._proc.stdout.readline() if ready else ""
        if not line:
            self._errors.seek(0)
            err = [x for x in self._errors.read().decode("utf-8", "replace").splitlines() if x.strip()]
            self.close()
            raise AnalysisError("GNU Backgammon's engine %s: %s" % (
                "did not answer" if not ready else "stopped", err[-1][:300] if err else "no output"))
        return json.loads(line)

    def ask(self, computer, match_id, position_id, length, jacoby=False, beavers=0, declined=0, offer=(), noise=True):
        """GNU Backgammon's records for its turn (its ``play``) as {"action", "player", ...};
        ``offer``: the commands that make the offer it answers (a double, its beavers, a
        resignation) from ``match_id``; ``noise``: False for the level's search without its noise."""
        q = {"declined": declined, "offer": offer, "computer": computer, "match": match_id, "pos": position_id, "length": length,
             "jacoby": bool(jacoby), "beavers": int(beavers), "level": level_commands(self.level, computer, noise)}
        self._proc.stdin.write(json.dumps(q) + "\n")
        self._proc.stdin.flush()
        a = self._answer()
        if "error" in a:
            raise AnalysisError("GNU Backgammon's engine refused the position: %s" % a["error"])
        return a["records"], a["after"]

    def advise(self, person, match_id, position_id, jacoby=False, beavers=0):
        """GNU Backgammon's best play for ``person``'s roll (the Match ID has the dice, the person to
        move): its own play at the level's search, without the level's noise, as its hint. A
        Decision("move"); its ``steps`` are empty when nothing can be played."""
        return self.decide(person, match_id, position_id, jacoby, beavers, noise=False)

    def decide(self, computer, match_id, position_id, jacoby=False, beavers=0, declined=0, beavered=0, noise=True):
        """What GNU Backgammon, playing ``computer`` (0 White, 1 Black), does in the match
        ``match_id`` (the board's GNU Backgammon Match ID, whose ``to_act`` is the computer) at
        ``position_id`` (the player on roll's view). ``declined``: the largest resignation the
        person already rejected in this game (the Match ID does not say; GNU Backgammon does not
        offer it again). ``beavered``: with a double offered, how many beavers (raccoons, otters)
        followed it, which the Match ID does not say either (only whose turn it is to answer)."""
        from bgrules.matchid import GAME_RESIGNED
        from bgrules.matchid_read import decode

        mk = decode(match_id)
        if mk.to_act != computer:
            raise ValueError("the Match ID %s has %s to act, not the computer" % (match_id, "White Black".split()[mk.to_act]))
        offer = []
        doubled, resign = mk.doubled, mk.resign
        if doubled:
            # The double and each beaver after it are made in the engine as they were made
            # (``set matchid`` clears an offer): the Match ID before the double (the player on
            # roll to act, the cube before the double and the beavers), then "double" and one
            # "redouble" (GNU Backgammon's beaver) per beaver, the two sides in turn. An odd
            # number of beavers leaves the doubler to answer: the count's parity is the Match
            # ID's, whatever ``beavered`` says.
            if (beavered % 2 == 1) != (mk.to_act == mk.on_roll):
                beavered = 1 if mk.to_act == mk.on_roll else 0
            offer = ["double"] + ["redouble"] * beavered
            mk.cube >>= beavered
            mk.to_act, mk.doubled = mk.on_roll, False
            match_id = mk.id()
        elif resign:
            # the person's resignation, offered in the engine by the person
            offer = ["resign " + "ngb"[resign - 1]]
            mk.to_act, mk.resign = 1 - computer, 0
            match_id = mk.id()
        for attempt in range(3):
            recs, after = self.ask(computer, match_id, position_id, mk.length, jacoby, beavers, declined, offer, noise)
            try:
                offered = decode(after)
            except ValueError:  # the game ended: GNU Backgammon writes a score past the match length
                offered = None
            if resign or offer or mk.dice[0] or (offered is not None and offered.resign) or \
                    any(r["player"] == computer for r in recs):
                break
            # Before its roll GNU Backgammon rolls dice of its own and plays them (thrown away):
            # once in the 20 beginner matches of docs/reliability.md that turn left no record of
            # the computer's at all (not traced); the question is asked again, with other dice
        if resign:
            # an accepted resignation ends the game (and is recorded); a rejected one leaves none
            return Decision("accept" if offered is None or offered.state == GAME_RESIGNED else "reject")
        if offered is not None and offered.resign and offered.to_act != computer:
            # an offer is no record until it is answered: GNU Backgammon's Match ID has it
            return Decision("resign", kind=offered.resign)
        mine = [r for r in recs if r["player"] == computer]
        if not mine:
            raise AnalysisError("GNU Backgammon did nothing in %s %s (its records %r, its Match ID after %s)" % (
                match_id, position_id, recs, after))
        r = mine[0]
        act = r["action"]
        if act == "resign":
            return Decision("resign", kind=int(r.get("resign") or 1))
        if act == "move":
            if mk.dice[0] == 0:
                return Decision("roll")  # no double: it rolled its own dice, which the board does
            steps = [(f, t) for f, t in r["steps"]]
            return Decision("move", steps, play_text(position_id, steps))
        if act == "double" and doubled:
            return Decision("beaver")  # GNU Backgammon's redouble of a double offered to it
        if act in ("double", "take", "drop"):
            return Decision(act)
        raise AnalysisError("GNU Backgammon answered %r, which the board has no action for" % (r,))

    def close(self):
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            try:
                proc.stdin.close()
                proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
        if getattr(self, "_errors", None):
            self._errors.close()
        if getattr(self, "_tmp", None):
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Opponent:
    """GNU Backgammon as the board's opponent: from the board's ``status`` events (and the others,
    through ``event()``), the `gnu` line to send when the computer's side must act
    (docs/protocol.md, "A match against the computer"), at most once for each state of the match.
    ``player``: a GnubgPlayer; ``side``: 0 White, 1 Black; ``jacoby``, ``beavers``: the match's
    until the board says them (its `new` event, or its answer to `options`: the match's own rules
    are the board's, which the Match ID carries only in part)."""

    def __init__(self, player, side, jacoby=False, beavers=0):
        self.player, self.side, self.jacoby, self.beavers = player, side, jacoby, beavers
        self.declined = 0  # the largest resignation of the computer's the person rejected this game
        self.beavered = 0  # beavers (raccoons, otters) since the double now offered
        self.last = None
        self.decisions = []  # (status, Decision): what it decided, for the tests and the teacher

    def event(self, ev):
        kind = ev.get("ev")
        if kind in ("resign", "cube", "roll", "play", "game_end", "new"):
            # something was done: the same state may come back and want a decision again (the
            # person offers again the resignation the computer rejected, in the same position)
            self.last = None
        if kind == "resign" and ev.get("action") == "reject" and ev.get("p") != self.side:
            self.declined = max(self.declined, ev.get("kind", 1))
        elif kind == "cube":
            self.beavered = self.beavered + 1 if ev.get("action") == "beaver" else 0
        elif kind in ("game_end", "new"):
            self.declined = self.beavered = 0
        rules = ev.get("settings") if kind == "new" else (ev.get("current") if kind == "options" else None)
        if rules:
            money = not rules.get("length")
            self.jacoby = money and bool(rules.get("jacoby"))
            self.beavers = int(rules.get("beavers") or 0) if money else 0

    def due(self, st):
        """Whether the computer is to act in the board's state ``st`` (a status event)."""
        ph = st.get("phase")
        if not st.get("match") or st.get("computer") != self.side:
            return False
        if ph == "roll" or (ph == "moving" and not st.get("gnu")):
            return st.get("on_roll") == self.side
        if ph in ("doubled", "resign"):
            return st.get("to_act") == self.side
        return False

    def line(self, st):
        """The `gnu` line for the state ``st``, or None (not the computer's to act, or sent already)."""
        if not self.due(st):
            return None
        key = (st.get("game"), st["match"], st.get("pos"), st.get("phase"))
        if key == self.last:
            return None
        self.last = key
        d = self.player.decide(self.side, st["match"], st["pos"], self.jacoby, self.beavers, self.declined, self.beavered)
        self.decisions.append((st, d))
        if d.action == "move":
            return "gnu play pos=%s" % final_id(st["pos"], d.steps)
        if d.action == "resign":
            return "gnu resign kind=%d" % d.kind
        return "gnu " + d.action

    def resend(self):
        """Forget the last state: the line is sent again (the board was reset, the link came back)."""
        self.last = None
