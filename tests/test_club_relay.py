"""bgc relay (issue 32, part 1): a board on USB relayed to a real Mosquitto (tests/mqtt_helpers.py).
Rules checked (docs/club.md, docs/protocol.md "Boards on an MQTT broker"): every serial event is
published on bgc/CLUB/NAME/events with numbers 1, 2, 3... and none is lost when the broker is
restarted in the middle; the retained state is the firmware's own last status, seen at once by a
viewer who comes late; online is "1" while the relay runs and "0" when it stops or dies (the last
will); the password is never taken from the command line."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from bgc import cli
from bgc.board import players as P
from bgc.board import sim as simmod
from mqtt_helpers import Listener, Mosquitto, needs_mosquitto
from web_helpers import SerialBoard, wait_for

pytestmark = needs_mosquitto


class PlayedBoard:
    """The firmware on the virtual board behind a serial port, played by the automated players."""

    def __init__(self, tmp_path, seed, length=3, name="ttyBoard"):
        self.sim = simmod.Sim(seed=seed)
        self.link = str(tmp_path / name)
        self.board = SerialBoard(self.sim, self.link)
        self.board.plug()
        self.players = P.Players(self.sim, seed=seed, handling=P.Handling(illegal=0.1))
        self.sim.serial.send("new length=%d" % length)
        self.go = True
        self.stopped = False
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _play(self):
        while not self.stopped:
            if self.go and not self.players.finished:
                self.sim.step()
            else:
                time.sleep(0.01)
            self.board.pump()
            time.sleep(0.0005)

    def close(self):
        self.stopped = True
        self.thread.join(5)
        self.sim.close()
        self.sim.remove_flash()


def ctrl_c_reaches_it():
    """(preexec_fn) Ctrl-C as a terminal sends it, even where the tests run with SIGINT ignored: a
    suite started in the background by a shell without job control, whose children inherit that,
    and a Python started so never turns SIGINT into KeyboardInterrupt (``stop`` then kills it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def relay(broker, board, name, *extra):
    env = dict(os.environ)
    env.pop("BGC_MQTT_PASSWORD", None)
    return subprocess.Popen([sys.executable, "-m", "bgc", "relay", "--port", board.link, "--broker", broker.url(name),
                             "--password-file", broker.password_file(name), "--board", name, "--wait", "60"] + list(extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=ctrl_c_reaches_it)


def stop(proc, sig=signal.SIGINT):
    proc.send_signal(sig)
    try:
        return proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


def test_every_event_arrives_numbered_once_through_a_broker_restart_and_the_state_is_retained(tmp_path):
    broker = Mosquitto(tmp_path / "broker", ["table1"])
    board = PlayedBoard(tmp_path, seed=8)
    events = "bgc/club/table1/events"
    state_topic = "bgc/club/table1/state"
    viewer = Listener(broker, [events, "bgc/club/table1/online", state_topic], client_id="test-page")
    proc = relay(broker, board, "table1")
    try:
        assert wait_for(lambda: len(viewer.on(events)) > 20, 40), "no event reached the broker"
        broker.restart(down=1.5)  # the relay and the viewer both lose the broker for a while
        seen = len(viewer.on(events))
        assert wait_for(lambda: len(viewer.on(events)) > seen + 20, 60), "no event after the broker came back"
        board.go = False  # the players stop: the relay must deliver all the board said
        time.sleep(1.0)
        # the firmware's own record of what it printed, less the status and view answers the relay
        # asked for: the relayed events end with exactly these, in this order, none missing
        said = [e for e in board.sim.serial.events if e["ev"] not in ("status", "view")]

        def relayed():
            unique = {}
            for m in viewer.json_on(events):
                unique.setdefault(m["seq"], m["ev"])  # QoS 1 may deliver twice: the number says so
            return unique

        def told(unique):
            return [unique[k] for k in sorted(unique) if unique[k]["ev"] not in ("status", "view")]

        assert wait_for(lambda: told(relayed())[-1:] == said[-1:], 30), "the last event never arrived"
        unique = relayed()
        assert sorted(unique) == list(range(1, len(unique) + 1)), "a number is missing: %s" % sorted(unique)
        assert sum(e["ev"] == "play" for e in told(unique)) >= 2, "no play was relayed"
        assert told(unique) == said[-len(told(unique)):], "an event is missing or out of order"
        got = viewer.json_on(events)
        assert all(m["run"] == got[0]["run"] for m in got)
        # the relay sends the state after each batch of events: under load it reaches the broker a
        # moment after the last event did
        def state_after_the_last_event():
            states = viewer.json_on(state_topic)
            return states and states[-1]["seq"] == max(unique)

        assert wait_for(state_after_the_last_event, 10), "the state after the last event never arrived"
        # a viewer who comes now sees the board at once: the retained state is the firmware's last status
        late = Listener(broker, ["bgc/club/+/state", "bgc/club/+/online"])
        try:
            assert wait_for(lambda: late.on("bgc/club/table1/state"), 10), "no retained state"
            payload, retained = late.on("bgc/club/table1/state")[-1]
            assert retained
            state = json.loads(payload)
            assert state["seq"] == max(unique)
            assert state["state"]["status"] == board.sim.serial.last("status")
            assert state["state"]["moves"], "the state lists no move"
            # (the two retained messages come one after the other: under load the second one later)
            assert wait_for(lambda: late.on("bgc/club/table1/online"), 10), "no retained online flag"
            assert late.on("bgc/club/table1/online")[-1] == ("1", True)
        finally:
            late.close()
    finally:
        out, err = stop(proc)
        viewer.close()
        board.close()
    assert proc.returncode in (0, 130), err
    assert "board %s on mqtt://table1@127.0.0.1:%d as bgc/club/table1" % (board.link, broker.port) in out
    after = Listener(broker, ["bgc/club/table1/online"])
    try:
        assert wait_for(lambda: after.on("bgc/club/table1/online"), 10)
        assert after.on("bgc/club/table1/online")[-1] == ("0", True), "a stopped relay still shows online"
    finally:
        after.close()
        broker.close()


def test_a_relay_that_dies_is_shown_offline_by_the_brokers_last_will(tmp_path):
    broker = Mosquitto(tmp_path / "broker", ["table2"])
    board = PlayedBoard(tmp_path, seed=3)
    viewer = Listener(broker, ["bgc/club/table2/online"])
    proc = relay(broker, board, "table2")
    try:
        assert wait_for(lambda: viewer.on("bgc/club/table2/online")[-1:] == [("1", False)], 20), viewer.messages
        stop(proc, signal.SIGKILL)  # no goodbye: the broker notices the silence (keepalive) and says "0"
        assert wait_for(lambda: viewer.on("bgc/club/table2/online")[-1:] == [("0", False)], 30), viewer.messages
    finally:
        if proc.poll() is None:
            stop(proc, signal.SIGKILL)
        viewer.close()
        board.close()
        broker.close()


def test_the_password_is_never_taken_from_the_command_line(capsys, tmp_path):
    status = cli.main(["relay", "--port", str(tmp_path / "none"), "--broker", "mqtt://table1:secret@127.0.0.1",
                       "--board", "table1"])
    err = capsys.readouterr().err
    assert status == 2
    assert "--broker holds a password" in err and "secret" not in err


@pytest.mark.parametrize("args, words", [
    (["--broker", "http://x@host", "--board", "t"], "is not a broker address"),
    (["--broker", "mqtt://t@127.0.0.1", "--board", "t/#"], "is not a name for the broker's topics"),
    (["--broker", "mqtt://t@127.0.0.1", "--board", "t", "--password-file", "/no/such/file"],
     "cannot read the password file"),
])
def test_bad_broker_arguments_are_refused_with_a_reason(capsys, args, words):
    assert cli.main(["relay", "--port", "/dev/null"] + args) == 2
    assert words in capsys.readouterr().err


def test_a_wrong_password_is_refused_with_a_reason(tmp_path):
    broker = Mosquitto(tmp_path / "broker", ["table1"])
    board = PlayedBoard(tmp_path, seed=2)
    bad = tmp_path / "bad"
    bad.write_text("not-the-password\n")
    proc = subprocess.Popen([sys.executable, "-m", "bgc", "relay", "--port", board.link, "--broker", broker.url("table1"),
                             "--password-file", str(bad), "--board", "table1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            stop(proc, signal.SIGKILL)
        board.close()
        broker.close()
    assert proc.returncode == 2
    assert "the broker refused the user name or password" in err
