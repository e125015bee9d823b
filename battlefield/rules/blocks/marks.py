"""What the blocks ruleset shows in the window (its Window, rules/window.py): on the table
(window.Mark), each block's standing order as an arrow, a routing block's route to its edge,
the engaged sides of every block; while a block is dragged, its front arc and engaged sides
where it would be dropped, and where a move that meets something really stops."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import shapely

from battlefield.rules.actions import Action
from battlefield.rules.blocks import attacks, movement, turns
from battlefield.rules.blocks.data import game, order_text, stat
from battlefield.rules.state import State
from battlefield.rules.window import DragContext, DragNotes, Ghost, Mark, Window

ARC_SHOWN = 12.0           # inches of a dragged block's front arc drawn (a shooter's: its range)


def side_edge(state: State, u: int, side: str) -> np.ndarray:
    """The two ends of one side of unit u's block."""
    x, y, f = movement.pose(state, u)
    _, a, b = movement.block(state, u)
    th = math.radians(f)
    fw = np.array([math.cos(th), math.sin(th)])
    left = np.array([-math.sin(th), math.cos(th)])
    c = np.array([x, y])
    ends = {"front": (a * fw + b * left, a * fw - b * left),
            "rear": (-a * fw + b * left, -a * fw - b * left),
            "left": (a * fw + b * left, -a * fw + b * left),
            "right": (a * fw - b * left, -a * fw - b * left)}[side]
    return np.array([c + ends[0], c + ends[1]])


def engaged_marks(state: State, u: int) -> list[Mark]:
    return [Mark("edge", side_edge(state, u, s), unit=u) for s in attacks.sides_engaged(state, u)]


def order_mark(state: State, u: int) -> Mark | None:
    """Unit u's standing order as an arrow: an advance or a withdrawal from the front (rear)
    edge's middle to where that edge would stop - short of a block or piece of terrain in
    the way, touching it, as the Movement phase moves it; a charge or a march along the way
    its centre will go. A charge's tag names the charger (two blocks may charge one foe)."""
    spec = state.scene.units[u]
    order = state.extra["orders"].get(spec.id)
    if not order or order["order"] == "hold":
        return None
    x, y, f = movement.pose(state, u)
    _, a, _ = movement.block(state, u)
    move = turns.move_allowance(state, u)
    th = math.radians(f)
    kind = order["order"]
    if kind in ("advance", "withdraw"):
        back = kind == "withdraw"
        trip = movement.straight(state, u, move * (game(state).withdraw if back else 1.0),
                                 backwards=back)
        if trip.distance <= 1e-6:          # it cannot go at all (touching what is ahead)
            return None
        ex, ey, _ = trip.end
        edge = -a if back else a           # the rear edge leads a withdrawal
        start = (x + edge * math.cos(th), y + edge * math.sin(th))
        end = (ex + edge * math.cos(th), ey + edge * math.sin(th))
        return Mark("arrow", np.array([start, end]), order_text(order), spec.side, u)
    # A charge or a march: the way the block's centre will go, round blocks and terrain, as
    # the Movement phase moves it (turn after turn while its Move falls short).
    if kind == "charge":
        try:
            w = state.unit_index(order["target"])
        except KeyError:
            return None
        if not turns.alive(state, w):
            return None
        route: list[tuple[float, float]] | None = turns.charge_route(state, u, w)[0]
        text = f"{spec.id} charges {order['target']}"
    else:
        route = turns.march_route(state, u, tuple(order["to"]))
        text = order_text(order)
    if route is None:
        return None
    return Mark("arrow", np.array(route), text, spec.side, u)


def arc_outline(state: State, u: int, reach: float) -> np.ndarray | None:
    """Unit u's front arc out to `reach` inches from its front edge, on the table."""
    fl, fr = attacks.front_edge(state, u)
    near = shapely.LineString([fl, fr]).buffer(reach)
    arc = attacks.arc(state, u).intersection(near).intersection(
        shapely.box(0, 0, state.table.width, state.table.depth))
    if arc.is_empty or arc.geom_type != "Polygon":
        return None
    return np.asarray(arc.exterior.coords)


class BlocksWindow(Window):
    """What blocks draws on the table (orders, routes, engaged sides, front arcs) and adds while a
    block is dragged."""

    def marks(self, state: State) -> list[Mark]:
        """Engaged sides, orders or rout routes, and each shooter's front arc out to its range."""
        out: list[Mark] = []
        for u, spec in enumerate(state.scene.units):
            if not turns.alive(state, u):
                continue
            out.extend(engaged_marks(state, u))
            rng = stat(state, u, "range")
            if rng > 0 and "routing" not in state.units[u].flags:
                pts = arc_outline(state, u, rng)
                if pts is not None:
                    out.append(Mark("outline", pts, "", spec.side, u))
            if "routing" in state.units[u].flags:
                r = movement.rout_route(state, u, state.extra["edges"][spec.side])
                if r is not None:
                    out.append(Mark("path", np.array(r.path), f"routing to the {r.edge} edge",
                                    spec.side, u))
            else:
                m = order_mark(state, u)
                if m is not None:
                    out.append(m)
        return out

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        """Where the dragged block would stand: its front arc (what it could shoot), the sides on
        which it would be engaged and the blocks it would engage, on which of their sides."""
        notes = DragNotes()
        after = copy.copy(ctx.state)          # a shallow view with the block dropped: read only
        after.table = ctx.moved
        u = ctx.unit
        if ctx.action.type == "move" and ctx.action.path:
            trip, _ = movement.trip(ctx.state, u, ctx.action)
            if trip.stopped_by:               # it stops short, touching what it met
                x, y, f = trip.end
                m = int(ctx.state.models_of(u)[0])
                after.table = ctx.state.table.moved([m], [x], [y], facing=[f])
                notes.lines.append(f"stops touching {', '.join(trip.stopped_by)} after "
                                   f"{trip.distance:.2f}\"")
                notes.ghosts.append(Ghost(u, np.array([[x, y]]), "stops here"))
        # A shooter's arc out to its range (what it could shoot from there), else ARC_SHOWN.
        rng = stat(after, u, "range")
        pts = arc_outline(after, u, rng if rng > 0 else ARC_SHOWN)
        if pts is not None:
            notes.marks.append(Mark("outline", pts, f"front arc, range {rng:g}\"" if rng > 0
                                    else "front arc", after.side_of(u), u))
        notes.marks.extend(engaged_marks(after, u))
        foes = attacks.engaged_with(after, u)
        for w, side in foes.items():
            theirs = attacks.side_attacked(after, u, w)
            notes.lines.append(f"engages {after.scene.units[w].id} on its {theirs} "
                               f"(engaged on its own {side})")
            notes.marks.extend(Mark("edge", side_edge(after, w, s)) for s in [theirs])
        shots = [after.scene.units[w].id for w in after.enemies(u)
                 if attacks.in_arc(after, u, w)]
        if not foes and shots:
            notes.lines.append("in the front arc: " + ", ".join(shots))
        return notes

    def drop_pose(self, state: State, u: int, action: Action) -> tuple[Any, Any] | None:
        """A (legal) move that meets something stops touching it: the block's pose there."""
        if action.type != "move" or not action.path:
            return None
        trip, _ = movement.trip(state, u, action)
        if not trip.stopped_by:
            return None
        x, y, f = trip.end
        return np.array([[x, y]]), [f]
