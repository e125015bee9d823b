"""The rulesets the engine can play, and the one interface each provides.

A ruleset is data (rulesets/NAME/: ruleset.yaml and its own files) plus one package that
registers a `RulesetPackage`: the rules (the engine's `Rules` protocol), its computer player,
the odds questions it answers, what the play window shows while a unit is dragged, and how
`battlefield try` finds the moment an action belongs to. Everything else - the numbers map
analysis needs, the demo battle, the action vocabulary - is in ruleset.yaml.

Rulesets are found by name: a package `battlefield.rules.NAME` that defines `RULESET`, one
registered with `register()`, or one installed as its own distribution through the entry-point
group `battlefield.rulesets` (`NAME = "module:RULESET"`). No caller names a ruleset.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from battlefield.errors import UsageError
from battlefield.rules.actions import Action, Violation
from battlefield.rules.state import Rules, State
from battlefield.rulesets import Ruleset, load_ruleset
from battlefield.scene.model import Scene

Answer = dict[str, Any]


class Player(Protocol):
    """A computer player: the next action for the side whose decision it is."""

    def choose(self, state: State) -> Action: ...


@dataclass(frozen=True)
class OddsQuestion:
    """One question `battlefield odds` can ask of a scene: `--FLAG ARG ...`.

    `answer(scene, args, options)` returns the JSON answer; `text(answer)` the lines a person
    reads. `options` are the odds command's other flags (weapon, modifiers) by name."""

    flag: str                                  # "attack" -> --attack
    args: tuple[str, ...]                      # metavars: ("A", "B")
    help: str
    answer: Callable[[Scene, Sequence[str], dict[str, Any]], Answer]
    text: Callable[[Answer], str]
    json_keys: str = ""                        # for --help: what the JSON holds


@dataclass
class Ring:
    """A unit the drop would trigger or affect, ringed on the table with the reason."""

    unit: int
    reason: str


@dataclass
class Ghost:
    """Where a unit's models would stand after the drop (a retreat, a push ...)."""

    unit: int
    at: np.ndarray                             # (n, 2) per model still on the table
    reason: str = ""


@dataclass
class Mark:
    """Something a ruleset draws on the table, in inches: an `arrow` (an order), a `path` (a
    rout route), an `edge` (an engaged side) or an `outline` (a front arc), with a label and
    the side whose colour it takes (None: ink)."""

    kind: str
    points: np.ndarray                         # (n, 2)
    label: str = ""
    side: str | None = None
    unit: int | None = None                    # the unit it belongs to (hidden while dragged)


@dataclass
class DragNotes:
    """What a ruleset adds to the drag overlay, as data the view draws: caption lines, odds
    against the enemy under the cursor, units ringed with their reasons, ghosts."""

    lines: list[str] = field(default_factory=list)
    odds: Any = None
    rings: list[Ring] = field(default_factory=list)
    ghosts: list[Ghost] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)


@dataclass
class DragContext:
    """One place of a dragged unit: its action, the table with it dropped there, the enemy
    under the cursor, whether the cursor rests (`rests`: the rulings that cost more than a
    frame are asked, such as sight with its blockers), and a cache that lives as long as the
    pick-up (odds that do not depend on the drop)."""

    state: State
    unit: int
    ability: str
    action: Action
    moved: Any                                 # geometry.table.Table with the unit dropped
    target: int | None
    rests: bool
    cache: dict[Any, Any]


@dataclass
class CheckAdditions:
    """What a ruleset adds to `battlefield check`: keys per ordered pair of units (a, b) and
    per unit, merged into the report's `pairs` and `units`."""

    pairs: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    units: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class RulesetPackage:
    """Everything a ruleset answers, registered once by its package."""

    id: str
    rules: Rules
    player: Callable[[], Player]
    odds: tuple[OddsQuestion, ...] = ()
    # The window: which of the abilities the engine offers a drag of unit u stands for
    # (default: the vocabulary's drag actions in the order offered), and the overlay notes.
    drag_abilities: Callable[[State, int, list[str]], list[str]] | None = None
    drag_notes: Callable[[DragContext], DragNotes] | None = None
    # `battlefield try`: the scene's `state:` defaults for a list of actions (whose turn, ...)
    # and how to bring the state to the moment an action belongs to (violations if it passed).
    try_start: Callable[[Scene, list[Action]], dict[str, Any]] | None = None
    try_advance: Callable[[State, Action], list[Violation]] | None = None
    # `battlefield points`: what the scene's armies cost ({"units": {ID: {"points", "stats"}},
    # "sides": {SIDE: points}}); None: the ruleset has no points.
    points: Callable[[Scene], Answer] | None = None
    # The play window's panel: a line per unit the ruleset has something to say about now
    # (openwg: the wounds pooled on it), by unit index.
    unit_notes: Callable[[State], dict[int, str]] | None = None
    # Every command that reads a scene (check, render, odds, validate ...): the ruleset's own
    # check of its scene keys (raises InputError at the key path, e.g. an openwg build past a
    # maximum); None: the loader's checks suffice.
    check_scene: Callable[[Scene], None] | None = None
    data: Path | None = None                   # rulesets/NAME (default: the bundled folder)
    # `battlefield check`: the ruleset's own rulings about a scene (default: none).
    check_additions: Callable[[Scene], CheckAdditions] | None = None
    # The play window and `render`: what the ruleset draws on the table for a state (orders,
    # routes, engaged sides ...; default: nothing).
    marks: Callable[[State], list[Mark]] | None = None
    # The window, `render` and the game log: each model's health (the damage that slays it)
    # in unit u, as the ruleset counts it; None: the ruleset counts no health.
    health: Callable[[State, int], list[int]] | None = None

    @property
    def ruleset(self) -> Ruleset:
        return load_ruleset(self.id)

    def question(self, flag: str) -> OddsQuestion | None:
        return next((q for q in self.odds if q.flag == flag), None)


_registered: dict[str, RulesetPackage] = {}


def register(package: RulesetPackage) -> RulesetPackage:
    """Make a ruleset playable by name (for rulesets built at run time, e.g. in tests)."""
    _registered[package.id] = package
    if package.data is not None:
        from battlefield.paths import add_ruleset_dir

        add_ruleset_dir(package.id, package.data)
    return package


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _builtin_names() -> list[str]:
    import battlefield.rules as rules

    return sorted(m.name for m in pkgutil.iter_modules(rules.__path__) if m.ispkg)


@cache
def _builtin(name: str) -> RulesetPackage | None:
    if name not in _builtin_names() or find_spec(f"battlefield.rules.{name}") is None:
        return None
    pkg = getattr(import_module(f"battlefield.rules.{name}"), "RULESET", None)
    return pkg if isinstance(pkg, RulesetPackage) else None


def find(name: str) -> RulesetPackage | None:
    """The playable ruleset called `name`, or None."""
    if name in _registered:
        return _registered[name]
    pkg = _builtin(name)
    if pkg is not None:
        return pkg
    from battlefield.paths import entry_point_rulesets

    pkg = entry_point_rulesets().get(name)
    return pkg if isinstance(pkg, RulesetPackage) else None


def get(name: str) -> RulesetPackage:
    """The playable ruleset called `name`; a clear error naming the playable ones if none."""
    pkg = find(name)
    if pkg is None:
        from battlefield.paths import ruleset_names

        if name in ruleset_names():
            raise UsageError(f"the {name} ruleset cannot be played yet (only its geometry "
                             f"rulings: check, measure, render); playable: "
                             f"{', '.join(playable())}")
        rest = [n for n in ruleset_names() if n not in playable()]
        raise UsageError(f"unknown ruleset '{name}' (playable: {', '.join(playable())}"
                         + (f"; geometry only: {', '.join(rest)})" if rest else ")"))
    return pkg


def playable() -> list[str]:
    """Every ruleset that can be played, by name."""
    from battlefield.paths import entry_point_rulesets

    names = {n for n in _builtin_names() if _builtin(n) is not None}
    names |= set(_registered)
    names |= {n for n, p in entry_point_rulesets().items() if isinstance(p, RulesetPackage)}
    return sorted(names)


def with_ruleset_check(scene: Scene, report: dict[str, Any]) -> dict[str, Any]:
    """A check report with what the scene's ruleset adds to it (its check_additions)."""
    _assumed(scene, report)
    pkg = find(scene.ruleset.id)
    if pkg is None or pkg.check_additions is None or not scene.units:
        return report
    extra = pkg.check_additions(scene)
    for pair in report["pairs"]:
        pair.update(extra.pairs.get((pair["a"], pair["b"]), {}))
    for uid, keys in extra.units.items():
        report["units"].setdefault(uid, {}).update(keys)
    return report


def _assumed(scene: Scene, report: dict[str, Any]) -> None:
    """Each unit's weapon characteristics left out and taken from the ruleset's
    weapon_defaults, as `assumed` in the check report ("Sword: hit 4, wound 4")."""
    defaults = getattr(scene.ruleset, "weapon_defaults", ())
    for u in scene.units if defaults else ():
        said = []
        for w in u.weapons:
            left = [f"{k} {v:g}" for k, v in defaults if k not in w]
            if left:
                said.append(f"{w.get('name', 'weapon')}: {', '.join(left)}")
        if said:
            report["units"].setdefault(u.id, {})["assumed"] = "; ".join(said)


def checked(scene: Scene, battle: bool = False) -> Scene:
    """The scene, after its ruleset's own check of the keys it adds (RulesetPackage.
    check_scene) and of its `state:` (where a battle starts, or a whole position): a value the
    loader takes but the ruleset cannot is refused here, by every command alike. battle=True
    (validate): also the battle set up as try and play set it up (the ruleset's setup: its
    sides and start), which geometry questions (check, measure) do not need."""
    package = find(scene.ruleset.id)
    if package is not None and package.check_scene is not None and scene.units:
        package.check_scene(scene)
    if package is not None and scene.units and battle:
        from battlefield.rules.boundary import playable_units

        playable_units(scene)
    if package is not None and scene.units and (battle or scene.extra.get("state") is not None):
        from battlefield.rules.state import Game

        Game(package.rules, scene).new_state()      # its `state:` read as a battle reads it
    return scene


def marks_of(state: State) -> list[Mark]:
    """What the state's ruleset draws on the table now (its `marks` hook; none without)."""
    pkg = find(state.rules.id)
    return pkg.marks(state) if pkg is not None and pkg.marks is not None else []


def rules_of(name: str) -> Rules:
    return get(name).rules


__all__ = ["RulesetPackage", "CheckAdditions", "with_ruleset_check", "checked", "OddsQuestion",
           "DragNotes", "DragContext", "Ring", "Ghost", "Mark", "marks_of", "Player",
           "register", "unregister", "find", "get", "playable", "rules_of"]
