"""A board's events on the broker (bgc relay): every serial event numbered and published (QoS 1),
the live page's whole state after it retained, and the board's presence (retained "1", the
broker's last will "0"). paho keeps every QoS 1 message until the broker has it, across lost
connections (a persistent session: clean_session off), so a broker restart loses nothing."""

import json
import threading
import time

from ..errors import UserError
from .broker import connect_error, topic


def wall_ms():
    """The computer's clock in ms since 1970, from datetime: in a process running the virtual
    board (bgc sim), ``time`` is the board's virtual clock (bgc.board.virtual.clock)."""
    import datetime

    return int(datetime.datetime.now(datetime.timezone.utc).timestamp() * 1000)


class Relay:
    def __init__(self, broker, club, name, source=None):
        from ..web import Hub

        self.club, self.name = club, name
        self.hub = Hub(source or "board %s" % name)
        # seq restarts at 1 with each run of the relay; ``run`` tells a viewer that it did
        self.run = wall_ms()
        self.seq = 0
        self.refused = None
        self.connected = threading.Event()
        self._online = topic(club, name, "online")
        self.client = broker.client("bgc-%s-%s" % (club, name), will=(self._online, "0"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.broker = broker
        self.listeners = {}  # topic: handler(payload), subscribed at each connection (QoS 1)

    def listen(self, topic_name, handler):
        """Call ``handler(payload)`` with each message on ``topic_name`` (set before start())."""
        self.listeners[topic_name] = handler

    def _on_message(self, client, userdata, msg):
        handler = self.listeners.get(msg.topic)
        if handler is not None:
            handler(msg.payload)

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.refused = connect_error(reason)
            return
        client.publish(self._online, "1", qos=1, retain=True)
        for name in self.listeners:
            client.subscribe(name, qos=1)
        self.connected.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties):
        self.connected.clear()

    def start(self):
        try:
            self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        except (OSError, ValueError) as exc:
            raise UserError("cannot reach the broker %s: %s" % (self.broker, exc))
        self.client.loop_start()

    def wait_connected(self, timeout):
        """True once connected; UserError when the broker refused us."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.check()
            if self.connected.wait(0.1):
                return True
        self.check()
        return False

    def check(self):
        if self.refused:
            raise UserError(self.refused)

    def feed(self, events):
        """A batch of serial events (as read together): each published with its number, then the
        state after the last one (one retained state a batch, not one an event)."""
        if not events:
            return
        for ev in events:
            self.seq += 1
            self.hub.feed(ev)
            self.client.publish(topic(self.club, self.name, "events"),
                                json.dumps({"seq": self.seq, "run": self.run, "ev": ev}), qos=1)
        self.publish_state()

    def publish_state(self):
        _seq, state = self.hub.snapshot()
        self.client.publish(topic(self.club, self.name, "state"),
                            # at: when (ms since the epoch) the state left, for the page's latency
                            '{"seq": %d, "run": %d, "at": %d, "state": %s}' % (
                                self.seq, self.run, wall_ms(), state), qos=1, retain=True)

    def set_connected(self, connected):
        """The board was unplugged (False) or is back: the page says so."""
        self.hub.set_connected(connected)
        self.publish_state()

    def pending(self):
        """QoS 1 messages the broker has not acknowledged yet."""
        return len(self.client._out_messages)

    def close(self, timeout=5.0):
        """Say the board is gone (retained "0"), give the broker what it has not had yet, disconnect."""
        info = self.client.publish(self._online, "0", qos=1, retain=True)
        end = time.monotonic() + timeout
        while time.monotonic() < end and (self.pending() or not info.is_published()):
            if not self.connected.is_set() and self.refused:
                break
            time.sleep(0.05)
        self.client.disconnect()
        self.client.loop_stop()
