# The chouette: three or more players at one board (seed 000, "La chouette"). The box plays alone
# against the team; the captain rolls and moves for the team; the others follow in the line.
#
# This module adds only what the chouette adds to a game: the seats (the line), the cubes (one
# common cube or one per team member) and the ledger. Each game on the board is an ordinary
# money-game bgrules.match.Match (box = player 0, the captain = player 1), which stays the judge
# of legality, of when a cube may be turned, and of the kind of win (single, gammon, backgammon).
# Like Match it draws no dice and does no I/O: every action comes from the board or the journal,
# so an evening replays exactly. docs/chouette.md has the rules with the seed's text and the
# choices made where the seed leaves them open.

from bgrules.match import Match, MatchError, OPENING, ROLL, DOUBLED, GAME_OVER, MATCH_OVER, MAX_CUBE

COMMON = "common"  # one common cube: the captain turns it for the team
SEVERAL = "several"  # each team member owns a cube

# Phases of the evening.
SEATING = "seating"  # one die per player sets the line
READY = "ready"  # between games: join, leave, box partner, then the next game
GAME = "game"  # a game is on the board (the Match says where it stands)
CLOSED = MATCH_OVER  # the evening is over (a board that boots does not resume it)

MIN_PLAYERS = 3


class ChouetteError(MatchError):
    """An action the chouette does not allow now; the message is shown to the players."""


def _name_ok(name):
    return isinstance(name, str) and 0 < len(name) <= 20 and "|" not in name and "\n" not in name


def signed(points):
    """A ledger figure as the players read it: +2, -1.5, and 0 for an even balance."""
    if not points:
        return "0"
    return ("%+d" % points) if points == int(points) else ("%+.1f" % points)


def cube_words(cubes):
    """The cube form in words: "one common cube" (the captain turns it for the team) or
    "several cubes" (one per team member)."""
    return "one common cube" if cubes == COMMON else "several cubes"


LOT_OUTCOMES = 36  # the outcomes of one roll of two dice: (d1 - 1) * 6 + (d2 - 1)


def draw_lot(count, roll):
    """A fair draw of one of ``count`` candidates (1 to 36) with the board's dice: ``roll()``
    gives two dice. The 36 outcomes are numbered 0..35 and each candidate gets the same number
    of them; the few left over (36 % count) roll again. One die taken modulo the count would
    never draw a seventh candidate and favour the first ones."""
    if not 1 <= count <= LOT_OUTCOMES:
        raise ChouetteError("A lot among 1 to 36")
    usable = LOT_OUTCOMES - LOT_OUTCOMES % count
    for _ in range(64):
        d1, d2 = roll()
        outcome = (d1 - 1) * 6 + (d2 - 1)
        if outcome < usable:
            return outcome % count
    # 64 rolls out of range in a row: at most (1/6)**64 from fair dice
    raise ChouetteError("The dice never fall in range")


class Chouette:
    """A chouette evening.

    Settings: cubes (COMMON or SEVERAL), lone_take (with this many players or more, a lone
    taker of the box's double must drop too; 0: never; seed: five), partner_from (the box may
    take a partner with this many players or more; 0: never; seed: eight), jacoby (money rule,
    per cube)."""

    def __init__(self, names, cubes=COMMON, lone_take=5, partner_from=8, jacoby=False):
        if cubes not in (COMMON, SEVERAL):
            raise ChouetteError("Cubes: common or several")
        if len(names) < MIN_PLAYERS:
            raise ChouetteError("A chouette needs 3 players")
        for n in names:
            if not _name_ok(n):
                raise ChouetteError("Bad player name")
        for i in range(len(names)):
            if names[i] in names[i + 1:]:
                raise ChouetteError("Names must differ")
        if not (isinstance(lone_take, int) and lone_take >= 0):
            raise ChouetteError("Lone take: a number of players")
        if not (isinstance(partner_from, int) and partner_from >= 0):
            raise ChouetteError("Partner: a number of players")
        self.cubes = cubes
        self.lone_take = lone_take
        self.partner_from = partner_from
        self.jacoby = bool(jacoby)
        self.players = list(names)  # everyone who ever sat down, for the ledger's columns
        self.line = []  # box, captain, then the team in order (set by the seating dice)
        self.totals = {}
        for n in names:
            self.totals[n] = 0
        self.ledger = []  # per finished game: (game number, box, captain, [(name, points)])
        self.partners = []  # per finished game: the box's partner or None
        self.game = 0
        self.phase = SEATING
        # Seating: buckets of players not yet told apart, best first; dice of the round.
        self._buckets = [list(names)]
        self._round = {}
        self.seat_dice = []  # (name, die) in the order rolled, for the record
        self.match = None
        self.partner = None
        self._clear_game()

    def _clear_game(self):
        self.captain = None
        self.playing = []  # team members still in this game, in line order
        self.settled = []  # (name, points for the member) settled this game (drops)
        self.cube = {}  # SEVERAL: name -> [value, owner] (owner -1 centre, 0 box, 1 member)
        self.asking = []  # box's double: members still to answer, in line order
        self.answers = []  # (name, take) given so far
        self.doubler = None  # a member's double waiting for the box's answer (SEVERAL)
        self.offer_names = []  # the members the box's double went to
        self.beaten_by = None  # SEVERAL: a captain the box dropped against
        self.result = None
        self.game_team = []  # the team as the game started (line order), the box's partner included

    # --- the line ----------------------------------------------------------------------------

    def box(self):
        return self.line[0] if self.line else None

    def team(self):
        """The team in line order (the captain first between games)."""
        return self.line[1:]

    def to_roll(self):
        """SEATING: the player whose die is awaited."""
        if self.phase != SEATING:
            return None
        for b in self._buckets:
            if len(b) > 1:
                for n in b:
                    if n not in self._round:
                        return n
        return None

    def seat_roll(self, die):
        """One die for the player ``to_roll`` (seed: each player rolls one die; equal dice are
        rolled again; the highest is the box, the second the captain, the rest in order)."""
        who = self.to_roll()
        if who is None:
            raise ChouetteError("Seats are set")
        if not (isinstance(die, int) and 1 <= die <= 6):
            raise ChouetteError("Dice show 1 to 6")
        self._round[who] = die
        self.seat_dice.append((who, die))
        for i in range(len(self._buckets)):
            b = self._buckets[i]
            if len(b) > 1:
                break
        for n in b:
            if n not in self._round:
                return who
        # The round of this bucket is complete: split it by die, highest first.
        parts = []
        for d in (6, 5, 4, 3, 2, 1):
            group = [n for n in b if self._round[n] == d]
            if group:
                parts.append(group)
        for n in b:
            del self._round[n]
        self._buckets[i : i + 1] = parts
        if all(len(x) == 1 for x in self._buckets):
            self.line = [x[0] for x in self._buckets]
            self._buckets = []
            self.phase = READY
        return who

    def join(self, name):
        """A new player sits at the end of the line (seed: "Ogni nuovo giocatore entra partendo
        dall'ultima posizione della coda"); one who joins during a game plays from the next."""
        if not _name_ok(name):
            raise ChouetteError("Bad player name")
        if name in self.line or (self.phase == SEATING and name in self.players):
            raise ChouetteError("%s is already here" % name)
        if self.phase == SEATING:
            self._buckets.append([name])  # last, whatever the others roll
        else:
            self.line.append(name)
        if name not in self.players:
            self.players.append(name)
            self.totals[name] = 0

    def leave_refusal(self, name):
        """Why ``name`` may not leave now; None when they may. Seed: players leave "in qualunque
        momento". During a game that is anyone with nothing left on the board: a member who has
        dropped (out of the game, stake paid) or who sits this game out (joined during it). The
        box, the box's partner and the members still playing finish the game first."""
        if self.phase == SEATING:
            return "Roll for seats first"
        if name not in self.line:
            return "%s is not in the line" % name
        if self.phase == GAME and self.result is None:
            if name == self.line[0] or name == self.partner:
                return "%s holds the box: leave after this game" % name
            if name in self.playing:
                return "%s plays this game: drop or finish it first" % name
        if len(self.line) <= MIN_PLAYERS:
            return "A chouette needs 3 players"
        return None

    def leave(self, name):
        """A player leaves (leave_refusal says when); the line closes up (a box who leaves between
        games hands the box to the captain). Their totals stay in the ledger; they may come back
        (``join``) at the end of the line."""
        why = self.leave_refusal(name)
        if why:
            raise ChouetteError(why)
        self.line.remove(name)
        if self.partner == name:
            self.partner = None

    def close(self):
        """The evening ends (between games)."""
        if self.phase == GAME and self.result is None:
            raise ChouetteError("Finish this game first")
        self.phase = CLOSED

    def set_cubes(self, cubes):
        """Change the cube form between games (a club may play both in one evening)."""
        if cubes not in (COMMON, SEVERAL):
            raise ChouetteError("Cubes: common or several")
        if self.phase == GAME:
            raise ChouetteError("Change cubes between games")
        self.cubes = cubes

    # --- the box's partner -----------------------------------------------------------------

    def partner_order(self):
        """Whom the partnership is offered to: the captain first, then backwards along the line
        (seed, "Il compagno del box")."""
        team = self.team()
        return [team[0]] + [team[i] for i in range(len(team) - 1, 0, -1)]

    def partner_refusal(self):
        """Why the box may not take a partner now; None when it may: with ``partner_from``
        players or more, between games or at a game's start before the opening roll (so from
        the first game on: the board starts game 1 as soon as the seats are rolled)."""
        if not self.partner_from:
            return "No box partner here"
        if len(self.line) < self.partner_from:
            return "Partner: %d players or more" % self.partner_from
        if self.phase == SEATING:
            return "Roll for seats first"
        if self.phase == GAME and (self.result is not None or self.match.phase != OPENING):
            return "Partner: before the game"
        return None

    def lot_candidates(self):
        """Among whom the partner is drawn by lot (seed: the whole team but the captain)."""
        return self.team()[1:]

    def choose_partner(self, accepts, lot=0):
        """``accepts``: the answers in partner_order (True: will partner the box); the first
        who accepts is the partner. Nobody: the partner is drawn by lot among lot_candidates();
        ``lot`` is the index drawn (draw_lot; older journals hold a die, taken modulo)."""
        why = self.partner_refusal()
        if why:
            raise ChouetteError(why)
        order = self.partner_order()
        chosen = None
        for i in range(min(len(accepts), len(order))):
            if accepts[i]:
                chosen = order[i]
                break
        if chosen is None:
            if not (isinstance(lot, int) and lot >= 0):
                raise ChouetteError("Partner: a lot drawn")
            others = self.lot_candidates()
            chosen = others[lot % len(others)]
        self.partner = chosen
        if self.phase == GAME:
            self._seat_team()
        return chosen

    def _seat_team(self):
        # The game's team without the box's partner: the captain is its first member.
        self.playing = [n for n in self.game_team if n != self.partner]
        self.cube = {}
        for n in self.playing:
            self.cube[n] = [1, -1]
        self._new_captain()

    # --- a game --------------------------------------------------------------------------------

    def start_game(self):
        """The next game: box against the team, the captain at the board."""
        if self.phase == SEATING:
            raise ChouetteError("Roll for seats first")
        if self.phase == GAME:
            raise ChouetteError("Finish this game first")
        if len(self.line) < MIN_PLAYERS:
            raise ChouetteError("A chouette needs 3 players")
        self._clear_game()
        self.game += 1
        self.phase = GAME
        self.game_team = self.line[1:]
        self.match = Match(0, jacoby=self.jacoby and self.cubes == COMMON, names=(self.line[0], self.line[1]))
        self._seat_team()
        return self.match

    def is_over(self):
        """The game just played is settled (until the next start_game)."""
        return self.result is not None

    def cube_of(self, name):
        """(value, owner) of ``name``'s cube: owner -1 centre, 0 box, 1 the team side."""
        if self.cubes == COMMON:
            return self.match.cube, self.match.cube_owner
        c = self.cube[name]
        return c[0], c[1]

    def double_refusal(self, side, name=None):
        """Why ``side`` (0 box, 1 team; for the team in SEVERAL, member ``name``, default the
        captain) may not double now; None when it may."""
        if self.phase != GAME or self.result is not None:
            return "No game on"
        if self.cubes == COMMON and side == 1 and name and name != self.captain:
            # Seed: with one cube a member's only own decision is to take or pass
            return "Only the captain doubles"
        m = self.match
        why = m.double_refusal(side)
        if why:
            return why
        if self.cubes == COMMON:
            return None
        if side == 0:
            if not self.box_targets():
                return "No cube to turn"
            return None
        name = name or self.captain
        if name not in self.playing:
            return "%s is not playing" % name
        value, owner = self.cube[name]
        if owner == 0:
            return "Only the cube owner may double"
        if value * 2 > MAX_CUBE:
            return "Cube at its limit"
        return None

    def box_targets(self):
        """SEVERAL: the members whose cube the box may turn now."""
        return [n for n in self.playing if self.cube[n][1] != 1 and self.cube[n][0] * 2 <= MAX_CUBE]

    def box_double(self, names=None):
        """The box doubles: the whole team (COMMON), or in SEVERAL the members named (default
        all whose cube the box may turn). Each member then answers (``answer``)."""
        why = self.double_refusal(0)
        if why:
            raise ChouetteError(why)
        if self.cubes == COMMON:
            names = list(self.playing)
        else:
            targets = self.box_targets()
            if names is None:
                names = targets
            for n in names:
                if n not in targets:
                    raise ChouetteError("No double to %s" % n)
            names = [n for n in self.playing if n in names]
            if not names:
                raise ChouetteError("No cube to turn")
        self.match.double(0)
        self.offer_names = names
        self.asking = list(names)
        self.answers = []

    def to_answer(self):
        """The member whose answer to the box's double is awaited (line order), or None."""
        return self.asking[0] if self.asking else None

    def answer(self, take, name=None):
        """A member takes or drops the box's double (seed: each decides alone). When the last
        answer is in, the drops are settled and the game goes on with the takers."""
        if not self.asking:
            raise ChouetteError("No double to answer")
        if name is None:
            name = self.asking[0]
        if name not in self.asking:
            raise ChouetteError("%s does not answer now" % name)
        self.asking.remove(name)
        self.answers.append((name, bool(take)))
        if not self.asking:
            self._resolve_box_double()

    def _resolve_box_double(self):
        takers = [n for n, t in self.answers if t]
        # Seed, "Se un solo giocatore accetta un cubo": with five or more players, if all the team
        # but one drop the box's double, the one who would take must drop too.
        whole = len(self.offer_names) == len(self.playing)
        if (self.lone_take and len(self.line) >= self.lone_take and whole and len(self.offer_names) >= 2
                and len(takers) == 1):
            takers = []
        m = self.match
        for n, t in self.answers:
            if n in takers:
                continue
            value = self.cube_of(n)[0]
            self.settled.append((n, -value))
            self.playing.remove(n)
        if self.cubes == SEVERAL:
            for n in takers:
                self.cube[n] = [self.cube[n][0] * 2, 1]
        if not self.playing:
            m.drop(1)  # the box has won against everyone
            return self._finish()
        if self.cubes == COMMON:
            m.take(1)
        else:
            self._back_to_roll()
        if self.captain not in self.playing:
            # Seed: the best-placed member still playing is captain; the old one goes last.
            old = self.captain
            self.line.remove(old)
            self.line.append(old)
            self._new_captain()

    def _new_captain(self):
        self.captain = self.playing[0]
        m = self.match
        m.names = (m.names[0], self.captain)

    def _back_to_roll(self):
        # SEVERAL: the board game's own cube never moves; the turn goes on where it was.
        m = self.match
        m.phase = ROLL
        m.offer = 0
        m.to_act = m.on_roll

    def team_double(self, name=None):
        """The team doubles the box: the captain for the team (COMMON) or one member with their
        own cube (SEVERAL, default the captain). The box answers with ``box_answer``."""
        why = self.double_refusal(1, name)
        if why:
            raise ChouetteError(why)
        self.match.double(1)
        self.doubler = name or self.captain

    def box_answer(self, take):
        """The box takes or drops the team's double."""
        m = self.match
        if self.doubler is None or m.phase != DOUBLED:
            raise ChouetteError("No double to answer")
        who = self.doubler
        self.doubler = None
        if self.cubes == COMMON:
            if take:
                m.take(0)
            else:
                m.drop(0)
                self._finish()
            return
        value = self.cube[who][0]
        if take:
            self.cube[who] = [value * 2, 0]
            self._back_to_roll()
            return
        self.settled.append((who, value))
        self.playing.remove(who)
        if who == self.captain:
            self.beaten_by = who  # the box has lost to the captain: he takes the box after the game
        if not self.playing:
            m.drop(0)
            return self._finish()
        self._back_to_roll()
        if who == self.captain:
            self._new_captain()

    def check_over(self):
        """After a board action: if the board game has ended, settle the game. True when over."""
        if self.phase != GAME:
            return False
        if self.result is None and self.match.phase == GAME_OVER:
            self._finish()
        return self.result is not None

    def _points(self, name, kind):
        value, owner = self.cube_of(name)
        if self.jacoby and owner == -1:
            kind = 1  # Jacoby rule, per cube: a cube never turned pays single
        return kind * value

    def _finish(self):
        m = self.match
        winner, points, kind, how = m.result
        rows = list(self.settled)
        if how != "drop":
            for n in self.playing:
                p = self._points(n, kind) if self.cubes == SEVERAL else points
                rows.append((n, p if winner == 1 else -p))
        elif self.cubes == COMMON and winner == 1:
            rows = list(self.settled) + [(n, points) for n in self.playing]
        box_total = 0
        for n, p in rows:
            box_total -= p
        box = self.line[0]
        out = [(box, box_total)]
        if self.partner is not None:
            # Choice (the seed does not say): the partner shares the box's result half and half.
            half = box_total // 2 if box_total % 2 == 0 else box_total / 2
            out = [(box, half), (self.partner, half)]
        rows.sort(key=self._line_place)
        out += rows
        for n, p in out:
            self.totals[n] += p
        # Rotation (seed, "Ordine di gioco"; with several cubes the box stays while he beats
        # the captain): the captain is the one at the board now, or one the box dropped against.
        cap = self.captain
        box_won = True
        if self.beaten_by is not None:
            cap = self.beaten_by
            box_won = False
        elif cap in self.playing:
            box_won = winner == 0
        self.result = (self.game, box, cap, out, box_won)
        self.ledger.append((self.game, box, cap, out))
        self.partners.append(self.partner)
        line = self.line
        if cap not in line:
            # the captain the box dropped against has left: the box has lost all the same, and
            # the next in the line takes it
            box_won = False
            cap = None
        if box_won:
            line.remove(cap)
            line.append(cap)
        else:
            if cap is not None:
                line.remove(cap)
            line.remove(box)
            if cap is not None:
                line.insert(0, cap)
            line.append(box)
        self.partner = None
        self.phase = READY

    def _line_place(self, row):
        # a ledger row's place: the line's order; one who has left meanwhile after the others
        name = row[0]
        if name in self.line:
            return self.line.index(name)
        return len(self.line) + self.players.index(name)

    def points(self, game_index=-1):
        """The (name, points) rows of a finished game (last by default)."""
        return self.ledger[game_index][3]
