"""Cheap copies of a game state for undo and redo: copy what changes, share what cannot.

A snapshot copies each attribute of the state by one rule. A dataclass field may name its rule
in its metadata (`SHARED`, `HISTORY`, `NOT_COPIED`); every other attribute, including fields
added later, is copied by the rule for its type, found once and remembered:

- numbers, strings, None, enums, numpy scalars, frozen dataclasses and the types declared with
  `immutable(cls)`: shared (they cannot change, so a copy would be the same value);
- numpy arrays: `.copy()`;
- list, tuple, dict, deque: a new container of copied items; set, frozenset and dict keys are
  shared items (hashable values such as strings and ids);
- any other dataclass: a new instance with each attribute copied by these rules;
- anything else: `copy.deepcopy` (always correct, slow: declare the type immutable or give it a
  rule with `copy_rule`).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

Copier = Callable[[Any], Any]


def share(value: Any) -> Any:
    """The rule for values that never change: the copy is the value itself."""
    return value


def _copy_list(value: list) -> list:
    return [snapshot_copy(x) for x in value]


def _copy_tuple(value: tuple) -> tuple:
    return tuple([snapshot_copy(x) for x in value])


def _copy_dict(value: dict) -> dict:
    return {k: snapshot_copy(x) for k, x in value.items()}


def _copy_deque(value: deque) -> deque:
    return deque((snapshot_copy(x) for x in value), value.maxlen)


def _copy_array(value: np.ndarray) -> np.ndarray:
    return value.copy()


_RULES: dict[type, Copier] = {
    int: share, float: share, complex: share, bool: share, str: share, bytes: share,
    type(None): share, range: share, frozenset: share, set: set,
    list: _copy_list, tuple: _copy_tuple, dict: _copy_dict, deque: _copy_deque,
    np.ndarray: _copy_array,
}


def immutable(cls: type) -> type:
    """Declare that instances of `cls` never change once made: snapshots share them.
    Usable as a class decorator."""
    _RULES[cls] = share
    return cls


def copy_rule(cls: type, copier: Copier) -> None:
    """Copy instances of `cls` (exactly that type) with `copier` in snapshots."""
    _RULES[cls] = copier


def snapshot_copy(value: Any) -> Any:
    """An independent copy of `value` as a snapshot needs it (see the module's rules)."""
    cls = type(value)
    rule = _RULES.get(cls)
    if rule is None:
        rule = _RULES[cls] = _rule_for(cls)
    return rule(value)


def _rule_for(cls: type) -> Copier:
    if issubclass(cls, (enum.Enum, np.generic)):
        return share
    if dataclasses.is_dataclass(cls):
        if cls.__dataclass_params__.frozen:    # type: ignore[attr-defined]
            return share
        if hasattr(cls, "__dict__") and not hasattr(cls, "__slots__"):
            return copy_object
    if issubclass(cls, np.ndarray):
        return _copy_array
    return copy.deepcopy


# --- whole objects --------------------------------------------------------------------------
SNAPSHOT = "snapshot"
SHARED: dict[str, Any] = {SNAPSHOT: share}
"""Field metadata: the field's value is shared by every snapshot (e.g. the game itself)."""
HISTORY: dict[str, Any] = {SNAPSHOT: list}
"""Field metadata for an append-only list whose entries never change once added (the actions
and events so far): a snapshot copies the list, not its entries."""
NOT_COPIED: dict[str, Any] = {SNAPSHOT: None}
"""Field metadata: snapshots leave the field out (e.g. the undo stack itself)."""

_FIELD_RULES: dict[type, dict[str, Copier | None]] = {}


def field_rules(cls: type) -> dict[str, Copier | None]:
    """The rules named in the metadata of a dataclass's fields (None: not copied)."""
    rules = _FIELD_RULES.get(cls)
    if rules is None:
        rules = {}
        if dataclasses.is_dataclass(cls):
            for f in dataclasses.fields(cls):
                if SNAPSHOT in f.metadata:
                    rules[f.name] = f.metadata[SNAPSHOT]
        _FIELD_RULES[cls] = rules
    return rules


def copied_attributes(obj: Any) -> dict[str, Any]:
    """Each attribute of `obj` copied by its rule; attributes marked NOT_COPIED left out."""
    rules = field_rules(type(obj))
    out = {}
    for name, value in obj.__dict__.items():
        rule = rules.get(name, snapshot_copy)
        if rule is not None:
            out[name] = rule(value)
    return out


def copy_object(obj: Any) -> Any:
    """A new instance of obj's class (not initialised again) with every attribute copied."""
    new = object.__new__(type(obj))
    new.__dict__.update(copied_attributes(obj))
    return new
