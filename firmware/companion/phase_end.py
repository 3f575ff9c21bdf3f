# The controller at a game's end and a match's end (a mixin of controller.Companion): the result
# journaled and announced, the next game.

from bgrules.match import MATCH_OVER
from companion.codes import KIND_WORDS, PHASE_OF, chouette as _cs


class EndPhase:
    def _game_end(self):
        self.locked = False
        if self.chouette is not None:
            return _cs().game_end(self)
        m = self.match
        winner, points, kind, how = m.result
        crawford_next = bool(m.length and m.crawford_rule and not m.post_crawford and not m.crawford_game
                             and m.length - 1 in m.score and m.phase != MATCH_OVER)
        rec = {"a": "end", "winner": winner, "points": points, "kind": kind, "how": how, "score": list(m.score)}
        try:
            self.write_record(rec)  # informational: the result follows from the actions
        except OSError as exc:
            self.error("journal write failed: %s" % exc)
        self.emit("game_end", {"winner": winner, "points": points, "kind": KIND_WORDS[kind] if kind else how,
                               "how": how, "score": list(m.score), "crawford_next": crawford_next})
        self.say("Draw: no points" if how == "draw" else "%s wins %d" % (m.names[winner], points))
        if m.phase == MATCH_OVER:
            self.emit("match_end", {"winner": m.winner, "score": list(m.score), "names": list(m.names)})
            self.say("%s wins match" % m.names[m.winner])
        self.phase = PHASE_OF[m.phase]
        self.hint = self._hint()

    def _next_game(self):
        m = self.match
        if not self._act({"a": "next"}, m.next_game):
            return
        m = self.match
        line = ""
        if m.series.cycle:
            from companion.games_in_turn import next_game  # Tavli names the game now played

            line = next_game(m)
        self.say("Game %d%s%s" % (m.game, " Crawford" if m.crawford_game else "", line))
        self._board("start")
        self.status()
