"""The unit builder (seed: "Unit builder"): a template from rulesets/openwg/builder.yaml plus the
upgrades bought, checked against the template's maximums and the health ranks, giving the
unit's characteristics, weapons, special rules and points.

Points = the template's base cost + every upgrade bought (each item once per +1 step) - 2 for
each extra health per model above 1 (the seed's Spearhead: 5 + 1 + 3 + 2 + 2 + 2 + 2 + 3 = 20).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from battlefield.scene.model import Scene, UnitSpec
from battlefield.yamlsource import Reader

STATS = ("health_rank", "armor", "move", "bravery", "shrug")
WEAPON = ("range", "damage", "precision", "pierce")
FLAGS = ("standfast", "frenzy", "ranged")
BUILD_KEYS = ("template", "upgrades", "models", "health")


@dataclass(frozen=True)
class Step:
    cost: int
    add: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Upgrade:
    name: str
    steps: tuple[Step, ...]          # one step repeated (`cost`) or listed steps in order
    repeat: bool
    times: int | None                # at most this many (None: until a maximum is reached)

    def step(self, k: int) -> Step:
        return self.steps[0] if self.repeat else self.steps[k]


@dataclass(frozen=True)
class Template:
    name: str
    base_cost: int
    start: dict[str, int]            # "armor", "melee.damage", "ranged.range" ...
    maximum: dict[str, int]          # only where the seed gives "a/b"
    upgrades: dict[str, Upgrade]
    ranged_from_start: bool = False


@dataclass(frozen=True)
class Builder:
    health_discount: int
    health_ranks: dict[int, tuple[tuple[int, int], ...]]
    templates: dict[str, Template]


@dataclass
class Built:
    """What a `build:` comes to."""

    template: str
    points: int
    stats: dict[str, float]
    weapons: list[dict[str, Any]]
    specials: list[dict[str, Any]] = field(default_factory=list)
    upgrades: dict[str, int] = field(default_factory=dict)


def _pair(r: Reader, path: tuple, value: Any) -> tuple[int, int | None]:
    if isinstance(value, list):
        if len(value) != 2:
            raise r.error(path, "must be [start, max] or one number", "[start, max]")
        return (int(r.number((*path, 0), value[0], 0, integer=True)),
                int(r.number((*path, 1), value[1], 0, integer=True)))
    return int(r.number(path, value, 0, integer=True)), None


def _add(r: Reader, path: tuple, value: Any) -> tuple[tuple[str, int], ...]:
    valid = [*STATS, *(f"melee.{k}" for k in WEAPON), *(f"ranged.{k}" for k in WEAPON), *FLAGS]
    d = r.mapping(path, value, [], valid)
    return tuple((k, int(r.number((*path, k), v, 1, integer=True))) for k, v in d.items())


def _any(r: Reader, path: tuple, value: Any) -> dict[Any, Any]:
    """A mapping whose keys are names the file chooses."""
    return r.mapping(path, value, [], list(value) if isinstance(value, dict) else [])


def read_builder(file: Path) -> Builder:
    """builder.yaml: the templates, their upgrades and the health ranks."""
    r = Reader.open(file)
    top = r.mapping((), r.data, ["health_discount", "health_ranks", "templates"])
    ranks: dict[int, tuple[tuple[int, int], ...]] = {}
    for rank, choices in _any(r, ("health_ranks",), top["health_ranks"]).items():
        p = ("health_ranks", rank)
        ranks[int(rank)] = tuple(
            (int(r.number((*p, i, 0), c[0], 1, integer=True)),
             int(r.number((*p, i, 1), c[1], 1, integer=True)))
            for i, c in enumerate(r.sequence(p, choices, 1)))
    templates = {}
    for name, raw in _any(r, ("templates",), top["templates"]).items():
        p = ("templates", name)
        t = r.mapping(p, raw, ["base_cost", "stats", "melee", "ranged", "upgrades"],
                      ["ranged_from_start"])
        start: dict[str, int] = {}
        maximum: dict[str, int] = {}
        for part, keys, prefix in (("stats", STATS, ""), ("melee", WEAPON, "melee."),
                                   ("ranged", WEAPON, "ranged.")):
            d = r.mapping((*p, part), t[part], keys)
            for k in keys:
                a, b = _pair(r, (*p, part, k), d[k])
                start[prefix + k] = a
                if b is not None:
                    maximum[prefix + k] = b
        ups = {}
        for un, uraw in _any(r, (*p, "upgrades"), t["upgrades"]).items():
            up = (*p, "upgrades", un)
            u = r.mapping(up, uraw, [], ["cost", "add", "steps", "times"])
            if "steps" in u:
                steps = tuple(Step(int(r.number((*up, "steps", i, "cost"), s["cost"], 0,
                                                 integer=True)),
                                   _add(r, (*up, "steps", i, "add"), s["add"]))
                              for i, s in enumerate(r.sequence((*up, "steps"), u["steps"], 1)))
                ups[un] = Upgrade(un, steps, False, len(steps))
            else:
                step = Step(int(r.number((*up, "cost"), u["cost"], 0, integer=True)),
                            _add(r, (*up, "add"), u["add"]))
                times = (int(r.number((*up, "times"), u["times"], 1, integer=True))
                         if "times" in u else None)
                ups[un] = Upgrade(un, (step,), True, times)
        templates[name] = Template(name, int(r.number((*p, "base_cost"), t["base_cost"], 0,
                                                      integer=True)),
                                   start, maximum, ups, bool(t.get("ranged_from_start", False)))
    return Builder(int(r.number(("health_discount",), top["health_discount"], 0,
                                integer=True)), ranks, templates)


def _whole(scene: Scene, path: tuple, value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) \
            or value < least:
        raise scene.error(path, f"must be a whole number {least} or more, not {value!r}")
    return int(value)


def build(scene: Scene, unit: UnitSpec, b: Builder) -> Built:
    """The unit's `build:` checked and worked out with the builder `b`; an InputError at the
    key path otherwise."""
    raw = unit.extra["build"]
    p = (*unit.path, "build")
    odd = [k for k in raw if k not in BUILD_KEYS]
    if odd:
        raise scene.error((*p, odd[0]), f"unknown key '{odd[0]}'",
                          f"one of {', '.join(BUILD_KEYS)}")
    for k in BUILD_KEYS[:1]:
        if k not in raw:
            raise scene.error(p, f"needs '{k}'", f"{k}: {' | '.join(b.templates)}")
    name = raw["template"]
    if name not in b.templates:
        raise scene.error((*p, "template"), f"unknown template {name!r}",
                          f"one of {', '.join(b.templates)}")
    t = b.templates[name]
    bought = raw.get("upgrades") or {}
    if not isinstance(bought, dict):
        raise scene.error((*p, "upgrades"), "must be a mapping", "{upgrade: times bought}")
    values = dict(t.start)
    flags = {"ranged": 1} if t.ranged_from_start else {}
    points = t.base_cost
    for key, times in bought.items():
        up_path = (*p, "upgrades", key)
        if key not in t.upgrades:
            raise scene.error(up_path, f"the {name} template sells no upgrade '{key}'",
                              f"one of {', '.join(t.upgrades)}")
        up = t.upgrades[key]
        n = _whole(scene, up_path, times, 0)
        if up.times is not None and n > up.times:
            raise scene.error(up_path, f"{key} bought {n} times; the {name} template sells it "
                                       f"at most {up.times} time{'s' * (up.times != 1)}",
                              f"{key}: 0 to {up.times}")
        for k in range(n):
            step = up.step(k)
            points += step.cost
            for stat, amount in step.add:
                if stat in FLAGS:
                    flags[stat] = flags.get(stat, 0) + amount
                    continue
                values[stat] += amount
                most = t.maximum.get(stat)
                if most is not None and values[stat] > most:
                    allowed = (most - t.start[stat]) // amount
                    raise scene.error(up_path, f"{key} bought {n} times takes {stat} to "
                                               f"{values[stat]}, past the {name} template's "
                                               f"maximum {most} (it starts at {t.start[stat]})",
                                      f"{key}: 0 to {allowed}")
    rank = values["health_rank"]
    choices = b.health_ranks.get(rank, ())
    models = _whole(scene, (*p, "models"), raw.get("models", len(unit.models)), 1)
    health = _whole(scene, (*p, "health"), raw.get("health", 1), 1)
    shown = " OR ".join(f"{m} models with {h} health" for m, h in choices)
    if (models, health) not in choices:
        raise scene.error((*p, "health") if "health" in raw else (*p, "models"),
                          f"{models} models with {health} health is not a choice of health "
                          f"rank {rank}", shown or f"a health rank from 1 to {max(b.health_ranks)}")
    if models != len(unit.models):
        raise scene.error((*p, "models"), f"the build has {models} models but the unit lists "
                                          f"{len(unit.models)}", f"models: {len(unit.models)}")
    points -= b.health_discount * (health - 1)
    stats = {"move": values["move"], "bravery": values["bravery"], "armor": values["armor"],
             "health": health, "shrug": values["shrug"]}
    weapons = [{"name": "Melee", "type": "melee",
                **{k: values[f"melee.{k}"] for k in WEAPON}}]
    if flags.get("ranged"):
        weapons.append({"name": "Sidearm", "type": "ranged",
                        **{k: values[f"ranged.{k}"] for k in WEAPON}})
    specials = [{"effect": f} for f in ("standfast", "frenzy") if flags.get(f)]
    return Built(name, points, stats, weapons, specials,
                 {k: int(v) for k, v in bought.items()})
