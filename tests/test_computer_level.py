"""The computer's level against GNU Backgammon's own scale: the short version of
scripts/reliability/computer_level.py (20 matches, docs/reliability.md "The computer's level").

Beginner is GNU Backgammon's 0-ply with noise 0.060; its error rate, measured by GNU Backgammon's
analysis at 0-ply (the same net without the noise), was expected in the band of GNU Backgammon's
"Beginner" rating, 26-35 mEMG (its manual's "Overall rating" table); the 20 matches of
docs/reliability.md measured 48.6 (95 % 42.4-55.5) against GNU Backgammon's expert, 20-90 a match.
One match is too few decisions to hold a band itself; the
bound here is one it cannot meet by accident: above 8 mEMG (weaker than GNU Backgammon's "Expert"
rating, where a level without its noise, expert, loses nothing at this ply: checked on the same
match) and below 100 mEMG (a level far noisier than beginner's 0.060, or a broken evaluation,
loses more; the automated hands' rough chooser of plays, bgc.board.players.choose_play, lost 43-106
a match in the 8 of those matches that recorded it)"""

import importlib.util
import os

import pytest

from bgc.logs import analysis
from bgc.logs.gnubg_player import RATINGS, level_band, rating

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")


def load_script():
    spec = importlib.util.spec_from_file_location(
        "computer_level", os.path.join(ROOT, "scripts", "reliability", "computer_level.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_ratings_are_gnu_backgammons_table():
    # analysis.c arThrsRating {1e38, 0.035, 0.026, 0.018, 0.012, 0.008, 0.005, 0.002}: a rate
    # below a threshold earns the better rating
    assert [(n, lo, hi) for n, lo, hi in RATINGS][:3] == [("Supernatural", 0.0, 2.0), ("World class", 2.0, 5.0),
                                                         ("Expert", 5.0, 8.0)]
    assert rating(34.9) == "Beginner" and rating(35.0) == "Awful!" and rating(25.99) == "Casual player"
    assert level_band("beginner") == (26.0, 35.0) and level_band("world class") == (2.0, 5.0)
    assert level_band("grandmaster") is None


@needs_engine
def test_beginner_loses_equity_as_a_noisy_player_and_expert_none_at_the_same_ply():
    mod = load_script()
    beginner = mod.measure("beginner", 1, 3, ply=0, seed=11)
    assert beginner["decisions"] >= 15, beginner
    assert 8.0 < beginner["rate"] < 100.0, beginner
    expert = mod.measure("expert", 1, 3, ply=0, seed=11)
    # expert's plays are the 0-ply analysis's best (test_gnubg_player), its cube actions its right ones
    assert expert["decisions"] >= 15 and expert["rate"] < 1.0, expert


@needs_engine
def test_gnu_backgammon_plays_the_persons_side_at_its_level():
    # --person expert (the opponent of docs/reliability.md's run): the person's plays and cube
    # actions are GNU Backgammon's at expert, so the same 0-ply analysis finds no error on that
    # side (the hands' own chooser lost 43-106 mEMG a match); the computer at beginner still errs
    mod = load_script()
    res = mod.measure("beginner", 1, 3, ply=0, seed=11, person="expert")
    row = res["rows"][0]
    assert res["person"] == "expert" and row["opponent_rate"] < 1.0, res
    assert row["decisions"] >= 15 and 8.0 < row["rate"] < 100.0, res
