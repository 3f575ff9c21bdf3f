"""The variant at the board: chosen in the new-match menu or with ``new variant=KEY``, its rules
flagged by name, its cube rule on the CUBE button, the journal naming it."""

from companion import journal as J
from companion_helpers import Harness, ROLL_W, CUBE_W, CUBE_B, LONG


def _journal(h):
    import os

    name = sorted(f for f in os.listdir(h.dir) if f.endswith(".jnl"))[-1]
    records, problem = J.parse(open(os.path.join(h.dir, name)).read())
    assert problem is None
    return records


def test_the_new_match_menu_chooses_the_variant(tmp_path):
    h = Harness(tmp_path, openings=[(3, 1)])
    assert h.c.phase == "setup"
    h.press(CUBE_W)  # Length -> Game
    h.press(ROLL_W)  # standard -> nackgammon
    h.press(ROLL_W)  # -> hypergammon
    assert h.c.settings["rules"] == "hypergammon"
    h.press(ROLL_W, LONG)  # start
    assert h.c.match is not None and h.c.match.rules.key == "hypergammon"
    assert _journal(h)[0]["rules"] == "hypergammon"


def test_serial_new_with_a_variant_and_a_bad_one(tmp_path):
    h = Harness(tmp_path)
    h.line("new length=3 variant=tavla")
    errors = h.events("error")
    assert errors and "unknown rules 'tavla'" in str(errors[-1])
    assert h.c.match is None or h.c.match.rules.key == "standard"
    h.line("new length=3 variant=oldbritain force=1")
    assert h.c.match.rules.key == "oldbritain"


def test_old_britain_a_sixth_checker_on_a_point_is_refused_at_done(tmp_path):
    # The sensors see five cells and a stack on the 6 point, not how high the stack is: the
    # sixth checker reads as a checker still in the hand until DONE, which refuses the play.
    h = Harness(tmp_path, openings=[(2, 1)])
    h.line("new length=3 variant=oldbritain")
    h.show()
    h.press(ROLL_W)  # the opening: white 2, black 1: white plays 2-1
    h.clear()
    h.move("w", 8, 6)
    h.move("w", 24, 23)
    h.press(ROLL_W)  # DONE
    done = [e for e in h.events("illegal") if e["at"] == "done"]
    assert done, h.events()
    assert h.c.match.on_roll == 0 and h.c.match.phase == "play"  # still white's 2-1
    # The same play is legal in the standard game: the refusal is Old Britain's limit.
    h2 = Harness(tmp_path / "std", openings=[(2, 1)])
    h2.line("new length=3")
    h2.show()
    h2.press(ROLL_W)
    h2.move("w", 8, 6)
    h2.move("w", 24, 23)
    h2.press(ROLL_W)
    assert h2.c.match.on_roll == 1


def test_old_britain_has_no_cube(tmp_path):
    h = Harness(tmp_path, openings=[(2, 1)])
    h.line("new length=3 variant=oldbritain")
    h.show()
    m = h.c.match
    assert m.double_refusal(0) in ("No double before opening", "No cube in Old Britain")
    h.press(ROLL_W)
    h.move("w", 13, 11, show=False)
    h.move("w", 6, 5)
    h.press(ROLL_W)  # DONE
    assert m.on_roll == 1 and m.phase == "roll"
    h.clear()
    h.press(CUBE_B)
    assert m.phase == "roll"  # not doubled
    assert m.double_refusal() == "No cube in Old Britain"
