"""The aos4 rules on the engine: every action checked against the ability's data (phase, whose
turn, Rules of One, command points) and its own rule, then resolved with logged dice.

Reactions of the acting side (At the Double, Forward to Victory, All-out Attack) are given as
options of the action they react to: {"type": "run", ..., "command": "at-the-double"}. All-out
Defence is the other side's: a pending decision (defence.py, rules/decisions.py) that a shoot or
fight raises and resume() finishes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from battlefield.errors import InputError, UsageError
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import defence, magic, package, spellbook, turns, warscroll, weapons
from battlefield.rules.aos4.data import Ability, abilities, used_core
from battlefield.rules.aos4.fighting import Fighting
from battlefield.rules.aos4.heroics import Heroics
from battlefield.rules.aos4.movement import v
from battlefield.rules.aos4.movement_phase import Moving
from battlefield.rules.aos4.shooting import Shooting
from battlefield.rules.decisions import DECLINE, Decision, answer_of
from battlefield.rules.moves import find_unit
from battlefield.rules.result import Result
from battlefield.rules.ruleset import DragContext, DragNotes, Effect, Player, Ruleset
from battlefield.rules.state import State
from battlefield.scene.model import Scene

Event = dict[str, Any]
END_PHASE = "end-phase"
# Which command reacts to which abilities, and which abilities are not played (with the
# reason): rulesets/aos4/abilities.yaml `reacts_to` and `not_played`.
REACTIONS = {a.id: "|".join(a.reacts_to) for a in abilities().values() if a.reacts_to}
NOT_PLAYED = {a.id: a.not_played for a in abilities().values() if a.not_played}
OPTIONS = ("command", "unbind", "bank")
SHORTHAND = "all_out_defence"      # try's shorthand for the defender's answer


Check = Callable[[State, Ability, int, Action], list[Violation]]
Resolve = Callable[[State, Ability, int, Action], list[Event]]


@dataclass(frozen=True)
class Handler:
    """How an ability is played: its own rule (after phase, unit, Rules of One and command
    points are checked) and its effect."""

    check: Check
    resolve: Resolve


class Aos4(Moving, Shooting, Fighting, Heroics, Ruleset):
    """aos4: the abilities of rulesets/aos4/abilities.yaml played phase by phase (the game
    hooks here and in the mixins by phase), plus what package.py answers for the tools."""

    id = "aos4"
    phases = turns.PHASES
    clock_sides = ("first", "underdog")
    odds = package.ODDS

    def __init__(self, data: dict[str, Ability] | None = None) -> None:
        """The rules for the abilities in `data` (default rulesets/aos4/abilities.yaml): every
        one has a handler, is a reaction given on other abilities, or is not played - else the
        ruleset does not load."""
        self.handlers = self._handler_table(abilities() if data is None else data)

    def _handler_table(self, data: dict[str, Ability]) -> dict[str, Handler]:
        table = {
            "normal-move": Handler(self._check_normal_move, self._do_normal_move),
            "run": Handler(self._check_run, self._do_run),
            "retreat": Handler(self._check_retreat, self._do_retreat),
            "redeploy": Handler(self._check_redeploy, self._do_redeploy),
            "shoot": Handler(self._check_shoot, self._do_shoot),
            "covering-fire": Handler(self._check_covering_fire, self._do_covering_fire),
            "charge": Handler(self._check_charge, self._do_charge),
            "counter-charge": Handler(self._check_counter_charge, self._do_counter_charge),
            "fight": Handler(self._check_fight, self._do_fight),
            "rally": Handler(self._check_rally, self._do_rally),
            "power-through": Handler(self._check_power_through, self._do_power_through),
            "activate-place-of-power": Handler(self._check_activate_place_of_power,
                                               self._do_activate_place_of_power),
            "magical-intervention": Handler(self._check_intervention, self._do_intervention),
        }
        for a in data.values():
            if a.id in table or a.reacts_to or a.not_played:
                continue
            file, path, line = a.where
            raise InputError(file, path, line, f"ability '{a.id}' has no handler in "
                                               f"battlefield/rules/aos4",
                             "a handler in Aos4._handler_table, reacts_to: [ABILITY, ...] "
                             "or not_played: REASON")
        return {k: h for k, h in table.items() if k in data}

    def _check_intervention(self, state: State, a: Ability, u: int, action: Action
                            ) -> list[Violation]:
        return [v("use_as_option", "give it as \"command\": \"magical-intervention\" on "
                                   "the spell or prayer it lets a unit use")]

    def _do_intervention(self, state: State, a: Ability, u: int, action: Action
                         ) -> list[Event]:
        raise UsageError("magical-intervention is given on a spell or prayer")

    # --- the engine's questions ---------------------------------------------------------------
    def setup(self, state: State) -> list[Event]:
        if len(state.scene.sides) != 2:
            raise UsageError(f"an aos4 battle needs two sides; the scene has "
                             f"{len(state.scene.sides)}: {', '.join(state.scene.sides)}")
        spellbook.check_scene(state.scene)
        return turns.begin(state)

    def acting_side(self, state: State) -> str:
        return state.clock["acting"]

    def over(self, state: State) -> bool:
        if state.clock.get("over"):
            return True
        scene = state.scene
        _, standing = state.table.memo(("sides-standing", id(scene)), lambda: (scene, {
            s.side for u, s in enumerate(scene.units) if len(state.models_of(u))}))
        return any(side not in standing for side in state.sides)

    def result(self, state: State) -> Result:
        vp = {s: d["vp"] for s, d in state.sides.items()}
        standing = [s for s in state.sides
                    if any(len(state.models_of(u)) for u, spec in enumerate(state.scene.units)
                           if spec.side == s)]
        if len(standing) == 1:
            winner, how = standing[0], "the other army was destroyed"
        else:
            best = max(vp.values())
            top = [s for s, x in vp.items() if x == best]
            winner, how = (top[0], "more victory points") if len(top) == 1 else (None, "draw")
        return Result(winner, how, "victory_points", {"victory_points": vp},
                      state.clock["round"])

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        out = [END_PHASE]
        for a in abilities().values():
            if a.id in NOT_PLAYED or a.reaction or a.id == "magical-intervention":
                continue
            if self._phase_problem(state, a) is None:
                out.append(a.id)
        c = state.clock
        if c["phase"] == "hero" and c["acting"] == c["active"]:
            out += magic.cast_by(state, c["acting"])    # its own hero phase: cast and chant
        return out

    # --- check ----------------------------------------------------------------------------------
    def check(self, state: State, action: Action) -> list[Violation]:
        if state.pending:
            return []         # an answer that is not a choice: the engine lists the choices
        odd = [k for k, _ in action.options if k not in OPTIONS]
        if SHORTHAND in odd or action.type in (DECLINE, defence.ID):
            return [v("defenders_decision",
                      "All-out Defence is the defending side's decision, asked when a shoot or "
                      "fight targets its unit (none is asked now); it answers {\"type\": "
                      "\"all-out-defence\", \"side\", \"unit\"} or {\"type\": \"decline\", "
                      "\"side\"} (try also takes \"all_out_defence\": true on the attack)")]
        if action.side is not None and action.side != state.clock["acting"]:
            return [v("not_your_decision", f"it is {state.clock['acting']}'s decision, not "
                                           f"{action.side}'s")]
        if odd:
            return [v("unknown_key", f"unknown key '{odd[0]}' in the action (valid: type, side, "
                                     f"unit, path, paths, target, weapon, "
                                     f"{', '.join(OPTIONS)})")]
        if action.type == END_PHASE:
            return self._check_end_phase(state)
        a = abilities().get(action.type)
        if a is None and action.type in magic.known(state):
            return self._check_magic(state, action)
        if a is None:
            return self.unknown_action(action.type, [END_PHASE, *abilities(),
                                                     *sorted(magic.known(state))], "ability")
        if a.id == "magical-intervention":
            return [v("use_as_option", "give it as \"command\": \"magical-intervention\" on "
                                       "the spell or prayer it lets a unit use")]
        if a.id in NOT_PLAYED:
            return [v("not_played", f"{a.id}: {NOT_PLAYED[a.id]}")]
        if a.reaction:
            return [v("reaction", f"{a.id} is a reaction: give it as \"command\": \"{a.id}\" "
                                  f"on the {REACTIONS[a.id].replace('|', ' or ')} action")]
        problem = self._phase_problem(state, a)
        if problem:
            return [problem]
        u, problem = self._unit(state, action)
        if problem:
            return [problem]
        out = self._rules_of_one(state, a, u, action)
        if out:
            return out
        return self.handlers[a.id].check(state, a, u, action)

    def _phase_problem(self, state: State, a: Ability) -> Violation | None:
        c = state.clock
        mine = c["acting"] == c["active"]
        for phase, whose in a.phases:
            if phase == c["phase"] and (whose == "any" or (whose == "your") == mine):
                return None
        whose = {"your": "the acting side's own", "enemy": "the enemy's", "any": "any"}
        when = " or ".join(f"{whose[w]} {p} phase" for p, w in a.phases)
        return v("wrong_phase", f"{a.id} is used in the {when}; it is {c['active']}'s "
                                f"{c['phase']} phase and {c['acting']} is acting")

    def _unit(self, state: State, action: Action) -> tuple[int, Violation | None]:
        u, problem = find_unit(state, action)
        if problem:
            return u, problem
        if state.side_of(u) != state.clock["acting"]:
            return u, v("not_yours", f"{action.unit} is {state.side_of(u)}'s; "
                                     f"{state.clock['acting']} is acting")
        return u, None

    def _commands(self, action: Action, a: Ability) -> list[Ability]:
        names = action.option("command")
        names = [names] if isinstance(names, str) else list(names or [])
        out = [a] if a.command else []
        for n in names:
            if n in abilities():
                out.append(abilities()[n])
        return out

    def _rules_of_one(self, state: State, a: Ability, u: int, action: Action
                      ) -> list[Violation]:
        us = state.units[u]
        out = []
        if "CORE" in a.keywords and used_core(us.phase_used):
            out.append(v("rules_of_one", f"{action.unit} has used a CORE ability this phase"))
        elif a.id in us.phase_used:
            out.append(v("once_per_phase", f"{action.unit} has used {a.id} this phase"))
        names = action.option("command")
        names = [names] if isinstance(names, str) else list(names or [])
        for n in names:
            if n == defence.ID:
                out.append(v("defenders_decision", "all-out-defence is the defending side's "
                                                   "decision, asked when the attack is declared"))
            elif n not in abilities() or n not in REACTIONS:
                own = [r for r in REACTIONS if r != defence.ID]
                out.append(v("unknown_command", f"'{n}' is not a reaction command (valid: "
                                                f"{', '.join(own)})"))
            elif a.id not in REACTIONS[n].split("|"):
                out.append(v("wrong_reaction", f"{n} reacts to {REACTIONS[n]}, not {a.id}"))
        side = state.clock["acting"]
        cost = 0
        for c in self._commands(action, a):
            if c.id == defence.ID:
                continue                      # the defender's decision (refused above)
            cost += c.cost
            if c.id in state.sides[side]["commands"]:
                out.append(v("command_used", f"{side} has used {c.id} this phase"))
        if cost and any(x in us.phase_used for x in ("command",)):
            out.append(v("unit_command_used", f"{action.unit} has used a command this phase"))
        if cost > state.sides[side]["cp"]:
            out.append(v("command_points", f"{cost} command points needed, {side} has "
                                           f"{state.sides[side]['cp']}",
                         needed=cost, have=state.sides[side]["cp"]))
        return out

    # --- resolve --------------------------------------------------------------------------------
    def _check_magic(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._unit(state, action)
        if problem:
            return [problem]
        if magic.lookup(state, u, action.type) is None:
            return [v("unknown_spell", f"{action.unit} does not know {action.type}")]
        intervention = "magical-intervention" in self._option_commands(action)
        out = magic.check(state, u, action, intervention)
        side = state.clock["acting"]
        cost = abilities()["magical-intervention"].cost
        if intervention and not out:
            if state.sides[side]["cp"] < cost:
                out.append(v("command_points", f"magical-intervention needs {cost} command "
                                               f"point{'s' * (cost != 1)}, {side} has "
                                               f"{state.sides[side]['cp']}",
                             needed=cost, have=state.sides[side]["cp"]))
            elif "magical-intervention" in state.sides[side]["commands"]:
                out.append(v("command_used", f"{side} has used magical-intervention this "
                                             f"phase"))
        return out

    def _resolve_magic(self, state: State, action: Action) -> list[Event]:
        u = state.unit_index(action.unit)
        intervention = "magical-intervention" in self._option_commands(action)
        events: list[Event] = []
        if intervention:
            side = state.clock["acting"]
            cost = abilities()["magical-intervention"].cost
            state.sides[side]["cp"] -= cost
            state.sides[side]["commands"].append("magical-intervention")
            events.append({"type": "command", "side": side, "command": "magical-intervention",
                           "cost": cost})
        return events + magic.resolve(state, u, action, intervention)

    def resolve(self, state: State, action: Action) -> list[Event]:
        if action.type == END_PHASE:
            return self._end_phase(state)
        if action.type not in abilities():
            return self._resolve_magic(state, action)
        a = abilities()[action.type]
        u = state.unit_index(action.unit)
        us = state.units[u]
        us.phase_used.add(a.id)
        side = state.clock["acting"]
        events: list[Event] = []
        for c in self._commands(action, a):
            if c.id in ("all-out-defence", "forward-to-victory"):
                continue                      # paid when (and by whom) it is used
            state.sides[side]["cp"] -= c.cost
            state.sides[side]["commands"].append(c.id)
            us.phase_used.add("command")
            events.append({"type": "command", "side": side, "command": c.id, "cost": c.cost})
        events.extend(self.handlers[a.id].resolve(state, a, u, action))
        if state.clock["phase"] == "combat" and a.id == "fight" and not state.pending:
            self._next_fighter(state)
        return events

    # --- decisions ------------------------------------------------------------------------------
    def resume(self, state: State, suspended: dict[str, Any],
               answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        """The attack that waited for the defender's All-out Defence decision."""
        events = self._roll_attack(state, suspended, answer_of(answers, defence.ID))
        if state.clock["phase"] == "combat" and suspended["action"]["type"] == "fight":
            self._next_fighter(state)
        return events

    def shorthand(self, state: State, action: Action
                  ) -> tuple[Action, dict[str, Any], list[Violation]]:
        """try's `"all_out_defence": true` (or a target's id) on a shoot or fight."""
        given = action.option(SHORTHAND)
        if given is None:
            return action, {}, []
        plain = replace(action, options=tuple(o for o in action.options if o[0] != SHORTHAND))
        if not isinstance(given, (bool, str)):
            return plain, {}, [v("bad_all_out_defence", f"\"{SHORTHAND}\" is true, false or "
                                                        f"the id of the unit it protects")]
        return plain, {defence.ID: given}, []

    def shorthand_answer(self, state: State, decision: Decision, given: dict[str, Any]
                         ) -> Action:
        """The answer the shorthand stands for; without it, the defender declines."""
        want = given.get(decision.kind)
        for c in decision.choices:
            if c.type == defence.ID and (want is True or want == c.unit):
                return c
        return Action(DECLINE, side=decision.side)

    # --- end of phase ---------------------------------------------------------------------------
    def _check_end_phase(self, state: State) -> list[Violation]:
        c = state.clock
        if c["phase"] == "combat":
            able = self._fighters(state, c["acting"])
            if able:
                ids = ", ".join(state.scene.units[u].id for u in able)
                return [v("must_fight", f"units in combat must fight: {ids}")]
        return []

    def _end_phase(self, state: State) -> list[Event]:
        c = state.clock
        side = c["acting"]
        events: list[Event] = [{"type": "pass", "side": side, "phase": c["phase"]}]
        if c["phase"] == "combat":
            foe = turns.other(state, side)
            if self._fighters(state, foe):
                c["acting"] = foe
                return events
            events.extend(turns.next_phase(state))
            return events
        if side == c["active"]:
            c["acting"] = turns.other(state, side)
            return events
        events.extend(turns.next_phase(state))
        if c["phase"] == "combat":
            self._first_fighter(state)
        return events

    # --- beyond the game: the computer player, the window, try (package.py) -------------------
    def player(self) -> Player:
        return package.player()

    def drag_abilities(self, state: State, u: int, offered: list[str]) -> list[str]:
        return package.drag_abilities(state, u, offered)

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        return package.drag_notes(ctx)

    def drop_in_place(self, state: State, u: int, ability: str, target: int | None
                      ) -> Action | str:
        return package.drop_in_place(state, u, ability, target)

    def check_scene(self, scene: Scene) -> None:
        spellbook.check_scene(scene)
        weapons.check_scene(scene)
        warscroll.check_scene(scene)

    def try_start(self, scene: Scene, actions: list[Action]) -> dict[str, Any]:
        return package.try_start(scene, actions)

    def try_advance(self, state: State, action: Action) -> list[Violation]:
        return package.try_advance(state, action)

    def health(self, state: State, u: int) -> list[int]:
        return package.health(state, u)

    def effect(self, event: Event) -> Effect | None:
        return package.effect(event)


RULESET = Aos4()
