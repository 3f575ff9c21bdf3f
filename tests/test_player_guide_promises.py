"""Each promise docs/player-guide.md makes to a player is walked on the virtual board by a
scenario (tests/scenarios/*.bgs, run by tests/test_sim_scenarios.py) or, for menus and match
rules with no sensing in them, by a named companion test. A promise added to the guide without
one, a scenario that goes missing, or a promise whose words change fails here: the corners a
player finds first (issue 11: a blocked five-point, the bear-off's last checker) hide where the
guide promises something no scenario ever tried."""

import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
GUIDE = os.path.join(os.path.dirname(HERE), "docs", "player-guide.md")

# words of the guide -> what walks them ("name" = tests/scenarios/name.bgs, "file::test" = a test)
PROMISES = {
    # the set-up check
    "Red LEDs show points that are wrong": ["setup_wrong_point"],
    "`Black: 1 missing on 13`": ["setup_wrong_point"],
    "The game\nstarts by itself once the board is right": ["setup_wrong_point"],
    # the table of buttons
    "a tie is shown and rolled again": ["opening_tie"],
    "the higher die plays both numbers": ["opening_tie"],
    "roll the dice (a player closed out on the bar passes instead)": ["closed_out"],
    "double (the screen says why not, e.g. `Crawford game: no doubling`)": [
        "cube_take", "test_companion_game.py::test_crawford_game_shows_and_refuses_doubles"],
    "| take |": ["cube_take"],
    "beaver (raccoon, otter) where agreed": ["test_companion_game.py::test_beaver_in_money_play"],
    "drop (a short CUBE press never drops)": ["cube_drop"],
    "end the turn": ["done_incomplete"],
    "accept the illegal play as it stands": ["condone"],
    "resign: CUBE press cycles single / gammon / backgammon": ["resign"],
    "next game (set up the start position)": ["test_companion_game.py::test_game_end_scores_and_crawford"],
    # moving the checkers
    "**Lift a checker**": ["lift_lights_destinations", "bear_off", "bear_off_last_checker",
                           "bear_off_last_checker_black", "bear_off_last_checker_ace"],
    "**Put it down**": ["illegal_placement", "blocked_point", "crowded_point_blocked",
                        "crowded_point_blocked_white"],
    "a point the opponent holds with five or more": ["crowded_point_blocked", "crowded_point_blocked_white"],
    "a hand hovering and a checker slid across the\n  points are never judged": [
        "hover_slide_not_judged", "hover_over_crowded_point"],
    "**Hitting**": ["hit_to_bar", "test_companion_sensing.py::test_taking_the_blot_off_first_is_not_flagged"],
    "**Checkers you do not see**": [
        "done_checker_in_hand", "test_companion_sensing.py::test_bearing_off_with_a_checker_outside_is_refused_with_the_rule"],
    "**A checker too many**": ["test_companion_sensing.py::test_a_checker_too_many_is_told_where_not_counted"],
    "**Bearing off**": ["bear_off", "game_end", "crowded_point_own"],
    "**DONE** checks the whole play": ["done_incomplete"],
    "**No legal move**": ["no_legal_move"],
    "**Which one?**": ["which_one", "which_one_cube"],
    "## Power cuts": ["powercut_mid_turn"],
    "it counts once you have let it\ngo": [
        "test_evening_board.py::test_a_drop_held_through_a_power_cut_is_not_taken_again_at_boot"],
    # a full flash (issue 22)
    "`Flash low: pull logs`": ["test_evening_micropython.py::test_flash_low_is_shown_before_the_last_tenth_goes",
                               "test_companion_journal_resume.py::test_low_flash_removes_oldest_exported_logs_first"],
    "nothing is refused while the flash\n  holds a log your PC already has": [
        "test_evening_micropython.py::test_a_full_flash_never_refuses_an_action_while_an_exported_log_is_there"],
    "**Flash write failed.**": [
        "test_evening_micropython.py::test_flash_write_failed_when_nothing_is_left_to_remove_leaves_the_match_as_it_was"],
    "is renamed\n  `/journal.file`, kept": [
        "test_evening_board.py::test_a_file_where_the_journal_folder_goes_is_kept_aside_and_the_board_journals"],
}


def _guide():
    with open(GUIDE) as f:
        return f.read()


def test_every_promise_quoted_is_still_in_the_guide_and_walked():
    text = _guide()
    for words, walks in PROMISES.items():
        assert words in text, "the guide no longer says %r: update the promise and its scenario" % words
        assert walks, words
        for w in walks:
            if "::" in w:
                path, name = w.split("::")
                with open(os.path.join(HERE, path)) as f:
                    assert "def %s(" % name in f.read(), w
            else:
                assert os.path.exists(os.path.join(HERE, "scenarios", w + ".bgs")), w


def test_every_bullet_of_moving_the_checkers_has_a_walk():
    text = _guide()
    section = text.split("## Moving the checkers", 1)[1].split("\n## ", 1)[0]
    heads = re.findall(r"^- (\*\*[^*]+\*\*)", section, re.M)
    assert len(heads) >= 8
    for head in heads:
        assert any(k.startswith(head) for k in PROMISES), "no scenario walks %s" % head
