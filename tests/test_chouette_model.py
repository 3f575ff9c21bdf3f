"""The chouette model (bgrules.chouette) against the seed's rules (000, "La chouette"): seats,
rotation, the common cube and the several cubes, the lone-take rule, the box's partner and the
ledger, with a ledger worked out by hand from the seed's rules."""
import random

import pytest

from bgrules.chouette import Chouette, ChouetteError, COMMON, SEVERAL, READY, GAME, draw_lot, signed
from bgrules.match import ROLL, PLAY, GAME_OVER, MatchError

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def seated(names=NAMES, dice=None, **settings):
    ch = Chouette(names, **settings)
    for d in dice or range(len(names), 0, -1):
        ch.seat_roll(d)
    assert ch.phase == READY
    return ch


def play_any(m):
    """The legal play with the smallest Position ID (or no move)."""
    plays = m.turn.plays()
    m.play(min(plays, key=lambda p: p.position.id()) if plays else m.position)


def to_box_roll(ch):
    """Start a game where the box opens; after the box's and the team's plays the box is on roll."""
    m = ch.start_game()
    m.opening_roll(3, 1)
    play_any(m)
    m.roll(5, 2)
    play_any(m)
    assert m.phase == ROLL and m.on_roll == 0
    return m


def to_team_roll(m):
    m.roll(6, 5)
    play_any(m)
    assert m.phase == ROLL and m.on_roll == 1


def board_ends(ch, side_wins, kind=1):
    """The game ends on the board: the loser resigns ``kind`` (1 single, 2 gammon) and the
    winner accepts; Match scores it."""
    m = ch.match
    m.resign(kind, player=1 - side_wins)
    m.accept()
    assert ch.check_over()


def ledger(ch):
    return dict(ch.points())


# --- seats ---------------------------------------------------------------------------------------


def test_seed_order_of_play_highest_die_is_box_second_captain_ties_roll_again():
    ch = Chouette(NAMES)
    assert ch.to_roll() == "Anna"
    for d in (5, 3, 5, 1):  # Anna 5, Bruno 3, Carla 5, Dario 1: Anna and Carla tie
        ch.seat_roll(d)
    assert ch.phase == "seating" and ch.to_roll() == "Anna"
    ch.seat_roll(2)
    ch.seat_roll(6)  # Carla beats Anna on the re-roll
    assert ch.line == ["Carla", "Anna", "Bruno", "Dario"]
    assert ch.box() == "Carla" and ch.team()[0] == "Anna"
    with pytest.raises(ChouetteError, match="Seats are set"):
        ch.seat_roll(4)


def test_seed_order_of_play_a_tie_further_down_the_line_is_rolled_again_too():
    ch = Chouette(NAMES)
    for d in (6, 2, 4, 2):
        ch.seat_roll(d)
    assert ch.to_roll() == "Bruno"  # Bruno and Dario tied for third
    ch.seat_roll(1)
    ch.seat_roll(1)
    ch.seat_roll(3)
    ch.seat_roll(4)
    assert ch.line == ["Anna", "Carla", "Dario", "Bruno"]


def test_a_chouette_needs_three_distinct_named_players():
    with pytest.raises(ChouetteError, match="3 players"):
        Chouette(["Anna", "Bruno"])
    with pytest.raises(ChouetteError, match="differ"):
        Chouette(["Anna", "Bruno", "Anna"])
    with pytest.raises(ChouetteError, match="Bad player name"):
        Chouette(["Anna", "Bruno", "Ca|rla"])


# --- rotation ------------------------------------------------------------------------------------


def test_seed_rotation_box_wins_collects_from_each_member_captain_goes_to_the_end():
    ch = seated()  # Anna box, Bruno captain, Carla, Dario
    m = ch.start_game()
    m.opening_roll(3, 1)
    board_ends(ch, 0)
    assert ledger(ch) == {"Anna": 3, "Bruno": -1, "Carla": -1, "Dario": -1}
    assert ch.line == ["Anna", "Carla", "Dario", "Bruno"]


def test_seed_rotation_team_wins_box_pays_each_member_goes_last_captain_is_box():
    ch = seated()
    m = ch.start_game()
    m.opening_roll(3, 1)
    board_ends(ch, 1, kind=2)  # the team wins a gammon
    assert ledger(ch) == {"Anna": -6, "Bruno": 2, "Carla": 2, "Dario": 2}
    assert ch.line == ["Bruno", "Carla", "Dario", "Anna"]


def test_seed_joining_at_the_end_of_the_line_and_leaving_between_games():
    ch = seated()
    ch.start_game()
    ch.join("Elena")  # during a game: in the line, plays from the next game
    assert "Elena" not in ch.playing and ch.line[-1] == "Elena"
    with pytest.raises(ChouetteError, match="Carla plays this game"):
        ch.leave("Carla")  # still playing: she finishes the game (or drops) first
    ch.match.opening_roll(3, 1)
    board_ends(ch, 0)
    assert "Elena" not in ledger(ch)
    ch.leave("Carla")
    assert ch.line == ["Anna", "Dario", "Elena", "Bruno"]
    ch.leave("Anna")  # the box leaves: the captain takes the box
    assert ch.box() == "Dario"
    with pytest.raises(ChouetteError, match="3 players"):
        ch.leave("Bruno")
    assert ch.totals["Carla"] == -1  # a player who left keeps the points in the ledger


# --- the common cube -------------------------------------------------------------------------------


def test_seed_one_cube_each_member_answers_the_box_double_alone_drop_pays_and_is_out():
    ch = seated()
    m = to_box_roll(ch)
    ch.box_double()
    assert ch.to_answer() == "Bruno"  # the captain first, then the line
    ch.answer(True)
    ch.answer(False)  # Carla drops: pays the stake before the double
    assert ch.to_answer() == "Dario"
    ch.answer(True)
    assert m.cube == 2 and m.cube_owner == 1 and ch.playing == ["Bruno", "Dario"]
    # only the captain turns the common cube for the team
    to_team_roll(m)
    # seed: "l'unica decisione che i componenti della squadra possono prendere singolarmente
    # riguarda l'accettare o meno un raddoppio": a member never doubles the common cube
    assert ch.double_refusal(1, "Dario") == "Only the captain doubles"
    with pytest.raises(ChouetteError, match="Only the captain doubles"):
        ch.team_double("Dario")
    assert m.phase == ROLL and ch.doubler is None
    ch.team_double("Bruno")
    assert ch.doubler == "Bruno"
    ch.box_answer(True)
    assert m.cube == 4 and m.cube_owner == 0
    board_ends(ch, 0)
    assert ledger(ch) == {"Anna": 9, "Bruno": -4, "Carla": -1, "Dario": -4}


def test_seed_one_cube_captain_drops_others_take_best_placed_player_is_captain_old_goes_last():
    ch = seated()  # Anna box; Bruno, Carla, Dario
    m = to_box_roll(ch)
    ch.box_double()
    ch.answer(False)  # the captain drops
    ch.answer(False)
    ch.answer(True)  # Dario takes and is captain now; Bruno goes to the end at once
    assert ch.captain == "Dario" and m.names == ("Anna", "Dario")
    assert ch.line == ["Anna", "Carla", "Dario", "Bruno"]
    board_ends(ch, 1)  # Dario wins at 2
    assert ledger(ch) == {"Anna": 0, "Carla": -1, "Dario": 2, "Bruno": -1}
    assert ch.line == ["Dario", "Carla", "Bruno", "Anna"]


def test_seed_one_cube_box_drops_the_team_double_pays_every_member_still_playing():
    ch = seated()
    m = to_box_roll(ch)
    m.roll(4, 3)
    play_any(m)
    ch.team_double()
    ch.box_answer(False)
    assert ch.is_over() and m.phase == GAME_OVER
    assert ledger(ch) == {"Anna": -3, "Bruno": 1, "Carla": 1, "Dario": 1}
    assert ch.line == ["Bruno", "Carla", "Dario", "Anna"]


def test_seed_lone_take_with_five_players_the_last_taker_must_drop_too():
    five = NAMES + ["Elena"]
    ch = seated(five)
    to_box_roll(ch)
    ch.box_double()
    for take in (False, True, False, False):
        ch.answer(take)
    assert ch.is_over()
    assert ledger(ch) == {"Anna": 4, "Bruno": -1, "Carla": -1, "Dario": -1, "Elena": -1}
    # with four players the lone taker plays on
    ch = seated()
    to_box_roll(ch)
    ch.box_double()
    for take in (False, True, False):
        ch.answer(take)
    assert not ch.is_over() and ch.playing == ["Carla"] and ch.captain == "Carla"


def test_lone_take_rule_is_configurable():
    ch = seated(NAMES + ["Elena"], lone_take=0)
    to_box_roll(ch)
    ch.box_double()
    for take in (False, True, False, False):
        ch.answer(take)
    assert ch.playing == ["Carla"]


# --- several cubes ---------------------------------------------------------------------------------


def test_seed_several_cubes_member_by_member_and_the_box_keeps_the_box_while_beating_the_captain():
    ch = seated(cubes=SEVERAL)  # Anna box; Bruno captain, Carla, Dario
    m = to_box_roll(ch)
    ch.box_double(["Carla", "Dario"])  # the box may double single members
    ch.answer(True)
    ch.answer(False)
    assert ch.cube_of("Carla") == (2, 1) and ch.cube_of("Bruno") == (1, -1)
    assert m.cube == 1 and m.phase == ROLL and m.on_roll == 0  # the box rolls on
    to_team_roll(m)
    ch.team_double("Carla")  # a member doubles with her own cube
    ch.box_answer(True)
    assert ch.cube_of("Carla") == (4, 0)
    with pytest.raises(ChouetteError, match="cube owner"):
        ch.team_double("Carla")
    ch.team_double("Bruno")
    ch.box_answer(True)
    board_ends(ch, 0)  # the box beats the captain: he stays box
    assert ledger(ch) == {"Anna": 7, "Bruno": -2, "Carla": -4, "Dario": -1}
    assert ch.line == ["Anna", "Carla", "Dario", "Bruno"]


def test_seed_several_cubes_box_can_win_against_some_and_lose_against_others():
    ch = seated(cubes=SEVERAL)
    m = to_box_roll(ch)
    to_team_roll(m)
    ch.team_double("Dario")
    ch.box_answer(True)
    board_ends(ch, 1, kind=2)  # the team wins a gammon: every cube pays twice its value
    assert ledger(ch) == {"Anna": -8, "Bruno": 2, "Carla": 2, "Dario": 4}
    assert ch.line == ["Bruno", "Carla", "Dario", "Anna"]


def test_several_cubes_box_drops_the_captain_the_captain_takes_the_box_after_the_game():
    ch = seated(cubes=SEVERAL)
    m = to_box_roll(ch)
    to_team_roll(m)
    ch.team_double()  # the captain, Bruno
    ch.box_answer(False)
    assert ch.captain == "Carla" and m.names[1] == "Carla" and m.phase == ROLL
    board_ends(ch, 0)  # the box beats the rest of the team
    assert ledger(ch) == {"Anna": 1, "Bruno": 1, "Carla": -1, "Dario": -1}
    assert ch.line == ["Bruno", "Carla", "Dario", "Anna"]


def test_jacoby_counts_per_cube():
    ch = seated(cubes=SEVERAL, jacoby=True)
    m = to_box_roll(ch)
    ch.box_double(["Dario"])
    ch.answer(True)
    board_ends(ch, 0, kind=2)
    # only Dario's cube was turned: his gammon counts, the others pay single
    assert ledger(ch) == {"Anna": 6, "Bruno": -1, "Carla": -1, "Dario": -4}


# --- the box's partner -------------------------------------------------------------------------------


EIGHT = ["P%d" % i for i in range(1, 9)]
EIGHT_DICE = (6, 5, 4, 3, 2, 1, 1, 1, 3, 2, 1)  # P6-P8 tie on 1 and roll again


def test_seed_box_partner_offered_from_the_captain_backwards_then_drawn_excluding_the_captain():
    ch = seated(EIGHT, EIGHT_DICE)  # P1 box, P2 captain, P3..P8
    assert ch.partner_order() == ["P2", "P8", "P7", "P6", "P5", "P4", "P3"]
    assert ch.choose_partner([False, False, True]) == "P7"
    ch.partner = None
    assert ch.choose_partner([False] * 7, lot=0) == "P3"
    ch.partner = None
    assert ch.choose_partner([], lot=13) == ["P3", "P4", "P5", "P6", "P7", "P8"][13 % 6]
    small = seated()
    with pytest.raises(ChouetteError, match="8 players"):
        small.choose_partner([True])
    with pytest.raises(ChouetteError, match="No box partner"):
        seated(EIGHT, EIGHT_DICE, partner_from=0).choose_partner([True])


def test_box_partner_shares_the_box_result_half_and_half():
    ch = seated(EIGHT, EIGHT_DICE)
    ch.choose_partner([False, True])  # P8
    m = ch.start_game()
    assert "P8" not in ch.playing and ch.captain == "P2"
    m.opening_roll(3, 1)
    board_ends(ch, 0)
    rows = ledger(ch)
    assert rows["P1"] == 3 and rows["P8"] == 3 and sum(rows.values()) == 0
    assert ch.partner is None


def test_seed_box_partner_from_the_first_game_on_before_the_opening_roll():
    # "Nelle chouette con otto o più giocatori, spesso viene permesso al box di avere un
    # compagno": from the first game, which the board starts as soon as the seats are rolled
    ch = seated(EIGHT, EIGHT_DICE)
    m = ch.start_game()
    assert ch.game == 1 and ch.captain == "P2"
    assert ch.choose_partner([True]) == "P2"  # the captain accepts: P3 is captain at the board
    assert ch.captain == "P3" and m.names == ("P1", "P3") and "P2" not in ch.playing
    assert ch.choose_partner([False, True]) == "P8"  # asked again before the roll: P2 plays after all
    assert ch.captain == "P2" and ch.playing == ["P2", "P3", "P4", "P5", "P6", "P7"]
    m.opening_roll(3, 1)
    with pytest.raises(ChouetteError, match="before the game"):
        ch.choose_partner([True])
    board_ends(ch, 0)
    rows = ledger(ch)
    assert rows["P1"] == 3 and rows["P8"] == 3 and "P8" not in [n for n in ch.playing]
    assert sum(rows.values()) == 0


def test_seed_box_partner_from_the_first_game_needs_eight_players():
    ch = seated()
    ch.start_game()
    with pytest.raises(ChouetteError, match="8 players"):
        ch.choose_partner([True])


def outcomes():
    return [(a, b) for a in range(1, 7) for b in range(1, 7)]


@pytest.mark.parametrize("count", range(1, 11))
def test_seed_partner_by_lot_every_candidate_has_the_same_chance_over_all_36_rolls(count):
    # "scelto a sorte tra tutti i componenti della squadra ad esclusione del capitano": equal
    # chances. Over the 36 equally likely first rolls each candidate wins on as many; the rest
    # (36 % count) roll again, so each candidate's chance is exactly 1/count.
    drawn = [0] * count
    again = 0
    for first in outcomes():
        rolls = [first, (1, 1)]
        got = draw_lot(count, lambda: rolls.pop(0))
        if len(rolls) == 0:
            again += 1
            assert got == 0  # the second roll decided: (1, 1) is outcome 0
        else:
            drawn[got] += 1
    assert drawn == [36 // count] * count
    assert again == 36 % count


def test_seed_partner_by_lot_with_nine_players_every_member_but_the_captain_can_be_drawn():
    nine = ["P%d" % i for i in range(1, 10)]
    got = set()
    for first in outcomes():
        ch = seated(nine, (6, 5, 4, 3, 2, 1, 1, 1, 1, 4, 3, 2, 1))  # P1..P9 in order
        rolls = [first, (1, 1)]
        lot = draw_lot(len(ch.lot_candidates()), lambda: rolls.pop(0))
        got.add(ch.choose_partner([False] * 8, lot))
    assert ch.lot_candidates() == nine[2:]
    assert got == set(nine[2:])  # one die modulo 7 never drew P9


def test_a_lot_outside_the_dice_is_refused():
    with pytest.raises(ChouetteError):
        draw_lot(37, lambda: (1, 1))
    with pytest.raises(ChouetteError, match="never fall"):
        draw_lot(7, lambda: (6, 6))  # outcome 35 is beyond 35 = 5 * 7 usable ones, always


def test_seed_players_leave_at_any_moment_a_member_who_dropped_leaves_mid_game():
    # "I giocatori possono lasciare una chouette o rientrarci in qualunque momento"
    ch = seated(NAMES + ["Elena"], (6, 5, 4, 3, 2))  # Anna box, Bruno captain, Carla, Dario, Elena
    m = to_box_roll(ch)
    ch.box_double()
    for take in (True, False, True, True):  # Carla drops (lone-take rule: three take)
        ch.answer(take)
    assert ch.playing == ["Bruno", "Dario", "Elena"]
    ch.leave("Carla")  # out of the game, stake paid: she goes home now
    assert "Carla" not in ch.line
    for who, why in (("Anna", "holds the box"), ("Dario", "plays this game")):
        with pytest.raises(ChouetteError, match=why):
            ch.leave(who)
    board_ends(ch, 0)
    assert ledger(ch) == {"Anna": 7, "Bruno": -2, "Carla": -1, "Dario": -2, "Elena": -2}
    assert ch.points()[-1] == ("Carla", -1)  # who has left comes after the line
    assert ch.line == ["Anna", "Dario", "Elena", "Bruno"]
    assert ch.totals["Carla"] == -1
    ch.join("Carla")  # and comes back at the end of the line, her total kept
    assert ch.line[-1] == "Carla" and ch.totals["Carla"] == -1


def test_a_player_who_joined_during_a_game_may_leave_during_it():
    ch = seated()
    ch.start_game()
    ch.join("Elena")
    ch.leave("Elena")
    assert ch.line == ["Anna", "Bruno", "Carla", "Dario"]
    with pytest.raises(ChouetteError, match="3 players"):
        seated(NAMES[:3]).leave("Carla")


def test_several_cubes_the_captain_who_beat_the_box_leaves_the_box_goes_to_the_next():
    ch = seated(cubes=SEVERAL)
    m = to_box_roll(ch)
    to_team_roll(m)
    ch.team_double()  # the captain Bruno
    ch.box_answer(False)  # the box drops: Bruno has beaten the box and is out of the game
    ch.leave("Bruno")
    board_ends(ch, 0)
    assert ledger(ch) == {"Anna": 1, "Bruno": 1, "Carla": -1, "Dario": -1}
    assert ch.line == ["Carla", "Dario", "Anna"]


def test_ledger_figures_read_plus_minus_and_zero():
    assert [signed(p) for p in (2, -1, 0, 1.5, -0.5, 0.0)] == ["+2", "-1", "0", "+1.5", "-0.5", "0"]


# --- the ledger ------------------------------------------------------------------------------------------


def test_hand_computed_evening_from_the_seed_rules():
    """Four players, one common cube for two games, then several cubes (docs/chouette.md works it
    out step by step)."""
    ch = Chouette(NAMES)
    for d in (5, 3, 5, 1, 2, 6):
        ch.seat_roll(d)
    assert ch.line == ["Carla", "Anna", "Bruno", "Dario"]
    # Game 1: Carla doubles; Anna and Dario take, Bruno drops (-1). The team wins a gammon at 2.
    m = to_box_roll(ch)
    ch.box_double()
    ch.answer(True)  # Anna
    ch.answer(False)  # Bruno
    ch.answer(True)  # Dario
    board_ends(ch, 1, kind=2)
    assert ch.points() == [("Carla", -7), ("Anna", 4), ("Bruno", -1), ("Dario", 4)]
    assert ch.line == ["Anna", "Bruno", "Dario", "Carla"]
    # Game 2: Anna doubles; the captain Bruno drops (-1) while Dario and Carla take: Dario is
    # captain, Bruno goes last. Dario redoubles to 4, Anna takes and wins a single game.
    m = to_box_roll(ch)
    ch.box_double()
    ch.answer(False)
    ch.answer(True)
    ch.answer(True)
    assert ch.line == ["Anna", "Dario", "Carla", "Bruno"] and ch.captain == "Dario"
    to_team_roll(m)
    ch.team_double()
    ch.box_answer(True)
    board_ends(ch, 0)
    assert ch.points() == [("Anna", 9), ("Dario", -4), ("Carla", -4), ("Bruno", -1)]
    assert ch.line == ["Anna", "Carla", "Bruno", "Dario"]
    # Game 3, several cubes: Anna doubles all; Carla takes, Bruno drops (-1), Dario takes. Dario
    # redoubles his cube to 4, Anna takes; Carla redoubles hers, Anna drops (+2 to Carla, who has
    # beaten the box). Dario plays on as captain and wins a single game at 4.
    ch.set_cubes(SEVERAL)
    m = to_box_roll(ch)
    ch.box_double()
    ch.answer(True)
    ch.answer(False)
    ch.answer(True)
    to_team_roll(m)
    ch.team_double("Dario")
    ch.box_answer(True)
    ch.team_double("Carla")
    ch.box_answer(False)
    assert ch.captain == "Dario"
    board_ends(ch, 1)
    assert ch.points() == [("Anna", -5), ("Carla", 2), ("Bruno", -1), ("Dario", 4)]
    assert ch.line == ["Carla", "Bruno", "Dario", "Anna"]
    assert ch.totals == {"Anna": 8, "Bruno": -3, "Carla": -9, "Dario": 4}
    assert [sum(p for _, p in g[3]) for g in ch.ledger] == [0, 0, 0]


def random_evening(seed, games=12):
    rnd = random.Random(seed)
    names = NAMES + (["Elena"] if seed % 2 else [])
    ch = Chouette(names, cubes=SEVERAL if seed % 3 == 0 else COMMON, jacoby=seed % 4 == 1)
    while ch.phase == "seating":
        ch.seat_roll(rnd.randint(1, 6))
    for g in range(games):
        if g == 5:
            ch.set_cubes(SEVERAL if ch.cubes == COMMON else COMMON)
        before = sorted(ch.line)
        m = ch.start_game()
        steps = 0
        while not ch.is_over():
            steps += 1
            if steps > 60 and not (ch.asking or ch.doubler):
                board_ends(ch, rnd.randint(0, 1), rnd.randint(1, 3))
                break
            if ch.asking:
                ch.answer(rnd.random() < 0.6)
            elif ch.doubler:
                ch.box_answer(rnd.random() < 0.7)
            elif m.phase == "opening":
                d0, d1 = rnd.randint(1, 6), rnd.randint(1, 6)
                m.opening_roll(d0, d1)
            elif m.phase == ROLL:
                if rnd.random() < 0.25:
                    side = m.on_roll
                    try:
                        if side == 0:
                            ch.box_double()
                        else:
                            ch.team_double(rnd.choice(ch.playing))
                        continue
                    except ChouetteError:
                        pass
                m.roll(rnd.randint(1, 6), rnd.randint(1, 6))
            elif m.phase == PLAY:
                play_any(m)
            ch.check_over()
        assert sum(p for _, p in ch.points()) == 0, (seed, g, ch.points())
        assert sorted(ch.line) == before
    return ch


@pytest.mark.parametrize("seed", range(12))
def test_ledger_sums_to_zero_every_game_and_totals_are_the_sum_of_the_games(seed):
    ch = random_evening(seed)
    totals = {n: 0 for n in ch.players}
    for game in ch.ledger:
        for n, p in game[3]:
            totals[n] += p
    assert totals == ch.totals and sum(totals.values()) == 0


def test_actions_out_of_turn_are_refused_with_the_reason():
    ch = seated()
    with pytest.raises(ChouetteError, match="No game on"):
        ch.box_double()
    m = ch.start_game()
    with pytest.raises(MatchError, match="No double before opening"):
        ch.box_double()
    m.opening_roll(3, 1)
    with pytest.raises(ChouetteError, match="No double to answer"):
        ch.answer(True)
    with pytest.raises(ChouetteError, match="Finish this game"):
        ch.start_game()
    with pytest.raises(ChouetteError, match="between games"):
        ch.set_cubes(SEVERAL)
    assert ch.phase == GAME
