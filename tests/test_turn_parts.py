"""Turns made of parts (bgrules.turn_parts), one test per rule of the ruleset contract, on Rules
objects made here from the standard start (so the variants that set these attributes work as
the seed says): the underside of a double (Puff; French 1; Russian), Gioul's rising doubles, a
new roll after a double (Mexican), the 1-2 played or skipped before a chosen double (Acey Deucey,
Mexican), Double against free choice, and a double played once (French 2, Ludus). Every state
between parts survives Match.dumps/loads (the controller's snapshot) and the journal replay."""

import pytest

from bgrules import Position, Turn
from bgrules.match import Match, MatchError, CHOOSE, PLAY, ROLL
from bgrules import rules as R
from bgrules.rules import STANDARD, Rules
from bgrules.turn_parts import choose
from variant_parts_helpers import at, pos


def rules(**attrs):
    """A ruleset with the standard start and ``attrs``, known to ruleset() by its key (a saved
    match names its rules) while the tests run."""
    key = "t" + "".join("%s%s" % kv for kv in sorted(attrs.items()))
    r = Rules("Test", STANDARD.start, key=key)
    for k in attrs:
        setattr(r, k, attrs[k])
    R.RULESETS[key] = r
    return r


def play_first(m):
    """The part's first legal play (or no move), checked through a save and reload."""
    plays = m.turn.plays()
    final = plays[0].position if plays else m.position
    m.play(final)
    saved = m.dumps()
    again = Match.loads(saved)
    assert again.dumps() == saved
    assert (again.phase, again.part, again.on_roll, again.dice) == (m.phase, m.part, m.on_roll, m.dice)
    return final


# White's mid-point checker cannot move a 6 (Black holds White's 7 point) and no checker may bear
# off while it is out: 6-6 plays nothing; its underside 1-1 plays whole.
SIXES_BLOCKED = pos({13: 1, 6: 14}, {18: 2, 6: 13})


def test_underside_after_the_top_played_whole():
    # Puff: "Bei einem Pasch werden sowohl die Augenzahlen auf der Oberseite, als auch
    # anschließend die auf der Unterseite gezogen."
    m = at(rules(doubles="underside"), Position.start())
    m.roll(6, 6, 0)
    assert m.turn.dice_to_play == 4 and m.dice == (6, 6)
    play_first(m)
    assert m.phase == PLAY and m.on_roll == 0 and m.dice == (1, 1)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1 and m.part is None


def test_underside_lost_when_the_top_is_not_played_whole():
    # Puff: "Kann der obere Wert nicht vollständig gezogen werden, verfällt der untere komplett."
    m = at(rules(doubles="underside"), SIXES_BLOCKED)
    m.roll(6, 6, 0)
    assert m.turn.dice_to_play == 0
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1


def test_underside_roll_plays_the_underside_even_after_a_short_top_then_rolls_again():
    # French 1: "Wenn Sie z.B. nur 2 der 4 Sechsen setzen können, dürfen Sie dennoch die 4
    # Einsen setzen und auch noch einmal würfeln."
    m = at(rules(doubles="underside_roll"), SIXES_BLOCKED)
    m.roll(6, 6, 0)
    play_first(m)
    assert m.phase == PLAY and m.on_roll == 0 and m.dice == (1, 1)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 0 and m.part[0] == "g"
    assert m.double_refusal(0) == "Roll again first"
    m.roll(5, 3, 0)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1 and m.part is None


def test_underside_roll_strict_loses_the_rest_when_a_part_is_short():
    # Russian: "verfällt allerdings der restliche Zug, sobald der Wurf nicht voll ausgenutzt
    # werden kann."
    m = at(rules(doubles="underside_roll_strict"), SIXES_BLOCKED)
    m.roll(6, 6, 0)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1
    m = at(rules(doubles="underside_roll_strict"), Position.start())
    m.roll(6, 6, 0)
    play_first(m)
    play_first(m)  # 1-1 whole
    assert m.phase == ROLL and m.on_roll == 0 and m.part[0] == "g"


GIOUL = rules(doubles="rising", block=1, hitting=False)


def test_rising_doubles_go_up_to_six_with_the_same_player():
    # Gioul: "Pasch 3 -> zunächst 4x 3 Augen ziehen. Dann 4x 4 [...] 4x 5 [...] 4x 6."
    m = at(GIOUL, Position.start())
    m.roll(3, 3, 0)
    seen = []
    while m.phase == PLAY:
        seen.append((m.on_roll, m.dice))
        whole = m.turn.dice_to_play == 4
        play_first(m)
        if not whole:
            break
    assert seen[:2] == [(0, (3, 3)), (0, (4, 4))]


def test_rising_double_passes_to_the_opponent_at_the_next_value():
    # Gioul: "Dann 4x 4 Augen ziehen -> kann der Spieler nicht vollständig ausführen. Sein
    # Gegner setzt mit 4x 5 Augen fort. Abschließend 4x 6 Augen ziehen. Anschließend führt der
    # Gegner wie gewohnt seinen Zug durch."
    r = rules(doubles="rising")
    r.block = 1
    r.hitting = False
    white = pos({24: 15}, {5: 1, 8: 1, 24: 13})  # Black's single checkers shut White's 20 and 17
    m = at(r, white)
    m.roll(3, 3, 0)
    want = Position(white.cells)
    want.cells[24] = 11
    want.cells[21] = 4
    m.play(want)  # 24/21(4)
    assert m.dice == (4, 4) and m.on_roll == 0 and m.turn.dice_to_play == 0
    m.play(want)  # no 4 can be played
    assert m.on_roll == 1 and m.dice == (5, 5) and m.phase == PLAY
    assert m.position == want.swapped()
    play_first(m)
    assert m.on_roll == 1 and m.dice == (6, 6)
    play_first(m)
    # The rising ended with Black, whose own turn it now is.
    assert m.phase == ROLL and m.on_roll == 1 and m.part is None


def test_roll_again_after_a_double_played_whole_only():
    # Mexican: "Nach einem (vollständig ausgeführten) Pasch wird erneut gewürfelt."
    m = at(rules(doubles="roll_again"), Position.start())
    m.roll(6, 6, 0)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 0
    with pytest.raises(MatchError):
        m.double(0)
    m = at(rules(doubles="roll_again"), SIXES_BLOCKED)
    m.roll(6, 6, 0)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1


def test_acey_deucey_plays_1_2_then_a_chosen_double_then_rolls_again():
    # Acey Deucey: "Zunächst wird 1-2 gezogen. Dann kann ein beliebiger Pasch gewählt und gespielt
    # werden. Nun darf noch einmal gewürfelt und normal gezogen werden."
    m = at(rules(acey_deucey="play"), Position.start())
    m.roll(1, 2, 0)
    assert m.phase == PLAY and m.dice == (2, 1)
    play_first(m)
    assert m.phase == CHOOSE and m.on_roll == 0
    with pytest.raises(MatchError, match="Choose a double"):
        choose(m, 4, 3, 0)
    with pytest.raises(MatchError):
        m.roll(3, 3, 0)
    choose(m, 4, 4, 0)
    assert m.phase == PLAY and m.dice == (4, 4)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 0
    m.roll(1, 2, 0)  # "Sollte wieder 1-2 gewürfelt werden, wird das Procedere wiederholt."
    play_first(m)
    assert m.phase == CHOOSE


def test_acey_deucey_loses_the_rest_when_a_part_is_not_played_whole():
    # Acey Deucey: "Sobald ein Teilzug nicht ausgefüllt werden kann, verfällt der Rest des Zuges."
    m = at(rules(acey_deucey="play"), Position.start())
    m.roll(1, 2, 0)
    play_first(m)
    choose(m, 6, 6, 0)
    whole = m.turn.dice_to_play == 4
    play_first(m)
    assert (m.on_roll, m.phase) == ((0, ROLL) if whole else (1, ROLL))
    m = at(rules(acey_deucey="play"), pos({6: 14}, {1: 2, 2: 2, 6: 11}, 1))  # 1-2 cannot enter
    m.roll(2, 1, 0)
    assert m.turn.dice_to_play < 2
    play_first(m)
    assert m.on_roll == 1 and m.phase == ROLL


def test_mexican_1_2_is_not_played_a_chosen_double_then_a_new_roll():
    # Mexican: "Nach dem Wurf eines „Mexikaners“ (1-2) wird ein beliebiger Pasch gewählt und
    # ausgeführt. Anschließend wird regulär gewürfelt. Die Kombination 1-2 wird nicht gezogen!"
    m = at(rules(acey_deucey="skip"), Position.start())
    m.roll(2, 1, 0)
    assert m.phase == CHOOSE and m.turn is None
    choose(m, 3, 3, 0)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 0
    m.roll(5, 2, 0)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1


def test_free_choice_one_chooses_a_roll_the_other_rolls_twice():
    # "wenn ein Spieler statt zu würfeln, jede beliebige Würfelkombination frei wählen und ziehen
    # darf – mit Ausnahme von Pasch-Würfen. Der andere Spieler darf im Gegenzug 2x regulär
    # nacheinander würfeln und ziehen. Auch ein Pasch wird normal gespielt, ggf. auch 2x."
    r = rules(free_choice=True)
    m = at(r, Position.start(), on_roll=0)  # game 1: White chooses
    with pytest.raises(MatchError, match="choose the dice"):
        m.roll(6, 5, 0)
    with pytest.raises(MatchError, match="double"):
        choose(m, 5, 5, 0)
    choose(m, 6, 5, 0)
    assert m.turn.dice_to_play == 2
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1
    with pytest.raises(MatchError):
        choose(m, 6, 5, 1)
    m.roll(4, 4, 1)
    assert m.turn.dice_to_play == 4  # a double is played as usual
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1 and m.double_refusal(1) == "Roll again first"
    m.roll(4, 4, 1)  # "ggf. auch 2x"
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 0 and m.part is None


def test_free_choice_chooser_alternates_by_game():
    from bgrules.turn_parts import chooser

    m = Match(3, rules=rules(free_choice=True))
    assert chooser(m) == 0
    m.game = 2
    assert chooser(m) == 1


def test_double_played_once_its_value_as_one_die():
    # French 2: "Bei einem Pasch wird der Wert nur einmal (1x) gezogen"; FR "on n'utilise la
    # valeur qu'une seule fois"; IT "il numero va giocato una sola volta": one step of the value
    once = rules(doubles="once")
    turn = Turn(Position.start(), 4, 4, once)
    assert turn.dice_to_play == 1
    assert {len(p.steps) for p in turn.plays()} == {1}
    assert Turn(Position.start(), 4, 4).dice_to_play == 4


def test_the_standard_game_has_no_parts():
    m = at(STANDARD, Position.start())
    m.roll(6, 6, 0)
    play_first(m)
    assert m.phase == ROLL and m.on_roll == 1 and m._parts() is None
