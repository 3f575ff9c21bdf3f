"""A real Mosquitto for the tests (Debian's, installed by scripts/install_test_tools.sh), started on
127.0.0.1 at a free port with the set-up `bgc broker init` writes (bgc.net.broker.init_folder), and
a subscriber that records what it hears."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from web_helpers import wait_for

MOSQUITTO = shutil.which("mosquitto") or (shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin"))
needs_mosquitto = pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed: "
                                     "scripts/install_test_tools.sh installs Debian's package")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BoardProcess:
    """tests/played_board.py: a played virtual board in its own process, behind a serial port."""

    def __init__(self, tmp_path, seed, name, computer=None):
        self.link = str(tmp_path / ("tty" + name))
        self.out = str(tmp_path / (name + ".json"))
        self.proc = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "played_board.py"),
                                      self.link, str(seed), self.out] + ([str(computer)] if computer is not None else []))
        assert wait_for(lambda: os.path.exists(self.link), 20), "the board did not start"

    def result(self):
        """What the board wrote when its match ended (or it was paused), or None."""
        if not os.path.exists(self.out):
            return None
        with open(self.out) as f:
            return json.load(f)

    def pause(self):
        """The players stop; the board's status, LEDs and OLED as the firmware has them."""
        self.proc.send_signal(signal.SIGUSR1)
        assert wait_for(lambda: os.path.exists(self.out), 10)
        with open(self.out) as f:
            return json.load(f)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()



class Mosquitto:
    """``Mosquitto(folder, boards)``: the club's broker set up in ``folder``; ``passwords``
    {user: password}; ``url(user)``; ``restart()`` stops it (saving its persistent store) and
    starts it again on the same port; ``stop()``."""

    def __init__(self, folder, boards, club="club", matches=(), tls=None):
        from bgc.net.broker import init_folder

        self.folder = str(folder)
        self.port = free_port()
        self.club = club
        self.tls = tls
        self.passwords = init_folder(self.folder, club, boards, port=self.port, host="127.0.0.1",
                                     matches=matches, tls=tls)
        self.proc = None
        self.log = open(self.folder + "/mosquitto.log", "a")
        self.start()

    def url(self, user):
        return "%s://%s@127.0.0.1:%d" % ("mqtts" if self.tls else "mqtt", user, self.port)

    def password_file(self, user):
        return "%s/passwords/%s" % (self.folder, user)

    def start(self):
        self.proc = subprocess.Popen([MOSQUITTO, "-c", self.folder + "/mosquitto.conf"], stdout=self.log,
                                     stderr=subprocess.STDOUT)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start: %s" % open(self.folder + "/mosquitto.log").read()[-2000:])

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def restart(self, down=1.0):
        self.stop()
        time.sleep(down)
        self.start()

    def close(self):
        self.stop()
        self.log.close()


class Listener:
    """A client of the broker (default: the viewer) subscribed to ``topics``; ``messages`` holds
    (topic, payload text, retained) in the order heard. A persistent session (clean_session off):
    what is published while it is away is kept for it, as for a page that lost its connection."""

    def __init__(self, broker, topics, user="viewer", client_id=None, ca=None):
        import paho.mqtt.client as mqtt

        self.messages = []
        self.lock = threading.Lock()
        self.connects = []
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or "test-%s-%d" % (user, free_port()),
                        protocol=mqtt.MQTTv311, clean_session=False)
        c.username_pw_set(user, broker.passwords[user])
        if ca:
            c.tls_set(ca_certs=ca)
        c.reconnect_delay_set(min_delay=0.2, max_delay=1)

        def on_connect(client, userdata, flags, reason, properties):
            self.connects.append(reason)
            if not reason.is_failure:
                for t in topics:
                    client.subscribe(t, qos=1)

        def on_message(client, userdata, msg):
            with self.lock:
                self.messages.append((msg.topic, msg.payload.decode("utf-8", "replace"), bool(msg.retain)))

        c.on_connect = on_connect
        c.on_message = on_message
        c.connect("127.0.0.1", broker.port, keepalive=5)
        c.loop_start()
        self.client = c

    def on(self, topic):
        with self.lock:
            return [(p, r) for t, p, r in self.messages if t == topic]

    def json_on(self, topic):
        return [json.loads(p) for p, _r in self.on(topic)]

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()
