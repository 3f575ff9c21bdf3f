"""The sim harness and the scenario runner against a tiny stand-in firmware (the real drivers and
journal, a trivial controller): what a power cut keeps and loses, torn journal lines, reading the
OLED and the LEDs back as a player sees them, scenario parse errors and failure reports."""

import io
import json
import sys

import pytest

from bgc.board import scenario, sim as simmod

FAKE_MAIN = r'''
from drivers.hall import HallScanner
from drivers.classify import Classifier, EMPTY
from drivers.buttons import Buttons, ROLL_W, SHORT, button_of, kind_of
from drivers.leds import Leds, LEGAL, TURN
from drivers.oled import Oled
from companion.journal import Journal

BOOTS = [0]  # RAM: a power cut must wipe it


class App:
    def __init__(self, journal_dir, serial, dice):
        BOOTS[0] += 1
        self.scanner = HallScanner()
        self.cl = Classifier()
        self.buttons = Buttons()
        self.leds = Leds()
        self.oled = Oled()
        self.serial = serial
        self.dice = dice
        self.journal = Journal(journal_dir + "/m0001.jnl")
        records, problem = self.journal.read()
        self.rolls = len(records)
        self.last = ""
        serial.write_line('{"ev": "boot", "boots": %d, "records": %d, "note": "%s"}' % (
            BOOTS[0], len(records), "torn" if problem else ""))

    def step(self, now):
        line = self.serial.read_line()
        if line == "status":
            self.serial.write_line('{"ev": "status", "rolls": %d}' % self.rolls)
        self.cl.update(self.scanner.scan())
        ev = self.buttons.poll(now)
        while ev:
            if button_of(ev) == ROLL_W and kind_of(ev) == SHORT:
                a, b = self.dice.roll()
                self.journal.append({"a": "roll", "p": 0, "dice": [a, b]})
                self.rolls += 1
                self.last = "Dice: %d-%d" % (a, b)
                self.serial.write_line('{"ev": "roll", "p": 0, "dice": [%d, %d]}' % (a, b))
            ev = self.buttons.poll(now)
        self.leds.clear()
        for p in range(1, 25):
            for k in range(5):
                if self.cl.state[5 * (p - 1) + k] != EMPTY:
                    self.leds.point(p, LEGAL)
                    break
        self.leds.status(True, TURN)
        self.leds.show()
        self.oled.lines(["Fake firmware", self.last, "Rolls: %d" % self.rolls])


def build(journal_dir="/journal", serial=None, dice=None, buzzer=True):
    return App(journal_dir, serial, dice)
'''


@pytest.fixture
def fake(tmp_path, monkeypatch):
    code = tmp_path / "code"
    code.mkdir()
    (code / "fake_main.py").write_text(FAKE_MAIN)
    monkeypatch.syspath_prepend(str(code))
    s = simmod.Sim(flash_dir=str(tmp_path / "flash"), seed=3, firmware_main="fake_main", setup="empty")
    yield s
    s.close()


def test_press_rolls_journals_and_shows_the_dice(fake):
    fake.dice.force(6, 4)
    fake.press("ROLL_W")
    fake.run_ms(50)
    assert fake.serial.last("roll")["dice"] == [6, 4]
    records, problem = fake.journal_records()
    assert problem is None and records == [{"a": "roll", "p": 0, "dice": [6, 4]}]
    rows = fake.oled_rows()
    assert rows[0] == "Fake firmware" and rows[1] == "Dice: 6-4" and rows[2] == "Rolls: 1"


def test_leds_follow_the_checkers_a_hovering_hand_is_not_a_checker(fake):
    fake.board.place(5 * 17, simmod.WHITE)  # point 18
    fake.run_ms(100)
    assert simmod.point_led(fake.board, 18) == "LEGAL"
    assert simmod.lit_points(fake.board, "LEGAL") == [18]
    fake.lift(18)
    fake.hover(20, 20.0)
    fake.run_ms(200)
    assert simmod.lit_points(fake.board, "LEGAL") == []
    fake.place(20)
    fake.run_ms(100)
    assert simmod.lit_points(fake.board, "LEGAL") == [20]
    assert simmod.led_name(fake.board.leds[simmod.LED_STATUS_WHITE]) == "TURN"


def test_powercut_wipes_ram_keeps_flash_and_the_board(fake):
    fake.board.place(0, simmod.BLACK)
    fake.press("ROLL_W")
    fake.press("ROLL_W")
    fake.run_ms(100)
    assert fake.serial.last("boot")["boots"] == 1
    fake.powercut()
    # Power just came back: the chain is dark and the panel blank until the firmware draws.
    assert all(rgb == (0, 0, 0) for rgb in fake.board.leds)
    boot = fake.serial.last("boot")
    assert boot["boots"] == 1, "module state survived the power cut"
    assert boot["records"] == 2 and boot["note"] == ""
    assert fake.board.count(0) == 1
    fake.run_ms(100)
    assert fake.oled_rows()[2] == "Rolls: 2"
    assert simmod.point_led(fake.board, 1) == "LEGAL"


def test_powercut_in_the_middle_of_a_journal_write_tears_only_that_line(fake):
    fake.dice.force(3, 1)
    fake.press("ROLL_W")
    fake.dice.force(5, 2)
    fake.arm_powercut(after_bytes=12)
    fake.press("ROLL_W")
    assert fake.powercuts == 1
    records, problem = fake.journal_records()
    assert records == [{"a": "roll", "p": 0, "dice": [3, 1]}]
    assert problem is not None and problem[0] == 2
    assert fake.serial.last("boot")["note"] == "torn"


def test_serial_commands_reach_the_firmware(fake):
    fake.serial.send("status")
    fake.run_ms(20)
    assert fake.serial.last("status") == {"ev": "status", "rolls": 0}


def test_oled_reader_reads_inverse_text_and_marks_graphics(fake):
    fake.run_ms(20)
    fake.app.oled.text(4, 2, "Legal", inverse=True)
    fake.app.oled.bar(6, 0.5)
    fake.app.oled.fb.show()
    rows = simmod.oled_rows(fake.board)
    assert rows[4] == "  Legal"
    assert "#" in rows[6]


def test_led_names_match_the_drivers_colours_at_their_brightness():
    assert simmod.led_name((0, 64, 0)) == "LEGAL"
    assert simmod.led_name((64, 0, 0)) == "ILLEGAL"
    assert simmod.led_name((0, 24, 64)) == "LIFTED"
    assert simmod.led_name((64, 40, 0)) == "TURN"
    assert simmod.led_name((40, 0, 64)) == "HINT"
    assert simmod.led_name((0, 0, 0)) == "OFF"
    assert simmod.led_name((10, 64, 60)).startswith("rgb(")


# ------------------------------------------------------------------ scenarios on the stand-in
SCRIPT = """\
# a comment line
setup empty
dice 6 4
press white roll
expect oled "Dice: 6-4"
expect event roll dice=[6,4] p=0
expect journal roll 6 4
expect no event roll
"""


def test_scenario_runs_and_passes(fake):
    out = io.StringIO()
    assert scenario.run_text(SCRIPT, fake, out=out, verbose=True)
    assert "script:4: press white roll" in out.getvalue()


def test_scenario_reports_the_first_unmet_expectation_with_its_line(fake):
    text = SCRIPT + "timeout 300\nexpect oled \"Dice: 1-1\"\nexpect oled \"never reached\"\n"
    with pytest.raises(scenario.ExpectationFailed) as err:
        scenario.run_text(text, fake, source="t.bgs")
    msg = str(err.value)
    assert msg.startswith("t.bgs:10: expectation not met: expect oled \"Dice: 1-1\"")
    assert "|Dice: 6-4" in msg  # what the screen shows instead


def test_scenario_led_expectations(fake):
    text = """
setup empty
wait 100
expect lit LEGAL none
expect led status-white TURN
timeout 200
expect led 5 LEGAL
"""
    with pytest.raises(scenario.ExpectationFailed) as err:
        scenario.run_text(text, fake)
    assert "script:7:" in str(err.value) and "shows off, not green" in str(err.value)


def test_scenario_powercut_in_a_write(fake):
    text = """
setup empty
dice 2 1
press white roll
powercut write 5
press white roll
expect event boot note=torn
expect journal roll 2 1
expect no journal roll 2 1
"""
    assert scenario.run_text(text, fake)
    assert fake.powercuts == 1


@pytest.mark.parametrize("line,words", [
    ("lift 25", "is not a point"),
    ("lift bar", "needs the colour"),
    ("place 30", "is not a point"),
    ("dice 7 1", "a die must be 1..6"),
    ("press white jump", "no button"),
    ("press white roll twice", "press ... long"),
    ("expect led 3 PINK", "LED colour 'PINK'"),
    ("expect event illegal reason", "expected key=value"),
    ("expect oled", "usage: expect [no] oled"),
    ("fly 3", "unknown action 'fly'"),
    ("setup 4HPwATDgc/AB", "Position ID has 14 characters"),
    ("send {not json", "not a JSON line"),
    ('expect oled "open quote', "cannot read the line"),
    ("wait soon", "must be a whole number"),
])
def test_parse_errors_name_the_line(line, words):
    with pytest.raises(scenario.ScenarioSyntaxError) as err:
        scenario.parse("setup start\n\n" + line + "\n", source="x.bgs")
    assert str(err.value).startswith("x.bgs:3: ")
    assert words in str(err.value)


def test_parse_points_in_both_numberings():
    steps = scenario.parse("lift b24\nplace 18\nlift bar black\nplace off\nexpect lit LEGAL b1 3\n")
    assert steps[0].args == (1, None)
    assert steps[1].args == (18,)
    assert steps[2].args == ("bar", simmod.BLACK)
    assert steps[3].args == ("off",)
    assert steps[4].args == ("LEGAL", [3, 24])


# The starts as the rules texts set them out, counted on the board in White's numbering (board
# points 1-24): the standard game's (seed 000: two on the 24 point, five on the 13, three on the 8,
# five on the 6, Black the mirror), and Long Nardy's ("point 24 is White's head and point 12 is
# Black's head", Wikipedia "Long Nardy": each side's fifteen on its head, diagonally opposite).
TEXT_STARTS = {
    "standard": ({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}),
    "longnardy": ({24: 15}, {12: 15}),
    "fevga": ({24: 15}, {12: 15}),
}


@pytest.mark.parametrize("key", sorted(TEXT_STARTS))
def test_the_sim_sets_out_the_games_own_start_on_its_own_track(key, tmp_path):
    from bgc.board.virtual.view import board_counts
    from bgrules.rules import ruleset

    s = simmod.Sim(flash_dir=str(tmp_path / "flash"), boot=False, rules=ruleset(key))
    try:
        w, b = board_counts(s.board)
    finally:
        s.close()
    white, black = TEXT_STARTS[key]
    assert {p: w[p] for p in range(1, 25) if w[p]} == white
    assert {p: b[p] for p in range(1, 25) if b[p]} == black


def test_bgc_sim_demo_without_a_flash_folder_keeps_the_journal_it_names(tmp_path):
    """`bgc sim --demo` ends with "Journal: PATH" (bgc replay / bgc export read it): without
    --flash that path is in a temporary folder of its own, which the run leaves for the player
    (a Sim's own temporary flash, made by a test, is removed when the process ends)."""
    import os
    import subprocess

    from companion import journal as J

    env = dict(os.environ, TMPDIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "bgc", "sim", "--demo", "--fast", "--quiet", "--seed", "2"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    journal = r.stdout.split("Journal: ", 1)[1].split()[0]
    assert journal.startswith(str(tmp_path)) and journal.endswith(".jnl")
    with open(journal) as f:
        records, problem = J.parse(f.read())
    assert problem is None and [r for r in records if r["a"] == "end"]  # the whole match is there
