"""Automated players for a chouette evening on the virtual board (docs/chouette.md).

``ChouettePlayers`` is ``players.Players`` (the same hands, the same button grammar) with what a
chouette adds: everyone rolls one die for the seats, the team answers the box's double member by
member at the team's buttons (ROLL takes, holding CUBE drops), the box answers a member's double,
and between games the next game starts. A ``plan`` can fix the cube decisions of a game, so an
evening with known cube actions (and a ledger worked out by hand) can be played by the hands:

    plan = {1: [("box", {"Anna": True, "Bruno": False, "Dario": True}), ("team", None, False)],
            3: {"cubes": "several", "steps": [...]}}

A step ("box", answers) makes the box double at its next roll (answers by name; members not
named answer by the pip count; several cubes: ("box", answers, [names]) doubles those members
only, chosen with the box's buttons); ("team", name, box_takes) makes the team double at its next roll
(``name``: the member's own cube, several cubes, picked with the team's CUBE button as the screen
offers each member in turn; None: the captain) and the box answer; a fourth item "serial" sends
the member's double from the PC instead (``cdouble NAME``). Games without a plan use the
pip-count policy of ``players.Players``.
"""

from bgrules.chouette import cube_words

from . import players as P

EVENING_NAMES = ("Anna", "Bruno", "Carla", "Dario")
# The demo evening (bgc sim --chouette): cube decisions for the first three games, whatever the
# seats; the fourth and later games are left to the pip-count policy.
EVENING = {
    1: [("box", {"Bruno": False}), ("team", None, False)],
    2: [("box", {}), ("team", None, True)],
    3: {"cubes": "several", "steps": [("box", {})]},
    4: {"cubes": "common", "steps": []},
}


def _game_plan(plan, game):
    p = plan.get(game)
    if p is None:
        return {"steps": []}
    if isinstance(p, list):
        return {"steps": list(p)}
    return {"cubes": p.get("cubes"), "steps": list(p.get("steps", []))}


class ChouettePlayers(P.Players):
    def __init__(self, sim, games, plan=None, seed=1, handling=None, on_note=None):
        P.Players.__init__(self, sim, seed=seed, handling=handling, cube=True, resign=False, on_note=on_note)
        self.games_wanted = games
        self.plan = plan or {}
        self.ledgers = []  # the board's ledger events, one per game
        self.answers = []  # (game, name, take) as the board reported them
        self.cut_when = None  # (game, name): ask for a power cut once that member has answered
        self.want_cut = False
        self._steps = None
        self._steps_game = None
        self._cubes_sent = set()
        self._pending = None  # the plan step being answered

    def _on_event(self, ev):
        P.Players._on_event(self, ev)
        kind = ev.get("ev")
        if kind == "ledger" and "points" in ev:
            self.ledgers.append(ev)
            if len(self.ledgers) >= self.games_wanted:
                self.finished = True
        elif kind == "cube" and ev.get("action") in ("take", "drop") and ev.get("p") == 1:
            st = self.sim.status() or {}
            game = (st.get("chouette") or {}).get("game")
            self.answers.append((game, ev.get("name"), ev["action"] == "take"))
            if self.cut_when == (game, ev.get("name")):
                self.cut_when = None
                self.want_cut = True

    def _steps_of(self, game):
        if self._steps_game != game:
            self._steps_game = game
            self._steps = _game_plan(self.plan, game)["steps"]
        return self._steps

    def decide(self, sim):
        st = sim.status()
        ch = (st or {}).get("chouette")
        if ch is None:
            return P.Players.decide(self, sim)
        ph = st.get("phase")
        rng = self.rng
        game = ch.get("game", 0)
        if ph == "seating":
            self._do(P.press_actions("ROLL_W", rng))
            return
        if ph == "doubled" and ch.get("asking"):
            name = ch["asking"]
            answers = self._pending[1] if self._pending and self._pending[0] == "box" else {}
            take = answers[name] if name in answers else self._take_by_pips(st, 1)
            self.stats["takes" if take else "drops"] += 1
            self.note("%s %s" % (name, "takes" if take else "drops"))
            self._do(P.press_actions("ROLL_B" if take else "CUBE_B", rng, long=not take))
            return
        if ph == "doubled" and ch.get("doubler"):
            if self._pending and self._pending[0] == "team":
                take = self._pending[2]
            else:
                take = self._take_by_pips(st, 0)
            self.note("the box %s" % ("takes" if take else "drops"))
            self._do(P.press_actions("ROLL_W" if take else "CUBE_W", rng, long=not take))
            return
        if ph == "gameover":
            nxt = _game_plan(self.plan, game + 1).get("cubes")
            if nxt and game + 1 not in self._cubes_sent:
                self._cubes_sent.add(game + 1)
                self.note("the club plays with %s from game %d" % (cube_words(nxt), game + 1))
                sim.serial.send("cubes " + nxt)
                return
            return P.Players.decide(self, sim)
        if ph == "roll" and ch.get("box_picking"):
            # several cubes: the box chooses whom it doubles (all chosen to begin with); a plan
            # step ("box", answers, [names]) doubles those members only
            step = self._pending if self._pending and self._pending[0] == "box" else None
            want = step[2] if step and len(step) > 2 else None
            chosen = ch.get("box_chosen") or []
            shown = ch["box_picking"]
            if want is None or sorted(chosen) == sorted(want):
                self._do(P.press_actions("ROLL_W", rng, long=True))
            elif (shown in want) != (shown in chosen):
                self._do(P.press_actions("ROLL_W", rng))
            else:
                self._do(P.press_actions("CUBE_W", rng))
            return
        if ph == "roll" and ch.get("picking"):
            # several cubes: the screen offers one member's double at a time
            want = self._pending[1] if self._pending and self._pending[0] == "team" else None
            want = want or ch.get("captain")
            self._do(P.press_actions("ROLL_B" if ch["picking"] == want else "CUBE_B", rng))
            return
        if ph == "roll":
            steps = self._steps_of(game)
            p = st.get("on_roll", 0)
            if steps and steps[0][0] == ("box" if p == 0 else "team"):
                step = steps.pop(0)
                self._pending = step
                self.stats["doubles"] += 1
                if step[0] == "team" and len(step) > 3 and step[3] == "serial":
                    self.note("%s doubles the box with their own cube (from the PC)" % step[1])
                    sim.serial.send("cdouble " + step[1])
                    return
                self.note("%s doubles" % ("the box" if p == 0 else "the team"))
                self._do(P.press_actions("CUBE_" + ("W" if p == 0 else "B"), rng))
                return
            if steps:
                # a planned double waits for its side: no double of our own meanwhile
                self._do(P.press_actions("ROLL_" + ("W" if p == 0 else "B"), rng))
                return
            self._pending = None
        return P.Players.decide(self, sim)

    def _take_by_pips(self, st, side):
        pips = st.get("pips", [0, 0])
        return pips[side] <= pips[1 - side] * 1.2 + 8
