"""The aos4 rules on the engine: every action checked against the ability's data (phase, whose
turn, Rules of One, command points) and its own rule, then resolved with logged dice.

Reactions of the seed (At the Double, Forward to Victory, All-out Attack, All-out Defence) are
given as options of the action they react to: {"type": "run", ..., "command": "at-the-double"}.
"""

from __future__ import annotations

from typing import Any

from battlefield.errors import UsageError
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import magic, turns
from battlefield.rules.aos4.data import Ability, abilities
from battlefield.rules.aos4.fighting import Fighting
from battlefield.rules.aos4.heroics import Heroics
from battlefield.rules.aos4.movement import v
from battlefield.rules.aos4.moving import Moving
from battlefield.rules.aos4.shooting import Shooting
from battlefield.rules.moves import find_unit
from battlefield.rules.state import State

Event = dict[str, Any]
END_PHASE = "end-phase"
REACTIONS = {"at-the-double": "run", "forward-to-victory": "charge",
             "all-out-attack": "shoot|fight|covering-fire", "all-out-defence": "shoot|fight"}
NOT_PLAYED = {
    "deploy-unit": "scenes start deployed; the deployment phase is not played",
    "deploy-faction-terrain": "scenes start deployed; the deployment phase is not played",
    "deploy-regiment": "scenes start deployed; the deployment phase is not played",
    "unbind": "spells are not in scene profiles yet",
    "banish-manifestation": "manifestations are not in scenes yet",
}
OPTIONS = ("command", "all_out_defence", "unbind", "bank")


class Aos4(Moving, Shooting, Fighting, Heroics):
    id = "aos4"
    phases = turns.PHASES

    # --- the engine's questions ---------------------------------------------------------------
    def setup(self, state: State) -> list[Event]:
        if len(state.scene.sides) != 2:
            raise UsageError(f"an aos4 battle needs two sides; the scene has "
                             f"{len(state.scene.sides)}: {', '.join(state.scene.sides)}")
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

    def result(self, state: State) -> dict[str, Any]:
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
        return {"winner": winner, "by": how, "victory_points": vp,
                "round": state.clock["round"]}

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        out = [END_PHASE]
        for a in abilities().values():
            if a.id in NOT_PLAYED or a.reaction or a.id == "magical-intervention":
                continue
            if self._phase_problem(state, a) is None:
                out.append(a.id)
        return out

    # --- check ----------------------------------------------------------------------------------
    def check(self, state: State, action: Action) -> list[Violation]:
        if self.over(state):
            return [v("battle_over", "the battle is over")]
        if action.side is not None and action.side != state.clock["acting"]:
            return [v("not_your_decision", f"it is {state.clock['acting']}'s decision, not "
                                           f"{action.side}'s")]
        odd = [k for k, _ in action.options if k not in OPTIONS]
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
            valid = ", ".join([END_PHASE, *abilities(), *sorted(magic.known(state))])
            return [v("unknown_action", f"no ability '{action.type}' (valid: {valid})")]
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
        return getattr(self, "_check_" + a.id.replace("-", "_"))(state, a, u, action)

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
        if "CORE" in a.keywords and any("CORE" in abilities()[x].keywords
                                        for x in us.phase_used if x in abilities()):
            out.append(v("rules_of_one", f"{action.unit} has used a CORE ability this phase"))
        elif a.id in us.phase_used:
            out.append(v("once_per_phase", f"{action.unit} has used {a.id} this phase"))
        names = action.option("command")
        names = [names] if isinstance(names, str) else list(names or [])
        for n in names:
            if n not in abilities() or n not in REACTIONS:
                out.append(v("unknown_command", f"'{n}' is not a reaction command (valid: "
                                                f"{', '.join(REACTIONS)})"))
            elif a.id not in REACTIONS[n].split("|"):
                out.append(v("wrong_reaction", f"{n} reacts to {REACTIONS[n]}, not {a.id}"))
        side = state.clock["acting"]
        cost = 0
        for c in self._commands(action, a):
            if c.id == "all-out-defence":
                continue                      # the defender's command, paid by the defender
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
        if intervention and not out:
            if state.sides[side]["cp"] < 1:
                out.append(v("command_points", f"magical-intervention needs 1 command point, "
                                               f"{side} has {state.sides[side]['cp']}",
                             needed=1, have=state.sides[side]["cp"]))
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
            state.sides[side]["cp"] -= 1
            state.sides[side]["commands"].append("magical-intervention")
            events.append({"type": "command", "side": side, "command": "magical-intervention",
                           "cost": 1})
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
        events.extend(getattr(self, "_do_" + a.id.replace("-", "_"))(state, a, u, action))
        if state.clock["phase"] == "combat" and a.id == "fight":
            self._next_fighter(state)
        return events

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



RULES = Aos4()
