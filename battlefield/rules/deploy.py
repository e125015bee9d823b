"""Setting armies up on a map: each unit as a compact block of models wholly within its side's
territory and more than `gap` inches from enemy territory (aos4 Deploy Unit), clear of other
models, of impassable terrain and of the edges of pieces it cannot stand on. Units go front
first (closest to the middle of the board), shooters behind."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shapely
import yaml

from battlefield.errors import UsageError
from battlefield.geometry.bases import Base, footprint
from battlefield.paths import find_map, no_such_scene, ruleset_dir
from battlefield.rules.actions import Action
from battlefield.rulesets import load_ruleset
from battlefield.scene.load import load_scene, load_scene_text, resolve_scene_path
from battlefield.yamlsource import Reader

if TYPE_CHECKING:
    from battlefield.rules.state import State

DEPLOY = "deploy"                       # the vocabulary's set-up action (aos4)
TERRAIN = "deploy-faction-terrain"      # ... and its faction terrain's, before any unit

DEFAULT_SCENE = "demo"          # maps/demo.yaml: what commands open without a scene
GAP = 0.25                    # between neighbouring bases in a block
ARMY_KEYS = ["id", "name", "stats", "weapons", "keywords", "models", "base", "leader"]


def armies(ruleset: str) -> list[tuple[str, list[dict[str, Any]]]]:
    """The ruleset's demo armies: (name, unit templates). A template may carry the keys the
    ruleset adds to units (ruleset.yaml `unit_keys:`); the scene loader checks them."""
    folder = ruleset_dir(ruleset) / "armies"
    extra = [k.name for k in load_ruleset(ruleset).unit_keys]
    out = []
    for path in sorted(folder.glob("*.yaml")):
        r = Reader.open(path)
        top = r.mapping((), r.data, ["name", "units"])
        units = []
        for i, u in enumerate(r.sequence(("units",), top["units"], 1)):
            units.append(r.mapping(("units", i), u, ["id", "models", "base"],
                                   ARMY_KEYS[1:] + extra))
        out.append((str(top["name"]), units))
    if len(out) < 2:
        raise UsageError(f"{folder}: needs two army files to fight a battle")
    return out


def _base(spec: Any) -> Base:
    if isinstance(spec, list):
        return Base.oval(*spec)
    if isinstance(spec, dict):
        if "rect" in spec:
            return Base.rect(*spec["rect"])
        return _base(spec.get("oval") or spec.get("round"))
    return Base.round(float(spec))


def _block(n: int, base: Base, x: float, y: float, facing: float) -> list[tuple[float, float]]:
    """n positions in rows, the front row across the facing."""
    across = 2 * base.b + GAP if base.shape != 0 else 2 * base.a + GAP
    deep = 2 * base.a + GAP
    per_row = max(1, min(n, math.ceil(math.sqrt(n * 2))))
    rows = math.ceil(n / per_row)
    th = math.radians(facing)
    fx, fy = math.cos(th), math.sin(th)        # forward
    sx, sy = -fy, fx                           # across
    out = []
    for k in range(n):
        r, c = divmod(k, per_row)
        off = (c - (per_row - 1) / 2) * across       # back rows stand behind front columns
        back = r * deep - (rows - 1) * deep / 2
        out.append((x + off * sx - back * fx, y + off * sy - back * fy))
    return out


def block(bases: list[Base], x: float, y: float, facing: float) -> list[tuple[float, float]]:
    """Places for a unit's models (their bases, in the unit's order) as a compact block
    centred at x, y with its front row across `facing`: what the import, the computer player
    and the window's set-up lay a unit out as."""
    if len({(b.shape, b.a, b.b) for b in bases}) > 1:
        return _block_mixed(bases, x, y, facing)
    return _block(len(bases), bases[0], x, y, facing)


def _block_mixed(bases: list[Base], x: float, y: float, facing: float
                 ) -> list[tuple[float, float]]:
    """Positions for models on different bases (a template's `_bases`, biggest first): rows as
    `_block` lays them, each base beside the last with GAP between, each row as deep as its
    deepest base; the front row's bases touch its back line, every other row's its front line,
    so that the models at the ends of a row are within GAP of the row before (or after)."""
    n = len(bases)
    per_row = max(1, min(n, math.ceil(math.sqrt(n * 2))))
    rows = [bases[i:i + per_row] for i in range(0, n, per_row)]
    th = math.radians(facing)
    fx, fy = math.cos(th), math.sin(th)
    sx, sy = -fy, fx
    depths = [max(2 * b.a for b in row) for row in rows]
    total = sum(depths) + GAP * (len(rows) - 1)
    out = []
    back = -total / 2
    for row, d in zip(rows, depths, strict=True):
        widths = [2 * (b.b if b.shape != 0 else b.a) for b in row]
        across = sum(widths) + GAP * (len(row) - 1)
        off = -across / 2
        first = row is rows[0]
        for b, w in zip(row, widths, strict=True):
            c = off + w / 2
            mid = back + d - b.a if first else back + b.a
            out.append((x + c * sx - mid * fx, y + c * sy - mid * fy))
            off += w + GAP
        back += d + GAP
    return out


def deploy(scene_dict: dict[str, Any], layout, gap: float = 9.0, army: int | None = None,
           swapped: bool = False) -> dict[str, Any]:
    """Add the ruleset's demo armies to a map (as a scene dict) and return it: each side its
    own army (the first side the first army file's), or with `army` the same army (that
    file, by index) for both sides - a mirror match. `swapped`: each side deploys in the
    other's zone (the scene's deployment then names the zone each side stands in)."""
    ruleset = scene_dict["ruleset"]
    zones = scene_dict.get("deployment") or {}
    if len(zones) < 2:
        raise UsageError("the map needs deployment zones for two sides to deploy armies")
    sides = list(zones)[:2]
    stand = dict(zip(sides, reversed(sides), strict=True)) if swapped else {s: s for s in sides}
    width, depth = scene_dict["board"]["width"], scene_dict["board"]["depth"]
    placed: list[shapely.Polygon] = []
    units = []
    forces = armies(ruleset)
    chosen = ([forces[army % len(forces)]] * len(sides) if army is not None
              else forces[:len(sides)])
    for side, (_, force) in zip(sides, chosen, strict=False):
        other = [s for s in sides if s != side][0]
        units += set_up(force, side, zones[stand[side]], zones[stand[other]], gap, layout,
                        placed, (width / 2, depth / 2))
    deployment = {**{s: zones[stand[s]] for s in sides},
                  **{k: v for k, v in zones.items() if k not in sides}}
    return {**scene_dict, "deployment": deployment, "units": units}


def set_up(army: list[dict[str, Any]], side: str, zone_points, enemy_points, gap: float,
           layout, placed: list[shapely.Polygon], toward: tuple[float, float],
           front_first: bool = True, near: tuple[float, float] | None = None,
           reserve: bool = False) -> list[dict[str, Any]]:
    """Units from army templates (ARMY_KEYS), each a block of models wholly within the zone,
    more than `gap` from the enemy zone (none: no such rule), clear of `placed` (the feet of
    models already set up, extended here), of impassable terrain and of the edges of tall
    pieces, facing `toward` and as close to it as there is room. A template's `_bases` (each
    model's base, when they differ) lays the block out base by base. With `front_first` melee
    units go first and shooters behind; otherwise the army's order is kept. `near`: set up as close
    to this point instead (facing `toward` all the same). `reserve`: a unit that finds no
    room is written in reserve (`reserve: true`, models without a place: set up in the
    deployment phase) instead of stopping with an error."""
    centre = shapely.Point(*toward)
    blocked = [layout.polygons[i] for i, p in enumerate(layout.pieces)
               if p.kind == "impassable"]
    edges = [layout.polygons[i].boundary for i, p in enumerate(layout.pieces)
             if p.kind not in ("area", "impassable") and p.height > 1]
    zone = shapely.Polygon(zone_points).buffer(-1e-6)
    enemy = shapely.Polygon(enemy_points) if enemy_points is not None else None
    facing = facing_from(zone, toward)
    order = (sorted(army, key=lambda u: bool([w for w in u.get("weapons", [])
                                              if w.get("range")]))
             if front_first else list(army))
    units = []
    shapely.prepare(zone)
    full: set[str] = set()              # units that found no room: one like them finds none
    for tmpl in order:
        base = _base(tmpl["base"])
        specs = tmpl.get("_bases") or [tmpl["base"]] * int(tmpl["models"])
        each = [_base(b) for b in specs] if tmpl.get("_bases") else None
        like = repr((tmpl["base"], specs))
        spot = None if like in full else _find(
            zone, enemy, gap, base, int(tmpl["models"]), facing, placed, blocked, edges,
            shapely.Point(*near) if near is not None else centre, each)
        if spot is None:
            full.add(like)
        if spot is None and reserve:
            units.append(in_reserve(tmpl, side, specs))
            continue
        if spot is None:
            raise UsageError(f"no room to deploy {side}'s {tmpl['id']} in its territory")
        feet = [footprint(b.shape, b.a, b.b, x, y, facing, 32)
                for b, (x, y) in zip(each or [base] * len(spot), spot, strict=True)]
        placed.extend(feet)
        models = []
        for spec, b, (x, y) in zip(specs, each or [base] * len(spot), spot, strict=True):
            m: dict[str, Any] = {"base": spec, "at": [round(x, 4), round(y, 4)]}
            if b.shape != 0:
                m["facing"] = round(facing, 4)
            models.append(m)
        unit = {"id": f"{side}-{tmpl['id']}", "side": side}
        for k in tmpl:
            if k not in ("id", "models", "base", "_bases"):
                unit[k] = tmpl[k]
        unit["models"] = models
        units.append(unit)
    return units


def facing_from(zone: shapely.Polygon, toward: tuple[float, float]) -> float:
    """Degrees from a zone's centroid towards a point: the way a unit set up there faces."""
    c = zone.centroid
    return math.degrees(math.atan2(toward[1] - c.y, toward[0] - c.x))


def deployable(state: State, side: str) -> list[int]:
    """The side's units in reserve a deploy may set up, in the scene's order: not those the
    engine says are never deployed (a manifestation waits to be summoned)."""
    return [u for u, s in enumerate(state.scene.units) if s.side == side and state.in_reserve(u)
            and not any(x.code == "summoned" for x in state.check(Action(DEPLOY, s.id)))]


def waiting_terrain(state: State, side: str) -> list[Any]:
    """The side's faction terrain waiting to be set up, while that comes first."""
    if TERRAIN not in state.available():
        return []
    return [p for p in state.scene.reserve_terrain if p.side == side]


def in_reserve(tmpl: dict[str, Any], side: str, specs: list[Any]) -> dict[str, Any]:
    """A unit from an army template written in reserve: its models have bases, no place."""
    unit: dict[str, Any] = {"id": f"{side}-{tmpl['id']}", "side": side}
    for k in tmpl:
        if k not in ("id", "models", "base", "_bases"):
            unit[k] = tmpl[k]
    unit["reserve"] = True
    unit["models"] = [{"base": spec} for spec in specs]
    return unit


def _find(zone, enemy, gap, base, n, facing, placed, blocked, edges, centre, each=None):
    return next(spots(zone, enemy, gap, base, n, facing, placed, blocked, edges, centre, each),
                None)


@functools.lru_cache(maxsize=64)
def _grid(x0: float, y0: float, x1: float, y1: float, cx: float, cy: float
          ) -> tuple[tuple[float, float], ...]:
    """The 1" grid over a zone's bounds, nearest (cx, cy) first (ties: by place). The same for
    every unit an army sets up in one zone: worked out once."""
    out = []
    step = 1.0
    y = y0
    while y <= y1:
        x = x0
        while x <= x1:
            out.append((x, y))
            x += step
        y += step
    out.sort(key=lambda p: (round(math.dist(p, (cx, cy)), 1), p))
    return tuple(out)


def spots(zone, enemy, gap, base, n, facing, placed, blocked, edges, centre, each=None
          ) -> Iterator[list[tuple[float, float]]]:
    """Each block of n models (`each`: their bases, when they differ) that fits: wholly within
    `zone`, more than `gap` from `enemy`, clear of `placed`, `blocked` and `edges`; the blocks
    centred nearest `centre` first, on a 1" grid."""
    for cx, cy in _grid(*zone.bounds, centre.x, centre.y):
        pos = _block(n, base, cx, cy, facing) if each is None else _block_mixed(each, cx, cy,
                                                                                 facing)
        feet = [footprint(b.shape, b.a, b.b, x, y, facing, 32)
                for b, (x, y) in zip(each or [base] * n, pos, strict=True)]
        if not all(zone.contains(f) for f in feet):
            continue
        if enemy is not None and any(f.distance(enemy) <= gap for f in feet):
            continue
        if any(f.intersects(o) for f in feet for o in placed):
            continue
        if any(f.intersects(b) for f in feet for b in blocked):
            continue
        if any(f.intersects(e) for f in feet for e in edges):
            continue
        yield pos


def demo_battle(map_path: Path, ruleset: str | None = None, army: int | None = None,
                swapped: bool = False) -> str:
    """A scene (YAML text) with the ruleset's demo armies (default: the map's ruleset)
    deployed on the map (`army`, `swapped`: as `deploy`)."""
    m = load_scene(map_path, ruleset=ruleset)
    data = {"ruleset": m.ruleset.id, "name": f"{m.name or map_path.stem}: demo armies",
            "board": {"width": m.width, "depth": m.depth},
            "terrain": [{"id": p.id, "outline": [list(pt) for pt in p.outline],
                         "height": p.height, "kind": p.kind} for p in m.terrain],
            "objectives": [{"id": o.id, "at": [o.x, o.y], **o.extra} for o in m.objectives],
            "deployment": {s: [list(p) for p in pts] for s, pts in m.deployment.items()}}
    return yaml.safe_dump(deploy(data, m.layout, army=army, swapped=swapped), sort_keys=False,
                          width=100)


def mirror_battles(map_path: Path, ruleset: str, name: str
                   ) -> list[tuple[str, str, dict[str, str]]]:
    """Mirror matches on a map: for each demo army, that army on both sides as the map
    deploys them, then with the zones swapped - (scene text, name, {side: zone it stands
    in}) each, in that order. The same army on both sides leaves the table and the order of
    play as the only differences; swapping the zones tells one from the other."""
    m = load_scene(map_path, ruleset=ruleset)
    if len(m.deployment) != 2:
        raise UsageError(f"{name}: mirror matches need exactly two deployment zones (it has "
                         f"{len(m.deployment)}); --no-mirror plays it as deployed")
    sides = list(m.deployment)
    out = []
    for a, (army_name, _) in enumerate(armies(ruleset)):
        for swapped in (False, True):
            text = demo_battle(map_path, ruleset, army=a, swapped=swapped)
            zones = dict(zip(sides, reversed(sides), strict=True)) if swapped else {
                s: s for s in sides}
            out.append((text, f"{name}: {army_name} both sides"
                        + (", zones swapped" if swapped else ""), zones))
    return out


def default_ruleset() -> str:
    """The ruleset of the bundled default scene (maps/demo.yaml)."""
    path = find_map(DEFAULT_SCENE)
    if path is None:
        raise UsageError(f"the bundled default scene maps/{DEFAULT_SCENE}.yaml is missing")
    return load_scene(path).ruleset.id


def battle_scene(ruleset: str, map_arg: str | None) -> tuple[str, str]:
    """(scene text, name) of a battle to play: the ruleset's bundled demo battle (its
    ruleset.yaml `demo:`), a scene file with units, or a map with the ruleset's demo armies
    deployed on it."""
    path = _battle_path(ruleset, map_arg)
    m = load_scene(path, ruleset=ruleset)
    if map_arg is None:
        return path.read_text(encoding="utf-8"), m.name or path.stem
    if m.units:             # the file as given: what its errors (file:line) name
        return path.read_text(encoding="utf-8"), str(map_arg)
    return demo_battle(path, ruleset), f"{m.name or path.stem}: demo armies"


def battles(ruleset: str, map_arg: str | None, mirror: bool = True
            ) -> list[tuple[str, str, dict[str, str]]]:
    """The battles to play (scene text, name, {side: the zone it stands in}): a map without
    units gives its mirror matches (`mirror_battles`) unless `mirror` is False; a scene with
    units (the demo battle without a map) is played as it is, each side in the zone named as
    it is when there is one."""
    path = _battle_path(ruleset, map_arg)
    m = load_scene(path, ruleset=ruleset)
    if map_arg is not None and not m.units and mirror:
        return mirror_battles(path, ruleset, m.name or path.stem)
    text, name = battle_scene(ruleset, map_arg)
    return [(text, name, {s: s for s in m.deployment if s in load_scene_text(text, name).sides})]


def _battle_path(ruleset: str, map_arg: str | None) -> Path:
    if map_arg is None:
        path = load_ruleset(ruleset).demo_path
        if path is None:
            raise UsageError(f"no bundled demo battle for {ruleset}; give a map or scene")
        return path
    path = resolve_scene_path(map_arg)
    if not path.exists():
        raise no_such_scene(map_arg)
    return path
