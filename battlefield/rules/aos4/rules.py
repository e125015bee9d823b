"""The aos4 rules on the engine: every action checked against the ability's data (phase, whose
turn, Rules of One, command points) and its own rule, then resolved with logged dice.

Reactions of the seed (At the Double, Forward to Victory, All-out Attack, All-out Defence) are
given as options of the action they react to: {"type": "run", ..., "command": "at-the-double"}.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.errors import UsageError
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import attacking, magic, movement, turns
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.cover import pieces_covering
from battlefield.rules.aos4.data import Ability, abilities
from battlefield.rules.aos4.movement import v
from battlefield.rules.aos4.weapons import weapons_of
from battlefield.rules.moves import find_unit
from battlefield.rules.state import State
from battlefield.rulings import Referee

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
CHARGE_REACH = 0.5
MAX_CHARGE = 12
PILE_IN = 3.0


class Aos4:
    id = "aos4"

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
        return any(not any(len(state.models_of(u)) for u, s in enumerate(state.scene.units)
                           if s.side == side) for side in state.sides)

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

    # --- movement phase -------------------------------------------------------------------------
    def _move_check(self, state, u, action, allowed, kind) -> list[Violation]:
        moves = movement.planned(state, u, action)
        if isinstance(moves, Violation):
            return [moves]
        fly = state.scene.units[u].has("FLY")
        out, after = movement.check_paths(state, u, moves, allowed, fly)
        if out:
            return out
        rng = state.game.scene.ruleset.combat_range
        foes = movement.enemies(state, u)
        foe_models = (np.concatenate([state.models_of(w) for w in foes]) if foes
                      else np.zeros(0, dtype=np.int64))
        if kind in ("normal", "run"):
            if fly:
                ref = Referee(state.scene, after)
                if any(ref.in_combat(u, w) for w in foes):
                    out.append(v("ends_in_combat", "a flying unit cannot end a move in combat"))
            else:
                out.extend(movement.into_combat(state, u, moves, rng))
        elif kind in ("retreat", "redeploy"):
            if movement.within(after, moves.models, foe_models, rng):
                out.append(v("ends_in_combat_range", f"the unit ends within {rng:g}\" of an "
                                                     f"enemy model"))
        return out

    def _in_combat(self, state: State, u: int) -> bool:
        return bool(Referee(state.scene, state.table).combat[u])

    def _move(self, state, u, action, allowed=None) -> list[Event]:
        moves = movement.planned(state, u, action)
        ends = moves.ends()
        state.table = state.table.moved(moves.models, ends[:, 0], ends[:, 1])
        names = state.scene.model_names
        return [{"type": "moved", "unit": state.scene.units[u].id,
                 "models": [names[m] for m in moves.models]}]

    def _check_normal_move(self, state, a, u, action):
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat: it can only retreat")]
        return self._move_check(state, u, action, self._move_stat(state, u), "normal")

    def _do_normal_move(self, state, a, u, action):
        state.units[u].flags.add("moved")
        return self._move(state, u, action)

    def _move_stat(self, state: State, u: int) -> float:
        return float(attacking.stat(state, u, "move", 0) or 0)

    def _check_run(self, state, a, u, action):
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat: it can only retreat")]
        return self._move_check(state, u, action, self._move_stat(state, u) + 6, "run")

    def _do_run(self, state, a, u, action):
        unit = state.scene.units[u]
        if "at-the-double" in self._option_commands(action):
            roll, events = 6, []
        else:
            roll = state.dice.roll("D6", f"run roll {unit.id}").total
            events = []
        allowed = self._move_stat(state, u) + roll
        events.append({"type": "run", "unit": unit.id, "roll": roll, "allowed": allowed})
        state.units[u].flags.update({"moved", "ran"})
        moves = movement.planned(state, u, action)
        _, after = movement.check_paths(state, u, moves, None, unit.has("FLY"))
        problems, _ = movement.check_paths(state, u, moves, allowed, unit.has("FLY"))
        if problems:
            events.append({"type": "run-short", "unit": unit.id,
                           "reason": problems[0].message})
            return events
        state.table = after
        return [*events, {"type": "moved", "unit": unit.id}]

    def _option_commands(self, action: Action) -> list[str]:
        names = action.option("command")
        return [names] if isinstance(names, str) else list(names or [])

    def _check_retreat(self, state, a, u, action):
        if not self._in_combat(state, u):
            return [v("not_in_combat", f"{action.unit} is not in combat: it cannot retreat")]
        return self._move_check(state, u, action, self._move_stat(state, u), "retreat")

    def _do_retreat(self, state, a, u, action):
        events = attacking.mortal(state, u, "D3", f"retreat {action.unit}")
        state.units[u].flags.update({"moved", "retreated"})
        if not len(state.models_of(u)):
            return events
        moves = movement.planned(state, u, action)
        problems, after = movement.check_paths(state, u, moves, None,
                                               state.scene.units[u].has("FLY"))
        if problems:          # casualties broke the planned formation: the unit stays put
            return [*events, {"type": "retreat-blocked", "reason": problems[0].message}]
        state.table = after
        return [*events, {"type": "moved", "unit": action.unit}]

    def _check_redeploy(self, state, a, u, action):
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat")]
        return self._move_check(state, u, action, 6, "redeploy")

    def _do_redeploy(self, state, a, u, action):
        roll = state.dice.roll("D6", f"redeploy {action.unit}").total
        moves = movement.planned(state, u, action)
        problems, after = movement.check_paths(state, u, moves, roll,
                                               state.scene.units[u].has("FLY"))
        if problems:
            return [{"type": "redeploy-short", "unit": action.unit, "roll": roll,
                     "reason": problems[0].message}]
        state.table = after
        return [{"type": "moved", "unit": action.unit, "roll": roll}]

    # --- shooting -------------------------------------------------------------------------------
    def _targets(self, state, action) -> tuple[list[int], list[Violation]]:
        out, bad = [], []
        for t in action.targets:
            try:
                w = state.unit_index(t)
            except KeyError:
                bad.append(v("unknown_target", f"no unit '{t}'"))
                continue
            if state.side_of(w) == state.clock["acting"]:
                bad.append(v("friendly_target", f"{t} is not an enemy unit"))
            elif not len(state.models_of(w)):
                bad.append(v("destroyed", f"{t} has been destroyed"))
            else:
                out.append(w)
        if not action.targets:
            bad.append(v("no_target", f"{action.type} needs a \"target\""))
        return out, bad

    def _check_shoot(self, state, a, u, action):
        us = state.units[u]
        if us.flags & {"ran", "retreated"}:
            return [v("ran_or_retreated", f"{action.unit} ran or retreated this turn")]
        targets, bad = self._targets(state, action)
        if bad:
            return bad
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat and cannot shoot")]
        ranged = weapons_of(state.scene.units[u], melee=False,
                            name=action.weapon) if action.weapon else \
            weapons_of(state.scene.units[u], melee=False)
        if not ranged or any(w.melee for w in ranged):
            return [v("no_ranged_weapons", f"{action.unit} has no ranged weapon to shoot")]
        return self._can_target(state, u, targets, ranged)

    def _can_target(self, state, u, targets, weapons) -> list[Violation]:
        ref = Referee(state.scene, state.table)
        out = []
        for w in targets:
            spec = state.scene.units[w]
            if not spec.has("FLY"):
                hiding = pieces_covering(state.table, state.models_of(u), state.models_of(w),
                                         "obscuring", ref.rules.combat_range)
                if hiding:
                    ids = ", ".join(state.table.layout.pieces[k].id for k in hiding)
                    out.append(v("obscured", f"{spec.id} is behind or on obscuring terrain "
                                             f"({ids})"))
                    continue
            if not any(self._able(state, ref, u, w, wp) for wp in weapons):
                out.append(v("out_of_range_or_sight", f"no model of {state.scene.units[u].id} "
                                                      f"has {spec.id} in range and in sight"))
        return out

    def _able(self, state, ref, u, w, weapon) -> int:
        from battlefield.rules.aos4.attack_odds import _able

        n, _ = _able(ref, u, w, weapon)
        return n

    def _volleys(self, state, u, targets, weapons, hit_mod, action, cause) -> list[Event]:
        events: list[Event] = []
        ref = Referee(state.scene, state.table)
        aoa = "all-out-attack" in self._option_commands(action)
        for w in targets:
            spec = state.scene.units[w]
            cover = [] if ("charged" in state.units[w].flags or spec.has("FLY")) else \
                pieces_covering(state.table, state.models_of(u), state.models_of(w), "cover",
                                ref.rules.combat_range)
            defence = bool(action.option("all_out_defence")) and \
                state.sides[spec.side]["cp"] >= 1 and \
                "all-out-defence" not in state.sides[spec.side]["commands"]
            if defence:
                state.sides[spec.side]["cp"] -= 1
                state.sides[spec.side]["commands"].append("all-out-defence")
                events.append({"type": "command", "side": spec.side,
                               "command": "all-out-defence", "cost": 1})
            mine, theirs = state.units[u].counters, state.units[w].counters
            mods = Modifiers(hit=hit_mod + (-1 if cover else 0) + (1 if aoa else 0)
                             + int(mine.get("buff_hit", 0)),
                             wound=int(mine.get("buff_wound", 0)),
                             save=(1 if defence else 0) + int(theirs.get("buff_save", 0)),
                             ward=attacking.stat(state, w, "ward", None))
            total = 0
            for wp in weapons:
                n = self._able(state, ref, u, w, wp)
                if not n:
                    continue
                dmg, ev = attacking.volley(state, u, w, wp, n, mods)
                ev["cover"] = [state.table.layout.pieces[k].id for k in cover]
                events.append(ev)
                total += dmg
            events.extend(attacking.allocate(state, w, total, state.models_of(u), cause))
            break          # one target at a time: the rest of the weapons had no other target
        return events

    def _do_shoot(self, state, a, u, action):
        targets, _ = self._targets(state, action)
        weapons = (weapons_of(state.scene.units[u], name=action.weapon) if action.weapon
                   else weapons_of(state.scene.units[u], melee=False))
        state.units[u].flags.add("shot")
        return self._volleys(state, u, targets, weapons, 0, action, f"shot by {action.unit}")

    def _check_covering_fire(self, state, a, u, action):
        us = state.units[u]
        if "ran" in us.flags or self._in_combat(state, u):
            return [v("cannot_cover", f"{action.unit} ran this turn or is in combat")]
        ranged = weapons_of(state.scene.units[u], melee=False)
        if not ranged:
            return [v("no_ranged_weapons", f"{action.unit} has no ranged weapons")]
        closest = self._closest_target(state, u, ranged)
        if closest is None:
            return [v("no_target", "no enemy unit can be targeted")]
        if action.target is not None and action.target != state.scene.units[closest].id:
            return [v("not_closest", f"covering fire targets the closest enemy unit that can "
                                     f"be targeted: {state.scene.units[closest].id}")]
        return []

    def _closest_target(self, state, u, weapons) -> int | None:
        best, where = None, float("inf")
        for w in movement.enemies(state, u):
            if self._can_target(state, u, [w], weapons):
                continue
            d = state.table.unit_distance(u, w)
            if d < where:
                best, where = w, d
        return best

    def _do_covering_fire(self, state, a, u, action):
        ranged = weapons_of(state.scene.units[u], melee=False)
        w = self._closest_target(state, u, ranged)
        return self._volleys(state, u, [w], ranged, -1, action, f"covering fire {action.unit}")

    # --- charge ---------------------------------------------------------------------------------
    def _check_charge(self, state, a, u, action):
        us = state.units[u]
        if us.flags & {"ran", "retreated"}:
            return [v("ran_or_retreated", f"{action.unit} ran or retreated this turn")]
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is already in combat")]
        targets, bad = self._targets(state, action)
        if bad:
            return bad
        moves = movement.planned(state, u, action)
        if isinstance(moves, Violation):
            return [moves]
        out, after = movement.check_paths(state, u, moves, MAX_CHARGE,
                                          state.scene.units[u].has("FLY"))
        if out:
            return out
        if not self._reaches(state, after, u, targets):
            return [v("charge_not_reached", f"the path does not end within 1/2\" of a visible "
                                            f"model of {', '.join(action.targets)}")]
        return []

    def _reaches(self, state, after, u, targets) -> bool:
        from battlefield.geometry.sight import SightModel

        sight = SightModel(after)
        mine = after.unit_models[u]
        for w in targets:
            theirs = after.unit_models[w]
            d = after.distances(mine, theirs)
            for i, j in zip(*np.nonzero(d <= CHARGE_REACH + movement.EPS), strict=True):
                if sight.model_visibility(int(mine[i]), int(theirs[j])).any:
                    return True
        return False

    def _charge_length(self, state, u, action) -> float:
        moves = movement.planned(state, u, action)
        from battlefield.geometry.paths import Terrain

        fly = state.scene.units[u].has("FLY")
        worst = 0.0
        for m, path in zip(moves.models, moves.paths, strict=True):
            c = Terrain(state.table.layout, movement.CLIMB_FREE,
                        landing=float(state.table.reach[m])).path_cost(path, fly)
            worst = max(worst, min(c.total, c.total_if_jumping))
        return worst

    def _do_charge(self, state, a, u, action):
        unit = state.scene.units[u]
        needed = self._charge_length(state, u, action)
        roll = state.dice.roll("2D6", f"charge roll {unit.id}").total
        events: list[Event] = [{"type": "charge-roll", "unit": unit.id, "roll": roll,
                                "needed": round(needed, 6)}]
        side = unit.side
        if (roll < needed - movement.EPS and "forward-to-victory" in self._option_commands(action)
                and state.sides[side]["cp"] >= 1
                and "forward-to-victory" not in state.sides[side]["commands"]):
            state.sides[side]["cp"] -= 1
            state.sides[side]["commands"].append("forward-to-victory")
            roll = state.dice.roll("2D6", f"charge re-roll {unit.id}").total
            events += [{"type": "command", "side": side, "command": "forward-to-victory",
                        "cost": 1}, {"type": "charge-roll", "unit": unit.id, "roll": roll,
                                     "needed": round(needed, 6), "reroll": True}]
        if roll < needed - movement.EPS:
            events.append({"type": "charge-failed", "unit": unit.id})
            return events
        events.extend(self._move(state, u, action))
        state.units[u].flags.add("charged")
        events.append({"type": "charged", "unit": unit.id, "target": list(action.targets)})
        return events

    def _check_counter_charge(self, state, a, u, action):
        return self._check_charge(state, a, u, action)

    def _do_counter_charge(self, state, a, u, action):
        return self._do_charge(state, a, u, action)

    # --- combat ---------------------------------------------------------------------------------
    def _fighters(self, state: State, side: str) -> list[int]:
        """The side's units that may be picked to fight now: STRIKE-FIRST units (of either
        side) fight before all others, STRIKE-LAST units after all others."""
        pending = self._all_fighters(state)
        mine = [u for u in pending if state.scene.units[u].side == side]
        for order in ("first", ""):
            if any(self._strike(state, u) == order for u in pending):
                return [u for u in mine if self._strike(state, u) == order]
        return mine

    def _all_fighters(self, state: State) -> list[int]:
        ref = Referee(state.scene, state.table)
        return [u for u in range(len(state.scene.units))
                if len(state.models_of(u)) and "fight" not in state.units[u].phase_used
                and (ref.combat[u] or "charged" in state.units[u].flags)]

    def _strike(self, state: State, u: int) -> str:
        s = state.scene.units[u]
        first, last = s.has("STRIKE-FIRST"), s.has("STRIKE-LAST")
        return "first" if first and not last else ("last" if last and not first else "")

    def _first_fighter(self, state: State) -> None:
        c = state.clock
        if not self._fighters(state, c["active"]) and self._fighters(
                state, turns.other(state, c["active"])):
            c["acting"] = turns.other(state, c["active"])

    def _next_fighter(self, state: State) -> None:
        c = state.clock
        foe = turns.other(state, c["acting"])
        if self._fighters(state, foe):
            c["acting"] = foe

    def _check_fight(self, state, a, u, action):
        if u not in self._fighters(state, state.clock["acting"]):
            ref = Referee(state.scene, state.table)
            if not (ref.combat[u] or "charged" in state.units[u].flags):
                return [v("not_in_combat", f"{action.unit} is not in combat and did not charge")]
            return [v("strike_order", f"{action.unit} cannot fight yet (strike-first units "
                                      f"fight first, strike-last units last)")]
        if action.path is not None or action.paths is not None:
            out = self._check_pile_in(state, u, action)
            if out:
                return out
        return []

    def _check_pile_in(self, state, u, action) -> list[Violation]:
        moves = movement.planned(state, u, action)
        if isinstance(moves, Violation):
            return [moves]
        out, after = movement.check_paths(state, u, moves, PILE_IN,
                                          state.scene.units[u].has("FLY"))
        if out:
            return out
        before = Referee(state.scene, state.table)
        now = Referee(state.scene, after)
        was = before.combat[u]
        if was:
            foes = np.concatenate([state.models_of(w) for w in was])
            d0 = state.table.distances(moves.models, foes).min(axis=1)
            d1 = after.distances(moves.models, foes).min(axis=1)
            names = state.scene.model_names
            for m, x, y in zip(moves.models, d0, d1, strict=True):
                if y > x + movement.EPS:
                    out.append(v("pile_in_further", f"{names[m]} ends {y:.2f}\" from the enemy, "
                                                    f"further than {x:.2f}\""))
            lost = [state.scene.units[w].id for w in was if w not in now.combat[u]]
            if lost:
                out.append(v("leaves_combat", f"the unit would no longer be in combat with "
                                              f"{', '.join(lost)}"))
        return out

    def _do_fight(self, state, a, u, action):
        events: list[Event] = []
        if action.path is not None or action.paths is not None:
            events.extend(self._move(state, u, action))
        ref = Referee(state.scene, state.table)
        targets = [state.unit_index(t) for t in action.targets] if action.targets else \
            list(ref.combat[u])
        melee = weapons_of(state.scene.units[u], melee=True)
        for w in targets:
            if len(state.models_of(w)):
                events.extend(self._volleys(state, u, [w], melee, 0, action,
                                            f"fought by {action.unit}"))
        return events

    # --- hero phase and end of turn -------------------------------------------------------------
    def _check_rally(self, state, a, u, action):
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat and cannot rally")]
        return []

    def _do_rally(self, state, a, u, action):
        rolls = state.dice.roll("6D6", f"rally rolls {action.unit}").values
        points = sum(1 for r in rolls if r >= 4)
        us = state.units[u]
        healed = 0
        for k in np.argsort(-us.damage):
            while points and us.alive[k] and us.damage[k] > 0:
                us.damage[k] -= 1
                points -= 1
                healed += 1
        health = attacking.stat(state, u, "health", 1) or 1
        returned = []
        first = state.scene.model_offsets()[u]
        for k in np.nonzero(~us.alive)[0]:
            if points < health:
                break
            m = first + int(k)
            back = state.table.restored(np.array([m]), np.array([u]))
            ref = Referee(state.scene, back)
            ok = ref.coherency(u).coherent and _free_spot(back, m)
            if ok:
                state.table = back
                us.alive[k] = True
                us.damage[k] = 0
                points -= health
                returned.append(state.scene.model_names[m])
        return [{"type": "rally", "unit": action.unit, "rolls": list(rolls),
                 "healed": healed, "returned": returned}]

    def _check_power_through(self, state, a, u, action):
        if "charged" not in state.units[u].flags:
            return [v("not_charged", f"{action.unit} did not charge this turn")]
        targets, bad = self._targets(state, action)
        if bad:
            return bad
        ref = Referee(state.scene, state.table)
        w = targets[0]
        if w not in ref.combat[u]:
            return [v("not_in_combat", f"{action.target} is not in combat with {action.unit}")]
        mine = attacking.stat(state, u, "health", 1) or 1
        theirs = attacking.stat(state, w, "health", 1) or 1
        if theirs >= mine:
            return [v("not_lower_health", f"{action.target}'s Health {theirs} is not lower than "
                                          f"{mine}")]
        if action.path is not None or action.paths is not None:
            moves = movement.planned(state, u, action)
            if isinstance(moves, Violation):
                return [moves]
            out, _ = movement.check_paths(state, u, moves, self._move_stat(state, u),
                                          state.scene.units[u].has("FLY"))
            return out
        return []

    def _do_power_through(self, state, a, u, action):
        w = state.unit_index(action.targets[0])
        events = attacking.mortal(state, w, "D3", f"power through {action.unit}",
                                  state.models_of(u))
        if action.path is not None or action.paths is not None:
            events.extend(self._move(state, u, action))
        return events

    def _check_activate_place_of_power(self, state, a, u, action):
        spec = state.scene.units[u]
        if not spec.has("HERO"):
            return [v("not_a_hero", f"{action.unit} is not a HERO")]
        pieces = state.table.layout.pieces_with("place-of-power")
        import shapely

        feet = shapely.union_all([state.table.footprint(int(m), 32)
                                  for m in state.models_of(u)])
        if not any(feet.distance(state.table.layout.polygons[k]) <= 3 + movement.EPS
                   for k in pieces):
            return [v("no_place_of_power", f"{action.unit} is not within 3\" of a place of "
                                           f"power")]
        return []

    def _do_activate_place_of_power(self, state, a, u, action):
        roll = state.dice.roll("D6", f"place of power {action.unit}").total
        if roll == 1:
            return [{"type": "place-of-power", "unit": action.unit, "roll": roll},
                    *attacking.mortal(state, u, "D3", f"place of power {action.unit}")]
        state.units[u].flags.add("empowered")
        return [{"type": "place-of-power", "unit": action.unit, "roll": roll,
                 "effect": "+1 to casting and chanting rolls this turn"}]


def _free_spot(t, m: int) -> bool:
    from battlefield.geometry.separation import signed_distance_matrix

    on = np.nonzero(t.on_table)[0].astype(np.int64)
    on = on[on != m]
    if not len(on):
        return True
    d = signed_distance_matrix(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin,
                               np.array([m], dtype=np.int64), on)
    return bool((d >= -movement.OVERLAP).all())


RULES = Aos4()
