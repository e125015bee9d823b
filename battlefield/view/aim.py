"""Choosing a target with the cursor (a shot, a fight, an attack picked with its button): before
the click, what the click would be - the engine's verdict on that very action, the range and
sight from the ruling, and the odds the ruleset answers (`battlefield odds --attack`). No
pygame: the tests read the text."""

from __future__ import annotations

from typing import Any

from battlefield.depiction import live
from battlefield.errors import BattlefieldError
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.standing import scene_now
from battlefield.rules.state import State
from battlefield.rulings import Referee


def aim_text(state: State, ability: str, unit_id: str, target: int,
             cache: dict[Any, str] | None = None) -> str:
    """One line for the enemy unit `target` under the cursor while `unit_id`'s `ability`
    picks its target: legal or why not, distance, sight, expected damage."""
    key = (len(state.actions), ability, unit_id, target)
    if cache is not None and key in cache:
        return cache[key]
    scene = state.scene
    tid = scene.units[target].id
    u = scene.unit_index(unit_id)
    pair = Referee(scene, state.table).pair(u, target)
    bad = state.check(Action(ability, unit_id, target=tid))
    bits = [f"{ability} {unit_id} -> {tid}: {pair.distance:.2f}\", sight {pair.visible}"]
    bits.append("illegal: " + "; ".join(live.reasons(bad)) if bad else "legal")
    odds = _odds(state, ability, unit_id, tid) if not bad else None
    if odds is not None:
        bits.append(odds)
    text = "; ".join(bits)
    if cache is not None:
        cache[key] = text
    return text


def _odds(state: State, ability: str, unit_id: str, tid: str) -> str | None:
    """The expected damage the ruleset's attack odds give for that ability's attack
    (Window.aim_options), from where the models stand."""
    ruleset = registry.get(state.rules.id)
    q = ruleset.question("attack")
    if q is None:
        return None
    options = ruleset.window.aim_options(state, ability)
    try:
        d = q.answer(ruleset, scene_now(state, keep_slain=True), (unit_id, tid), options)
    except (BattlefieldError, KeyError, ValueError):
        return None
    if not isinstance(d, dict) or "expected_damage" not in d:
        return None
    return f"expected damage {float(d['expected_damage']):.2f}"
