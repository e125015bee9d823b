"""aos4 shooting: shoot, covering fire, targets, volleys with cover and commands."""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Violation
from battlefield.rules.aos4 import attacking, movement
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.cover import pieces_covering
from battlefield.rules.aos4.movement import v
from battlefield.rules.aos4.weapons import weapons_of
from battlefield.rulings import Referee

Event = dict[str, Any]


class Shooting:
    """Checks and effects of shooting (mixed into the aos4 Rules)."""

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
