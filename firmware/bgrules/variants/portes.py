# Portes ("doors"), the first game of Tavli (Greece, Cyprus; docs/variants.md): the standard
# start, moves and hitting, and no cube. The opening's higher die starts and rolls both dice
# anew, and a match's next game is started by the last game's winner (Rules.opening "reroll").
# A game counts 1, or 2 when the loser has borne off none: "There is no equivalent of a
# backgammon and therefore no triple win" (Wikipedia, "Tavli"). Setting ``backgammons=1``: 3 for
# a backgammon, as "usually" not (bkgm.com, Condos' Tavli) says some tables do.
from bgrules.rules import STANDARD, Rules


def make(backgammons=0):
    """The ruleset with its settings (bgrules.rules.ruleset: "portes:backgammons=1")."""
    if backgammons not in (0, 1):
        raise ValueError("backgammons is 0 or 1")
    return Rules("Portes", STANDARD.start, key="portes", cube=False, opening="reroll",
                 backgammons=bool(backgammons))


RULES = make()
