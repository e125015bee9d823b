"""Ruleset data: rulesets/NAME/ruleset.yaml, read and checked once. Code implements the
mechanics; the numbers (combat range, coherency, objective zones, characteristics) are data."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from battlefield.paths import ruleset_dir, ruleset_names
from battlefield.scene.yamlsource import Reader

OBJECTIVE_RULES = ("control-sum", "model-count", "fighters-within")
DISTANCE_MODES = ("horizontal", "3d", "leader")


@dataclass(frozen=True)
class Coherency:
    distance: float
    neighbours: int
    large_unit: int
    large_neighbours: int
    one_group: bool

    def needed(self, models: int) -> int:
        """Neighbours each model needs within `distance` in a unit of this many models."""
        if self.large_unit and models >= self.large_unit:
            return self.large_neighbours
        return self.neighbours


@dataclass(frozen=True)
class ObjectiveRule:
    rule: str
    range: float
    marker_mm: float
    sticky: bool


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    seed: str
    board: tuple[float, float]
    characteristics: tuple[str, ...]
    weapon_characteristics: tuple[str, ...]
    distance: str
    combat_range: float
    combat_needs_sight: bool
    coherency: Coherency
    objectives: ObjectiveRule
    folder: Path


@cache
def load_ruleset(name: str) -> Ruleset:
    """The ruleset called `name` (aos4, skirmish, openwg, warband, blocks)."""
    folder = ruleset_dir(name)
    file = folder / "ruleset.yaml"
    r = Reader.open(file)
    top = r.mapping((), r.data, ["id", "name", "seed", "board", "characteristics",
                                 "weapon_characteristics", "geometry"])
    board = r.mapping(("board",), top["board"], ["width", "depth"])
    geo = r.mapping(("geometry",), top["geometry"],
                    ["distance", "combat_range", "combat_needs_sight", "coherency", "objectives"])
    coh = r.mapping(("geometry", "coherency"), geo["coherency"],
                    ["distance", "neighbours", "large_unit", "large_neighbours", "one_group"])
    obj = r.mapping(("geometry", "objectives"), geo["objectives"],
                    ["rule", "range", "marker_mm", "sticky"])
    p = ("geometry", "coherency")
    return Ruleset(
        id=r.string(("id",), top["id"], [name]),
        name=r.string(("name",), top["name"]),
        seed=r.string(("seed",), top["seed"]),
        board=(r.number(("board", "width"), board["width"], 1),
               r.number(("board", "depth"), board["depth"], 1)),
        characteristics=tuple(r.strings(("characteristics",), top["characteristics"])),
        weapon_characteristics=tuple(r.strings(("weapon_characteristics",),
                                               top["weapon_characteristics"])),
        distance=r.string(("geometry", "distance"), geo["distance"], DISTANCE_MODES),
        combat_range=r.number(("geometry", "combat_range"), geo["combat_range"], 0),
        combat_needs_sight=_bool(r, ("geometry", "combat_needs_sight"), geo["combat_needs_sight"]),
        coherency=Coherency(
            r.number((*p, "distance"), coh["distance"], 0),
            r.number((*p, "neighbours"), coh["neighbours"], 0, integer=True),
            r.number((*p, "large_unit"), coh["large_unit"], 0, integer=True),
            r.number((*p, "large_neighbours"), coh["large_neighbours"], 0, integer=True),
            _bool(r, (*p, "one_group"), coh["one_group"])),
        objectives=ObjectiveRule(
            r.string(("geometry", "objectives", "rule"), obj["rule"], OBJECTIVE_RULES),
            r.number(("geometry", "objectives", "range"), obj["range"], 0),
            r.number(("geometry", "objectives", "marker_mm"), obj["marker_mm"], 0),
            _bool(r, ("geometry", "objectives", "sticky"), obj["sticky"])),
        folder=folder,
    )


def _bool(r: Reader, path: tuple, value: object) -> bool:
    if not isinstance(value, bool):
        raise r.error(path, f"must be true or false, not {value!r}")
    return value


__all__ = ["Ruleset", "load_ruleset", "ruleset_names", "Coherency", "ObjectiveRule"]
