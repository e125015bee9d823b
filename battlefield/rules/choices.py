"""Whether the acting side has anything to decide: `available()` names the action types a phase
allows (aos4's start phase always offers activate-place-of-power, blocks' combat phase attack),
`usable` asks the engine whether some unit of the acting side may take one now.

A type is usable when `State.check` of it - with each of the side's units, and each unit as
target for a type that has one - refuses it for nothing but fields still to be chosen (each
violation's `choose`: where the models go, which spell, which order), and the ruleset does not
call it futile (Ruleset.futile: aos4's rally of an unhurt unit). A step whose only legal
actions are futile passes by itself."""

from __future__ import annotations

from collections.abc import Sequence

from battlefield.rules.actions import Action, Violation
from battlefield.rules.state import State
from battlefield.rulesets import field_names


def passes(state: State) -> set[str]:
    """The ruleset's passing actions (ruleset.yaml `passes: true`: end-phase, stop, pass)."""
    return {a.id for a in state.scene.ruleset.actions if a.passes}


def _open(violations: Sequence[Violation], given: tuple[str, ...] = ()) -> bool:
    """Nothing but fields still to choose, none of them one already `given`."""
    return all(v.choose is not None and v.choose not in given for v in violations)


def usable(state: State, kind: str) -> bool:
    """Whether some unit of the acting side may take an action of type `kind` now, the fields
    a player picks on the table (path, point, spell, order) aside."""
    doc = state.rules.doc(state, kind)
    fields = set(field_names(doc.fields)) if doc is not None else {"unit", "target"}
    side = state.acting_side
    units: list[str | None] = [None]
    if "unit" in fields:
        units = [u.id for i, u in enumerate(state.scene.units) if state.side_of(i) == side]
    targets = [u.id for u in state.scene.units] if "target" in fields else []
    for unit in units:
        action = Action(kind, unit=unit)
        bad = state.check(action)
        if not _open(bad):
            continue
        if not bad and state.rules.futile(state, action):
            continue                   # legal, but it would change nothing (Ruleset.futile)
        if not any(v.choose == "target" for v in bad) or not targets:
            return True
        for target in targets:
            if _open(state.check(Action(kind, unit=unit, target=target)), ("target",)):
                return True
    return False


def open_choices(state: State) -> list[str]:
    """The types `available()` offers that are not the ruleset's pass and that some unit may
    take now (`usable`), in its order; then the ruleset's choice buttons that have a choice
    (Window.choice_buttons: aos4's magical-intervention in the enemy hero phase)."""
    passing = passes(state)
    return [*(a for a in state.available() if a not in passing and usable(state, a)),
            *state.rules.window.choice_buttons(state)]


def spends(state: State, action: Action) -> bool:
    """Whether choosing `action` spends something of the side's (its vocabulary's `explain:`
    says it "spends": a command point, morale tokens, an ability die), unless it names 0 of
    it ("commit 0 costs nothing")."""
    doc = next((a for a in state.scene.ruleset.actions if a.id == action.type), None)
    if doc is None or "spend" not in doc.explain.lower():
        return False
    numbers = [v for _, v in action.options if isinstance(v, (int, float))
               and not isinstance(v, bool)]
    return not any(v == 0 for v in numbers)


def choice_words(action: Action) -> str:
    """'commit 4', 'all-out-defence red-blades': the choice as its button said it."""
    bits = [action.type] + ([action.unit] if action.unit else [])
    bits += [str(v) for _, v in action.options]
    return " ".join(bits)


__all__ = ["choice_words", "open_choices", "passes", "spends", "usable"]
