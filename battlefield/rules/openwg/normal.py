"""openwg's normal computer player: the easy player's charges, shots, fights and spells, and
a movement phase that plays for the table's objectives (1 VP each per round for the side with
more models within range of it): each unit not already holding one goes along its route round
the terrain (rules/routes.py) to the nearest objective its side does not hold and no other of
its units is going to - a run when it is still more than a move away and has nothing in range
to shoot - and a unit on an objective its side needs stays there (a Standfast unit holds, for
the armour). Units with no objective left to take march on the closest enemy along their
route. Every action it proposes has passed the engine's check."""

from __future__ import annotations

import numpy as np

from battlefield.rules import routes
from battlefield.rules.actions import Action
from battlefield.rules.openwg.data import game
from battlefield.rules.openwg.player import OpenWGPlayer
from battlefield.rules.openwg.profiles import profiles
from battlefield.rules.openwg.reach import enemies_in_combat, unit_gap
from battlefield.rules.openwg.turns import control
from battlefield.rules.state import State

STOP = 1.0          # inches short of an objective's centre a route ends


class OpenWGNormal(OpenWGPlayer):
    level = "normal"

    def _march(self, state: State, u: int) -> Action | None:
        if enemies_in_combat(state, u, state.table):
            return None
        goal = self._goal(state, u)
        if goal is None:
            return self._at_enemy(state, u)
        if goal == "stay":
            return self._hold(state, u)
        for kind in self._ways(state, u, goal):
            for act in routes.toward(state, u, kind, goal, stop=STOP):
                if self._legal(state, act):
                    return act
        return None

    def _ways(self, state: State, u: int, goal: tuple[float, float]) -> list[str]:
        """A run when the objective is beyond a move and the unit has nothing to shoot; else
        a move."""
        t = state.table
        m = state.scene.leader_model(u, t)
        far = float(np.hypot(t.x[m] - goal[0], t.y[m] - goal[1]))
        move = state.rules.move_allowance(state, u, "move") or 0.0
        if far > move + STOP and not self._shooter_in_range(state, u):
            return ["run", "move"]
        return ["move"]

    def _shooter_in_range(self, state: State, u: int) -> bool:
        ranged = [wp.range for wp in profiles(state)[u].weapons if wp.type == "ranged"]
        if not ranged:
            return False
        return any(unit_gap(state.table, u, w) <= max(ranged) for w in state.enemies(u))

    def _goal(self, state: State, u: int):
        """The objective unit u goes to (its centre), "stay" when it holds one its side needs,
        None when there is none left to take."""
        objs = state.scene.objectives
        if not objs:
            return None
        side = state.acting_side
        reach = game(state).objective_range
        here = _leader(state, u)
        held = control(state)
        for o in objs:
            if _near(state, u, (o.x, o.y)) <= reach and self._needed(state, u, o):
                return "stay"
        claimed = self.remember(state, "claimed", dict)
        open_ = [o for o in objs if held.get(o.id) != side
                 and claimed.get(o.id, u) == u]
        if not open_:
            open_ = [o for o in objs if held.get(o.id) != side]
        if not open_:
            return None
        best = min(open_, key=lambda o: (float(np.hypot(here[0] - o.x, here[1] - o.y)), o.id))
        claimed[best.id] = u
        return (float(best.x), float(best.y))

    def _needed(self, state: State, u: int, o) -> bool:
        """Whether u's models count towards holding objective o: it is not held by the side
        without them."""
        t = state.table
        reach = game(state).objective_range
        side = state.acting_side
        ours = theirs = 0
        for w, spec in enumerate(state.scene.units):
            ms = state.models_of(w)
            if not len(ms):
                continue
            d = np.hypot(t.x[ms] - o.x, t.y[ms] - o.y) - t.reach[ms]
            n = int((d <= reach + 1e-6).sum())
            if spec.side == side:
                ours += 0 if w == u else n
            else:
                theirs += n
        return ours <= theirs

    def _hold(self, state: State, u: int) -> Action | None:
        act = Action("hold", state.scene.units[u].id)
        return act if self._legal(state, act) else None

    def _at_enemy(self, state: State, u: int) -> Action | None:
        foes = self._enemies(state, u)
        if not foes:
            return None
        prof = profiles(state)[u]
        ranged = [wp.range for wp in prof.weapons if wp.type == "ranged"]
        gap = unit_gap(state.table, u, foes[0])
        if ranged and gap <= max(ranged) - 0.5:
            return None
        t = state.table
        w = foes[0]
        goal = (float(t.x[t.unit_models[w]].mean()), float(t.y[t.unit_models[w]].mean()))
        for act in routes.toward(state, u, "move", goal, stop=1.6 + _size(state, w)):
            if self._legal(state, act):
                return act
        return super()._march(state, u)

    def remember(self, state: State, key: str, make):
        moment = (state.round, state.clock["phase"], state.acting_side)
        if getattr(self, "_moment", None) != moment:
            self._moment, self._kept = moment, {}
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]


def _leader(state: State, u: int) -> tuple[float, float]:
    t = state.table
    m = state.scene.leader_model(u, t)
    return float(t.x[m]), float(t.y[m])


def _near(state: State, u: int, at: tuple[float, float]) -> float:
    """How far unit u's nearest model's edge is from `at`."""
    t = state.table
    ms = state.models_of(u)
    return float((np.hypot(t.x[ms] - at[0], t.y[ms] - at[1]) - t.reach[ms]).min())


def _size(state: State, w: int) -> float:
    t = state.table
    ms = t.unit_models[w]
    return float(np.hypot(np.ptp(t.x[ms]), np.ptp(t.y[ms]))) / 2
