"""GNU Backgammon at a board: the PC's side of a match against the computer, for the virtual
board (`bgc sim --computer`) and for a board on USB (`bgc play`). The decisions are
bgc.logs.gnubg_player's (GNU Backgammon's own at the level asked); this module only listens to the
board's events and sends the `gnu` lines (docs/protocol.md, "A match against the computer")."""

import json

from ..logs.gnubg_player import DEFAULT_LEVEL, GnubgPlayer, Opponent, final_id

SIDES = {"white": 0, "black": 1}
# how often `bgc play` tells the board it is there (`gnu here`): the board says "Computer offline"
# after phase_computer.OFFLINE_MS without a `gnu` line while it waits for the computer
HEARTBEAT_S = 1.0
# who decides for the computer's side: GNU Backgammon on the PC, or the board's own player
# (firmware boardplayer, docs/board-player.md): the PC then only tells the board which side
ENGINES = ("gnubg", "board")
DEFAULT_ENGINE = "gnubg"


def read_engine(text):
    key = (text or DEFAULT_ENGINE).strip().lower()
    if key not in ENGINES:
        raise ValueError("--engine is gnubg (GNU Backgammon on this PC) or board (the board's own player), not %r"
                         % text)
    return key


def read_engine_level(engine, text):
    """The level's name for ``engine``: GNU Backgammon's levels, or the board's own player's."""
    if engine == "board":
        from boardplayer.player import DEFAULT_LEVEL as BOARD_DEFAULT, read_level as board_level

        return board_level(text or BOARD_DEFAULT)
    from ..logs.gnubg_player import read_level

    return read_level(text or DEFAULT_LEVEL)


def read_side(text):
    """0 for white, 1 for black; ValueError otherwise."""
    try:
        return SIDES[(text or "").strip().lower()]
    except KeyError:
        raise ValueError("--computer is white or black, not %r" % text) from None


def computer_name(level, engine=DEFAULT_ENGINE):
    """The computer's name in the match, for the journal and the exports: GNU Backgammon calls its
    own player "gnubg"; the level follows as GNU Backgammon names it ("gnubg (world class)": at
    most 20 characters, the board's limit for a name). The board's own player: "board (expert)",
    as the board's menu names it."""
    return "%s (%s)" % ("board" if engine == "board" else "gnubg", level)


def new_match(side, level, length, jacoby=True, beavers=0, variant=None, engine=DEFAULT_ENGINE):
    """The board's `new` command (docs/protocol.md) for a match against the computer: the
    computer's name and level in its seat. A money session (``length`` 0) plays with the Jacoby
    rule unless ``jacoby`` is False (GNU Backgammon's own default for money) and with beavers
    only when ``beavers`` (1 beavers, 2 also raccoons, 3 also otters) allows them; a match has
    neither (the board refuses them in a match)."""
    if not 0 <= beavers <= 3:
        raise ValueError("--beavers is 0 (none), 1 (beavers), 2 (also raccoons) or 3 (also otters), not %d" % beavers)
    if length and beavers:
        raise ValueError("beavers are for money play (--length 0), not a %d-point match" % length)
    gnu = computer_name(level, engine)
    cmd = {"cmd": "new", "length": length, "names": ["You", gnu] if side else [gnu, "You"]}
    if not length:
        cmd["jacoby"], cmd["beavers"] = bool(jacoby), beavers
    if variant:
        cmd["variant"] = variant
    return cmd


class Computer:
    """GNU Backgammon playing ``side`` on a board reached through ``send(line)``; ``on_event(ev)``
    is called with every event the board sends. It tells the board its side when a match is on and
    the board does not know it (a new match, the board started again), answers the person's
    request for advice (the `advice` event: `gnu hint`) and, with ``teach``, tells the board GNU
    Backgammon's mark on each of the person's decisions (logs.teacher: `gnu tell`; ``notes``: what
    it said)."""

    def __init__(self, side, level=DEFAULT_LEVEL, jacoby=False, beavers=0, player=None, teach=False, nets="auto"):
        self.side = side
        self.player = player or GnubgPlayer(level, nets)
        self.level = self.player.level
        self.opponent = Opponent(self.player, side, jacoby, beavers)
        self.sides_sent = 0
        self.teacher = None
        if teach:
            from ..logs.teacher import Teacher

            self.teacher = Teacher(1 - side, nets=nets)
        self.notes = []
        self.hints = []  # (the advice event, the Decision): the advice given

    def on_event(self, ev, send):
        self.opponent.event(ev)
        kind = ev.get("ev")
        if self.teacher is not None:
            self.teacher.feed(ev)
        if kind == "advice":
            # the match's rules as the opponent read them from the board (its new or options event)
            d = self.player.advise(ev["p"], ev["match"], ev["pos"], self.opponent.jacoby, self.opponent.beavers)
            self.hints.append((ev, d))
            send("gnu hint pos=%s" % final_id(ev["pos"], d.steps))
            return
        if kind == "back":
            self.opponent.resend()  # the same state may come again: decided afresh
        if kind != "status":
            return
        if ev.get("match") and ev.get("computer") != self.side:
            self.sides_sent += 1
            self.opponent.resend()
            send("gnu side=%d" % self.side)
            return
        line = self.opponent.line(ev)
        if line:
            send(line)
        if self.teacher is not None:
            words = self.teacher.note()
            if words:
                self.notes.append(words)
                send(json.dumps({"cmd": "gnu", "do": "tell", "text": words}))

    def close(self):
        self.player.close()


class BoardComputer:
    """The board's own player on ``side``: the PC only tells the board (gnu side=N engine=board
    level=L) when a match is on and the board's status does not show it; the board decides."""

    def __init__(self, side, level):
        from boardplayer.player import read_level

        self.side = side
        self.level = read_level(level)
        self.opponent = self  # play.py's resend() after the board came back
        self.sides_sent = 0
        self.notes = []  # (the teacher and the advice are GNU Backgammon's: none here)
        self.hints = []

    def line(self):
        return "gnu side=%d engine=board level=%s" % (self.side, self.level)

    def on_event(self, ev, send):
        if ev.get("ev") != "status" or not ev.get("match"):
            return
        if ev.get("computer") != self.side or ev.get("engine") != "board" or ev.get("level") != self.level:
            self.sides_sent += 1
            send(self.line())

    def resend(self):
        pass  # the board's next status says whether it still knows its side

    def close(self):
        pass


def make_computer(side, level, engine=DEFAULT_ENGINE, jacoby=False, beavers=0, player=None, teach=False,
                  nets="auto"):
    if engine == "board":
        return BoardComputer(side, level)
    return Computer(side, level, jacoby, beavers, player, teach, nets)


def at_sim(sim, side, level=DEFAULT_LEVEL, jacoby=False, beavers=0, player=None, teach=False, engine=DEFAULT_ENGINE,
           nets="auto"):
    """A Computer on the virtual board ``sim`` (bgc.board.sim.Sim): it reads the board's events as
    they come and answers on its serial line."""
    comp = make_computer(side, level, engine, jacoby, beavers, player, teach, nets)
    sim.serial.listeners.append(lambda ev: comp.on_event(ev, sim.serial.send))
    return comp


def play_on_sim(side, seed, length, level=DEFAULT_LEVEL, games=None, jacoby=True, beavers=0, illegal=0.25,
                refuse_resign=0.0, player=None, flash_dir=None, person=None):
    """A whole match (or a money session of ``games`` games, ``length`` 0) against the computer
    on the virtual board: the automated hands (bgc.board.players) play the person's side and move
    the computer's checkers as lit, with a wrong placement in ``illegal`` of the turns, refusing
    ``refuse_resign`` of the computer's resignations. Returns (sim, computer, hands): the caller
    closes the sim (its journal: sim.journal_path()); the computer is closed here unless
    ``player`` (a GnubgPlayer kept for several matches) was given. ``person``: a GnubgPlayer that
    chooses the person's plays and cube actions (the hands still move the checkers)."""
    from . import players as P
    from . import sim as simmod

    sim = simmod.Sim(seed=seed, flash_dir=flash_dir)
    comp = at_sim(sim, side, level, player=player)
    try:
        hands = P.Players(sim, seed=seed, handling=P.Handling(illegal=illegal), computer=side,
                          games=games if not length else None, refuse_resign=refuse_resign, person=person)
        sim.serial.send(new_match(side, comp.level, length, jacoby, beavers))
        limit = 3600 * 1000 * (length or games)  # an hour of play a point (a game): something is stuck
        while not hands.finished and sim.board.clock.ms < limit:
            sim.step()
        return sim, comp, hands
    finally:
        if player is None:
            comp.close()
