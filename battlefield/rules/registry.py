"""The rulesets the engine can play, found by name.

A ruleset is data (rulesets/NAME/: ruleset.yaml and its own files) plus one instance of a
`battlefield.rules.ruleset.Ruleset` subclass, the one class that declares every hook the
program asks of a ruleset. Rulesets are found by name: a package `battlefield.rules.NAME` that
defines `RULESET`, one registered with `register()`, or one installed as its own distribution
through the entry-point group `battlefield.rulesets` (`NAME = "module:RULESET"`). No caller
names a ruleset.
"""

from __future__ import annotations

import pkgutil
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import Any

import battlefield.rules
from battlefield.errors import UsageError
from battlefield.names import after
from battlefield.paths import add_ruleset_dir, entry_point_rulesets, ruleset_names
from battlefield.rules.boundary import playable_units
from battlefield.rules.ruleset import Ruleset
from battlefield.rules.state import Game
from battlefield.scene.model import Scene

_registered: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make a ruleset playable by name (for rulesets built at run time, e.g. in tests)."""
    _registered[ruleset.id] = ruleset
    if ruleset.data is not None:
        add_ruleset_dir(ruleset.id, ruleset.data)
    return ruleset


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _builtin_names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(battlefield.rules.__path__) if m.ispkg)


@cache
def _builtin(name: str) -> Ruleset | None:
    if name not in _builtin_names() or find_spec(f"battlefield.rules.{name}") is None:
        return None
    found = getattr(import_module(f"battlefield.rules.{name}"), "RULESET", None)
    return found if isinstance(found, Ruleset) else None


def find(name: str) -> Ruleset | None:
    """The playable ruleset called `name`, or None."""
    if name in _registered:
        return _registered[name]
    ruleset = _builtin(name)
    if ruleset is not None:
        return ruleset
    ruleset = entry_point_rulesets().get(name)
    return ruleset if isinstance(ruleset, Ruleset) else None


def get(name: str) -> Ruleset:
    """The playable ruleset called `name`; a clear error naming the playable ones if none."""
    ruleset = find(name)
    if ruleset is None:
        if name in ruleset_names():
            raise UsageError(f"the {name} ruleset cannot be played yet (only its geometry "
                             f"rulings: check, measure, render); playable: "
                             f"{', '.join(playable())}")
        rest = [n for n in ruleset_names() if n not in playable()]
        raise UsageError(f"unknown ruleset '{name}' (playable: {', '.join(playable())}"
                         + (f"; geometry only: {', '.join(rest)})" if rest else ")")
                         + after(name, ruleset_names()))
    return ruleset


def playable() -> list[str]:
    """Every ruleset that can be played, by name."""
    names = {n for n in _builtin_names() if _builtin(n) is not None}
    names |= set(_registered)
    names |= {n for n, p in entry_point_rulesets().items() if isinstance(p, Ruleset)}
    return sorted(names)


def with_ruleset_check(scene: Scene, report: dict[str, Any]) -> dict[str, Any]:
    """A check report with what the scene's ruleset adds to it (its check_additions)."""
    _assumed(scene, report)
    ruleset = find(scene.ruleset.id)
    if ruleset is None or not scene.units:
        return report
    extra = ruleset.check_additions(scene)
    for pair in report["pairs"]:
        pair.update(extra.pairs.get((pair["a"], pair["b"]), {}))
    for uid, keys in extra.units.items():
        report["units"].setdefault(uid, {}).update(keys)
    return report


def _assumed(scene: Scene, report: dict[str, Any]) -> None:
    """Each unit's weapon characteristics left out and taken from the ruleset's
    weapon_defaults, as `assumed` in the check report ("Sword: hit 4, wound 4")."""
    defaults = scene.ruleset.weapon_defaults
    for u in scene.units if defaults else ():
        said = []
        for w in u.weapons:
            left = [f"{k} {v:g}" for k, v in defaults if k not in w]
            if left:
                said.append(f"{w.get('name', 'weapon')}: {', '.join(left)}")
        if said:
            report["units"].setdefault(u.id, {})["assumed"] = "; ".join(said)


def checked(scene: Scene, battle: bool = False) -> Scene:
    """The scene, after its ruleset's own check of the keys it adds (Ruleset.check_scene)
    and of its `state:` (where a battle starts, or a whole position): a value the loader takes
    but the ruleset cannot is refused here, by every command alike. battle=True (validate):
    also the battle set up as try and play set it up (the ruleset's setup: its sides and
    start), which geometry questions (check, measure) do not need."""
    ruleset = find(scene.ruleset.id)
    if ruleset is not None and scene.units:
        ruleset.check_scene(scene)
    if ruleset is not None and scene.units and battle:
        playable_units(scene, ruleset.given_stats)
    if ruleset is not None and scene.units and (battle or scene.extra.get("state") is not None):
        Game(ruleset, scene).new_state()      # its `state:` read as a battle reads it
    return scene


__all__ = ["with_ruleset_check", "checked", "register", "unregister", "find", "get", "playable"]
