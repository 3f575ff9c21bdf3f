"""A Pico W on the broker without a PC (issue 32, part 5): the firmware's drivers/mqtt_link.py
through micropython-lib's umqtt.simple, run under the UNIX MicroPython (32-bit where the shared
tools have it: a Pico's object sizes) against a real Mosquitto. Rules checked (docs/club.md): every
line the board writes is published on bgc/CLUB/NAME/events numbered 1, 2, 3... with none missing
across a broker restart; the retained state holds the last status and view lines; online is "1",
and the broker's last will says "0" when the board is gone without a word; the club page's model
reads such a state as it reads a relay's. What stays untested: the Wi-Fi chip (network.WLAN) and
TLS on the Pico W; wrap() reads the settings and starts Wi-Fi, which only a Pico W can run."""

import json
import os
import re
import threading
import time

import pytest

from bgc.pico import libs, upy
from bgc.pico.upy import MicroPythonError
from mqtt_helpers import Listener, Mosquitto, needs_mosquitto
from web_helpers import wait_for

pytestmark = [needs_mosquitto, pytest.mark.micropython]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r"""
import gc, time, json
gc.collect()
free0 = gc.mem_free()
from umqtt.simple import MQTTClient
from drivers.mqtt_link import MqttLink, LinkedSerial
gc.collect()
free1 = gc.mem_free()

class Usb:  # the USB serial line: what the board writes goes there too
    def __init__(self):
        self.out = []
    def read_line(self):
        return None
    def write_line(self, text):
        self.out.append(text)

client = MQTTClient("bgc-club-picow", "127.0.0.1", PORT, "picow", PASSWORD)
link = MqttLink(client, "club", "picow", 777, keepalive_s=2)
serial = LinkedSerial(Usb(), link)
STATUS = '{"ev": "status", "match": "cAkAAAAAAAAA", "pos": "4HPwATDgc/ABMA", "names": ["Anna", "Bruno"], "score": [1, 0], "length": 3, "cube": 1, "owner": -1, "crawford": false, "on_roll": 1, "to_act": 1, "dice": [6, 4], "phase": "moving", "pips": [167, 167], "msg": "Bruno to play 6-4", "game": 2}'
VIEW = '{"ev": "view", "screen": ["Match to 3: 1-0", "Bruno 6-4"], "leds": "000000000000000000000001"}'

def settle(limit_ms):
    end = time.ticks_add(time.ticks_ms(), limit_ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        serial.read_line()
        if link.connected and not link.queue and not link.state_due:
            return True
        time.sleep_ms(20)
    return False

k = 0
for i in range(10):
    k += 1
    serial.write_line('{"ev": "roll", "p": %d, "dice": [%d, %d]}' % (k % 2, k % 6 + 1, (k * 5) % 6 + 1))
    serial.read_line()
serial.write_line(STATUS)
serial.write_line(VIEW)
print("first", settle(10000))
gc.collect()
free2 = gc.mem_free()
print("heap", free0 - free1, free1 - free2)
# the broker goes away (the test restarts it): the board plays on, its lines wait in the queue
open("phase1", "w").close()
for i in range(30):
    k += 1
    serial.write_line('{"ev": "roll", "p": %d, "dice": [%d, %d]}' % (k % 2, k % 6 + 1, (k * 5) % 6 + 1))
    serial.read_line()
    time.sleep_ms(100)
serial.write_line(STATUS.replace('"score": [1, 0]', '"score": [2, 0]'))
print("second", settle(30000), link.seq, link.dropped, link.losses > 0)
print("usb", len(serial.serial.out))
# gone without a word: the broker's last will
client.sock.close()
"""


def run_guest(broker, keep):
    script = SCRIPT.replace("PORT", str(broker.port)).replace("PASSWORD", repr(broker.passwords["picow"]))
    return upy.run(script, sources=[os.path.join(ROOT, "firmware"), os.path.join(libs.umqtt_dir(), "umqtt")],
                   heap_kb=190, timeout=120, keep=keep)


def test_a_pico_ws_link_publishes_every_event_across_a_broker_restart_with_its_state_and_will(tmp_path):
    broker = Mosquitto(tmp_path / "broker", ["picow"])
    viewer = Listener(broker, ["bgc/club/picow/#"])
    events = "bgc/club/picow/events"
    result = {}
    guest_dir = tmp_path / "guest"

    def guest():
        try:
            result["out"] = run_guest(broker, None)
        except MicroPythonError as exc:
            result["error"] = str(exc)

    t = threading.Thread(target=guest, daemon=True)
    t.start()
    try:
        assert wait_for(lambda: len(viewer.on(events)) >= 12, 60), (viewer.messages, result)
        broker.restart(down=1.5)
        t.join(120)
        assert not t.is_alive(), "the MicroPython guest did not finish"
        assert "error" not in result, result.get("error")
        out = result["out"].splitlines()
        assert "first True" in out and "second True 43 0 True" in out, out
        assert "usb 43" in out, "a line did not reach the USB serial line"
        got = {}
        for m in viewer.json_on(events):
            got.setdefault(m["seq"], m["ev"])  # QoS 1: a resend after the restart has its number
        assert sorted(got) == list(range(1, 44)), sorted(got)
        assert got[11]["ev"] == "status" and got[12]["ev"] == "view"
        assert all(m["run"] == 777 for m in viewer.json_on(events))
        # the will: the guest closed its socket without a DISCONNECT
        assert wait_for(lambda: viewer.on("bgc/club/picow/online")[-1:] == [("0", False)], 15), \
            viewer.on("bgc/club/picow/online")
        assert ("1", False) in viewer.on("bgc/club/picow/online")
        late = Listener(broker, ["bgc/club/+/state"])
        try:
            assert wait_for(lambda: late.on("bgc/club/picow/state"), 10)
            payload, retained = late.on("bgc/club/picow/state")[-1]
            state = json.loads(payload)
            assert retained and state["seq"] == 43 and state["status"]["score"] == [2, 0]
            assert state["view"]["screen"][1] == "Bruno 6-4"
        finally:
            late.close()
        heap = [l for l in out if l.startswith("heap ")][0].split()
        print("mqtt_link heap: %s bytes to import umqtt.simple and mqtt_link, %s more connected with a "
              "status and view held" % (heap[1], heap[2]))
        assert int(heap[1]) + int(heap[2]) < 16 * 1024, heap
    finally:
        viewer.close()
        broker.close()


def test_the_club_reads_a_pico_ws_state_as_a_relays():
    from bgc.net.club import Club

    class Msg:
        def __init__(self, topic, payload):
            self.topic, self.payload = topic, payload.encode()

    class NoBroker:
        def client(self, client_id):
            import paho.mqtt.client as mqtt

            return mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)

    club = Club(NoBroker(), "club")
    status = {"ev": "status", "match": "cAkAAAAAAAAA", "pos": "4HPwATDgc/ABMA", "names": ["Anna", "Bruno"],
              "score": [1, 0], "length": 3, "cube": 1, "owner": -1, "on_roll": 0, "dice": [], "phase": "roll"}
    club._on_message(None, None, Msg("bgc/club/picow/online", "1"))
    club._on_message(None, None, Msg("bgc/club/picow/state", json.dumps(
        {"seq": 5, "run": 1, "status": status, "view": {"ev": "view", "screen": ["x"], "leds": "1"}})))
    b = club.changes(0)[1][0]
    assert b["name"] == "picow" and b["names"] == ["Anna", "Bruno"] and b["score"] == [1, 0] and b["online"]
    # the start position, drawn from the Position ID as for a relayed board
    assert b["checkers"]["white"][6] == 5 and b["checkers"]["black"][19] == 5
    assert json.loads(club.hubs["picow"].snapshot()[1])["oled"]["rows"] == ["x"]


WRAP_SCRIPT = r"""
from drivers import mqtt_link

class Usb:
    def read_line(self):
        return None
    def write_line(self, text):
        pass

usb = Usb()
CASES = (("broken", '{"ssid": "club", "broker": '), ("list", '["club"]'),
         ("no_broker", '{"ssid": "club", "board": "table7"}'),
         ("good", '{"ssid": "club", "wifi_password": "x", "broker": "127.0.0.1", "board": "table7"}'))
for name, text in CASES:
    f = open(name + ".json", "w")
    f.write(text)
    f.close()
    got = mqtt_link.wrap(usb, name + ".json")
    print(name, got is usb, "|", mqtt_link.problem)
got = mqtt_link.wrap(usb, "absent.json")
print("absent", got is usb, "|", mqtt_link.problem)
"""


def test_unusable_mqtt_settings_leave_the_board_on_usb_and_say_why():
    """A Pico W's /mqtt.json that cannot be used (not JSON, not an object, a setting missing, or a
    firmware without Wi-Fi: the UNIX port has no network module, as a plain Pico's image) never stops
    the board: wrap() gives back the USB serial line itself, and mqtt_link.problem is the note main.py
    shows after the boot event. Without the file there is nothing to say."""
    out = upy.run(WRAP_SCRIPT, sources=[os.path.join(ROOT, "firmware"), os.path.join(libs.umqtt_dir(), "umqtt")],
                  heap_kb=190, timeout=60)
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " | " in line)
    assert lines["broken"].startswith("True | broken.json is not JSON ("), lines
    assert lines["list"] == "True | list.json holds no settings object: not on the broker", lines
    assert lines["no_broker"] == "True | no_broker.json has no broker: not on the broker", lines
    assert lines["good"] == ("True | good.json is here but this firmware has no Wi-Fi (the Pico W image has): "
                             "not on the broker"), lines
    assert lines["absent"] == "True | ", lines
