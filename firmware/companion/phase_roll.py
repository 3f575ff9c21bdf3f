# The controller's opening and roll phases (a mixin of controller.Companion): the opening roll,
# a roll or a keyed-in roll of own dice, a pass when closed out. The parts of a turn's dice (a
# variant's doubles played in parts, rolling again) belong here too.

from companion.codes import parts as _pb


def _fixed_dice(m):
    # The dice of Fixed roll and Open roll (companion.variant_dice), imported only for those
    # games: the standard game's roll is the board's dice as they fall.
    if m.rules.fixed_roll or m.rules.open_roll:
        from companion import variant_dice

        return variant_dice
    return None


def _with_next(rec, next_dice):
    # the journal record or event, with Open roll's next dice
    if next_dice:
        rec["next"] = next_dice
    return rec


class RollPhase:
    def _opening(self, entered=None):
        m = self.match
        if not self.board_ok:
            self.say("Fix the board first")
            return
        # Own dice are keyed in, except where the variant fixes the dice in advance (Open roll).
        if entered is None and self.entry and self.entry.own and not m.rules.open_roll:
            return self._dice_entry().begin(self, -1)
        if entered:
            d0, d1 = entered
            nxt = None
        else:
            vd = _fixed_dice(m)
            if vd:
                d0, d1, nxt = vd.opening(m, self.dice)
            else:
                d0, d1 = self.dice.first_roll()
                nxt = None
        result = []
        rec = _with_next({"a": "open", "dice": [d0, d1]}, nxt)
        if entered:
            rec["entered"] = True
        if not self._act(rec, lambda: result.append(m.opening_roll(d0, d1, nxt))):
            return
        m = self.match
        started = result[0]
        ev = {"p": m.on_roll if started else -1, "opening": True, "dice": [d0, d1], "tie": not started, "cube": m.cube}
        if entered:
            ev["entered"] = True
        self.emit("roll", ev)
        if not started:
            self.say("Tie %d-%d: again%s" % (d0, d1, " x%d" % m.cube if m.cube > 1 else ""))
            self.status()
            return
        if m.turn is None and m.part is None:
            from companion.games_in_turn import opening  # Rules.opening "reroll": who starts

            return opening(self)
        vd = _fixed_dice(m)
        self.say((vd and vd.say_next(m)) or "%s starts %d-%d" % (m.names[m.on_roll], m.dice[0], m.dice[1]))
        if m.part is not None:
            return _pb().next_part(self)
        self._start_turn()
        self.status()

    def _roll(self, player, entered=None):
        m = self.match
        if not self.board_ok:
            self.say("Fix the board first")
            return
        if m.closed_out():
            if self._act({"a": "pass", "p": player}, lambda: m.pass_turn(player)):
                self.emit("pass", {"p": player})
                self.say("Closed out: pass")
                self._enter("roll")
                self.status()
            return
        if m.rules.free_choice and _pb().chooser(m) == player:
            return _pb().begin(self)
        # Own dice are keyed in, except where the variant fixes the dice (Fixed roll, Open roll).
        if entered is None and self.entry and self.entry.own and not m.rules.open_roll and not m.preset_dice():
            return self._dice_entry().begin(self, player)
        if entered:
            d1, d2 = entered
            nxt = None
        else:
            vd = _fixed_dice(m)
            if vd:
                d1, d2, nxt = vd.roll(m, self.dice)
            else:
                d1, d2 = self.dice.roll()
                nxt = None
        rec = _with_next({"a": "roll", "p": player, "dice": [d1, d2]}, nxt)
        if entered:
            rec["entered"] = True
        if not self._act(rec, lambda: m.roll(d1, d2, player, nxt)):
            return
        ev = _with_next({"p": player, "dice": [d1, d2]}, nxt)
        if entered:
            ev["entered"] = True
        self.emit("roll", ev)
        vd = _fixed_dice(m)
        self.say(vd.say_next(m) if vd else "")
        if m.part is not None:
            return _pb().next_part(self)
        self._start_turn()
        self.status()
