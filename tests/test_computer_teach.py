"""The computer as a teacher, its advice and take-back in whole matches on the virtual board
(`bgc sim --computer ... --teach`): the automated hands play the person's side and now and then take
their last play back; the teacher's words after each of the person's plays and cube decisions
carry the numbers `bgc analyze` gives afterwards for the journal (GNU Backgammon's marks and
thresholds: a word only beyond "doubtful"); the journal keeps the plays taken back, and the exports
show the game as finally played, as the gnubg program reads them back; the advice is GNU
Backgammon's own best play for the roll, as its engine (PyPI gnubg-nn) ranks it."""

import json
import os

import pytest

from bgc import cli
from bgc.board import players as P
from bgc.board import sim as simmod
from bgc.board.computer import at_sim, computer_name
from bgc.logs import analysis, export, journals

needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")
SIDE = 1  # GNU Backgammon plays Black; the hands play White, the person
PERSON = 1 - SIDE


@pytest.fixture(scope="module")
def taught_match(tmp_path_factory):
    if analysis.engine_version() is None:
        pytest.skip("PyPI gnubg missing")
    sim = simmod.Sim(seed=4)
    comp = at_sim(sim, SIDE, "expert", teach=True)
    try:
        hands = P.Players(sim, seed=4, handling=P.Handling(illegal=0.1), computer=SIDE, take_backs=0.3)
        gnu = computer_name("expert")
        sim.serial.send({"cmd": "new", "length": 3, "names": ["You", gnu]})
        while not hands.finished and sim.board.clock.ms < 3 * 3600 * 1000:
            sim.step()
        assert sim.serial.last("match_end") is not None, (sim.status() or {}).get("phase")
        assert hands.stats["false_illegal"] == 0, hands.false_flags
        path = tmp_path_factory.mktemp("taught") / "m0001.jnl"
        with open(sim.journal_path()) as f:
            path.write_text(f.read())
        events = list(sim.serial.events)
        return comp, hands, str(path), events
    finally:
        comp.close()
        sim.close()


def expected_words(rec):
    """What docs/player-guide.md says the OLED says after a decision, from `bgc analyze --json`'s
    record: the mark, the equity lost and the better choice; nothing without a mark."""
    c = rec.get("cube") or {}
    if c.get("mark"):
        other = {"no double": "double", "double": "no double", "take": "pass", "pass": "take"}[c["action"]]
        return "%s -%.3f: %s" % (c["mark"].capitalize(), c["error"], other)
    if rec["kind"] == "move" and rec.get("mark"):
        return "%s -%.3f: %s" % (rec["mark"].capitalize(), rec["loss"], rec["best"])
    return None


@needs_engine
def test_the_teachers_words_are_the_numbers_bgc_analyze_gives_for_the_journal(taught_match, capsys):
    comp, hands, path, events = taught_match
    assert hands.stats["take_backs"] > 0  # the analysis is of the game as finally played
    assert cli.main(["analyze", path, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    ours = [(number, words) for _, number, _, words in sorted(comp.teacher.told, key=lambda t: t[0])]
    theirs = [(g["number"], expected_words(r)) for g in result["games"] for r in g["records"]
              if r["player"] == PERSON]
    assert ours == theirs
    said = [w for _, w in ours if w]
    # each sent to the board (`gnu tell`), which took every one
    assert said and all(w in comp.notes for w in said)
    assert not [e for e in events if e["ev"] == "error" and "gnu" in (e.get("line") or "")]
    assert any(w.split()[0] in ("Bad", "Doubtful", "Very") for w in said)


@needs_engine
def test_a_taken_back_play_stays_in_the_journal_and_the_exports_show_the_game_as_finally_played(taught_match, tmp_path,
                                                                                                capsys):
    comp, hands, path, events = taught_match
    with open(path) as f:
        records = [journals.journal.decode(line.encode()) for line in f.read().splitlines() if line.strip()]
    backs = [r for r in records if r["a"] == "back"]
    assert len(backs) == hands.stats["take_backs"] and all(r["p"] == PERSON for r in backs)
    log = journals.load(path)
    assert log.problem is None and log.complete
    taken = [x for g in log.games for x in g.taken_back]
    assert len(taken) == len(backs) and all(t[0]["a"] == "move" and t[0]["p"] == PERSON for t in taken)
    # every play the board accepted is in the journal; the log keeps those that stand
    plays = [r for r in records if r["a"] == "play"]
    assert len(plays) == sum(len(g.moves) for g in log.games) + sum(
        sum(1 for a in t if a["a"] == "move") for t in taken)
    # bgc replay names them apart from the games as finally played
    assert cli.main(["replay", path, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "%d play%s taken back against the computer" % (len(backs), "" if len(backs) == 1 else "s") in out
    assert all("line %d: You " % t[0]["line"] in out for t in taken)
    files = []
    for fmt in ("mat", "sgf"):
        text, warnings = export.export_text(log, fmt)
        assert warnings == []
        out = tmp_path / ("taught." + fmt)
        out.write_text(text)
        files.append(str(out))
    if export.find_gnubg() is None:
        pytest.skip("the gnubg program is not installed")
    for f, d in zip(files, export.gnubg_read(files)):
        assert export.gnubg_warnings(d["output"]) == [], f
        checked, diffs = export.compare(log, d["match"], d["walks"])
        assert diffs == [], (f, diffs[:5])
        assert checked["moves"] == sum(len(g.moves) for g in log.games)


@needs_engine
def test_the_advice_is_the_play_gnu_backgammons_analysis_marks_best():
    from bgrules import Position
    from bgc.logs.gnubg_player import final_id

    sim = simmod.Sim(seed=6)  # White (the person) opens 5-1
    comp = at_sim(sim, SIDE, "expert")
    try:
        sim.serial.send({"cmd": "new", "length": 1, "names": ["You", computer_name("expert")]})
        sim.run_ms(300)
        sim.setup_start()
        sim.run_ms(300)
        sim.press("ROLL_W")
        sim.run_ms(300)
        st = sim.status()
        assert st["phase"] == "moving" and st["on_roll"] == PERSON and st["dice"] == [5, 1]
        sim.press("ROLL_W", hold_ms=1000)  # held: advice, not DONE
        sim.run_ms(300)
        ask = sim.serial.last("advice")
        assert ask is not None and ask["p"] == PERSON and sim.status()["phase"] == "moving"
        d = comp.hints[-1][1]
        assert "Hint " + d.text in " ".join(sim.oled_rows())
        assert simmod.lit_points(sim.board, "GNU_FROM") and simmod.lit_points(sim.board, "GNU_TO")
        # the person plays the advice; GNU Backgammon's analysis of the journal marks it best
        sim.setup_position(Position.from_id(final_id(st["pos"], d.steps)), P.colour_of(PERSON))
        sim.run_ms(300)
        sim.press("ROLL_W")
        sim.run_ms(300)
        assert sim.serial.last("play")["move"] == d.text
        result = analysis.analyse(journals.load(sim.journal_path()))
        first = result["games"][0]["records"][0]
        assert first["player"] == PERSON and first["kind"] == "move"
        assert first["loss"] < 1e-6 and sorted(map(tuple, first["best_steps"])) == sorted(map(tuple, d.steps))
    finally:
        comp.close()
        sim.close()


@needs_engine
def test_the_live_analysis_after_a_take_back_is_of_the_play_made_again(tmp_path):
    # the board's own journal of: White 6-4 13/7 13/9, GNU 6-1 13/7 8/7, White takes it back, 24/14
    import test_computer_advice_back as board

    h = board.white_opens(tmp_path)
    board.white_plays_13_7_13_9_and_gnu_answers_13_7_8_7(h)
    with open(board._path(h)) as f:
        before = f.read()
    h.press(board.ROLL_W, board.LONG)
    for a, b in ((18, 12), (18, 17)):
        h.move("b", a, b)
    for a, b in ((7, 13), (9, 13), (24, 14)):
        h.move("w", a, b)
    h.press(board.ROLL_W)
    with open(board._path(h)) as f:
        after = f.read()
    live = analysis.MatchAnalysis(0)
    first = live.update(before, "live")["games"][0]["records"]
    assert [(r["player"], r["played"]) for r in first if r["kind"] == "move"] == [(0, "13/9 13/7"), (1, "13/7 8/7")]
    again = live.update(after, "live")["games"][0]["records"]
    assert [(r["player"], r["played"]) for r in again if r["kind"] == "move"] == [(0, "24/18 18/14")]
    whole = analysis.analyse(journals.replay_text(after))["games"][0]["records"]
    assert again[0]["loss"] == pytest.approx(whole[0]["loss"], abs=1e-9) and again[0]["best"] == whole[0]["best"]
