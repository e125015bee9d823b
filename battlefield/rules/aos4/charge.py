"""How far a charge needs to go, and its odds (aos4, RULES-NOTES).

The distance needed is the length of the shortest legal path - around impassable terrain and
other models, climbing terrain taller than 1" counted wherever any part of the base goes over
it, as play measures the path (movement.used) - that brings a model of the charging unit
within 1/2" of a model of the target unit that it can see from there. The charge succeeds when
2D6 reaches it; Forward to Victory re-rolls a roll that falls short: 1 - (1 - p)^2. The odds
enumerate the same procedure play rolls (rolls.charge_roll). FLY ignores terrain and models.
Paths are searched within DETOUR inches of the box round both units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import shapely

from battlefield.geometry.paths import Obstacle, Planner, Terrain
from battlefield.geometry.separation import separations_from
from battlefield.geometry.sight import SightModel
from battlefield.rules import adjust
from battlefield.rules.aos4 import passives, rolls
from battlefield.rules.aos4.data import Book, book
from battlefield.rules.aos4.movement import JUMP_LANDING, grown_base, used
from battlefield.rules.aos4.rolls import charge_chance
from battlefield.rules.moves import half_on, half_on_at
from battlefield.rules.standing import referee
from battlefield.rules.state import State

DETOUR = 6.0
TOUCH = 1e-3      # the gap a charge's end moved on towards its target stops short by
EPS = 1e-6
PLAN_SIDES = 24   # sides of the polygons round other models when planning (checks use more)


@dataclass
class ChargeOdds:
    needed: float | None
    probability: float
    probability_reroll: float
    model: int | None = None                  # the charging model that gets there first
    target_model: int | None = None
    path: list[tuple[float, float]] = field(default_factory=list)
    reason: str = ""
    onto: int | None = None                   # a charge onto this terrain piece instead


BY_HAND = "by hand"          # the name an adjustment's modifier goes by in a roll's event


def roll_of(book: Book, view: passives.Table, u: int) -> tuple[str, int, list[str]]:
    """Unit u's charge roll: its dice (2D6, or more or fewer by abilities), what the abilities
    in play add to it, and their names (passives.roll_bonus, passives.charge_dice; `view`: a
    passives.Table)."""
    dice = passives.charge_dice(view, u, book.core.charge.roll)
    bonus, names = passives.roll_bonus(view, u, "charge")
    return dice, bonus, names


def charge_roll_of(state: State, u: int) -> tuple[str, int, list[str]]:
    """Unit u's charge roll now: its dice, what abilities add, their names (charge.roll_of),
    and a modifier an adjustment left on its next charge roll ("by hand": the roll uses it
    up, by_hand_used)."""
    hand = adjust.next_modifier(state, u, "charge", use=False)
    more = [BY_HAND] if hand else []
    if not (passives.concerns(state, u, "modify", "charge")
            or passives.concerns(state, u, "modify", "charge_dice")):
        return book(state).core.charge.roll, hand, more
    dice, bonus, names = roll_of(book(state), passives.in_play(state, referee(state)), u)
    return dice, bonus + hand, names + more


def by_hand_used(state: State, u: int, roll: str) -> None:
    """The charge or run roll is made: the adjustment's modifier on it is used up."""
    adjust.next_modifier(state, u, roll)


def longest_charge(state: State, u: int) -> float:
    """The longest charge unit u's roll can give (12" for 2D6; abilities' modifiers and dice
    change it)."""
    dice, bonus, _ = charge_roll_of(state, u)
    if dice == book(state).core.charge.roll and not bonus:
        return book(state).max_charge
    return max(0, rolls.most(dice) + bonus)


def charge_odds(book: Book, referee, u: int, v: int, within: float | None = None,
                view: passives.Table | None = None) -> ChargeOdds:
    """Odds that unit u's charge reaches unit v from where the models stand in referee.table
    (with the numbers of the aos4 `book`), the charge roll with what abilities add to it
    (`view`: a passives.Table, by default the odds' own: no flags, no damage).
    `within` (a computer player's question): charges needing up to that many inches are found
    exactly; a longer one may come back longer than it is, or as no path."""
    units = referee.scene.units
    if units[u].side == units[v].side:
        return ChargeOdds(None, 0.0, 0.0, reason=f"{units[v].id} is not an enemy unit")
    if referee.combat[u]:
        other = units[referee.combat[u][0]].id
        return ChargeOdds(None, 0.0, 0.0, reason=f"{units[u].id} is already in combat ({other})")
    best = shortest_charge(book, referee, u, v, within)
    if best is None:
        best = charge_onto(book, referee, u, v, within)
    if best is None:
        return ChargeOdds(None, 0.0, 0.0, reason="no legal path reaches a visible model")
    dice, bonus, _ = roll_of(book, view or passives.in_odds(referee), u)
    best.probability = float(charge_chance(dice, best.needed - bonus, False))
    best.probability_reroll = float(charge_chance(dice, best.needed - bonus, True))
    return best


def planner(book: Book, referee, u: int, box: tuple[float, float, float, float],
            within: float | None = None, goal: tuple[np.ndarray, np.ndarray, float] | None = None
            ) -> Planner:
    """The path planner of unit u's charge round the other models and the terrain, in the
    region `box` grown by DETOUR; `within` with `goal` (the goal's points, their reach, the
    slack at the end): corners no path of `within` inches or less to the goal turns at are
    left out."""
    table = referee.table
    movers = table.unit_models[u]
    fly = referee.scene.units[u].has("FLY")
    clearance = float(min(np.minimum(table.a[movers], table.b[movers])))
    region = (box[0] - DETOUR, box[1] - DETOUR, box[2] + DETOUR, box[3] + DETOUR)
    own = set(int(i) for i in movers)
    obstacles = [table.memo(("aos4-plan-base", int(o), clearance), lambda o=int(o): Obstacle(
                     grown_base(table, o, clearance, PLAN_SIDES), referee.names[o]))
                 for o in np.nonzero(table.on_table)[0] if int(o) not in own]
    terrain = Terrain(table.layout, book.climb_free, JUMP_LANDING, clearance)
    plan = Planner(terrain, obstacles, clearance, fly=fly, region=region)
    if within is not None and goal is not None:
        # A path through corner p is at least as long as the way to p from the nearest start
        # plus what is left to the nearest goal point once the reaches and the slack are
        # taken off: corners beyond `within` by that count serve no such charge.
        sx, sy = table.x[movers], table.y[movers]
        points, reaches, slack = goal
        tx, ty = points[:, 0], points[:, 1]

        def useful(pts: np.ndarray) -> np.ndarray:
            x, y = pts[:, 0:1], pts[:, 1:2]
            there = np.hypot(x - sx, y - sy).min(axis=1)
            left = np.maximum(0.0, (np.hypot(x - tx, y - ty) - reaches).min(axis=1) - slack)
            return there + left <= within + 1e-6

        plan.keep(useful)
    return plan


def _box(table, models: np.ndarray) -> tuple[float, float, float, float]:
    r = table.reach[models]
    return (float((table.x[models] - r).min()), float((table.y[models] - r).min()),
            float((table.x[models] + r).max()), float((table.y[models] + r).max()))


def charge_onto(book: Book, referee, u: int, v: int, within: float | None = None
                ) -> ChargeOdds | None:
    """When unit v stands wholly on a terrain piece and no model of u has room to end a charge
    within 1/2" of a model of it that it sees (room_beside): the shortest charge onto that
    piece instead ("Charging Units on Terrain": onto_terrain), else None."""
    layout = referee.table.layout
    pieces = [k for k, p in enumerate(layout.pieces)
              if p.kind != "impassable" and referee.wholly_on(v, k)]
    if not pieces or room_beside(book, referee, u, v):
        return None
    found = [got for k in pieces if (got := shortest_onto(book, referee, u, k, within))]
    return min(found, key=lambda c: c.needed or 0.0) if found else None


ROOM_ANGLES = 36                 # where room_beside looks round each model: every 10 degrees
ROOM_GAPS = (TOUCH, 0.25, 0.5 - TOUCH)   # ... and this far from its base (within 1/2")


def room_beside(book: Book, referee, u: int, v: int) -> bool:
    """Whether a model of unit u has room to end a charge within 1/2" of unit v wherever the
    way there is: a place, on the board, on no other model, out of impassable terrain and not
    half on a piece taller than 1", within 1/2" of a model of v that it sees from there (looked
    for every 10 degrees round each model of v, touching it, 1/4" and 1/2" away; bases taken as
    round at their longest radius). No room is "impossible ... due to space constraints"
    (onto_terrain); how far the place is, is the roll's business."""
    table = referee.table
    movers, targets = table.unit_models[u], table.unit_models[v]
    if not len(movers) or not len(targets):
        return False
    m = int(movers[np.argmin(table.reach[movers])])      # the smallest base fits best
    rm = float(table.reach[m])
    others = np.array([o for o in np.nonzero(table.on_table)[0] if int(o) != m], dtype=np.int64)
    angles = np.linspace(0, 2 * math.pi, ROOM_ANGLES, endpoint=False)
    layout = table.layout
    blocked = [layout.polygons[k] for k, p in enumerate(layout.pieces) if p.kind == "impassable"]
    tall = book.climb_free + EPS
    for t in targets:
        t = int(t)
        for gap in ROOM_GAPS:
            d = float(table.reach[t]) + rm + gap
            x = table.x[t] + d * np.cos(angles)
            y = table.y[t] + d * np.sin(angles)
            ok = (x - rm >= -EPS) & (y - rm >= -EPS) & (x + rm <= referee.scene.width + EPS) \
                & (y + rm <= referee.scene.depth + EPS)
            if len(others):
                centre = np.hypot(x[:, None] - table.x[others], y[:, None] - table.y[others])
                ok &= (centre >= rm + table.reach[others] - 1e-6).all(axis=1)
            for i in np.nonzero(ok)[0]:
                spot = shapely.Point(float(x[i]), float(y[i])).buffer(rm, 16)
                if any(spot.intersects(poly) for poly in blocked):
                    continue
                moved = table.moved(np.array([m]), np.array([x[i]]), np.array([y[i]]))
                if half_on(moved, m, tall) is not None:
                    continue
                if SightModel(moved).model_visibility(m, t).any:
                    return True
    return False


def shortest_charge(book: Book, referee, u: int, v: int, within: float | None = None
                    ) -> ChargeOdds | None:
    """The shortest legal charge path from any model of u to within 1/2" of a model of v
    that the charging model can see from the end of it. `within`: as charge_odds.
    Searched once per table (the player's odds, the check of its declaration and the roll's
    answer ask the same): each caller gets its own copy."""
    scene = referee.scene
    _, _, found = referee.table.memo(
        ("aos4-shortest-charge", id(scene), id(book), u, v, within),
        lambda: (scene, book, _search(book, referee, u, v, within)))
    return None if found is None else replace(found, path=list(found.path))


def _search(book: Book, referee, u: int, v: int, within: float | None) -> ChargeOdds | None:
    """shortest_charge, searched."""
    table = referee.table
    reach = book.core.charge.reach            # end within 1/2" of the target
    movers = table.unit_models[u]
    targets = table.unit_models[v].astype(np.int64)
    fly = referee.scene.units[u].has("FLY")
    both = np.concatenate([movers, targets])
    slack = float(table.reach[movers].max()) + reach
    planner_ = planner(book, referee, u, _box(table, both), within, (
        np.column_stack([table.x[targets], table.y[targets]]), table.reach[targets], slack))

    tall = book.climb_free + EPS

    def goal_legs(points: np.ndarray, origin: np.ndarray):
        n, k = len(points), len(targets)
        remaining = np.full((n, k), math.inf)
        ends = np.zeros((n, k, 2))
        for o in np.unique(origin):
            m = int(movers[o])
            rows = np.nonzero(origin == o)[0]
            d, th = separations_from(points[rows, 0].copy(), points[rows, 1].copy(),
                                     int(table.shape[m]), table.a[m], table.b[m], table.cos[m],
                                     table.sin[m], table.x, table.y, table.shape, table.a,
                                     table.b, table.cos, table.sin, targets)
            go = np.maximum(0.0, d - reach)
            # "Models cannot end a move mid-climb": an end half on a piece taller than 1" goes
            # on towards the target while still within 1/2" of it (none: no end that way)
            go = _not_half_on(tall, table, m, points[rows], d, th, go)
            remaining[rows] = go
            ends[rows, :, 0] = points[rows, 0, None] + np.where(np.isfinite(go), go, 0) * \
                np.cos(th)
            ends[rows, :, 1] = points[rows, 1, None] + np.where(np.isfinite(go), go, 0) * \
                np.sin(th)
        return remaining, ends

    starts = [(float(table.x[m]), float(table.y[m])) for m in movers]
    routes = planner_.shortest(starts, goal_legs)
    for route in sorted(routes, key=lambda r: r.cost):
        if not math.isfinite(route.cost):
            break
        m = int(movers[route.start])
        end = route.path[-1]
        moved = table.moved(np.array([m]), np.array([end[0]]), np.array([end[1]]))
        if SightModel(moved).model_visibility(m, int(targets[route.goal])).any:
            # The path as play measures it (movement.used: that model's whole base, a jump
            # down at the end): the odds are for the roll the check of this path asks.
            spent = used(book, table, m, np.asarray(route.path, dtype=np.float64), fly)[0]
            return ChargeOdds(round(spent, 6), 0.0, 0.0, m, int(targets[route.goal]),
                              route.path)
    return None



def shortest_onto(book: Book, referee, u: int, k: int, within: float | None = None
                  ) -> ChargeOdds | None:
    """The shortest legal charge path from any model of u to within 1/2" of terrain piece k
    (a charge onto terrain: onto_terrain), the base ending just off the piece; None when
    there is none, or (`within`) every one is longer than that. An oval or rectangular base
    is taken as round at its longest radius."""
    table = referee.table
    reach = book.core.charge.reach
    movers = table.unit_models[u]
    fly = referee.scene.units[u].has("FLY")
    poly = table.layout.polygons[k]
    x0, y0, x1, y1 = table.layout.bboxes[k]
    mx0, my0, mx1, my1 = _box(table, movers)
    planner_ = planner(book, referee, u, (min(mx0, x0), min(my0, y0), max(mx1, x1),
                                          max(my1, y1)))

    def goal_legs(points: np.ndarray, origin: np.ndarray):
        pts = shapely.points(points)
        gap = shapely.distance(pts, poly)
        near = shapely.get_coordinates(shapely.shortest_line(pts, poly)).reshape(-1, 2, 2)[:, 1]
        r = table.reach[movers[origin]]
        go = np.maximum(0.0, gap - r - reach + TOUCH)
        th = np.arctan2(near[:, 1] - points[:, 1], near[:, 0] - points[:, 0])
        ends = np.stack([points[:, 0] + go * np.cos(th), points[:, 1] + go * np.sin(th)], axis=1)
        return go[:, None], ends[:, None, :]

    starts = [(float(table.x[m]), float(table.y[m])) for m in movers]
    (route,) = planner_.shortest(starts, goal_legs)
    if not math.isfinite(route.cost) or (within is not None and route.cost > within + EPS):
        return None
    m = int(movers[route.start])
    spent = used(book, table, m, np.asarray(route.path, dtype=np.float64), fly)[0]
    return ChargeOdds(round(spent, 6), 0.0, 0.0, m, None, route.path, onto=k)


def _not_half_on(tall: float, table, m: int, points: np.ndarray, d: np.ndarray, th: np.ndarray,
                 go: np.ndarray) -> np.ndarray:
    """How far model m goes from each of `points` towards each target (`d` the gaps, `th` the
    directions, `go` the way to within 1/2"), an end that would stand half on a piece at least
    `tall` high moved on to the first place on the way in where the base is wholly off or on
    it, before the bases touch; inf where there is none."""
    pieces = [k for k, p in enumerate(table.layout.pieces)
              if p.kind not in ("area", "impassable") and p.height >= tall]
    if not pieces:
        return go
    boxes = np.array([table.layout.bboxes[k] for k in pieces])
    r = float(table.reach[m])
    out = go.copy()
    ex = points[:, 0, None] + go * np.cos(th)
    ey = points[:, 1, None] + go * np.sin(th)
    near = np.zeros(go.shape, dtype=bool)
    for bx0, by0, bx1, by1 in boxes:
        near |= ~((ex + r < bx0 - d) | (ex - r > bx1 + d) | (ey + r < by0 - d)
                  | (ey - r > by1 + d))
    base = (table.layout, int(table.shape[m]), float(table.a[m]), float(table.b[m]))
    facing = float(table.facing[m])
    for i, j in zip(*np.nonzero(near), strict=True):
        def half(s: float, i: int = int(i), j: int = int(j)) -> bool:
            x = points[i, 0] + s * math.cos(th[i, j])
            y = points[i, 1] + s * math.sin(th[i, j])
            return half_on_at(*base, float(x), float(y), facing, r, tall) is not None

        lo, most = float(go[i, j]), float(d[i, j]) - TOUCH
        if not half(lo):
            continue
        if most <= lo or half(most):
            out[i, j] = math.inf
            continue
        hi = most                                  # half on at lo, wholly off or on at hi
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if half(mid) else (lo, mid)
        out[i, j] = hi
    return out
