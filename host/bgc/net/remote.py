"""Two boards, one match, through the broker (bgc remote): each board plays its own side with its
own dice; the other board's actions arrive on its ``moves`` topic and are carried out on this
board through the computer's seam (the `gnu` lines, docs/protocol.md), so the person moves the
opponent's checkers as the LEDs show them, as against GNU Backgammon.

The board whose name sorts first plays White and leads: it starts the match (its settings are its
first action) and rolls the opening; the other board takes the opening roll from it
(``gnu side=0 opening=1``, ``gnu opening dice=W,B``).

Each side publishes the list of its own actions in the match so far, retained (QoS 1), each with
the state of the match before it (game, Match ID, Position ID, phase: the same on both boards, as
they play the same match). A board takes the opponent's next action only when its own state is
that state, so an action delivered twice, or the whole list again after a broker restart or a
restart of bgc remote, is carried out once; a gap (messages lost while a side was away) is filled
because every message holds the whole list."""

import json
import threading
import time

from .broker import topic

SIDE_NAMES = ("White", "Black")


def state_key(st):
    """The match's state as both boards hold it (a status event's): what an action follows."""
    return [st.get("game"), st.get("match"), st.get("pos"), st.get("phase")]


def action_of(ev, side, leader):
    """The action of ``side`` in the board event ``ev`` as the other board replays it, or None:
    {"do": ..., and its arguments}. The leader's opening rolls are its own actions."""
    kind = ev.get("ev")
    p = ev.get("p")
    if kind == "roll" and ev.get("opening"):
        return {"do": "opening", "dice": list(ev["dice"])} if leader else None
    if p != side:
        return None
    if kind == "roll":
        return {"do": "roll", "dice": list(ev["dice"])}
    if kind == "pass":
        return {"do": "pass"}
    if kind == "play":
        return {"do": "play", "pos": ev["pos"], "move": ev.get("move", "")}
    if kind == "cube" and ev.get("action") in ("double", "take", "drop", "beaver"):
        return {"do": ev["action"]}
    if kind == "resign":
        if ev.get("action") == "offer":
            return {"do": "resign", "kind": ev.get("kind", 1)}
        if ev.get("action") in ("accept", "reject"):
            return {"do": ev["action"]}
    return None


def gnu_line(action):
    """The `gnu` line that carries out the opponent's ``action`` on this board."""
    do = action["do"]
    if do == "opening":
        return "gnu opening dice=%d,%d" % tuple(action["dice"])
    if do == "roll":
        return "gnu roll dice=%d,%d" % tuple(action["dice"])
    if do == "pass":
        return "gnu roll"  # closed out: the board passes the turn itself
    if do == "play":
        return "gnu play pos=%s" % action["pos"]
    if do == "resign":
        return "gnu resign kind=%d" % action["kind"]
    return "gnu " + do


class RemoteMatch:
    """This board's side of a match against the board ``opponent``. ``on_event(ev, send)`` with
    every event of this board; ``on_moves(payload)`` with each message of the opponent's moves
    topic; ``tick(send)`` now and then (an opponent's action may arrive while this board is quiet).
    ``publish(topic, payload)`` puts this side's actions on the broker."""

    def __init__(self, club, me, opponent, length, publish, log=None):
        self.club, self.me, self.opponent = club, me, opponent
        self.leader = me < opponent
        self.side = 0 if self.leader else 1
        self.remote = 1 - self.side
        self.length = length
        self.names = [me, opponent] if self.leader else [opponent, me]
        self._publish = publish
        self.log = log or (lambda text: None)
        self.lock = threading.Lock()
        self.tag = None  # the match: the leader's time (ms) when it started it
        self.mine = []  # this side's actions: {"before": state key, "do": ...}
        self.theirs = []  # the opponent's, as last heard (for the match ``their_tag``)
        self.their_tag = None
        self.done = None  # how many of theirs this board has carried out (None: not known yet)
        self.status = None
        self.sent = None  # (index, state key) of the last line sent: sent once for each
        self.started = False
        self.recovered = None  # this side's own retained list, heard back at the start
        self.applied = []
        self.side_sent = -1e9  # indexes of the opponent's actions this board carried out, in order

    # --- the opponent ---------------------------------------------------------------------------

    def on_moves(self, payload, own=False):
        try:
            m = json.loads(payload)
            tag, actions = m["tag"], list(m["actions"])
        except (ValueError, KeyError, TypeError):
            return
        with self.lock:
            if own:  # our own list, retained from before a restart
                self.recovered = (tag, actions)
                return
            if tag != self.their_tag:
                self.their_tag = tag
                self.theirs = actions
                self.done = None
            elif len(actions) > len(self.theirs):
                self.theirs = actions  # a longer list: QoS 1 may bring an older one late

    # --- this board ------------------------------------------------------------------------------

    def on_event(self, ev, send):
        with self.lock:
            self._event(ev, send)
            self._act(send)

    def tick(self, send):
        with self.lock:
            self._act(send)

    def _event(self, ev, send):
        kind = ev.get("ev")
        if kind == "boot":
            self.sent = None  # the board started again: what it was told may be lost
            return
        if kind == "status":
            if not self.started:
                self._start(ev, send)
            self.status = ev
            if ev.get("match") and ev.get("phase") != "setup" and ev.get("computer") != self.remote:
                if time.monotonic() - self.side_sent > 1.0:  # once: the board answers with a status
                    self.side_sent = time.monotonic()
                    send(self._side_line())
            return
        if kind == "new":
            return
        if self.status is None:
            return
        # the opponent's action carried out here: the next one may follow
        theirs = action_of(ev, self.remote, not self.leader)
        if theirs is not None:
            if self.done is not None:
                self.applied.append(self.done)
                self.done += 1
            self.log("%s (%s): %s" % (self.opponent, SIDE_NAMES[self.remote], describe_action(theirs)))
            return
        mine = action_of(ev, self.side, self.leader)
        if mine is not None and self.tag is not None:
            mine["before"] = state_key(self.status)
            self.mine.append(mine)
            self._send_mine()

    def _side_line(self):
        self.side_sent = time.monotonic()
        return "gnu side=%d%s" % (self.remote, "" if self.leader else " opening=1")

    def _start(self, st, send):
        """The first status: a match on the board goes on; else the leader starts one."""
        self.started = True
        in_progress = st.get("match") and st.get("phase") not in ("setup", "matchover")
        rec = self.recovered
        if self.leader:
            if in_progress and rec and st.get("names") == self.names:
                self.tag, self.mine = rec[0], list(rec[1])
                self.log("the match on the board goes on")
                return
            self.tag = int(time.time() * 1000)
            self.mine = [{"do": "new", "settings": {"length": self.length, "names": self.names}}]
            send(json.dumps({"cmd": "new", "length": self.length, "names": self.names, "force": True}))
            send(self._side_line())  # at once: no press may come between the new match and this
            self._send_mine()
            self.log("new %s: %s (White) against %s (Black); set out the checkers" % (
                "%d-point match" % self.length if self.length else "money session", self.names[0], self.names[1]))
        elif in_progress and rec and st.get("names") == self.names:
            self.tag, self.mine = rec[0], list(rec[1])
            self.log("the match on the board goes on")

    def _act(self, send):
        st = self.status
        if st is None or not self.theirs:
            return
        if not self.leader and self.tag != self.their_tag:
            first = self.theirs[0]
            if first.get("do") != "new":
                return
            # the leader's new match: the same here (its names, its length)
            self.tag = self.their_tag
            self.mine = []
            self.done = 1
            s = first["settings"]
            send(json.dumps({"cmd": "new", "length": s["length"], "names": s["names"], "force": True}))
            # at once: no press may roll an opening of this board's own before the board knows
            send(self._side_line())
            self._send_mine()
            self.log("new match from %s: set out the checkers" % self.opponent)
            return
        if self.tag != self.their_tag and self.leader:
            return  # the follower has not joined this match yet
        key = state_key(st)
        if self.done is None:
            # (re)started: the first of their actions that follows the board's state is the next one
            for i, a in enumerate(self.theirs):
                if a.get("before") == key:
                    self.done = i
                    break
            else:
                return
        if self.done >= len(self.theirs):
            return
        a = self.theirs[self.done]
        if a.get("before") != key or (self.done, key) == self.sent:
            return
        self.sent = (self.done, key)
        send(gnu_line(a))

    def _send_mine(self):
        self._publish(topic(self.club, self.me, "moves"),
                      json.dumps({"tag": self.tag, "seq": len(self.mine), "actions": self.mine}))


def describe_action(a):
    do = a["do"]
    if do in ("opening", "roll"):
        return "%s %d-%d" % ("opening roll" if do == "opening" else "rolls", a["dice"][0], a["dice"][1])
    if do == "play":
        return "plays %s: move its checkers as the LEDs show" % (a.get("move") or "nothing")
    if do == "pass":
        return "is closed out"
    if do == "resign":
        return "resigns (%s)" % ("single", "gammon", "backgammon")[a["kind"] - 1]
    return do + "s"  # doubles, takes, drops, beavers, accepts, rejects
