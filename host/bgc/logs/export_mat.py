"""A MatchLog as a Jellyfish .mat match file, laid out as GNU Backgammon writes it.

    ; [Player 1 "Anna"]
    ...
     5 point match

     Game 1
     Anna : 0                           Bruno : 0
      1)                             31: 8/5 6/5
      2) 52: 13/8 24/22              63: 24/18 13/10
      3)  Doubles => 2                Takes
     ...
                                      Wins 1 point

Player 0 is the left column, player 1 the right one. Moves are written as GNU Backgammon's own
export writes them: the dice (larger first), then one from/to pair per die with 25 for the bar,
0 for off and ``*`` on a hit, in the order they were played. docs/formats-export.md says how every
journal record maps (cube actions, beavers, resignations, closed-out turns, condoned plays,
money sessions) and what the format cannot hold.
"""

import re

COLUMN = 27  # GNU Backgammon: "%3d) %-27s " for the left column

# The header's variation, as GNU Backgammon's .mat import (import.c, ImportMatVariation) reads it:
# it compares the start of the line, case and all, with "Backgammon", "NackGammon" and
# "HyperGammon (1)" .. "HyperGammon (3)" (the number is the checkers each side has). Any other
# name is kept as a comment and the match is read as standard backgammon first.
MAT_VARIATIONS = {"standard": "Backgammon", "nackgammon": "NackGammon", "hypergammon": "HyperGammon (3)"}


def mat_name(name):
    """A player name as the .mat player line can carry it: GNU Backgammon reads up to the colon
    and turns spaces into underscores, so write it that way (31 characters at most)."""
    out = "".join("_" if ch.isspace() else ("-" if ch == ":" else ch) for ch in name.strip())
    return (out or "Player")[:31]


def event_date(text):
    """``text`` (YYYY.MM.DD, or with - or / between) as the header's "YYYY.MM.DD", as GNU
    Backgammon writes it; ValueError when it is not a real date in that form."""
    from datetime import date

    m = re.fullmatch(r"(\d{4})[./-](\d{1,2})[./-](\d{1,2})", text.strip())
    if not m:
        raise ValueError("a date is written YYYY.MM.DD")
    year, month, day = (int(x) for x in m.groups())
    try:
        date(year, month, day)
    except ValueError as exc:
        raise ValueError("no such date (%s)" % exc) from None
    return "%04d.%02d.%02d" % (year, month, day)


def _point(place):
    return str(place)  # 25 is the bar, 0 is off, as GNU Backgammon's plain move format


def move_text(act):
    d = act["dice"]
    parts = ["%s/%s%s" % (_point(a), _point(b), "*" if hit else "") for a, b, hit in act["steps"]]
    return ("%d%d: %s" % (d[0], d[1], " ".join(parts))).rstrip()


def _points_word(n):
    return "Wins %d point%s" % (n, "" if n == 1 else "s")


class _Writer:
    def __init__(self):
        self.lines = []
        self.row = 0
        self.left = None  # pending left-column text of the current row

    def flush(self):
        if self.left is not None:
            self.row += 1
            self.lines.append(("%3d) %s" % (self.row, self.left)).rstrip())
            self.left = None

    def put(self, player, text):
        if player == 0:
            self.flush()
            self.left = text
        else:
            self.row += 1
            self.lines.append("%3d) %-*s %s" % (self.row, COLUMN, self.left or "", text))
            self.left = None

    def wins(self, player, points):
        """The 'Wins N points' line in the winner's column."""
        if player == 0:
            self.flush()
            self.lines.append("      " + _points_word(points))
        else:
            if self.left is not None:
                self.row += 1
                self.lines.append("%3d) %-*s %s" % (self.row, COLUMN, self.left, _points_word(points)))
                self.left = None
            else:
                self.lines.append(" " * 34 + _points_word(points))


def game_lines(log, game, warnings):
    names = [mat_name(n) for n in log.names]
    out = [" Game %d" % game.number]
    left = "%s : %d" % (names[0], game.score[0])
    out.append(" %-31s%s%s : %d" % (left, "" if len(left) < 31 else " ", names[1], game.score[1]))
    if game.start_cube > 1:
        warnings.append("game %d: the cube started at %d (automatic doubles); the .mat format cannot "
                        "say so: use --format sgf" % (game.number, game.start_cube))
    w = _Writer()
    beavered = warned_beaver = False
    for act in game.actions:
        a = act["a"]
        if a == "move":
            if len(act["steps"]) > 4:
                warnings.append("game %d, line %d: the condoned play %s moves %d checkers; a .mat move "
                                "holds 4: the rest is left out" % (game.number, act["line"], act["notation"],
                                                                   len(act["steps"])))
                act = dict(act, steps=act["steps"][:4])
            w.put(act["p"], move_text(act))
        elif a == "double":
            w.put(act["p"], " Doubles => %d" % act["cube"])
        elif a == "beaver":
            # Jellyfish's word; the take of a beaver is implied by the next roll.
            w.put(act["p"], " Beavers => %d" % act["cube"])
            beavered = True
            if not warned_beaver:
                warnings.append("game %d: beavers, raccoons and otters do not import correctly into GNU "
                                "Backgammon from a .mat file: use --format sgf for this session" % game.number)
                warned_beaver = True
        elif a == "take":
            if not beavered:
                w.put(act["p"], " Takes")
            beavered = False
        elif a == "drop":
            w.put(act["p"], " Drops")
            beavered = False
        elif a == "accept":
            pass  # the "Wins" line below is the resignation in this format
        # tie, pass, resign (answered by accept/reject), reject, note: nothing in a .mat
    if game.result is not None:
        winner, points, kind, how = game.result
        w.wins(winner, points)
    w.flush()
    return out + w.lines


def mat_text(log, date=None):
    """(text, warnings): the .mat file for ``log`` (a journals.MatchLog)."""
    warnings = []
    s = log.settings
    head = ['; [Player 1 "%s"]' % mat_name(log.names[0]), '; [Player 2 "%s"]' % mat_name(log.names[1])]
    if date:
        head.append('; [EventDate "%s"]' % event_date(date))
    rules = s.get("rules", "standard")
    head.append('; [Variation "%s"]' % MAT_VARIATIONS.get(rules, "Backgammon"))
    if log.length:
        head.append('; [Crawford "%s"]' % ("On" if s.get("crawford") else "Off"))
        if s.get("holland"):
            warnings.append("the Holland rule is not part of the .mat format")
    else:
        head.append('; [Jacoby "%s"]' % ("On" if s.get("jacoby") else "Off"))
        head.append('; [Beaver "%s"]' % ("On" if s.get("beavers") else "Off"))
    if rules not in MAT_VARIATIONS:
        warnings.append("the .mat format has no variation for %s; GNU Backgammon reads it as standard "
                        "backgammon" % rules)
    lines = head + ["", " %d point match" % log.length, ""]
    for game in log.games:
        if not game.actions and game.result is None:
            continue  # a game that had not started when the journal ends
        lines += game_lines(log, game, warnings)
        lines.append("")
    if log.problem:
        warnings.append("the journal stops at %s; the .mat holds what came before" % log.problem[1])
    return "\n".join(lines) + "\n", warnings


__all__ = ["mat_text", "mat_name", "move_text", "event_date", "MAT_VARIATIONS"]
