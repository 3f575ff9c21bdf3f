"""GNU Backgammon at a board: the PC's side of a match against the computer, for the virtual
board (`bgc sim --computer`) and for a board on USB (`bgc play`). The decisions are
bgc.logs.gnubg_player's (GNU Backgammon's own at the level asked); this module only listens to the
board's events and sends the `gnu` lines (docs/protocol.md, "A match against the computer")."""

from ..logs.gnubg_player import DEFAULT_LEVEL, GnubgPlayer, Opponent

SIDES = {"white": 0, "black": 1}
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


class Computer:
    """GNU Backgammon playing ``side`` on a board reached through ``send(line)``; ``on_event(ev)``
    is called with every event the board sends. It tells the board its side when a match is on and
    the board does not know it (a new match, the board started again)."""

    def __init__(self, side, level=DEFAULT_LEVEL, jacoby=False, beavers=0, player=None):
        self.side = side
        self.player = player or GnubgPlayer(level)
        self.level = self.player.level
        self.opponent = Opponent(self.player, side, jacoby, beavers)
        self.sides_sent = 0

    def on_event(self, ev, send):
        self.opponent.event(ev)
        if ev.get("ev") != "status":
            return
        if ev.get("match") and ev.get("computer") != self.side:
            self.sides_sent += 1
            self.opponent.resend()
            send("gnu side=%d" % self.side)
            return
        line = self.opponent.line(ev)
        if line:
            send(line)

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


def make_computer(side, level, engine=DEFAULT_ENGINE, jacoby=False, beavers=0, player=None):
    if engine == "board":
        return BoardComputer(side, level)
    return Computer(side, level, jacoby, beavers, player)


def at_sim(sim, side, level=DEFAULT_LEVEL, jacoby=False, beavers=0, player=None, engine=DEFAULT_ENGINE):
    """A Computer on the virtual board ``sim`` (bgc.board.sim.Sim): it reads the board's events as
    they come and answers on its serial line."""
    comp = make_computer(side, level, engine, jacoby, beavers, player)
    sim.serial.listeners.append(lambda ev: comp.on_event(ev, sim.serial.send))
    return comp
