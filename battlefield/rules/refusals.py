"""Refusals as every ruleset words them: a violation with the numbers it was decided on, the
units and models (UNIT/N) it is about and the field still to choose, and the names a message
uses for the models (read only when a message needs them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from battlefield.rules.actions import Violation

if TYPE_CHECKING:
    from battlefield.rules.state import State


def v(code: str, message: str, *, units: Sequence[str] = (), models: Sequence[str] = (),
      choose: str | None = None, **numbers: float) -> Violation:
    """A violation with the numbers it was decided on, the units and models (UNIT/N) it is
    about, and - when all it says is that a field is not given yet - that field (`choose`)."""
    return Violation(code, message, tuple((k, round(float(x), 6)) for k, x in numbers.items()),
                     tuple(units), tuple(models), choose)


def about(state: State, *models: int) -> dict[str, tuple[str, ...]]:
    """`units=` and `models=` of a violation about these models (table indices), in the order
    its message names them: their names (UNIT/N) and their units' ids."""
    names = state.scene.model_names
    specs = state.scene.units
    units = dict.fromkeys(specs[int(state.table.unit[m])].id for m in models)
    return {"units": tuple(units), "models": tuple(names[int(m)] for m in models)}


class ModelNames:
    """The scene's model names ("UNIT/N"), listed only when a message needs one (most checks
    find nothing to say)."""

    def __init__(self, state: State) -> None:
        self._state = state
        self._names: list[str] | None = None

    def __getitem__(self, m: int) -> str:
        if self._names is None:
            self._names = self._state.scene.model_names
        return self._names[int(m)]
