"""A whole chouette evening of four players on the virtual board, played by the automated players
(bgc.board.chouette_players) with the real firmware: seats by one die each, four games with rotation,
the common cube and then several cubes, a member who drops while others take, a captain who drops
while others take, a member's own double, a power cut in the middle of a team decision, and a
game played out by the hands. The cube actions of games 1-3 are planned, so their ledger is worked
out by hand from the seed's rules (docs/chouette.md); every game must sum to zero."""
import os

from bgc.logs import chouette_log
from bgc.board import players as P, sim as S
from bgc.board.chouette_players import ChouettePlayers

PLAN = {
    1: [("box", {"Anna": True, "Bruno": False, "Dario": True}), ("team", None, False)],
    2: [("box", {"Bruno": False, "Dario": True, "Carla": True}), ("team", None, False)],
    3: {"cubes": "several", "steps": [("box", {"Carla": True, "Bruno": False, "Anna": True}), ("team", "Anna", True, "serial"),
                                      ("team", "Carla", False), ("box", {"Anna": False})]},
    4: {"cubes": "common", "steps": []},
}

# Worked out by hand (docs/chouette.md, "An evening worked out by hand"). Seats: Anna 5, Bruno 3,
# Carla 5, Dario 1; Anna and Carla roll again: 2 and 6. The line: Carla, Anna, Bruno, Dario.
HAND = [
    # 1: Carla doubles; Anna takes, Bruno drops (pays 1), Dario takes; Anna redoubles to 4 and
    # Carla drops: she pays 2 to Anna and to Dario. The team won: Anna is box, Carla goes last.
    ([["Carla", -3], ["Anna", 2], ["Bruno", -1], ["Dario", 2]], ["Anna", "Bruno", "Dario", "Carla"]),
    # 2: Anna doubles; the captain Bruno drops (1) while Dario and Carla take: Dario is captain and
    # Bruno goes last. Dario redoubles, Anna drops: 2 each to Dario and Carla. Dario is box.
    ([["Anna", -3], ["Dario", 2], ["Carla", 2], ["Bruno", -1]], ["Dario", "Carla", "Bruno", "Anna"]),
    # 3, several cubes: Dario doubles all; Carla and Anna take, Bruno drops (1). Anna redoubles her
    # cube to 4, Dario takes; the captain Carla redoubles hers, Dario drops (2 to Carla: he has lost
    # to the captain). Dario doubles Anna to 8; she drops (4). Carla takes the box.
    ([["Dario", 3], ["Carla", 2], ["Bruno", -1], ["Anna", -4]], ["Carla", "Bruno", "Anna", "Dario"]),
]


def test_a_whole_chouette_evening_of_four_players_by_the_automated_players(tmp_path):
    s = S.Sim(flash_dir=str(tmp_path / "flash"), seed=5)
    try:
        for d in (5, 3, 5, 1, 2, 6):
            s.dice.force(d, 1)
        pl = ChouettePlayers(s, games=4, plan=PLAN, seed=5, handling=P.Handling(illegal=0.0))
        pl.cut_when = (1, "Anna")  # the power goes after the captain's answer, before Bruno's
        s.run_ms(50)
        s.serial.send("chouette names=Anna,Bruno,Carla,Dario")
        frames = 0
        cut = False
        while not pl.finished and frames < 200000:
            s.step()
            frames += 1
            if pl.want_cut:
                pl.want_cut = False
                s.powercut()
                cut = True
                st = s.status()
                assert st["chouette"]["asking"] == "Bruno", st
        assert pl.finished and cut
        # a chouette evening prepares no answers in idle loop steps: its modules take the heap the
        # table would need (Companion.prepare, the in-play floor of tests/test_heap_budget.py)
        assert s.app.prepared_units == 0 and s.app.companion.tracker.prepared is None
        boots = [e for e in s.serial.events if e.get("ev") == "boot"]
        assert boots[-1]["resumed"] is True
        assert [e["line"] for e in s.serial.events if e.get("ev") == "chouette"][0] == ["Carla", "Anna", "Bruno", "Dario"]
        for ledger, (points, line) in zip(pl.ledgers, HAND):
            assert ledger["points"] == points and ledger["line"] == line
        assert pl.ledgers[2]["totals"] == [["Anna", -5], ["Bruno", -3], ["Carla", 1], ["Dario", 7]]
        for ledger in pl.ledgers:
            assert sum(p for _, p in ledger["points"]) == 0
        assert len(pl.ledgers) == 4 and sum(p for _, p in pl.ledgers[3]["totals"]) == 0
        # each member's answer is in the journal once, the power cut notwithstanding
        path = s.journal_path()
        recs, problem = s.journal_records(path)
        assert problem is None
        answers = [(r["name"], r["take"]) for r in recs if r["a"] == "canswer"]
        assert answers[:3] == [("Anna", True), ("Bruno", False), ("Dario", True)]
        # the host replays the journal to the same ledger
        log = chouette_log.load(path)
        assert log.problem is None
        assert [[[n, p] for n, p in g[3]] for g in log.ledger] == [e["points"] for e in pl.ledgers]
        assert pl.stats["false_illegal"] == 0
    finally:
        s.close()
        s.remove_flash()


def test_a_game_ended_by_a_drop_lets_go_of_cube_so_a_held_cube_then_closes_the_evening(tmp_path):
    # The long evening (docs/reliability.md) closed its chouette by holding CUBE as soon as the
    # players' last game was over. When that game ended with a drop (CUBE held by the box), the
    # players stopped with the finger still down: the evening's hold was the same press, the
    # board never closed the chouette, and its 20 KB stayed loaded into the next match.
    s = S.Sim(flash_dir=str(tmp_path / "flash"), seed=5)
    try:
        for d in (5, 3, 5, 1, 2, 6):
            s.dice.force(d, 1)
        pl = ChouettePlayers(s, games=1, plan={1: [("team", None, False)]}, seed=5,
                             handling=P.Handling(illegal=0.0))
        s.run_ms(50)
        s.serial.send("chouette names=Anna,Bruno,Carla,Dario")
        assert s.run_until(lambda _: pl.finished, 1000 * 1000)
        drops = [e for e in s.serial.events if e.get("ev") == "cube" and e.get("action") == "drop"]
        assert drops, "the planned game ends with the box's drop"
        s.run_ms(100)
        s.press("CUBE_W", hold_ms=1000)
        s.run_ms(300)
        assert s.serial.last("chouette_end") is not None, [e for e in s.serial.events[-6:]]
    finally:
        s.close()
        s.remove_flash()
