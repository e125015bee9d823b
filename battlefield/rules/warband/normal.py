"""warband's normal computer player: the easy player's attacks, abilities and reactions, playing
for the objectives (1 VP each at the end of every round for the side holding it: more fighters
within range of its centre, sticky).

- A fighter within range of an objective its side needs (the enemy has as many fighters there
  without it) stays on it: it attacks what it can reach, else waits, never walks off.
- A fighter with no enemy within a move and a charge of it goes towards the nearest objective
  its side does not hold and no other of its fighters is going to (claimed for the round),
  Rushing (+1 Move, a [double] ability die) when the objective is beyond its Move; the move
  follows the route round the terrain (rules/routes.py), else the easy player's fan of moves.
- Otherwise, as the easy player: towards the nearest enemy.
- Abilities: the one adding the most melee attacks before a melee attack (Onslaught or the
  fighter's own), the farthest move (Rush or its own leap) when going far, the one raising
  its defence (a Warcry) when holding an objective with an enemy close.
- Whom it activates: a fighter that can attack first, then one with an objective to go to or
  to hold, then the nearest an enemy.
Every action it proposes has passed the engine's check."""

from __future__ import annotations

import math

import numpy as np

from battlefield.rules import routes
from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.rules.steps import first_legal
from battlefield.rules.warband import movement
from battlefield.rules.warband.data import abilities_of, fighter, game
from battlefield.rules.warband.player import WarbandPlayer

STOP = 1.0                 # inches short of an objective's centre a move ends
THREAT = 3.0               # an enemy closer than Move + this: fight rather than walk off


class WarbandNormal(WarbandPlayer):
    """See the module."""

    level = "normal"

    def _pick(self, state: State, mine: list[int]) -> int:
        ready = [u for u in mine if self._best_attack(state, u) is not None]
        if ready:
            return ready[0]
        goals = [u for u in mine if self._goal(state, u) is not None]
        if goals:
            return goals[0]
        return super()._pick(state, mine)

    def _next(self, state: State, u: int) -> Action:
        if self._best_attack(state, u) is None and not _engaged(state, u):
            goal = self._goal(state, u)
            if goal == "stay":
                return self._hold(state, u)
            if goal is not None:
                move = self._to(state, u, goal)
                if move is not None:
                    return move
        return super()._next(state, u)

    def _to(self, state: State, u: int, goal: tuple[float, float]) -> Action | None:
        """Rush first when the objective is beyond Move (and the dice allow), then the route
        there, else the easy player's fan of moves towards it."""
        uid = state.scene.units[u].id
        far = _leader_gap(state, u, goal) - STOP
        if far > movement.allowance(state, u) + 0.1:
            for aid in _with(state, u, "move"):        # Rush, or its own farther leap
                a = Action(aid, uid)
                if not state.check(a):
                    return a
        found = first_legal(state, routes.toward(state, u, "move", goal, stop=STOP))
        return found or super()._towards(state, u)

    def _ability(self, state: State, u: int, attack: Action) -> Action | None:
        """Before a melee attack: the ability adding the most attacks (Onslaught, or the
        fighter's own), else the easy player's (Rampage)."""
        weapon = fighter(state, u).weapon(attack.weapon)
        if weapon is not None and weapon.melee:
            for aid in _with(state, u, "melee_attacks"):
                a = Action(aid, state.scene.units[u].id)
                if not state.check(a):
                    return a
        return super()._ability(state, u, attack)

    def _hold(self, state: State, u: int) -> Action:
        """On an objective its side needs: its defence raised when an enemy is close (a
        Warcry), else it waits there."""
        uid = state.scene.units[u].id
        if self._nearest(state, u)[1] <= movement.allowance(state, u) + THREAT:
            for aid in _with(state, u, "defense"):
                a = Action(aid, uid)
                if not state.check(a):
                    return a
        return Action("wait", uid)

    def _goal(self, state: State, u: int) -> tuple[float, float] | str | None:
        """The objective fighter u goes to (its centre), "stay" when it holds one its side
        needs, None when it should fight (an enemy near) or no objective is left to take."""
        objs = state.scene.objectives
        if not objs:
            return None
        side = state.side_of(u)
        reach = state.scene.ruleset.objectives.range
        for o in objs:
            if _gap(state, u, (o.x, o.y)) <= reach and self._needed(state, u, (o.x, o.y)):
                return "stay"
        _, near = self._nearest(state, u)
        if near <= movement.allowance(state, u) + THREAT:
            return None
        claimed = self.remember(state, "claimed", dict)
        held = state.objectives
        open_ = [o for o in objs if held.get(o.id) != side and claimed.get(o.id, u) == u]
        if not open_:
            return None
        here = _leader(state, u)
        best = min(open_, key=lambda o: (math.hypot(here[0] - o.x, here[1] - o.y), o.id))
        claimed[best.id] = u
        return (float(best.x), float(best.y))

    def _needed(self, state: State, u: int, at: tuple[float, float]) -> bool:
        """Whether fighter u counts towards holding the objective at `at`: without it, its
        side has no more fighters within range than the enemy."""
        reach = state.scene.ruleset.objectives.range
        side = state.side_of(u)
        ours = theirs = 0
        for w in range(len(state.scene.units)):
            if w == u or not len(state.models_of(w)) or _gap(state, w, at) > reach:
                continue
            if state.side_of(w) == side:
                ours += 1
            else:
                theirs += 1
        return ours <= theirs

    def remember(self, state: State, key: str, make):
        """`make()`, kept for the round (what this side's fighters claimed)."""
        moment = (state.clock.get("round"), state.acting_side)
        if getattr(self, "_moment", None) != moment:
            self._moment, self._kept = moment, {}
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]


def _with(state: State, u: int, effect: str) -> list[str]:
    """Fighter u's abilities (the universal ones and its own) that raise `effect`, the most
    first."""
    found = [(float(a.effect(effect)), a.id) for a in abilities_of(state, u)
             if isinstance(a.effect(effect), (int, float)) and a.effect(effect) > 0]
    return [aid for _, aid in sorted(found, key=lambda f: (-f[0], f[1]))]


def _engaged(state: State, u: int) -> bool:
    return bool(state.enemies_within(u, game(state).engaged + 1e-6, three_d=True))


def _leader(state: State, u: int) -> tuple[float, float]:
    t = state.table
    m = int(state.models_of(u)[0])
    return float(t.x[m]), float(t.y[m])


def _leader_gap(state: State, u: int, at: tuple[float, float]) -> float:
    here = _leader(state, u)
    return math.hypot(here[0] - at[0], here[1] - at[1])


def _gap(state: State, u: int, at: tuple[float, float]) -> float:
    """How far fighter u's base edge is from `at` (on the flat)."""
    t = state.table
    ms = state.models_of(u)
    return float((np.hypot(t.x[ms] - at[0], t.y[ms] - at[1]) - t.reach[ms]).min())


__all__ = ["WarbandNormal"]
