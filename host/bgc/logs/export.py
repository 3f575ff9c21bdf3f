"""Exports of a replayed journal (journals.MatchLog): .mat, .sgf, JSON and plain text, and the
check of an exported file against GNU Backgammon itself.

``export_text(log, fmt)`` returns (text, warnings). ``gnubg_read(paths)`` runs GNU Backgammon
(``gnubg -t -q -r -p``) once over any number of .mat/.sgf files and returns the matches as its
Python interface gives them; ``compare(log, match)`` lists every difference between what GNU
Backgammon rebuilt and our replay: the Position ID before every move (and after each game's last
one where GNU Backgammon shows it), the dice, the cube actions, each game's starting score,
winner and points.
"""

import json
import os
import shutil
import subprocess
import tempfile

from bgrules import Position

from .. import __version__
from .export_mat import mat_text
from .export_sgf import sgf_text
from .journals import action_text, result_text

FORMATS = ("mat", "sgf", "json", "text", "csv")
EXTENSIONS = {"mat": ".mat", "sgf": ".sgf", "json": ".json", "text": ".txt", "csv": ".csv"}
GNUBG_CANDIDATES = ("/usr/games/gnubg", "/usr/bin/gnubg", "/usr/local/bin/gnubg")


def json_data(log):
    """The match as plain data: settings, games, actions (positions as Position IDs)."""
    games = []
    for g in log.games:
        actions = []
        for act in g.actions:
            d = {}
            for k, v in act.items():
                if isinstance(v, Position):
                    v = v.id()
                elif k == "steps":
                    v = [list(s) for s in v]
                elif isinstance(v, tuple):
                    v = list(v)
                d[k] = v
            actions.append(d)
        result = None
        if g.result:
            w, pts, kind, how = g.result
            result = {"winner": w, "points": pts, "kind": kind, "how": how}
        games.append({"game": g.number, "rules": g.rules.key if g.rules else None, "score": g.score,
                      "crawford": g.crawford, "cube": g.start_cube, "actions": actions, "result": result})
        if g.setup is not None:
            games[-1]["setup"] = {"pos": g.setup["pos"].id(), "mid": g.setup["mid"], "on_roll": g.setup["on_roll"],
                                  "owner": g.setup["owner"]}
    return {
        "format": "bgc-match", "version": 1, "generator": "bgc " + __version__,
        "source": os.path.basename(log.source), "settings": log.settings, "names": list(log.names),
        "length": log.length, "score": log.score(), "complete": log.complete,
        "winner": log.match.winner if log.match is not None else None,
        "stopped": {"line": log.problem[0], "reason": log.problem[1]} if log.problem else None,
        "games": games,
    }


class _Cube:
    """The cube's value and owner (-1: centred) as a game's actions go by."""

    def __init__(self, value):
        self.value, self.owner = value, -1
        self.offered = None  # (value, who owns it once taken) while a double waits for an answer

    def feed(self, act):
        a = act["a"]
        if a == "tie":
            self.value = act.get("cube", self.value)  # an automatic double
        elif a == "double":
            self.offered = (act["cube"], 1 - act["p"])
        elif a == "beaver" and self.offered:
            # A beaver (raccoon, otter) raises the offer; the cube still goes to the player who
            # was doubled (bgrules.match, Seed 000 FAQ).
            self.offered = (act["cube"], self.offered[1])
        elif a == "take" and self.offered:
            self.value, self.owner = self.offered
            self.offered = None


def text_lines(log, boards=False):
    """The match move by move in words (also what ``bgc replay`` prints)."""
    from ..rules.engine import board_lines

    names = log.names
    kind = "money session" if log.money else "%d-point match" % log.length
    out = ["%s: %s, %s (white) vs %s (black)" % (os.path.basename(log.source), kind, names[0], names[1])]
    for g in log.games:
        if not g.actions and g.result is None:
            continue
        head = "Game %d" % g.number
        if not log.money:
            head += " - score %s %d, %s %d" % (names[0], g.score[0], names[1], g.score[1])
        if g.crawford:
            head += " (Crawford game)"
        if g.setup is not None:
            head += " - from a set position"
        if g.rules is not None and g.rules is not log.match.series:
            head += " - %s" % g.rules.name  # a match of games in turn (Tavli) names each game
        out.append("")
        out.append(head)
        n = 0
        cube = _Cube(g.start_cube)
        if g.setup is not None:
            cube.owner = g.setup["owner"]
            out.append("       " + setup_text(log, g))
            if boards:
                out += ["       " + line for line in board_lines(g.setup["pos"], g.setup["on_roll"], names, cube.value,
                                                                 cube.owner, (g.rules or log.match.rules).opposite)]
        for act in g.actions:
            n += 1
            out.append("  %3d. %s" % (n, action_text(log, act)))
            cube.feed(act)
            if boards and act["a"] == "move":
                pos = act["final"].swapped()
                out += ["       " + line for line in board_lines(pos, 1 - act["p"], names, cube.value, cube.owner,
                                                                 (g.rules or log.match.rules).opposite)]
        out.append("  " + result_text(log, g))
    out.append("")
    s = log.score()
    out.append("Score: %s %d, %s %d%s" % (names[0], s[0], names[1], s[1],
                                         " - %s wins the match" % names[log.match.winner]
                                         if log.match is not None and log.match.winner is not None else ""))
    return out


def setup_text(log, game):
    """The set position a game starts at, in words (bgc replay, -f text)."""
    st = game.setup
    text = "set position %s, Match ID %s: %s on roll" % (st["pos"].id(), st["mid"], log.names[st["on_roll"]])
    if st["dice"]:
        text += " with %d-%d" % st["dice"]
    if st["cube"] > 1:
        text += ", cube %d %s" % (st["cube"], "centred" if st["owner"] < 0 else "owned by " + log.names[st["owner"]])
    return text


# The rulesets GNU Backgammon plays, so the only ones a .mat or .sgf may hold.
GNUBG_VARIANTS = ("standard", "nackgammon", "hypergammon")


class NotInFormat(ValueError):
    """The format asked for cannot hold this match."""


class NotGnubgVariant(NotInFormat):
    """A .mat or .sgf was asked for a variant GNU Backgammon does not play."""


def export_text(log, fmt, date=None):
    """(text, warnings) for one format."""
    variant = (log.settings or {}).get("rules", "standard")
    if fmt in ("mat", "sgf") and variant not in GNUBG_VARIANTS:
        raise NotGnubgVariant("this match is %s, which GNU Backgammon does not play: .%s is only for %s; "
                              "use -f json or -f text" % (variant, fmt, ", ".join(GNUBG_VARIANTS)))
    if fmt == "mat":
        if any(g.setup is not None for g in log.games):
            # as GNU Backgammon's own .mat export of a game set up with `set board` ("this game was
            # edited during play and cannot be exported correctly in this format"): a .mat starts
            # every game from the opening
            raise NotInFormat("the match starts at a set position, which a .mat cannot hold (its games start at the "
                              "opening; GNU Backgammon refuses the same): use -f sgf")
        return mat_text(log, date)
    if fmt == "sgf":
        return sgf_text(log)
    if fmt == "json":
        return json.dumps(json_data(log), indent=1) + "\n", []
    if fmt == "text":
        warnings = ["the journal stops at %s" % log.problem[1]] if log.problem else []
        return "\n".join(text_lines(log)) + "\n", warnings
    raise ValueError("unknown format %r" % fmt)


# --- GNU Backgammon ------------------------------------------------------------------------------

_GNUBG_SCRIPT = r'''
import gnubg, json, os
files = json.load(open(os.environ["BGC_GNUBG_IN"]))
out = []
import sys
for path in files:
    print("\n=== bgc file: " + path)
    sys.stdout.flush()
    if path.endswith(".sgf"):
        gnubg.command("load match " + path)
    else:
        gnubg.command("import mat " + path)
    m = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    # GNU Backgammon's own game state, record by record: step through each game with "next"
    # and read the Position ID (gnubg.match()'s "board" assumes the players alternate, which a
    # closed-out turn without a roll breaks; the game state itself does not).
    walks = []
    for i in range(len(m["games"]) if m else 0):
        gnubg.command("first game")
        for _ in range(i):
            gnubg.command("next game")
        seq = [gnubg.positionid()]
        for _ in range(len(m["games"][i]["game"]) + 1):
            gnubg.command("next")
            seq.append(gnubg.positionid())
        walks.append(seq)
    out.append({"path": path, "match": m, "walks": walks})
json.dump(out, open(os.environ["BGC_GNUBG_OUT"], "w"), default=repr)
'''


class GnubgError(RuntimeError):
    pass


GNUBG_MISSING = ("GNU Backgammon (gnubg) is not installed\nhint: `sudo apt-get install gnubg` "
                 "(or run scripts/install_test_tools.sh)")


def find_gnubg():
    """The gnubg binary, or None."""
    env = os.environ.get("BGC_GNUBG")
    if env:
        return env
    for c in GNUBG_CANDIDATES:
        if os.access(c, os.X_OK):
            return c
    return shutil.which("gnubg")


def gnubg_read(paths, timeout=300):
    """[{"path", "match", "finals", "output"}] for .mat/.sgf files, read by GNU Backgammon in one
    run. ``output`` is what GNU Backgammon printed (its warnings are there)."""
    exe = find_gnubg()
    if not exe:
        raise GnubgError(GNUBG_MISSING)
    with tempfile.TemporaryDirectory(prefix="bgc-gnubg-") as tmp:
        script = os.path.join(tmp, "read.py")
        src = os.path.join(tmp, "in.json")
        dst = os.path.join(tmp, "out.json")
        with open(script, "w") as f:
            f.write(_GNUBG_SCRIPT)
        with open(src, "w") as f:
            json.dump([os.path.abspath(p) for p in paths], f)
        env = dict(os.environ, BGC_GNUBG_IN=src, BGC_GNUBG_OUT=dst, HOME=tmp)
        proc = subprocess.run([exe, "-t", "-q", "-r", "-p", script], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp)
        if not os.path.exists(dst):
            raise GnubgError("GNU Backgammon failed (status %d):\n%s" % (proc.returncode, (proc.stderr or proc.stdout)[-2000:]))
        with open(dst) as f:
            data = json.load(f)
    # What GNU Backgammon printed while reading each file (its warnings are there).
    chunks = {}
    current = None
    for line in proc.stdout.splitlines():
        if line.startswith("=== bgc file: "):
            current = line[len("=== bgc file: "):]
            chunks[current] = []
        elif current is not None:
            chunks[current].append(line)
    for d in data:
        d["output"] = "\n".join(chunks.get(d["path"], []))
    return data


def gnubg_warnings(output):
    """The lines of GNU Backgammon's output that are warnings or errors about a file."""
    keys = ("warning", "invalid", "illegal", "unrecognised", "not a valid", "error", "cannot")
    return [line.strip() for line in output.splitlines() if any(k in line.lower() for k in keys)]


def compare(log, match, walks=()):
    """(checked, differences): how many moves, positions, cube actions and games were compared,
    and a list of differences in words, between our replay and what GNU Backgammon rebuilt
    (``match`` from gnubg.match(), ``walks`` the Position IDs GNU Backgammon's game state went
    through in each game). Every position our replay reaches after a move must appear, in order,
    in GNU Backgammon's walk (seen from either side: after a closed-out turn the player on roll
    differs)."""
    diffs = []
    checked = {"moves": 0, "positions": 0, "cube": 0, "games": 0}
    ours = [g for g in log.games if g.actions or g.result is not None]
    theirs = match["games"] if match else []
    if len(ours) != len(theirs):
        diffs.append("games: ours %d, GNU Backgammon %d" % (len(ours), len(theirs)))
    letter = {"X": 0, "O": 1}
    for g, tg in zip(ours, theirs):
        info = tg["info"]
        checked["games"] += 1
        score = [info.get("score-X"), info.get("score-O")]
        if score != g.score:
            diffs.append("game %d: starting score ours %r, GNU Backgammon %r" % (g.number, g.score, score))
        if g.result is not None:
            w, pts, kind, how = g.result
            tw = letter.get(info.get("winner"))
            if (tw, info.get("points-won")) != (w, pts):
                diffs.append("game %d: result ours %s %d points, GNU Backgammon %s %s points"
                             % (g.number, log.names[w], pts, info.get("winner"), info.get("points-won")))
            if bool(info.get("resigned")) != (how == "resign"):
                diffs.append("game %d: resigned ours %s, GNU Backgammon %s" % (g.number, how == "resign", info.get("resigned")))
        our_moves = g.moves
        their_moves = [a for a in tg["game"] if a["action"] == "move"]
        if len(our_moves) != len(their_moves):
            diffs.append("game %d: %d moves, GNU Backgammon has %d" % (g.number, len(our_moves), len(their_moves)))
        for k, (a, t) in enumerate(zip(our_moves, their_moves)):
            checked["moves"] += 1
            where = "game %d move %d (line %d)" % (g.number, k + 1, a["line"])
            if letter.get(t["player"]) != a["p"]:
                diffs.append("%s: player ours %s, GNU Backgammon %s" % (where, a["p"], t["player"]))
            if sorted(t["dice"]) != sorted(a["dice"]):
                diffs.append("%s: dice ours %r, GNU Backgammon %r" % (where, a["dice"], t["dice"]))
        our_cube = [(x["a"] if x["a"] != "beaver" else "double", x["p"]) for x in g.actions
                    if x["a"] in ("double", "beaver", "take", "drop")]
        their_cube = [(x["action"], letter.get(x["player"])) for x in tg["game"] if x["action"] in ("double", "take", "drop")]
        checked["cube"] += len(our_cube)
        if (our_cube != their_cube and their_cube[:-1] == our_cube and their_cube[-1][0] == "double"
                and g.result is not None and g.result[3] == "resign" and our_cube and our_cube[-1][0] == "take"):
            # GNU Backgammon 1.07's .mat import adds a double record of its own when a resignation
            # follows a take; cube value, positions and points are unaffected (formats-export.md).
            checked["quirks"] = checked.get("quirks", 0) + 1
        elif our_cube != their_cube:
            diffs.append("game %d: cube actions ours %r, GNU Backgammon %r" % (g.number, our_cube, their_cube))
        walk = walks[checked["games"] - 1] if checked["games"] - 1 < len(walks) else []
        j = 0
        for k, a in enumerate(our_moves):
            want = (a["final"].id(), a["final"].swapped().id())
            at = j
            while at < len(walk) and walk[at] not in want:
                at += 1
            if at == len(walk):
                diffs.append("game %d move %d (line %d): GNU Backgammon never reaches the position after %s (%s)"
                             % (g.number, k + 1, a["line"], a["notation"] or "no move", want[0]))
            else:
                checked["positions"] += 1
                j = at
    return checked, diffs
