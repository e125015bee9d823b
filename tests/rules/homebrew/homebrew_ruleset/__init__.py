"""A homebrew ruleset that lives outside battlefield/: "flag race", the sixth ruleset, written
from battlefield/rules/README.md alone. Each side's turn has a move phase - each unit may step
once, up to its `move`, never coming within 1" of an enemy - and a fight phase - each unit may
shove an enemy unit within 2": a D6 per model, each 4+ a point of damage. After three rounds
the side with more models within 3" of the flag wins.

It is one class and its data (data/: ruleset.yaml, game.yaml, its demo battle race.yaml), on
the engine's shared mechanisms: the vocabulary's fields and phases (checked by the engine), its
numbers read from game.yaml into a dataclass (its `book`), handlers, the one move check, a
dice procedure rolled in play and enumerated for its odds question, damage dealt, two-turn
rounds, and a computer player stepping towards the flag. It is installed the way a player's
own ruleset would be: a distribution whose entry point in the group `battlefield.rulesets`
names RULESET (tests/conftest.py writes that distribution's metadata)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.geometry.objectives import models_in_zone
from battlefield.rules import rounds
from battlefield.rules.actions import Action, Violation
from battlefield.rules.chance import Pool, Procedure, outcomes, play
from battlefield.rules.damage import deal
from battlefield.rules.datafile import item, read
from battlefield.rules.handlers import handles
from battlefield.rules.moves import Keep, check_move, find_unit, leader, v
from battlefield.rules.questions import Asked, OddsOption, OddsQuestion
from battlefield.rules.result import Result
from battlefield.rules.ruleset import Parameter, Player, Ruleset
from battlefield.rules.state import State, scene_start, start_round
from battlefield.rules.steps import first_legal, heading, places

Event = dict[str, Any]


@dataclass(frozen=True)
class Numbers:
    """game.yaml."""

    rounds: int = item(least=1)
    reach: float = item("shove.reach", least=0)
    hit_on: int = item("shove.hit_on", least=1, most=7)


def shove_dice(dice: int, hit_on: int, what: str) -> Procedure[int]:
    """A shove: `dice` D6, each `hit_on` or more a point of damage."""
    return (yield Pool(dice, lambda x: int(x >= hit_on), what))


class FlagRace(Ruleset):
    id = "homebrew"
    data = Path(__file__).parent / "data"
    phases = ("move", "fight")
    parameters = (Parameter("rounds", "rounds", "battle rounds", least=1),)

    def load(self) -> Numbers:
        return read(Numbers, self.folder / "game.yaml")

    # --- the game ------------------------------------------------------------------------------
    def setup(self, state: State) -> list[Event]:
        start, active = scene_start(state, ("round", "active"))
        state.clock = {"round": start_round(state, start, self.book.rounds), "active": active,
                       "first": active, "turn": 1, "phase": "move", "over": False}
        state.objectives = {o.id: None for o in state.scene.objectives}
        return [{"type": "battle-round", "round": state.clock["round"], "first": active}]

    def acting_side(self, state: State) -> str:
        return state.clock["active"]

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        return ["step" if state.phase == "move" else "shove", "end-phase"]

    def over(self, state: State) -> bool:
        return bool(state.clock["over"]) or any(
            not any(len(state.models_of(u)) for u, spec in enumerate(state.scene.units)
                    if spec.side == side) for side in state.scene.sides)

    def result(self, state: State) -> Result:
        near = self.at_the_flag(state)
        best = max(near.values())
        top = [s for s, n in near.items() if n == best]
        return Result(top[0] if len(top) == 1 else None,
                      "more models at the flag" if len(top) == 1 else "draw",
                      "victory_points", {"victory_points": near}, state.round)

    def at_the_flag(self, state: State) -> dict[str, int]:
        """Each side's models within the objectives' range of the flag."""
        t, flag = state.table, state.scene.objectives[0]
        near = models_in_zone(t, flag.x, flag.y, state.scene.ruleset.objectives.range)
        out = {s: 0 for s in state.scene.sides}
        for u, spec in enumerate(state.scene.units):
            out[spec.side] += int(near[t.unit_models[u]].sum())
        return out

    def health(self, state: State, u: int) -> list[int]:
        return [int(state.scene.units[u].stats["health"])] * len(state.scene.units[u].models)

    def player(self) -> Player:
        return ToTheFlag()

    # --- the actions ---------------------------------------------------------------------------
    def own_unit(self, state: State, action: Action) -> tuple[int, list[Violation]]:
        u, problem = find_unit(state, action)
        if problem:
            return u, [problem]
        if state.side_of(u) != state.active:
            return u, [v("not_yours", f"{action.unit} is {state.side_of(u)}'s",
                         units=(action.unit,))]
        return u, []

    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        return float(state.scene.units[u].stats["move"]) if ability == "step" else None

    def step_check(self, state: State, u: int, action: Action):
        return check_move(state, u, action, self.move_allowance(state, u, "step"),
                          keep=(Keep(state.scene.ruleset.combat_range, passing=True,
                                     ending=False),))

    @handles("step")
    def check_step(self, state: State, action: Action) -> list[Violation]:
        u, bad = self.own_unit(state, action)
        if bad:
            return bad
        if "stepped" in state.units[u].flags:
            return [v("stepped", f"{action.unit} has stepped this turn")]
        return self.step_check(state, u, action).problems

    @check_step.resolver
    def step(self, state: State, action: Action) -> list[Event]:
        u = state.unit_index(action.unit)
        checked = self.step_check(state, u, action)
        state.table = checked.after
        state.units[u].flags.add("stepped")
        return [{"type": "step", "unit": action.unit, "distance": round(checked.longest, 6)}]

    @handles("shove")
    def check_shove(self, state: State, action: Action) -> list[Violation]:
        u, bad = self.own_unit(state, action)
        if bad:
            return bad
        if "shoved" in state.units[u].flags:
            return [v("shoved", f"{action.unit} has shoved this turn")]
        if action.target is None:
            return [v("no_target", "shove needs a \"target\"", choose="target")]
        w = state.unit_index(str(action.target))
        if state.side_of(w) == state.side_of(u) or not len(state.models_of(w)):
            return [v("not_an_enemy", f"{action.target} is no enemy on the table")]
        d = state.table.unit_distance(u, w)
        if d > self.book.reach + 1e-6:
            return [v("out_of_reach", f"{action.target} is {d:.2f}\" away, more than "
                                      f"{self.book.reach:g}\"", distance=d,
                      reach=self.book.reach, units=(action.unit, str(action.target)))]
        return []

    @check_shove.resolver
    def shove(self, state: State, action: Action) -> list[Event]:
        u, w = state.unit_index(action.unit), state.unit_index(str(action.target))
        state.units[u].flags.add("shoved")
        hits = play(shove_dice(len(state.models_of(u)), self.book.hit_on,
                               f"shove {action.unit}"), state.dice)
        health = int(state.scene.units[w].stats["health"])
        dealt = deal(state, w, [1] * hits, health)
        names = state.scene.model_names
        return [{"type": "shove", "unit": action.unit, "target": action.target, "hits": hits},
                {"type": "damage", "unit": action.target, "amount": dealt.dealt},
                *([{"type": "slain", "unit": action.target,
                    "models": [names[m] for m in dealt.slain]}] if dealt.slain else [])]

    @handles("end-phase")
    def check_end(self, state: State, action: Action) -> list[Violation]:
        return []

    @check_end.resolver
    def end(self, state: State, action: Action) -> list[Event]:
        if state.phase == "move":
            state.clock["phase"] = "fight"
            return [{"type": "phase", "phase": "fight", "active": state.active}]
        return rounds.end_turn(state, self.book.rounds, self.start_turn)

    def start_turn(self, state: State, side: str) -> list[Event]:
        state.clock.update({"active": side, "phase": "move"})
        for us in state.units:
            us.flags.clear()
        return [{"type": "turn", "round": state.round, "active": side}]

    # --- odds ----------------------------------------------------------------------------------
    @staticmethod
    def shove_odds(asked: Asked) -> dict[str, Any]:
        u, w = asked.units
        dice = len(asked.state.models_of(u)) + int(asked.options.get("extra_dice") or 0)
        left = int(asked.state.units[w].alive.sum()) * int(
            asked.scene.units[w].stats["health"]) - int(asked.state.units[w].damage.sum())
        dist: dict[int, Any] = {}
        for hits, p in outcomes(lambda: shove_dice(dice, asked.ruleset.book.hit_on, "")).items():
            dist[min(hits, left)] = dist.get(min(hits, left), 0) + p
        return {"attacker": asked.names[0], "target": asked.names[1], "dice": dice,
                "expected_damage": round(float(sum(k * p for k, p in dist.items())), 6),
                "distribution": {str(k): round(float(p), 9) for k, p in sorted(dist.items())}}

    odds = (OddsQuestion("shove", ("A", "B"),
                         "unit A shoves unit B: the exact distribution of the damage B takes",
                         shove_odds,
                         lambda d: f"{d['attacker']} shoving {d['target']} with {d['dice']} "
                                   f"dice: expected {d['expected_damage']:.2f}",
                         "expected_damage, distribution {\"0\": p, ...}, dice",
                         (OddsOption("extra-dice", "roll this many dice more", "whole"),),
                         enemies=True),)


class ToTheFlag:
    """Steps each unit of its side towards the flag, as far as the rules allow, then shoves
    what it can reach."""

    def choose(self, state: State) -> Action:
        side = state.active
        mine = [u for u, spec in enumerate(state.scene.units)
                if spec.side == side and len(state.models_of(u))]
        rules = state.rules
        if state.phase == "move":
            flag = state.scene.objectives[0]
            for u in mine:
                if "stepped" in state.units[u].flags:
                    continue
                m = leader(state, u)
                start = (float(state.table.x[m]), float(state.table.y[m]))
                if abs(start[0] - flag.x) + abs(start[1] - flag.y) < 1.0:
                    continue
                reach = rules.move_allowance(state, u, "step") or 0.0
                step = first_legal(state, (
                    Action("step", state.scene.units[u].id, path=(start, end))
                    for end in places(start, heading(start, (flag.x, flag.y)),
                                      (reach * 0.98, reach * 0.6, reach * 0.3),
                                      (0, 30, -30, 60, -60))))
                if step is not None:
                    return step
        else:
            step = first_legal(state, (
                Action("shove", state.scene.units[u].id, target=state.scene.units[w].id)
                for u in mine for w in state.enemies(u)))
            if step is not None:
                return step
        return Action("end-phase")


RULESET = FlagRace()
