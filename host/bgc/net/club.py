"""Every board of a club, as the broker has them (bgc club): each board's retained state and
presence, kept for the club's page (a grid of small boards) and for the live view of one board.

The broker hands a new subscriber every retained state at once, so the page is whole as soon as
bgc club is connected, however late it comes. A state older than the one held (a smaller number
in the same relay run) is ignored: QoS 1 may deliver a message twice, or late."""

import json
import threading
import time

from .broker import connect_error


def summary(name, board):
    """What the club's grid shows of one board (small: the grid is sent whole to a new page)."""
    st = board.get("state") or {}
    status = st.get("status") or {}
    return {"name": name, "online": board.get("online"), "seq": board.get("seq", 0), "at": board.get("at"),
            "plugged": st.get("connected", True), "names": status.get("names"), "score": status.get("score"),
            "length": status.get("length"), "on_roll": status.get("on_roll"), "to_act": status.get("to_act"),
            "phase": status.get("phase"), "dice": status.get("dice"), "cube": status.get("cube"),
            "pips": status.get("pips"), "checkers": st.get("checkers"), "last": st.get("last", ""),
            "version": board.get("version", 0)}


class Club:
    """The club's boards from the broker. ``hubs[name]``: a bgc.web.Hub per board whose state is the
    relayed one (the live page draws it as for a board on USB). ``wait(version, timeout)`` blocks
    until some board changed after ``version``."""

    def __init__(self, broker, club):
        from ..web import Hub

        self.club = club
        self.broker = broker
        self.boards = {}
        self.hubs = {}
        self.cond = threading.Condition()
        self.version = 0
        self.seq = 0  # for the web server's stop(), as a Hub has
        self.refused = None
        self.connected = threading.Event()
        self._hub_class = Hub
        self.client = broker.client("bgc-club-%s-%d" % (club, int(time.time() * 1000) % 100000000))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = self._on_message

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.refused = connect_error(reason)
            return
        for kind in ("state", "online"):
            client.subscribe("bgc/%s/+/%s" % (self.club, kind), qos=1)
        self.connected.set()

    def _board(self, name):
        b = self.boards.get(name)
        if b is None:
            b = self.boards[name] = {"online": None, "seq": 0, "run": 0, "state": None, "version": 0}
            self.hubs[name] = self._hub_class("board %s (%s)" % (name, self.club))
        return b

    def _on_message(self, client, userdata, msg):
        parts = msg.topic.split("/")
        if len(parts) != 4:
            return
        name, kind = parts[2], parts[3]
        with self.cond:
            b = self._board(name)
            if kind == "online":
                b["online"] = msg.payload == b"1"
            elif kind == "state":
                try:
                    m = json.loads(msg.payload)
                    seq, run = int(m["seq"]), int(m["run"])
                    state = m.get("state")
                    if state is None:
                        # a Pico W's (drivers/mqtt_link.py): its last status and view lines, which
                        # the board's Hub turns into the page's state, as for the events of a relay
                        status, view = m["status"], m.get("view")
                except (ValueError, KeyError, TypeError):
                    return  # not a board's state: nothing to show
                if run == b["run"] and seq < b["seq"]:
                    return  # an older state delivered late
                hub = self.hubs[name]
                if state is None:
                    for ev in (status, view):
                        if isinstance(ev, dict) and ev.get("ev") in ("status", "view"):
                            hub.feed(ev)
                    state = json.loads(hub.snapshot()[1])
                b.update(seq=seq, run=run, state=state, at=m.get("at"))
                with hub.cond:
                    hub.state = dict(state)
                    hub.state["connected"] = bool(b["online"] is not False and state.get("connected", True))
                    hub._changed()
            else:
                return
            if kind == "online":
                hub = self.hubs[name]
                with hub.cond:
                    hub.state["connected"] = bool(b["online"] and (b["state"] or {}).get("connected", True))
                    hub._changed()
            self.version += 1
            b["version"] = self.version
            self.cond.notify_all()

    def start(self):
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self.client.loop_start()

    def wait_connected(self, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end and not self.refused:
            if self.connected.wait(0.1):
                return True
        return False

    def changes(self, since):
        """(version, [summary of each board changed after ``since``])."""
        with self.cond:
            return self.version, [summary(n, b) for n, b in sorted(self.boards.items()) if b["version"] > since]

    def wait(self, since, timeout):
        with self.cond:
            if self.version == since:
                self.cond.wait(timeout)
            if self.version == since:
                return None
        return self.changes(since)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()
