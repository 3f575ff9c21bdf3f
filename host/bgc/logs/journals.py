"""Reading match journals on the host: one home for what pull, replay and export share.

A journal (docs/formats.md) is replayed record by record through the firmware's own
``companion.recovery.apply`` and ``bgrules.Match``, and turned into a ``MatchLog``: the settings,
and for every game the score it started at, whether it was the Crawford game, and its actions in
order (opening-roll ties, plays with the dice, the start and end positions and the checker steps,
cube actions, closed-out turns, resignations) and its result. Every play is checked against the
rules: an illegal play the opponent accepted is kept and marked ``condoned``; one that was not
accepted cannot be in a valid journal and stops the replay there, as a torn or garbled line (or
a record with a right checksum but a wrong field) does. ``MatchLog.problem`` then says at which
line and why, and ``MatchLog.later`` how many readable lines come after it (never replayed: the
match state they continue from is unknown, so they are reported, not guessed at); everything
before it is kept, so a damaged journal still exports what is readable. The file is read as
bytes, as the firmware reads it: a byte that is not UTF-8 is one more damaged line.
"""

import os


from companion import journal as _journal  # the firmware's own journal code, imported in place
from companion import recovery

from bgrules import Position
from bgrules.position import BAR, OFF, OPP, waiting

journal = _journal
JournalError = _journal.JournalError

KIND_WORDS = ("", "single game", "gammon", "backgammon")
HOW_WORDS = {"play": "by play", "drop": "double dropped", "resign": "by resignation"}


class Action(dict):
    """One thing that happened in a game: a dict with at least ``a`` (the kind), ``p`` (the
    player, or None) and ``line`` (the journal line it came from).

    Kinds: ``tie`` (opening dice were equal: ``dice``; ``cube`` after any automatic double),
    ``move`` (``dice`` larger first, ``start`` and ``final`` Positions from the mover's view,
    ``steps`` as (from, to, hit) with 25 = bar and 0 = off, ``notation``, ``condoned``,
    ``reason`` why it is illegal or None, ``opening`` True for the first play of a game),
    ``double`` / ``beaver`` (``cube``: the value offered), ``take``, ``drop``, ``pass``,
    ``resign`` (``kind`` 1-3), ``accept``, ``reject``, ``roll_only`` (dice rolled, then the game
    ended by resignation before a play: ``dice``).
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name)


class GameLog:
    def __init__(self, number, score, crawford, cube=1, rules=None):
        self.number = number  # from 1
        self.rules = rules  # the game's ruleset (bgrules Rules): in Tavli each game has its own
        self.score = list(score)  # [p0, p1] when the game started
        self.crawford = crawford  # this is the Crawford game
        self.start_cube = cube  # the cube after automatic doubles (money)
        self.actions = []
        self.taken_back = []  # against the computer: each play taken back with what followed it (actions)
        self.back_lines = []  # the journal lines of the take-backs
        self.result = None  # (winner, points, kind, how) once the game is over
        # a game that starts at a set position (the journal's setup record, bgc setup): {"pos"
        # (Position, the player on roll's view), "on_roll", "cube", "owner", "dice" or None,
        # "mid" (the Match ID it was set with), "line"}; None for a game from the start
        self.setup = None

    @property
    def moves(self):
        return [a for a in self.actions if a["a"] == "move"]

    def __repr__(self):
        return "GameLog(%d, %r, %d actions, %r)" % (self.number, self.score, len(self.actions), self.result)


class MatchLog:
    """What a journal holds, replayed: see the module comment."""

    def __init__(self, source):
        self.source = source  # file name (or a label)
        self.settings = None  # the first record
        self.games = []
        self.match = None  # the bgrules.Match after the last record that applied
        self.problem = None  # None, or (line number, what is wrong)
        self.records = 0  # records that applied (the settings record included)
        self.lines = 0  # lines in the file (non-empty)
        self.later = 0  # readable lines after ``problem`` (not replayed)

    def damage_text(self):
        """One line on what a damaged journal loses, or "" when it replays to its end."""
        if not self.problem:
            return ""
        text = "the replay stops at %s" % self.problem[1]
        if self.later:
            text += "; %d readable line%s after it %s not replayed" % (self.later, "" if self.later == 1 else "s",
                                                                     "is" if self.later == 1 else "are")
        return text

    @property
    def names(self):
        return tuple(self.settings["names"]) if self.settings else ("White", "Black")

    @property
    def length(self):
        return self.settings["length"] if self.settings else 0

    @property
    def money(self):
        return self.length == 0

    @property
    def complete(self):
        """The match is over (a money session is complete once its last game is)."""
        if self.match is None:
            return False
        if self.money:
            return self.match.phase == "gameover"
        return self.match.phase == "matchover"

    @property
    def condoned(self):
        return [(g.number, a) for g in self.games for a in g.actions if a["a"] == "move" and a["condoned"]]

    @property
    def finished_games(self):
        return [g for g in self.games if g.result is not None]

    def score(self):
        return list(self.match.score) if self.match is not None else [0, 0]

    def summary(self):
        """One line for reports: what the journal holds."""
        if self.settings is None:
            return "no match (nothing readable)"
        kind = "money session" if self.money else "%d-point match" % self.length
        n = len(self.games)
        s = self.score()
        text = "%s, %s vs %s, %d game%s, score %d-%d" % (kind, self.names[0], self.names[1], n,
                                                        "" if n == 1 else "s", s[0], s[1])
        if self.match.phase == "matchover":
            text += ", won by %s" % self.names[self.match.winner]
        elif not self.money:
            text += ", in progress"
        c = len(self.condoned)
        if c:
            text += ", %d condoned illegal play%s" % (c, "" if c == 1 else "s")
        return text


def read_data(path):
    """The bytes of a journal file, with the lines still in its tail when a copy of the board's
    folder holds one (m0001.tail/OFFSET beside m0001.jnl: a board cut off before it moved them,
    docs/formats.md), nothing changed on disk; OSError passes through. The tail files are joined
    by the rule the firmware's companion.tail.flush moves them by: in the order of their offsets,
    each whose offset is where the bytes so far end (any other is already in the journal, or not
    this journal's: left out, as the firmware leaves it). Kept out of the firmware's module, whose
    every byte a board's heap pays; tests/test_journal_tail_readers.py checks the two agree."""
    with open(path, "rb") as f:
        data = f.read()
    folder = path[:-3] + "tail"
    if path.endswith(".jnl") and os.path.isdir(folder):
        for offset in sorted(int(n) for n in os.listdir(folder) if n.isdigit()):
            if offset == len(data):
                with open(os.path.join(folder, str(offset)), "rb") as f:
                    data += f.read()
    return data


def read_text(path):
    """The text of a journal file (bytes that are not UTF-8 become U+FFFD); OSError passes through."""
    return read_data(path).decode("utf-8", "replace")


def load(path):
    """The MatchLog of the journal file at ``path`` (OSError when it cannot be read)."""
    return replay_data(read_data(path), path)


def steps_between(start, final, opposite=None):
    """Checker steps (from, to, hit) that take the mover from ``start`` to ``final``: for a
    play that is not legal (a condoned one), where no legal play gives the steps. The mover's
    checkers that left a place are paired with the places that gained one, highest with highest;
    a step is marked as a hit where an opponent's blot disappeared. ``opposite``: the
    ruleset's track (bgrules Rules.opposite; standard 25 - p). A checker entered from beside
    the board is written as from the bar."""
    from bgrules import STANDARD

    opposite = opposite or STANDARD.opposite
    a, b = bytearray(start.cells), final.cells
    a[BAR] += waiting(a) - waiting(b)  # (entered ones: from the bar, as the notation writes them)
    sources, dests = [], []
    for place in range(BAR, 0, -1):
        if a[place] > b[place]:
            sources += [place] * (a[place] - b[place])
    for place in range(BAR - 1, -1, -1):
        if b[place] > a[place]:
            dests += [place] * (b[place] - a[place])
    if b[OFF] > a[OFF] and OFF not in dests:
        dests += [OFF] * (b[OFF] - a[OFF])
    hit_points = set()
    for p in range(1, 25):
        if a[OPP + opposite[p]] == 1 and b[OPP + opposite[p]] == 0:
            hit_points.add(p)
    steps = []
    for src, dst in zip(sources, dests):
        hit = dst in hit_points
        if hit:
            hit_points.discard(dst)
        steps.append((src, dst, hit))
    return steps


def _play_steps(turn, final):
    """(steps, notation, legal) for the play that ends at ``final``: the target search of
    Turn.play_to (a handful of nodes, not every play of the roll)."""
    if turn.dice_to_play == 0:
        return (), "", final == turn.start
    play = turn.play_to(final)
    if play is None:
        return None, None, False
    return play.steps, play.notation(), True


def _format_steps(steps):
    from bgrules.notation import format_steps

    return format_steps(tuple(steps)) if steps else ""


def replay_text(text, source="journal"):
    """replay_data of journal ``text`` (a str)."""
    return replay_data(text.encode("utf-8", "replace"), source)


def replay_data(data, source="journal"):
    """Replay the journal bytes ``data`` (see the module comment). Never raises for bad content:
    what cannot be read or does not fit ends the log, and ``problem`` says where and why."""
    log = MatchLog(source)
    m = None
    game = None
    number = 0
    for line in data.split(b"\n"):
        number += 1
        if not line.strip():
            continue
        log.lines += 1
        if log.problem:
            try:
                _journal.decode(line)
                log.later += 1
            except JournalError:
                pass
            continue
        try:
            record = _journal.decode(line)
        except JournalError as exc:
            log.problem = (number, "line %d: unreadable (%s)" % (number, exc))
            continue
        if m is None:
            try:
                m = recovery.new_match(record)
            except JournalError as exc:
                log.problem = (number, "line %d: %s" % (number, exc))
                continue
            log.settings = record
            log.match = m
            log.records = 1
            game = GameLog(1, m.score, m.crawford_game, m.cube, m.rules)
            log.games.append(game)
            continue
        a = record.get("a")
        p = record.get("p")
        before = _snapshot(m)
        if a == "play" and m.turn is not None:
            start = m.position.copy()
            turn = m.turn
        try:
            recovery.apply(m, record)
        except JournalError as exc:
            log.problem = (number, "line %d: %s" % (number, exc))
            continue
        log.records += 1
        if a == "next":
            game = GameLog(m.game, m.score, m.crawford_game, m.cube, m.rules)
            log.games.append(game)
            continue
        if a == "setup":
            # the first game starts at a set position: its score, cube and player on roll are the
            # Match ID's (the settings record started it at 0-0 with the cube centred)
            game.score, game.crawford, game.start_cube = list(m.score), m.crawford_game, m.cube
            game.setup = {"pos": m.position.copy(), "on_roll": m.on_roll, "cube": m.cube, "owner": m.cube_owner,
                          "dice": m.dice if m.turn is not None else None, "mid": record["mid"], "line": number}
            game.pending_dice = (m.dice, False) if m.turn is not None else None
            continue
        if a == "back":
            # the person's last play taken back against the computer, with everything after it
            # (the computer's reply): the game is kept as finally played, the take-back counted
            if not take_back(game, p):
                log.problem = (number, "line %d: back refused: no play of %s's in this game to take back"
                               % (number, player_name(log, p)))
            game.back_lines.append(number)
            continue
        act = Action(a=a, p=p, line=number)
        if a == "open":
            if m.phase == "opening":  # a tie: roll again (maybe an automatic double)
                act.update(a="tie", dice=tuple(record["dice"]), cube=m.cube)
                game.start_cube = m.cube
            else:
                # The opening roll is the first move's dice; it is journaled with the play.
                game.pending_dice = (m.dice, True)
                continue
        elif a == "roll":
            game.pending_dice = (m.dice, False) if m.turn is not None else None
            continue
        elif a == "choose":  # a chosen double, or the free-choice roll (bgrules.turn_parts)
            act["dice"] = tuple(record["dice"])
            game.pending_dice = None  # the next part is played with the chosen dice
        elif a == "play":
            final = Position.from_id(record["pos"], m.rules.opposite, m.rules.pinning)
            if "w" in record:  # checkers waiting off the board, which the ID counts as off
                final.set_waiting(record["w"][0], record["w"][1])
            dice, opening = getattr(game, "pending_dice", None) or (before["dice"], False)
            game.pending_dice = None
            steps, notation, legal = _play_steps(turn, final)
            reason = None
            if not legal:
                reason = turn.check(final)
                steps = steps_between(start, final, m.rules.opposite)
                notation = _format_steps(steps)
            act.update(a="move", p=before["on_roll"], dice=dice, start=start, final=final, steps=tuple(steps or ()),
                       notation=notation, condoned=bool(record.get("condoned")), reason=reason,
                       opening=opening, recorded=record.get("move", ""))
        elif a in ("double", "beaver"):
            # The value offered: a double offers twice the cube; a beaver accepts the pending
            # value (m.cube now) and offers twice that.
            act.update(p=before["to_act"], cube=before["cube"] * 2 if a == "double" else m.cube * 2)
        elif a in ("take", "drop", "accept", "reject"):
            act["p"] = before["to_act"]
        elif a == "pass":
            act["p"] = before["on_roll"]
        elif a == "resign":
            act["kind"] = record["kind"]
            act["p"] = 1 - m.to_act
            pend = getattr(game, "pending_dice", None)
            if pend:
                act["rolled"] = pend[0]
        elif a in ("end", "note"):
            if a == "note":
                act["text"] = record.get("text", "")
                game.actions.append(act)
            continue
        game.actions.append(act)
        if m.phase in ("gameover", "matchover") and game.result is None:
            game.result = m.result
    return log


def take_back(game, p):
    """Drop player ``p``'s last play from ``game`` and every action after it (a `back` record,
    docs/formats.md); its dice are the next play's again. ``game.taken_back`` keeps what went."""
    acts = game.actions
    at = max((i for i, x in enumerate(acts) if x["a"] == "move" and x["p"] == p), default=None)
    if at is None:
        return False
    play = acts[at]
    game.taken_back.append(acts[at:])
    del acts[at:]
    game.pending_dice = (play["dice"], play["opening"])
    return True


def _snapshot(m):
    return {"on_roll": m.on_roll, "to_act": m.to_act, "cube": m.cube, "dice": m.dice, "phase": m.phase}


def player_name(log, p):
    return log.names[p] if p in (0, 1) else "?"


def action_text(log, act):
    """One line in words for an action (bgc replay)."""
    a = act["a"]
    who = player_name(log, act.get("p"))
    if a == "tie":
        d = act["dice"]
        text = "opening roll %d-%d: equal, roll again" % (d[0], d[1])
        if act.get("cube", 1) > 1:
            text += " (automatic double: cube %d)" % act["cube"]
        return text
    if a == "move":
        d = act["dice"]
        move = act["notation"] or "no move possible"
        text = "%s %d%d: %s" % (who, d[0], d[1], move)
        if act["reason"]:
            text += "   [ILLEGAL, condoned: %s]" % act["reason"] if act["condoned"] else "   [ILLEGAL: %s]" % act["reason"]
        return text
    if a == "choose":
        return "%s chooses %d-%d" % (who, act["dice"][0], act["dice"][1])
    if a == "double":
        return "%s doubles to %d" % (who, act["cube"])
    if a == "beaver":
        return "%s beavers: redoubles to %d" % (who, act["cube"])
    if a == "take":
        return "%s takes" % who
    if a == "drop":
        return "%s drops" % who
    if a == "pass":
        return "%s is closed out: no roll" % who
    if a == "resign":
        return "%s resigns a %s" % (who, KIND_WORDS[act["kind"]])
    if a == "accept":
        return "%s accepts the resignation" % who
    if a == "reject":
        return "%s rejects the resignation; play goes on" % who
    if a == "note":
        text = str(act.get("text", ""))
        return "note: %s" % (text if len(text) <= 200 else text[:197] + "...")
    return a


def result_text(log, game):
    if game.result is None:
        return "game %d not finished" % game.number
    winner, points, kind, how = game.result
    if how == "draw":
        return "a draw: nobody scores (Plakoto: both mothers pinned)"
    words = KIND_WORDS[kind] if kind else "game"
    return "%s wins %d point%s (%s, %s)" % (log.names[winner], points, "" if points == 1 else "s",
                                            words, HOW_WORDS.get(how, how))


def journal_files(paths):
    """Expand directories to the journal files (*.jnl) in them, sorted; keep files as given."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, n) for n in os.listdir(p) if n.endswith(".jnl"))
        else:
            out.append(p)
    return out


# --- synthetic journals (tests, benchmarks, demos) --------------------------------------------


def _illegal_final(turn, rng):
    """A final position the dice do not allow but that can exist (for a condoned play): one of
    the mover's checkers moved a single pip, or None when no such position is found."""
    start = turn.start
    c = start.cells
    points = [p for p in range(2, 25) if c[p]] if not c[BAR] else []
    rng.shuffle(points)
    for p in points:
        q = p - 1
        o = OPP + turn.rules.opposite[q]
        if c[o] > 1:
            continue
        final = start.copy()
        f = final.cells
        f[p] -= 1
        f[q] += 1
        if f[o] == 1:
            f[o] = 0
            f[OPP + BAR] += 1
        r = turn.rules
        if final.problem(opposite=r.opposite, checkers=r.checkers, pins=r.pinning, wait=r.waiting) is None and \
                turn.check(final):
            return final
    return None


def _blitz_score(pos):
    c = pos.cells
    return c[OPP + BAR] * 3 + sum(1 for p in range(1, 7) if c[p] >= 2)


def synthetic_records(seed, length=5, games=3, names=("Anna", "Bruno"), crawford=True, beavers=0,
                      auto_doubles=0, jacoby=False, p_double=0.06, p_resign=0.01, p_condone=0.01,
                      blitz=False, rules="standard"):
    """The records of a journal for a match (``length`` > 0) or a money session of ``games``
    games, played with seeded random dice and random legal plays, exactly as the companion
    journals them (docs/formats.md): cube actions (beavers when allowed), closed-out turns
    passed without a roll, resignations accepted or rejected, now and then an illegal play the
    opponent condoned, the informational ``end`` records; ``rules`` names the variant. ``blitz`` makes the players prefer
    plays that hit and close their home board, so that closed-out turns happen often."""
    import random

    from bgrules.turn_parts import chooser

    rng = random.Random(seed)
    settings = _journal.settings_record(length=length, crawford=crawford, auto_doubles=auto_doubles,
                                        beavers=beavers, jacoby=jacoby, names=names, rules=rules)
    records = [settings]
    m = recovery.new_match(settings)

    def add(record):
        recovery.apply(m, record)
        records.append(record)

    def die():
        return rng.randint(1, 6)

    played = 0
    while True:
        while m.phase == "opening":
            add({"a": "open", "dice": [die(), die()]})
        while m.phase not in ("gameover", "matchover"):
            me = m.on_roll
            if m.phase in ("roll", "play") and rng.random() < p_resign:
                # no more than the game counts (Rules.most: Tavli's games 2, no-gammon games 1)
                add({"a": "resign", "p": m.to_act, "kind": min(rng.choice((1, 1, 2, 3)), m.rules.most())})
                add({"a": "accept" if rng.random() < 0.6 else "reject", "p": m.to_act})
                continue
            if m.phase == "roll":
                if m.may_double() and rng.random() < p_double:
                    add({"a": "double", "p": me})
                    while m.phase == "doubled":
                        if not m.length and m.offer < m.beavers and rng.random() < 0.4:
                            add({"a": "beaver", "p": m.to_act})
                        elif rng.random() < 0.7:
                            add({"a": "take", "p": m.to_act})
                        else:
                            add({"a": "drop", "p": m.to_act})
                    continue
                if m.closed_out() and rng.random() < 0.8:
                    add({"a": "pass", "p": me})
                    continue
                if m.rules.free_choice and chooser(m) == me:
                    d1 = rng.randint(2, 6)
                    add({"a": "choose", "p": me, "dice": [d1, rng.randint(1, d1 - 1)]})
                    continue
                add({"a": "roll", "p": me, "dice": [die(), die()]})
                continue
            if m.phase == "choose":
                d = die()
                add({"a": "choose", "p": me, "dice": [d, d]})
                continue
            turn = m.turn
            plays = turn.plays()
            condone = False
            final = None
            if plays and rng.random() < p_condone:
                final = _illegal_final(turn, rng)
                condone = final is not None
            if final is None:
                if plays:
                    play = max(plays, key=lambda pl: (_blitz_score(pl.position), rng.random())) if blitz \
                        else rng.choice(plays)
                    final, notation = play.position, play.notation()
                else:
                    final, notation = turn.start.copy(), ""
            else:
                notation = _format_steps(steps_between(turn.start, final, m.rules.opposite))
            record = {"a": "play", "p": me, "move": notation, "pos": final.id()}
            if m.rules.waiting:
                record["w"] = [waiting(final.cells), waiting(final.cells, OPP)]
            if condone:
                record["condoned"] = True
            add(record)
        winner, points, kind, how = m.result
        records.append({"a": "end", "winner": winner, "points": points, "kind": kind, "how": how,
                        "score": list(m.score)})
        played += 1
        if m.phase == "matchover" or (not length and played >= games):
            return records
        add({"a": "next"})


def encode_records(records):
    """The journal text of ``records`` (one checksummed line each)."""
    return "".join(_journal.encode(r) for r in records)


class Recorder:
    """The match journal's records (docs/formats.md) rebuilt from the events, so that a match seen
    from its ``new`` event on can be saved as .mat/.sgf by the exporters of ``bgc export``."""

    def __init__(self):
        self.records = []
        self.ended = False  # a game ended: the next opening roll starts a new game

    def feed(self, ev):
        kind = ev.get("ev")
        r = self.records
        if kind == "new":
            self.records = [dict(ev.get("settings") or {})]
            self.ended = False
        elif not r:
            return  # the match began before we were listening
        elif kind == "roll" and ev.get("opening"):
            if self.ended:
                r.append({"a": "next"})
                self.ended = False
            r.append({"a": "open", "dice": list(ev["dice"])})
        elif kind == "roll":
            r.append({"a": "roll", "p": ev["p"], "dice": list(ev["dice"])})
            if ev.get("entered"):
                r[-1]["entered"] = True
        elif kind == "pass":
            r.append({"a": "pass", "p": ev["p"]})
        elif kind == "play":
            rec = {"a": "play", "p": ev["p"], "move": ev.get("move", ""), "pos": ev["pos"]}
            if ev.get("condoned"):
                rec["condoned"] = True
            r.append(rec)
        elif kind == "cube":
            r.append({"a": ev["action"], "p": ev["p"]})
        elif kind == "resign":
            if ev.get("action") == "offer":
                r.append({"a": "resign", "p": ev["p"], "kind": ev["kind"]})
            else:
                r.append({"a": ev["action"], "p": ev["p"]})
        elif kind == "back":
            r.append({"a": "back", "p": ev["p"], "to": ev["to"]})
        elif kind == "game_end":
            self.ended = True

    def journal_text(self):
        return encode_records(self.records) if self.records else None
