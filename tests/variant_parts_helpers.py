"""What the tests of the variants with turns made of parts share: a match of the variant at a
given position, a part played, the export of a synthetic journal and a game of `bgc sim`'s
automated players."""

import json

from bgc import cli
from bgc.logs import journals
from bgrules import Position
from bgrules.match import Match, ROLL
from companion import journal
from companion import recovery


def pos(mover, opponent, mover_bar=0, opponent_bar=0, wait=(0, 0), check=True):
    """A position from {point: checkers} for each side, each in its own numbering, with ``wait``
    checkers of each side waiting off the board. ``check=False``: a board mapping other than the
    standard game's (the same-way tracks), which Position.from_points would refuse."""
    p = Position.from_points([mover.get(q, 0) for q in range(1, 25)],
                             [opponent.get(q, 0) for q in range(1, 25)], mover_bar, opponent_bar, check=check)
    return p.set_waiting(*wait) if wait != (0, 0) else p


def at(rules, position, on_roll=0):
    m = Match(0, rules=rules)
    m.position = position
    m.on_roll = m.to_act = on_roll
    m.turns = [1, 1]
    m.phase = ROLL
    return m


def play_first(m):
    plays = m.turn.plays()
    final = plays[0].position if plays else m.position
    m.play(final)
    return final


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def check_exports(tmp_path, capsys, key):
    """JSON and text exports of a journal of the variant; .mat/.sgf refused in one line."""
    recs = journals.synthetic_records(5, length=3, rules=key)
    assert recovery.replay(recs).rules.key == key
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 2 and "this match is %s, which GNU Backgammon does not play" % key in err
    status, out, err = bgc(capsys, "export", str(path), "-f", "json")
    assert status == 0, err
    data = json.loads((tmp_path / "m0001.json").read_text())
    assert data["settings"]["rules"] == key and data["complete"]
    status, out, err = bgc(capsys, "export", str(path), "-f", "text")
    assert status == 0, err
    return recs, data, (tmp_path / "m0001.txt").read_text()


def sim_game(capsys, key, seed=2):
    """A whole match of `bgc sim --demo`: the automated players at the virtual board, with their
    wrong placements; no false flag, and a journal that replays to the same winner."""
    status, out, err = bgc(capsys, "sim", "--demo", "--fast", "--quiet", "--variant", key, "--seed", str(seed))
    assert status == 0, err
    assert "Match over" in out and "0 false illegal flags" in out, out
    path = out.split("Journal: ")[1].split()[0]
    records, problem = journal.parse(open(path).read())
    assert problem is None and records[0]["rules"] == key
    m = recovery.replay(records)
    assert m.phase == "matchover"
    return records
