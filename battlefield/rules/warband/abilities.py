"""Abilities (seed: Ability Dice, Ability values, Universal Abilities): one per activation (one
more in a second activation after a wait), paid by discarding the side's ability dice - a
combination at least as big as the one named, discarded whole; the value of an ability is the
score of the dice paid with. Each ability is data (game.yaml's universal ones, a fighter's own
`abilities:`) made of a few generic effects, carried out here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.moves import v
from battlefield.rules.state import State
from battlefield.rules.warband import attacks, initiative
from battlefield.rules.warband.data import EPS, Ability, abilities_of, game
from battlefield.rules.warband.turns import alive, fighters_of

Event = dict[str, Any]


def check(state: State, u: int, ability: Ability, action: Action, counts: Mapping[str, float]
          ) -> list[Violation]:
    """Why fighter u cannot use `ability` now (`counts`: its activation's counters)."""
    uid = state.scene.units[u].id
    if counts.get("abilities", 0) >= 1:
        return [v("ability_used", f"{uid} has used an ability this activation (one per "
                                  f"activation; one more after a wait)", used=1, allowed=1)]
    if ability.not_engaged:
        problem = attacks.engaged_violation(state, u)
        if problem:
            return [v("engaged", f"{ability.name} cannot be used within {game(state).engaged:g}\" "
                                 f"of an enemy: {problem.message.split(':')[0]}",
                      **dict(problem.numbers))]
    _, problem = initiative.payment(state, state.side_of(u), ability.cost,
                                    action.option("value"))
    if problem:
        return [problem]
    reach = ability.effect("command")
    if reach is None:
        if action.target is not None:
            return [v("unknown_key", f"{ability.id} takes no target")]
        return []
    return check_command(state, u, action.target, float(reach))


def check_command(state: State, u: int, target: Any, reach: float) -> list[Violation]:
    """Command: a visible friendly fighter within `reach` that has not activated this round."""
    if not isinstance(target, str):
        return [v("no_target", "command needs \"target\": a friendly fighter's id",
                  choose="target")]
    try:
        w = state.unit_index(target)
    except KeyError:
        return [v("unknown_unit", f"no fighter '{target}'")]
    if w == u or state.side_of(w) != state.side_of(u) or not alive(state, w):
        return [v("not_friendly", f"{target} is not another friendly fighter on the table")]
    if "activated" in state.units[w].flags:
        return [v("already_activated", f"{target} has already activated this round")]
    d = attacks.distance(state, u, w)
    if d > reach + EPS:
        return [v("out_of_range", f"{target} is {d:.2f}\" away, beyond {reach:g}\"",
                  distance=d, range=reach)]
    if attacks.visible(state, u, w) == "none":
        return [v("not_visible", f"{state.scene.units[u].id} cannot see {target}")]
    return []


def left(state: State, u: int) -> bool:
    """Whether fighter u may still use an ability in this activation (one not used yet, the
    dice to pay for it, its own conditions: a command needs a fighter to pick)."""
    if state.units[u].counters.get("abilities", 0) >= 1:
        return False
    side = state.side_of(u)
    engaged = None
    for ability in abilities_of(state, u):
        if initiative.payment(state, side, ability.cost, None)[1] is not None:
            continue
        if ability.not_engaged:
            engaged = bool(attacks.engaged_with(state, u)) if engaged is None else engaged
            if engaged:
                continue
        reach = ability.effect("command")
        if reach is not None and not any(
                not check_command(state, u, state.scene.units[w].id, float(reach))
                for w in fighters_of(state, side) if w != u):
            continue
        return True
    return False


def use(state: State, u: int, ability: Ability, action: Action) -> list[Event]:
    """Pay for the ability and carry out its effects."""
    us = state.units[u]
    side = state.side_of(u)
    combo, _ = initiative.payment(state, side, ability.cost, action.option("value"))
    assert combo is not None
    initiative.spend(state, side, combo)
    us.counters["abilities"] = us.counters.get("abilities", 0) + 1
    event: Event = {"type": "ability", "unit": state.scene.units[u].id, "ability": ability.id,
                    "paid": combo, "value": initiative.value(combo)}
    for key, amount in ability.effects:
        if key in ("move", "melee_attacks", "defense"):    # defense lasts the round
            us.counters[key] = us.counters.get(key, 0) + amount
        elif key == "bonus_action":
            us.counters["bonus_" + amount] = us.counters.get("bonus_" + amount, 0) + 1
        elif key == "heal":
            n = initiative.value(combo) if amount == "value" else int(amount)
            healed = min(int(us.damage[0]), n)
            us.damage[0] -= healed
            event["healed"] = healed
        elif key == "command":
            state.clock["commanded"] = action.target
            event["commanded"] = action.target
    return [event]
