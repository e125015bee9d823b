"""A computer player for warband: simple and quick, never illegal (every choice is checked).

It rolls the initiative and goes first when it can choose; reacts whenever it may (dodge,
counter, strike); activates first a fighter that can attack, else the one nearest an enemy.
A fighter attacks the enemy in reach with the most damage expected (Onslaught or Rampage first
when the dice allow), disengages when engaged and done attacking, else moves towards the
nearest enemy (stopping within 1"), and waits to end its activation when nothing is left."""

from __future__ import annotations

import math

from battlefield.rules.actions import Action
from battlefield.rules.chance import mean
from battlefield.rules.state import State
from battlefield.rules.steps import first_legal, places
from battlefield.rules.warband import attacks, movement
from battlefield.rules.warband.data import fighter
from battlefield.rules.warband.turns import alive, left

TURNS = (0, 25, -25, 50, -50, 80, -80)
SHARES = (1.0, 0.75, 0.5, 0.25)


class WarbandPlayer:
    def choose(self, state: State) -> Action:
        side = state.acting_side
        if state.pending:
            d = state.pending[0]
            for c in d.choices:
                if c.type == "react" and not state.check(c):
                    return c
            return d.choices[-1]
        c = state.clock
        if c["phase"] == "initiative":
            return Action("initiative")
        if c["phase"] == "first":
            return Action("first", side=side)
        if c.get("activating"):
            u = state.unit_index(c["activating"])
            if "pass" in state.available():          # its actions taken: an ability, or end
                return self._after(state, u)
            return self._next(state, u)
        if c.get("commanded"):
            return self._next(state, state.unit_index(c["commanded"]))
        mine = left(state, side)
        if not mine:
            return Action("pass")
        return self._next(state, self._pick(state, mine))

    def candidates(self, state: State, limit: int) -> list[Action]:
        """What the strong level weighs (rules/search.py): this player's choice first, then
        the other choices of a pending decision; in an activation the attack, the ability,
        a move towards the nearest enemy or away from those engaged, waiting (or ending it);
        choosing whom to activate, what each other fighter would do first."""
        first = self.choose(state)
        if state.pending:
            d = state.pending[0]
            return [first, *[c for c in d.choices if c != first]][:max(1, limit)]
        c = state.clock
        others: list[Action | None] = []
        active = c.get("activating") or c.get("commanded")
        if c["phase"] in ("initiative", "first"):
            pass
        elif active:
            u = state.unit_index(active)
            uid = state.scene.units[u].id
            attack = self._best_attack(state, u)
            if c.get("activating") and "pass" in state.available():
                others += [attack, Action("respite", uid), Action("pass")]
            else:
                engaged = attacks.engaged_with(state, u)
                others += [attack, attack and self._ability(state, u, attack),
                           self._away(state, u, engaged) if engaged else self._towards(state, u),
                           Action("wait", uid)]
        else:
            mine = left(state, state.acting_side)
            for u in sorted(mine, key=lambda u: (self._nearest(state, u)[1], u)):
                others.append(self._next(state, u))
        out = [first]
        for a in others:
            if len(out) >= limit:
                break
            if a is not None and a not in out and not state.check(a):
                out.append(a)
        return out

    def _after(self, state: State, u: int) -> Action:
        """After its actions: Respite when it is hurt at least the dice's worth, a bonus
        attack when one reaches, else the activation ends."""
        uid = state.scene.units[u].id
        if int(state.units[u].damage[0]) >= 3:
            a = Action("respite", uid)
            if not state.check(a):
                return a
        if "attack" in state.available():
            attack = self._best_attack(state, u)
            if attack is not None:
                return attack
        return Action("pass")

    def _pick(self, state: State, mine: list[int]) -> int:
        ready = [u for u in mine if self._best_attack(state, u) is not None]
        if ready:
            return ready[0]
        return min(mine, key=lambda u: (self._nearest(state, u)[1], u))

    def _nearest(self, state: State, u: int) -> tuple[int, float]:
        foes = state.enemies(u)
        if not foes:
            return -1, math.inf
        return min(((w, attacks.distance(state, u, w)) for w in foes), key=lambda p: p[1])

    def _best_attack(self, state: State, u: int) -> Action | None:
        uid = state.scene.units[u].id
        best, best_value = None, 0.0
        for w in range(len(state.scene.units)):
            if state.side_of(w) == state.side_of(u) or not alive(state, w):
                continue
            for weapon in fighter(state, u).weapons:
                if attacks.reach(state, u, w, weapon) is not None:
                    continue
                dist = attacks.distribution(attacks.attacks(state, u, weapon),
                                            attacks.score(state, u, w, weapon))
                value = float(mean(dist))
                left_w = fighter(state, w).wounds - int(state.units[w].damage[0])
                value += 3.0 if value >= left_w else 0.0
                if value > best_value:
                    best_value = value
                    best = Action("attack", uid, target=state.scene.units[w].id,
                                  weapon=weapon.name)
        if best is not None and state.check(best):
            return None
        return best

    def _next(self, state: State, u: int) -> Action:
        uid = state.scene.units[u].id
        attack = self._best_attack(state, u)
        if attack is not None:
            ability = self._ability(state, u, attack)
            return ability or attack
        engaged = attacks.engaged_with(state, u)
        if engaged:
            move = self._away(state, u, engaged)
            if move is not None:
                return move
        else:
            move = self._towards(state, u)
            if move is not None:
                return move
        return Action("wait", uid)

    def _ability(self, state: State, u: int, attack: Action) -> Action | None:
        uid = state.scene.units[u].id
        weapon = fighter(state, u).weapon(attack.weapon)
        if weapon is None or not weapon.melee:
            return None
        for kind in ("rampage", "onslaught"):
            a = Action(kind, uid)
            if not state.check(a):
                return a
        return None

    def _towards(self, state: State, u: int) -> Action | None:
        w, gap = self._nearest(state, u)
        if w < 0:
            return None
        t = state.table
        m, o = int(state.models_of(u)[0]), int(state.models_of(w)[0])
        x, y = float(t.x[m]), float(t.y[m])
        dx, dy = float(t.x[o]) - x, float(t.y[o]) - y
        centre = math.hypot(dx, dy)
        if centre < 1e-9:
            return None
        allowed = movement.allowance(state, u)
        want = min(allowed, max(0.0, gap - 0.5))   # end about 0.5" away: engaged
        if want < 0.1:
            return None
        uid = state.scene.units[u].id
        return first_legal(state, (Action("move", uid, path=((x, y), end))
                                   for end in places((x, y), math.atan2(dy, dx),
                                                     [want * s for s in SHARES], TURNS)))

    def _away(self, state: State, u: int, engaged: list[tuple[int, float]]) -> Action | None:
        t = state.table
        m = int(state.models_of(u)[0])
        x, y = float(t.x[m]), float(t.y[m])
        ax = sum(x - float(t.x[int(state.models_of(w)[0])]) for w, _ in engaged)
        ay = sum(y - float(t.y[int(state.models_of(w)[0])]) for w, _ in engaged)
        uid = state.scene.units[u].id
        return first_legal(state, (Action("disengage", uid, path=((x, y), end))
                                   for end in places((x, y), math.atan2(ay, ax),
                                                     (3.0, 2.5, 2.0), TURNS, turns_first=True)))
