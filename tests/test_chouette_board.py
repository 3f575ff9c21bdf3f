"""A chouette at the board (companion.chouette_session): names over serial, the seating dice,
the OLED's box, captain and team, the team's answers member by member in the journal, a power
cut in the middle of a team decision, and the ledger."""
import os

from companion import journal as J
from companion import recovery
from companion import chouette_session as CS
from companion_helpers import Harness, ROLL_W, CUBE_W, ROLL_B, CUBE_B, LONG

SEATS = [(5, 1), (3, 1), (5, 1), (1, 1), (2, 1), (6, 1)]  # Anna 5 Bruno 3 Carla 5 Dario 1; Anna 2 Carla 6


def seated(tmp_path, rolls=(), cubes="common"):
    h = Harness(tmp_path, rolls=SEATS + list(rolls), openings=[(3, 1)])
    h.line("chouette names=Anna,Bruno,Carla,Dario cubes=%s" % cubes)
    assert h.c.phase == "seating"
    assert "Anna: ROLL 1 die" in h.screen()
    for _ in range(6):
        h.press(ROLL_W)
    return h


def records(h):
    return h.journal()[0]


def to_box_turn(h):
    """Opening 3-1 for the box (White), the team's 6-4: the box is on roll."""
    h.show()
    h.press(ROLL_W)  # opening roll
    h.move("w", 8, 5, show=False)
    h.move("w", 6, 5)
    h.press(ROLL_W)
    h.press(ROLL_B)  # the captain rolls 6-4 for the team
    h.move("b", 1, 7, show=False)
    h.move("b", 12, 16)
    h.press(ROLL_B)
    assert h.c.phase == "roll" and h.c.match.on_roll == 0


def to_box_double(h):
    """to_box_turn, then the box doubles (every member)."""
    to_box_turn(h)
    h.press(CUBE_W)
    if h.c.chouette.cubes == "several":
        assert h.c.box_pick is not None  # every member chosen to begin with: hold ROLL doubles them
        h.press(ROLL_W, LONG)


def test_seed_seating_by_one_die_each_and_the_oled_shows_box_captain_and_team(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4)])
    seats = h.events("seat")
    assert [(e["name"], e["die"]) for e in seats] == [("Anna", 5), ("Bruno", 3), ("Carla", 5), ("Dario", 1),
                                                    ("Anna", 2), ("Carla", 6)]
    ch = h.events("chouette")[-1]
    assert ch["line"] == ["Carla", "Anna", "Bruno", "Dario"] and ch["box"] == "Carla" and ch["captain"] == "Anna"
    assert [r["a"] for r in records(h)] == ["chouette"] + ["seat"] * 6 + ["cgame"]
    h.show()
    screen = h.c.fx.screen
    assert screen[0].startswith("Box Carla") and screen[1].startswith("Cpt Anna")
    assert screen[2] == "Bruno Dario"
    st = h.events("status")[-1]
    assert st["names"] == ["Carla", "Anna"] and st["chouette"]["line"] == ["Carla", "Anna", "Bruno", "Dario"]


def test_seed_one_cube_members_answer_alone_and_each_answer_is_journaled(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4)])
    to_box_double(h)
    assert h.c.phase == "doubled" and "Anna" in h.screen()
    h.press(ROLL_W)
    assert h.c.msg == "Anna to answer"
    h.press(ROLL_B)  # Anna takes
    h.press(CUBE_B)
    assert h.c.msg == "Hold CUBE to drop"
    h.press(CUBE_B, LONG)  # Bruno drops
    assert "Dario" in h.screen()
    h.press(ROLL_B)  # Dario takes
    answers = [(r["name"], r["take"]) for r in records(h) if r["a"] == "canswer"]
    assert answers == [("Anna", True), ("Bruno", False), ("Dario", True)]
    assert h.c.phase == "roll" and h.c.match.cube == 2 and h.c.match.cube_owner == 1
    assert h.events("status")[-1]["chouette"]["playing"] == ["Anna", "Dario"]
    # the box resigns a single game at 2; the team accepts
    h.press(CUBE_W, LONG)
    h.press(ROLL_W)
    h.press(ROLL_B)
    led = h.events("ledger")[-1]
    assert led["points"] == [["Carla", -3], ["Anna", 2], ["Bruno", -1], ["Dario", 2]]
    assert sum(p for _, p in led["points"]) == 0
    assert led["line"] == ["Anna", "Bruno", "Dario", "Carla"]  # the team won: the captain is box
    rec = [r for r in records(h) if r["a"] == "ledger"][-1]
    assert rec["points"] == led["points"] and rec["totals"] == [["Anna", 2], ["Bruno", -1], ["Carla", -3], ["Dario", 2]]
    assert h.c.phase == "gameover"
    assert h.c.fx.screen[0].startswith("Ledger")  # the ledger at the game's end
    assert h.c.fx.screen[1].startswith("Anna +2")
    h.press(ROLL_W)  # next game
    assert h.events("chouette")[-1]["box"] == "Anna" and h.c.phase == "board"


def test_power_cut_in_the_middle_of_a_team_decision_resumes_at_the_next_answer(tmp_path):
    src = seated(tmp_path / "src", rolls=[(6, 4)])
    to_box_double(src)
    src.press(ROLL_B)  # Anna takes
    src.press(CUBE_B, LONG)  # Bruno drops ... and the power goes
    text = open(os.path.join(src.dir, src.c.name)).read()
    lines = text.splitlines(keepends=True)
    for cut in (0, len(lines[-1]) // 2):  # after Bruno's answer; in the middle of writing it
        body = "".join(lines) if not cut else "".join(lines[:-1]) + lines[-1][:cut]
        d = tmp_path / ("b%d" % cut) / "journal"
        d.mkdir(parents=True)
        (d / "m0001.jnl").write_text(body)
        h = Harness(tmp_path / ("b%d" % cut), boot=False, rolls=[(2, 1)])
        h.white, h.black = list(src.white), list(src.black)
        h.c.boot(h.frame(), 0)
        boot = h.events("boot")[0]
        assert boot["resumed"]
        assert h.c.phase == "doubled"
        ch = h.c.chouette
        want = "Dario" if not cut else "Bruno"
        assert ch.to_answer() == want and "dropped line" in boot["note"] if cut else ch.to_answer() == want
        st = h.events("status")[-1]
        assert st["chouette"]["asking"] == want
        if cut:
            h.press(CUBE_B, LONG)  # Bruno drops again
        h.press(ROLL_B)  # Dario takes
        assert h.c.phase == "roll" and ch.playing == ["Anna", "Dario"]
        answers = [(r["name"], r["take"]) for r in J.parse(open(os.path.join(h.dir, "m0001.jnl")).read())[0]
                   if r["a"] == "canswer"]
        assert answers == [("Anna", True), ("Bruno", False), ("Dario", True)]


def test_several_cubes_a_member_doubles_over_serial_and_the_box_answers(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4), (5, 2), (4, 4)], cubes="several")
    to_box_double(h)  # the box doubles every member's cube
    h.press(ROLL_B)  # Anna takes
    h.press(ROLL_B)  # Bruno takes
    h.press(CUBE_B, LONG)  # Dario drops
    st = h.events("status")[-1]["chouette"]
    assert st["member_cubes"] == [["Anna", 2, 1], ["Bruno", 2, 1], ["Dario", 1, -1]]
    h.press(ROLL_W)  # the box rolls 5-2
    h.move("w", 13, 8, show=False)
    h.move("w", 13, 11)
    h.press(ROLL_W)
    h.line("cdouble Bruno")
    assert h.c.phase == "doubled" and h.c.chouette.doubler == "Bruno"
    h.press(CUBE_W, LONG)  # the box drops Bruno's redouble: Bruno wins 2 and is out
    assert h.c.phase == "roll" and h.c.chouette.playing == ["Anna"]
    assert [r for r in records(h) if r["a"] == "cbox"] == [{"a": "cbox", "take": False}]


def test_join_leave_and_cube_form_over_serial_between_games_only(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4)])
    h.line("leave Bruno")  # Bruno is in this game: he cannot walk away from his stake
    assert h.events("error")[-1]["error"] == "Bruno plays this game: drop or finish it first"
    h.line("join Elena")
    assert h.events("join")[-1]["line"][-1] == "Elena"
    h.line("cubes several")
    assert "Change cubes between games" in h.events("error")[-1]["error"]
    h.line("chouette names=A,B")
    assert "3 to 12 names" in h.events("error")[-1]["error"]
    h.line("ledger")
    assert h.events("ledger")[-1]["totals"] == [["Anna", 0], ["Bruno", 0], ["Carla", 0], ["Dario", 0], ["Elena", 0]]
    h.show()
    assert h.c.fx.screen[1].split() == ["Anna", "0"]  # an even balance reads 0, not +0


def test_chouette_from_the_menu_with_the_buttons(tmp_path):
    h = Harness(tmp_path)
    # CUBE walks down the menu (Length, Game, Auto double, Beavers, Jacoby, Own dice, Chouette)
    for _ in range(12):
        if "> Chouette" in h.screen():
            break
        h.press(CUBE_W)
    assert "> Chouette" in h.screen()
    h.press(ROLL_W)
    lines = h.screen().split("\n")
    assert any(l.startswith("> Chouette") and l.split()[-1] == "3" for l in lines), lines
    assert any(l.split()[:1] == ["Cubes"] and l.split()[-1] == "common" for l in lines), lines
    h.press(ROLL_W, LONG)
    assert h.c.phase == "seating" and h.c.chouette.players == ["P1", "P2", "P3"]


EIGHT = ["P%d" % i for i in range(1, 9)]


def test_seed_box_partner_over_serial_with_eight_players_shares_the_box_result(tmp_path):
    # P1..P8 roll 6 5 4 3 2 1 1 1; P6-P8 tie and roll 3 2 1: the line is P1..P8
    seats = [(d, 1) for d in (6, 5, 4, 3, 2, 1, 1, 1, 3, 2, 1)]
    h = Harness(tmp_path, rolls=seats, openings=[(3, 1)])
    h.line("chouette names=" + ",".join(EIGHT))
    for _ in range(len(seats)):
        h.press(ROLL_W)
    assert h.events("chouette")[-1]["line"] == EIGHT
    # the first game is set up but not rolled: the box may take a partner from this game on;
    # offered to the captain P2, then P8: P8 accepts
    h.line("partner accepts=0,1")
    assert h.events("partner")[-1]["partner"] == "P8"
    ev = h.events("chouette")[-1]
    assert ev["partner"] == "P8" and "P8" not in ev["playing"] and ev["captain"] == "P2"
    h.show()
    assert h.c.fx.screen[0].startswith("Box P1+P8")
    h.press(ROLL_W)  # opening 3-1: the box plays first; then it resigns a single game
    h.line("partner accepts=1")
    assert h.events("error")[-1]["error"] == "Partner: before the game"
    h.press(CUBE_W, LONG)
    h.press(ROLL_W)
    h.press(ROLL_B)
    led = h.events("ledger")[-1]
    assert led["line"][0] == "P2"  # the team won: the captain P2 is box
    assert dict(led["points"])["P1"] == -3 and dict(led["points"])["P8"] == -3  # box and partner share
    # offered to the captain P3 first, then backwards from the end of the line: P1 accepts
    h.line("partner accepts=no,yes")
    assert h.events("partner")[-1]["partner"] == "P1"
    assert [r for r in records(h) if r["a"] == "partner"][-1]["accepts"] == [False, True]
    h.press(ROLL_W)  # next game: P2 box with P1 as partner, P3 captain
    ev = h.events("chouette")[-1]
    assert "P1" not in ev["playing"] and ev["partner"] == "P1" and ev["captain"] == "P3"
    h.show()
    assert h.c.fx.screen[0].startswith("Box P2+P1")


def test_several_cubes_the_team_picks_with_the_buttons_which_member_doubles(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4), (5, 2)], cubes="several")
    to_box_double(h)
    for _ in range(3):
        h.press(ROLL_B)  # Anna, Bruno and Dario take: each owns a 2-cube
    h.press(ROLL_W)
    h.move("w", 13, 8, show=False)
    h.move("w", 13, 11)
    h.press(ROLL_W)
    assert h.c.phase == "roll" and h.c.match.on_roll == 1
    h.press(CUBE_B)
    assert h.c.msg == "Anna doubles x4?"  # the captain is offered first
    assert h.events("status")[-1]["chouette"]["picking"] == "Anna"
    h.press(CUBE_B)
    assert h.c.msg == "Bruno doubles x4?"
    h.press(CUBE_B, LONG)  # nobody doubles after all
    assert h.c.member_pick is None and h.c.phase == "roll"
    assert not [r for r in records(h) if r["a"] == "cdouble" and r["side"] == 1]
    h.press(CUBE_B)
    h.press(CUBE_B)
    h.press(CUBE_B)
    assert h.c.msg == "Dario doubles x4?"
    h.press(ROLL_B)
    assert [r for r in records(h) if r["a"] == "cdouble"][-1] == {"a": "cdouble", "side": 1, "name": "Dario"}
    assert h.c.phase == "doubled" and h.c.chouette.doubler == "Dario"


NINE = ["P%d" % i for i in range(1, 10)]


def test_seed_partner_by_lot_on_the_board_gives_every_member_but_the_captain_the_same_chance(tmp_path):
    # "scelto a sorte tra tutti i componenti della squadra ad esclusione del capitano": with nine
    # players seven candidates. The board's two dice over all 36 rolls: five each, and 6-6 rolls
    # again (one die modulo 7 never drew P9).
    seats = [(d, 1) for d in (6, 5, 4, 3, 2, 1, 1, 1, 1, 4, 3, 2, 1)]
    draws = []
    for a in range(1, 7):
        for b in range(1, 7):
            draws += [(a, b)] + ([(2, 3)] if (a, b) == (6, 6) else [])
    h = Harness(tmp_path, rolls=seats + draws, openings=[(3, 1)])
    h.line("chouette names=" + ",".join(NINE))
    for _ in range(len(seats)):
        h.press(ROLL_W)
    assert h.events("chouette")[-1]["line"] == NINE
    for _ in range(36):  # nobody accepts, 36 times over before the opening roll: one draw each
        h.line("partner")
    drawn = [e["partner"] for e in h.events("partner")]
    assert len(drawn) == 36
    assert {n: drawn.count(n) for n in NINE[2:]} == {n: 5 + (n == "P4") for n in NINE[2:]}  # 6-6 rolled 2-3 (P4)
    lots = [r["lot"] for r in records(h) if r["a"] == "partner"]
    assert sorted(set(lots)) == list(range(7))
    # the journal replays to the same partner
    ch = recovery.replay(J.parse(open(os.path.join(h.dir, h.c.name)).read())[0])
    assert ch.partner == drawn[-1]


def test_seed_one_cube_a_member_cannot_double_over_serial_only_the_captain(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4), (5, 2)])
    to_box_double(h)
    for _ in range(3):
        h.press(ROLL_B)  # all take: the team owns the 2-cube
    h.press(ROLL_W)
    h.move("w", 13, 8, show=False)
    h.move("w", 13, 11)
    h.press(ROLL_W)
    assert h.c.phase == "roll" and h.c.match.on_roll == 1
    cubes = len(h.events("cube"))
    h.line("cdouble Dario")
    assert h.events("error")[-1]["error"] == "Only the captain doubles"
    assert len(h.events("cube")) == cubes and h.c.phase == "roll"
    h.line("cdouble Anna")  # the captain
    ev = h.events("cube")[-1]
    assert ev["name"] == "Anna" and ev["action"] == "double" and h.c.phase == "doubled"


def test_seed_a_member_who_dropped_leaves_mid_game_over_serial(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4)])
    to_box_double(h)
    h.press(ROLL_B)  # Anna takes
    h.press(CUBE_B, LONG)  # Bruno drops: out of this game
    h.press(ROLL_B)  # Dario takes
    h.line("leave Bruno")
    assert h.events("leave")[-1]["line"] == ["Carla", "Anna", "Dario"]
    h.line("leave Dario")
    assert h.events("error")[-1]["error"] == "Dario plays this game: drop or finish it first"
    h.press(CUBE_W, LONG)  # the box resigns a single game at 2
    h.press(ROLL_W)
    h.press(ROLL_B)
    led = h.events("ledger")[-1]
    assert led["points"] == [["Carla", -3], ["Anna", 2], ["Dario", 2], ["Bruno", -1]]
    assert led["line"] == ["Anna", "Dario", "Carla"]
    h.line("join Bruno")  # he comes back at the end of the line
    assert h.events("join")[-1]["line"] == ["Anna", "Dario", "Carla", "Bruno"]


def test_seed_several_cubes_the_box_doubles_the_members_it_chooses_with_the_buttons(tmp_path):
    # "Il box può offrire il raddoppio ai singoli componenti della squadra"
    h = seated(tmp_path, rolls=[(6, 4), (5, 2)], cubes="several")
    to_box_turn(h)
    h.press(CUBE_W)
    assert h.c.msg == "Anna x2? yes\n3 of 3 ROLL:y/n" and h.c.phase == "roll"
    assert h.events("status")[-1]["chouette"]["box_chosen"] == ["Anna", "Bruno", "Dario"]
    h.press(CUBE_W)
    assert h.c.msg.startswith("Bruno x2? yes")
    h.press(ROLL_W)  # not Bruno
    assert h.c.msg == "Bruno x2? no\n2 of 3 ROLL:y/n"
    h.show()
    assert h.c.fx.screen[4:] == ["Bruno x2? no", "2 of 3 ROLL:y/n", "CUBE:next member", "hold ROLL:double"]
    assert h.events("status")[-1]["chouette"]["box_chosen"] == ["Anna", "Dario"]
    h.press(ROLL_B)
    assert h.c.msg == "The box chooses"
    h.press(ROLL_W, LONG)  # double Anna and Dario
    assert [r for r in records(h) if r["a"] == "cdouble"] == [{"a": "cdouble", "side": 0, "names": ["Anna", "Dario"]}]
    assert h.events("cube")[-1]["to"] == ["Anna", "Dario"]
    assert h.c.chouette.to_answer() == "Anna"
    h.press(ROLL_B)
    h.press(ROLL_B)  # Anna and Dario take; Bruno keeps his cube in the middle
    st = h.events("status")[-1]["chouette"]
    assert st["member_cubes"] == [["Anna", 2, 1], ["Bruno", 1, -1], ["Dario", 2, 1]]


def test_several_cubes_the_box_gives_up_choosing_with_cube_held(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4)], cubes="several")
    to_box_turn(h)
    h.press(CUBE_W)
    for _ in range(3):
        h.press(ROLL_W)
        h.press(CUBE_W)  # nobody chosen
    h.press(ROLL_W, LONG)
    assert h.c.msg == "Choose a member" and h.c.box_pick is not None
    h.press(CUBE_W, LONG)
    assert h.c.box_pick is None and h.c.phase == "roll"
    assert not [r for r in records(h) if r["a"] == "cdouble"]


def test_several_cubes_the_box_doubles_chosen_members_over_serial(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4)], cubes="several")
    h.line("boxdouble Anna")
    assert h.events("error")[-1]["error"] == "the box doubles before rolling, on its turn"
    to_box_turn(h)
    h.line("boxdouble Zed")
    assert h.events("error")[-1]["error"] == "No double to Zed"
    h.line("boxdouble names=Dario,Bruno")
    assert [r for r in records(h) if r["a"] == "cdouble"] == [{"a": "cdouble", "side": 0, "names": ["Bruno", "Dario"]}]
    assert h.c.chouette.asking == ["Bruno", "Dario"]


def test_one_common_cube_the_box_doubles_the_whole_team_over_serial(tmp_path):
    h = seated(tmp_path, rolls=[(6, 4)])
    to_box_turn(h)
    h.line("boxdouble Anna")
    assert h.events("error")[-1]["error"] == "one common cube: the box doubles the whole team"
    h.line("boxdouble")
    assert h.c.chouette.asking == ["Anna", "Bruno", "Dario"]
