"""aos4 charges and combat: charge, counter-charge, fight with pile-in and strike order."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from battlefield.geometry.sight import SightModel
from battlefield.rules.actions import Violation
from battlefield.rules.aos4 import movement, rolls, turns
from battlefield.rules.aos4.charge import shortest_charge
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.movement import v
from battlefield.rules.chance import play
from battlefield.rules.moves import about
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]


class Fighting:
    """Checks and effects of charges and fights (mixed into the aos4 Rules)."""

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
        if not (action.path or action.paths):
            # no path yet: say whether any path could reach (the window asks this to know a
            # charge phase with every enemy out of reach has nothing to decide); a path given
            # is ruled as before, by its length and where it ends
            far = self._out_of_reach(state, u, targets, action)
            if far:
                return [far]
        moves = movement.planned(state, u, action)
        if isinstance(moves, Violation):
            return [moves]
        out, after = movement.check_paths(state, u, moves, book(state).max_charge,
                                          state.scene.units[u].has("FLY"))
        if out:
            return out
        if not self._reaches(state, after, u, targets):
            reach = Fraction(book(state).core.charge.reach).limit_denominator(16)
            return [v("charge_not_reached", f"the path does not end within {reach}\" of a "
                                            f"visible model of {', '.join(action.targets)}")]
        return []

    def _out_of_reach(self, state, u, targets, action) -> Violation | None:
        """Asked of a charge given no path yet: whether no charge roll can reach any target.
        First the gap (every target further than the most the roll gives, the reach at its end
        and a base's turning as slack), then for the targets nearer than that the shortest
        legal charge path that odds --charge measures (charge.shortest_charge, exact up to the
        most the roll gives): none of them within it means no path can end within reach."""
        t = state.table
        rules = book(state)
        longest, reach = rules.max_charge, rules.core.charge.reach
        mine = t.unit_models[u]
        most = longest + reach + float(t.reach[mine].max()) + movement.EPS
        gaps = [t.unit_distance(u, w) for w in targets]
        names = ", ".join(action.targets)
        if min(gaps) > most:
            return v("out_of_charge_range", f"{names} is {min(gaps):.2f}\" from {action.unit}: "
                                            f"no charge roll reaches it (at most "
                                            f"{longest}\")", distance=min(gaps),
                     most=longest)
        ref = Referee(state.scene, t)
        needed = []
        for w, gap in zip(targets, gaps, strict=True):
            if gap > most:
                continue
            best = shortest_charge(rules, ref, u, w, within=longest)
            if best is not None and best.needed <= longest + movement.EPS:
                return None
            if best is not None:
                needed.append(best.needed)
        half = Fraction(reach).limit_denominator(16)
        shortest = (f"the shortest legal path needs {min(needed):.2f}\"" if needed else
                    f"no legal path of {longest}\" or less ends within {half}\" of a "
                    f"visible model")
        return v("out_of_charge_range", f"no charge roll brings {action.unit} within reach of "
                                        f"{names}: {shortest} (at most {longest}\")",
                 most=longest)

    def _reaches(self, state, after, u, targets) -> bool:
        sight = SightModel(after)
        mine = after.unit_models[u]
        for w in targets:
            theirs = after.unit_models[w]
            d = after.distances(mine, theirs)
            for i, j in zip(*np.nonzero(d <= book(state).core.charge.reach + movement.EPS),
                            strict=True):
                if sight.model_visibility(int(mine[i]), int(theirs[j])).any:
                    return True
        return False

    def _charge_length(self, state, u, action) -> float:
        moves = movement.planned(state, u, action)
        fly = state.scene.units[u].has("FLY")
        worst = 0.0
        for m, path in zip(moves.models, moves.paths, strict=True):
            c = movement.terrain_for(book(state), state.table, m).path_cost(path, fly)
            worst = max(worst, min(c.total, c.total_if_jumping))
        return worst

    def _do_charge(self, state, a, u, action):
        unit = state.scene.units[u]
        needed = self._charge_length(state, u, action)
        side = unit.side
        cost = book(state).abilities["forward-to-victory"].cost
        reroll = ("forward-to-victory" in self._option_commands(action)
                  and state.sides[side]["cp"] >= cost
                  and "forward-to-victory" not in state.sides[side]["commands"])
        result = play(rolls.charge_roll(book(state).core.charge.roll, unit.id, needed, reroll),
                      state.dice)
        events: list[Event] = [{"type": "charge-roll", "unit": unit.id,
                                "roll": result.rolls[0], "needed": round(needed, 6)}]
        if len(result.rolls) > 1:
            state.sides[side]["cp"] -= cost
            state.sides[side]["commands"].append("forward-to-victory")
            events += [{"type": "command", "side": side, "command": "forward-to-victory",
                        "cost": cost}, {"type": "charge-roll", "unit": unit.id,
                                     "roll": result.rolls[-1], "needed": round(needed, 6),
                                     "reroll": True}]
        if not result.reached:
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
        out, after = movement.check_paths(state, u, moves, book(state).core.combat.pile_in,
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
                                                    f"further than {x:.2f}\"", **about(state, m)))
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
        targets = [w for w in targets if len(state.models_of(w))]
        events.extend(self._attack(state, u, targets, 0, action, f"fought by {action.unit}",
                                   melee=True))
        return events
