"""Automated players for the virtual board: they read the board the way people do (the OLED, the
LEDs, and the firmware's status line in place of a glance at the screen), choose a legal play
with bgrules, and carry it out with a hand: lift a checker, slide it over the points in between,
hesitate, sometimes put it on a wrong point first and correct it once the red LED shows, then
press DONE. They press ROLL and CUBE following docs/player-guide.md and take or drop doubles by a
simple pip-count policy.

``Hand`` turns one play into timed physical actions; ``Players`` drives both sides of a match
from the firmware's events. Everything is seeded (``random.Random``), so a run is reproducible.
"""

import itertools
import random

from bgrules import STANDARD, Turn

from . import sim as simmod

WHITE = simmod.WHITE
BLACK = simmod.BLACK


def board_point(mover_point, colour, opposite=None):
    """Board point (white's numbering; 25 = white's bar, 0 = black's bar) of a player's own point
    (1..24, 25 = their bar); ``opposite``: the ruleset's (black's point p is opposite[p])."""
    if mover_point == 25:
        return 25 if colour == WHITE else 0
    return mover_point if colour == WHITE else (opposite or STANDARD.opposite)[mover_point]


def _position(sim, st):
    """The position of a status event (its "pos", with any checkers waiting off the board)."""
    from bgrules import Position

    rules = getattr(sim, "rules", None) or STANDARD
    return Position.from_id(st["pos"], rules.opposite, rules.pinning).set_waiting(*st.get("wait", (0, 0)))


def _on_board(pos):
    """``pos`` as the sensors can see it: checkers waiting beside the board count as off."""
    p = pos.copy()
    p._derive_off()
    return p


def colour_of(player):
    return WHITE if player == 0 else BLACK


class Handling:
    """How human the hands are. ``careful()`` moves cleanly; the default has every habit the
    tracker must live with."""

    def __init__(self, slide=True, hesitate=0.3, wander=0.1, touch_down=0.25, mixed_hit=0.3,
                 illegal=0.0, carry_mm=(25.0, 45.0), hover_mm=(10.0, 20.0), frame_ms=10, pace=1.0):
        self.slide = slide  # sweep over the points in between
        self.hesitate = hesitate  # hold low over the destination before putting down
        self.wander = wander  # hold over a wrong point on the way
        self.touch_down = touch_down  # a checker moving twice is put down in between
        self.mixed_hit = mixed_hit  # hit by putting down first, then taking the blot off
        self.illegal = illegal  # per turn: first put a checker on a wrong point, then correct it
        self.carry_mm = carry_mm
        self.hover_mm = hover_mm
        self.frame_ms = frame_ms
        # how many times a person's speed the hands decide at: the pauses before a lift, a press
        # or a hesitation over a point are this many times shorter. What the sensors must see
        # (a placement held, a hover, a press held down) keeps its length.
        if not pace >= 1:
            raise ValueError("pace is 1 (a person's) or more, got %r" % (pace,))
        self.pace = pace

    @classmethod
    def careful(cls):
        return cls(slide=False, hesitate=0.0, wander=0.0, touch_down=0.0, mixed_hit=0.0, illegal=0.0)


# The actions whose waits are a person deciding (scaled by Handling.pace); the others' waits are
# how long the sensors see a hand, a checker or a finger, which the firmware's reading depends on.
DECIDING = ("lift", "lift_tower", "take_waiting", "noop", "call", "down")


class Action:
    """One thing a hand does after waiting ``frames`` frames. ``until`` (a predicate on the sim)
    makes the hand wait for something it sees, at most ``frames`` frames."""

    __slots__ = ("frames", "kind", "args", "until")

    def __init__(self, frames, kind, *args, until=None):
        self.frames = frames
        self.kind = kind
        self.args = args
        self.until = until

    def __repr__(self):
        return "Action(%d, %s%r)" % (self.frames, self.kind, self.args)


# French Backgammon 2 hits the checker across the board, which the board knows only once it is on
# the bar: the hands take it there before putting the hitter down (docs/player-guide.md).
HIT_ACROSS = ("french2",)


def plan_play(play, turn, colour, rng, handling, illegal=False, wrong_log=None):
    """The hand's actions for ``play`` (one of ``turn.plays()``; ``turn.start`` is the mover's
    view) by the player of ``colour``; DONE is the caller's. With ``illegal`` one checker is first
    put on a point where it may not go, and taken on once that point shows red; ``wrong_log``, a
    list, gets what the sensors can know of that placement (``wrong_placement``).
    Returns (actions, the wrong board point or None)."""
    if turn.rules.key in simmod.TOWERS:
        return _plan_towers(play, turn, colour, rng, handling), None
    h = handling
    acts = []
    segments = _segments(play.steps, rng, h)
    wrong_at = None
    cur = turn.start.copy()
    across = turn.rules.key in HIT_ACROSS
    opposite = turn.rules.opposite
    hit_map = turn.rules.across or opposite

    def board_point(p, colour):
        return _board_point(p, colour, opposite)

    for i, (src, dst, hits) in enumerate(segments):
        bsrc = board_point(src, colour)
        bdst = None if dst == 0 else board_point(dst, colour)
        if src == 25 and not cur.cells[25]:
            # a checker waiting beside the board: the one lift the sensors cannot see
            acts.append(Action(_r(rng, 10, 40), "take_waiting", colour))
            acts += _carry(bsrc, bdst, rng, h)
            acts.append(Action(_r(rng, 2, 8), "place", bdst))
            if hits:
                acts += _knock_off(hits, colour, rng, opposite)
            cur = _apply(cur, src, dst, hits, hit_map)
            continue
        opp_colour = -colour
        mixed = hits and rng.random() < h.mixed_hit and not across
        if hits and not mixed:
            for hp in hits:
                # Take the blot off first and put it on its owner's bar.
                at = board_point(turn.rules.across[hp], opp_colour) if across else board_point(hp, colour)
                acts.append(Action(_r(rng, 8, 25), "lift", at, opp_colour))
                acts.append(Action(_r(rng, 5, 15), "place", "bar"))
        if illegal and wrong_at is None:
            wrong = _wrong_destination(turn, cur, src, colour, opposite)
            if wrong is not None:
                wrong_at = board_point(wrong, colour)
                if wrong_log is not None:
                    wrong_log.append(wrong_placement(turn, cur, src, wrong, wrong_at))
                acts.append(Action(_r(rng, 10, 40), "lift", bsrc, colour))
                acts += _carry(bsrc, wrong_at, rng, h)
                acts.append(Action(_r(rng, 2, 10), "place", wrong_at))
                # Wait until the point shows red (what a player notices), then take it back up.
                acts.append(Action(300, "wait_led", wrong_at, "ILLEGAL"))
                acts.append(Action(_r(rng, 20, 60), "lift", wrong_at, colour))
                acts += _carry(wrong_at, bdst, rng, h)
                acts.append(Action(_r(rng, 2, 10), "place", "off" if bdst is None else bdst))
                if mixed:
                    acts += _knock_off(hits, colour, rng, opposite)
                cur = _apply(cur, src, dst, hits, hit_map)
                continue
        acts.append(Action(_r(rng, 10, 40), "lift", bsrc, colour))
        if bdst is not None and rng.random() < h.wander:
            off = bdst + rng.choice((-1, 1))
            if 1 <= off <= 24:
                acts.append(Action(_r(rng, 3, 8), "hover", off, _u(rng, *h.hover_mm)))
        acts += _carry(bsrc, bdst, rng, h)
        if bdst is not None and rng.random() < h.hesitate:
            acts.append(Action(_r(rng, 2, 5), "hover", bdst, _u(rng, *h.hover_mm)))
            acts.append(Action(_r(rng, 20, 80), "noop"))
        acts.append(Action(_r(rng, 2, 8), "place", "off" if bdst is None else bdst))
        if mixed:
            acts += _knock_off(hits, colour, rng, opposite)
        cur = _apply(cur, src, dst, hits, hit_map)
    return acts, wrong_at


_board_point = board_point


def _plan_towers(play, turn, colour, rng, h):
    """Doublets (docs/player-guide.md): no checker changes its point. Taking a tower apart puts its
    top checker on another cell of the point; stacking puts one of the two on top of the other;
    bearing off lifts the tower whole into the tray; the marker is a spare checker from the tray
    put on the own half of the bar. The hand hesitates over the point and strays over a
    neighbouring one as in any game; nobody plays a wrong step here (``illegal`` is not used)."""
    acts = []
    opposite = turn.rules.opposite
    for a, b, _hit in play.steps:
        if b == 25:  # the marker
            acts.append(Action(_r(rng, 10, 40), "take_waiting", colour))
            acts.append(Action(_r(rng, 5, 15), "place", "bar"))
            continue
        at = board_point(a, colour, opposite)
        if b == 0:
            acts.append(Action(_r(rng, 10, 40), "lift_tower", at, colour))
            continue
        acts.append(Action(_r(rng, 10, 40), "lift", at, colour))
        if rng.random() < h.wander:
            near = at + rng.choice((-1, 1))
            if 1 <= near <= 24:
                acts.append(Action(_r(rng, 3, 8), "hover", near, _u(rng, *h.hover_mm)))
        if rng.random() < h.hesitate:
            acts.append(Action(_r(rng, 2, 5), "hover", at, _u(rng, *h.hover_mm)))
            acts.append(Action(_r(rng, 20, 80), "noop"))
        acts.append(Action(_r(rng, 2, 8), "place" if turn.stage == 0 else "stack", at))
    return acts


def _knock_off(hits, colour, rng, opposite=None):
    acts = []
    for hp in hits:
        acts.append(Action(_r(rng, 3, 12), "lift", board_point(hp, colour, opposite), -colour))
        acts.append(Action(_r(rng, 5, 15), "place", "bar"))
    return acts


def _carry(bsrc, bdst, rng, h):
    """Hover over the points between source and destination (board numbering)."""
    acts = []
    if not h.slide:
        return acts
    if bsrc in (0, 25):  # from the bar: the hand comes in over the board's middle
        a = 7 if bdst is not None and bdst <= 12 else 18
        path = [a] if bdst is None or a != bdst else []
    else:
        end = bdst if bdst is not None else (0 if bsrc <= 12 else 25)
        step = 1 if end > bsrc else -1
        path = list(range(bsrc + step, end, step))
    for p in path:
        if 1 <= p <= 24:
            acts.append(Action(_r(rng, 1, 4), "hover", p, _u(rng, *h.carry_mm)))
    return acts


def _segments(steps, rng, h):
    """Group the play's steps into hand movements: (from, to, [hit points]) in the mover's
    numbering. A checker that moves on is carried straight through unless the hand puts it down
    in between (``touch_down``)."""
    segs = []
    for (a, b, hit) in steps:
        hits = [b] if hit else []
        # A hit ends a hand movement: the hand puts the checker down on the blot's point.
        if segs and segs[-1][1] == a and a != 0 and not segs[-1][2] and rng.random() >= h.touch_down:
            pa, _pb, ph = segs[-1]
            segs[-1] = (pa, b, ph + hits)
        else:
            segs.append((a, b, hits))
    return segs


def _apply(pos, src, dst, hits, opposite=None):
    p = pos.copy()
    c = p.cells
    if src != 25 or c[25]:
        c[src] -= 1  # (else a checker waiting beside the board: one fewer waiting)
    if dst != 0:
        c[dst] += 1
    else:
        c[0] += 1
    for hp in hits:
        q = (opposite or STANDARD.opposite)[hp]
        if c[26 + q]:
            c[26 + q] -= 1
            c[26 + 25] += 1
    return p


def _wrong_destination(turn, cur, src, colour, opposite=None):
    """A point (mover's numbering) where a checker from ``src`` may NOT go now, that a careless
    hand could still put it on (empty or the mover's own, ahead of it)."""
    legal = set(turn.destinations(cur, src))
    for d in range(1, 12):
        q = src - d
        if q < 1:
            break
        if q in legal:
            continue
        if cur.opponent((opposite or STANDARD.opposite)[q]):
            continue  # never drop onto the other colour's checkers
        return q
    return None


def wrong_placement(turn, cur, src, wrong, board_at):
    """What the sensors can know of a checker from ``src`` put on ``wrong`` (mover's numbering)
    in the mid-turn position ``cur`` (hardware/sensing.md). A point already holding five or more
    of the mover's reads "five or more" before and after: one more is not seen. A checker put
    down where another checker whose lift is not seen (one waiting beside the board, or one from
    a point of six or more) may legally go could be that one: the board cannot tell which was put
    down. A step that a legal play makes, put down out of the dice's order (Puff's smaller die
    first), is flagged only when no order can still make it legal (docs/variants.md): the
    finished board cannot tell the order. Anything else the board can see."""
    plays = turn.plays()
    unseen = [p for p in range(1, 26) if p != src and (cur.mover(p) >= 6 or (p == 25 and not cur.mover(25)))]
    if cur.mover(wrong) >= 5:
        kind = "onto the mover's point of five or more (not seen)"
    elif any(_out_of_order(play.steps, src, wrong) for play in plays):
        kind = "a legal play's step out of the dice's order (flagged at DONE if at all)"
    elif any(wrong in turn.destinations(cur, p) or any(_out_of_order(play.steps, p, wrong) for play in plays)
             for p in unseen):
        kind = "where a checker whose lift is not seen may go (waiting, or from six or more)"
    elif _on_a_legal_path(turn, _apply(cur, src, wrong, [], turn.rules.across or turn.rules.opposite), plays):
        kind = "the board then shows a legal play under way (other checkers' steps)"
    else:
        kind = "seeable"
    return {"kind": kind, "board_point": board_at, "src": src, "wrong": wrong, "pos": cur.id(),
            "own_on_wrong": cur.mover(wrong), "own_on_src": cur.mover(src), "flagged": False}


def _on_a_legal_path(turn, pos, plays):
    """Whether ``pos`` is what the board shows part-way through, or at the end of, one of
    ``plays`` made in some order of its steps: the sensors see where checkers are, not which
    checker went where (a checker from the 2 point put on the 1 point looks like 3/1 2/off's
    first step when the 3 point's checker is already off)."""
    want = bytes(pos.cells)
    hit_map = turn.rules.across or turn.rules.opposite
    for play in plays:
        steps = play.steps
        for order in itertools.permutations(range(len(steps))):
            at = turn.start
            try:
                for k in order:
                    a, b, hit = steps[k]
                    at = _apply(at, a, b, [b] if hit else [], hit_map)
                    if bytes(at.cells) == want:
                        return True
            except ValueError:  # a step taken before the checker it moves got there
                continue
    return False


def _out_of_order(steps, src, wrong):
    """Whether a checker from ``src`` put on ``wrong`` is a step of ``steps`` made in another
    order: one of its own steps, or the first of two steps of one checker with the dice swapped."""
    for i, (a, b, _hit) in enumerate(steps):
        if a != src:
            continue
        if b == wrong:
            return True
        for c, e, _hit2 in steps[i + 1:]:
            if c == b and src - (b - e) == wrong:
                return True
    return False


def _r(rng, a, b):
    return rng.randint(a, b)


def _u(rng, a, b):
    return rng.uniform(a, b)


def execute(sim, action):
    """Do one hand action on the sim's board (no time passes)."""
    k = action.kind
    a = action.args
    if k == "lift":
        sim.lift(a[0], a[1] if len(a) > 1 else None)
    elif k == "place":
        sim.place(a[0])
    elif k == "hover":
        sim.hover(a[0], a[1])
    elif k == "take_waiting":
        sim.take_waiting(a[0])
    elif k == "stack":
        sim.stack(a[0])
    elif k == "lift_tower":
        sim.lift_tower(a[0], a[1])
    elif k == "down":
        sim.board.button(a[0], True, bounce_ms=3)
    elif k == "up":
        sim.board.button(a[0], False, bounce_ms=3)
    elif k in ("noop", "wait_led", "wait"):
        pass
    elif k == "call":
        a[0](sim)
    else:
        raise simmod.SimError("unknown hand action %r" % k)


def press_actions(button, rng, long=False, frames_before=(20, 60)):
    """Press and release a button as a finger does (held ~100 ms, or ~1 s for a long press)."""
    hold = rng.randint(95, 120) if long else rng.randint(8, 15)
    return [Action(rng.randint(*frames_before), "down", button), Action(hold, "up", button)]


# ------------------------------------------------------------------ choosing
def fewest_pips(plays):
    """The plays that leave the mover the fewest pips: automated players of Backwards choose
    among these, since plays with backward steps would wander for ever."""
    least = min(play.position.pips()[0] for play in plays)
    return [play for play in plays if play.position.pips()[0] == least]


def choose_play(plays, rng, forward=False):
    """A sensible play: few blots, points made, checkers hit and borne off (random among
    equals), so automated games stay short. ``forward``: among fewest_pips(plays)."""
    if forward:
        plays = fewest_pips(plays)
    best = None
    for play in plays:
        c = play.position.cells
        score = 3 * c[0] + 2 * c[26 + 25]
        for p in range(1, 25):
            if c[p] == 1:
                score -= 2
            elif c[p] >= 2 and p <= 12:
                score += 1
        score += rng.random()
        if best is None or score > best[0]:
            best = (score, play)
    return best[1]


# ------------------------------------------------------------------ both players of a match
class Players:
    """Both players, driven frame by frame from ``sim.on_frame``. They follow the button grammar
    of docs/player-guide.md: ROLL rolls (and is DONE while moving), CUBE doubles; the doubled
    player takes with ROLL or drops by holding CUBE; a long CUBE press offers to resign, which
    the opponent accepts with ROLL."""

    def __init__(self, sim, seed=1, handling=None, cube=True, resign=True, on_note=None, computer=None, games=None,
                 refuse_resign=0.0, take_backs=0.0, person=None):
        self.sim = sim
        # GNU Backgammon choosing the person's plays and cube actions (a GnubgPlayer, usually at
        # another level than the computer's) instead of choose_play and the pip-count rules: an
        # opponent of a known strength for measuring the computer's (docs/reliability.md, "The
        # computer's level"). Its bookkeeping (resignations declined, beavers) is an Opponent's.
        self.person = None
        if person is not None:
            from ..logs.gnubg_player import Opponent

            self.person = Opponent(person, 1 - computer if computer is not None else 0)
        self.refuse_resign = refuse_resign  # the share of the computer's resignations the person refuses
        # a money session has no end of its own: the players stop after ``games`` games
        self.games = games
        # against the computer: how often the person, on roll after the computer's reply, holds ROLL
        # to take their last play back (and puts the checkers back as the red LEDs ask)
        self.take_backs = take_backs
        self.played = False  # the person has a play in this game to take back
        # the side the PC's GNU Backgammon plays (bgc.logs.gnubg_player.Opponent decides for it): the
        # hands move its checkers as the board lights them and never press its buttons
        self.computer = computer
        self.rng = random.Random(seed)
        self.h = handling or Handling()
        self.cube = cube
        self.resign = resign
        self.on_note = on_note  # callable(text): what the players do, for a running commentary
        self.queue = []
        self.wait = 0  # frames left before the first queued action
        self.turn_key = None
        self.turn_state = None  # "planned", "done"
        self.turn_play = None
        self.last_seen = 0  # events seen when the last decision was taken (notes not counted)
        # A note ("flash full: removed exported log ...") tells the players something without
        # changing the game, and may come from a loop step that answered nothing: it is no news to
        # decide on. Counted as news, one that came while a press was under way made the players
        # decide again from the status before that press's answer (the press again: a second
        # ROLL, which in the turn it started is DONE with nothing moved, "Both dice must be played").
        self.notes = 0
        self.idle = 0  # frames since the last decision without news
        self.expect_wrong = None  # board point of an intended wrong placement
        self.released_at = -1000  # frame of the last button release
        self.finished = False
        self.stats = {"turns": 0, "checker_moves": 0, "false_illegal": 0, "done_refused": 0, "asks": 0, "doubles": 0, "takes": 0,
                      "drops": 0, "resigns": 0, "games": 0, "condoned": 0, "replans": 0, "beavers": 0, "refused": 0,
                      "take_backs": 0}
        self.false_flags = []  # the events counted as false illegal flags
        self.wrong_placements = []  # each intended wrong placement: wrong_placement(), flagged or not
        self.history = []  # the last hand actions: (frame, action), for reporting a false flag
        sim.serial.listeners.append(self._on_event)
        sim.on_frame.append(self.tick)

    def note(self, text):
        if self.on_note is not None:
            self.on_note(text)

    # --- what the firmware says
    def _on_event(self, ev):
        kind = ev.get("ev")
        if kind == "note":
            self.notes += 1
        if self.person is not None:
            self.person.event(ev)
        if kind == "illegal":
            if ev.get("at") == "place" and self.expect_wrong is not None and ev.get("board_point") == self.expect_wrong:
                if self.wrong_placements:
                    self.wrong_placements[-1]["flagged"] = True
            else:
                self.stats["false_illegal"] += 1
                st = self.sim.status() or {}
                self.false_flags.append(dict(ev, pos=st.get("pos"), dice=st.get("dice"), frame=self.sim.frames,
                                             recent=["%d %s%r" % (f, a.kind, a.args) for f, a in self.history[-8:]],
                                             play=self.turn_play.notation() if self.turn_play else None))
                if ev.get("at") == "done":
                    self.stats["done_refused"] += 1
        elif kind == "ask":
            self.stats["asks"] += 1
        elif kind == "play" and self.computer is not None and ev.get("p") != self.computer:
            self.played = True
        elif kind in ("back", "new"):
            self.played = False
        elif kind == "game_end":
            self.stats["games"] += 1
            self.played = False
            if self.games is not None and self.stats["games"] >= self.games:
                self.finished = True
        elif kind == "match_end":
            self.finished = True

    # --- the frame loop
    def tick(self, sim):
        if self.finished:
            if self.queue:
                # A pass (CUBE held) can end the game while the finger is still down: it lets go
                # now, or the next press would be part of that same hold and count for nothing.
                for a in self.queue:
                    if a.kind == "up":
                        execute(sim, a)
                self.queue = []
            return
        if self.queue:
            a = self.queue[0]
            if a.kind == "wait_led":
                if simmod.point_led(sim.board, a.args[0]) == a.args[1] or self.wait <= 0:
                    self.queue.pop(0)
                    self.wait = self._frames_before(self.queue[0]) if self.queue else 0
                else:
                    self.wait -= 1
                return
            if self.wait > 0:
                self.wait -= 1
                return
            self.queue.pop(0)
            if a.kind in ("place", "stack", "lift_tower") and a.args[0] != "bar":
                self.stats["checker_moves"] += 1
            if a.kind == "up":
                self.released_at = sim.frames
            try:
                execute(sim, a)
            except simmod.SimError:
                # The board is not as the hand expected (the firmware was reset in the middle
                # of a game-over set-up, say): drop the plan and look again.
                self.queue = []
                self.stats["replans"] += 1
                return
            self.history.append((sim.frames, a))
            if len(self.history) > 40:
                del self.history[:20]
            self.wait = self._frames_before(self.queue[0]) if self.queue else 0
            if not self.queue:
                self.idle = 0
            return
        n = len(sim.serial.events) - self.notes
        if n != self.last_seen:
            self.last_seen = n
            self.idle = 0
        else:
            self.idle += 1
            # Nothing new: look again now and then (a press lost in a power cut, a slow answer).
            if self.idle < 150 or self.idle % 150:
                return
        self.decide(sim)

    def _frames_before(self, action):
        """The frames the hand waits before ``action`` (fewer at a brisker pace when it decides)."""
        pace = self.h.pace
        if pace == 1 or action.kind not in DECIDING:
            return action.frames
        return max(1, int(action.frames / pace + 0.5))

    def _do(self, actions):
        self.queue = list(actions)
        self.wait = self._frames_before(self.queue[0]) if self.queue else 0

    def decide(self, sim):
        st = sim.status()
        if st is None:
            return
        sim.follow(st)  # Tavli: the game on the board has its own ruleset
        ph = st.get("phase")
        rng = self.rng
        if ph == "setup":
            return
        if ph == "matchover":
            self.finished = True
            return
        if ph == "board":
            b = sim.serial.last("board")
            if b is not None and not b.get("ok"):
                self.note("the players set the checkers out")
                self._set_out(st)
            return
        if ph == "opening":
            self._do(press_actions("ROLL_B" if self.computer == 0 else "ROLL_W", rng))
            return
        p = st.get("on_roll", 0)
        me = "W" if p == 0 else "B"
        if self.computer is not None:
            if ph == "moving" and p == self.computer:
                self._computer_moving(sim, st, p)
                return
            if (ph == "roll" and p == self.computer) or (ph in ("doubled", "resign") and st.get("to_act") == self.computer):
                return  # the PC acts
        if ph == "roll":
            if self.played and self.take_backs and rng.random() < self.take_backs:
                self.stats["take_backs"] += 1
                self.played = False
                self.note("%s takes the last play back" % st["names"][p])
                self._do(press_actions("ROLL_" + me, rng, long=True))
                return
            if self.person is not None:
                # GNU Backgammon's choice before the roll: resign, double or roll
                d = self._person_decides(st)
                if d.action == "resign":
                    self._person_resigns(st, d.kind, me)
                elif d.action == "double":
                    self.stats["doubles"] += 1
                    self._do(press_actions("CUBE_" + me, rng))
                else:
                    self._do(press_actions("ROLL_" + me, rng))
                return
            if self.resign and self._should_resign(st, p):
                self.stats["resigns"] += 1
                self.note("%s resigns" % st["names"][p])
                self._do(press_actions("CUBE_" + me, rng, long=True) + press_actions("ROLL_" + me, rng))
                return
            if self.cube and self._should_double(st, p):
                self.stats["doubles"] += 1
                self._do(press_actions("CUBE_" + me, rng))
                return
            self._do(press_actions("ROLL_" + me, rng))
            return
        if ph == "doubled":
            q = st.get("to_act", 1 - p)
            them = "W" if q == 0 else "B"
            pips = st.get("pips", [0, 0])
            answer = self._person_decides(st).action if self.person is not None else None
            if answer is not None:
                key = {"take": "takes", "drop": "drops", "beaver": "beavers"}[answer]
                self.stats[key] += 1
                if answer == "take":
                    self._do(press_actions("ROLL_" + them, rng))
                else:
                    self._do(press_actions(("CUBE_" if answer == "drop" else "ROLL_") + them, rng, long=True))
            elif self._may_beaver(st) and pips[q] < pips[1 - q] and rng.random() < 0.5:
                # money play with beavers agreed: the doubled player ahead in the race beavers
                # (a long ROLL press), the doubler then takes, drops or raccoons as any double
                self.stats["beavers"] += 1
                self.note("%s beavers" % st["names"][q])
                self._do(press_actions("ROLL_" + them, rng, long=True))
            elif pips[q] <= pips[1 - q] * 1.2 + 8:
                self.stats["takes"] += 1
                self._do(press_actions("ROLL_" + them, rng))
            else:
                self.stats["drops"] += 1
                self._do(press_actions("CUBE_" + them, rng, long=True))
            return
        if ph == "resign":
            q = st.get("to_act", 1 - p)
            if self.person is not None and self.computer is not None and q != self.computer:
                refuse = self._person_decides(st).action == "reject"  # GNU Backgammon's answer
            else:  # (the dice of the players' choices drawn only here, as always)
                refuse = self.computer is not None and q != self.computer and rng.random() < self.refuse_resign
            if refuse:
                # the computer's resignation refused (CUBE): it plays on and does not offer the
                # same again in this game (GNU Backgammon's rule)
                self.stats["refused"] += 1
                self.note("%s refuses the resignation" % st["names"][q])
                self._do(press_actions("CUBE_" + ("W" if q == 0 else "B"), rng))
                return
            self._do(press_actions("ROLL_" + ("W" if q == 0 else "B"), rng))
            return
        if ph == "gameover":
            self._do([Action(rng.randint(50, 120), "call", lambda s: s.setup_start())] +
                     press_actions("ROLL_B" if self.computer == 0 else "ROLL_W", rng))
            return
        if ph == "moving":
            self._moving(sim, st, p, me)
            return
        if ph == "ask":
            self._ask(sim, st, me)
            return
        if ph == "choose":
            # A double of one's choice (or the free-choice roll): step CUBE a few times, then
            # take the one shown with ROLL, as a player at the board would.
            acts = []
            for _ in range(rng.randint(0, 5)):
                acts += press_actions("CUBE_" + me, rng, frames_before=(10, 30))
            self._do(acts + press_actions("ROLL_" + me, rng))
            return

    def _person_decides(self, st):
        """GNU Backgammon's decision for the person's side in the state ``st`` (a Decision)."""
        o = self.person
        return o.player.decide(o.side, st["match"], st["pos"], o.jacoby, o.beavers, o.declined, o.beavered)

    def _person_resigns(self, st, kind, me):
        """The person offers the resignation GNU Backgammon chose (1 single, 2 gammon, 3
        backgammon): CUBE held, CUBE pressed to raise it, ROLL offers (docs/player-guide.md)."""
        self.stats["resigns"] += 1
        self.note("%s resigns (%s)" % (st["names"][self.person.side], ("single", "gammon", "backgammon")[kind - 1]))
        acts = press_actions("CUBE_" + me, self.rng, long=True)
        for _ in range(kind - 1):
            acts += press_actions("CUBE_" + me, self.rng, frames_before=(10, 30))
        self._do(acts + press_actions("ROLL_" + me, self.rng))

    def _person_play(self, st, plays, d):
        """The legal play (of ``plays``) that GNU Backgammon chose (``d``) for the person's roll."""
        from bgrules import Position
        from ..logs.gnubg_player import final_id

        if d.action != "move":
            raise simmod.SimError("GNU Backgammon, asked for the person's play of %s, answered %r" % (st["match"], d))
        final = Position.from_id(final_id(st["pos"], d.steps))
        chosen = [x for x in plays if x.position == final]
        if not chosen:
            raise simmod.SimError("GNU Backgammon's play %s for the person is not a legal play from %s" % (d.text, st["pos"]))
        return chosen[0]

    def _set_out(self, st):
        from bgrules import Position

        pos = st.get("pos")
        colour = colour_of(st.get("on_roll", 0))

        def set_out(s):
            if pos:
                s.setup_position(_position(s, st), colour)
            else:
                s.setup_start()

        self._do([Action(self.rng.randint(30, 80), "call", set_out)])

    def _should_double(self, st, p):
        owner = st.get("owner", -1)
        if owner not in (-1, p) or st.get("crawford") or st.get("cube", 1) >= 8:
            return False
        length = st.get("length", 0)
        if length and st["score"][p] + st.get("cube", 1) >= length and st["score"][1 - p] + st.get("cube", 1) >= length:
            return False
        pips = st.get("pips", [0, 0])
        return pips[p] < 0.8 * pips[1 - p] and self.rng.random() < 0.5

    def _may_beaver(self, st):
        """A beaver (raccoon, otter) is allowed now: money play with that many agreed (the
        board's match rules), counting the beavers already made on this double."""
        if st.get("length"):
            return False
        rules = (self.sim.serial.last("new") or {}).get("settings") or {}
        made = 0
        for ev in reversed(self.sim.serial.events):
            if ev.get("ev") == "cube":
                if ev.get("action") != "beaver":
                    break
                made += 1
        return made < (rules.get("beavers") or 0) and st.get("cube", 1) * 4 <= 64

    def _should_resign(self, st, p):
        pips = st.get("pips", [0, 0])
        if st.get("locked"):  # Pin: neither can ever move again; the one further from home ends it
            return pips[p] >= pips[1 - p]
        return pips[1 - p] < 20 and pips[p] > pips[1 - p] + 90 and self.rng.random() < 0.3

    def _moving(self, sim, st, p, me):
        from bgrules import Position

        key = (st.get("game"), st.get("match"), st.get("pos"), tuple(st.get("dice") or ()))
        colour = colour_of(p)
        if key != self.turn_key:
            self.turn_key = key
            self.stats["turns"] += 1
            rules = getattr(sim, "rules", None) or STANDARD
            start = _position(sim, st)
            start.pinned = st.get("pinned", 0)  # Pin: whose checker is pinned is not in the ID
            d = st["dice"]
            turn = (rules.turn or Turn)(start, d[0], d[1], rules,
                        tuple(st["names"]) if p == 0 else tuple(reversed(st["names"])))
            plays = turn.plays()
            if not plays:
                self.turn_play = None
                self.note("%s cannot move" % st["names"][p])
                self.turn_state = "done"
                self._do(press_actions("ROLL_" + me, self.rng, frames_before=(40, 90)))
                return
            if self.person is not None:
                d = self._person_decides(st)
                if d.action == "resign":
                    # before its play (the board allows it during a turn); a refusal leaves
                    # the turn on, and GNU Backgammon then plays it (Opponent.declined)
                    self.turn_key = None
                    self._person_resigns(st, d.kind, me)
                    return
                play = self._person_play(st, plays, d)
            else:
                play = choose_play(plays, self.rng, rules.backwards)
            self.turn_play = play
            wrong = self.rng.random() < self.h.illegal
            acts, wrong_at = plan_play(play, turn, colour, self.rng, self.h, illegal=wrong,
                                       wrong_log=self.wrong_placements)
            if wrong_at is not None:
                self.wrong_placements[-1].update(dice=tuple(d), frame=sim.frames)
                self.expect_wrong = wrong_at
            else:
                self.expect_wrong = None
            self.turn_state = "done"
            self._do(acts + press_actions("ROLL_" + me, self.rng, frames_before=(20, 60)))
            return
        # The same turn is still on: DONE was refused or lost. A refusal of a play we know to be
        # legal is a false flag: the opponent accepts the play by rolling (docs/player-guide.md).
        if self._refused_now(sim):
            other = "B" if me == "W" else "W"
            self.stats["condoned"] += 1
            self._do(press_actions("ROLL_" + other, self.rng))
            return
        if self.turn_play is not None and sim.position(colour) != _on_board(self.turn_play.position):
            # The board is not what we meant (a power cut in the middle of a hand movement that
            # the hand did not finish): set out the intended play by hand.
            play = self.turn_play
            self._do([Action(self.rng.randint(20, 60), "call",
                             lambda s: s.setup_position(play.position, colour))] +
                     press_actions("ROLL_" + me, self.rng))
            return
        if sim.frames - self.released_at < 150:
            # DONE was just pressed: wait for its answer. In a turn of parts a second DONE would
            # roll the next dice; in any game it would answer a "Which play?" the first DONE
            # brought (the play shown first, maybe not the one made: Pin, seed 4)
            return
        self._do(press_actions("ROLL_" + me, self.rng))

    def _computer_moving(self, sim, st, p):
        """The computer's play: its checkers moved as the board shows them (the play of the last
        `gnu` event), with the odd wrong placement, which the board must flag; no DONE (the board
        passes the turn when it shows the play)."""
        from bgrules import Position

        shown = sim.serial.last("gnu")
        if not st.get("gnu") or shown is None:
            return  # the PC has not sent its play yet
        colour = colour_of(p)
        key = (st.get("game"), st.get("match"), st.get("pos"), tuple(st.get("dice") or ()), shown.get("pos"))
        if key == self.turn_key:
            if self.turn_play is not None and sim.position(colour) != _on_board(self.turn_play.position):
                play = self.turn_play
                self._do([Action(self.rng.randint(20, 60), "call", lambda s: s.setup_position(play.position, colour))])
            return
        self.turn_key = key
        self.stats["turns"] += 1
        start = _position(sim, st)
        d = st["dice"]
        turn = Turn(start, d[0], d[1], STANDARD, tuple(st["names"]) if p == 0 else tuple(reversed(st["names"])))
        final = Position.from_id(shown["pos"])
        plays = [x for x in turn.plays() if x.position == final]
        if not plays:
            raise simmod.SimError("the computer's play %s (%s) is not a legal play of %d-%d from %s" % (
                shown.get("move"), shown["pos"], d[0], d[1], st.get("pos")))
        play = plays[0]
        self.turn_play = play
        self.note("%s (GNU) plays %s: the person moves its checkers" % (st["names"][p], shown.get("move")))
        wrong = self.rng.random() < self.h.illegal
        acts, wrong_at = plan_play(play, turn, colour, self.rng, self.h, illegal=wrong, wrong_log=self.wrong_placements)
        if wrong_at is not None:
            self.wrong_placements[-1].update(dice=tuple(d), frame=sim.frames, computer=True)
            self.expect_wrong = wrong_at
        else:
            self.expect_wrong = None
        self.turn_state = "done"
        self._do(acts)

    def _refused_now(self, sim):
        evs = sim.serial.events
        for ev in reversed(evs):
            k = ev.get("ev")
            if k == "illegal":
                return ev.get("at") == "done"
            if k in ("ok", "play", "roll", "status"):
                if k == "status":
                    continue
                return False
        return False

    def _ask(self, sim, st, me):
        """The board cannot tell two plays apart: read the OLED's "Which play?" and the play under
        it, and press CUBE until it names the play we made, then ROLL."""
        rows = simmod.oled_rows(sim.board)
        want = self.turn_play.notation() if self.turn_play is not None else None
        shown = rows[5].strip() if rows[4].strip() == "Which play?" else None
        tries = getattr(self, "_ask_tries", 0)
        if want is None or shown is None or _same_move(shown, want) or tries >= 6:
            self._ask_tries = 0
            self._do(press_actions("ROLL_" + me, self.rng))
            return
        self._ask_tries = tries + 1
        self._do(press_actions("CUBE_" + me, self.rng) + [Action(20, "noop")])


def _same_move(shown, want):
    # The OLED line is 16 characters: a shown play is cut short only when it fills the line; a
    # shorter one is the whole play ("2/off" is not "2/off 1/off").
    s, w = shown.replace(" ", ""), want.replace(" ", "")
    return s == w or (len(shown) >= 16 and w.startswith(s))
