"""The board's own player's strength, measured by GNU Backgammon (docs/board-player.md): money games
of the player against itself at a level, journaled as the board journals them, then analysed by
GNU Backgammon (`bgc analyze`'s analysis, 0-ply by default): the error rate per unforced play and
GNU Backgammon's rating, for both sides together (they are the same player).

    nice .venv/bin/python scripts/bench/strength_board_player.py [--games 100] [--level expert] [--seed 1]
        [--ply 0] [--keep DIR]

The games run on the host (CPython) with the firmware's own code (boardplayer, bgrules): the
board's choices are the same under MicroPython (tests/test_board_player.py). Dice from
random.Random(seed). Prints the unforced plays analysed, the play error rate (mEMG per unforced
play), the overall error rate with cube decisions, GNU Backgammon's ratings and the marks.
"""

import argparse
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "host"))


def play_session(path, games, level, seed, length=0):
    """``games`` games (a money session, or matches of ``length`` one after another are not
    needed: one session) journaled at ``path``; returns the plays made."""
    from bgrules.match import Match, OPENING, ROLL, DOUBLED, PLAY, GAME_OVER, MATCH_OVER
    from bgrules.position import Position
    from boardplayer.player import Player
    from companion import journal as J, moves

    rng = random.Random(seed)
    pl = Player(level, seed)
    name = "board (%s)" % level
    rec = J.settings_record(length, True, False, 0, 0, False, [name + " W", name + " B"], "standard")
    j = J.Journal(path)
    j.append(rec)
    m = Match(length=length, names=(name + " W", name + " B"))
    done = plays = 0
    while True:
        ph = m.phase
        if ph == OPENING:
            d0, d1 = rng.randint(1, 6), rng.randint(1, 6)
            m.opening_roll(d0, d1)
            j.append({"a": "open", "dice": [d0, d1]})
        elif ph == ROLL:
            s = m.on_roll
            if m.may_double(s) and pl.double_decision(m, s)[0]:
                m.double(s)
                j.append({"a": "double", "p": s})
            else:
                d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
                m.roll(d1, d2, s)
                j.append({"a": "roll", "p": s, "dice": [d1, d2]})
        elif ph == DOUBLED:
            s = m.to_act
            a = pl.take_decision(m, s)
            getattr(m, a)(s)
            j.append({"a": a, "p": s})
        elif ph == PLAY:
            s = m.on_roll
            turn = m.turn
            final = pl.choose(m)
            pos = Position(final) if final is not None else Position(turn.start.cells)
            move = moves.notation(turn, pos.cells)
            m.play(pos)
            plays += 1
            j.append({"a": "play", "p": s, "move": move, "pos": pos.id()})
        elif ph in (GAME_OVER, MATCH_OVER):
            winner, points, kind, how = m.result
            j.append({"a": "end", "winner": winner, "points": points, "kind": kind, "how": how, "score": list(m.score)})
            done += 1
            if done >= games or ph == MATCH_OVER:
                return plays
            m.next_game()
            j.append({"a": "next"})


def against_gnubg(games, level, gnu_level, seed):
    """``games`` money games (cube on, no Jacoby) of the board's player against GNU Backgammon at
    ``gnu_level`` (bgc.logs.gnubg_player: its own decisions, cube and resignations included), the
    board playing White in even games and Black in odd ones; returns the board's points per game."""
    from bgrules.match import Match, OPENING, ROLL, DOUBLED, PLAY, RESIGN, GAME_OVER
    from bgrules.position import Position
    from bgc.logs.gnubg_player import GnubgPlayer, final_id
    from boardplayer.player import Player

    rng = random.Random(seed)
    pl = Player(level, seed)
    gnu = GnubgPlayer(gnu_level)
    results = []
    try:
        for g in range(games):
            board = g % 2
            m = Match(length=0)
            declined = 0  # the largest resignation the board declined in this game: offered again, it plays on
            while m.phase != GAME_OVER:
                ph = m.phase
                if ph == OPENING:
                    m.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
                    continue
                actor = m.to_act
                if actor == board:
                    if ph == ROLL:
                        if m.may_double(actor) and pl.double_decision(m, actor)[0]:
                            m.double(actor)
                        else:
                            m.roll(rng.randint(1, 6), rng.randint(1, 6), actor)
                    elif ph == DOUBLED:
                        getattr(m, pl.take_decision(m, actor))(actor)
                    elif ph == RESIGN:
                        answer = pl.resign_decision(m, actor, m.resign_offer)
                        if answer == "reject":
                            declined = max(declined, m.resign_offer)
                        getattr(m, answer)(actor)
                    elif ph == PLAY:
                        f = pl.choose(m)
                        m.play(Position(f) if f is not None else m.position)
                    continue
                # ``declined``: without it GNU Backgammon, told the match afresh, offers the same
                # resignation again at once, for ever (the Match ID does not carry a declined one)
                d = gnu.decide(actor, m.match_id(), m.position_id(), jacoby=m.jacoby, beavers=m.beavers,
                               declined=declined)
                if d.action == "roll":
                    m.roll(rng.randint(1, 6), rng.randint(1, 6), actor)
                elif d.action == "move":
                    m.play(Position.from_id(final_id(m.position_id(), d.steps)) if d.steps else m.position)
                elif d.action == "resign":
                    m.resign(d.kind, actor)
                else:
                    getattr(m, d.action)(actor)
            winner, points = m.result[0], m.result[1]
            results.append(points if winner == board else -points)
            if (g + 1) % 25 == 0:
                mean, half = _interval(results)
                print("  %d games: %+.3f points per game, 95%% interval %+.3f..%+.3f; %d won" % (
                    g + 1, mean, mean - half, mean + half, sum(1 for x in results if x > 0)), flush=True)
    finally:
        gnu.close()
    return results


def _interval(results):
    """The mean points per game and the half-width of its 95 % confidence interval (normal)."""
    import statistics

    mean = statistics.mean(results)
    return mean, 1.96 * statistics.stdev(results) / len(results) ** 0.5


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ply", type=int, default=0)
    ap.add_argument("--keep", metavar="DIR", help="keep the journal in DIR")
    ap.add_argument("--against", metavar="GNU_LEVEL",
                    help="instead: money games against GNU Backgammon at this level (beginner, intermediate, ...): "
                         "the board's points per game with a 95%% confidence interval")
    a = ap.parse_args(argv)
    if a.against:
        t0 = time.time()
        r = against_gnubg(a.games, a.level, a.against, a.seed)
        mean, half = _interval(r)
        wins = sum(1 for x in r if x > 0)
        print("board player (%s) against GNU Backgammon (%s), %d money games, seed %d (%.0f s): %+.3f points per "
              "game, 95%% interval %+.3f..%+.3f; %d games won" % (a.level, a.against, len(r), a.seed, time.time() - t0,
                                                                 mean, mean - half, mean + half, wins))
        return 0
    from bgc.logs import analysis, journals

    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="strength-") as tmp:
        path = os.path.join(a.keep or tmp, "m%04d.jnl" % a.seed)
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
        plays = play_session(path, a.games, a.level, a.seed)
        t1 = time.time()
        res = analysis.analyse(journals.load(path), ply=a.ply)
    t2 = time.time()
    tot = res["players"]
    unforced = sum(t["unforced"] for t in tot)
    play_err = sum(t["play_error"] for t in tot)
    cube_n = sum(t["close_cube_decisions"] for t in tot)
    cube_err = sum(t["cube_error"] for t in tot)
    marks = {k: sum(t["marks"][k] for t in tot) for k in tot[0]["marks"]}
    print("board player (%s), %d money games against itself, seed %d: %d plays, %d unforced" % (
        a.level, a.games, a.seed, plays, unforced))
    print("GNU Backgammon %s analysis at %d-ply (%s nets): %.0f s to play, %.0f s to analyse" % (
        analysis.engine_version(), a.ply, res["nets"], t1 - t0, t2 - t1))
    print("  play error rate: %.1f mEMG per unforced play" % (1000 * play_err / unforced if unforced else 0))
    print("  overall error rate (plays and close cube decisions): %.1f mEMG (%d cube decisions, %.3f EMG lost)" % (
        1000 * (play_err + cube_err) / (unforced + cube_n) if unforced + cube_n else 0, cube_n, cube_err))
    print("  marks: %s" % ", ".join("%s %d" % kv for kv in marks.items()))
    st = res["gnubg_statistics"]
    for i, t in enumerate(tot):
        print("  side %d: %d unforced, %.1f mEMG per play, %.1f overall; GNU Backgammon's ratings: chequer play %s, "
              "cube %s, overall %s" % (i, t["unforced"], t["play_error_rate"], t["error_rate"],
                                       st.get("chequerplay", {}).get("chequer_rating", ["?", "?"])[i],
                                       st.get("cube", {}).get("cube_rating", ["?", "?"])[i],
                                       st.get("overall", {}).get("rating", ["?", "?"])[i]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
