"""Moves in aos4: which path each model takes, and whether the move is legal (seed: movement,
charge, combat; RULES-NOTES).

An action's `path` is where the unit's leader goes; every model follows it with the same
offsets. `paths` gives each model (1-based number) its own path. A path that does not start
where the model stands starts there. Each model's path is measured with climbing (terrain
taller than 1" counts its height wherever any part of the base goes over it, jumping down ends
the move); no model moves through another model or impassable terrain (FLY ignores both and
climbing); no part of a base leaves the board on the way; no model ends on another, nor
mid-climb (half on a piece taller than 1"); the unit ends coherent (all of it `check`, through
the engine's one move check); and each ability adds its own rule about combat ranges, for
every model of the unit (movement_phase).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import shapely

from battlefield.geometry.bases import footprint, grown_outline
from battlefield.geometry.paths import Terrain, grown_polygon
from battlefield.geometry.table import Table
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4.data import Book, book
from battlefield.rules.moves import (  # noqa: F401 - aos4's names for them
    OVERLAP,
    Arrive,
    Keep,
    MoveCheck,
    Moves,
    Obstacle,
    Step,
    check_move,
    half_on_at,
    obstacle,
    planned,
    v,
)
from battlefield.rules.standing import referee
from battlefield.rules.state import State

EPS = 1e-6
JUMP_LANDING = 0.01   # a jump down may go on this far once the base is wholly off the piece


def clearance(t: Table, m: int) -> float:
    return float(min(t.a[m], t.b[m]))


def terrain_for(rules: Book, t: Table, m: int) -> Terrain:
    """What model m climbs: pieces taller than 1" (the book's climb_free) wherever any part of
    its base (its short half-width round the path) goes over them; a jump down lands where the
    base is first wholly off the piece (JUMP_LANDING)."""
    r = clearance(t, m)
    free = rules.climb_free
    return t.layout.memo(("aos4-terrain", free, r),
                         lambda: Terrain(t.layout, free, JUMP_LANDING, r))


def used(rules: Book, t: Table, m: int, path: np.ndarray, fly: bool) -> tuple[float, float]:
    """(inches model m spends along path, of which climbing): a last drop may be a jump.
    Measured once per table and path (a player's pre-check and the engine's check ask the
    same path)."""
    path = np.ascontiguousarray(path, dtype=np.float64)

    def measure() -> tuple[float, float]:
        cost = terrain_for(rules, t, m).path_cost(path, fly)
        return min(cost.total, cost.total_if_jumping), cost.vertical

    return t.memo(("aos4-used", rules.climb_free, int(m), fly, path.shape, path.tobytes()),
                  measure)


def obstacles(state: State, u: int, m: int, box: tuple[float, float, float, float]
              ) -> tuple[list[shapely.Polygon], list[str]]:
    """Where the centre of unit u's model m may not go near `box` (x0, y0, x1, y1): the bases
    of other units' models and impassable terrain, grown by its clearance; with their names."""
    found = _obstacles(state, u, m, box)
    return [o.shape for o in found], [o.name for o in found]


def _obstacles(state: State, u: int, m: int, box: tuple[float, float, float, float]
               ) -> list[Obstacle]:
    """obstacles() as moves.Obstacle values (each made once per table)."""
    t = state.table
    r = clearance(t, m)
    x0, y0, x1, y1 = box
    grow = t.reach + r
    near = (t.on_table & (t.unit != u) & (t.x + grow >= x0) & (t.x - grow <= x1)
            & (t.y + grow >= y0) & (t.y - grow <= y1))
    names = state.scene.model_names
    # each model's grown base made once while it stands where it stands (others moving)
    out = [t.placed_memo(("aos4-grown", r), np.array([o]),
                         lambda o=o: obstacle(grown_base(t, o, r - OVERLAP), names[o],
                                              "the model"))
           for o in np.nonzero(near)[0].tolist()]
    grown = t.layout.memo(("aos4-grown", r), dict)       # ("piece", k) -> obstacle
    for k in t.layout.pieces_with("impassable"):
        found = grown.get(("piece", k))
        if found is None:
            found = grown[("piece", k)] = obstacle(grown_polygon(t.layout.polygons[k], r - OVERLAP),
                                                   t.layout.pieces[k].id, "impassable terrain")
        out.append(found)
    return out


def check(state: State, u: int, action: Action | Moves, allowed: float | None,
          keep: Sequence[Keep] = (), arrive: Arrive | None = None, closer: Sequence[int] = ()
          ) -> MoveCheck:
    """An aos4 move through the one move check (rules.moves.check_move): each model's path
    measured with climbing, through no other unit's model nor impassable terrain (FLY: no
    climbing, and nothing in the way), on the board all the way, where the models end (not
    mid-climb: "Models cannot end a move mid-climb or mid-jump"), the unit coherent; then the
    ability's own rules: the enemy ranges it keeps out of (`keep`), where it must arrive (a
    charge) and what it may not go further from (a pile-in)."""
    fly = state.scene.units[u].has("FLY")
    rules = book(state)
    return check_move(state, u, action, allowed,
                      cost=lambda m, path: Step(*used(rules, state.table, m, path, fly)),
                      through=None if fly else (lambda m, box: _obstacles(state, u, m, box)),
                      straddle=rules.climb_free + EPS, coherency="always", keep=keep,
                      arrive=arrive, closer=closer)


def too_far(state: State, u: int, moves: Moves, allowed: float) -> bool:
    """Whether a model's path is longer than `allowed` (climbing counted, FLY: not): the
    check's first refusal, asked alone by a player choosing among many paths."""
    fly = state.scene.units[u].has("FLY")
    rules = book(state)
    return any(used(rules, state.table, m, path, fly)[0] > allowed + EPS
               for m, path in zip(moves.models, moves.paths, strict=True))


def straddles(state: State, moves: Moves) -> bool:
    """Whether a moved model would end half on a piece taller than a free climb (the check's
    refusal straddles_terrain, which it makes whatever else holds), asked alone by a player
    choosing among many paths: only the ends, no table moved."""
    t = state.table
    tall = book(state).climb_free + EPS
    for i, (m, path) in enumerate(zip(moves.models.tolist(), moves.paths, strict=True)):
        facing = float(t.facing[m] if moves.facings is None else moves.facings[i])
        if half_on_at(t.layout, int(t.shape[m]), float(t.a[m]), float(t.b[m]),
                      float(path[-1][0]), float(path[-1][1]), facing, float(t.reach[m]),
                      tall) is not None:
            return True
    return False


def in_combat(state: State, u: int) -> bool:
    """Unit u is in combat where it stands (the scene's ruling: within 3" and visible)."""
    return bool(referee(state).combat[u])


def combat_range(state: State) -> float:
    return float(state.scene.ruleset.combat_range)


def grown_base(t: Table, o: int, r: float, sides: int = 64) -> shapely.Polygon:
    """Where the centre of a base of clearance r cannot go: model o's true base grown by r, as
    a polygon just enclosing it (path planning uses fewer sides: a little more room, so that a
    planned path always passes this check)."""
    return grown_outline(int(t.shape[o]), t.a[o], t.b[o], t.x[o], t.y[o], t.facing[o], r,
                         sides)


def shapes_at(t: Table, m: int, x: float, y: float) -> shapely.Polygon:
    return footprint(int(t.shape[m]), t.a[m], t.b[m], x, y, t.facing[m], 64)


def roll_answer(state: State, action: Action, roll: str, code: str, no_path: str
                ) -> tuple[int, Action] | list[Violation]:
    """The move that answers a roll made before its path (N21: a charge's, a run's): the
    declared unit's own (`code` when another unit's moves; `roll` names the roll), given with
    its path (`no_path` says what to give when none is) - (the unit, the move as the declared
    unit's), or why it is no answer."""
    declared = Action.from_dict((state.suspended or {})["action"])
    if action.unit is not None and action.unit != declared.unit:
        return [v(code, f"the {roll} roll is {declared.unit}'s: its move answers it, not "
                        f"{action.unit}'s")]
    if not (action.path or action.paths):
        return [v("no_path", no_path, choose="path")]
    return state.unit_index(declared.unit), replace(action, unit=declared.unit)
