"""bgc broker init (issue 32, part 4 "nobody let in"): the set-up it writes, run by a real Mosquitto.
Rules checked (docs/club.md): a board's credentials publish under its own topics only, never as
another board nor into a match it is not in; the viewer only reads; a wrong password is refused;
with --tls the broker speaks TLS with the user's certificates (a CA made here with openssl)."""

import shutil
import subprocess
import time

import pytest

from bgc import cli
from mqtt_helpers import Listener, Mosquitto, needs_mosquitto
from web_helpers import wait_for

pytestmark = needs_mosquitto


def publish_as(broker, user, topic, payload, password=None, ca=None):
    """Publish as ``user`` with QoS 1; True when the broker kept it (a viewer heard it)."""
    import paho.mqtt.client as mqtt

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="pub-%s-%f" % (user, time.time()),
                    protocol=mqtt.MQTTv311)
    c.username_pw_set(user, password or broker.passwords[user])
    if ca:
        c.tls_set(ca_certs=ca)
    refused = []
    c.on_connect = lambda cl, u, f, reason, p: refused.append(reason.is_failure)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    try:
        wait_for(lambda: refused, 5)
        if refused != [False]:
            return "refused"
        c.publish(topic, payload, qos=1).wait_for_publish(5)
    finally:
        c.disconnect()
        c.loop_stop()
    return "sent"


def test_a_board_writes_only_its_own_topics_and_a_viewer_only_reads(tmp_path):
    broker = Mosquitto(tmp_path / "b", ["anna", "bruno", "carla"], matches=[("anna", "bruno")])
    spy = Listener(broker, ["bgc/#"], user="viewer")
    # carla (in no match with anna) listens to anna's moves with her own login
    carla = Listener(broker, ["bgc/club/anna/moves"], user="carla")
    bruno = Listener(broker, ["bgc/club/anna/moves"], user="bruno")
    try:
        assert wait_for(lambda: spy.connects and carla.connects and bruno.connects, 10)
        time.sleep(0.5)
        assert publish_as(broker, "anna", "bgc/club/anna/state", "anna-own") == "sent"
        assert publish_as(broker, "anna", "bgc/club/bruno/state", "anna-as-bruno") == "sent"
        assert publish_as(broker, "anna", "bgc/club/anna/moves", "anna-move") == "sent"
        assert publish_as(broker, "anna", "bgc/other/anna/state", "anna-other-club") == "sent"
        assert publish_as(broker, "viewer", "bgc/club/anna/state", "viewer-writes") == "sent"
        assert publish_as(broker, "anna", "bgc/club/anna/state", "x", password="wrong") == "refused"
        assert wait_for(lambda: spy.on("bgc/club/anna/moves"), 10)
        time.sleep(1.0)
        heard = [(t, p) for t, p, _r in spy.messages]
        assert ("bgc/club/anna/state", "anna-own") in heard
        assert ("bgc/club/anna/moves", "anna-move") in heard
        # the broker dropped what the ACL forbids: nobody heard it
        assert all(p not in ("anna-as-bruno", "viewer-writes", "anna-other-club") for _t, p in heard), heard
        assert bruno.on("bgc/club/anna/moves") == [("anna-move", False)], "the opponent did not get the move"
        assert carla.on("bgc/club/anna/moves") == [], "a board outside the match read its moves"
    finally:
        for c in (spy, carla, bruno):
            c.close()
        broker.close()


def test_bgc_broker_init_writes_a_set_up_mosquitto_runs(tmp_path, capsys):
    d = tmp_path / "club"
    assert cli.main(["broker", "init", str(d), "--boards", "t1,t2", "--port", "18830", "--host", "127.0.0.1"]) == 0
    out = capsys.readouterr().out
    assert "mosquitto -c %s/mosquitto.conf" % d in out
    assert sorted(p.name for p in (d / "passwords").iterdir()) == ["t1", "t2", "viewer"]
    assert (d / "passwords" / "t1").stat().st_mode & 0o077 == 0, "a password file others can read"
    # mosquitto itself checks the config: -c with a config it cannot use exits at once
    proc = subprocess.Popen(["mosquitto", "-c", str(d / "mosquitto.conf")], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    time.sleep(1.0)
    alive = proc.poll() is None
    proc.terminate()
    log = proc.communicate(10)[0]
    assert alive, log
    assert "Opening ipv4 listen socket on port 18830" in log


@pytest.mark.parametrize("args, words", [
    (["--boards", ""], "names no board"),
    (["--boards", "a,a"], "named twice"),
    (["--boards", "a,viewer"], "viewers' login"),
    (["--boards", "a,b", "--match", "a-c"], "not in --boards"),
    (["--boards", "a b"], "is not a name"),
])
def test_broker_init_refuses_bad_names(tmp_path, capsys, args, words):
    assert cli.main(["broker", "init", str(tmp_path / "x")] + args) == 2
    assert words in capsys.readouterr().err


OPENSSL = shutil.which("openssl")


@pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed")
def test_tls_is_a_flag_away_with_a_ca_made_here(tmp_path):
    def ssl(*args):
        subprocess.run([OPENSSL] + list(args), check=True, capture_output=True, cwd=tmp_path)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
        "-subj", "/CN=bgc test CA")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    (tmp_path / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.crt", "-days", "2", "-extfile", "san.ext")
    tls = (str(tmp_path / "ca.crt"), str(tmp_path / "server.crt"), str(tmp_path / "server.key"))
    broker = Mosquitto(tmp_path / "b", ["anna"], tls=tls)
    spy = Listener(broker, ["bgc/#"], ca=tls[0])
    try:
        assert wait_for(lambda: spy.connects, 10) and not spy.connects[0].is_failure
        assert publish_as(broker, "anna", "bgc/club/anna/state", "over-tls", ca=tls[0]) == "sent"
        assert wait_for(lambda: spy.on("bgc/club/anna/state") == [("over-tls", False)], 10)
        # plain MQTT on the TLS port gets no session
        assert publish_as(broker, "anna", "bgc/club/anna/state", "plain") == "refused"
        # bgc's own client (what relay, club and remote use): mqtts:// and --ca
        from bgc.net.broker import Broker

        ok = Broker(broker.url("anna"), password=broker.passwords["anna"], ca=tls[0]).client("bgc-tls-test")
        ok.connect("127.0.0.1", broker.port)
        ok.loop_start()
        ok.publish("bgc/club/anna/state", "bgc-over-tls", qos=1).wait_for_publish(5)
        ok.disconnect()
        ok.loop_stop()
        assert wait_for(lambda: ("bgc-over-tls", False) in spy.on("bgc/club/anna/state"), 10)
        # without --ca the system's CAs do not know the test CA: the broker is not trusted
        untrusted = Broker(broker.url("anna"), password=broker.passwords["anna"]).client("bgc-tls-untrusted")
        import ssl

        with pytest.raises(ssl.SSLCertVerificationError):
            untrusted.connect("127.0.0.1", broker.port)
        assert [p for p, _r in spy.on("bgc/club/anna/state")] == ["over-tls", "bgc-over-tls"]
    finally:
        spy.close()
        broker.close()
