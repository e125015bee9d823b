"""What the table shows while a unit is dragged, asked of the engine and nothing else: the
action the drop would be (State.check), the rulings where the unit would stand (Referee,
live_check), and what the ruleset adds (window.DragNotes: odds against the enemy under the
cursor, units its path triggers, ghosts such as a retreat). No pygame here: the benchmark and
the tests read these values directly."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from battlefield.geometry.reach import ReachField, reach_field
from battlefield.rules.actions import Action, Violation
from battlefield.rules.moves import leader
from battlefield.rules.outcome import failed
from battlefield.rules.standing import referee as referee_of
from battlefield.rules.state import State
from battlefield.rules.window import DragContext, DragNotes
from battlefield.rulings import LiveCheck, Referee, live_check


def drag_abilities(state: State) -> tuple[str, ...]:
    """The ruleset's actions a drag can stand for (its vocabulary's `drag` entries), in the
    vocabulary's order: the most usual first."""
    return tuple(a.id for a in state.scene.ruleset.actions if a.drag)


def targeted(state: State, ability: str) -> bool:
    """Whether a drop for `ability` needs an enemy: the one under the cursor."""
    return any(a.id == ability and a.targeted for a in state.scene.ruleset.actions)


def straight(state: State, ability: str) -> bool:
    """Whether the move goes in a straight line (openwg's charge): dragged straight, never
    routed round what is in the way."""
    return any(a.id == ability and a.straight for a in state.scene.ruleset.actions)


def needs_nothing(state: State, ability: str) -> bool:
    """Whether the action is given by its name alone (a pass, end-turn, fortify; or one whose
    fields are all optional, "side?"): a button."""
    return any(a.id == ability and all(f.endswith("?") for f in a.fields)
               for a in state.scene.ruleset.actions)


def drag_ability(state: State, u: int, wanted: str | None = None) -> str | None:
    """The ability a drag of unit u stands for now: `wanted` when the engine offers it, else
    the first the ruleset would have this unit use (aos4: a unit in combat retreats)."""
    if state.side_of(u) != state.acting_side:
        return None
    offered = set(state.available())
    avail = [a for a in drag_abilities(state) if a in offered]
    if wanted in avail:
        return wanted
    avail = state.rules.window.drag_abilities(state, u, avail)
    return avail[0] if avail else None


def reach_of(state: State, u: int, m: int, allowed: float | None) -> ReachField | None:
    """Where model m can get to for the ability's allowance, round what the ruleset says it
    cannot move through, climbing as the ruleset counts it (Rules.move_ground)."""
    if not allowed:
        return None
    t = state.table
    x, y = float(t.x[m]), float(t.y[m])
    box = (x - allowed, y - allowed, x + allowed, y + allowed)
    hard, terrain = state.rules.move_ground(state, u, m, box)
    return reach_field((x, y), allowed, hard, terrain, (0.0, 0.0, t.width, t.depth))


@dataclass
class Pickup:
    """A unit (or one of its models) in the hand: what it stands for and where it started."""

    unit: int
    ability: str
    models: np.ndarray                  # table indices that move
    start: np.ndarray                   # (n, 2) where they stood
    ref: int                            # the model whose path the action gives
    allowed: float | None
    single: bool = False
    cache: dict[Any, Any] = field(default_factory=dict)     # the ruleset's (odds by enemy)
    control: dict[int, str | None] = field(default_factory=dict)  # objectives out of reach
    touching: dict[int, bool] = field(default_factory=dict)  # objectives it stood in
    reach: ReachField | None = None     # where the reference model can get to, and routes


def pick_up(state: State, u: int, model: int | None = None, wanted: str | None = None
            ) -> Pickup | None:
    """Pick up unit u (or only its model `model`) for the ability the phase allows."""
    ability = drag_ability(state, u, wanted)
    if ability is None:
        return None
    t = state.table

    if model is not None:
        models = np.array([model], dtype=np.int64)
        ref = model
    else:
        models = np.array(sorted(int(m) for m in state.models_of(u)), dtype=np.int64)
        ref = leader(state, u)
    start = np.column_stack([t.x[models], t.y[models]])
    p = Pickup(u, ability, models, start, int(ref), state.rules.move_allowance(state, u, ability),
               model is not None)
    p.touching = live_check(referee_of(state, t), u).objectives
    p.reach = None if straight(state, ability) else reach_of(state, u, p.ref, p.allowed)
    return p


@dataclass
class Ruling:
    """Everything the drag overlay draws for one place of the dragged unit."""

    action: Action
    violations: list[Violation]
    ends: np.ndarray                    # (n, 2) where the moving models would stand
    used: float
    climbed: float
    allowed: float | None
    check: LiveCheck
    referee: Referee
    faults: dict[int, list[str]]        # table model -> why it is at fault
    general: list[str]                  # violations that name no model
    objectives: dict[str, str | None]   # objective id -> controller after the drop
    target: int | None = None           # the enemy under the cursor
    sight: Any = None                   # Pair from the dragged unit to the target
    notes: DragNotes = field(default_factory=DragNotes)   # what the ruleset adds
    checked: bool = True                # State.check was asked (else: legality unknown yet)
    detailed: bool = True               # the costly rulings were asked (the cursor rested)

    @property
    def legal(self) -> bool | None:
        return (not self.violations) if self.checked else None

    @property
    def fraction(self) -> float:
        return self.used / self.allowed if self.allowed else 0.0


def drop_path(state: State, p: Pickup, to: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """The reference model's path to `to`: straight when nothing is in the way, else the route
    round what is (from the reach field)."""
    t = state.table
    start = (float(t.x[p.ref]), float(t.y[p.ref]))
    if p.reach is None:
        return (start, to)
    return tuple((float(x), float(y)) for x, y in p.reach.route(to))


def drop_action(state: State, p: Pickup, to: tuple[float, float], target: int | None,
                facing: float | None = None) -> Action:
    """The action dropping the picked-up unit with its reference model at `to` (turned to
    `facing`, when given) would be."""
    path = drop_path(state, p, to)
    unit = state.scene.units[p.unit]
    tgt = state.scene.units[target].id if target is not None else None
    if not targeted(state, p.ability):
        tgt = None
    if p.single:
        n = p.ref - state.scene.model_offsets()[p.unit] + 1
        return Action(p.ability, unit.id, paths=((n, path),), target=tgt, facing=facing)
    return Action(p.ability, unit.id, path=path, target=tgt, facing=facing)


def rule(state: State, p: Pickup, to: tuple[float, float], target: int | None = None,
         extras: bool = True, engine: bool = True, detail: bool | None = None,
         facing: float | None = None) -> Ruling:
    """The rulings with the reference model dropped at `to` (the others keep formation).
    `engine`: also ask State.check whether the drop is legal (the drag tool asks it every
    frame while it takes less than a frame); else `checked` is False and `violations` empty.
    `detail` (default: as `engine`): the rulings that cost more than a frame, asked when the
    cursor rests - the sight to the target as full / partial / none with its blockers (else
    only live_check's yes / no) and the ruleset's costly notes (skirmish pot shots)."""
    detail = engine if detail is None else detail
    t = state.table
    shift = np.array(to) - np.array([t.x[p.ref], t.y[p.ref]])
    ends = p.start + shift
    action = drop_action(state, p, to, target, facing)
    violations = state.check(action) if engine else []
    path = np.asarray(action.paths[0][1] if p.single else action.path, dtype=np.float64)
    used, climbed = state.rules.move_cost(state, p.unit, p.ref, path)
    turned = None if facing is None or len(p.models) != 1 else [facing]
    pose = (state.rules.window.drop_pose(state, p.unit, action)
            if engine and not violations and not p.single else None)
    if pose is not None:                # where the models really end (a block stopped short)
        ends, turned = np.asarray(pose[0], dtype=np.float64), pose[1]
    moved = t.moved(p.models, ends[:, 0], ends[:, 1], facing=turned)
    referee = referee_of(state, moved)
    check = live_check(referee, p.unit)
    index = {n: i for i, n in enumerate(state.scene.model_names)}
    faults: dict[int, list[str]] = {}
    general = []
    for v in violations:
        named = [index[n] for n in v.models if n in index]     # the one at fault first
        mine = [m for m in named if t.unit[m] == p.unit] or named
        for m in mine[:1]:
            faults.setdefault(m, []).append(v.message)
        if not mine:
            general.append(v.message)
    for m, why in check.coherency.reasons.items():
        faults.setdefault(int(m), []).append(f"coherency: {why}")
    for m in check.coherency.breaks:
        faults.setdefault(int(m), []).append("out of coherency")
    objectives = {}
    for k, o in enumerate(state.scene.objectives):
        if k not in p.control or check.objectives.get(k) or p.touching.get(k):
            # Only the objectives the unit stands in, before or after, can change hands.
            held = state.objectives.get(o.id)
            c = referee.objective(k, held_by=held).controlled_by
            if not check.objectives.get(k) and not p.touching.get(k):
                p.control[k] = c
        else:
            c = p.control[k]
        objectives[o.id] = c
    r = Ruling(action, violations, ends, used, climbed, p.allowed, check, referee, faults,
               general, objectives, target, checked=engine, detailed=detail)
    if not extras:
        return r
    if detail and target is not None:   # full / partial / none and the blockers: at rest
        r.sight = referee.pair(p.unit, target)
    r.notes = state.rules.window.drag_notes(DragContext(state, p.unit, p.ability, action, moved,
                                                 target, detail, p.cache))
    return r


def unit_at(state: State, x: float, y: float, slack: float = 0.0) -> tuple[int, int] | None:
    """(unit, table model) of the model whose base is under the table point, or None."""
    t = state.table
    on = np.nonzero(t.on_table)[0]
    if not len(on):
        return None
    d = np.hypot(t.x[on] - x, t.y[on] - y) - t.reach[on]
    k = int(np.argmin(d))
    if d[k] > slack:
        return None
    m = int(on[k])
    return int(t.unit[m]), m


# How far (inches, ring by ring) a targeted drop may be moved to the nearest legal place
SNAP_RINGS = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
SNAP_DIRECTIONS = 12
# The work a snap may do: places tried times the dropped unit's models (each place is one
# engine check of every model's move). A unit of up to 25 models tries every place; a bigger
# one the nearest places only - the same places, and so the same answer, on any machine.
SNAP_WORK = 3000


def snap_places(models: int) -> int:
    """How many places a snap tries for a unit of `models` models (SNAP_WORK)."""
    return max(SNAP_DIRECTIONS, min(len(SNAP_RINGS) * SNAP_DIRECTIONS,
                                    SNAP_WORK // max(1, models)))


def snap(state: State, p: Pickup, to: tuple[float, float], target: int | None,
         facing: float | None = None) -> tuple[float, float] | None:
    """The legal place nearest `to` (within an inch: SNAP_RINGS) for a targeted drop - a
    charge dropped a hair onto the target's base or just short of contact - or None. Rings of
    places round `to`, nearest first; on each ring first the places towards or away from the
    target's nearest model (contact is made or an overlap undone along that line). The search
    is bounded by its work, not by time: at most snap_places(models) places are tried."""
    if target is None or not targeted(state, p.ability):
        return None
    t = state.table
    foes = state.models_of(target)
    if not len(foes):
        return None
    x, y = to
    k = int(np.argmin(np.hypot(t.x[foes] - x, t.y[foes] - y)))
    toward = math.atan2(float(t.y[foes[k]]) - y, float(t.x[foes[k]]) - x)
    turns = sorted((2 * math.pi * i / SNAP_DIRECTIONS for i in range(SNAP_DIRECTIONS)),
                   key=lambda a: min(abs(math.remainder(a, math.pi)), math.pi))
    left = snap_places(len(p.models))
    for d in SNAP_RINGS:
        for a in turns:
            q = (x + d * math.cos(toward + a), y + d * math.sin(toward + a))
            if not (0 <= q[0] <= t.width and 0 <= q[1] <= t.depth):
                continue
            if left <= 0:
                return None
            left -= 1
            if not state.check(drop_action(state, p, q, target, facing)):
                return q
    return None


def unit_between(state: State, x: float, y: float) -> tuple[int, int] | None:
    """(unit, its model nearest the point) of the unit whose bases surround the table point -
    a press between a unit's bases picks the unit up - or None. The unit's area is the hull of
    its bases; where two overlap, the one with a model nearest the point."""

    t = state.table
    best: tuple[float, int, int] | None = None
    point = shapely.Point(x, y)
    for u in range(len(state.scene.units)):
        ms = np.asarray(state.models_of(u))
        if len(ms) < 2:
            continue
        hull = shapely.MultiPoint(np.column_stack([t.x[ms], t.y[ms]])).convex_hull
        if not hull.buffer(float(t.reach[ms].max())).contains(point):
            continue
        d = np.hypot(t.x[ms] - x, t.y[ms] - y) - t.reach[ms]
        k = int(np.argmin(d))
        if best is None or d[k] < best[0]:
            best = (float(d[k]), u, int(ms[k]))
    return None if best is None else (best[1], best[2])


def nearest_enemy(state: State, p: Pickup, to: tuple[float, float], within: float = 3.0
                  ) -> int | None:
    """The enemy unit with the model nearest the dropped unit's models (base to base, within
    `within` inches): the target a charge or pile-in dropped beside it means."""
    t = state.table
    ends = p.start + (np.asarray(to) - np.array([t.x[p.ref], t.y[p.ref]]))
    mine = state.side_of(p.unit)
    foes = np.array([int(m) for m in np.nonzero(t.on_table)[0]
                     if state.side_of(int(t.unit[m])) != mine], dtype=np.int64)
    if not len(foes):
        return None
    best, unit = within, None
    for m, (x, y) in zip(p.models, ends, strict=True):
        d = t.distances_from(int(m), np.array([x]), np.array([y]), foes, within)[0]
        k = int(np.argmin(d))
        if d[k] <= best:
            best, unit = float(d[k]), int(t.unit[foes[k]])
    return unit


def reasons(violations: list[Violation]) -> list[str]:
    """Every violation's message, those that say the same of several models said once with
    the models listed ("blue-hunters/1, /2, /3 moves through impassable terrain outcrop"), in
    the engine's order: nothing left out, nothing repeated ten times."""
    groups: dict[str, list[str]] = {}
    for v in violations:
        who = v.models[0] if v.models else ""
        if who and v.message.startswith(who + " "):
            groups.setdefault(v.message[len(who):], []).append(who)
        else:
            groups.setdefault(v.message, [])
    out = []
    for rest, who in groups.items():
        if not who:
            out.append(rest)
            continue
        names = [who[0]]
        for w in who[1:]:
            unit, _, n = w.rpartition("/")
            names.append(f"/{n}" if n and unit == who[0].rpartition("/")[0] else w)
        out.append(", ".join(names) + rest)
    return out


def describe(r: Ruling) -> list[str]:
    """The ruling in words, one line each (the overlay's caption; the tests read it)."""
    out = []
    if r.allowed:
        climb = f" (climbing {r.climbed:.2f}\")" if r.climbed > 1e-6 else ""
        out.append(f"{r.action.type}: {r.used:.2f}\"{climb} / {round(r.allowed, 2):g}\"")
    if r.legal is None:
        out.append("checking...")
    else:
        out.append("legal" if r.legal else "illegal: " + "; ".join(reasons(r.violations)))
    out.extend(r.notes.lines)
    if r.sight is not None:
        b = ", ".join(r.sight.blocked_by) if r.sight.blocked_by else ""
        out.append(f"sight: {r.sight.visible}" + (f" (blocked by {b})" if b else ""))
    elif r.target is not None and r.target in r.check.visible:
        out.append("sight: " + ("sees the target" if r.check.visible[r.target] else "none"))
    return out


def outcome(events: list[dict]) -> str:
    """What an applied action came to, in words: 'done', or what failed and why (a charge
    roll too short, a run shorter than the path, a spell failed, miscast or unbound)."""
    return next((why for e in events if (why := failed(e))), "done")


def finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


__all__ = ["Pickup", "Ruling", "pick_up", "rule", "drag_ability", "drag_abilities", "snap",
           "targeted", "needs_nothing", "unit_at", "describe", "drop_action", "outcome"]
