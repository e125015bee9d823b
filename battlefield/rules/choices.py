"""Whether the acting side has anything to decide: `available()` names the action types a phase
allows (aos4's start phase always offers activate-place-of-power, blocks' combat phase attack),
`usable` asks the engine whether some unit of the acting side may take one now.

A type is usable when `State.check` of it - with each of the side's units, and each unit as
target for a type that has one - refuses it for nothing but a field still to be chosen (where
the models go, which spell, which order: FIELD_CODES), and the ruleset does not call it futile
(Ruleset.futile: aos4's rally of an unhurt unit). It errs towards usable: a refusal it
cannot read as final counts as a choice, so a step is never passed on a player's behalf while
something was open to them."""

from __future__ import annotations

from battlefield.rules.actions import Action
from battlefield.rules.state import State

# the codes `check` gives for a field not given yet (the probe leaves them out on purpose)
FIELD_CODES = frozenset({"no_path", "no_point", "no_target", "unknown_spell", "bad_order",
                         "unknown_card"})


def passes(state: State) -> set[str]:
    """The ruleset's passing actions (ruleset.yaml `passes: true`: end-phase, stop, pass)."""
    return {a.id for a in state.scene.ruleset.actions if a.passes}


def _open(codes: set[str], still: frozenset[str] = FIELD_CODES) -> bool:
    return codes <= still


def usable(state: State, kind: str) -> bool:
    """Whether some unit of the acting side may take an action of type `kind` now, the fields
    a player picks on the table (path, point, spell, order) aside."""
    spec = next((a for a in state.scene.ruleset.actions if a.id == kind), None)
    fields = {f.rstrip("?") for f in spec.fields} if spec is not None else {"unit", "target"}
    side = state.acting_side
    units: list[str | None] = [None]
    if "unit" in fields:
        units = [u.id for i, u in enumerate(state.scene.units) if state.side_of(i) == side]
    targets = [u.id for u in state.scene.units] if "target" in fields else []
    for unit in units:
        action = Action(kind, unit=unit)
        codes = {v.code for v in state.check(action)}
        if not _open(codes):
            continue
        if not codes and state.rules.futile(state, action):
            continue                   # legal, but it would change nothing (Ruleset.futile)
        if "no_target" not in codes or not targets:
            return True
        for target in targets:
            given = {v.code for v in state.check(Action(kind, unit=unit, target=target))}
            if _open(given, FIELD_CODES - {"no_target"}):
                return True
    return False


def open_choices(state: State) -> list[str]:
    """The types `available()` offers that are not the ruleset's pass and that some unit may
    take now (`usable`), in its order."""
    passing = passes(state)
    return [a for a in state.available() if a not in passing and usable(state, a)]


__all__ = ["FIELD_CODES", "open_choices", "passes", "usable"]
