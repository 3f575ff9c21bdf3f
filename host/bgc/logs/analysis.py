"""GNU Backgammon's analysis of a journaled match: every play, every cube action, per player.

The analysis is GNU Backgammon's own, not a reimplementation: the journal is exported as .mat
(export_mat, the format GNU Backgammon imports), GNU Backgammon's engine (PyPI ``gnubg``, the
full program as a Python extension; ``pip install 'bgcompanion[analysis]'``) imports it, runs
``analyse match`` at the asked ply and saves the match as its own SGF, which holds every
evaluation it made (gnubg's sgf.c writes it; this module reads it back). The engine runs in a
child process: it prints boards on the C-level stdout, keeps global state and must be told
``set threads 1`` (with worker threads, ``analyse match`` never returns inside Python).

What is taken from GNU Backgammon as it is: the candidate plays and their equities (the best
is the first), the played one's index, the marks (BM/DO on a play, BC/DC on a cube decision
made by not doubling, BM/DO on a double, take or pass), the luck of each roll (LU), the cube
evaluations (DA: no double and double/take; in match play match winning chances, which the
engine's own mwc2eq turns into equities at that score and cube; double/pass is +1), the thresholds
("show analysis") and the match totals and rating ("show statistics match"). What is computed
here: the equity lost (best minus played, as GNU Backgammon does), the right cube action and its
error from the DA equities (GNU Backgammon's rule: the doubler's best of no double and the
smaller of double/take and double/pass), the per-player sums.

Equities are GNU Backgammon's normalised ones (EMG: equivalent to money game, the cube at 1),
in match play computed with its match equity table and the Crawford rule.
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

# Variants GNU Backgammon has a net for: the standard game and Nackgammon (its own variation, the
# same net). Hypergammon is a GNU Backgammon variation too, but it is evaluated from databases
# (hyper1-3.bd) that the PyPI engine does not ship. Every other variant of the board changes the
# move rules, the start, the dice or the goal, so the net's equities would be wrong for it.
ANALYSABLE = ("standard", "nackgammon")

ENGINE_MISSING = ("the analysis needs GNU Backgammon's engine (PyPI gnubg), which is not installed\n"
                  "hint: pip install 'bgcompanion[analysis]' (or pip install gnubg)")

# GNU Backgammon 1.07's move filter at 2-ply (the PyPI 1.1 engine's default differs: it also
# prunes at 1-ply); set explicitly so that both programs search the same plays.
MOVE_FILTER_2PLY = ("set analysis movefilter 2 0 0 16 0.32", "set analysis movefilter 2 1 -1 0 0")


# The cube efficiencies (Janowski's x) of GNU Backgammon 1.07, the Debian/Ubuntu gnubg. The PyPI
# 1.1 engine has two sets, for 2-ply and more and for 0-1 ply, and its 0-1 ply set is new (contact
# 0.68 -> 0.76 among others: "show cubeefficiency"); these commands set the 0-1 ply set (the 2+ ply
# one is already 1.07's), so that a 0-ply analysis is 1.07's. Without them our 0-ply cubeful
# equities differ from gnubg 1.07's by up to 4 % (0.03 EMG on a play, 0.05 on a cube decision).
CUBE_EFFICIENCY_107 = ("set cubeefficiency os 0.6", "set cubeefficiency crashed 0.68",
                       "set cubeefficiency contact 0.68", "set cubeefficiency race factor 0.00125",
                       "set cubeefficiency race coefficient 0.55", "set cubeefficiency race min 0.6",
                       "set cubeefficiency race max 0.7")


class AnalysisError(RuntimeError):
    """The engine is missing or failed."""


class NoAnalysis(ValueError):
    """This match cannot be analysed (a variant without a net, nothing played)."""


def engine_version():
    """The PyPI gnubg engine's version, or None when it is not installed."""
    try:
        from importlib.metadata import version

        return version("gnubg")
    except Exception:
        return None


def settings_commands(ply, jacoby=False, beavers=False, weights="1.00"):
    """GNU Backgammon commands for an analysis at ``ply`` (0-ply, 2-ply, ...), the same for our
    engine and for the gnubg program in the comparison. ``weights``: the nets' version; with 1.00
    nets (GNU Backgammon 1.07 and before) the 0-1 ply cube efficiencies are 1.07's, with 1.01
    (1.08 and after, the engine's own) the engine's, which came with them."""
    cmds = ["set threads 1",
            "set jacoby %s" % ("on" if jacoby else "off"),
            "set beavers %s" % ("on" if beavers else "off"),
            "set analysis chequerplay evaluation plies %d" % ply,
            "set analysis cubedecision evaluation plies %d" % ply,
            "set analysis chequerplay evaluation cubeful on",
            "set analysis cubedecision evaluation cubeful on",
            "set analysis chequerplay evaluation prune on",
            "set analysis cubedecision evaluation prune on"]
    return cmds + list(MOVE_FILTER_2PLY) + (list(CUBE_EFFICIENCY_107) if weights == "1.00" else [])


# --- the nets ------------------------------------------------------------------------------------
#
# GNU Backgammon keeps its six neural nets in one file, gnubg.wd (binary; gnubg.weights is the same
# as text): contact, race, crashed, and the three small pruning nets, after a header of a magic
# number and the weights' version (eval.c's EvalInitialise; lib/neuralnet.c NeuralNetLoadBinary
# for each net: inputs, hidden units, outputs, a dummy, two betas, then the floats). The PyPI engine
# carries weights 1.01 (GNU Backgammon 1.08 and after), GNU Backgammon up to 1.07 (Debian's and
# Ubuntu's package) 1.00: 1.08 fixed a quirk of the PIPLOSS input (piploss_quirk()) and retrained the
# contact and crashed nets with it (every weight differs; the race and pruning nets are the same,
# the layout too). A 7-point match's plays differ by up to 0.066 in equity lost between the two
# (docs/analysis.md). So by default the analysis uses the nets of the GNU Backgammon the player has
# installed, whose analysis of the same match they would compare with ours, and the engine's own
# where there is none; the engine refuses weights whose version is not its own, so it gets a copy
# of the installed file with its own version in the header.

WD_MAGIC = struct.pack("<f", 472.3782)  # eval.h's WEIGHTS_MAGIC_BINARY

# Where GNU Backgammon installs gnubg.wd, beside its program (Windows), in ../share/gnubg (Unix,
# Homebrew), Debian's /usr/games/gnubg -> /usr/share/gnubg, the macOS application bundle.
NET_DIRS = (".", "../share/gnubg", "../lib/gnubg", "../Resources/share/gnubg", "../Resources")


def engine_data_dir():
    """The PyPI engine's data directory (nets, bearoff databases, match equity tables), or None."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("gnubg")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return os.path.join(os.path.dirname(spec.origin), "data")


def net_file_info(path):
    """(weights version "1.00", [(inputs, hidden, outputs) of each net]) of a gnubg.wd or
    gnubg.weights file, or None when it is not one."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data[:4] == WD_MAGIC:
        version = "%.2f" % struct.unpack_from("<f", data, 4)[0]
        shapes, off = [], 8
        while off + 24 <= len(data):
            ci, ch, co = struct.unpack_from("<3i", data, off)
            if min(ci, ch, co) < 1:
                return None
            shapes.append((ci, ch, co))
            off += 24 + 4 * (ci * ch + ch * co + ch + co)
        return (version, shapes) if off == len(data) else None
    m = re.match(rb"GNU Backgammon (\S+)\r?\n", data)
    if not m:
        return None
    shapes = [tuple(int(x) for x in h.split()[:3]) for h in re.findall(rb"^(\d+ \d+ \d+) \d+ \S+ \S+\r?$", data, re.M)]
    return m.group(1).decode(), shapes


def installed_net_file():
    """The installed gnubg program's gnubg.wd (or gnubg.weights), or None."""
    from .export import find_gnubg

    exe = find_gnubg()
    if not exe:
        return None
    here = os.path.dirname(os.path.realpath(exe))
    for d in NET_DIRS + ("/usr/share/gnubg",):
        for name in ("gnubg.wd", "gnubg.weights"):
            path = os.path.normpath(os.path.join(here, d, name))
            if os.path.isfile(path):
                return path
    return None


def choose_nets(which="auto"):
    """The nets the analysis uses: {"file", "version", "source", "text"}; ``which`` is "auto"
    (GNUBG_DATA_DIR's if it is set, else the installed GNU Backgammon's, else the engine's),
    "engine" or a gnubg.wd/gnubg.weights file. Raises AnalysisError for a file that is not a
    GNU Backgammon weights file with the engine's layout."""
    ours_dir = engine_data_dir()
    ours_file = os.path.join(ours_dir or "", "gnubg.wd")
    ours = net_file_info(ours_file) if ours_dir else None
    env_dir = os.environ.get("GNUBG_DATA_DIR")
    if which == "auto" and env_dir:
        path = os.path.join(env_dir, "gnubg.wd")
        info = net_file_info(path) or (None, [])
        return {"file": path, "version": info[0], "source": "GNUBG_DATA_DIR",
                "text": "%s (GNUBG_DATA_DIR, weights %s)" % (path, info[0])}
    path, source = None, "engine"
    if which == "auto":
        path = installed_net_file()
        source = "installed"
    elif which != "engine":
        path, source = os.path.abspath(which), "given"
        if not os.path.isfile(path):
            raise AnalysisError("no such weights file: %s\nhint: --nets auto (the installed GNU Backgammon's), "
                                "engine, or a gnubg.wd or gnubg.weights file" % path)
    if path is not None:
        info = net_file_info(path)
        if info is None or (ours is not None and info[1] != ours[1]):
            if source == "given":
                raise AnalysisError("%s is not a GNU Backgammon weights file with the engine's nets (%s)\n"
                                    "hint: give a gnubg.wd or gnubg.weights of GNU Backgammon 1.x, or --nets engine"
                                    % (path, "not a weights file" if info is None else "another layout"))
            path = None  # an installed program with other nets: the engine's own
        else:
            return {"file": path, "version": info[0], "source": source,
                    "text": "%s (%s, weights %s)" % (path, "the installed GNU Backgammon's" if source == "installed"
                                                     else "given", info[0])}
    return {"file": ours_file, "version": ours[0] if ours else None, "source": "engine",
            "text": "%s (PyPI gnubg's own, weights %s)" % (ours_file, ours[0] if ours else "?")}


def data_dir_with_nets(nets, dest):
    """``dest`` made a data directory for the engine (GNUBG_DATA_DIR) holding ``nets``'s file
    with the engine's weights version in its header and links to the engine's other data files;
    None where the engine's own directory serves (its own nets, or GNUBG_DATA_DIR set)."""
    if nets["source"] in ("engine", "GNUBG_DATA_DIR"):
        return None
    ours_dir = engine_data_dir()
    ours = net_file_info(os.path.join(ours_dir, "gnubg.wd"))
    with open(nets["file"], "rb") as f:
        data = f.read()
    if data[:4] == WD_MAGIC:
        name = "gnubg.wd"
        data = data[:4] + struct.pack("<f", float(ours[0])) + data[8:]
    else:
        name = "gnubg.weights"
        data = re.sub(rb"^GNU Backgammon \S+", b"GNU Backgammon " + ours[0].encode(), data, count=1)
    os.makedirs(dest, exist_ok=True)
    for entry in os.listdir(ours_dir):
        if entry in ("gnubg.wd", "gnubg.weights"):
            continue
        src, dst = os.path.join(ours_dir, entry), os.path.join(dest, entry)
        try:
            os.symlink(src, dst)
        except OSError:  # no symbolic links (Windows without the right): a copy
            import shutil

            (shutil.copytree if os.path.isdir(src) else shutil.copyfile)(src, dst)
    with open(os.path.join(dest, name), "wb") as f:
        f.write(data)
    return dest


_WORKER = r'''
import json, os, sys
spec = json.load(open(sys.argv[1]))
import gnubg
from bgc.logs.analysis import cube_requests
def mark(text):
    os.write(1, ("\n=== bgc %s\n" % text).encode())
for c in spec["commands"]:
    gnubg.command(c)
mark("thresholds")
gnubg.command("show analysis")
for job in spec["jobs"]:
    mark("import")
    if job["mat"].endswith(".cmds"):  # a match from a set position: engine_commands
        for c in open(job["mat"], encoding="utf-8").read().splitlines():
            if c and not c.startswith("#"):
                gnubg.command(c)
    else:
        gnubg.command("import mat " + job["mat"])
    mark("analyse")
    if job["what"] == "match":
        # game by game (the same as ``analyse match``), so that the caller can show progress
        gnubg.command("first game")
        for i in range(job["games"]):
            if i:
                gnubg.command("next game")
            gnubg.command("analyse game")
            mark("game %d" % i)
    else:
        # the last record only: ``analyse move`` analyses the record after the one the match
        # stands at (analysis.c), and an imported match stands at its last; an answer to a
        # double is analysed with the double (GNU Backgammon refuses a take)
        gnubg.command("previous")
        if job["what"] == "answer":
            gnubg.command("previous")
        gnubg.command("analyse move")
    if job["what"] == "match":
        mark("statistics")
        gnubg.command("show statistics match")
    mark("save")
    gnubg.command("save match " + job["sgf"])
    # GNU Backgammon keeps a cube decision's equities as match winning chances in match play; its
    # own mwc2eq (with the match equity table and the cube at that moment) makes them equities.
    eqs = {}
    for key, ci, mwcs in cube_requests(open(job["sgf"], encoding="utf-8", errors="replace").read()):
        if ci is None:
            eqs[key] = mwcs
        else:
            info = gnubg.cubeinfo(*ci)
            eqs[key] = [gnubg.mwc2eq(m, info) for m in mwcs]
    json.dump(eqs, open(job["cube"], "w"))
mark("end")
'''


def run_engine(mat_text, commands, timeout=1800, nets=None, what="match", progress=None):
    """(sgf text, {cube decision key: [no double, double/take] equities}, sections of the
    engine's output by name) for a .mat analysed by the PyPI gnubg engine in a child process,
    with ``nets`` (choose_nets(); the engine's own when None); ``progress(game index)`` is called
    as each game is done."""
    results, sections = run_engine_jobs([(mat_text, what)], commands, timeout, nets, progress)
    return results[0][0], results[0][1], sections


def run_engine_jobs(jobs, commands, timeout=1800, nets=None, progress=None):
    """([(sgf text, cube equities)] for each (mat text, what) of ``jobs``, sections
    of the engine's output), all in one child process (the nets load once). What: "match" analyses
    every record, "move" the last one, "answer" the double before the last one (a take or pass)."""
    if engine_version() is None:
        raise AnalysisError(ENGINE_MISSING)
    with tempfile.TemporaryDirectory(prefix="bgc-analyze-") as tmp:
        data_dir = data_dir_with_nets(nets, os.path.join(tmp, "data")) if nets else None
        spec_jobs = []
        for i, (mat_text, what) in enumerate(jobs):
            scripted = mat_text.startswith(COMMANDS_HEADER)  # engine_commands: a set position
            job = {k: os.path.join(tmp, "%s%d.%s" % (k, i, ext))
                   for k, ext in (("mat", "cmds" if scripted else "mat"), ("sgf", "sgf"), ("cube", "json"))}
            job["what"] = what
            job["games"] = (int(re.search(r"^#games (\d+)", mat_text, re.M).group(1)) if scripted else
                            len(re.findall(r"^\s*Game \d+", mat_text, re.M)))
            with open(job["mat"], "w", encoding="utf-8") as f:
                f.write(mat_text)
            spec_jobs.append(job)
        spec = os.path.join(tmp, "spec.json")
        with open(spec, "w") as f:
            json.dump({"jobs": spec_jobs, "commands": ["set confirm new off"] + list(commands)}, f)
        env = dict(os.environ, HOME=tmp)  # no ~/.gnubg settings of the user's
        if data_dir:
            env["GNUBG_DATA_DIR"] = data_dir
        out, err, status = _run_worker(spec, env, tmp, timeout, progress)
        if not all(os.path.exists(j["cube"]) for j in spec_jobs):
            lines = [x.strip() for x in (err or out).splitlines() if x.strip()]
            raise AnalysisError("GNU Backgammon's engine failed (status %d): %s\nhint: check that `python -c "
                                "'import gnubg'` works; GNUBG_DATA_DIR, if set, must hold its data files"
                                % (status, lines[-1][:300] if lines else "no output"))
        results = []
        for job in spec_jobs:
            with open(job["sgf"], encoding="utf-8", errors="replace") as f:
                text = f.read()
            with open(job["cube"]) as f:
                results.append((text, json.load(f)))
    return results, output_sections(out)


def _run_worker(spec, env, tmp, timeout, progress):
    """(stdout, stderr, status) of the engine's child process, its stdout read as it comes so
    that ``progress(game index)`` follows its "game N" marks."""
    import threading

    with open(os.path.join(tmp, "stderr.txt"), "w+b") as errf:
        proc = subprocess.Popen([sys.executable, "-c", _WORKER, spec], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=errf, env=env, cwd=tmp)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        chunks = []
        try:
            for line in proc.stdout:
                chunks.append(line)
                if progress is not None and line.startswith(b"=== bgc game "):
                    progress(int(line.split()[-1]))
            status = proc.wait()
        finally:
            expired = not timer.is_alive()
            timer.cancel()
            proc.stdout.close()
        if expired:
            raise AnalysisError("GNU Backgammon's analysis did not finish within %d s" % timeout)
        errf.seek(0)
        err = errf.read().decode("utf-8", "replace")
    return b"".join(chunks).decode("utf-8", "replace"), err, status


def output_sections(out):
    sections, name = {}, None
    for line in out.splitlines():
        if line.startswith("=== bgc "):
            name = line[8:].strip()
            sections[name] = []
        elif name is not None:
            sections[name].append(line)
    return {k: "\n".join(v) for k, v in sections.items()}


# --- GNU Backgammon's SGF ------------------------------------------------------------------------

def parse_sgf(text):
    """[game], each game a list of nodes, each node [(name, [values], start, end)] with the
    property's span in ``text`` (SGF: ``(;A[v][w]B[x];...)``, ``\\]`` and ``\\\\`` escaped)."""
    games, i, n = [], 0, len(text)
    game = node = None
    while i < n:
        ch = text[i]
        if ch == "(":
            game = []
            games.append(game)
            i += 1
        elif ch == ")":
            game = node = None
            i += 1
        elif ch == ";" and game is not None:
            node = []
            game.append(node)
            i += 1
        elif ch.isupper() and node is not None:
            start = i
            while i < n and text[i].isupper():
                i += 1
            name = text[start:i]
            values = []
            while True:
                while i < n and text[i] in " \t\r\n":
                    i += 1
                if i >= n or text[i] != "[":
                    break
                i += 1
                buf = []
                while i < n and text[i] != "]":
                    if text[i] == "\\" and i + 1 < n:
                        i += 1
                    buf.append(text[i])
                    i += 1
                i += 1
                values.append("".join(buf))
            node.append((name, values, start, i))
        else:
            i += 1
    return games


def _props(node):
    out = {}
    for name, values, _, _ in node:
        out.setdefault(name, values)
    return out


def _sgf_move(letters, player):
    """GNU Backgammon's SGF move letters as from/to pairs in the mover's numbering (25 the
    bar, 0 off): sgf.c's Point(), 'a'..'x' from White's side, 'x'..'a' from Black's."""
    pairs = []
    for k in range(0, len(letters) - 1, 2):
        a, b = letters[k], letters[k + 1]
        pairs.append((_point(a, player), _point(b, player)))
    return pairs


def _point(ch, player):
    if ch == "y":
        return 25
    if "a" <= ch <= "x":
        return (ord("x") - ord(ch) if player else ord(ch) - ord("a")) + 1
    return 0


def move_text(pairs):
    return " ".join("%s/%s" % (a if a != 25 else "bar", b if b else "off") for a, b in pairs) or "(no play)"


_SKILL = {("BM", "2"): "very bad", ("BM", "1"): "bad", ("DO", ""): "doubtful",
          ("BC", "2"): "very bad", ("BC", "1"): "bad", ("DC", ""): "doubtful"}


def _skill(props, move_kind):
    keys = ("BM", "DO") if move_kind else ("BC", "DC")
    for k in keys:
        if k in props:
            return _SKILL.get((k, (props[k] or [""])[0]), "bad")
    return None


def _cube_eval(values):
    """(no double, double/take) equities from a DA value (EVAL_EVAL: a header of five words,
    "E ver 3 plies[C] deterministic noise prune" (seven words), then 7 outputs of no double, 7 of double/take; the 7th is the cubeful equity)."""
    words = values[0].split()
    if not words or words[0] != "E":
        return None  # a rollout: not written by ``analyse match``
    nums = [float(w) for w in words[7:]]
    if len(nums) < 14:
        return None
    return nums[6], nums[13]


def cube_action(nd, dt):
    """GNU Backgammon's proper cube action (the doubler's view; double/pass is +1) and the
    equity of the right action: optimal = max(no double, min(double/take, double/pass))."""
    dp = 1.0
    if dt >= dp:
        right = "too good to double" if nd > dp else "double, pass"
    else:
        right = "double, take" if dt > nd else "no double, take"
    return right, max(nd, min(dt, dp))


def _game_info(root):
    mi = {}
    for v in root.get("MI", []):
        if ":" in v:
            k, _, val = v.partition(":")
            mi[k] = val
    rules = (root.get("RU", [""])[0]).split(":")
    return {"length": int(mi.get("length", 0)), "score": [int(mi.get("ws", 0)), int(mi.get("bs", 0))],
            "crawford": "CrawfordGame" in rules, "bgv": 1 if "Nackgammon" in rules else 0,
            "cube": int(root.get("CV", ["1"])[0])}


def _set_cube(nodes, cube):
    """(cube, owner) a game starts with: the root's cube, or the one a set position gives it (the
    ``CV`` and ``CP`` nodes GNU Backgammon writes for ``set cube value`` and ``set cube owner``
    before the first play)."""
    owner = -1
    for node in nodes[1:]:
        p = _props(node)
        if "B" in p or "W" in p:
            break
        if "CV" in p:
            cube = int(p["CV"][0])
        if "CP" in p:
            owner = {"w": 0, "b": 1}.get(p["CP"][0][:1].lower(), -1)
    return cube, owner


def _player_nodes(nodes):
    """(node index, props, player, value) of every play and cube action of a game."""
    for ni, node in enumerate(nodes):
        if ni == 0:
            continue
        p = _props(node)
        who = "B" if "B" in p else ("W" if "W" in p else None)
        if who is not None:
            yield ni, p, (1 if who == "B" else 0), p[who][0]


def cube_requests(text):
    """[(key, cube info or None, [no double, double/take] as GNU Backgammon stored them)] for
    every analysed cube decision. In match play those are match winning chances, and the cube
    info (GNU Backgammon's cubeinfo(): cube, owner, player on roll, match length, score,
    Crawford game, variation) is what its mwc2eq needs; in money play they are equities."""
    out = []
    for gi, nodes in enumerate(parse_sgf(text)):
        info = _game_info(_props(nodes[0]) if nodes else {})
        cube, owner = _set_cube(nodes, info["cube"])
        pending = None
        for ni, p, player, value in _player_nodes(nodes):
            raw = _cube_eval(p["DA"]) if "DA" in p else None
            mover = player
            if value in ("take", "drop"):
                if pending is not None:
                    mover, ci_cube, ci_owner = pending
                else:
                    mover, ci_cube, ci_owner = 1 - player, cube, owner
                if value == "take":
                    cube, owner = cube * 2, player
            else:
                ci_cube, ci_owner = cube, owner
                if value == "double":
                    pending = (player, cube, owner)
            if raw is None:
                continue
            ci = None
            if info["length"]:
                ci = (ci_cube, ci_owner, mover, info["length"], tuple(info["score"]), int(info["crawford"]), info["bgv"])
            out.append(("%d.%d" % (gi, ni), ci, list(raw)))
    return out


def analyse_sgf(text, cube_eqs):
    """The per-game records of GNU Backgammon's analysed SGF (see the module comment);
    ``cube_eqs`` the cube decisions' equities by key (cube_requests())."""
    games = []
    for gi, nodes in enumerate(parse_sgf(text)):
        root = _props(nodes[0]) if nodes else {}
        info = _game_info(root)
        game = {"number": gi + 1, "score": info["score"], "crawford": info["crawford"],
                "result": root.get("RE", [None])[0], "records": []}
        cube, owner = _set_cube(nodes, info["cube"])
        for ni, p, player, value in _player_nodes(nodes):
            ev = cube_eqs.get("%d.%d" % (gi, ni))
            # the cube as it stands when the action is taken (owner -1: in the middle)
            rec = {"player": player, "node": "%d.%d" % (gi, ni), "cube_value": cube, "cube_owner": owner}
            if value == "take":
                cube, owner = cube * 2, player
            if value in ("double", "take", "drop"):
                rec["kind"] = {"drop": "pass"}.get(value, value)
                rec["cube"] = _cube_record(ev, rec["kind"], _skill(p, True))
            else:
                dice = [int(value[0]), int(value[1])]
                played = _sgf_move(value[2:], player)
                rec.update(kind="move", dice=dice, played=move_text(played), played_steps=played)
                if ev is not None:
                    rec["cube"] = _cube_record(ev, "no double", _skill(p, False))
                if "A" in p:
                    idx = int(p["A"][0])
                    cands = []
                    for v in p["A"][1:]:
                        letters, _, rest = v.partition(" ")
                        words = rest.split()
                        score = float(words[8]) if len(words) > 8 and words[0] == "E" else None  # E ver 3 p0..p4 score
                        cands.append((_sgf_move(letters, player), score))
                    rec["candidates"] = len(cands)
                    rec["best"] = move_text(cands[0][0])
                    rec["best_steps"] = cands[0][0]
                    if idx >= len(cands):
                        # not one of the legal plays: an illegal play the opponent condoned
                        rec["illegal"] = True
                    elif cands[0][1] is not None and cands[idx][1] is not None:
                        rec["equity"] = cands[idx][1]
                        rec["best_equity"] = cands[0][1]
                        rec["loss"] = max(0.0, cands[0][1] - cands[idx][1])
                    rec["mark"] = _skill(p, True)
                if "LU" in p:
                    rec["luck"] = float(p["LU"][0])
            game["records"].append(rec)
        games.append(game)
    return games


def _cube_record(ev, action, mark):
    """The cube decision: the action taken, GNU Backgammon's right one, the equity lost."""
    if ev is None:
        return {"action": action, "mark": mark}
    nd, dt = ev
    right, best = cube_action(nd, dt)
    if action == "no double":
        err = best - nd
    elif action == "double":
        err = best - min(dt, 1.0)
    elif action == "take":
        err = max(0.0, dt - 1.0)  # the taker's loss: double/take better than +1 for the doubler
    else:  # pass
        err = max(0.0, 1.0 - dt)
    # close (GNU Backgammon's isCloseCubedecision): doubling would cost less than 0.16
    return {"action": action, "no_double": nd, "double_take": dt, "double_pass": 1.0, "right": right,
            "error": max(0.0, err), "mark": mark, "close": best - min(dt, 1.0) < 0.16}


# --- what GNU Backgammon printed -----------------------------------------------------------------

def thresholds(show_analysis):
    """{"doubtful": 0.03, ...} from ``show analysis`` (GNU Backgammon's marks for this engine)."""
    out = {}
    for m in re.finditer(r"^\s*([-+]\d+\.\d+)\s+(doubtful|bad|very bad|very lucky|lucky|unlucky|very unlucky)\s*$",
                         show_analysis, re.M):
        out[m.group(2)] = abs(float(m.group(1)))
    return out


_STAT_ROWS = {  # (MWC) in match play, (Points) in money play
    "Error rate mEMG (": "error_rate",
    "Error total EMG (": "error_total",
    "Snowie error rate": "snowie_error_rate",
    "Overall rating": "rating",
    "Chequerplay rating": "chequer_rating",
    "Cube decision rating": "cube_rating",
    "Luck total EMG (": "luck_total",
    "Luck rating": "luck_rating",
    "Luck adjusted result": "luck_adjusted_result",
}


def statistics(text):
    """{section: {row: [player 0's text, player 1's]}} from ``show statistics match``: the
    columns start at characters 41 and 65 (GNU Backgammon's formatgs)."""
    out, section = {}, None
    for line in text.splitlines():
        s = line.strip()
        if s.endswith("statistics") and not line.startswith(" "):
            section = s.split()[0].lower()
            out[section] = {}
            continue
        if section is None or not s:
            continue
        for label, key in _STAT_ROWS.items():
            if line.startswith(label):
                a, b = line[41:65].strip(), line[65:].strip()
                out[section][key] = [a, b]
                if label.endswith("("):
                    out[section]["unit"] = line[len(label):].split(")")[0]
    return out


# --- the whole analysis ---------------------------------------------------------------------------

def check_analysable(log):
    """Raise NoAnalysis where ``log`` (journals.MatchLog) cannot be analysed; its variant."""
    variant = (log.settings or {}).get("rules", "standard")
    if variant not in ANALYSABLE:
        raise NoAnalysis("no analysis for this game: %s has no GNU Backgammon net\nhint: GNU Backgammon analyses "
                         "%s only (docs/user-guide.md says why); `bgc export -f text` shows the game"
                         % (variant, " and ".join(ANALYSABLE)))
    if not any(g.moves for g in log.games):
        raise NoAnalysis("nothing to analyse: no play was made before %s\nhint: a journal holds plays once a game "
                         "has started on the board" % ("the damage" if log.problem else "the journal ends"))
    return variant


def _settings_for(log, ply, chosen):
    s = log.settings or {}
    return settings_commands(ply, jacoby=log.money and bool(s.get("jacoby")),
                             beavers=log.money and bool(s.get("beavers")), weights=chosen["version"])


def _result(log, ply, variant, chosen, th, games, warnings=(), stats=None):
    return {
        "journal": log.source, "names": list(log.names), "length": log.length,
        "money": log.money, "variant": variant, "ply": ply,
        "engine": "GNU Backgammon %s (PyPI gnubg)" % engine_version(),
        "nets": chosen,
        "thresholds": th,
        "games": games,
        "players": player_totals(games),
        "gnubg_statistics": stats or {},
        "notes": notes(log) + [w for w in warnings if not w.startswith("the journal stops") and "beaver" not in w],
    }


COMMANDS_HEADER = "#bgc gnubg commands"
RESIGN_WORDS = ("", "normal", "gammon", "backgammon")


def engine_input(log):
    """(text, warnings): the match as the engine takes it: a .mat it imports, or for a match from
    a set position (bgc setup), which a .mat cannot hold, GNU Backgammon's own commands that set
    the position up and play the match out (engine_commands)."""
    if any(g.setup is not None for g in log.games):
        return engine_commands(log)
    from .export_mat import mat_text

    return mat_text(log)


def engine_commands(log):
    """(text, warnings): the commands that build ``log`` in GNU Backgammon as a player would at its
    prompt: ``set matchid`` and ``set board`` for the set position (as bgc.logs.gnubg_player gives
    it a match), then each game's dice, plays and cube actions (``set turn`` and ``set dice`` for
    an opening roll, ``new game`` between games). PyPI gnubg's SGF reader (``load match``) crashes
    (LoadCollection, gnubg 1.08 wheel), so an SGF cannot carry the position in."""
    from .export_mat import mat_name

    s = log.settings or {}
    warnings = []
    cmds = ["set automatic roll off", "set automatic game off", "set player 0 human", "set player 1 human",
            "set player 0 name %s" % mat_name(log.names[0]), "set player 1 name %s" % mat_name(log.names[1])]
    if log.money:
        cmds += ["set jacoby %s" % ("on" if s.get("jacoby") else "off"), "set beavers %d" % (s.get("beavers") or 0)]
    if log.length and not s.get("crawford"):
        warnings.append("the match is played without the Crawford rule; GNU Backgammon analyses it with it")
    cmds.append("new match %d" % log.length if log.length else "new session")
    games = [g for g in log.games if g.actions or g.result is not None]
    for i, game in enumerate(games):
        if i:
            cmds.append("new game")
        if game.setup is not None:
            cmds += ["set matchid " + game.setup["mid"], "set board " + game.setup["pos"].id()]
        for act in game.actions:
            a = act["a"]
            if a == "move":
                if act.get("opening"):
                    cmds.append("set turn %d" % act["p"])
                cmds.append("set dice %d %d" % tuple(act["dice"]))
                if act["steps"]:
                    cmds.append("move " + " ".join("%d %d" % (f, t) for f, t, _hit in act["steps"]))
            elif a in ("double", "take", "drop", "accept", "reject"):
                cmds.append(a)
            elif a == "beaver":
                cmds.append("redouble")
            elif a == "resign":
                cmds.append("resign " + RESIGN_WORDS[act["kind"]])
            elif a == "pass":
                warnings.append("game %d: a closed-out turn (no roll) is not in GNU Backgammon's record" % game.number)
    text = "\n".join([COMMANDS_HEADER, "#games %d" % len(games)] + cmds) + "\n"
    return text, warnings


def analyse(log, ply=0, mat=None, nets="auto", progress=None):
    """The analysis of a replayed journal (journals.MatchLog) as a dict (the --json output);
    ``nets`` as choose_nets() takes it; ``progress(game index)`` called as each game is done."""
    variant = check_analysable(log)
    warnings = []
    if mat is None:
        mat, warnings = engine_input(log)
    chosen = choose_nets(nets)
    sgf, cube_eqs, out = run_engine(mat, _settings_for(log, ply, chosen), nets=chosen, progress=progress)
    games = analyse_sgf(sgf, cube_eqs)
    attach_positions(log, games)
    result = _result(log, ply, variant, chosen, thresholds(out.get("thresholds", "")), games, warnings,
                     statistics(out.get("statistics", "")))
    result["sgf"] = sgf
    return result


def analysed_nodes(sgf):
    """How many plays and cube decisions GNU Backgammon analysed in its SGF ``sgf`` (the nodes
    with a chequer-play analysis, A, or a cube analysis, DA)."""
    return sum(1 for game in parse_sgf(sgf) for node in game if {"A", "DA"} & {p[0] for p in node})


RECORD_ACTIONS = ("move", "double", "take", "drop")  # the journal's actions GNU Backgammon has a record for


class MatchAnalysis:
    """The analysis of a match that grows play by play (the web page's live review): each play
    and cube decision goes to the engine once, when it is new, and is kept here by its place in
    the match (game, record); the journal only grows, so a record analysed stays right. A new
    record is analysed as GNU Backgammon's ``analyse move`` of the match imported up to it (its
    position, dice, cube and score are all a record's analysis depends on); many new ones at
    once (the first review) as one ``analyse match``. ``engine_records``: how many records the
    engine analysed in the last update() (analysed_nodes() of what it wrote)."""

    WHOLE_MATCH_FROM = 4

    def __init__(self, ply=0, nets="auto"):
        self.ply, self.nets = ply, nets
        self.text = ""
        self.records = {}  # (game index, record index) -> record
        self.games = {}  # game index -> {"number", "score", "crawford", "result"}
        self.thresholds = {}
        self.engine_records = 0

    def update(self, text, source="live"):
        """The analysis (analyse()'s dict, without the SGF and GNU Backgammon's statistics) of
        the match in journal ``text``, the engine asked only for what is new."""
        from .journals import replay_text

        if not text.startswith(self.text):  # another match
            self.records, self.games = {}, {}
        self.text = text
        log = replay_text(text, source)
        variant = check_analysable(log)
        chosen = choose_nets(self.nets)
        places = [((gi, k), a) for gi, g in enumerate(log.games)
                  for k, a in enumerate(x for x in g.actions if x["a"] in RECORD_ACTIONS)]
        missing = [(place, a) for place, a in places if place not in self.records]
        self.engine_records = 0
        mat, warnings = engine_input(log)
        if len(missing) >= self.WHOLE_MATCH_FROM or not self.thresholds:
            result = analyse(log, self.ply, mat=mat, nets=self.nets)
            self.thresholds = result["thresholds"]
            self.engine_records += analysed_nodes(result["sgf"])
            for gi, game in enumerate(result["games"]):
                self._keep_game(gi, game)
                ours = [place for place, _ in places if place[0] == gi]
                if len(ours) == len(game["records"]):
                    for place, rec in zip(ours, game["records"]):
                        # ``analyse match`` leaves a double not answered yet unanalysed: not kept
                        if rec["kind"] != "double" or "right" in rec["cube"]:
                            self.records.setdefault(place, rec)
            missing = [(place, a) for place, a in places if place not in self.records]
        if missing:
            lines = text.splitlines(True)
            prefixes = [replay_text("".join(lines[:a["line"]]), source) for _, a in missing]
            jobs = [(engine_input(p)[0], "answer" if a["a"] in ("take", "drop") else "move")
                    for p, (_, a) in zip(prefixes, missing)]
            results, _ = run_engine_jobs(jobs, _settings_for(log, self.ply, chosen), nets=chosen)
            for ((gi, k), _), prefix, (sgf, cube_eqs) in zip(missing, prefixes, results):
                self.engine_records += analysed_nodes(sgf)
                games = analyse_sgf(sgf, cube_eqs)
                attach_positions(prefix, games)
                if len(games) == gi + 1 and len(games[gi]["records"]) == k + 1:
                    self._keep_game(gi, games[gi])
                    self.records[(gi, k)] = games[gi]["records"][k]
        games = []
        for gi in range(len(log.games)):
            recs = [self.records[place] for place, _ in places if place[0] == gi and place in self.records]
            games.append(dict(self.games.get(gi, {"number": gi + 1}), records=recs))
        result = _result(log, self.ply, variant, chosen, self.thresholds, games, warnings)
        result["engine_records"] = self.engine_records
        return result

    def _keep_game(self, gi, game):
        self.games[gi] = {k: v for k, v in game.items() if k != "records"}


def attach_positions(log, games):
    """Give each play of ``games`` the journal's Position ID before it ("position", the mover's
    view), where the journal's plays and GNU Backgammon's match one for one with the same
    checker steps (a game where they do not gets none)."""
    for g, ga in zip(log.games, games):
        ours = [a for a in g.actions if a["a"] == "move"]
        theirs = [r for r in ga["records"] if r["kind"] == "move"]
        if len(ours) != len(theirs) or any(
                sorted((f, t) for f, t, _ in a["steps"]) != sorted(tuple(s) for s in r["played_steps"])
                for a, r in zip(ours, theirs)):
            continue
        for a, r in zip(ours, theirs):
            r["position"] = a["start"].id()
        # a double, take or pass: the position after the play before it (its mover's view)
        last = None
        for a, r in zip(ours, theirs):
            r["final"] = a["final"].id()
        for r in ga["records"]:
            if r["kind"] == "move":
                last = r
            elif last is not None:
                r["position"], r["position_player"] = last["final"], last["player"]
        for r in theirs:
            del r["final"]


def notes(log):
    out = []
    if log.problem:
        out.append("the journal is damaged: %s; analysed the %d record%s before it" % (
            log.damage_text(), log.records, "" if log.records == 1 else "s"))
    if not log.complete and not log.money:
        out.append("the match is in progress: analysed the plays made so far")
    beavered = [g.number for g in log.games if any(a["a"] == "beaver" for a in g.actions)]
    if beavered:
        out.append("game%s %s: a beaver, which GNU Backgammon does not read back correctly from the .mat the "
                   "analysis imports (docs/formats-export.md): the cube after it in that game may be wrong"
                   % ("s" if len(beavered) > 1 else "", ", ".join(map(str, beavered))))
    return out


def player_totals(games):
    """Per player: plays, unforced plays, marks, equity lost; cube decisions and errors;
    luck. Error rates in mEMG (thousandths of EMG) per unforced play / cube decision, as
    GNU Backgammon's statistics."""
    tot = []
    for _ in range(2):
        tot.append({"plays": 0, "unforced": 0, "marks": {"doubtful": 0, "bad": 0, "very bad": 0},
                    "play_error": 0.0, "cube_decisions": 0, "close_cube_decisions": 0, "cube_errors": 0, "missed_doubles": 0,
                    "wrong_doubles": 0, "wrong_takes": 0, "wrong_passes": 0, "cube_error": 0.0, "luck": 0.0})
    for g in games:
        for r in g["records"]:
            t = tot[r["player"]]
            if r["kind"] == "move":
                t["plays"] += 1
                if r.get("candidates", 0) > 1:
                    t["unforced"] += 1
                    t["play_error"] += r.get("loss", 0.0)
                if r.get("mark"):
                    t["marks"][r["mark"]] += 1
                t["luck"] += r.get("luck", 0.0)
            c = r.get("cube")
            if c and "error" in c:
                t["cube_decisions"] += 1
                t["cube_error"] += c["error"]
                if c["action"] != "no double" or c["close"]:
                    t["close_cube_decisions"] += 1
                if c["error"] > 1e-6:
                    t["cube_errors"] += 1
                    key = {"no double": "missed_doubles", "double": "wrong_doubles", "take": "wrong_takes",
                           "pass": "wrong_passes"}[c["action"]]
                    t[key] += 1
    for t in tot:
        t["play_error_rate"] = 1000 * t["play_error"] / t["unforced"] if t["unforced"] else 0.0
        # GNU Backgammon's overall error rate: all equity lost per unforced play and close or
        # actual cube decision, in thousandths (mEMG)
        n = t["unforced"] + t["close_cube_decisions"]
        t["error_rate"] = 1000 * (t["play_error"] + t["cube_error"]) / n if n else 0.0
    return tot


def mark_of(loss, limits):
    """GNU Backgammon's mark for an equity lost, at ``limits`` (thresholds())."""
    for name in ("very bad", "bad", "doubtful"):
        if name in limits and loss > limits[name]:
            return name
    return None


def commented_sgf(sgf, games, names):
    """GNU Backgammon's analysed SGF with a C[] comment on every play and cube action saying
    the analysis in words (GNU Backgammon shows comments and reads its analysis back)."""
    inserts = []
    for nodes, game in zip(parse_sgf(sgf), games):
        recs = iter(game["records"])
        for node in nodes[1:]:
            names_in = {p[0] for p in node}
            if not ({"B", "W"} & names_in):
                continue
            rec = next(recs, None)
            if rec is None or "C" in names_in:
                continue
            inserts.append((node[-1][3], "C[%s]" % sgf_escape(comment(rec, names))))
    out, last = [], 0
    for pos, text in sorted(inserts):
        out.append(sgf[last:pos])
        out.append(text)
        last = pos
    out.append(sgf[last:])
    return "".join(out)


def sgf_escape(text):
    return text.replace("\\", "\\\\").replace("]", "\\]")


def comment(rec, names):
    who = names[rec["player"]]
    lines = []
    c = rec.get("cube")
    if c and "right" in c:
        lines.append("Cube: %s %s; right: %s (no double %+.3f, double/take %+.3f)%s" % (
            who, c["action"], c["right"], c["no_double"], c["double_take"],
            "; error %.3f%s" % (c["error"], " (%s)" % c["mark"] if c.get("mark") else "") if c["error"] > 0.0005 else ""))
    if rec["kind"] == "move" and "best" in rec:
        if rec.get("loss", 0.0) > 0.0005:
            lines.append("%s played %s, best %s: %.3f lost%s" % (
                who, rec["played"], rec["best"], rec["loss"], " (%s)" % rec["mark"] if rec.get("mark") else ""))
        else:
            lines.append("%s played %s: the best play" % (who, rec["played"]))
    if "luck" in rec:
        lines.append("luck %+.3f" % rec["luck"])
    return "\n".join(lines)


# --- the gnubg program, as the independent reference ----------------------------------------------

_REFERENCE = r'''
import gnubg, json, os, sys
spec = json.load(open(os.environ["BGC_REF_SPEC"]))
for c in spec["commands"]:
    gnubg.command(c)
gnubg.command("import mat " + spec["mat"])
gnubg.command("analyse match")
m = gnubg.match(analysis=1, statistics=1, verbose=0)
gnubg.command("save match " + spec["sgf"])
# the cube decisions' equities with this program's own match equity table and mwc2eq
sys.path.insert(0, spec["host"])
from bgc.logs.analysis import cube_requests
eqs = {}
for key, ci, mwcs in cube_requests(open(spec["sgf"], encoding="utf-8", errors="replace").read()):
    eqs[key] = mwcs if ci is None else [gnubg.mwc2eq(x, gnubg.cubeinfo(*ci)) for x in mwcs]
json.dump({"match": m, "cube": eqs}, open(spec["out"], "w"), default=repr)
'''


def find_program_version():
    """The gnubg program's version line, or None."""
    from .export import find_gnubg

    exe = find_gnubg()
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.strip().splitlines() or [exe])[0]


def reference_analysis(mat_text, commands, timeout=1800):
    """The gnubg program's (Debian's /usr/games/gnubg) analysis of the same .mat with the same
    commands: {"match": gnubg.match(analysis=1, statistics=1), "cube": {key: [nd, dt]}}, for
    the comparison test and the benchmark. The cube equities come from its own SGF and mwc2eq
    (its gnubg.match() reports a move's cube equities wrongly in 1.07)."""
    from .export import GNUBG_MISSING, find_gnubg

    exe = find_gnubg()
    if not exe:
        raise AnalysisError(GNUBG_MISSING)
    host = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory(prefix="bgc-gnubg-ref-") as tmp:
        paths = {k: os.path.join(tmp, k) for k in ("match.mat", "ref.py", "spec.json", "out.json", "ref.sgf")}
        with open(paths["match.mat"], "w", encoding="utf-8") as f:
            f.write(mat_text)
        with open(paths["ref.py"], "w") as f:
            f.write(_REFERENCE)
        with open(paths["spec.json"], "w") as f:
            json.dump({"mat": paths["match.mat"], "sgf": paths["ref.sgf"], "out": paths["out.json"],
                       "commands": commands, "host": host}, f)
        env = dict(os.environ, HOME=tmp, BGC_REF_SPEC=paths["spec.json"])
        proc = subprocess.run([exe, "-t", "-q", "-r", "-p", paths["ref.py"]], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp)
        if not os.path.exists(paths["out.json"]):
            raise AnalysisError("gnubg failed (status %d): %s" % (proc.returncode, (proc.stderr or proc.stdout)[-1500:]))
        with open(paths["out.json"]) as f:
            return json.load(f)


def piploss_quirk(position_id, steps):
    """True where GNU Backgammon 1.07's PIPLOSS input (eval.c CalculateHalfInputs) differs from
    1.08's for the position after the play ``steps`` (from/to pairs, the mover's numbering) from
    ``position_id``: 1.07 counted a home point with one checker as made when it decided whether to
    count shots at blots on the opponent's 23- and 24-points (3 points or more), 1.08 fixed it
    (bug #65035) and retrained the nets. So a side with 3 or more home points taken but 2 or
    fewer made, facing an opponent's blot on its 23- or 24-point, gets another input in our
    engine than in 1.07, even with 1.07's nets."""
    from bgrules import Position

    c = Position.from_id(position_id).cells
    me, opp = [c[i] for i in range(1, 26)], [c[26 + i] for i in range(1, 26)]
    for f, t in steps:
        me[f - 1] -= 1
        if t > 0:
            if opp[24 - t] == 1:
                opp[24 - t] = 0
                opp[24] += 1
            me[t - 1] += 1

    def half(a, b):
        return sum(1 for n in a[:6] if n) > 2 >= sum(1 for n in a[:6] if n >= 2) and 1 in (b[22], b[23])

    return half(me, opp) or half(opp, me)


def compare(ours, ref, tolerance=0.005):
    """(counts, differences) between our analysis and the gnubg program's (reference_analysis()):
    the best play (a tie of equal equity counts as agreeing), the equity lost and the mark of every
    play, and of every cube decision the right action, the error and the mark. A play whose equity
    lost differs and whose best or played candidate is a PIPLOSS position (piploss_quirk()) is
    counted apart ("loss_apart_piploss")."""
    counts = {"plays": 0, "best_agrees": 0, "loss_within": 0, "cube": 0, "cube_agrees": 0,
              "cube_right_agrees": 0, "cube_error_within": 0, "max_loss_diff": 0.0, "crawford_differences": 0,
              "marks_apart_off_threshold": 0, "loss_apart_piploss": 0}
    limits = [v for k, v in ours.get("thresholds", {}).items() if k in ("doubtful", "bad", "very bad")]

    def off_threshold(a, b):
        # two marks differ on a threshold when the threshold lies within ``tolerance`` of either error
        return not any(min(a, b) - tolerance <= t <= max(a, b) + tolerance for t in limits)
    diffs = []
    rgames = ref["match"]["games"]
    if len(rgames) != len(ours["games"]):
        diffs.append("games: ours %d, gnubg %d" % (len(ours["games"]), len(rgames)))
    for g, rg in zip(ours["games"], rgames):
        before = len(diffs)
        rrecs = [r for r in rg["game"] if r["action"] in ("move", "double", "take", "drop")]
        if len(rrecs) != len(g["records"]):
            diffs.append("game %d: ours %d records, gnubg %d" % (g["number"], len(g["records"]), len(rrecs)))
            continue
        for i, (r, rr) in enumerate(zip(g["records"], rrecs), 1):
            where = "game %d record %d" % (g["number"], i)
            a = rr.get("analysis") or {}
            if r["kind"] == "move" and "loss" in r and a.get("moves"):
                counts["plays"] += 1
                cands = [(sorted(tuple(x) for x in m["move"]), m["score"]) for m in a["moves"]]
                best = sorted(tuple(x) for x in r["best_steps"])
                score_of = dict((tuple(k), v) for k, v in cands)
                if best == cands[0][0] or abs(score_of.get(tuple(best), -9) - cands[0][1]) < 1e-4:
                    counts["best_agrees"] += 1
                else:
                    diffs.append("%s: best play ours %s, gnubg %s" % (where, r["best"], cands[0][0]))
                rloss = cands[0][1] - a["moves"][a["imove"]]["score"]
                d = abs(rloss - r.get("loss", 0.0))
                counts["max_loss_diff"] = max(counts["max_loss_diff"], d)
                if d <= tolerance:
                    counts["loss_within"] += 1
                else:
                    quirk = "position" in r and any(
                        piploss_quirk(r["position"], m) for m in (r["played_steps"], r["best_steps"],
                                                                  [tuple(x) for x in a["moves"][0]["move"]]))
                    counts["loss_apart_piploss"] += quirk
                    diffs.append("%s: equity lost ours %.4f, gnubg %.4f%s" % (
                        where, r.get("loss", 0.0), rloss, " (a PIPLOSS position)" if quirk else ""))
                if (a.get("skill") or None) != r.get("mark"):
                    diffs.append("%s: mark ours %s, gnubg %s" % (where, r.get("mark"), a.get("skill")))
                    if off_threshold(r.get("loss", 0.0), rloss):
                        counts["marks_apart_off_threshold"] += 1
            c = r.get("cube")
            rc = ref["cube"].get(r["node"])
            if c and "right" in c:
                counts["cube"] += 1
                if rc is None:
                    diffs.append("%s: gnubg has no cube analysis here" % where)
                    continue
                right, best = cube_action(*rc)
                rerr = _cube_record(rc, c["action"], None)["error"]
                rmark = a.get("cube-skill") if r["kind"] == "move" else a.get("skill")
                if right == c["right"]:
                    counts["cube_right_agrees"] += 1
                if abs(rerr - c["error"]) <= tolerance:
                    counts["cube_error_within"] += 1
                if (rmark or None) != c.get("mark") and off_threshold(rerr, c["error"]):
                    counts["marks_apart_off_threshold"] += 1
                same = right == c["right"] and abs(rerr - c["error"]) <= tolerance and (rmark or None) == c.get("mark")
                if same:
                    counts["cube_agrees"] += 1
                else:
                    diffs.append("%s: cube %s: ours %s (error %.4f, %s), gnubg %s (error %.4f, %s)" % (
                        where, c["action"], c["right"], c["error"], c.get("mark"), right, rerr, rmark))
            elif rc is not None:
                diffs.append("%s: only gnubg analysed a cube decision here" % where)
        if g["crawford"]:
            counts["crawford_differences"] += len(diffs) - before
    return counts, diffs
