"""Issue 22 on the virtual board (the real firmware, bgc.board.sim): a button held through a power cut
does not fire again at boot, and a file where the journal folder goes is kept aside while the
board journals as usual (also through ``bgc sim --flash DIR``)."""
import os

from bgc import cli
from bgc.board import sim as simmod
from bgrules import Position

from test_drivers_io import board, run_buttons  # noqa: F401 (board: the virtual board fixture)


def test_a_button_held_at_power_up_counts_only_once_it_was_seen_released(board):
    from drivers import buttons as B

    board.button("CUBE_B", True)  # held as the board comes back
    btn = B.Buttons(long_ms=800)
    assert run_buttons(btn, board, 1500) == []  # no long press from a hold that began before boot
    board.button("CUBE_B", False)
    assert run_buttons(btn, board, 100) == []  # and its release is no short press either
    board.button("CUBE_B", True)
    run_buttons(btn, board, 100)
    board.button("CUBE_B", False)
    assert [B.name(e) for e in run_buttons(btn, board, 100)] == ["CUBE_B short"]  # the next press counts


def test_a_drop_held_through_a_power_cut_is_not_taken_again_at_boot(tmp_path):
    """Black drops White's double by holding CUBE; the power goes while the button is still held
    and comes back with it held. The board resumes at the game's end: the hold is not a second
    long press (at the game's end that would leave the match for the new-match menu)."""
    s = simmod.Sim(flash_dir=str(tmp_path / "flash"), seed=3, boot=False)
    try:
        s.resume_at(Position.start(), on_roll=0, length=3)
        s.boot()
        s.run_until(lambda x: (x.status() or {}).get("phase") == "roll", 3000)
        s.press("CUBE_W")  # White doubles
        assert s.status()["phase"] == "doubled"
        s.board.button("CUBE_B", True)
        assert s.run_until(lambda x: x.status()["phase"] == "gameover", 2000)  # dropped at 800 ms
        s.run_ms(100)
        s.powercut(off_ms=300)  # the button stays held through the cut
        s.run_ms(1500)
        s.board.button("CUBE_B", False)
        s.run_ms(200)
        st = s.status()
        assert st["phase"] == "gameover" and st["score"] == [1, 0], st
        # (the menu sends no status: what the firmware shows and holds)
        assert s.app.companion.phase == "gameover" and "ROLL: next game" in "\n".join(s.oled_rows())
    finally:
        s.close()


def test_a_file_where_the_journal_folder_goes_is_kept_aside_and_the_board_journals(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "journal").write_text("a note somebody copied onto the Pico\n")
    s = simmod.Sim(flash_dir=str(flash), seed=3)
    try:
        s.run_ms(100)
        s.serial.send("new length=1")
        s.run_ms(500)
        notes = [e["text"] for e in s.serial.events if e.get("ev") == "note"]
        assert any("kept as" in n and "journal.file" in n for n in notes), notes
        assert (flash / "journal.file").read_text() == "a note somebody copied onto the Pico\n"
        assert (flash / "journal").is_dir()
        records, problem = s.journal_records()
        assert problem is None and records[0]["a"] == "match"
    finally:
        s.close()


def test_bgc_sim_takes_such_a_flash_as_it_is(tmp_path, capsys):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "journal").write_text("not a folder\n")
    script = tmp_path / "s.txt"
    script.write_text("send new length=1\nwait 300\nexpect journal match\n")
    code = cli.main(["sim", "--flash", str(flash), "--script", str(script)])
    out = capsys.readouterr()
    assert code in (0, None), out.err
    assert "File exists" not in out.err
    assert (flash / "journal.file").read_text() == "not a folder\n"
    assert any(n.startswith("m0001.jnl") for n in os.listdir(flash / "journal"))


def test_the_words_of_a_refusal_go_at_the_next_collection_and_come_back_for_the_next_refusal(tmp_path):
    """Why a play is refused is worked out by bgrules.turn_why, loaded only then; it goes with
    the firmware's next collection like the other once-only modules (main.ONCE_ONLY), so a
    refused DONE early in the evening does not keep it in the heap for the rest of it."""
    import sys

    s = simmod.Sim(flash_dir=str(tmp_path / "flash"), seed=3, boot=False)
    try:
        s.resume_at(Position.start(), on_roll=0, length=3)
        s.boot()
        s.run_until(lambda x: (x.status() or {}).get("phase") == "roll", 3000)
        s.dice.force(3, 1)
        s.press("ROLL_W")
        assert s.run_until(lambda x: x.status()["phase"] == "moving", 2000)
        s.press("ROLL_W")  # DONE without moving: refused
        s.run_ms(200)
        first = s.serial.last("illegal")
        assert first is not None and first["at"] == "done" and "bgrules.turn_why" in sys.modules, first
        s.main.unload(s.main.ONCE_ONLY)  # what App.collect drops (gc.mem_alloc is MicroPython's)
        assert "bgrules.turn_why" not in sys.modules
        s.serial.events.clear()
        s.press("ROLL_W")  # refused again, with the same words
        s.run_ms(200)
        again = s.serial.last("illegal")
        assert again is not None and again["reason"] == first["reason"], again
    finally:
        s.close()
        s.remove_flash()
