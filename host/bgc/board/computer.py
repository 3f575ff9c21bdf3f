"""GNU Backgammon at a board: the PC's side of a match against the computer, for the virtual
board (`bgc sim --computer`) and for a board on USB (`bgc play`). The decisions are
bgc.logs.gnubg_player's (GNU Backgammon's own at the level asked); this module only listens to the
board's events and sends the `gnu` lines (docs/protocol.md, "A match against the computer")."""

from ..logs.gnubg_player import DEFAULT_LEVEL, GnubgPlayer, Opponent

SIDES = {"white": 0, "black": 1}
# how often `bgc play` tells the board it is there (`gnu here`): the board says "Computer offline"
# after phase_computer.OFFLINE_MS without a `gnu` line while it waits for the computer
HEARTBEAT_S = 1.0


def read_side(text):
    """0 for white, 1 for black; ValueError otherwise."""
    try:
        return SIDES[(text or "").strip().lower()]
    except KeyError:
        raise ValueError("--computer is white or black, not %r" % text) from None


def computer_name(level):
    """The computer's name in the match, for the journal and the exports: GNU Backgammon calls its
    own player "gnubg"; the level follows as GNU Backgammon names it ("gnubg (world class)": at
    most 20 characters, the board's limit for a name)."""
    return "gnubg (%s)" % level


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


def at_sim(sim, side, level=DEFAULT_LEVEL, jacoby=False, beavers=0, player=None):
    """A Computer on the virtual board ``sim`` (bgc.board.sim.Sim): it reads the board's events as
    they come and answers on its serial line."""
    comp = Computer(side, level, jacoby, beavers, player)
    sim.serial.listeners.append(lambda ev: comp.on_event(ev, sim.serial.send))
    return comp
