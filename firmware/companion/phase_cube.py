# The controller's decisions between turns (a mixin of controller.Companion): the cube (double,
# take, beaver, drop) and resignations (choosing one, accepting or refusing it).

from bgrules.match import PLAY
from companion.codes import LONG, KIND_WORDS, PHASE_OF


class CubePhase:
    def _cube(self, action, player):
        m = self.match
        if action == "double" and not self.board_ok:
            self.say("Fix the board first")
            return
        if not self._act({"a": action, "p": player}, lambda: getattr(m, action)(player)):
            return
        m = self.match
        if action == "double":
            value = m.cube * 2
            self.say("%s doubles to %d" % (m.names[player], value))
        elif action == "beaver":
            value = m.cube * 2
            self.say("%s: %s!" % (m.names[player], ("beaver", "raccoon", "otter")[m.offer - 1]))
        elif action == "take":
            value = m.cube
            self.say("%s takes %d" % (m.names[player], value))
        else:
            value = m.result[1]
            self.say("%s drops" % m.names[player])
        self.emit("cube", {"p": player, "action": action, "cube": value})
        if action == "drop":
            self._game_end()
        else:
            self._enter(PHASE_OF[m.phase])
        self.status()

    def _pick(self, roll, kind):
        player, k = self.pick
        if not roll:
            if kind == LONG:
                self.pick = None
                self.say("")
                self.hint = self._hint()
                return
            self.pick[1] = k % self.match.rules.most() + 1  # no more than the game counts
            self.say("Resign %s?" % KIND_WORDS[self.pick[1]])
            return
        self.pick = None
        m = self.match
        if not self._act({"a": "resign", "p": player, "kind": k}, lambda: m.resign(k, player)):
            self.hint = self._hint()
            return
        self.emit("resign", {"p": player, "action": "offer", "kind": k})
        self.say("%s resigns %s" % (self.match.names[player], KIND_WORDS[k]))
        self.phase = "resign"
        self.hint = self._hint()
        self.status()

    def _resign_answer(self, action, player):
        m = self.match
        kind = m.resign_offer
        if not self._act({"a": action, "p": player}, lambda: getattr(m, action)(player)):
            return
        self.emit("resign", {"p": player, "action": action, "kind": kind})
        m = self.match
        if action == "accept":
            self._game_end()
        else:
            self.say("Resign rejected")
            if m.phase == PLAY and self.tracker.turn is m.turn:
                # back to the turn in progress, as the tracker left it
                self.phase = "moving"
                self._moving_frame()
                self.hint = self._hint()
            else:
                self._enter(PHASE_OF[m.phase])
        self.status()
