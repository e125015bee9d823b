"""Deploy Faction Terrain (seed 000: `deploy-faction-terrain` and the `deployment` rules' first
step): a side's faction terrain not yet set up (a terrain piece with `side` and `reserve: true`:
its outline is its shape) is set up in the deployment phase before any unit - the side that
begins deployment sets up all of its own first, then its opponent - with the action

    {"type": "deploy-faction-terrain", "terrain": ID, "at": [[x, y]], "facing": DEG?}

`at` is one place, the piece's centre (its outline's centroid), as a deploy gives one place per
model; `facing` turns the outline by that many degrees about it. The piece must be wholly within
friendly territory, more than 3" from every objective (from the marker's edge, N20) and every
other terrain feature, on the board and on no model. Once set up it is terrain like any other
(the game's scene takes it: every measure, sight and move after it sees it). `end-phase` in this
step says the side sets up no more of its faction terrain: what it leaves takes no part.

The computer player sets each piece up at the first place from the back of its territory that
the engine takes (`spots`)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import shapely
import shapely.affinity

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.terrain import Piece
from battlefield.rules.actions import Action, Violation
from battlefield.rules.refusals import v
from battlefield.rules.state import State

TERRAIN = "deploy-faction-terrain"
CLEAR = 3.0                      # more than 3" from all objectives and other terrain features
STEP = 0.5                       # the computer player's grid of places, inches
EPS = 1e-6
Event = dict[str, Any]


def waiting(state: State, side: str | None = None) -> list[Piece]:
    """The faction terrain not yet set up (of `side` when given), in scene order."""
    return [p for p in state.scene.reserve_terrain if side is None or p.side == side]


def step(state: State) -> bool:
    """Whether deployment is in its faction terrain step (the clock's `terrain`, the sides
    still to set theirs up, present only while the step lasts)."""
    return bool(state.clock.get("terrain"))


def begin(state: State) -> None:
    """The step's order: the side that begins deployment, then its opponent, each that has
    faction terrain to set up."""
    c = state.clock
    first = c["first"]
    order = [first, *[s for s in state.sides if s != first]]
    sides = [s for s in order if waiting(state, s)]
    if sides:                      # the key only while the step lasts
        c["terrain"] = sides
        c["acting"] = c["active"] = sides[0]


def shaped(piece: Piece, at: tuple[float, float], facing: float | None) -> shapely.Polygon:
    """The piece's outline with its centre at `at`, turned by `facing` degrees."""
    poly = shapely.Polygon(piece.outline)
    c = poly.centroid
    if facing:
        poly = shapely.affinity.rotate(poly, facing, origin=c)
    return shapely.affinity.translate(poly, at[0] - c.x, at[1] - c.y)


def check(state: State, action: Action) -> list[Violation]:
    """A deploy-faction-terrain: in the step, a piece of the acting side not yet set up, one
    place, and there where the seed lets faction terrain be set up."""
    if not step(state):
        return [v("not_terrain_step", "faction terrain is set up first in the deployment "
                                      "phase, before any unit (none is waiting now)")]
    pid = action.option("terrain")
    side = state.clock["acting"]
    mine = waiting(state, side)
    if pid is None:
        return [v("no_terrain", "deploy-faction-terrain needs \"terrain\": one of " +
                  (", ".join(p.id for p in mine) or "none"), choose="terrain")]
    piece = next((p for p in waiting(state) if p.id == pid), None)
    if piece is None:
        return [v("unknown_terrain", f"no faction terrain '{pid}' waits to be set up (waiting: "
                  f"{', '.join(p.id for p in mine) or 'none'})")]
    if piece.side != side:
        return [v("not_yours", f"{pid} is {piece.side}'s; {side} is setting up its faction "
                               "terrain")]
    at = action.option("at")
    if not at or len(at) != 1:
        return [v("no_places", "deploy-faction-terrain needs \"at\": one place [[x, y]], the "
                               "piece's centre", choose="at")]
    return problems(state, piece, (float(at[0][0]), float(at[0][1])), action.facing)


def problems(state: State, piece: Piece, at: tuple[float, float], facing: float | None
             ) -> list[Violation]:
    """Why the piece cannot be set up with its centre at `at` (empty: it can)."""
    scene = state.scene
    foot = shaped(piece, at, facing)
    board = shapely.box(0, 0, scene.width, scene.depth)
    if not board.buffer(EPS).covers(foot):
        return [v("off_board", f"{piece.id} would stand off the board")]
    pts = scene.deployment.get(piece.side)
    if not pts:
        return [v("no_territory", f"the scene has no territory for {piece.side}")]
    if not shapely.Polygon(pts).buffer(EPS).covers(foot):
        return [v("outside_territory", f"{piece.id} is not wholly within {piece.side}'s "
                                       "territory")]
    marker = scene.ruleset.objectives.marker_mm / MM_PER_INCH / 2
    for o in scene.objectives:
        d = max(0.0, foot.distance(shapely.Point(o.x, o.y)) - marker)
        if d <= CLEAR + EPS:
            return [v("near_objective", f"{piece.id} is {d:.2f}\" from objective {o.id}'s "
                                        f"marker; it must be more than {CLEAR:g}\"",
                      distance=d, gap=CLEAR)]
    for p in scene.terrain:
        d = float(foot.distance(p.polygon))
        if d <= CLEAR + EPS:
            return [v("near_terrain", f"{piece.id} is {d:.2f}\" from terrain {p.id}; it must "
                                      f"be more than {CLEAR:g}\"", distance=d, gap=CLEAR)]
    t = state.table
    for m in np.nonzero(t.on_table)[0].tolist():
        if foot.intersects(t.footprint(m, 64)):
            name = scene.model_names[m]
            return [v("on_model", f"{piece.id} would stand on {name}", models=[name])]
    return []


def deploy(state: State, action: Action) -> list[Event]:
    """Set the piece up: the game's scene takes it as terrain (a new scene for this state and
    those after it; earlier states keep theirs), the table its layout. Then who goes on."""
    pid = action.option("terrain")
    piece = next(p for p in waiting(state) if p.id == pid)
    at = action.option("at")[0]
    foot = shaped(piece, (float(at[0]), float(at[1])), action.facing)
    outline = tuple((round(x, 6), round(y, 6)) for x, y in list(foot.exterior.coords)[:-1])
    placed = replace(piece, outline=outline, reserve=False)
    _take(state, placed, piece)
    events: list[Event] = [{"type": "deployed-terrain", "terrain": pid, "side": piece.side,
                            "at": [float(at[0]), float(at[1])]}]
    return events + _after(state, piece.side)


def pass_(state: State) -> list[Event]:
    """end-phase in the step: the acting side sets up no more faction terrain."""
    side = state.clock["acting"]
    events: list[Event] = [{"type": "pass", "side": side, "phase": "deployment",
                            "step": "faction terrain"}]
    left = [p.id for p in waiting(state, side)]
    if left:
        events.append({"type": "not-deployed", "terrain": left})
    return events + _after(state, side, done=True)


def _after(state: State, side: str, done: bool = False) -> list[Event]:
    """The side goes on while it has faction terrain waiting (and has not passed); else the
    next side of the step; else the step is over (`terrain` empty) and the units follow."""
    c = state.clock
    if done or not waiting(state, side):
        c["terrain"] = [s for s in c["terrain"] if s != side]
    if c["terrain"]:
        c["acting"] = c["active"] = c["terrain"][0]
        return []
    del c["terrain"]
    return [{"type": "terrain-deployed"}]


def _take(state: State, placed: Piece, piece: Piece) -> None:
    scene = state.scene
    new = replace(scene, terrain=(*scene.terrain, placed),
                  reserve_terrain=tuple(p for p in scene.reserve_terrain if p.id != piece.id))
    game = copy.copy(state.game)          # not Game(...): its rules are set up already
    game.scene = new
    state.game = game
    state.table = replace(state.table, layout=new.layout)


def spots(state: State, piece: Piece) -> Iterator[tuple[float, float]]:
    """Places the engine takes for the piece, from the back of its territory (farthest from
    the middle of the board) forwards, on a STEP grid."""
    pts = state.scene.deployment.get(piece.side)
    if not pts:
        return
    zone = shapely.Polygon(pts)
    x0, y0, x1, y1 = zone.bounds
    mid = shapely.Point(state.scene.width / 2, state.scene.depth / 2)
    grid = [(x0 + i * STEP, y0 + j * STEP) for i in range(int((x1 - x0) / STEP) + 1)
            for j in range(int((y1 - y0) / STEP) + 1)]
    grid.sort(key=lambda p: (-round(mid.distance(shapely.Point(p)), 1), p))
    for p in grid:
        if zone.contains(shapely.Point(p)) and not problems(state, piece, p, None):
            yield p
