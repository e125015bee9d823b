"""A scene: the board, its terrain, objectives and deployment zones, and the units on it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from battlefield.errors import InputError, UnknownUnit
from battlefield.geometry.bases import Base
from battlefield.geometry.table import Table
from battlefield.geometry.terrain import Layout, Piece
from battlefield.names import after
from battlefield.rulesets import RulesetData
from battlefield.yamlsource import format_path


@dataclass
class ModelSpec:
    """One model: its base, where it stands (inches), facing (degrees ccw from +x), elevation
    and height (inches). `placed` False: a model of a unit in reserve (`reserve: true`), not
    yet set up - its x and y mean nothing and it is off the table until deployed."""

    base: Base
    x: float
    y: float
    facing: float = 0.0
    z: float = 0.0
    height: float = 1.25
    z_given: bool = False
    height_given: bool = False
    extra: dict[str, Any] = field(default_factory=dict)    # the ruleset's model_keys, as written
    placed: bool = True


@dataclass
class UnitSpec:
    id: str
    side: str
    models: list[ModelSpec]
    leader: int = 0                     # index into models
    name: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    weapons: list[dict[str, Any]] = field(default_factory=list)
    keywords: tuple[str, ...] = ()
    profile: str | None = None
    line: int | None = None             # where the unit is written, for messages
    extra: dict[str, Any] = field(default_factory=dict)    # the ruleset's unit_keys, as written
    path: tuple = ()                    # ("units", i): where the unit is in its file

    def has(self, keyword: str) -> bool:
        return keyword.upper() in self.keywords

    @property
    def reserve(self) -> bool:
        """A unit in reserve (`reserve: true`): none of its models is set up yet."""
        return bool(self.models) and not any(m.placed for m in self.models)

    def model_weapons(self, k: int) -> list[dict[str, Any]]:
        """The weapon profiles the unit's k-th model (from 0) carries: the unit's weapons its
        `weapons:` names (aos4's model key), the profiles it lists (openwg's), else every one of
        the unit's: what the window's and the pages' hover of a model show."""
        own = self.models[k].extra.get("weapons") if 0 <= k < len(self.models) else None
        if not isinstance(own, list):
            return list(self.weapons)
        if all(isinstance(w, dict) for w in own):
            return list(own)                    # the model's own profiles (openwg)
        names = {str(n) for n in own}
        return [w for w in self.weapons if str(w.get("name")) in names]


@dataclass
class Objective:
    id: str
    x: float
    y: float
    controlled_by: str | None = None    # who held it before this moment (sticky control)
    extra: dict[str, Any] = field(default_factory=dict)    # the ruleset's objective_keys


@dataclass
class Scene:
    file: str
    ruleset: RulesetData
    width: float
    depth: float
    terrain: tuple[Piece, ...]
    objectives: list[Objective]
    units: list[UnitSpec]
    deployment: dict[str, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    name: str = ""
    # Faction terrain not yet set up (`reserve: true`, aos4's Deploy Faction Terrain): each
    # piece's outline is its shape; none of it is on the table or in `layout`.
    reserve_terrain: tuple[Piece, ...] = ()
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    lines: dict[tuple, int] = field(default_factory=dict, repr=False, compare=False)

    def error(self, path: tuple, message: str, expected: str | None = None) -> InputError:
        """An InputError at a key path of this scene's file (with its line when the file
        has one): how a ruleset's package reports a value that is well-formed YAML but
        breaks its rules, e.g. error(("units", 2, "build", "upgrades", "movement"), ...)."""
        line = self.lines.get(tuple(path))
        if line is None:              # the nearest enclosing key that has a line
            for k in range(len(path) - 1, 0, -1):
                line = self.lines.get(tuple(path[:k]))
                if line is not None:
                    break
        return InputError(self.file, format_path(tuple(path)), line, message, expected)

    @cached_property
    def layout(self) -> Layout:
        return Layout(self.terrain)

    @property
    def sides(self) -> list[str]:
        seen: list[str] = []
        for u in self.units:
            if u.side not in seen:
                seen.append(u.side)
        return seen

    def tie_side(self, o: Objective) -> str | None:
        """The side that holds objective o on a tie (its ruleset's geometry.objectives.tie_to
        key, e.g. skirmish's `home:`), or None."""
        key = self.ruleset.objectives.tie_to
        return o.extra.get(key) if key else None

    def set_up(self) -> Scene:
        """The scene as its table shows it: the models of units in reserve (not set up yet,
        no place) left out, what pictures and pages draw. The scene itself when none is."""
        if not any(u.reserve for u in self.units):
            return self
        return replace(self, units=[replace(u, models=[], leader=0) if u.reserve else u
                                    for u in self.units])

    def unit_index(self, unit_id: str) -> int:
        for i, u in enumerate(self.units):
            if u.id == unit_id:
                return i
        ids = ", ".join(u.id for u in self.units) or "(none)"
        raise UnknownUnit(f"{self.file}: no unit '{unit_id}' (units: {ids})"
                          f"{after(unit_id, (u.id for u in self.units))}")

    @property
    def model_names(self) -> list[str]:
        """Each model's name ("UNIT/N"), in table order (kept while the unit ids and sizes are
        the same; a shared list: do not change it)."""
        key = tuple((u.id, len(u.models)) for u in self.units)
        cached = self.__dict__.get("_names")
        if cached is None or cached[0] != key:
            cached = self.__dict__["_names"] = (
                key, [f"{u.id}/{k + 1}" for u in self.units for k in range(len(u.models))])
        return cached[1]

    def model_offsets(self) -> list[int]:
        """Index of each unit's first model in the table's model arrays (worked out once per
        scene: scenes are not changed in place, edits make new ones)."""
        key = tuple(len(u.models) for u in self.units) if len(self.units) < 8 else None
        cached = self.__dict__.get("_offsets")
        if cached is not None and (key is None or cached[0] == key):
            return cached[1]
        out, n = [], 0
        for u in self.units:
            out.append(n)
            n += len(u.models)
        self.__dict__["_offsets"] = (key, out)
        return out

    def leader_model(self, u: int, table: Table) -> int:
        """Unit u's leader on `table` (its table index): the unit's `leader` model, or its first
        model still on the table when the leader has fallen (skirmish: it never falls first).
        A unit with no model left: where its leader was (which no model of it matches) - the
        index may then be past the table's end, when the table is a scene of those standing."""
        lead = self.model_offsets()[u] + self.units[u].leader
        if lead < len(table.unit) and table.unit[lead] == u:
            return lead
        on = table.unit_models[u]
        return int(on.min()) if len(on) else lead

    def table(self) -> Table:
        """Every model's place; a model not yet set up (a unit in reserve) is off the table,
        as a slain one is (unit -1)."""
        models = [(ui, m) for ui, u in enumerate(self.units) for m in u.models]
        col = lambda f: np.array([f(ui, m) for ui, m in models], dtype=np.float64)  # noqa: E731
        return Table(
            width=self.width, depth=self.depth, layout=self.layout,
            x=col(lambda _, m: m.x), y=col(lambda _, m: m.y),
            facing=col(lambda _, m: m.facing),
            shape=np.array([m.base.shape for _, m in models], dtype=np.int64),
            a=col(lambda _, m: m.base.a), b=col(lambda _, m: m.base.b),
            z=col(lambda _, m: m.z), height=col(lambda _, m: m.height),
            unit=np.array([ui if m.placed else -1 for ui, m in models], dtype=np.int64),
            n_units=len(self.units),
        )

    @property
    def path(self) -> Path:
        return Path(self.file)
