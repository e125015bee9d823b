"""Rulings about a scene at one moment: coherency, distances, sight, who is in combat, who holds
each objective - the answers `battlefield check` and `battlefield measure` print.

The ruleset supplies the numbers (combat range, coherency, objective rule) and how distances are
taken: `horizontal` (closest bases), `3d` (closest bases at their elevations) or `leader`
(skirmish: leader base to leader base, 3-D when the elevations differ).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import shapely

from battlefield.errors import UsageError
from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.coherency import CoherencyResult, coherency
from battlefield.geometry.objectives import Control, control
from battlefield.geometry.separation import point_distances
from battlefield.geometry.sight import STATUS, Sight, SightModel
from battlefield.geometry.table import Closest, Table
from battlefield.inputs import plain_whole
from battlefield.names import after, model_names
from battlefield.scene.model import Scene


class FROM_SCENE:  # noqa: N801 - a sentinel: "as the scene says"
    """Default for Referee.objective(held_by=...)."""


EPS = 1e-6  # "within X" tolerance: scene coordinates are written to ~6 decimals
# Sight "leaders-past-near-terrain" (skirmish): a unit within this distance of a piece that
# partly blocks its sight ignores it.
NEAR_TERRAIN_REACH = 1.0


def combat_rule(rules: Any) -> dict[str, Any]:
    """What a pair's `in_combat` means in this ruleset: the range and how it is measured."""
    how = {"3d": "in 3-D (closest points of the bases at their elevations)",
           "leader": "horizontally (closest base edges; other ranges leader to leader)",
           "horizontal": "horizontally (closest base edges)"}[rules.distance]
    return {"range": rules.combat_range, "distance": rules.distance,
            "means": f"within {rules.combat_range:g}\" {how}"
                     + (" and visible" if rules.combat_needs_sight else "")}


def _r(v: float) -> float:
    return round(float(v), 6)


@dataclass(frozen=True)
class Pair:
    """What unit (or model) a knows of b: distance, 3-D distance, sight, closest points."""

    distance: float
    distance_3d: float
    visible: str
    closest: Closest
    blocked_by: list[str]


@dataclass(frozen=True)
class TerrainCombat:
    """A combat through a terrain piece (aos4's "Charging Units on Terrain"): `unit` is in
    combat with every enemy unit wholly on piece `piece` (each model's base within its
    outline) while a model of `unit` is within `within` of the piece, horizontally - whatever
    the distance between the units and whether they see each other."""

    unit: int
    piece: int
    within: float


class Referee:
    """Answers rules questions about one scene with its models at the places in `table`;
    `links`: the combats through terrain pieces the game has made (Ruleset.combat_links)."""

    def __init__(self, scene: Scene, table: Table | None = None,
                 links: tuple[TerrainCombat, ...] = ()) -> None:
        self.scene = scene
        self.rules = scene.ruleset
        self.table = table if table is not None else scene.table()
        self.links = tuple(links)

    @cached_property
    def names(self) -> list[str]:
        """Each model's name ("UNIT/N"), in table order."""
        return self.scene.model_names

    @cached_property
    def offsets(self) -> list[int]:
        """Each unit's first model in the table."""
        return self.scene.model_offsets()

    @cached_property
    def sight(self) -> SightModel:
        """The sight questions about this table: one SightModel per table, made when first
        asked (many rulings need none) and shared by every Referee of the table."""
        return self.table.memo(("sight",), lambda: SightModel(self.table))

    # --- ids -------------------------------------------------------------------------------
    def unit(self, unit_id: str) -> int:
        try:
            u = self.scene.unit_index(unit_id)
        except KeyError:
            ids = ", ".join(u.id for u in self.scene.units) or "(none)"
            raise UsageError(f"{self.scene.file}: no unit '{unit_id}' (units: {ids})"
                             f"{after(unit_id, (u.id for u in self.scene.units))}") from None
        return self._set_up(u)

    def _set_up(self, u: int) -> int:
        """Unit u, when it is on the table: a unit in reserve has nothing to measure yet."""
        spec = self.scene.units[u]
        if spec.reserve and not len(self.table.unit_models[u]):
            raise UsageError(f"{self.scene.file}: {spec.id} is in reserve: it is not on the "
                             f"table until the deployment phase sets it up")
        return u

    def resolve(self, ref: str) -> tuple[int, int | None]:
        """'UNIT' -> (unit, None); 'UNIT/N' -> (unit, model index in the table)."""
        if "/" in ref:
            uid, _, n = ref.rpartition("/")
            models = model_names((s.id, len(s.models)) for s in self.scene.units)
            try:
                u = self.scene.unit_index(uid)
            except KeyError:
                ids = ", ".join(s.id for s in self.scene.units) or "(none)"
                raise UsageError(f"{self.scene.file}: no model '{ref}' (no unit '{uid}'; units: "
                                 f"{ids}){after(ref, models)}") from None
            count = len(self.scene.units[u].models)
            k = plain_whole(n)
            if k is None or not 1 <= k <= count:
                raise UsageError(f"{self.scene.file}: '{ref}': unit {uid} has models 1..{count}"
                                 f"{after(ref, models)}")
            return self._set_up(u), self.offsets[u] + k - 1
        return self.unit(ref), None

    def leader(self, u: int) -> int:
        return self.scene.leader_model(u, self.table)

    def blocker(self, k: int) -> str:
        return self.sight.blocker_name(k, self.names)

    def blockers(self, sight: Sight) -> list[str]:
        """What hides part of the target: nothing when it is fully visible (lines that were
        blocked then only mean other lines saw the same points)."""
        return [] if sight.visible == "full" else [self.blocker(k) for k in sight.blocked_by]

    # --- coherency -------------------------------------------------------------------------
    def coherency(self, u: int) -> CoherencyResult:
        c = self.rules.coherency
        models = self.table.unit_models[u]
        return coherency(self.table, models, c.distance, c.needed(len(models)), c.one_group,
                         self.leader(u))

    # --- distance and sight ----------------------------------------------------------------
    def closest(self, a: np.ndarray, b: np.ndarray) -> Closest:
        return self.table.closest_between(a, b)

    def unit_distance(self, u: int, v: int) -> float:
        """The ruleset's distance between two units."""
        t = self.table
        if self.rules.distance == "leader":
            i, j = self.leader(u), self.leader(v)
            return float(t.distances_3d(np.array([i]), np.array([j]))[0, 0])
        if self.rules.distance == "3d":
            return float(t.distances_3d(t.unit_models[u], t.unit_models[v]).min())
        return t.unit_distance(u, v)

    def pair(self, u: int, v: int) -> Pair:
        """Unit u looking at unit v."""
        t = self.table
        if self.rules.distance == "leader":
            i, j = self.leader(u), self.leader(v)
            near = t.closest(i, j)
        else:
            near = self.closest(t.unit_models[u], t.unit_models[v])
        sight = self.unit_sight(u, v)
        return Pair(self.unit_distance(u, v) if self.rules.distance != "horizontal"
                    else near.distance, near.distance_3d, sight.visible, near,
                    self.blockers(sight))

    def unit_sight(self, u: int, v: int) -> Sight:
        """How much of unit v unit u sees, by the ruleset's sight mode (ruleset.yaml
        geometry.sight)."""
        if self.rules.sight == "leaders-past-near-terrain":
            return self.leader_sight(u, v)
        return self.sight.unit_visibility(u, v)

    def leader_sight(self, u: int, v: int) -> Sight:
        """Leader to leader; a piece that only partly blocks is ignored by a unit within 1" of
        it (so both see fully past a piece they are both within 1" of)."""
        i, j = self.leader(u), self.leader(v)
        plain = self.sight.model_visibility(i, j)
        if plain.visible == "full":
            return plain
        ignore = tuple(k for k in self.pieces_near(u)
                       if k < len(self.table.layout) and self._partly_blocks(i, j, k))
        return self.sight.model_visibility(i, j, ignore_pieces=ignore) if ignore else plain

    def _partly_blocks(self, i: int, j: int, k: int) -> bool:
        alone = self.sight.model_visibility(i, j, only_pieces=(k,), models_block=False)
        return alone.visible == "partial"

    def pieces_near(self, u: int, reach: float = NEAR_TERRAIN_REACH) -> list[int]:
        """Pieces within `reach` of a model of unit u (worked out once while its models stand
        where they are)."""
        def near() -> list[int]:
            t = self.table
            feet = [t.footprint(int(m), 64) for m in t.unit_models[u]]
            if not feet:
                return []
            x0, y0, x1, y1 = shapely.total_bounds(feet)
            box = shapely.box(x0 - reach, y0 - reach, x1 + reach, y1 + reach)
            return [k for k in t.layout.pieces_touching(box)
                    if shapely.distance(t.layout.polygons[k], feet).min() <= reach + EPS]

        return list(self.table.placed_memo(("pieces-near", reach), self.table.unit_models[u],
                                           near))

    def model_pair(self, i: int, j: int) -> Pair:
        near = self.table.closest(i, j)
        sight = self.sight.model_visibility(i, j)
        return Pair(near.distance, near.distance_3d, sight.visible, near, self.blockers(sight))

    # --- combat ----------------------------------------------------------------------------
    def on_table(self, u: int) -> bool:
        """The unit still has models on the table (it is not destroyed)."""
        return len(self.table.unit_models[u]) > 0

    def in_combat(self, u: int, v: int) -> bool:
        sides = self.scene.units
        if sides[u].side == sides[v].side or not (self.on_table(u) and self.on_table(v)):
            return False
        if self.through(u, v) is not None:
            return True
        t = self.table
        if self.rules.distance == "3d":
            d = float(t.distances_3d(t.unit_models[u], t.unit_models[v]).min())
        else:
            d = t.unit_distance(u, v)
        if d > self.rules.combat_range + EPS:
            return False
        return not self.rules.combat_needs_sight or self.sight.unit_sees(u, v)

    def through(self, u: int, v: int) -> int | None:
        """The terrain piece units u and v are in combat through (a TerrainCombat of either
        that holds where they stand), or None."""
        for link in self.links:
            if link.unit in (u, v) and self.link_holds(link, v if link.unit == u else u):
                return link.piece
        return None

    def link_holds(self, link: TerrainCombat, w: int) -> bool:
        """Whether enemy unit w is in combat with link.unit through link.piece now: a model
        of link.unit within link.within of the piece, every model of w wholly on it."""
        units = self.scene.units
        if units[w].side == units[link.unit].side or not (
                self.on_table(link.unit) and self.on_table(w)):
            return False
        return self.near_piece(link.unit, link.piece, link.within) and \
            self.wholly_on(w, link.piece)

    def near_piece(self, u: int, k: int, within: float) -> bool:
        """A model of unit u is within `within` of terrain piece k (horizontally)."""
        t = self.table
        return any(t.piece_distance(int(m), k) <= within + EPS for m in t.unit_models[u])

    def wholly_on(self, u: int, k: int) -> bool:
        """Every model of unit u stands wholly on terrain piece k (its base within the
        outline)."""
        t = self.table
        models = t.unit_models[u]
        if not len(models):
            return False
        poly = t.layout.polygons[k]
        x0, y0, x1, y1 = t.layout.bboxes[k]
        r = t.reach[models]
        if ((t.x[models] - r < x0 - EPS) | (t.x[models] + r > x1 + EPS)
                | (t.y[models] - r < y0 - EPS) | (t.y[models] + r > y1 + EPS)).any():
            return False
        grown = poly.buffer(1e-4)
        return all(grown.covers(t.footprint(int(m), 256)) for m in models)

    @cached_property
    def combat(self) -> dict[int, list[int]]:
        """Each unit's enemies in combat with it (worked out once per scene, table and the
        combats through terrain)."""
        _, shared = self.table.memo(("combat", id(self.scene), self.links),
                                    lambda: (self.scene, self._combat()))
        return {u: list(foes) for u, foes in shared.items()}   # this Referee's own lists

    def _combat(self) -> dict[int, list[int]]:
        n = len(self.scene.units)
        out: dict[int, list[int]] = {u: [] for u in range(n)}
        # Horizontally, the pairs within combat range in one pass over the table first (most
        # are far apart); then in_combat, which measures them again and looks, on those alone.
        close = (self.table.units_within(self.rules.combat_range + EPS)
                 if self.rules.distance != "3d" else None)
        linked = {frozenset((link.unit, w)) for link in self.links for w in range(n)}
        for u in range(n):
            for v in range(u + 1, n):
                if close is not None and not close[u, v] and frozenset((u, v)) not in linked:
                    continue
                if self.in_combat(u, v):
                    out[u].append(v)
                    out[v].append(u)
        return out

    # --- objectives ------------------------------------------------------------------------
    def objective(self, k: int, held_by: str | None | type[FROM_SCENE] = FROM_SCENE,
                  bonus: list[float] | None = None) -> Control:
        """Who controls objective k; `held_by` is who held it before (sticky control), by
        default the scene's `controlled_by`; `bonus`: what the ruleset adds to each unit's
        control score."""
        o = self.scene.objectives[k]
        rule = self.rules.objectives
        units = self.scene.units
        return control(self.table, o.x, o.y, rule.rule, rule.range, rule.marker_mm,
                       [u.side for u in units],
                       [float(u.stats.get("control", 1)) if not isinstance(
                           u.stats.get("control", 1), str) else 1.0 for u in units],
                       home=self.scene.tie_side(o),
                       held_by=o.controlled_by if held_by is FROM_SCENE else held_by,
                       sticky=rule.sticky, unit_bonus=bonus)

    # --- reports ---------------------------------------------------------------------------
    def check_report(self) -> dict[str, Any]:
        """Everything `battlefield check` reports, JSON-ready."""
        scene = self.scene
        units: dict[str, Any] = {}
        for u, spec in enumerate(scene.units):
            coh = self.coherency(u)
            units[spec.id] = {
                "side": spec.side,
                "models": len(self.table.unit_models[u]),
                "coherent": coh.coherent,
                "coherency_breaks": [self.names[m] for m in coh.breaks],
                "coherency_reasons": {self.names[m]: why for m, why in coh.reasons.items()},
                "in_combat_with": [scene.units[v].id for v in self.combat[u]],
            }
        objectives: dict[str, Any] = {}
        for k, o in enumerate(scene.objectives):
            c = self.objective(k)
            objectives[o.id] = {
                "at": [o.x, o.y],
                "controlled_by": c.controlled_by,
                "totals": {s: _r(v) for s, v in c.totals.items()},
                "contested_by": [scene.units[u].id for side in c.units for u in c.units[side]],
                **({"home": home} if (home := scene.tie_side(o)) else {}),
            }
        pairs = []
        for u, a in enumerate(scene.units):
            for v, b in enumerate(scene.units):
                if a.side == b.side or not (self.on_table(u) and self.on_table(v)):
                    continue
                p = self.pair(u, v)
                pairs.append({
                    "a": a.id, "b": b.id, "distance": _r(p.distance),
                    "distance_3d": _r(p.distance_3d), "visible": p.visible,
                    "in_combat": v in self.combat[u],
                    **({"through": self.table.layout.pieces[k].id}
                       if v in self.combat[u] and (k := self.through(u, v)) is not None
                       else {}),
                    "closest_models": [self.names[p.closest.models[0]],
                                       self.names[p.closest.models[1]]],
                    "blocked_by": p.blocked_by,
                })
        return {"scene": scene.file, "ruleset": self.rules.id,
                "board": {"width": scene.width, "depth": scene.depth},
                "combat": combat_rule(self.rules),
                "units": units, "objectives": objectives, "pairs": pairs}

    def measure_report(self, a_ref: str, b_ref: str) -> dict[str, Any]:
        """Everything `battlefield measure A B` reports, JSON-ready: A looking at B."""
        ua, ma = self.resolve(a_ref)
        ub, mb = self.resolve(b_ref)
        if ma is None and mb is None:
            if ua == ub:
                raise UsageError(f"{self.scene.file}: measure a unit against another, "
                                 f"not '{a_ref}' against itself")
            p = self.pair(ua, ub)
            combat = self.in_combat(ua, ub)
        else:
            t = self.table
            ia = np.array([ma]) if ma is not None else t.unit_models[ua]
            ib = np.array([mb]) if mb is not None else t.unit_models[ub]
            if ma is not None and mb is not None:
                if ma == mb:
                    raise UsageError(f"{self.scene.file}: '{a_ref}' is the same model twice")
                p = self.model_pair(ma, mb)
            else:
                near = self.closest(ia, ib)
                own = t.unit_models[ua]
                sight = self.sight._group_visibility(ia, own, ib)
                p = Pair(near.distance, near.distance_3d, sight.visible, near,
                         self.blockers(sight))
            combat = ua != ub and self.in_combat(ua, ub)
        names = self.names
        rng = self.rules.combat_range
        return {
            "a": a_ref, "b": b_ref,
            "distance": _r(p.distance), "distance_3d": _r(p.distance_3d),
            "visible": p.visible,
            "points": {"a": [_r(v) for v in p.closest.a], "b": [_r(v) for v in p.closest.b]},
            "closest_models": [names[p.closest.models[0]], names[p.closest.models[1]]],
            "blocked_by": p.blocked_by,
            "within_combat_range": p.distance <= rng + EPS,
            "combat_range": rng,
            "in_combat": combat,
        }


__all__ = ["Referee", "Pair", "STATUS", "TerrainCombat"]


@dataclass(frozen=True)
class LiveCheck:
    """What the view shows while a unit is dragged: the rulings that change with its place."""

    unit: int
    distances: dict[int, float]          # enemy unit -> distance
    in_combat_range: list[int]           # enemy units within combat range
    coherency: CoherencyResult
    objectives: dict[int, bool]          # objective -> some model of the unit in its zone
    visible: dict[int, bool]             # enemy unit -> the units see each other


def live_check(referee: Referee, u: int) -> LiveCheck:
    """The per-frame rulings for unit u where it stands in referee.table."""
    t = referee.table
    units = referee.scene.units
    side = units[u].side
    enemies = [v for v in range(len(units))
               if units[v].side != side and referee.on_table(v)]
    mine = t.unit_models[u]
    dist: dict[int, float] = {}
    if enemies:
        cols = np.concatenate([t.unit_models[v] for v in enemies])
        d = t.distances(mine, cols).min(axis=0)
        start = 0
        for v in enemies:
            n = len(t.unit_models[v])
            dist[v] = float(d[start:start + n].min())
            start += n
    rng = referee.rules.combat_range
    rule = referee.rules.objectives

    zone = rule.range + rule.marker_mm / MM_PER_INCH / 2
    objectives = {}
    for k, o in enumerate(referee.scene.objectives):
        pd = point_distances(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin, mine, o.x, o.y)
        objectives[k] = bool((pd <= zone + EPS).any())
    # in combat as Referee.in_combat rules it (3-D, sight where the ruleset wants them); the
    # horizontal distance, never more than the 3-D one, is the cheap first sieve
    near = [v for v in enemies if (dist[v] <= rng + EPS or referee.through(u, v) is not None)
            and referee.in_combat(u, v)]
    return LiveCheck(u, dist, near,
                     referee.coherency(u), objectives,
                     {v: referee.sight.unit_sees(u, v) for v in enemies})
