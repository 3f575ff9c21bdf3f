# A board on an MQTT broker without a PC (a Pico W; docs/club.md, "A Pico W on the broker"): the
# same topics as `bgc relay` publishes, through micropython-lib's umqtt.simple:
#   bgc/CLUB/NAME/events  every event line, numbered (QoS 1)
#   bgc/CLUB/NAME/state   retained: the last status and view lines (bgc club draws the board from them)
#   bgc/CLUB/NAME/online  retained "1"; the broker's last will "0"
# The link wraps the serial line: every line the board writes goes out on USB as before and into
# the link's queue; each read of the serial line (once a loop) lets the link publish a little. A
# lost broker or Wi-Fi is tried again with a growing pause; meanwhile the queue keeps the newest
# events, QUEUE_BYTES of text at most (the state is always the newest, so a page still ends right).
#
# Settings on the flash, /mqtt.json: {"ssid", "wifi_password", "broker", "port", "user",
# "password", "club", "board"}. Without that file (or without Wi-Fi: a plain Pico) the serial line
# is used alone, and nothing of this module stays loaded.

import time

QUEUE_MAX = 64  # events kept while the broker is away, at most ...
# ... and at most this much of their text: a match's lines average ~190 B (status ~330, view ~180), so
# 64 of them held 12.5 KB, 16 KB of heap (scripts/bench/heap_modules.py --mqtt); 4 KB costs ~5 KB
QUEUE_BYTES = 4096
PER_POLL = 4  # events published in one loop: the board's loop stays short
RETRY_MS = 1000  # first pause after a failed connection; doubled up to RETRY_MAX_MS
RETRY_MAX_MS = 30000
SETTINGS = "/mqtt.json"


class MqttLink:
    """Publishes a board's lines through ``client`` (umqtt.simple.MQTTClient, not yet connected)."""

    def __init__(self, client, club, name, run, keepalive_s=30):
        self.client = client
        base = "bgc/%s/%s/" % (club, name)
        self.t_state = base + "state"
        self.t_events = base + "events"
        self.t_online = base + "online"
        client.keepalive = keepalive_s
        client.set_last_will(self.t_online, b"0", True, 1)
        self.run = run  # tells viewers that seq started again (a reset board)
        self.seq = 0
        self.queue = []  # [seq, line] not yet on the broker
        self.queued_bytes = 0  # their text
        self.dropped = 0
        self.status = "null"
        self.view = "null"
        self.state_due = False
        self.connected = False
        self.failures = 0  # failed tries in a row (the pause before the next grows with them)
        self.losses = 0  # connections lost or refused since the start
        self.next_try = time.ticks_ms()
        self.ping_ms = keepalive_s * 500  # a ping at half the keepalive
        self.last_sent = 0

    def line(self, text):
        """One line the board wrote (an event: docs/protocol.md)."""
        self.seq += 1
        q = self.queue
        q.append((self.seq, text))
        self.queued_bytes += len(text)
        while len(q) > 1 and (len(q) > QUEUE_MAX or self.queued_bytes > QUEUE_BYTES):
            self.queued_bytes -= len(q.pop(0)[1])  # the oldest goes first
            self.dropped += 1
        if text.startswith('{"ev": "status"'):
            self.status = text
            self.state_due = True
        elif text.startswith('{"ev": "view"'):
            self.view = text
            self.state_due = True

    def poll(self, now):
        """Connect when due, publish a few queued events, then the state once they are out."""
        c = self.client
        if not self.connected:
            if time.ticks_diff(now, self.next_try) < 0:
                return
            try:
                c.connect(True)
                c.publish(self.t_online, b"1", True, 1)
            except Exception:  # umqtt raises OSError, MQTTException, IndexError or AssertionError
                self._lost(now)
                return
            self.connected = True
            self.failures = 0
            self.state_due = True
            self.last_sent = now
        try:
            n = 0
            q = self.queue
            while q and n < PER_POLL:
                seq, text = q[0]
                c.publish(self.t_events, '{"seq": %d, "run": %d, "ev": %s}' % (seq, self.run, text), False, 1)
                q.pop(0)
                self.queued_bytes -= len(text)
                n += 1
            if self.state_due and not q:
                c.publish(self.t_state, '{"seq": %d, "run": %d, "status": %s, "view": %s}'
                          % (self.seq, self.run, self.status, self.view), True, 1)
                self.state_due = False
                n += 1
            if n:
                self.last_sent = now
            elif time.ticks_diff(now, self.last_sent) > self.ping_ms:
                c.ping()
                self.last_sent = now
            c.check_msg()  # the broker's answers to pings (nothing is subscribed)
        except Exception:
            self._lost(now)

    def _lost(self, now):
        try:
            self.client.sock.close()
        except Exception:
            pass
        self.connected = False
        self.failures += 1
        self.losses += 1
        pause = RETRY_MS << min(self.failures - 1, 5)
        self.next_try = time.ticks_add(now, pause if pause < RETRY_MAX_MS else RETRY_MAX_MS)


class LinkedSerial:
    """The board's serial line (read_line, write_line) with every written line also on the link."""

    def __init__(self, serial, link):
        self.serial = serial
        self.link = link

    def read_line(self):
        self.link.poll(time.ticks_ms())
        return self.serial.read_line()

    def write_line(self, text):
        self.serial.write_line(text)
        self.link.line(text)


# Why the board is not on the broker although /mqtt.json is on its flash (bad settings, no Wi-Fi in
# this firmware, the radio did not start), or "": main.py shows it as a note after the boot event.
problem = ""


def wrap(serial, settings_path=SETTINGS):
    """``serial`` with the MQTT link of the settings on the flash; ``serial`` itself where there
    are none, where they are unusable or where this board has no working Wi-Fi (``problem`` then
    says why: the board plays on, over USB alone)."""
    global problem
    problem = ""
    try:
        f = open(settings_path)
    except OSError:
        return serial
    try:
        import json

        s = json.load(f)
    except ValueError as exc:
        problem = "%s is not JSON (%s): not on the broker" % (settings_path, exc)
        return serial
    finally:
        f.close()
    if not isinstance(s, dict):
        problem = "%s holds no settings object: not on the broker" % settings_path
        return serial
    missing = [k for k in ("ssid", "broker", "board") if not s.get(k)]
    if missing:
        problem = "%s has no %s: not on the broker" % (settings_path, ", ".join(missing))
        return serial
    try:
        # a Pico W's: the rp2 Pico stubs the drivers type-check against have no network module, and
        # umqtt is frozen into the Pico W image only
        import network  # type: ignore[import-not-found]
        from umqtt.simple import MQTTClient  # type: ignore[import-not-found]
    except ImportError:
        problem = "%s is here but this firmware has no Wi-Fi (the Pico W image has): not on the broker" % settings_path
        return serial
    try:
        wlan = network.WLAN(network.STA_IF)
        wlan.active(True)  # OSError when the radio does not start (a Pico W image on a plain Pico)
        if not wlan.isconnected():
            wlan.connect(s["ssid"], s.get("wifi_password", ""))  # goes on in the background
    except OSError as exc:
        problem = "Wi-Fi did not start (%r): not on the broker" % (exc,)
        return serial
    import machine
    import os

    name = s["board"]
    client = MQTTClient("bgc-%s-%s" % (s.get("club", "club"), name), s["broker"], s.get("port", 1883),
                        s.get("user", name), s.get("password", ""))
    run = int.from_bytes(os.urandom(3), "little") ^ int.from_bytes(machine.unique_id()[-3:], "little")
    return LinkedSerial(serial, MqttLink(client, s.get("club", "club"), name, run))
