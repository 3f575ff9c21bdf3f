"""bgc variants: the games the board knows, with a one-line summary and what is assumed.

The rules of each are in docs/variants.md, which quotes the sentences of the seed (Classic Line
Backgammon, 24 variants) each one rests on. ``playable`` games are bgrules rulesets
(bgrules.rules.VARIANTS) that the board, ``--variant`` and the journal take; the others are
listed so that nobody mistakes a missing game for a forgotten one.
"""

import json

from bgrules.rules import VARIANTS, ruleset

from ..rules.engine import start_of

# key, name, summary, assumed (what the seed does not fix; empty when nothing is)
CATALOGUE = (
    ("standard", "Backgammon", "the modern rules (seeds 000, 002)", ""),
    ("nackgammon", "Nackgammon", "standard rules, 4 back checkers (2 on 24, 2 on 23), 4 mid, 3 on 8, 4 on 6", ""),
    ("hypergammon", "Hypergammon", "standard rules with 3 checkers a side on the opponent's 1, 2, 3 points", ""),
    ("eureka", "Eureka", "a bear-off race from the home board, no hitting, cube optional",
     "start 3-3-3-2-2-2 on points 1-6 (picture lost)"),
    ("oldbritain", "Old Britain", "standard start; at most 5 checkers a point; either die when not both; no cube", ""),
    ("reverse", "Reverse", "standard rules, but whoever bears off the last checker first loses",
     "a single game, no gammons"),
    ("nohitting", "No hitting", "standard rules, but whoever hits loses", "the hitter loses a single game"),
    ("puff", "Puff", "all checkers start off the board, entered into the start quarter before any moves; "
     "smaller die first; doubles also the underside",
     "cube and gammons as in the standard game; a checker still waiting at the end counts as on the bar"),
    ("longpuff", "Long Puff", "Puff with both players entering into the same quarter and moving the same way",
     "backgammon: a loser's checker still in the start quarter; cube and gammons as standard"),
    ("russianpuff", "Russian Puff", "Puff; after two checkers in, enter or move at will",
     "doubles also the underside, as in Puff (the seed names only the smaller die first)"),
    ("longrussianpuff", "Long Russian Puff", "Long Puff; after two checkers in, enter or move at will",
     "Puff's dice: smaller die first, doubles also the underside (the seed names neither)"),
    ("french1", "French Backgammon 1", "entered; doubles: 4 on top, 4 underneath, roll again",
     "every checker entered before any moves, as in Puff"),
    ("russian", "Russian Backgammon", "same quarter; doubles as French 1 but the rest lost at a failure; no cube",
     "every checker entered before any moves; both move the same way, as in Long Puff"),
    ("gioul", "Turkish Gioul", "all 15 start on the opponent's 1 point; no hitting, one checker blocks; rising "
     "doubles that pass to the opponent; no cube; 2 points if the loser bore off none",
     "all 15 on one point (picture lost); a part not played whole passes back and forth; the roller's "
     "opponent rolls next; rising doubles from the first roll"),
    ("french2", "French Backgammon 2", "3 checkers entered on the own half, no passing, exact home point, hitting "
     "opposite; a double's value moved once (one die)",
     "start (picture lost): Tourne-case, all three waiting to enter; an enterable checker enters first; no cube"),
    ("aceydeucey", "Acey Deucey", "entered at will; 1-2 plays, then a chosen double, then rolls again; no cube; "
     "a point for each checker left",
     "a hit checker enters before anything else; waiting checkers count as left too; no gammons"),
    ("mexican", "Mexican", "smaller die first, else the roll is lost; max 5 a point; roll again after a double "
     "played whole; 1-2 is not played: a chosen double, then a new roll; exact bear-off; no gammons, no cube",
     "after 1-2 the same player rolls again even if the chosen double was not played whole"),
    ("pin", "Pin", "pinning instead of hitting; 2 checkers of any colour block; roll lost unless whole; pip scoring; no cube",
     "start (picture lost): bkgm.com's Pin Game, 13 on the 24 point, 1 each on the 17 and 15; a point of two "
     "stays open to its owner"),
    ("catchme", "Catch me", "6 checkers; one moves by the sum only with a 1 or a 6; one a point; around the "
     "board; caught checkers out for good; doubles once, roll again; no cube",
     "corner points 1, 6, 7, 12, 13, 18, 19, 24 (picture lost; bkgm.com); caught checkers wait on the bar; "
     "the last checker's jump is its next turn; a single game"),
    ("doublets", "Doublets", "12 checkers in towers on 1-6: each die takes its tower apart, then stacks it, "
     "then bears it off; a die with nothing to do is lost; doubles once, roll again; no cube",
     "towers of two on points 1-6 (picture lost); a tower is borne off whole; the stage is that at the roll; "
     "a marker checker on the bar once all are apart (the board's need); a single game"),
    ("ludus", "Ludus Lumbadorum", "half a board (12 points a side, all 15 start on point 1); a double's value "
     "played once (one die); "
     "no point on the opponent's 3-5; the own start entered only when empty",
     "bkgm.com's numbering, mirrored onto the board's points 7-18 (picture lost); a single game"),
    ("backwards", "Backwards", "standard rules, dice may also move checkers backwards",
     "back from point to point only (not from the bar, not past the 24), landing and hitting as forward; "
     "bearing off forward with all home"),
    ("straight", "Straight", "both players move the same way from the standard start",
     "backgammon: a loser's checker still in its first quarter; cube and gammons as standard; a hit checker "
     "of either colour enters on its own 25 - d, the first quarter of the common track (no text says where)"),
    ("fixedroll", "Fixed roll", "the opening roll is every roll of the game, for both players",
     "a position on roll coming back a third time ends the game by a resignation ('Same position 3x')"),
    ("openroll", "Open roll", "the opponent rolls before you move, so you see the dice of their next turn",
     "the opponent's roll is the dice of their next turn"),
    ("snake", "Snake", "standard rules; Black's usual start, White 2 each on Black's 1-3 points, 9 on the bar",
     "start (picture lost): a games-book Snake; its text breaks off, the nine on the bar are read in"),
    ("portes", "Portes", "Tavli's first game: the standard start and moves with hitting; no cube; a win counts 1, "
     "or 2 when the loser bore off none (no backgammon); the opening's winner rolls again, a match's next game "
     "is started by the last winner", ""),
    ("plakoto", "Plakoto", "Tavli's second game: all 15 start on the opponent's 1 point; no hitting: a checker "
     "landing on a single opposing one pins it; pinner and pinned close the point; a pinned 'mother' (the last "
     "checker on the start point) loses 2, or draws when both are pinned; no cube; 1 or 2 points", ""),
    ("fevga", "Fevga", "Tavli's third game: all 15 on the own 24 point, both the same way round from diagonally "
     "opposite corners; one checker holds a point, no hitting; the first checker passes the opponent's start "
     "before a second leaves; never all of the own start quarter; no cube; 1 or 2 points", ""),
    ("longnardy", "Long Nardy", "all 15 on the own 24 point (the head), both the same way round from diagonally "
     "opposite corners; one checker holds a point, no hitting; one checker off the head a turn (two for 6-6, 4-4, "
     "3-3 on the first roll); six in a row only with an opponent checker past them; no cube; 1 or 2 (mars)", ""),
    ("tavli", "Tavli", "a match of Portes, Plakoto and Fevga in turn to the match length, each game by its own "
     "rules; the first game's opening winner rolls again, then each game's winner starts the next; no cube", ""),
    ("freechoice", "Double against free choice", "one player chooses any non-double roll; the other rolls twice",
     "White chooses in odd games, Black in even; the opening roll is played as usual and is the first of "
     "the roller's two rolls"),
)


# What the German, French and Italian texts of the seed say where they differ or where one is
# unclear, and which reading the board follows (docs/variants.md, "The three texts").
TEXTS = {
    "gioul": "DE 'auf den ersten Spitzen' (one for each player), FR 'la première case', IT 'la prima punta': "
             "all on the opponent's 1 point",
    "french2": "DE 'der Wert nur einmal (1x)', FR 'la valeur qu'une seule fois', IT 'il numero ... una sola "
               "volta': all three: a double's value moved once, one die",
    "mexican": "all three: 1-2 is never played ('Die Kombination 1-2 wird nicht gezogen!')",
    "oldbritain": "all three: 'auch den niedrigeren' / 'aussi ... la valeur plus petite' / 'anche ... il numero "
                  "inferiore': either die when only one can be played",
    "pin": "its rule list stands under Old Britain (DE), Pin (FR), Mexican (IT): Pin's",
    "catchme": "DE 'immer gezogen', FR 'pour des déplacements normaux', IT 'in modo semplice': a double once by "
               "its sum; Doublets' paragraphs stand under Catch me in FR and IT",
    "doublets": "all three: twelve checkers, a double's value once and a new roll",
    "ludus": "DE 'nur der Pasch wird nur einmal gezogen' (unclear), FR 'on n'utilise la valeur qu'une seule "
             "fois', IT 'va giocato un solo numero': one die's value, once",
    "straight": "all three: both the same way, black too bears off past 24; none says where a hit checker enters",
    "fixedroll": "DE 'Eröffnungswurf', FR 'le premier lancer', IT 'uno dei due tira i dadi una sola volta': the "
                 "game's first roll; none says how a game nobody can finish ends",
    "snake": "DE breaks off mid-sentence; FR and IT whole; the start picture is lost in all",
}


# Games not in the seeds: the published rules texts each follows (docs/variants.md names them
# with what each says where they differ).
SOURCES = {
    "portes": "Wikipedia 'Tavli' (Portes); neromyloscafe.com 'Tavli'; bkgm.com Condos 'Tavli'",
    "fevga": "Wikipedia 'Fevga'; brainking.com 'Fevga'; gammonparty.com 'Fevga'; bkgm.com Condos 'Tavli'; "
             "itavli.i-smartsolutions.com 'Fevga'",
    "longnardy": "Wikipedia 'Long Nardy'; vogclub.com 'Narde (Feuga)'; bkgm.com 'Narde' (threemountaingames.com, "
                 "setupgroup.com); geonardi.com (Georgian federation) 'Rules of the long backgammon game'",
    "tavli": "Wikipedia 'Tavli'; neromyloscafe.com 'Tavli'; backgammonline.net 'Tavli'; bkgm.com Condos 'Tavli'",
    "plakoto": "Wikipedia 'Tavli' (Plakoto); backgammon-hub.com 'How to play Plakoto'; fibs.com 'Rules for "
               "Plakoto'; gamerz.net 'Plakoto'; bkgm.com Condos 'Tavli'",
}

# Rules players differ on, as settings: --variant KEY:NAME=VALUE (first the board's reading).
SETTINGS = {
    "portes": "backgammons=0 (a backgammon counts 2, as a gammon) | 1 (it counts 3)",
    "fevga": "first=11 (the first checker past the opponent's start, the own 12) | 12 (into its quarter); "
             "row=quarter (never all of the own 19-24) | ahead (Long Nardy's: six in a row only with an opponent "
             "checker past them)",
    "longnardy": "doubles=643 (the first roll's doubles that take two off the head: 6-6, 4-4, 3-3) | e.g. 64",
    "tavli": "its games' defaults (a game with settings is played alone: --variant plakoto:mother=loses)",
    "plakoto": "mother=draw (a pinned mother loses 2 once the pinner has left its own start; both pinned: a "
               "draw) | loses (a pinned mother loses 2 at once) | none (no mother rule)",
}


def register(sub):
    p = sub.add_parser("variants", help="the games the board knows, what each changes and what is assumed")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.add_argument("--all", action="store_true", help="also the games of the seed that are not playable yet")
    p.set_defaults(func=run)


def rows(include_missing=False):
    """The playable games in the board's menu order (bgrules.rules.VARIANTS), then the others."""
    out = []
    order = sorted(CATALOGUE, key=lambda row: VARIANTS.index(row[0]) if row[0] in VARIANTS else len(VARIANTS))
    for key, name, summary, assumed in order:
        playable = key in VARIANTS
        if playable or include_missing:
            row = {"key": key, "name": name, "summary": summary, "assumed": assumed, "playable": playable,
                   "texts": TEXTS.get(key, ""), "sources": SOURCES.get(key, ""),
                   "settings": SETTINGS.get(key, "")}
            if playable:
                rules = ruleset(key)
                row["start"], row["waiting"] = start_of(rules)
                row["waiting"] = list(row["waiting"])
                row["start_words"] = start_words(rules)
                if rules.cycle:  # a match of games in turn (Tavli): its games, the first's start
                    row["games"] = list(rules.cycle)
            out.append(row)
    # playable games in the order of VARIANTS (as the board's menu offers them), then the others
    order = {k: i for i, k in enumerate(VARIANTS)}
    out.sort(key=lambda r: order.get(r["key"], len(order)))
    return out


def start_words(rules):
    """The ruleset's start in words, each side in its own numbering: 'White 2 on 24, 5 on 13,
    3 on 8, 5 on 6; Black the same'."""
    from bgrules.position import OPP, BAR, waiting

    c = rules.start_position().cells
    sides = []
    for side in (0, OPP):
        parts = ["%d on %d" % (c[side + p], p) for p in range(24, 0, -1) if c[side + p]]
        if c[side + BAR]:
            parts.append("%d on the bar" % c[side + BAR])
        if waiting(c, side):
            parts.append("%d waiting to enter" % waiting(c, side))
        sides.append(", ".join(parts))
    if sides[0] == sides[1]:
        return "White and Black each %s (own numbering)" % sides[0]
    return "White %s; Black %s (own numbering)" % tuple(sides)


def run(args):
    table = rows(args.all)
    if args.json:
        for row in table:
            print(json.dumps(row))
        return 0
    width = max(len(r["key"]) for r in table)
    for r in table:
        flags = ("assumed" if r["assumed"] else "       ") + ("" if r["playable"] else "  not playable yet")
        print("%-*s  %s  %s: %s" % (width, r["key"], flags, r["name"], r["summary"]))
        if r.get("start"):
            waiting = r["waiting"]
            print("%-*s  start: %s%s: %s" % (width, "", r["start"], " with --waiting %d,%d" % tuple(waiting)
                                             if any(waiting) else "", r["start_words"]))
        if r["texts"]:
            print("%-*s  texts: %s" % (width, "", r["texts"]))
        if r["sources"]:
            print("%-*s  sources: %s" % (width, "", r["sources"]))
        if r["settings"]:
            print("%-*s  settings: %s" % (width, "", r["settings"]))
        if r["assumed"]:
            print("%-*s  assumed: %s" % (width, "", r["assumed"]))
    print("\n--variant KEY for bgc moves, check, demo and sim; on the board: new variant=KEY. "
          "Rules and sources: docs/variants.md")
    return 0
