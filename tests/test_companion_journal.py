"""The match journal: lines with checksums, torn-line detection, and replay into the same match."""

import random

import pytest

from bgrules import Match, Turn
from companion import journal
from companion import recovery


def play_match(length, seed):
    """Drive a match with random legal plays; return (records, match)."""
    rng = random.Random(seed)
    records = [journal.settings_record(length=length)]
    m = recovery.new_match(records[0])
    while m.winner is None:
        while True:
            d = [rng.randint(1, 6), rng.randint(1, 6)]
            records.append({"a": "open", "dice": d})
            recovery.apply(m, records[-1])
            if m.phase != "opening" and m.turn is not None:
                break
        while m.turn is not None or m.phase == "roll":
            if m.turn is None:
                d = [rng.randint(1, 6), rng.randint(1, 6)]
                records.append({"a": "roll", "p": m.on_roll, "dice": d})
                recovery.apply(m, records[-1])
            plays = m.turn.plays()
            final = rng.choice(plays).position if plays else m.position
            notation = "" if not plays else [p for p in plays if p.position == final][0].notation()
            records.append({"a": "play", "p": m.on_roll, "move": notation, "pos": final.id()})
            recovery.apply(m, records[-1])
        if m.winner is None:
            records.append({"a": "next"})
            recovery.apply(m, records[-1])
    return records, m


def test_a_line_round_trips_with_its_checksum():
    rec = {"a": "roll", "p": 0, "dice": [6, 4]}
    line = journal.encode(rec)
    assert line.endswith("\n") and journal.decode(line) == rec


def test_a_torn_line_is_detected():
    line = journal.encode({"a": "play", "p": 1, "move": "24/18 13/9", "pos": "4HPwATDgc/ABMA"})
    for cut in (5, len(line) // 2, len(line) - 4):
        with pytest.raises(journal.JournalError):
            journal.decode(line[:cut])


def test_a_garbled_line_is_detected():
    line = journal.encode({"a": "roll", "p": 0, "dice": [6, 4]})
    with pytest.raises(journal.JournalError, match="checksum"):
        journal.decode(line.replace("6", "5", 1))


def test_parse_stops_at_the_first_bad_line_and_keeps_what_came_before():
    lines = [journal.encode(journal.settings_record(5)), journal.encode({"a": "open", "dice": [3, 1]})]
    text = "".join(lines) + '{"a": "roll", "p"'
    records, problem = journal.parse(text)
    assert len(records) == 2 and problem[0] == 3


def test_replay_rebuilds_the_match_exactly(tmp_path):
    records, m = play_match(3, seed=4)
    j = journal.Journal(str(tmp_path / "m.jnl"))
    for r in records:
        j.append(r)
    back, problem = j.read()
    assert problem is None and back == records
    again = recovery.replay(back)
    assert again.score == m.score and again.winner == m.winner and again.dumps() == m.dumps()


def test_replay_refuses_an_illegal_play_unless_condoned():
    m = recovery.new_match(journal.settings_record(0))
    recovery.apply(m, {"a": "open", "dice": [6, 4]})
    illegal = {"a": "play", "p": 0, "move": "24/14", "pos": "4HPwATDgc/ABMA"}
    with pytest.raises(journal.JournalError, match="refused"):
        recovery.apply(m, illegal)


def test_journal_reads_a_missing_file_as_empty(tmp_path):
    assert journal.Journal(str(tmp_path / "none.jnl")).read() == ([], None)


def test_a_line_cut_before_its_newline_is_not_glued_to_the_next(tmp_path):
    path = str(tmp_path / "m.jnl")
    first = journal.encode(journal.settings_record(3))
    second = journal.encode({"a": "open", "dice": [3, 1]})
    with open(path, "w") as f:
        f.write(first + second[:-1])  # power cut after the checksum, before the newline
    j = journal.Journal(path)  # the next boot
    j.append({"a": "open", "dice": [5, 2]})
    records, problem = j.read()
    assert problem is None
    assert [r.get("dice") for r in records] == [None, [3, 1], [5, 2]]
