# The controller's moving phase (a mixin of controller.Companion): the turn on the board, judged
# frame by frame by the tracker; DONE (the play, refused or asked about); the opponent condoning a
# refused play; "which of two plays?" when the board cannot tell.

from bgrules.match import GAME_OVER, MATCH_OVER
from bgrules.position import Position, OPP, waiting
from companion import moves
from companion.codes import computer, parts
from companion.tracker import SAME, LIFTED, HIT, ILLEGAL, led_of, own_point


class MovingPhase:
    def _start_turn(self):
        m = self.match
        self.phase = "moving"
        self.refused = None
        self.ask = None
        turn = m.turn
        g = self.gnu
        if g is not None and g.turn is not turn:
            g = self.gnu = None  # the computer's play was for a turn that is over
        self.tracker.begin(turn.start, m.on_roll == 0, g or turn)
        self.locked = False
        if turn.dice_to_play == 0:
            # Pin: both sides may be stuck for good (the seed has no rule): say how it ends
            self.locked = m.rules.pinning and m.rules.locked(turn.start, m.rules)
            self.say("Locked for good\nhold CUBE:resign" if self.locked else "No legal move")
        self._moving_frame()
        self.hint = self._hint()

    def _moving_frame(self):
        t = self.tracker
        v = t.update(self.frame)
        if v == SAME:
            return
        self.refused = None
        m = self.match
        p = m.on_roll
        if v == ILLEGAL:
            point = t.red[0] if t.red else None
            own = None
            if point is not None:
                own = own_point(p == 0, point, m.rules.opposite)
            self.say(t.reason)
            self.emit("illegal", {"p": p, "at": "place", "point": own, "board_point": point, "reason": t.reason})
            self.illegal_out = True
            self._buzz()
        else:
            if self.illegal_out:
                self.emit("ok", {"p": p})
                self.illegal_out = False
            if v == HIT:
                self.say(t.reason)
            elif v == LIFTED and t.bear_off:
                self.say("May bear off")
            elif m.turn.dice_to_play == 0:
                self.say("No legal move")
            else:
                self.say("")
        if self.gnu is not None:
            computer().on_frame(self)
        self.hint = self._hint()

    def _done(self):
        m = self.match
        t = self.tracker
        found, reason = t.final()
        if len(found) == 1:
            return self._play(found[0], False)
        if found:
            return self._ask_start(found)
        p = m.on_roll
        self.refused = (reason, bytes(t.work))
        point = t.red[0] if t.red else None
        self.say(reason)
        self.emit("illegal", {"p": p, "at": "done", "point": None if point is None else own_point(p == 0, point, m.rules.opposite),
                              "board_point": point, "reason": reason})
        self.illegal_out = True
        self._buzz()
        self.hint = self._hint()

    def _condone(self, player, roll):
        m = self.match
        reason, cells = self.refused
        final = Position(cells)
        r = m.rules
        why = final.problem((m.names[m.on_roll], m.names[1 - m.on_roll]), r.opposite, r.checkers, r.pinning,
                            r.waiting)
        if why:
            self.say(why)
            return
        if not self._play(cells, True):
            return
        # the same press goes on as the opponent's roll or double (not when the turn goes on
        # with the same player: a turn made of parts)
        if self.phase == "roll" and self.match.on_roll == player:
            if roll:
                self._roll(player)
            else:
                self._cube("double", player)

    def _play(self, cells, condone):
        m = self.match
        turn = m.turn
        p = m.on_roll
        final = Position(cells)
        move = moves.notation(turn, final.cells) if final != turn.start else ""
        rec = {"a": "play", "p": p, "move": move, "pos": final.id()}
        if m.rules.waiting:  # the Position ID counts checkers waiting off the board as off
            rec["w"] = [waiting(final.cells), waiting(final.cells, OPP)]
        if condone:
            rec["condoned"] = True
        if not self._act(rec, lambda: m.play(final, condone, p)):
            return False
        self.tracker.prepared = None  # the turn's prepared answers (up to ~34 KB) go with the turn
        self.refused = None
        self.ask = None
        if self.illegal_out:
            self.emit("ok", {"p": p})
            self.illegal_out = False
        self.emit("play", {"p": p, "move": move, "pos": rec["pos"], "condoned": condone})
        m = self.match
        self.say(("Accepted: " if condone else "") + (move or "No move"))
        if m.phase in (GAME_OVER, MATCH_OVER):
            self._game_end()
        elif m.part is not None:
            parts().next_part(self)
            return True
        else:
            self._enter("roll")
        self.status()
        return True

    # --- which of two plays? ----------------------------------------------------------------

    def _ask_start(self, found):
        self.ask = [bytes(f) for f in found]
        t = self.tracker
        places = []
        for i in range(1, 26):
            first = self.ask[0][i]
            for c in self.ask:
                if c[i] != first:
                    places.append(i)
                    break
        self.ask_places = places
        self.ask_lo = bytes(t.lo)
        self.ask_sel = 0
        self.ask_chosen = -1
        self.phase = "ask"
        mw = self.match.on_roll == 0
        self.emit("ask", {"p": self.match.on_roll, "points": [led_of(mw, i, self.match.rules.opposite) for i in places]})
        self._ask_say()
        self.hint = self._hint()
        self.status()  # the phase is now "ask": a host watching the board must know

    def _ask_say(self):
        m = self.match
        c = self.ask[self.ask_sel]
        move = moves.notation(m.turn, c)
        self.say("Which play?\n" + move)

    def _ask_frame(self):
        t = self.tracker
        t.read(self.frame)
        lo = t.lo
        for i in range(52):
            if lo[i] != self.ask_lo[i] and i not in self.ask_places:
                # other checkers moved: back to the turn, judged afresh
                self.ask = None
                self.phase = "moving"
                self.tracker.prev[0] = 255  # force a fresh verdict
                self._moving_frame()
                self.status()
                return
        if self.ask_chosen >= 0:
            i = self.ask_places[0] if len(self.ask_places) == 1 else self._chosen_place
            if lo[i] == self.ask_lo[i]:
                return self._play_candidate(self.ask_chosen)
            return
        for i in self.ask_places:
            cap = 4 if i == 25 else 5
            if lo[i] >= self.ask_lo[i]:
                continue
            keep = []
            for k in range(len(self.ask)):
                n = self.ask[k][i]
                if min(n, cap) > lo[i] and min(n - 1, cap) == lo[i]:
                    keep.append(k)
            if len(keep) == 1:
                self.ask_chosen = keep[0]
                self._chosen_place = i
                self.say("Now put it back")

    def _play_candidate(self, k):
        cells = self.ask[k]
        self.ask = None
        self.phase = "moving"
        self._play(bytearray(cells), False)
