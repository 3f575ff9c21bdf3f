# The computer's play as the tracker's turn: the board's Turn (bgrules.turn) narrowed to the one
# play GNU Backgammon chose. The person moves the computer's checkers; the tracker asks this turn
# its usual questions (locate, destinations, is_legal, check), so the play is accepted in any order
# of its steps, a checker lifted lights only where the play takes it, and any other placement is
# refused with what to do ("GNU plays 13/7 8/7").
#
# The positions on the way are every subset of the play's steps applied to the start (at most 4
# steps: 16 positions): a person may set the checkers down in any order and move a checker straight
# to the end of its chain. The engine holds nothing of GNU Backgammon: the play comes from the PC
# as its final position (companion.phase_computer).

from bgrules.position import OPP, BAR


class ComputerTurn:
    def __init__(self, turn, final, text, who="GNU"):
        self.turn = turn
        self.who = who  # the computer's name on the OLED: GNU (the PC's) or Board (its own player)
        self.final = bytes(final)
        self.text = text
        play = turn.play_to(final)
        self.steps = play.steps if play is not None else ()
        self.way = self._way()
        self.due = None  # when the play counts as made with checkers not seen arriving (phase_computer)
        # where a checker starts that the play bears off (6/off, and 6/2/off from 6)
        chains = []
        for st in self.steps:
            for ch in chains:
                if ch[1] == st[0] and st[0]:
                    ch[1] = st[1]
                    break
            else:
                chains.append([st[0], st[1]])
        self.off_from = [ch[0] for ch in chains if ch[1] == 0]

    def __getattr__(self, name):
        # everything else (start, rules, dice, dice_to_play, play_to, ...) is the board's Turn's
        return getattr(self.turn, name)

    def _way(self):
        start = self.turn.start.cells
        opp = self.turn.rules.across or self.turn.rules.opposite
        steps = self.steps
        out = []
        for mask in range(1 << len(steps)):
            c = bytearray(start)
            ok = True
            for i in range(len(steps)):
                if mask >> i & 1:
                    src, dst = steps[i][0], steps[i][1]
                    if not c[src]:
                        ok = False
                        break
                    c[src] -= 1
                    if dst:
                        o = OPP + opp[dst]
                        if c[o] == 1:  # the blot there goes to the bar
                            c[o] = 0
                            c[OPP + BAR] += 1
                    c[dst] += 1
            if ok and bytes(c) not in out:
                out.append(bytes(c))
        return out

    def on_way(self, cells):
        return bytes(cells) in self.way

    def locate(self, position):
        cells = position.cells if hasattr(position, "cells") else position
        if not self.on_way(cells):
            return []
        return self.turn.locate(cells)

    def destinations(self, position, point, options=None):
        cells = position.cells if hasattr(position, "cells") else position
        if not self.on_way(cells):
            return []
        opp = self.turn.rules.across or self.turn.rules.opposite
        out = []
        for d in self.turn.destinations(cells, point, options):
            c = bytearray(cells)
            c[point] -= 1
            if d and d != BAR:
                o = OPP + opp[d]
                if c[o] == 1:
                    c[o] = 0
                    c[OPP + BAR] += 1
            c[d] += 1
            if bytes(c) in self.way:
                out.append(d)
        return out

    def is_legal(self, final):
        cells = final.cells if hasattr(final, "cells") else final
        return bytes(cells) == self.final

    def check(self, final):
        cells = final.cells if hasattr(final, "cells") else final
        if bytes(cells) == self.final:
            return None
        return self.who + " plays " + self.text

    def plan(self, known):
        """What is left to do from the board's ``known`` position: (sources, destinations, hits,
        bear-off sources) in the mover's own numbering (25 the bar)."""
        final = self.final
        src, dst, hits, off = [], [], [], []
        for p in range(1, 26):
            if known[p] > final[p]:
                src.append(p)
            elif known[p] < final[p]:
                dst.append(p)
        opp = self.turn.rules.across or self.turn.rules.opposite
        for p in range(1, 25):
            if known[OPP + opp[p]] > final[OPP + opp[p]]:
                hits.append(p)  # a blot of the opponent still on the mover's point p
        if known[0] < final[0]:
            for p in src:
                if p in self.off_from:
                    off.append(p)
        return src, dst, hits, off
