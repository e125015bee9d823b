"""A homebrew ruleset that lives outside battlefield/: "flag race". Each turn the active side
may step each of its units once, up to its `move` (3" by default), then ends its turn; after
three rounds the side with more models within 3" of the objective "flag" wins. It is written
against battlefield.rules.ruleset.Ruleset alone (the game hooks, the move hooks, a computer
player; every other hook keeps its default) and installed the way a player's own ruleset would
be: a distribution whose entry point in the group `battlefield.rulesets` names RULESET (the
test writes that distribution's metadata)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from battlefield.geometry.objectives import models_in_zone
from battlefield.rules.actions import Action, Violation
from battlefield.rules.moves import about, end_problems, find_unit, planned, v
from battlefield.rules.result import Result
from battlefield.rules.ruleset import Player, Ruleset
from battlefield.rules.state import State, scene_start, start_round

ROUNDS = 3
STEP = 3.0


class FlagRace(Ruleset):
    id = "homebrew"
    actions = ("step", "end-turn")
    data = Path(__file__).parent / "data"

    def setup(self, state: State) -> list[dict[str, Any]]:
        start, active = scene_start(state, ("round", "active"))
        state.sides = {s: {"steps": 0} for s in state.scene.sides}
        state.clock = {"round": start_round(state, start, ROUNDS), "active": active,
                       "turn": 1, "over": False}
        state.objectives = {o.id: None for o in state.scene.objectives}
        return [{"type": "round", "round": state.clock["round"]}]

    def acting_side(self, state: State) -> str:
        return state.clock["active"]

    def over(self, state: State) -> bool:
        return bool(state.clock["over"])

    def available(self, state: State) -> list[str]:
        return [] if self.over(state) else ["step", "end-turn"]

    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        return float(state.scene.units[u].stats.get("move", STEP)) if ability == "step" else None

    # move_cost and move_ground keep their defaults: the path's length on the flat, nothing in
    # the way.

    def player(self) -> Player:
        return StepToFlag()

    def check(self, state: State, action: Action) -> list[Violation]:
        if action.type == "end-turn":       # State.check refuses the others (actions)
            return []
        u, problem = find_unit(state, action)
        if problem:
            return [problem]
        if state.side_of(u) != state.clock["active"]:
            return [v("not_yours", f"{action.unit} is {state.side_of(u)}'s")]
        if "stepped" in state.units[u].flags:
            return [v("stepped", f"{action.unit} has stepped this turn")]
        moves = planned(state, u, action)
        if isinstance(moves, Violation):
            return [moves]
        allowed = self.move_allowance(state, u, "step")
        out = []
        for m, path in zip(moves.models, moves.paths, strict=True):
            used = self.move_cost(state, u, int(m), path)[0]
            if used > allowed + 1e-9:
                out.append(v("step_too_far", f"{state.scene.model_names[m]} steps "
                                             f"{used:.2f}\", more than {allowed:g}\"",
                             used=used, allowed=allowed, **about(state, m)))
        ends = moves.ends()
        after = state.table.moved(moves.models, ends[:, 0], ends[:, 1])
        return out + end_problems(state, moves, after)

    def resolve(self, state: State, action: Action) -> list[dict[str, Any]]:
        c = state.clock
        if action.type == "end-turn":
            sides = state.scene.sides
            nxt = sides[(sides.index(c["active"]) + 1) % len(sides)]
            for us in state.units:
                us.flags.clear()
            if nxt == sides[0]:
                c["round"] += 1
                if c["round"] > ROUNDS:
                    c["over"] = True
                    return [{"type": "race-over"}]
            c["active"] = nxt
            return [{"type": "turn", "side": nxt, "round": c["round"]}]
        u = state.unit_index(action.unit)
        moves = planned(state, u, action)
        ends = moves.ends()
        state.table = state.table.moved(moves.models, ends[:, 0], ends[:, 1])
        state.units[u].flags.add("stepped")
        state.sides[c["active"]]["steps"] += 1
        return [{"type": "step", "unit": action.unit, "to": ends.tolist()}]

    def near_flag(self, state: State) -> dict[str, int]:
        t = state.table
        o = state.scene.objectives[0]
        near = models_in_zone(t, o.x, o.y, 3.0)
        out = {s: 0 for s in state.scene.sides}
        for u, spec in enumerate(state.scene.units):
            out[spec.side] += int(near[t.unit_models[u]].sum())
        return out

    def result(self, state: State) -> Result:
        near = self.near_flag(state)
        best = max(near.values())
        top = [s for s, n in near.items() if n == best]
        return Result(top[0] if len(top) == 1 else None,
                      "more models at the flag" if len(top) == 1 else "draw",
                      "victory_points", {"victory_points": near},
                      min(state.clock["round"], ROUNDS))


class StepToFlag:
    """Steps each unit of its side straight at the flag, as far as allowed, then ends."""

    def choose(self, state: State) -> Action:
        side = state.clock["active"]
        o = state.scene.objectives[0]
        t = state.table
        for u, spec in enumerate(state.scene.units):
            if spec.side != side or "stepped" in state.units[u].flags:
                continue
            m = int(t.unit_models[u][0])
            x, y = float(t.x[m]), float(t.y[m])
            d = float(np.hypot(o.x - x, o.y - y))
            k = min(1.0, (STEP - 1e-6) / d) if d > 1e-9 else 0.0
            action = Action("step", spec.id, path=((x, y), (x + (o.x - x) * k * 0.9,
                                                           y + (o.y - y) * k * 0.9)))
            if not state.check(action):
                return action
        return Action("end-turn")


RULESET = FlagRace()
