"""bgc remote (issue 32, part 3 and 4): two boards play one match through a real Mosquitto. Rules
checked (docs/club.md): each board plays its own side with its own dice, the opponent's actions
shown on the board as the computer's are and moved there by hand; the broker restarted in the
middle loses nothing; both boards' journals hold the same match (the same .mat, as GNU Backgammon
reads it); an action delivered twice, or an old list after a newer, is carried out once; a
restarted bgc remote takes up at the board's state."""

import json
import os
import signal
import subprocess
import sys
import time

from bgc import cli
from bgc.logs import journals
from bgc.logs.export import export_text
from bgc.net.remote import RemoteMatch, state_key
from mqtt_helpers import BoardProcess, Listener, Mosquitto, needs_mosquitto
from test_club_relay import ctrl_c_reaches_it, stop
from web_helpers import wait_for


def remote(broker, board, name, opponent, length=1):
    return subprocess.Popen([sys.executable, "-m", "bgc", "remote", "--port", board.link, "--broker", broker.url(name),
                             "--password-file", broker.password_file(name), "--board", name, "--opponent", opponent,
                             "--length", str(length), "--wait", "120"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_reaches_it)


@needs_mosquitto
def test_two_boards_play_one_match_through_a_broker_restart_and_both_journals_export_the_same_mat(tmp_path, capsys):
    broker = Mosquitto(tmp_path / "broker", ["anna", "bruno"], matches=[("anna", "bruno")])
    # anna sorts first: she plays White on her board (Black's checkers there are bruno's, moved as lit)
    anna = BoardProcess(tmp_path, 21, "anna", computer=1)
    bruno = BoardProcess(tmp_path, 22, "bruno", computer=0)
    viewer = Listener(broker, ["bgc/club/+/events"])
    procs = {"anna": remote(broker, anna, "anna", "bruno", length=3), "bruno": remote(broker, bruno, "bruno", "anna")}

    def plays(name):
        return [m["ev"] for m in viewer.json_on("bgc/club/%s/events" % name) if m["ev"]["ev"] == "play"]

    try:
        assert wait_for(lambda: len(plays("bruno")) >= 6, 120), (plays("anna"), plays("bruno"))
        broker.restart(down=2.0)  # both sides lose the broker in the middle of the match
        assert wait_for(lambda: anna.result() and bruno.result(), 600), "the match did not end on both boards"
        ends = {}
        for name, p in procs.items():
            try:
                out, err = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                out, err = stop(p)
            ends[name] = (p.returncode, out, err)
    finally:
        for p in procs.values():
            if p.poll() is None:
                stop(p)
        viewer.close()
        anna.close()
        bruno.close()
        broker.close()
    a, b = anna.result(), bruno.result()
    assert a["finished"] and b["finished"]
    assert a["status"]["phase"] == b["status"]["phase"] == "matchover"
    assert a["status"]["score"] == b["status"]["score"] and max(a["status"]["score"]) >= 3
    logs = {n: journals.replay_text(r["journal"], n) for n, r in (("anna", a), ("bruno", b))}
    mats = {n: export_text(log, "mat")[0] for n, log in logs.items()}
    assert mats["anna"] == mats["bruno"], "the two boards' journals differ"
    assert list(logs["anna"].names) == ["anna", "bruno"]
    moves = sum(1 for g in logs["anna"].games for x in g.actions if x["a"] == "move")
    assert moves > 20, moves
    # GNU Backgammon rebuilds that match from the .mat: every position and the score
    jnl = tmp_path / "anna.jnl"
    jnl.write_text(a["journal"])
    assert cli.main(["export", str(jnl), "--format", "mat", "--check"]) == 0
    assert "GNU Backgammon agrees on" in capsys.readouterr().out
    for name, (rc, out, err) in ends.items():
        assert rc == 0, (name, out, err)
    assert "anna (White) against bruno" in ends["anna"][1]
    assert "bruno (Black) against anna" in ends["bruno"][1]


# --- the opponent's actions carried out once ---------------------------------------------------------

def status(phase, pos="4HPwATDgc/ABMA", match="cAkAAAAAAAAA", game=1, computer=0, **more):
    st = {"ev": "status", "match": match, "pos": pos, "phase": phase, "game": game, "computer": computer,
          "names": ["anna", "bruno"], "on_roll": 0, "to_act": 0}
    st.update(more)
    return st


def follower_with(actions):
    """bruno's side (Black, the follower) in a match anna started, her actions heard."""
    sent = []
    m = RemoteMatch("club", "bruno", "anna", 1, lambda t, p: None)
    m.on_event(status("setup", match=None, computer=None), sent.append)
    m.on_moves(json.dumps({"tag": 7, "actions": [{"do": "new", "settings": {"length": 1, "names": ["anna", "bruno"]}}]}))
    m.tick(sent.append)
    assert json.loads(sent[0])["cmd"] == "new"
    m.on_moves(json.dumps({"tag": 7, "actions": actions}))
    return m, sent


def test_an_action_delivered_twice_or_an_older_list_late_is_carried_out_once():
    opening = status("opening")
    moving = status("moving", match="cAkAAAAAAAAB")
    actions = [{"do": "new", "settings": {"length": 1, "names": ["anna", "bruno"]}},
               {"do": "opening", "dice": [6, 1], "before": state_key(opening)},
               {"do": "play", "pos": "4HPwATDgc/ABMB", "before": state_key(moving)}]
    m, sent = follower_with(actions)
    sent.clear()
    m.on_event(opening, sent.append)
    assert sent == ["gnu opening dice=6,1"]
    m.on_moves(json.dumps({"tag": 7, "actions": actions}))  # the same list again (QoS 1 twice)
    m.on_moves(json.dumps({"tag": 7, "actions": actions[:2]}))  # an older one, late
    m.on_event(opening, sent.append)  # the board says the same again (a status asked for)
    m.tick(sent.append)
    assert sent == ["gnu opening dice=6,1"], "the opening roll was sent twice"
    m.on_event({"ev": "roll", "p": 0, "opening": True, "dice": [6, 1]}, sent.append)  # carried out
    m.on_event(moving, sent.append)
    m.on_moves(json.dumps({"tag": 7, "actions": actions}))
    m.on_event(moving, sent.append)
    assert sent == ["gnu opening dice=6,1", "gnu play pos=4HPwATDgc/ABMB"]
    m.on_event({"ev": "play", "p": 0, "pos": "4HPwATDgc/ABMB", "move": "13/7 8/7"}, sent.append)
    m.on_moves(json.dumps({"tag": 7, "actions": actions}))
    m.tick(sent.append)
    assert len(sent) == 2 and m.applied == [1, 2]


def test_a_restarted_remote_takes_up_at_the_boards_state():
    moving = status("moving", match="cAkAAAAAAAAB", computer=0)
    actions = [{"do": "new", "settings": {"length": 1, "names": ["anna", "bruno"]}},
               {"do": "opening", "dice": [6, 1], "before": state_key(status("opening"))},
               {"do": "play", "pos": "4HPwATDgc/ABMB", "before": state_key(moving)}]
    sent = []
    m = RemoteMatch("club", "bruno", "anna", 1, lambda t, p: None)
    # our own list from before the restart, retained on the broker, comes back first
    m.on_moves(json.dumps({"tag": 7, "actions": []}), own=True)
    m.on_moves(json.dumps({"tag": 7, "actions": actions}))
    m.on_event(moving, sent.append)  # the board is where the match stood: anna's play is next
    assert sent == ["gnu play pos=4HPwATDgc/ABMB"], sent
