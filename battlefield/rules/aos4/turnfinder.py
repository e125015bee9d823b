"""`battlefield try` in aos4: each action is played in the phase its ability belongs to, within
one turn of the acting side; the phases before it are passed (end-phase) on the way."""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import abilities_play
from battlefield.rules.aos4.data import Book, book
from battlefield.rules.aos4.magic import known
from battlefield.rules.aos4.turns import FIRST_TURN, PHASES
from battlefield.rules.ruleset import first_side
from battlefield.rules.state import State
from battlefield.scene.model import Scene


def phase_of(state: State, action: Action) -> tuple[str, str] | None:
    """(phase, whose) the action's ability is used in, as seen by the acting unit's side."""
    if action.type == abilities_play.ABILITY:       # a unit's own: at its timing
        return abilities_play.phase_of(state, action)
    a = book(state).abilities.get(action.type)
    if a is None and action.type in known(state):
        return ("hero", _magic_whose(action))
    return a.phases[0] if a is not None and a.phases else None


def _magic_whose(action: Action) -> str:
    """Spells and prayers: your hero phase, or the enemy's with Magical Intervention."""
    names = action.option("command")
    names = [names] if isinstance(names, str) else list(names or [])
    return "enemy" if "magical-intervention" in names else "your"


def start(rules: Book, scene: Scene, actions: list[Action]) -> dict[str, Any]:
    """The `state:` defaults for the turn the actions belong to: the first action's side is
    active, or its enemy when the first action is used in the enemy's phase (the abilities
    of the aos4 book `rules`)."""
    if actions and actions[0].type in FIRST_TURN:
        return {}     # the battle as the window and the play page open it: on that decision
    side = first_side(scene, actions)
    whose = None
    if actions:
        a = rules.abilities.get(actions[0].type)
        if actions[0].type == abilities_play.ABILITY:
            whose = abilities_play.whose(scene, actions[0])
        else:
            whose = _magic_whose(actions[0]) if a is None else (
                a.phases[0][1] if a.phases else None)
    active = side if whose != "enemy" else next((s for s in scene.sides if s != side), side)
    return {"active": active}


def advance(state: State, action: Action) -> list[Violation]:
    """Pass phases until the action's phase and actor come up in this turn."""
    where = phase_of(state, action)
    if where is None:
        return []
    phase, _ = where
    side = first_side(state.scene, [action])
    c = state.clock
    if phase not in PHASES or c["phase"] not in PHASES:
        return []         # deployment comes before the turns: the check says what is wrong
    target = PHASES.index(phase)
    turn = (c["round"], c["turn"])
    while True:
        if state.over or (c["round"], c["turn"]) != turn:
            return [Violation("phase_passed", f"the {phase} phase of this turn has passed")]
        now = PHASES.index(c["phase"])
        if now > target:
            return [Violation("phase_passed", f"the {phase} phase of this turn has passed "
                                              f"(it is the {c['phase']} phase)")]
        if now == target and c["acting"] == side:
            return []
        end = Action("end-phase")      # the side acting now passes
        bad = state.check(end)
        if bad:
            return bad
        state.apply(end)
