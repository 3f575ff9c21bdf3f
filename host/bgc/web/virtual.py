"""The virtual board as the web page shows it: the checkers where they lie, the colour of every
LED of the chain, the OLED's text and its pixels (as the firmware drew them)."""


def board_view(board):
    """(checkers, leds, oled_rows, oled_pixels) of a bgc.board.virtual board."""
    from ..board import sim as simmod

    checkers = simmod.board_counts(board)
    leds = [simmod.led_name(rgb).lower() for rgb in board.leds]
    px = board.oled.pixels()
    hexrows = []
    for row in px:
        bits = "".join("1" if v else "0" for v in row)
        hexrows.append("%032x" % int(bits, 2))
    return checkers, leds, simmod.oled_rows(board), hexrows


class Follower:
    """Keeps a hub up to date with a running Sim: after every ``every`` frames, when what a player
    would see has changed, and with every serial event as it comes."""

    def __init__(self, sim, hub, every=3):
        self.sim = sim
        self.hub = hub
        self.every = every
        self.n = 0
        self.last = None
        sim.serial.listeners.append(hub.feed)
        sim.on_frame.append(self)
        self.push()

    def push(self):
        from ..board import sim as simmod

        b = self.sim.board
        w, bl = simmod.board_counts(b)
        key = (tuple(b.leds), bytes(b.oled.ram), b.oled.display_on, b.oled.inverted, tuple(w), tuple(bl))
        if key != self.last:
            self.last = key
            self.hub.set_view(*board_view(b))

    def __call__(self, sim):
        self.n += 1
        if self.n % self.every == 0:
            self.push()
