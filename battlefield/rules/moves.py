"""What every ruleset's moves share: violations with their numbers, finding the acting unit,
turning an action's `path` (where the unit's leader goes, the others keep formation) or `paths`
(one per model, 1-based) into each model's path from where it stands, and the one move check
(`check_move`) every ruleset's moves, runs, charges, retreats, pile-ins and disengages go
through: how far each model goes against its allowance, what no path may cross, where no model
may end (off the board, in impassable terrain, on another model, half on a piece, out of
coherency), the enemy ranges a move may not pass through or end in (`Keep`), where it must
arrive (`Arrive`) and what it must not go further from (`closer`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely

from battlefield.geometry.bases import footprint
from battlefield.geometry.paths import Terrain, edge_arrays, segments_free
from battlefield.geometry.separation import signed_distance_matrix
from battlefield.geometry.table import Table
from battlefield.geometry.terrain import Layout
from battlefield.names import after
from battlefield.rules.actions import Action, Violation
from battlefield.rules.ranges import Arrive, Keep, arrived, kept, no_further
from battlefield.rules.refusals import ModelNames, about, v
from battlefield.rules.state import State
from battlefield.rulings import Referee

EPS = 1e-6


def find_unit(state: State, action: Action) -> tuple[int, Violation | None]:
    """The action's unit, or why there is none to act: no "unit", unknown id, destroyed."""
    if action.unit is None:
        return -1, v("no_unit", f"{action.type} needs a \"unit\"")
    try:
        u = state.unit_index(action.unit)
    except KeyError:
        ids = ", ".join(s.id for s in state.scene.units)
        near = after(action.unit, (s.id for s in state.scene.units))
        return -1, v("unknown_unit", f"no unit '{action.unit}' (units: {ids}){near}")
    if not len(state.models_of(u)):
        return u, v("destroyed", f"{action.unit} has been destroyed")
    return u, None


def leader(state: State, u: int) -> int:
    """The unit's leader model, or its first model still standing when the leader has gone."""
    return state.scene.leader_model(u, state.table)


@dataclass
class Moves:
    """The models that move, each one's path (starting where the model stands) and, when the
    move turns them, the facing each ends with: a move is a pose (x, y, facing)."""

    models: np.ndarray
    paths: list[np.ndarray]
    rigid: bool = True                 # the whole unit moves as one block (`path`)
    facings: np.ndarray | None = None  # degrees per moving model at the end (None: unturned)

    def ends(self) -> np.ndarray:
        return np.array([p[-1] for p in self.paths]).reshape(-1, 2)

    def placed(self, table: Table) -> Table:
        """The table with the moving models at their end poses."""
        ends = self.ends()
        return table.moved(self.models, ends[:, 0], ends[:, 1], facing=self.facings)


def planned(state: State, u: int, action: Action) -> Moves | Violation:
    """The path of each moving model of unit u for a move action."""
    t = state.table
    unit = state.scene.units[u]
    on = set(int(m) for m in state.models_of(u))
    first = state.scene.model_offsets()[u]
    if action.paths:
        models, paths = [], []
        for n, pts in action.paths:
            m = first + n - 1
            if n > len(unit.models) or m not in on:
                return v("unknown_model", f"{unit.id} has no model {n} on the table")
            models.append(m)
            paths.append(starting_at(t, m, np.asarray(pts, dtype=np.float64)))
        facings = (np.full(len(models), action.facing) if action.facing is not None else None)
        return Moves(np.asarray(models, dtype=np.int64), paths, rigid=False, facings=facings)
    if action.path:
        ref = leader(state, u)
        pts = starting_at(t, ref, np.asarray(action.path, dtype=np.float64))
        moves = translated(state, u, pts - pts[0])
        return turned(state, moves, ref, action.facing) if action.facing is not None else moves
    return v("no_path", f"{action.type} needs a \"path\" (where the unit's leader goes) or "
                        f"\"paths\" (one per model)", choose="path")


def translated(state: State, u: int, offsets: np.ndarray) -> Moves:
    """Every model of unit u follows the same offsets (a block move)."""
    t = state.table
    models = np.array(sorted(int(m) for m in state.models_of(u)), dtype=np.int64)
    return Moves(models, [offsets + [t.x[m], t.y[m]] for m in models])


def turned(state: State, moves: Moves, ref: int, facing: float) -> Moves:
    """A block move that ends turned to `facing`: the leader (ref) ends facing it and the
    formation turns with it about the leader's end point; each other model's path ends with
    the swing to its turned place."""
    t = state.table
    turn = math.radians(facing - float(t.facing[ref]))
    c, s = math.cos(turn), math.sin(turn)
    k = int(np.nonzero(moves.models == ref)[0][0])
    pivot = moves.paths[k][-1]
    paths = []
    for path in moves.paths:
        dx, dy = path[-1] - pivot
        end = pivot + np.array([dx * c - dy * s, dx * s + dy * c])
        paths.append(path if np.hypot(*(end - path[-1])) <= EPS else np.vstack([path, end]))
    facings = (t.facing[moves.models] + math.degrees(turn)) % 360.0
    return Moves(moves.models, paths, moves.rigid, facings)


def starting_at(t: Table, m: int, pts: np.ndarray) -> np.ndarray:
    """The path from where model m stands (prepended when the path starts elsewhere)."""
    start = np.array([t.x[m], t.y[m]])
    if np.hypot(*(pts[0] - start)) > EPS:
        pts = np.vstack([start, pts])
    return pts


OVERLAP = 0.01        # bases may touch; more overlap than this is "on another model"


def end_problems(state: State, moves: Moves, after: Table) -> list[Violation]:
    """Where moved models may not end, in every ruleset: off the board, in impassable terrain,
    on another model's base (models at different heights - one on a piece - do not collide)."""
    names = ModelNames(state)
    layout = after.layout
    out = []
    impassable = layout.pieces_with("impassable")
    for m in moves.models:
        edge = after.outline(int(m), 64)
        (x0, y0), (x1, y1) = edge.min(axis=0), edge.max(axis=0)
        if x0 < -EPS or y0 < -EPS or x1 > after.width + EPS or y1 > after.depth + EPS:
            out.append(v("off_board", f"{names[m]} ends off the board", **about(state, m)))
        for k in impassable:
            bx0, by0, bx1, by1 = layout.bboxes[k]
            if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
                continue                        # apart: nothing in common
            if shapely.Polygon(edge).intersection(layout.polygons[k]).area > 1e-4:
                out.append(v("in_impassable", f"{names[m]} ends in impassable terrain "
                                              f"{layout.pieces[k].id}", **about(state, m)))
    on = np.nonzero(after.on_table)[0].astype(np.int64)
    d = signed_distance_matrix(after.x, after.y, after.shape, after.a, after.b, after.cos,
                               after.sin, moves.models, on)
    moving = set(int(m) for m in moves.models)
    for i, j in zip(*np.nonzero(d < -OVERLAP), strict=True):   # overlapping pairs, in order
        m, o = moves.models[i], on[j]
        if o == m:
            continue
        if abs(after.z[m] - after.z[o]) >= min(after.height[m], after.height[o]):
            continue
        if int(o) in moving and o < m:
            continue                           # reported once per pair
        out.append(v("on_another_model", f"{names[m]} ends on {names[o]} (bases overlap "
                                          f"{-d[i, j]:.2f}\")", overlap=-d[i, j],
                     **about(state, m, o)))
    return out


def off_board_on_the_way(state: State, moves: Moves) -> list[Violation]:
    """"Models cannot move beyond the edge of the battlefield": no part of a base leaves the
    board at any point of its path. The board is convex and a base keeps its facing along a
    path, so this holds for a whole segment when it holds at both its ends: each corner of the
    path is tested with the base as it faces there (the end pose is end_problems')."""
    names = ModelNames(state)
    t = state.table
    out = []
    for m, path in zip(moves.models, moves.paths, strict=True):
        if len(path) < 3:
            continue                              # start and end only: both on the board
        edge = t.outline(int(m), 64) - [t.x[m], t.y[m]]
        (x0, y0), (x1, y1) = edge.min(axis=0), edge.max(axis=0)
        inner = path[1:-1]
        off = ((inner[:, 0] + x0 < -EPS) | (inner[:, 1] + y0 < -EPS)
               | (inner[:, 0] + x1 > t.width + EPS) | (inner[:, 1] + y1 > t.depth + EPS))
        if off.any():
            x, y = inner[int(np.argmax(off))]
            out.append(v("off_board", f"{names[m]} would leave the board at ({x:.2f}, {y:.2f})",
                         x=float(x), y=float(y), **about(state, m)))
    return out


# --- moving through things -----------------------------------------------------------------------
@dataclass(frozen=True)
class Obstacle:
    """Something a moving model's centre may not cross: a base or a piece of terrain grown by
    the model's clearance, with its name, what it is in words, and its edges for the kernel."""

    shape: shapely.Polygon
    name: str
    kind: str                                   # "impassable terrain", "the model"
    edges: tuple[np.ndarray, np.ndarray, np.ndarray]


def obstacle(shape: shapely.Polygon, name: str, kind: str) -> Obstacle:
    return Obstacle(shape, name, kind, edge_arrays([shape]))


def _joined(found: Sequence[Obstacle]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The edge arrays of several obstacles, as edge_arrays gives them for all at once."""
    edges = [o.edges[0] for o in found]
    start = np.zeros(len(found) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(e) for e in edges])
    return (np.concatenate(edges), start, np.concatenate([o.edges[2] for o in found]))


def crossed(state: State, moves: Moves,
            near: Callable[[int, tuple[float, float, float, float]], Sequence[Obstacle]]
            ) -> list[Violation]:
    """Every ruleset's check that no model's path crosses what the ruleset says it may not
    (`near(m, box)`: the obstacles near the path's box): one violation per model, naming the
    first thing its path goes through."""
    names = state.scene.model_names
    index = {n: i for i, n in enumerate(names)}
    out = []
    for m, path in zip(moves.models, moves.paths, strict=True):
        if len(path) < 2:
            continue
        (x0, y0), (x1, y1) = path.min(axis=0), path.max(axis=0)
        found = near(int(m), (float(x0), float(y0), float(x1), float(y1)))
        if not found:
            continue
        ok = segments_free(np.ascontiguousarray(path[:-1]), np.ascontiguousarray(path[1:]),
                           *_joined(found))
        if ok.all():
            continue
        line = shapely.LineString(path)
        hit = next((o for o in found if line.intersects(o.shape)), None)
        what = f"{hit.kind} {hit.name}" if hit is not None else "an obstacle"
        other = (index[hit.name],) if hit is not None and hit.name in index else ()
        out.append(v("moves_through", f"{names[m]} moves through {what}",
                     **about(state, m, *other)))
    return out


# --- climbing ----------------------------------------------------------------------------------
@dataclass
class Climb:
    """What a path asks of a mover: horizontal length, height climbed, each drop on the way.
    A drop of `big` inches or more is one the ruleset lets a mover climb down (counted) or
    jump (free, with its risk): skirmish's dangerous drop, warband's fall."""

    horizontal: float
    up: float
    drops: list[float] = field(default_factory=list)
    big: float = math.inf

    def cost(self, climb_down: bool) -> float:
        """Inches spent: horizontal + climbing (+ the big drops when climbing down)."""
        down = sum(d for d in self.drops if d >= self.big - EPS)
        return self.horizontal + self.up + (down if climb_down else 0.0)

    @property
    def big_drop(self) -> bool:
        return any(d >= self.big - EPS for d in self.drops)


def climb(ter: Terrain, path: np.ndarray, big: float = math.inf) -> Climb:
    """Horizontal length, height climbed onto the pieces `ter` climbs, and each drop off one."""
    pts = np.asarray(path, dtype=np.float64)
    horizontal = float(np.hypot(*np.diff(pts, axis=0).T).sum()) if len(pts) > 1 else 0.0
    if not ter.climbable or len(pts) < 2 or horizontal < EPS or not ter.climbs_near(pts):
        return Climb(horizontal, 0.0, [], big)
    up, drops, prev = 0.0, [], ter.ground(*pts[0])
    for _, h in ter.profile(shapely.LineString(pts)):
        if h > prev + EPS:
            up += h - prev
        elif h < prev - EPS:
            drops.append(prev - h)
        prev = h
    return Climb(horizontal, up, drops, big)


# --- the one move check ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """What a model's path costs: the inches it spends, of which climbing, and whether it takes
    a risk doing so (skirmish's dangerous drop, warband's fall: the ruleset rolls for it)."""

    spent: float
    climbed: float = 0.0
    risky: bool = False


Cost = Callable[[int, np.ndarray], Step]
Near = Callable[[int, tuple[float, float, float, float]], Sequence["Obstacle"]]


@dataclass
class MoveCheck:
    """A move checked: its problems (empty: legal), the models and paths (None: no plan), the
    table with the moved models where they end, what each moving model spends (table index ->
    inches), and the models that take their path's risk (Step.risky)."""

    problems: list[Violation]
    moves: Moves | None
    after: Table
    spent: dict[int, float] = field(default_factory=dict)
    risky: list[int] = field(default_factory=list)

    @property
    def longest(self) -> float:
        """The most any model spends (0 when none moves)."""
        return max(self.spent.values(), default=0.0)


def flat(state: State, u: int) -> Cost:
    """What a path costs by the ruleset's own measure (Ruleset.move_cost), without risk."""
    def cost(m: int, path: np.ndarray) -> Step:
        spent, climbed = state.rules.move_cost(state, u, m, path)
        return Step(spent, climbed)
    return cost


def check_move(state: State, u: int, action: Action | Moves,
               allowance: float | Callable[[int], float] | None, *,
               cost: Cost | None = None, straight: bool = False,
               through: Near | None = None, ends: bool = True,
               straddle: float | None = None, coherency: str | None = None,
               keep: Sequence[Keep] = (), arrive: Arrive | None = None,
               closer: Sequence[int] = (), too_far: str = "move_too_far") -> MoveCheck:
    """Unit u's move (an action's `path`/`paths`, or the Moves a ruleset planned) as every
    ruleset checks it, each part a parameter:

    - `allowance`: how far each model may go (a number, per model m a function, or None: no
      limit); `cost(m, path)`: what a path spends (default: the ruleset's move_cost). The
      model furthest past its allowance is refused (`too_far`, default move_too_far);
      `straight`: each path is a straight line (openwg's charge).
    - `through(m, box)`: what no path may cross near its box (moves.through; None: nothing).
    - where the models end: with `ends`, on the board (and on it all the way:
      off_board_on_the_way), out of impassable terrain, on no other model (end_problems);
      `straddle`: not half on a piece at least this tall (area and
      impassable terrain aside); `coherency` "always" or "kept" (a move of the whole unit may
      leave it no less coherent than it was): the unit ends coherent.
    Then, only when all of that holds, the rules of where a move goes:
    - `keep`: enemy ranges it may not pass through or end in (Keep), in order;
    - `arrive`: where it must end (Arrive);
    - `closer`: units no moved model may end further from than it started (a pile-in).
    """
    moves = planned(state, u, action) if isinstance(action, Action) else action
    if isinstance(moves, Violation):
        return MoveCheck([moves], None, state.table)
    cost = cost or flat(state, u)
    out, spent, risky = _lengths(state, moves, allowance, cost, too_far)
    if straight:
        out.extend(_straight(state, moves))
    if through is not None:
        out.extend(crossed(state, moves, through))
    after = moves.placed(state.table)
    if ends:
        out.extend(off_board_on_the_way(state, moves))
        out.extend(end_problems(state, moves, after))
    if straddle is not None:
        out.extend(straddling(state, moves, after, straddle))
    if coherency is not None:
        out.extend(_coherent(state, u, moves, after, coherency == "kept"))
    if not out:
        for k in keep:
            out.extend(kept(state, u, moves, after, k))
        if arrive is not None:
            out.extend(arrived(state, u, after, arrive))
        if closer:
            out.extend(no_further(state, moves, after, closer))
    return MoveCheck(out, moves, after, spent, risky)


def _lengths(state: State, moves: Moves, allowance: float | Callable[[int], float] | None,
             cost: Cost, code: str) -> tuple[list[Violation], dict[int, float], list[int]]:
    """(the model furthest past its allowance, refused; what each spends; the risky ones)."""
    names = ModelNames(state)
    spent: dict[int, float] = {}
    risky: list[int] = []
    worst: tuple[float, Violation] | None = None
    for m, path in zip(moves.models, moves.paths, strict=True):
        step = cost(int(m), path)
        spent[int(m)] = step.spent
        if step.risky:
            risky.append(int(m))
        most = allowance(int(m)) if callable(allowance) else allowance
        if most is None or step.spent <= most + EPS:
            continue
        over = step.spent - most
        if worst is None or over > worst[0]:
            climb = f" (climbing {step.climbed:.2f}\")" if step.climbed > EPS else ""
            went = _beyond(step.spent, most)
            worst = (over, v(code, f"{names[m]} moves {went}\"{climb}, more than "
                                   f"{round(most, 2):g}\"", moved=step.spent, allowed=most,
                             **about(state, m)))
    return ([worst[1]] if worst else []), spent, risky


def _straight(state: State, moves: Moves) -> list[Violation]:
    """Each path a straight line: no point of it strays more than 0.01" off the line from its
    start to its end."""
    names = ModelNames(state)
    out = []
    for m, path in zip(moves.models, moves.paths, strict=True):
        if len(path) <= 2:
            continue
        d = path[-1] - path[0]
        n = float(np.hypot(*d))
        q = path - path[0]
        off = np.abs(d[0] * q[:, 1] - d[1] * q[:, 0]) / n if n > EPS else np.hypot(*q.T)
        if float(off.max()) > 0.01:
            out.append(v("not_straight", f"{names[m]} does not go in a straight line (strays "
                                         f"{float(off.max()):.2f}\")", off=float(off.max()),
                         **about(state, m)))
    return out


def straddling(state: State, moves: Moves, after: Table, tall: float) -> list[Violation]:
    """A model stands on the ground or wholly on a piece's top, never half on a piece at least
    `tall` high (area and impassable terrain aside)."""
    names = ModelNames(state)
    out = []
    for m in moves.models:
        k = half_on(after, int(m), tall)
        if k is not None:
            p = after.layout.pieces[k]
            out.append(v("straddles_terrain", f"{names[m]} ends half on {p.id} "
                                              f"({p.height:g}\" tall)", **about(state, m)))
    return out


def half_on(after: Table, m: int, tall: float) -> int | None:
    """The piece at least `tall` high (area and impassable terrain aside) that model m stands
    half on where `after` has it, or None (what `straddling` refuses; the charge odds ask it of
    the end of a path)."""
    return half_on_at(after.layout, int(after.shape[m]), float(after.a[m]), float(after.b[m]),
                      float(after.x[m]), float(after.y[m]), float(after.facing[m]),
                      float(after.reach[m]), tall)


def half_on_at(layout: Layout, shape: int, a: float, b: float, x: float, y: float,
               facing: float, reach: float, tall: float) -> int | None:
    """half_on of a base (shape, a, b, facing; `reach` its centre's furthest point) standing
    at (x, y), without a table: the charge odds ask it of many places along one way in."""
    x0, y0, x1, y1 = x - reach, y - reach, x + reach, y + reach   # the base's box
    foot = None
    for k, bx0, by0, bx1, by1, edge in _tall_pieces(layout, tall):
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue                        # apart: none of it on the piece
        if _clear_of(edge, x, y, reach):
            continue                        # no edge of the piece within reach: wholly in or out
        foot = foot if foot is not None else footprint(shape, a, b, x, y, facing, 64)
        part = foot.intersection(layout.polygons[k]).area
        if 1e-4 < part < foot.area - 1e-4:
            return k
    return None


def _tall_pieces(layout: Layout, tall: float) -> list[tuple]:
    """The pieces half_on asks about (at least `tall` high, area and impassable aside), each
    (index, its box, its edges as (x0, y0, x1, y1)), once per layout."""
    def make() -> list[tuple]:
        out = []
        for k, p in enumerate(layout.pieces):
            if p.kind in ("area", "impassable") or p.height < tall:
                continue
            edges = layout.edges[layout.edge_start[k]:layout.edge_start[k + 1]]
            out.append((k, *(float(v) for v in layout.bboxes[k]),
                        tuple(tuple(float(c) for c in e) for e in edges)))
        return out
    return layout.memo(("half-on-pieces", tall), make)


def _clear_of(edges: tuple[tuple[float, float, float, float], ...], x: float, y: float,
              reach: float) -> bool:
    """No edge (x0, y0, x1, y1) comes within `reach` (and a hair more) of (x, y): a base
    drawn within that circle is wholly inside the piece or wholly outside it. (A few edges
    a piece: plain arithmetic is quicker than arrays here.)"""
    most = (reach + 1e-6) ** 2
    for x0, y0, x1, y1 in edges:
        dx, dy, px, py = x1 - x0, y1 - y0, x - x0, y - y0
        ll = dx * dx + dy * dy
        t = min(1.0, max(0.0, (px * dx + py * dy) / ll)) if ll > 0 else 0.0
        ex, ey = px - t * dx, py - t * dy
        if ex * ex + ey * ey <= most:
            return False
    return True


def coherent_now(state: State, u: int) -> bool:
    """Unit u is coherent where it stands (asked once per table: every candidate move asks)."""
    scene = state.scene
    _, coherent = state.table.memo(("coherent-now", id(scene), u), lambda: (
        scene, Referee(scene, state.table).coherency(u).coherent))
    return coherent


def _coherent(state: State, u: int, moves: Moves, after: Table, kept: bool
              ) -> list[Violation]:
    coh = Referee(state.scene, after).coherency(u)
    if coh.coherent or (kept and moves.rigid and not coherent_now(state, u)):
        return []
    names = ModelNames(state)
    why = "; ".join(f"{names[m]} {r}" for m, r in coh.reasons.items())
    return [v("coherency", f"the unit ends out of coherency: {why}",
              **about(state, *coh.reasons))]


def _beyond(spent: float, most: float) -> str:
    """`spent` in as few decimals (2 to 4) as show it past `most`: a move 0.004" too long reads
    'moves 5.004", more than 5"', not 'moves 5.00", more than 5"'."""
    for d in (2, 3):
        text = f"{spent:.{d}f}"
        if float(text) > most:
            return text
    return f"{spent:.4f}"


__all__ = ["OVERLAP", "Arrive", "Climb", "Cost", "Keep", "ModelNames", "MoveCheck", "Moves",
           "Obstacle", "Step", "about", "check_move", "climb", "crossed", "end_problems",
           "find_unit", "leader", "obstacle", "off_board_on_the_way", "planned",
           "starting_at", "straddling", "translated", "turned", "v"]
