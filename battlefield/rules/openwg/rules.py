"""The openwg rules on the engine: every action checked (the phase, whose action it is, the unit,
its own rule with the numbers) and then resolved with logged dice.

Actions (JSON): {"type": "move"|"run"|"retreat", "unit", "path"|"paths"}, {"type": "charge",
"unit", "target", "path"|"paths"}, {"type": "hold", "unit"}, {"type": "shoot", "unit", "target",
"weapon"} or with "split": {TARGET: [model numbers]}, {"type": "fight", "unit", "target",
"adjust"?: {"1": [[x, y], ...]}} (or "split" as shoot), {"type": "cast", "unit", "spell",
"target"}, {"type": "stop"}.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.rules.actions import Action, Violation
from battlefield.rules.chance import Throw, play
from battlefield.rules.handlers import handles
from battlefield.rules.moves import Arrive, Keep, about, find_unit, v
from battlefield.rules.openwg import attacks, data, movement, package, turns
from battlefield.rules.openwg.data import EPS, PHASES, game, phase_of
from battlefield.rules.openwg.profiles import Weapon, profiles, scene_profiles
from battlefield.rules.openwg.reach import enemies_in_combat, unit_gap
from battlefield.rules.result import Result, decide
from battlefield.rules.ruleset import Parameter, Ruleset
from battlefield.rules.state import State
from battlefield.scene.model import Scene

Event = dict[str, Any]
MOVES = ("move", "run", "charge", "retreat")


class OpenWG(Ruleset):
    """openwg: four phases a round, Stop, pooled wounds, morale (the game hooks here), plus what
    package.py answers for the tools."""

    id = "openwg"
    turn_word = "action"
    phases = PHASES
    clock_side_lists = ("stopped",)
    odds = package.ODDS
    window = package.OpenWGWindow()
    parameters = (Parameter("rounds", "game.rounds", "battle rounds", least=1),)

    def load(self) -> data.Book:
        return data.load(self.folder)

    # --- the engine's questions ---------------------------------------------------------------
    setup = staticmethod(turns.begin)

    def acting_side(self, state: State) -> str:
        return state.clock["active"]

    def over(self, state: State) -> bool:
        return bool(state.clock.get("over"))

    def resume(self, state: State, suspended: dict[str, Any], answers: tuple) -> list[Event]:
        return []

    def result(self, state: State) -> Result:
        vp = {s: d["vp"] for s, d in state.sides.items()}
        alive = {s: sum(len(state.models_of(u)) for u, sp in enumerate(state.scene.units)
                        if sp.side == s) for s in state.sides}
        winner, how = decide([s for s, n in alive.items() if n], vp,
                             alone="the other army has no models left",
                             none="draw: both armies are gone", more="more victory points",
                             equal="draw: equal victory points")
        return Result(winner, how, "victory_points", {"victory_points": vp, "models": alive},
                      state.clock["round"], {"objectives": dict(state.objectives)})

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        out = ["stop"]
        side = state.clock["active"]
        for doc in state.scene.ruleset.actions:
            kind = doc.id
            if state.clock["phase"] not in doc.phases:
                continue
            if any(self.eligible(state, u, kind) for u in range(len(state.units))
                   if state.side_of(u) == side):
                out.append(kind)
        return out

    # --- moves the window drags -------------------------------------------------------------
    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        if ability not in MOVES:
            return None
        return movement.unit_allowance(state, u, ability)

    def move_cost(self, state: State, u: int, m: int, path: np.ndarray) -> tuple[float, float]:
        return movement.length(np.asarray(path, dtype=np.float64)), 0.0

    def move_ground(self, state: State, u: int, m: int, box: tuple[float, float, float, float]
                    ) -> tuple[list[Any], Any]:
        return [o.shape for o in movement._near(state, u)(m, box)], None

    # --- who may act ------------------------------------------------------------------------
    def eligible(self, state: State, u: int, kind: str) -> bool:
        """Unit u may take an action of `kind` now (ignoring where it would go)."""
        if not len(state.models_of(u)):
            return False
        us = state.units[u]
        prof = profiles(state)[u]
        fighting = bool(enemies_in_combat(state, u))
        if phase_of(state.scene, kind) not in (None, state.clock["phase"]):
            return False
        if kind in MOVES or kind == "hold":
            if "moved" in us.flags:
                return False
            if kind == "retreat":
                return fighting
            if kind == "hold":
                return prof.has("standfast") and not fighting
            return not fighting
        if kind == "shoot":
            if us.flags & {"shot", "ran", "retreated", "charged"}:
                return False
            return any(w.type == "ranged" for ws in prof.model_weapons for w in ws)
        if kind == "fight":
            if us.flags & {"ran", "retreated"} or not fighting:
                return False
            return us.counters.get("fights", 0) < (2 if prof.has("frenzy") else 1)
        if kind == "cast":
            return turns.can_cast(state, u)
        return False

    # --- check --------------------------------------------------------------------------------
    def check(self, state: State, action: Action) -> list[Violation]:
        """Whose action, then the unit's; each type's own rule after (its handler, asked
        with the unit: `(state, u, action)`)."""
        c = state.clock
        if bad := self.not_your_turn(state, action):
            return bad
        if action.type == "stop":
            return []
        u, problem = find_unit(state, action)
        if problem:
            return [problem]
        if state.side_of(u) != c["active"]:
            return [v("not_your_turn", f"{action.unit} is {state.side_of(u)}'s; it is "
                                       f"{c['active']}'s action")]
        return self.handler(action.type).check(state, u, action)

    def _target(self, state: State, u: int, target: Any, enemy: bool = True
                ) -> tuple[int, Violation | None]:
        if not isinstance(target, str):
            return -1, v("no_target", "the action needs a \"target\" (a unit id)",
                         choose="target")
        try:
            w = state.unit_index(target)
        except KeyError:
            return -1, v("unknown_unit", f"no unit '{target}'")
        if not len(state.models_of(w)):
            return w, v("destroyed", f"{target} has been destroyed")
        if enemy and state.side_of(w) == state.side_of(u):
            return w, v("not_an_enemy", f"{target} is not an enemy of "
                                        f"{state.scene.units[u].id}")
        if not enemy and state.side_of(w) != state.side_of(u):
            return w, v("not_friendly", f"{target} is not a friendly unit")
        return w, None

    def _moved(self, state: State, u: int) -> Violation | None:
        if "moved" in state.units[u].flags:
            return v("moved_this_round", f"{state.scene.units[u].id} has already taken its "
                                         f"Movement phase action this round")
        return None

    @handles(*MOVES)
    def check_moving(self, state: State, u: int, action: Action) -> list[Violation]:
        kind = action.type
        problem = self._moved(state, u)
        if problem:
            return [problem]
        uid = state.scene.units[u].id
        foes = enemies_in_combat(state, u)
        w = -1
        if kind == "charge":
            w, problem = self._target(state, u, action.target)
            if problem:
                return [problem]
        if kind == "retreat" and not foes:
            return [v("not_in_combat", f"{uid} is not in combat: only a unit in combat "
                                       f"retreats")]
        if kind != "retreat" and foes:
            names = ", ".join(state.scene.units[f].id for f in foes)
            return [v("in_combat", f"{uid} is in combat with {names}: it may only retreat")]
        reach = game(state).combat_range
        if kind == "charge":
            return movement.check(state, u, action, kind, arrive=Arrive(
                (w,), reach, code="not_in_combat_after_charge")).problems
        code = "still_in_combat" if kind == "retreat" else "ends_in_combat"
        return movement.check(state, u, action, kind, keep=(
            Keep(reach, code=code, what="combat"),)).problems

    @handles("hold")
    def check_hold(self, state: State, u: int, action: Action) -> list[Violation]:
        problem = self._moved(state, u)
        if problem:
            return [problem]
        uid = state.scene.units[u].id
        if not profiles(state)[u].has("standfast"):
            return [v("not_standfast", f"{uid} has no Standfast: only Standfast units hold")]
        if enemies_in_combat(state, u):
            return [v("in_combat", f"{uid} is in combat: Standfast holds out of combat")]
        return []

    def _no_attack(self, state: State, u: int, why: str) -> Violation | None:
        flags = state.units[u].flags
        uid = state.scene.units[u].id
        for flag, code in (("ran", "ran_this_round"), ("retreated", "retreated_this_round"),
                           ("charged", "charged_this_round")):
            if flag in flags and (flag != "charged" or why == "shoot"):
                return v(code, f"{uid} {flag} this round: it may not {why}")
        return None

    def _shots(self, state: State, u: int, action: Action
               ) -> tuple[list[tuple[int, list[int] | None]], list[Violation]]:
        """(target, the models that shoot it or None for all) for a shoot action."""
        split = action.option("split")
        if split is None:
            w, problem = self._target(state, u, action.target)
            return [(w, None)], [problem] if problem else []
        out = []
        n = len(state.scene.units[u].models)
        first = state.scene.model_offsets()[u]
        on = set(int(m) - first for m in state.models_of(u))
        seen: set[int] = set()
        for target, numbers in (split if isinstance(split, tuple) else ()):
            w, problem = self._target(state, u, target)
            if problem:
                return [], [problem]
            ks = []
            for x in (numbers if isinstance(numbers, tuple) else (numbers,)):
                if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= n \
                        or x - 1 not in on:
                    return [], [v("unknown_model", f"{state.scene.units[u].id} has no model "
                                                   f"{x!r} on the table")]
                if x - 1 in seen:
                    return [], [v("split_twice", f"model {x} is given two targets")]
                seen.add(x - 1)
                ks.append(x - 1)
            out.append((w, ks))
        if not out:
            return [], [v("bad_split", "\"split\" maps target ids to model numbers, e.g. "
                                       "{\"blue-1\": [1, 2]}")]
        return out, []

    @handles("shoot")
    def check_shoot(self, state: State, u: int, action: Action) -> list[Violation]:
        uid = state.scene.units[u].id
        us = state.units[u]
        if "shot" in us.flags:
            return [v("shot_this_round", f"{uid} has already shot this round")]
        problem = self._no_attack(state, u, "shoot")
        if problem:
            return [problem]
        shots, bad = self._shots(state, u, action)
        if bad:
            return bad
        foes = enemies_in_combat(state, u)
        prof = profiles(state)[u]
        if action.weapon is not None and action.weapon not in prof.weapon_names():
            return [v("unknown_weapon", f"{uid} has no weapon '{action.weapon}' (weapons: "
                                        f"{', '.join(prof.weapon_names())})")]
        if not any(w.type == "ranged" for ws in prof.model_weapons for w in ws):
            return [v("no_ranged_weapon", f"{uid} has no ranged weapon")]
        if action.weapon is not None and not any(
                w.type == "ranged" and w.name == action.weapon
                for ws in prof.model_weapons for w in ws):
            return [v("not_a_ranged_weapon", f"{action.weapon} is a melee weapon: {uid} shoots "
                                              f"with a ranged one")]
        return self._reaches(state, u, action, shots, "ranged", foes)

    def _reaches(self, state: State, u: int, action: Action,
                 shots: list[tuple[int, list[int] | None]], kind: str, foes: list[int]
                 ) -> list[Violation]:
        """Each target is one the unit may attack (in combat: only those it is in combat
        with; melee: only those), and every model given it has it within its weapon's range."""
        uid = state.scene.units[u].id
        prof = profiles(state)[u]
        for w, models in shots:
            tid = state.scene.units[w].id
            if kind == "melee" and w not in foes:
                return [v("not_in_combat", f"{uid} is not in combat with {tid} "
                                           f"({unit_gap(state.table, u, w):.2f}\" apart, combat "
                                           f"is {game(state).combat_range:g}\")")]
            if foes and w not in foes:
                return [v("must_shoot_combat_enemy", f"{uid} is in combat: it may only shoot "
                                                     f"a unit it is in combat with")]
            p = attacks.plan(state, u, w, kind, action.weapon, models, bursts=False)
            if not p.groups:
                ranges = sorted({wp.range for ws in prof.model_weapons for wp in ws
                                 if wp.type == kind
                                 and (action.weapon is None or wp.name == action.weapon)})
                most = max(ranges) if ranges else 0
                return [v("no_target_in_range", f"no model of {uid} has {tid} within its "
                                                 f"weapon's range ({most:g}\"; the closest is "
                                                 f"{p.closest:.2f}\")", closest=p.closest,
                          range=most)]
            if models is not None:
                first = state.scene.model_offsets()[u]
                attacking = {state.scene.model_names.index(n) - first
                             for names in p.attackers.values() for n in names}
                out = [k for k in models if k not in attacking]
                if out:
                    return [v("no_target_in_range", f"{uid}/{out[0] + 1} does not have {tid} "
                                                     f"within its weapon's range",
                              **about(state, first + out[0]))]
        return []

    @handles("fight")
    def check_fight(self, state: State, u: int, action: Action) -> list[Violation]:
        uid = state.scene.units[u].id
        problem = self._no_attack(state, u, "fight")
        if problem:
            return [problem]
        prof = profiles(state)[u]
        most = 2 if prof.has("frenzy") else 1
        if state.units[u].counters.get("fights", 0) >= most:
            return [v("fought_this_round", f"{uid} has fought {most} time"
                                           f"{'s' * (most != 1)} this round", allowed=most)]
        shots, bad = self._shots(state, u, action)
        if bad:
            return bad
        if action.weapon is not None and action.weapon not in prof.weapon_names():
            return [v("unknown_weapon", f"{uid} has no weapon '{action.weapon}'")]
        foes = enemies_in_combat(state, u)
        bad = self._reaches(state, u, action, shots, "melee", foes)
        if bad:
            return bad
        adjust = self._adjust(action)
        if adjust is not None:          # it stays in combat with an enemy
            return movement.check(state, u, adjust, "adjust", arrive=Arrive(
                tuple(state.enemies(u)), game(state).combat_range,
                code="adjust_leaves_combat")).problems
        return []

    def _adjust(self, action: Action) -> Action | None:
        raw = action.option("adjust")
        if raw is None:
            return None
        paths = tuple((int(k), tuple(tuple(p) for p in pts)) for k, pts in raw)
        return Action("adjust", action.unit, paths=paths)

    @handles("cast")
    def check_cast(self, state: State, u: int, action: Action) -> list[Violation]:
        uid = state.scene.units[u].id
        spell = action.option("spell")
        effect = next((e for e in profiles(state)[u].effects("wizard")
                       if e.get("spell") == spell), None)
        if effect is None:
            known = [e.get("spell") for e in profiles(state)[u].effects("wizard")]
            return [v("unknown_spell", f"{uid} cannot cast {spell!r} (spells: "
                                       f"{', '.join(map(str, known)) or 'none'})",
                      choose="spell" if spell is None else None)]
        n = len(state.models_of(u))
        least = int(effect.get("min_models", 1))
        if n < least:
            return [v("not_a_wizard", f"{uid} has {n} model{'s' * (n != 1)}: it is a WIZARD "
                                      f"with {least} or more", models=n, needed=least)]
        if "cast" in state.units[u].flags:
            return [v("cast_this_round", f"{uid} has already cast this round")]
        w, problem = self._target(state, u, action.target, enemy=False)
        if problem:
            return [problem]
        gap = unit_gap(state.table, u, w) if w != u else 0.0
        rng = float(effect.get("range", 12))
        if gap > rng + EPS:
            return [v("out_of_range", f"{action.target} is {gap:.2f}\" from {uid}, more than "
                                      f"{rng:g}\"", distance=gap, range=rng)]
        return []

    # --- resolve ------------------------------------------------------------------------------
    def resolve(self, state: State, action: Action) -> list[Event]:
        if action.type == "stop":
            return turns.stop(state)
        u = state.unit_index(action.unit)
        events = self.handler(action.type).resolve(state, u, action)
        if not self.over(state):
            turns.acted(state)
        return events

    @check_moving.resolver
    def moving(self, state: State, u: int, action: Action) -> list[Event]:
        kind = action.type
        checked = movement.check(state, u, action, kind)
        events: list[Event] = []
        flags = state.units[u].flags
        flags.add("moved")
        flags.add({"run": "ran", "retreat": "retreated", "charge": "charged"}.get(kind, kind))
        if kind == "charge":
            events.extend(self._charging(state, u, state.unit_index(action.target)))
        state.table = checked.after
        events.insert(0, {"type": kind, "unit": state.scene.units[u].id,
                          "distance": round(checked.longest, 6),
                          **({"target": action.target} if action.target else {})})
        return events

    def _charging(self, state: State, u: int, w: int) -> list[Event]:
        """At the start of a charge: a once-per-battle attack (Throwing Axes) and the charge's
        dice within range (shields), both against the charge target."""
        events: list[Event] = []
        prof = profiles(state)[u]
        us = state.units[u]
        for e in prof.effects("attack_on_charge"):
            if "axes" in us.flags:
                break
            raw = e.get("weapon") or {}
            wp = Weapon(str(raw.get("name", "Throwing Axes")), "ranged",
                        float(raw.get("range", 8)), int(raw.get("damage", 1)),
                        int(raw.get("precision", 3)), int(raw.get("pierce", 0)))
            p = attacks.plan(state, u, w, "ranged", None, bursts=False, extra=wp)
            if not p.groups:
                continue
            us.flags.add("axes")
            events.append(self._wound(state, p, "charge-attack", wp.name))
        bursts = attacks.nearby(state, u, w, "charge")
        if bursts:
            p = attacks.Plan(u, w, bursts=bursts)
            events.append(self._wound(state, p, "charge-dice", "shields"))
        return events

    def _wound(self, state: State, p: attacks.Plan, kind: str, what: str) -> Event:
        rolled = p.roll(state)
        total = int(sum(rolled))
        counters = state.units[p.w].counters
        counters["wounds"] = counters.get("wounds", 0) + total
        return {"type": kind, "unit": state.scene.units[p.u].id,
                "target": state.scene.units[p.w].id, "with": what, "wounds": total,
                "attackers": p.attackers, "pool": int(counters["wounds"])}

    @check_hold.resolver
    def hold(self, state: State, u: int, action: Action) -> list[Event]:
        state.units[u].flags.update({"moved", "held"})
        return [{"type": "hold", "unit": action.unit, "armor": attacks.armor(state, u)}]

    @check_shoot.resolver
    def shoot(self, state: State, u: int, action: Action) -> list[Event]:
        shots, _ = self._shots(state, u, action)
        state.units[u].flags.add("shot")
        events = []
        for k, (w, models) in enumerate(shots):     # the dice after the attack: once
            p = attacks.plan(state, u, w, "ranged", action.weapon, models, bursts=k == 0)
            events.append(self._wound(state, p, "shoot", action.weapon or "ranged"))
        return events

    @check_fight.resolver
    def fight(self, state: State, u: int, action: Action) -> list[Event]:
        shots, _ = self._shots(state, u, action)
        counters = state.units[u].counters
        counters["fights"] = counters.get("fights", 0) + 1
        events = []
        for k, (w, models) in enumerate(shots):     # the dice after the attack: once
            p = attacks.plan(state, u, w, "melee", action.weapon, models, bursts=k == 0)
            events.append(self._wound(state, p, "fight", action.weapon or "melee"))
        adjust = self._adjust(action)
        if adjust is not None:
            state.table = movement.check(state, u, adjust, "adjust").after
            events.append({"type": "adjust", "unit": action.unit})
        return events

    @check_cast.resolver
    def cast(self, state: State, u: int, action: Action) -> list[Event]:
        spell = action.option("spell")
        effect = next(e for e in profiles(state)[u].effects("wizard")
                      if e.get("spell") == spell)
        state.units[u].flags.add("cast")
        need = int(effect.get("cast", 6))
        roll = play(_cast(game(state).cast_dice, need, spell), state.dice)
        cast = roll >= need
        if cast:
            w = state.unit_index(action.target)
            state.units[w].flags.add(f"granted:{state.scene.units[u].id}:{spell}:"
                                     f"{state.clock['round']}")
        return [{"type": "cast", "unit": action.unit, "spell": spell, "target": action.target,
                 "roll": roll, "needed": need, "cast": cast}]

    # --- beyond the game: the computer player, odds, points, the window, try (package.py) ---------
    player = staticmethod(package.player)

    try_start = staticmethod(package.try_start)

    points = package.points

    check_scene = package.check_scene

    def given_stats(self, scene: Scene, u: int) -> dict[str, float]:
        """Its `stats:`, over what its `build:` gives."""
        return scene_profiles(scene, self.book.builder)[u].stats

    health = staticmethod(package.health)

    effect = staticmethod(package.effect)


def _cast(dice: str, need: int, spell: str):
    return (yield Throw(dice, f"cast {spell} ({need}+)"))


RULESET = OpenWG()
