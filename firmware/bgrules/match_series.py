# A match of games in turn (Rules.cycle: Tavli) and the "reroll" opening (Rules.opening: Portes,
# Plakoto, Fevga, Long Nardy): bgrules.match imports this only for a ruleset with one of them,
# so the standard game's code loaded at boot stays small (the Pico's free heap, docs/architecture.md).
from bgrules import ROLL
from bgrules.rules import ruleset


def game_rules(rules, game):
    """The ruleset of game ``game`` (1, 2, ...) of a match of ``rules``: itself, or for a match
    of several games in turn (Tavli) the game's own from ``rules.cycle``."""
    cycle = rules.cycle
    return ruleset(cycle[(game - 1) % len(cycle)]) if cycle else rules


def start(m):
    """Match._new_game's end for such a ruleset: the game's own rules and start; under the
    reroll opening, the last game's winner starts with no opening roll (not after a draw)."""
    rules = m.rules = game_rules(m.series, m.game)
    m.position = rules.start_position()
    last = m.result
    if rules.opening == "reroll" and last is not None and last[3] != "draw":
        opening_roll(m, last[0])


def opening_roll(m, first):
    """``first`` is on roll and rolls both dice (Rules.opening "reroll"): the opening roll, or
    the last game's winner, said who starts. True: the game has started (Match.opening_roll)."""
    m.on_roll = first
    m.to_act = first
    if first == 1:
        m.position = m.position.swapped()
    m.phase = ROLL
    return True
