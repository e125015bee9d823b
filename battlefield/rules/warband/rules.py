"""The warband rules on the engine: every action checked (the phase, whose activation, the
fighter's actions and ability this activation, its own rule) and then resolved with logged dice.

Actions (JSON): {"type": "initiative"}, {"type": "first", "side"}; per fighter {"type": "move",
"unit", "path"}, {"type": "attack", "unit", "target", "weapon"?}, {"type": "disengage", "unit",
"path"}, {"type": "wait", "unit"}, an ability {"type": "rush"|"onslaught"|"respite"|"command"|
"rampage"|ID, "unit", "value"?, "target"?}; {"type": "pass"}. Answers to a reaction decision:
{"type": "react", "unit", "reaction"} or {"type": "no-reaction"}.

An activation begins with the fighter's first action or ability and ends by itself once its
actions are taken and no bonus action is left (a `wait` ends it at once): activation.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from battlefield.geometry.paths import Terrain
from battlefield.rules.actions import Action, Violation
from battlefield.rules.decisions import Decision, ask
from battlefield.rules.handlers import handles
from battlefield.rules.moves import MoveCheck, find_unit, v
from battlefield.rules.result import Result, decide
from battlefield.rules.ruleset import Parameter, Ruleset
from battlefield.rules.state import State
from battlefield.rules.warband import (
    abilities,
    activation,
    attacks,
    initiative,
    movement,
    package,
    reactions,
    turns,
)
from battlefield.rules.warband.data import (
    Ability,
    GameData,
    abilities_of,
    ability_of,
    fighter,
    game,
    load,
)
from battlefield.rules.warband.turns import alive, left

Event = dict[str, Any]
ACTIONS = ("move", "attack", "disengage", "wait")       # a fighter's actions (not abilities)
ANSWERS = ("react", "no-reaction")
SHORTHAND = "reaction"


class Warband(Ruleset):
    """warband: initiative dice, activations, reactions (the game hooks here), plus what
    package.py answers for the tools."""

    id = "warband"
    phases = ("initiative", "first", "combat")    # the roll, who goes first, the activations
    clock_sides = ("initiative",)
    odds = package.ODDS
    window = package.WarbandWindow()
    parameters = (Parameter("rounds", "rounds", "battle rounds", least=1),)

    def load(self) -> GameData:
        return load(self.folder)

    # --- the engine's questions ---------------------------------------------------------------
    def setup(self, state: State) -> list[Event]:
        events = turns.begin(state)
        turns.refresh(state)
        return events

    def acting_side(self, state: State) -> str:
        c = state.clock
        if c["phase"] == "first":
            return c["initiative"]
        return c["active"]

    def standing(self, state: State) -> list[str]:
        return [s for s in state.sides if turns.fighters_of(state, s)]

    def over(self, state: State) -> bool:
        return bool(state.clock.get("over")) or len(self.standing(state)) < len(state.sides)

    def result(self, state: State) -> Result:
        points = turns.vp(state)
        winner, how = decide(self.standing(state), points,
                             alone="the other warband has no fighters left",
                             none="both warbands were slain", more="more victory points",
                             equal="draw: equal victory points")
        fighters_left = {s: len(turns.fighters_of(state, s)) for s in state.sides}
        return Result(winner, how, "victory_points",
                      {"victory_points": points, "fighters": fighters_left},
                      state.clock["round"], {"objectives": dict(state.objectives)})

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        c = state.clock
        if c["phase"] in ("initiative", "first"):
            return [c["phase"]]
        uid = c.get("activating")
        if uid is None and not left(state, c["active"]):
            return ["pass"]
        units = ([state.unit_index(uid)] if uid else left(state, c["active"]))
        if uid and activation.actions_taken(state, units[0]):
            us = state.units[units[0]]
            out = [k[len("bonus_"):] for k, n in us.counters.items()
                   if k.startswith("bonus_") and n > 0]
            out += [a.id for a in abilities_of(state, units[0])]
            return [*out, "pass"]
        out = list(ACTIONS)
        for a in dict.fromkeys(a.id for u in units for a in abilities_of(state, u)):
            out.append(a)
        if c.get("commanded") and uid is None:
            out.append("pass")
        return out


    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        if ability == "move":
            return movement.allowance(state, u)
        if ability == "disengage":
            return game(state).disengage
        return None

    def move_cost(self, state: State, u: int, m: int, path) -> tuple[float, float]:
        allowed = self.move_allowance(state, u, "move") or 0.0
        c = movement.climb(state, movement.terrain(state, m), np.asarray(path, dtype=np.float64))
        return movement.spent(c, allowed)[0], c.up

    def move_ground(self, state: State, u: int, m: int, box: tuple[float, float, float, float]
                    ) -> tuple[list, Terrain | None]:
        return [o.shape for o in movement._blocking(state, u, m, box)], movement.terrain(state, m)

    # --- check --------------------------------------------------------------------------------
    def unknown(self, state: State, action: Action) -> list[Violation]:
        """A type of the vocabulary, or an ability of the acting fighter (its own)."""
        listed = [a.id for a in state.scene.ruleset.actions]
        if action.type in listed:
            return []
        u, _ = find_unit(state, action)
        if u >= 0 and ability_of(state, u, action.type) is not None:
            return []
        return self.unknown_action(action.type, listed, "action or ability",
                                   ", or a fighter's own ability")

    def check(self, state: State, action: Action) -> list[Violation]:
        """Answers out of turn, whose turn, then the fighter: its activation, the action's
        slot and the type's own rule (its handler, asked with the fighter: `(state, u,
        action)`) or the ability's."""
        if state.pending:
            return reactions.check_answer(state, action)
        kind = action.type
        if kind in ANSWERS:
            return [v("no_decision", f"{kind} answers a reaction decision; none is asked now")]
        if action.option(SHORTHAND) is not None:
            return [v("sides_decision", "a reaction is the other side's decision ({\"type\": "
                                        "\"react\", \"unit\", \"reaction\"} or {\"type\": "
                                        "\"no-reaction\"}); try also takes it on the action")]
        if kind != "first" and (bad := self.not_your_turn(state, action)):
            return bad
        if kind == "first":
            if action.side is not None and action.side not in state.sides:
                return [v("no_side", f"first's \"side\" is {' or '.join(state.sides)}, not "
                                     f"{action.side!r}")]
            return []
        if kind == "initiative":
            return []
        if kind == "pass":
            return activation.check_pass(state)
        u, problem = find_unit(state, action)
        if problem:
            return [problem]
        problem = activation.activation_problem(state, u)
        if problem:
            return [problem]
        if kind not in ACTIONS:
            ability = ability_of(state, u, kind)
            assert ability is not None          # Warband.unknown has refused any other type
            return self._check_ability(state, u, ability, action)
        problem = activation.slot(state, u, kind)
        if problem:
            return [problem]
        return self.handler(kind).check(state, u, action)


    @handles("move")
    def check_move(self, state: State, u: int, action: Action) -> list[Violation]:
        problem = attacks.engaged_violation(state, u)
        if problem:
            return [problem]
        return movement.check_walk(state, u, action).problems

    @handles("disengage")
    def check_disengage(self, state: State, u: int, action: Action) -> list[Violation]:
        if not attacks.engaged_with(state, u):
            return [v("not_engaged", f"{action.unit} is not within {game(state).engaged:g}\" of an "
                                     f"enemy: it moves, it does not disengage")]
        return movement.check_disengage(state, u, action).problems

    @handles("wait")
    def check_wait(self, state: State, u: int, action: Action) -> list[Violation]:
        return []       # carried out by the activation (activation.take): it ends it

    def _target(self, state: State, u: int, target: Any) -> tuple[int, Violation | None]:
        if not isinstance(target, str):
            return -1, v("no_target", "an attack needs \"target\": an enemy fighter's id",
                         choose="target")
        try:
            w = state.unit_index(target)
        except KeyError:
            return -1, v("unknown_unit", f"no fighter '{target}'")
        if state.side_of(w) == state.side_of(u):
            return w, v("friendly_target", f"{target} is not an enemy")
        if not alive(state, w):
            return w, v("destroyed", f"{target} has been slain")
        return w, None

    @handles("attack")
    def check_attack(self, state: State, u: int, action: Action) -> list[Violation]:
        w, problem = self._target(state, u, action.target)
        if problem:
            return [problem]
        _, problem = attacks.choose_weapon(state, u, w, action.weapon)
        return [problem] if problem else []

    def _check_ability(self, state: State, u: int, ability: Ability, action: Action
                       ) -> list[Violation]:
        return abilities.check(state, u, ability, action, activation.counts(state, u))


    # --- resolve ------------------------------------------------------------------------------
    def resolve(self, state: State, action: Action) -> list[Event]:
        kind = action.type
        c = state.clock
        if kind == "initiative":
            events = initiative.roll(state, c.pop("given", None))
        elif kind == "first":
            c["phase"] = "combat"
            c["active"] = action.side or c["initiative"]
            events = [{"type": "first", "side": c["active"], "chosen_by": c["initiative"]}]
        elif kind == "pass":
            events = activation.pass_turn(state)
        else:
            u = state.unit_index(action.unit)
            events = activation.begin(state, u)
            if kind in ACTIONS:
                events += activation.take(state, u, action)
            else:
                events += self._use(state, u, ability_of(state, u, kind), action)
        return self._after(state, events)

    def _after(self, state: State, events: list[Event]) -> list[Event]:
        turns.refresh(state)
        if not state.pending and not state.clock["over"]:
            state.objectives = turns.control(state)
        if self.over(state) and not state.pending:
            events.append({"type": "battle-over", "round": state.clock["round"],
                           **self.result(state)})
        return events

    @check_move.resolver
    def move(self, state: State, u: int, action: Action) -> list[Event]:
        checked = movement.check_walk(state, u, action)
        return self._moved(state, u, checked, "moved") + activation.done(state, u)

    def _moved(self, state: State, u: int, checked: MoveCheck, what: str
               ) -> list[Event]:
        state.table = checked.after
        m = int(state.models_of(u)[0])
        t = state.table
        uid = state.scene.units[u].id
        events: list[Event] = [{"type": what, "unit": uid,
                                "to": [round(float(t.x[m]), 6), round(float(t.y[m]), 6)],
                                "z": round(float(t.z[m]), 6),
                                "distance": round(checked.longest, 6)}]
        if checked.risky:
            g = game(state)
            r = state.dice.roll("D6", f"falling: {uid}").total
            events.append({"type": "fall", "unit": uid, "roll": r, "fails_on": g.fall_fails_on})
            if r <= g.fall_fails_on:
                dmg = state.dice.roll(g.fall_damage, f"falling damage: {uid}").total
                events.extend(attacks.wound(state, u, dmg, "falling"))
        return events

    # --- attacks and reactions ----------------------------------------------------------------
    @check_attack.resolver
    def attack(self, state: State, u: int, action: Action) -> list[Event]:
        w = state.unit_index(str(action.target))
        weapon, _ = attacks.choose_weapon(state, u, w, action.weapon)
        assert weapon is not None
        s = {"kind": "attack", "unit": action.unit, "target": action.target,
             "weapon": weapon.name, "melee": weapon.melee, "stage": "dodge", "dodge": False,
             "reacted": []}
        events: list[Event] = [{"type": "attack-declared", "unit": action.unit,
                                "target": action.target, "weapon": weapon.name}]
        return events + self._go_on(state, s)

    @check_disengage.resolver
    def disengage(self, state: State, u: int, action: Action) -> list[Event]:
        s = {"kind": "disengage", "unit": action.unit,
             "path": [list(p) for p in action.path or ()],
             "engaged": [w for w, _ in attacks.engaged_with(state, u)], "reacted": []}
        return [{"type": "disengage-declared", "unit": action.unit}] + self._go_on(state, s)

    def _go_on(self, state: State, s: dict[str, Any]) -> list[Event]:
        """Carry the suspended action on to its next reaction point, or to its end."""
        while True:
            choices = reactions.options(state, s)
            if choices:
                return ask(state, [reactions.decision(state, s, choices)], s)
            events = self._step(state, s)
            if s.get("finished"):
                return events + activation.done(state, state.unit_index(s["unit"]))
            if events:          # a step that rolled goes on to the next reaction point
                return events + self._go_on(state, s)

    def _step(self, state: State, s: dict[str, Any]) -> list[Event]:
        """The part of the suspended action after its reaction point."""
        u = state.unit_index(s["unit"])
        if s["kind"] == "attack":
            w = state.unit_index(s["target"])
            if s["stage"] == "dodge":
                weapon = fighter(state, u).weapon(s["weapon"])
                assert weapon is not None
                event, dealt = attacks.roll(state, u, w, weapon, s["dodge"], False)
                s["stage"] = "counter"
                return [event, *attacks.wound(state, w, dealt, "attack")]
            s["finished"] = True
            return []
        s["finished"] = True
        if not alive(state, u):
            return []
        action = Action("disengage", s["unit"], path=tuple(tuple(p) for p in s["path"]))
        checked = movement.check_disengage(state, u, action)
        return self._moved(state, u, checked, "disengaged")

    def resume(self, state: State, suspended: dict[str, Any],
               answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        s = dict(suspended)
        s["reacted"] = list(s.get("reacted", []))
        _, answer = answers[-1]
        events: list[Event] = []
        if answer.type == "react":
            w = state.unit_index(str(answer.unit))
            side = state.side_of(w)
            state.sides[side]["singles"] -= 1
            s["reacted"].append(answer.unit)
            reaction = answer.option("reaction")
            events.append({"type": "reaction", "unit": answer.unit, "reaction": reaction,
                           "singles_left": state.sides[side]["singles"]})
            u = state.unit_index(s["unit"])
            if reaction == "dodge":
                s["dodge"] = True
            elif reaction == "counter":
                weapon = reactions.counter_weapon(state, w, u)
                assert weapon is not None
                event, dealt = attacks.roll(state, w, u, weapon, False, True)
                events += [event, *attacks.wound(state, u, dealt, "counter")]
                s["finished"] = True
            else:
                events += reactions.strike(state, w, u)
                if s["kind"] == "disengage" and not alive(state, u):
                    s["finished"] = True
            if s.get("finished"):
                return self._after(state, events + activation.done(state, u))
            if s["kind"] == "disengage":    # the next engaged fighter may strike too
                return self._after(state, events + self._go_on(state, s))
        else:
            events.append({"type": "no-reaction", "side": answer.side})
        events += self._step(state, s)
        if s.get("finished"):
            return self._after(state, events + activation.done(state, state.unit_index(s["unit"])))
        return self._after(state, events + self._go_on(state, s))

    # --- abilities ----------------------------------------------------------------------------
    def _use(self, state: State, u: int, ability: Ability | None, action: Action
             ) -> list[Event]:
        assert ability is not None
        return abilities.use(state, u, ability, action) + activation.done(state, u)

    # --- try's shorthand ----------------------------------------------------------------------
    def shorthand(self, state: State, action: Action
                  ) -> tuple[Action, dict[str, Any], list[Violation]]:
        """try's "reaction": {"unit", "type"} written on the enemy action, split off."""
        given = action.option(SHORTHAND)
        if given is None or action.type in ANSWERS:
            return action, {}, []
        plain = replace(action, options=tuple(o for o in action.options if o[0] != SHORTHAND))
        d = dict(given) if isinstance(given, tuple) else None
        if (d is None or not isinstance(d.get("unit"), str)
                or d.get("type") not in reactions.REACTIONS):
            return plain, {}, [v("bad_reaction", f"\"reaction\" must be {{\"unit\": ID, "
                                                 f"\"type\": {'|'.join(reactions.REACTIONS)}}}")]
        return plain, {"reaction": d}, []

    def shorthand_answer(self, state: State, decision: Decision, given: dict[str, Any]
                         ) -> Action:
        d = given.get("reaction")
        offered = decision.get("reaction")          # the reaction this decision offers
        if d and (offered is None or d["type"] == offered):
            # Given as written even when it is not one of the choices, so that its rule refuses
            # it by name (not_targeted, already_activated ...) rather than a quiet "no reaction".
            return Action("react", d["unit"], decision.side, options=(("reaction", d["type"]),))
        return Action(reactions.NO, side=decision.side)

    # --- beyond the game: the computer player, odds, the window, try (package.py) -----------------
    player = staticmethod(package.player)

    try_start = staticmethod(package.try_start)

    try_advance = staticmethod(package.try_advance)

    check_scene = package.check_scene

    health = staticmethod(package.health)

    effect = staticmethod(package.effect)


RULESET = Warband()
