# A match (or a money session) as a state machine driven by the players' actions.
#
# The controller reports what happens at the board (dice from the dice driver, the final position
# the sensors saw, button presses); Match checks each action against the rules and either changes
# state or raises MatchError with the reason to show. It never draws dice itself, so every match
# can be replayed from its journal.
#
# Players are 0 and 1 (GNU Backgammon's order); the position is always kept from the view of the
# player on roll, as Position and Turn expect. docs/match-play.md has the rules with the seed
# references and the one-line resume format.

from bgrules.position import Position, BAR, OPP, OFF, CHECKERS, waiting
from bgrules.turn import Turn
from bgrules.notation import Play
from bgrules.rules import STANDARD, DRAW, ruleset
from bgrules import matchid
# every phase a Match can be in (CHOOSE is set by bgrules.turn_parts), for those who import them from here
from bgrules import (MatchError, OPENING, ROLL, DOUBLED, PLAY, CHOOSE, RESIGN,  # noqa: F401
                                  GAME_OVER, MATCH_OVER)


SINGLE = 1
GAMMON = 2
BACKGAMMON = 3
KINDS = ("", "single game", "gammon", "backgammon")
# The redouble levels of one cube action: an ordinary double, then the immediate redoubles.
ANIMALS = ("double", "beaver", "raccoon", "otter")

# The Match ID stores log2 of the cube in 4 bits.
MAX_CUBE = 32768


def _die(d):
    if not (isinstance(d, int) and 1 <= d <= 6):
        raise MatchError("Dice show 1 to 6")


class Match:
    """A match to ``length`` points (0: a money session) between player 0 and player 1.

    Settings: crawford (Crawford rule, matches), holland (Holland rule, matches), auto_doubles
    (most automatic doubles per game on equal opening dice, money), beavers (immediate redoubles
    allowed: 0 none, 1 beaver, 2 also raccoon, 3 also otter; money), jacoby (money), names.
    """

    def __init__(self, length=0, crawford=True, holland=False, auto_doubles=0, beavers=0,
                 jacoby=False, names=("White", "Black"), rules=STANDARD):
        if not (isinstance(length, int) and 0 <= length <= matchid.MAX_LENGTH):
            raise MatchError("Match length 1-64, 0 = money")
        # Seed 000, "Altre precisazioni": none of these is used in matches.
        if length and auto_doubles:
            raise MatchError("Auto-doubles: money only")
        if length and beavers:
            raise MatchError("Beavers: money only")
        if length and jacoby:
            raise MatchError("Jacoby rule: money only")
        if holland and not (length and crawford):
            raise MatchError("Holland rule needs Crawford")
        if not 0 <= beavers <= 3:
            raise MatchError("Beavers: 0-3 (otter)")
        if not 0 <= auto_doubles <= 15:
            raise MatchError("Auto-doubles: 0-15")
        if len(names) != 2:
            raise MatchError("Two player names")
        for name in names:
            if not name or "|" in name or "\n" in name:
                raise MatchError("Bad player name")
        self.length = length
        # Crawford and Holland are cube rules (seed 000: in the Crawford game "nessuno dei due
        # giocatori può raddoppiare"): a match without a cube (Tavli) has no Crawford game.
        self.crawford_rule = bool(crawford) and length > 0 and rules.cube
        self.holland = bool(holland) and self.crawford_rule
        self.auto_doubles = auto_doubles
        self.beavers = beavers
        self.jacoby = bool(jacoby)
        self.names = (names[0], names[1])
        self.series = rules  # the match's ruleset; Tavli's games each have their own (rules)
        self.rules = rules
        self.score = [0, 0]
        self.game = 1
        self.crawford_game = False  # no doubling in this game
        self.post_crawford = False
        self.winner = None  # of the match
        self.result = None  # the last finished game: (winner, points, kind, how)
        self._new_game()

    def _new_game(self):
        self.rules = self.series
        self.phase = OPENING
        self.position = self.rules.start_position()
        self.on_roll = 0
        self.to_act = 0
        self.dice = (0, 0)
        self.turn = None  # Turn of the rolled dice: what the board asks during the play
        self.cube = 1
        self.cube_owner = -1
        self.offer = 0  # while DOUBLED: index into ANIMALS of the pending offer
        self.resign_offer = 0
        self.auto_done = 0
        self.turns = [0, 0]  # turns played this game, for the Holland rule
        self.condoned = 0  # illegal plays the opponent accepted this game
        self.last_condoned = False
        self.preset = None  # the dice of the next roll when the variant fixes them in advance
        self.part = None  # where a turn made of parts stands (bgrules.turn_parts)
        self.repeated = False  # Fixed roll: the position on roll has come back a third time
        if self.rules.opening:
            # Rules.opening "reroll" (Tavli's games in turn have it too): bgrules.match_series
            from bgrules.match_series import start

            start(self)

    def _parts(self):
        # The turn-parts code, imported only for a ruleset whose turns have parts.
        r = self.rules
        if r.doubles in ("four", "once") and not r.acey_deucey and not r.free_choice:
            return None
        from bgrules import turn_parts

        return turn_parts

    def preset_dice(self):
        """The dice the next roll must show (Fixed roll: the opening roll; Open roll: rolled
        during the opponent's turn), or None when they are rolled freely."""
        return self.preset

    def _preset_after(self, dice, next_dice):
        # Fixed roll keeps the opening dice; Open roll takes the dice rolled for the next turn.
        if self.rules.fixed_roll:
            self.preset = (max(dice), min(dice))
        elif self.rules.open_roll:
            if next_dice is None:
                raise MatchError("Open roll: roll the next dice too")
            _die(next_dice[0])
            _die(next_dice[1])
            self.preset = (max(next_dice), min(next_dice))

    def _check_preset(self, d1, d2):
        p = self.preset
        if p is not None and (max(d1, d2), min(d1, d2)) != p:
            raise MatchError("%s: the roll is %d-%d" % (self.rules.name, p[0], p[1]))

    # --- what the display needs ------------------------------------------------------------

    def pips(self):
        """Pip counts (player 0, player 1)."""
        mine, theirs = self.position.pips()
        return (mine, theirs) if self.on_roll == 0 else (theirs, mine)

    def is_over(self):
        return self.phase == MATCH_OVER

    def double_refusal(self, player=None):
        """Why ``player`` (default: the player on roll) may not double now; None if they may."""
        phase = self.phase
        if phase == MATCH_OVER:
            return "The match is over"
        if phase == GAME_OVER:
            return "The game is over"
        if phase == OPENING:
            return "No double before opening"
        if not self.rules.cube:
            return "No cube in %s" % self.rules.name
        if phase == DOUBLED:
            return "Take or drop first"
        if phase == RESIGN:
            return "Answer resign first"
        if player is not None and player != self.on_roll:
            return "Double on your own turn"
        if phase == PLAY:
            return "Double before rolling"
        if self.part:
            return self._parts().refusal(self)
        if self.crawford_game:
            return "Crawford game: no doubling"
        if self.cube_owner != -1 and self.cube_owner != self.on_roll:
            return "Only the cube owner may double"
        if self.holland and self.post_crawford:
            me = self.on_roll
            # Holland rule (seed 000, match-play FAQ): the trailer waits for their third turn.
            if self.score[me] < self.score[1 - me] and self.turns[me] < 2:
                return "Holland: double from turn 3"
        if self.cube * 2 > MAX_CUBE:
            return "Cube at its limit"
        return None

    def may_double(self, player=None):
        return self.double_refusal(player) is None

    def closed_out(self):
        """The player on roll has a checker on the bar and every entry point is closed."""
        if self.rules.turn is not None:
            # Catch me, Doublets: nothing on the bar ever enters (a caught checker, Doublets'
            # marker), so nobody is closed out; the listed turn says what the roll can do
            return False
        c = self.position.cells
        stuck = c[BAR]
        w = waiting(c)
        if w and not stuck:
            # checkers waiting to be entered must go first, or there is nothing else to move
            stuck = self.rules.enter_first > self.rules.checkers - w or w == CHECKERS - c[OFF]
        if not stuck:
            return False
        opp = self.rules.across or self.rules.opposite
        for d in range(1, 7):
            if c[OPP + opp[25 - d]] < self.rules.block:
                return False
        return True

    # --- actions ---------------------------------------------------------------------------

    def _check_actor(self, player):
        if player is not None and player != self.to_act:
            raise MatchError("Not your turn")

    def _refuse_phase(self):
        # The reason for any action that does not fit the current phase.
        phase = self.phase
        if phase == MATCH_OVER:
            raise MatchError("The match is over")
        if phase == GAME_OVER:
            raise MatchError("The game is over")
        if phase == OPENING:
            raise MatchError("Opening roll first")
        if phase == DOUBLED:
            raise MatchError("Take or drop first")
        if phase == RESIGN:
            raise MatchError("Answer resign first")
        if phase == PLAY:
            raise MatchError("Dice already rolled")
        raise MatchError("Roll the dice first")

    def opening_roll(self, die0, die1, next_dice=None):
        """Each player's single die (player 0's first). Equal dice: roll again (and in money play
        with automatic doubles, the cube turns, staying in the middle). Otherwise the higher die
        plays first with both numbers. Returns True when the game has started."""
        if self.phase != OPENING:
            self._refuse_phase()
        _die(die0)
        _die(die1)
        if die0 == die1:
            if self.auto_done < self.auto_doubles and self.cube * 2 <= MAX_CUBE:
                self.cube *= 2
                self.auto_done += 1
            return False
        first = 0 if die0 > die1 else 1
        if self.rules.opening:
            from bgrules.match_series import opening_roll  # "reroll": it only says who starts

            return opening_roll(self, first)
        self._preset_after((die0, die1), next_dice)
        self.on_roll = first
        self.to_act = first
        if first == 1:
            # The start is symmetric, but a variant's need not be: view it from the player on roll.
            self.position = self.position.swapped()
        parts = self._parts()
        (parts.rolled(self, die0, die1) if parts else self._rolled(die0, die1))
        return True

    def _rolled(self, d1, d2):
        self.dice = (d1, d2) if d1 >= d2 else (d2, d1)
        me = self.on_roll
        self.turn = (self.rules.turn or Turn)(self.position, d1, d2, self.rules, (self.names[me], self.names[1 - me]))
        self.phase = PLAY

    def double(self, player=None):
        """The player on roll turns the cube before rolling."""
        why = self.double_refusal(player)
        if why:
            raise MatchError(why)
        self.phase = DOUBLED
        self.offer = 0
        self.to_act = 1 - self.on_roll

    def take(self, player=None):
        if self.phase != DOUBLED:
            raise MatchError("No double to take")
        self._check_actor(player)
        self.cube *= 2
        # Seed 000 FAQ (raccoon/otter): only the ordinary double moves the cube; after beavers
        # it stays with the player who was doubled.
        self.cube_owner = 1 - self.on_roll
        self.offer = 0
        self.phase = ROLL
        self.to_act = self.on_roll

    def drop(self, player=None):
        """Refuse the double: the game is lost at the value before that double."""
        if self.phase != DOUBLED:
            raise MatchError("No double to drop")
        self._check_actor(player)
        loser = self.to_act
        self._end_game(1 - loser, self.cube, 0, "drop")

    def beaver(self, player=None):
        """Take and redouble at once, keeping the cube (a raccoon or otter when it answers a
        beaver or raccoon)."""
        if self.phase != DOUBLED:
            raise MatchError("No double to beaver")
        self._check_actor(player)
        level = self.offer + 1
        if self.length:
            raise MatchError("Match play: no beavers")
        if level > self.beavers:
            if level > 3:
                raise MatchError("Take or drop")
            raise MatchError("%ss are not allowed" % (ANIMALS[level][0].upper() + ANIMALS[level][1:]))
        if self.cube * 4 > MAX_CUBE:
            raise MatchError("Cube at its limit")
        # The redoubler accepts the pending value; the other side now answers the next one.
        self.cube *= 2
        self.offer = level
        self.to_act = 1 - self.to_act

    def roll(self, d1, d2, player=None, next_dice=None):
        """The dice of the player on roll (after any cube action); ``next_dice``: Open roll's
        dice for the opponent's next turn, rolled now."""
        if self.phase != ROLL:
            self._refuse_phase()
        if player is not None and player != self.on_roll:
            raise MatchError("Not your turn")
        _die(d1)
        _die(d2)
        self._check_preset(d1, d2)
        if not self.rules.fixed_roll:
            self._preset_after((d1, d2), next_dice)
        parts = self._parts()
        (parts.rolled(self, d1, d2) if parts else self._rolled(d1, d2))

    def pass_turn(self, player=None):
        """Skip the roll when the player on roll cannot enter (seed 000 FAQ: such a turn has no
        roll, though the player may still double first)."""
        if self.phase != ROLL:
            self._refuse_phase()
        if player is not None and player != self.on_roll:
            raise MatchError("Not your turn")
        if not self.closed_out():
            raise MatchError("You can enter: roll")
        if self.rules.open_roll:
            self.preset = None  # the passed turn's dice go with it: the opponent rolls afresh
        self.last_condoned = False
        self._next_turn(self.position)

    def play(self, final, condone=False, player=None):
        """The position at the end of the turn (a Position or a Play). An illegal play is
        refused with the reason, unless ``condone``: the opponent accepts it (seed 000,
        "Irregolarità") and the game goes on from the actual position."""
        if self.phase != PLAY:
            self._refuse_phase()
        if player is not None and player != self.on_roll:
            raise MatchError("Not your turn")
        if isinstance(final, Play):
            final = final.position
        why = self.turn.check(final)
        if why:
            if not condone:
                raise MatchError(why)
            me = self.on_roll
            rules = self.rules
            impossible = final.problem((self.names[me], self.names[1 - me]), rules.opposite, rules.checkers,
                                       rules.pinning, rules.waiting)
            if impossible:
                raise MatchError(impossible)
            self.condoned += 1
            self.last_condoned = True
        else:
            self.last_condoned = False
        result = self.rules.result(self.position, final)
        if result:
            self.position = final.copy()
            if result == DRAW:
                return self._end_game(self.on_roll, 0, 0, "draw")  # no winner: nobody scores
            me = self.on_roll
            winner = me if result > 0 else 1 - me
            kind = result if result > 0 else -result
            points = self._points(kind, 1 - winner)
            if self.rules.checker_points:
                points = CHECKERS - final.cells[(OPP if result > 0 else 0) + OFF]
            self._end_game(winner, points, kind, "play")
            return
        if self.part:
            self._parts().played(self, final)
        else:
            self._next_turn(final)

    def _next_turn(self, final):
        self.turns[self.on_roll] += 1
        # Pin: the next view carries whose checker is pinned where (bgrules/variants/pin.py)
        self.position = self.rules.after(self.position, final) if self.rules.pinning else final.swapped()
        self.on_roll = 1 - self.on_roll
        self.to_act = self.on_roll
        self.dice = (0, 0)
        self.turn = None
        self.part = None
        self.phase = ROLL
        if self.rules.fixed_roll:
            self.rules.note_turn(self)  # Fixed roll: the same position a third time (variants/fixedroll.py)

    def resign(self, kind=SINGLE, player=None):
        """``player`` (default: the player to act) offers to lose a single game (1), a gammon (2)
        or a backgammon (3), as far as the game counts them (Rules.most: Tavli's games count 2 at
        most)."""
        if self.phase not in (OPENING, ROLL, PLAY):
            self._refuse_phase()
        if kind not in (SINGLE, GAMMON, BACKGAMMON):
            raise MatchError("Resign 1, 2 or 3")
        most = self.rules.most()
        if kind > most:
            raise MatchError("%s counts at most a %s" % (self.rules.name, KINDS[most]))
        who = self.to_act if player is None else player
        if who not in (0, 1):
            raise MatchError("Players are 0 and 1")
        self.resign_offer = kind
        self.phase = RESIGN
        self.to_act = 1 - who

    def accept(self, player=None):
        if self.phase != RESIGN:
            raise MatchError("No resign to accept")
        self._check_actor(player)
        kind = self.resign_offer
        self._end_game(self.to_act, self._points(kind, 1 - self.to_act), kind, "resign")

    def reject(self, player=None):
        if self.phase != RESIGN:
            raise MatchError("No resign to reject")
        self._check_actor(player)
        self.resign_offer = 0
        self.to_act = self.on_roll
        self.phase = self._phase_before_resign()

    def _phase_before_resign(self):
        if self.turn is not None:
            return PLAY
        if self.game_started():
            return ROLL
        return OPENING

    def game_started(self):
        # (ROLL with no turn played: Rules.opening "reroll" has said who starts)
        return self.phase == ROLL or self.turn is not None or self.turns[0] + self.turns[1] > 0

    def next_game(self):
        if self.phase == MATCH_OVER:
            raise MatchError("The match is over")
        if self.phase != GAME_OVER:
            raise MatchError("Finish this game first")
        if self.crawford_game:
            self.crawford_game = False
            self.post_crawford = True
        elif self.crawford_rule and not self.post_crawford:
            # Crawford rule: the game right after a player first reaches N-1.
            if self.length - 1 in self.score:
                self.crawford_game = True
        self.game += 1
        self._new_game()

    # --- scoring ---------------------------------------------------------------------------

    def _points(self, kind, loser):
        # Jacoby rule: with the cube never turned, gammons and backgammons count single.
        if self.jacoby and not self.length and self.cube_owner == -1:
            kind = SINGLE
        if self.rules.pip_score:  # Pin (seed 002): the pips the loser still needed, times the kind
            return kind * self.pips()[loser]
        return kind * self.cube

    def _end_game(self, winner, points, kind, how):
        self.result = (winner, points, kind, how)
        total = self.score[winner] + points
        if self.length and total > self.length:
            total = self.length  # no bonus beyond the match length
        self.score[winner] = total
        self.dice = (0, 0)
        self.turn = None
        self.part = None
        self.offer = 0
        if self.length and total >= self.length:
            self.phase = MATCH_OVER
            self.winner = winner
        else:
            self.phase = GAME_OVER
        if how != "resign":
            self.resign_offer = 0

    # --- GNU Backgammon Match ID and the resume line ------------------------------------------

    def match_key(self):
        phase = self.phase
        if phase in (GAME_OVER, MATCH_OVER):
            how = self.result[3]
            state = matchid.GAME_DROPPED if how == "drop" else (
                matchid.GAME_RESIGNED if how == "resign" else matchid.GAME_OVER)
        elif self.game_started():
            state = matchid.GAME_PLAYING
        else:
            state = matchid.GAME_NONE
        return matchid.MatchKey(
            cube=self.cube, cube_owner=self.cube_owner, on_roll=self.on_roll,
            crawford=self.crawford_game, state=state, to_act=self.to_act,
            doubled=phase == DOUBLED, resign=self.resign_offer, dice=self.dice,
            length=self.length, score=self.score, jacoby=self.jacoby)

    def match_id(self):
        return self.match_key().id()

    def position_id(self):
        """Position ID from the view of the player on roll (GNU Backgammon's convention)."""
        return self.position.id()

    def dumps(self):
        """One line that ``Match.loads`` turns back into this match (see docs/match-play.md)."""
        rules = self.series.key
        cstate = 1 if self.crawford_game else (2 if self.post_crawford else 0)
        fields = [
            "v1",
            "c%d" % self.crawford_rule,
            "h%d" % self.holland,
            "a%d.%d" % (self.auto_doubles, self.auto_done),
            "b%d.%d" % (self.beavers, self.offer),
            "j%d" % self.jacoby,
            "s%d" % cstate,
            "n%d" % self.game,
            "t%d.%d" % (self.turns[0], self.turns[1]),
            "k%d.%d" % (self.condoned, self.last_condoned),
            "r" + rules,
        ]
        if self.preset:
            fields.append("x%d.%d" % self.preset)
        if self.position.pinned:
            fields.append("p%d" % self.position.pinned)
        c = self.position.cells
        if self.rules.waiting:
            fields.append("w%d.%d" % (waiting(c), waiting(c, OPP)))
        if self.part:
            fields.append(self._parts().saved(self))
        if self.result:
            winner, points, kind, how = self.result
            fields.append("g%d.%d.%d.%s" % (winner, points, kind, how))
        return "%s %s %s %s|%s" % (self.match_id(), self.position_id(), ",".join(fields),
                                  self.names[0], self.names[1])

    @classmethod
    def loads(cls, line):
        """The match saved by ``dumps``; MatchError when the line is torn or not one."""
        from bgrules.match_read import loads  # only to undo an action whose journal write failed

        return loads(cls, line)
