"""The blocks turn (seed: Movement & Command, Pre-combat Courage, Combat, Post-combat Courage):
command points, units moving by their standing orders and routing units by the rout rule, the
courage phases (rout checks, free attacks, second rout checks, rout movement, fear checks),
removing destroyed blocks, and the clock of rounds and turns.
"""

from __future__ import annotations

import math
from typing import Any

from battlefield.errors import UsageError
from battlefield.rules import chance, position, rounds
from battlefield.rules.blocks import attacks, movement
from battlefield.rules.blocks.data import (
    GameData,
    bar,
    boxes,
    game,
    order_of,
    red_from,
    stat,
)
from battlefield.rules.rounds import other
from battlefield.rules.state import State, scene_start, start_error, start_per_side, start_round
from battlefield.scene.model import UnitSpec

Event = dict[str, Any]
START_KEYS = ("round", "active", "phase", "command", "cards")
PHASES = ("command", "combat", "strike-back")
KEEP = {"routing"}                     # flags that outlast the turn


def uid(state: State, u: int) -> str:
    return state.scene.units[u].id


def alive(state: State, u: int) -> bool:
    return bool(len(state.models_of(u)))


def command_points(state: State, side: str) -> int:
    """1 per full `points_per` army points (every unit the side brought)."""
    pts = sum(stat(state, u, "points") for u, s in enumerate(state.scene.units)
              if s.side == side)
    return int(pts // game(state).points_per_command)


# --- the battle ----------------------------------------------------------------------------------
def begin(state: State) -> list[Event]:
    sides = state.scene.sides
    if len(sides) > 2:
        raise UsageError(f"{state.scene.file}: a blocks battle is fought by two sides; the "
                         f"scene has {len(sides)}: {', '.join(sides)}")
    start, active = scene_start(state, START_KEYS)
    rnd = start_round(state, start, game(state).rounds)
    state.sides = {s: {"command": 0, "cards": [], "rally_cry": False, "destroyed": 0}
                   for s in sides}
    orders = {}
    whole = position.is_position(state.scene.extra.get("state") or {})
    for u, spec in enumerate(state.scene.units):
        orders[spec.id] = order_of(spec.extra["order"]) if "order" in spec.extra else None
        if spec.extra.get("routing") and not whole:    # a whole position says who routs
            state.units[u].flags.add("routing")
    state.extra = {"orders": orders, "edges": edges(state), "start": {}}
    state.clock = {"round": rnd, "turn": 1, "first": active, "active": active,
                   "phase": "command", "over": False}
    events = [{"type": "battle-round", "round": rnd, "first": active,
               "edges": state.extra["edges"]}, *start_turn(state, active)]
    _start_keys(state, start)
    return events


def _start_keys(state: State, start: dict[str, Any]) -> None:
    """A scene's shorthand for where its battle starts: the phase, command points and cards
    in hand ({phase: combat, command: {red: 3}, cards: {red: [fury]}})."""
    if "phase" in start:
        if start["phase"] not in PHASES:
            raise start_error(state, ("phase",), f"{start['phase']!r} is not a phase",
                              ", ".join(PHASES))
        state.clock["phase"] = start["phase"]
    for side, points in start_per_side(state, start, "command", "command points").items():
        state.sides[side]["command"] = points
    cards = start.get("cards") or {}
    names = ", ".join(c.id for c in game(state).cards)
    if not isinstance(cards, dict):
        raise start_error(state, ("cards",), "expected the cards in each side's hand",
                          f"{{{', '.join(f'{s}: [card, ...]' for s in state.sides)}}}")
    for side, value in cards.items():
        if side not in state.sides:
            raise start_error(state, ("cards", side), f"no side {side!r}",
                              f"one of {', '.join(state.sides)}")
        if not (isinstance(value, list) and all(game(state).card(str(c)) for c in value)):
            raise start_error(state, ("cards", side), "not a list of card ids",
                              f"cards from {names}")
        state.sides[side]["cards"] = list(value)


def edges(state: State) -> dict[str, str]:
    """Each side's own table edge: the edge its deployment zone touches; without zones, the
    edge nearest its blocks' centre as the scene sets them up."""
    scene = state.scene
    out = {}
    for side in scene.sides:
        zone = scene.deployment.get(side)
        edge = movement.zone_edge(zone, scene.width, scene.depth) if zone else None
        if edge is None:
            pts = [(m.x, m.y) for s in scene.units if s.side == side for m in s.models]
            x = sum(p[0] for p in pts) / len(pts)
            y = sum(p[1] for p in pts) / len(pts)
            edge = movement.nearest_edge(scene.width, scene.depth, x, y)
        out[side] = edge
    return out


def start_turn(state: State, side: str) -> list[Event]:
    c = state.clock
    c["active"] = side
    for us in state.units:
        us.flags &= KEEP
        us.counters.clear()
        us.phase_used.clear()
    for s in state.sides:
        state.sides[s]["rally_cry"] = False
    # Who is engaged where as the turn starts (rout and fear checks ask what is new).
    state.extra["start"] = {
        uid(state, u): {"sides": attacks.sides_engaged(state, u),
                        "foes": sorted(uid(state, w) for w in attacks.engaged_with(state, u))}
        for u in range(len(state.scene.units)) if alive(state, u)}
    base = command_points(state, side)
    if c["round"] == 1 and c["turn"] == 1:
        cp, c["phase"] = 0, "combat"           # the first side starts in the Combat phase
    elif c["round"] == 1:
        cp, c["phase"] = math.ceil(base / 2), "command"
    else:
        cp, c["phase"] = base, "command"
    state.sides[side]["command"] = cp
    return [{"type": "turn", "round": c["round"], "active": side, "phase": c["phase"],
             "command_points": cp}]


def end_turn(state: State) -> list[Event]:
    """The turn ends (rules/rounds.py); the battle's end is worded with its result."""
    return rounds.end_turn(state, game(state).rounds, start_turn)


# --- damage and removal --------------------------------------------------------------------------
def shakes(spec: UnitSpec, g: GameData, before: int, after: int) -> bool:
    """Damage from `before` to `after` boxes loses the last green box (into the yellow), the
    last yellow box (into the red) or is taken while in the red: the block must check its
    courage (the seed: "loses its last green or yellow box or took any damage while in the
    red")."""
    green, red = bar(spec, g)[0], red_from(spec, g)
    return after > before and (before < green <= after or before < red <= after
                               or before >= red)


def mark(state: State, w: int, n: int) -> Event:
    """Mark n boxes of w's damage bar from the left; a block that loses its last green or
    yellow box or takes damage in the red is shaken (it checks its courage)."""
    spec = state.scene.units[w]
    us = state.units[w]
    before = int(us.damage[0])
    after = min(boxes(spec, game(state)), before + n)
    us.damage[0] = after
    if shakes(spec, game(state), before, after):
        us.flags.add("shaken")
    if after >= boxes(spec, game(state)):
        us.flags.add("destroyed")
    return {"type": "damage", "unit": spec.id, "boxes": after - before, "marked": after,
            "of": boxes(spec, game(state)),
            **({"destroyed": True} if after >= boxes(spec, game(state)) else {})}


def remove(state: State, u: int, why: str) -> Event:
    spec = state.scene.units[u]
    state.slay(u, [int(m) for m in state.models_of(u)])
    foe = other(state, spec.side)
    pts = stat(state, u, "points")
    state.sides[foe]["destroyed"] = state.sides[foe]["destroyed"] + pts
    state.extra["orders"][spec.id] = None
    return {"type": "removed", "unit": spec.id, "why": why, "points": pts}


def remove_destroyed(state: State, why: str) -> list[Event]:
    return [remove(state, u, why) for u in range(len(state.scene.units))
            if alive(state, u) and "destroyed" in state.units[u].flags]


def attack(state: State, u: int, w: int, kind: str, what: str, red=None, blue=None
           ) -> list[Event]:
    """One attack of u on w with logged dice (a red and a blue card's effects, when played);
    damage marked (removal is the caller's)."""
    att = attacks.numbers(state, u, w, kind, red, blue)
    dealt = chance.play(attacks.attack_procedure(att.dice, att.hit_on, att.damage_on, what),
                        state.dice)
    ev: Event = {"type": "attack", "unit": uid(state, u), "target": uid(state, w),
                 "kind": kind, "dice": att.dice, "hit_on": att.hit_on,
                 "damage_on": att.damage_on, "side": att.side, "damage": int(dealt),
                 "modifiers": list(att.notes)}
    return [ev, mark(state, w, int(dealt))] if dealt else [ev]


def courage_check(state: State, u: int, why: str) -> tuple[bool, Event]:
    value, notes = attacks.courage(state, u)
    ok = chance.play(attacks.courage_procedure(game(state).courage_dice, value,
                                                  f"{uid(state, u)} {why}"), state.dice)
    return ok, {"type": "courage", "unit": uid(state, u), "why": why, "courage": value,
                "passed": bool(ok), "modifiers": list(notes)}


# --- moving by orders and routing ----------------------------------------------------------------
def move_allowance(state: State, u: int) -> float:
    return stat(state, u, "move") + attacks.bonus(state, u, "move")


def moved_event(state: State, u: int, how: str, trip: movement.Travel) -> Event:
    x, y, f = trip.end
    ev: Event = {"type": "moved", "unit": uid(state, u), "by": how, "path": trip.path(),
                 "facing": round(f, 6), "distance": round(trip.distance, 6)}
    if trip.stopped_by:
        ev["stopped_by"] = trip.stopped_by
    return ev


def place(state: State, u: int, trip: movement.Travel) -> None:
    x, y, f = trip.end
    m = int(state.models_of(u)[0])
    state.table = state.table.moved([m], [x], [y], facing=[f])


def by_order(state: State, u: int) -> list[Event]:
    """Unit u moves by its standing order (an engaged unit is held in combat and stays)."""
    state.units[u].flags.add("moved")
    if attacks.engaged_with(state, u):
        return []
    order = state.extra["orders"].get(uid(state, u))
    kind = order["order"] if order else "hold"
    move = move_allowance(state, u)
    if kind == "advance":
        trip = movement.straight(state, u, move)
    elif kind == "withdraw":
        trip = movement.straight(state, u, move * game(state).withdraw, backwards=True)
    elif kind == "charge":
        trip = charge(state, u, order["target"], move)
        if trip is None:
            return []
    elif kind == "march":
        trip = march(state, u, tuple(order["to"]), move)
        if trip is None:
            return []
    else:
        trip = face_nearest(state, u)
        if trip is None:
            return []
    if len(trip.poses) < 2:
        return []
    place(state, u, trip)
    return [moved_event(state, u, kind, trip)]


def face_nearest(state: State, u: int) -> movement.Travel | None:
    """hold: turn in place to face the nearest enemy when it is outside the front arc."""
    foes = state.enemies(u)
    if not foes:
        return None
    t = state.table
    x, y, f = movement.pose(state, u)
    w = min(foes, key=lambda w: (t.unit_distance(u, w), w))
    if attacks.in_arc(state, u, w):
        return None
    wx, wy, _ = movement.pose(state, w)
    _, a, b = movement.block(state, u)
    to = movement.heading((x, y), (wx, wy))
    return movement.travel((x, y, f), [(x, y, to)], a, b, 0.0, movement.ground(state, u))


def charge_goal(state: State, u: int, w: int) -> tuple[tuple[float, float, float],
                                                       tuple[float, float]] | None:
    """Where a charge of u on w ends: u's front flush against a side of w, facing it - the side
    that faces u's centre (by w's diagonals) first, centred on it or slid along it by whole
    inches - the first such place clear of other blocks, terrain and the table edge; and the
    approach point straight out from it. None when every place is taken."""
    first = attacks.side_attacked(state, u, w)
    wx, wy, wf = movement.pose(state, w)
    _, wa, wb = movement.block(state, w)
    _, a, b = movement.block(state, u)
    where = movement.ground(state, u, skip=[w])
    back = game(state).charge_approach
    turns = {"front": 0.0, "left": 90.0, "rear": 180.0, "right": 270.0}
    for side in sorted(turns, key=lambda s: (s != first, list(turns).index(s))):
        out = math.radians(wf + turns[side])
        ext, across = (wa, wb) if side in ("front", "rear") else (wb, wa)
        nx, ny = math.cos(out), math.sin(out)
        reach = int(math.floor(across + b - 0.5))
        for k in sorted(range(-reach, reach + 1), key=lambda k: (abs(k), -k)):
            gx = wx + nx * (ext + a) - ny * k
            gy = wy + ny * (ext + a) + nx * k
            f = (math.degrees(out) + 180.0) % 360.0
            if where.overlapping(movement.rect(gx, gy, f, a, b)):
                continue
            return (gx, gy, f), (gx + nx * back, gy + ny * back)
    return None


def charge_route(state: State, u: int, w: int
                 ) -> tuple[list[tuple[float, float]], float | None]:
    """The way a charge of u on w goes, whatever its Move: u's centre's points to where it
    ends flush on w (round blocks and terrain), and the facing it ends with; with nowhere to
    engage w, straight at it (facing None: the way it goes)."""
    found = charge_goal(state, u, w)
    x, y, _ = movement.pose(state, u)
    if found is None:
        wx, wy, _ = movement.pose(state, w)
        return [(x, y), (wx, wy)], None
    goal, approach = found
    others = [v for v in range(len(state.scene.units)) if v not in (u, w) and alive(state, v)]
    route = movement.route_to(state, u, approach, others)
    return (route + [goal[:2]] if route else [(x, y), goal[:2]]), goal[2]


def charge(state: State, u: int, target: str, move: float) -> movement.Travel | None:
    try:
        w = state.unit_index(target)
    except KeyError:
        return None
    if not alive(state, w):
        return None
    x, y, f = movement.pose(state, u)
    _, a, b = movement.block(state, u)
    pts, facing = charge_route(state, u, w)
    legs = movement.facing_legs(pts, facing)
    return movement.travel((x, y, f), legs, a, b, move, movement.ground(state, u))


def march_route(state: State, u: int, to: tuple[float, float]
                ) -> list[tuple[float, float]] | None:
    """The way a march of u to `to` goes, round blocks and terrain (None: no way)."""
    others = [v for v in range(len(state.scene.units)) if v != u and alive(state, v)]
    route = movement.route_to(state, u, to, others)
    return route if route and len(route) >= 2 else None


def march(state: State, u: int, to: tuple[float, float], move: float
          ) -> movement.Travel | None:
    route = march_route(state, u, to)
    if route is None:
        return None
    x, y, f = movement.pose(state, u)
    _, a, b = movement.block(state, u)
    return movement.travel((x, y, f), movement.facing_legs(route), a, b, move,
                           movement.ground(state, u))


def rout(state: State, u: int, how: str) -> list[Event]:
    """A routing block's move: its full Move along the rout route to its table edge, stopping
    on contact with a friendly block or the edge. One already at its edge leaves the table; one
    already stopped by a friend moves through friends (who may not move or shoot this turn and
    take a rout check)."""
    spec = state.scene.units[u]
    state.units[u].flags.add("moved")
    edge = state.extra["edges"][spec.side]
    x, y, f = movement.pose(state, u)
    _, a, b = movement.block(state, u)
    here = movement.ground(state, u)
    touching = [here.names[i] for i in here.touching(movement.rect(x, y, f, a, b), 1e-3)]
    if f"the {edge} table edge" in touching:
        return [remove(state, u, f"routed off the {edge} table edge")]
    friends = [w for w, s in enumerate(state.scene.units)
               if s.side == spec.side and w != u and alive(state, w)]
    through = [w for w in friends if uid(state, w) in touching]
    route = movement.rout_route(state, u, edge)
    if route is None or len(route.path) < 2:
        return [{"type": "moved", "unit": spec.id, "by": how, "path": [[x, y]],
                 "facing": f, "distance": 0.0, "stopped_by": ["no way to its edge"]}]
    skip = friends if through else []
    legs = movement.facing_legs(route.path)
    where = movement.ground(state, u, skip=skip)
    trip = movement.travel((x, y, f), legs, a, b, move_allowance(state, u), where)
    if skip:                          # through friends, but never ending on one: shorter
        everything = movement.ground(state, u)
        lo, hi = 0.0, trip.distance
        while everything.overlapping(movement.rect(*trip.end, a, b)) and hi - lo > 1e-6:
            hi = (lo + hi) / 2
            trip = movement.travel((x, y, f), legs, a, b, hi, where)
    events: list[Event] = []
    if skip:
        rects = [movement.rect(px, py, pf, a, b) for px, py, pf in trip.poses]
        hull = [p.union(q).convex_hull for p, q in zip(rects[:-1], rects[1:], strict=True)]
        for w in friends:
            shape = attacks.footprint(state, w)
            if any(h.intersection(shape).area > movement.AREA for h in hull):
                state.units[w].flags.add("trampled")
                events.append({"type": "trampled", "unit": uid(state, w), "by": spec.id})
    place(state, u, trip)
    return [moved_event(state, u, how, trip), *events]


# --- the courage phases --------------------------------------------------------------------------
def turn_routed(state: State, u: int) -> Event:
    """A failed rout check: orders erased; an engaged block not engaged on its rear turns
    about, an unengaged one turns to face its table edge."""
    spec = state.scene.units[u]
    state.units[u].flags |= {"routing", "routed-now"}
    state.extra["orders"][spec.id] = None
    x, y, f = movement.pose(state, u)
    sides = attacks.sides_engaged(state, u)
    if sides and "rear" not in sides:
        f = (f + 180.0) % 360.0
    elif not sides:
        f = movement.EDGE_FACING[state.extra["edges"][spec.side]]
    m = int(state.models_of(u)[0])
    state.table = state.table.moved([m], [x], [y], facing=[f])
    return {"type": "routs", "unit": spec.id, "facing": round(f, 6)}


def rout_steps(state: State, checks: list[tuple[int, str]]) -> list[Event]:
    """Steps 1-4 of the courage phase for the units `checks` names: rout checks, free
    attacks on those that fail, second rout checks, rout movement."""
    events: list[Event] = []
    failed = []
    for u, why in checks:
        ok, ev = courage_check(state, u, why)
        events.append(ev)
        if not ok:
            failed.append(u)
            events.append(turn_routed(state, u))
    second = []
    for u in failed:                                    # (2) free attacks
        start = int(state.units[u].damage[0])
        for w in sorted(attacks.engaged_with(state, u)):
            if "destroyed" in state.units[u].flags:
                break
            events.extend(attack(state, w, u, "close", f"{uid(state, w)} free attack on "
                                                        f"{uid(state, u)}"))
        if shakes(state.scene.units[u], game(state), start, int(state.units[u].damage[0])):
            second.append(u)
    events.extend(remove_destroyed(state, "destroyed by free attacks"))
    for u in second:                                    # (3) second rout checks
        if not alive(state, u):
            continue
        ok, ev = courage_check(state, u, "second rout check")
        events.append(ev)
        if not ok:
            events.append(remove(state, u, "failed its second rout check"))
    for u in failed:                                    # (4) rout movement
        if not alive(state, u):
            continue
        events.extend(rout(state, u, "rout"))
        if attacks.engaged_with(state, u):
            events.append(remove(state, u, "still in contact with the enemy after routing"))
    return events


def pre_combat(state: State) -> list[Event]:
    events: list[Event] = [{"type": "phase", "phase": "pre-combat courage"}]
    start = state.extra["start"]
    checks = []
    for u, spec in enumerate(state.scene.units):
        if not alive(state, u) or "routing" in state.units[u].flags:
            continue
        was = start.get(spec.id, {}).get("sides", [])
        now = attacks.sides_engaged(state, u)
        if was and any(s not in was for s in now):
            checks.append((u, "rout check (engaged on another side)"))
        elif "trampled" in state.units[u].flags:
            checks.append((u, "rout check (a routing unit moved through it)"))
    events.extend(rout_steps(state, checks))
    for u, spec in enumerate(state.scene.units):          # (5) fear checks
        if not alive(state, u) or "routing" in state.units[u].flags:
            continue
        was = start.get(spec.id, {}).get("foes", [])
        new = [w for w in attacks.engaged_with(state, u)
               if attacks.fearsome(state, w) and uid(state, w) not in was]
        if new:
            ok, ev = courage_check(state, u, "fear check")
            events.append(ev)
            if not ok:
                state.units[u].flags.add("afraid")
    return events


def post_combat(state: State) -> list[Event]:
    events: list[Event] = [{"type": "phase", "phase": "post-combat courage"}]
    checks = [(u, "rout check (lost its last yellow box or took damage in the red)")
              for u in range(len(state.scene.units))
              if alive(state, u) and "shaken" in state.units[u].flags
              and "routing" not in state.units[u].flags]
    return events + rout_steps(state, checks)
