"""A reason is one line wherever it is printed (issue 29): the serial event, `bgc watch`'s event
text, the demo's story and `bgc replay`'s journal text all carry the words the rules engine gives
(`Turn.check`, the tracker); only the OLED wraps them, over its 16-character lines
(`companion.display.split`, at a space). A line break written into a reason for the OLED's sake
turned up in the middle of every other text: `illegal (Extra checker on` / `board: lift it)`."""

from bgc import cli
from bgc.board import players as P
from bgc.board import sim as simmod
from bgc.pico.events import describe
from bgrules import Position, Turn

START = Position.start()


def _extra_checker(cells_index):
    final = START.copy()
    final.cells[cells_index] += 1
    return final


def test_every_reason_the_rules_give_is_one_line_and_the_oled_wraps_it_in_two():
    """The rule: a reason has no line break; the screen's two message lines come from the OLED's
    own wrapping, at a space, each within 16 characters. `bgc replay`'s journal text of an illegal
    play takes its reason from the same `Turn.check` (bgc.logs.journals.action_text)."""
    from companion import display

    boards = [
        (Turn(START, 6, 4), _extra_checker(10), ("Extra checker on", "board: lift it")),  # a 16th White
        (Turn(START, 6, 4, names=("Ann", "Bob")), _extra_checker(26 + 10), ("Extra Bob", "checker: lift it")),
        (Turn(START, 6, 4, names=("Ann", "Bartholomew Longname")), _extra_checker(26 + 10),
         ("Extra Bartholome", "checker: lift it")),  # the name cut to fill the first line
    ]
    for turn, final, lines in boards:
        reason = turn.check(final)
        assert "\n" not in reason, reason
        m1, m2 = display.split(reason)
        assert (m1.strip(), m2) == lines and len(m1) <= display.W and len(m2) <= display.W, (m1, m2)


class _HandsThatAddACheckerAndStop(P.Players):
    """The demo's automated players, but once White is to move a checker from outside the game is
    put on White's 20 point (the board flags it), and the demo stops there."""

    added = False

    def tick(self, sim):
        st = sim.status() or {}
        if self.added:
            self.finished = self.finished or sim.serial.last("illegal") is not self.before
        elif st.get("phase") == "moving" and st.get("on_roll") == 0 and sim.board.hand is None and not self.queue:
            self.before = sim.serial.last("illegal")
            sim.take_waiting(simmod.WHITE)
            sim.place(20)
            self.added = True
            return
        super().tick(sim)


def test_the_demo_story_and_the_watch_text_tell_an_extra_checker_on_one_line(monkeypatch, capsys):
    monkeypatch.setattr(P, "Players", _HandsThatAddACheckerAndStop)
    seen = []
    real_sim = simmod.Sim

    def sim_that_keeps_its_events(*args, **kwargs):
        s = real_sim(*args, **kwargs)
        s.serial.listeners.append(seen.append)
        return s

    monkeypatch.setattr(simmod, "Sim", sim_that_keeps_its_events)
    cli.main(["sim", "--demo", "--fast", "--seed", "3"])  # stopped by the stand-in: "did not finish"
    out = capsys.readouterr().out
    illegal = [ev for ev in seen if ev.get("ev") == "illegal" and ev["board_point"] == 20 and ev["p"] == 0]
    assert illegal and illegal[0]["reason"] == "Extra checker on board: lift it", illegal
    # the serial event and bgc watch's text of it
    assert describe(illegal[0], {"names": ["White", "Black"]}) == "ILLEGAL: Extra checker on board: lift it"
    # the demo's story: the reason inside its line, not broken over two
    story = [line.strip() for line in out.splitlines()]
    assert "White: illegal (Extra checker on board: lift it), red LED on point 20" in story, out
    assert not [line for line in story if line.startswith("board: lift it")], out

