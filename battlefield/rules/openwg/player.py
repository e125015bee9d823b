"""The openwg computer player: in each phase it acts with the first unit that has something
worth doing - charge an enemy within reach, else march on the closest enemy (a shooter that
already has one in range stays); shoot the closest enemy in range; fight the enemy it is in
combat with; cast its spell on itself - and stops when none has. Every action it proposes has
passed the engine's check."""

from __future__ import annotations

import numpy as np

from battlefield.rules.actions import Action
from battlefield.rules.openwg.profiles import profiles
from battlefield.rules.openwg.reach import between, enemies_in_combat, unit_gap
from battlefield.rules.state import State
from battlefield.rules.steps import heading, places

FRACTIONS = (1.0, 0.6, 0.3)
TURNS = (0.0, 25.0, -25.0, 50.0, -50.0)
CHARGE_GAPS = (0.5, 0.8, 0.2)


class OpenWGPlayer:
    def __init__(self) -> None:
        self.tried: set[tuple[int, str, int]] = set()

    def choose(self, state: State) -> Action:
        phase = state.clock["phase"]
        side = state.acting_side
        for u, spec in enumerate(state.scene.units):
            if spec.side != side:
                continue
            key = (state.round, phase, u)
            if key in self.tried:
                continue
            action = self._proposal(state, u, phase)
            if action is not None:
                return action
            self.tried.add(key)
        return Action("stop")

    def _proposal(self, state: State, u: int, phase: str) -> Action | None:
        """What unit u would do in this phase (None: nothing)."""
        rules = state.rules
        if phase == "movement" and rules.eligible(state, u, "move"):
            return self._charge(state, u) or self._march(state, u)
        if phase == "ranged" and rules.eligible(state, u, "shoot"):
            return self._shoot(state, u)
        if phase == "melee" and rules.eligible(state, u, "fight"):
            return self._fight(state, u)
        if phase == "leadership" and rules.eligible(state, u, "cast"):
            return self._cast(state, u)
        return None

    def candidates(self, state: State, limit: int) -> list[Action]:
        """What the strong level weighs (rules/search.py): this player's choice first, then
        what each other unit not yet done this phase would do (a unit in the movement phase:
        its march as well as its charge), then stopping - the order of the units' actions
        and whether to act at all."""
        first = self.choose(state)
        out = [first]
        phase = state.clock["phase"]
        for u, spec in enumerate(state.scene.units):
            if len(out) >= limit:
                break
            if spec.side != state.acting_side or (state.round, phase, u) in self.tried:
                continue
            found = [self._proposal(state, u, phase)]
            if phase == "movement" and state.rules.eligible(state, u, "move"):
                found.append(self._march(state, u))
            for a in found:
                if a is not None and a not in out:
                    out.append(a)
        stop = Action("stop")
        out = out[:max(1, limit - 1)]
        if stop not in out and not state.check(stop):
            out.append(stop)
        return out

    def _legal(self, state: State, action: Action) -> Action | None:
        return action if not state.check(action) else None

    def _enemies(self, state: State, u: int) -> list[int]:
        return sorted(state.enemies(u), key=lambda w: unit_gap(state.table, u, w))

    def _leader_at(self, state: State, u: int) -> np.ndarray:
        m = state.scene.leader_model(u, state.table)
        return np.array([state.table.x[m], state.table.y[m]])

    def _charge(self, state: State, u: int) -> Action | None:
        t = state.table
        reach = state.rules.move_allowance(state, u, "charge")
        uid = state.scene.units[u].id
        for w in self._enemies(state, u):
            gap = unit_gap(t, u, w)
            if gap > reach + 1.0:
                break
            mine, theirs = t.unit_models[u], t.unit_models[w]
            d = between(t, mine, theirs)
            i, j = np.unravel_index(int(np.argmin(d)), d.shape)
            a, b = mine[i], theirs[j]
            vec = np.array([t.x[b] - t.x[a], t.y[b] - t.y[a]])
            n = float(np.hypot(*vec))
            if n <= 0:
                continue
            start = self._leader_at(state, u)
            for stop_at in CHARGE_GAPS:
                go = gap - stop_at
                if go <= 0 or go > reach:
                    continue
                end = start + vec / n * go
                act = Action("charge", uid, path=(tuple(start), tuple(end)),
                             target=state.scene.units[w].id)
                if self._legal(state, act):
                    return act
        return None

    def _march(self, state: State, u: int) -> Action | None:
        t = state.table
        foes = self._enemies(state, u)
        if not foes or enemies_in_combat(state, u, t):
            return None
        w = foes[0]
        gap = unit_gap(t, u, w)
        prof = profiles(state)[u]
        ranged = [wp.range for wp in prof.weapons if wp.type == "ranged"]
        if ranged and gap <= max(ranged) - 0.5:
            return None
        allowed = state.rules.move_allowance(state, u, "move")
        go = min(allowed, gap - 1.6)
        if go <= 0.2:
            return None
        start = self._leader_at(state, u)
        target = np.array([t.x[t.unit_models[w]].mean(), t.y[t.unit_models[w]].mean()])
        uid = state.scene.units[u].id
        for end in places(tuple(start), heading(tuple(start), tuple(target)),
                          [go * f for f in FRACTIONS], TURNS):
            act = Action("move", uid, path=(tuple(start), end))
            if self._legal(state, act):
                return act
        return None

    def _shoot(self, state: State, u: int) -> Action | None:
        uid = state.scene.units[u].id
        names = [wp.name for wp in profiles(state)[u].weapons if wp.type == "ranged"]
        for w in self._enemies(state, u):
            for name in names:
                act = Action("shoot", uid, target=state.scene.units[w].id, weapon=name)
                if self._legal(state, act):
                    return act
        return None

    def _fight(self, state: State, u: int) -> Action | None:
        uid = state.scene.units[u].id
        for w in enemies_in_combat(state, u):
            act = Action("fight", uid, target=state.scene.units[w].id)
            if self._legal(state, act):
                return act
        return None

    def _cast(self, state: State, u: int) -> Action | None:
        uid = state.scene.units[u].id
        for e in profiles(state)[u].effects("wizard"):
            act = Action("cast", uid, target=uid, options=(("spell", e.get("spell")),))
            if self._legal(state, act):
                return act
        return None
