"""The deployment phase (seed 000: the `deployment` rules, Deploy Unit and Deploy Regiment): a
battle whose scene has units in reserve (`reserve: true`) starts with it. The sides alternate
`deploy` actions, starting with the side that begins deployment (the scene's first side, or its
`state: active`); each sets up one unit in reserve, every model at a place of its own, wholly
within friendly territory, more than 9" from enemy territory (rules.yaml deployment), on the
board, on no other model, out of impassable terrain, not half on a piece taller than the height
climbed freely, and in coherency. `"regiment": true` on a deploy is Deploy Regiment: that side
keeps deploying, without alternating, until every unit of the unit's regiment (the unit key
`regiment`) is set up. Once one side has none left, the other deploys the rest of its own.

`end-phase` in deployment says the side has no more DEPLOY abilities to use: a unit it leaves
in reserve takes no part in the battle. When both sides have finished, battle round 1 begins
(`round_one`: the seam to the start of the battle round).

Faction terrain waiting to be set up (a terrain piece with `side` and `reserve: true`) is set up
first, before any unit: the side that begins deployment sets up its own, then its opponent
(faction_terrain.py, the action `deploy-faction-terrain`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import faction_terrain, turns
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.placing import placed, places, set_up_problems
from battlefield.rules.refusals import v
from battlefield.rules.rounds import other
from battlefield.rules.state import State

PHASE = "deployment"
DEPLOY = "deploy"
REGIMENT_KEY = "regiment"       # the unit key naming a unit's regiment (army import writes it)
EPS = 1e-6                      # "within X": X and a millionth of an inch
Event = dict[str, Any]


# --- who is where ------------------------------------------------------------------------------
SUMMONED = "MANIFESTATION"     # a unit summoned by a spell in the battle: never deployed


def reserves(state: State, side: str, regiment: str | None = None) -> list[int]:
    """The side's units in reserve that may be deployed (of `regiment` when given), in scene
    order: not its manifestations, which wait in reserve to be summoned (seed 000: a
    manifestation is summoned by its spell; battlefield does not play summoning yet)."""
    return [u for u, spec in enumerate(state.scene.units)
            if spec.side == side and state.in_reserve(u) and not spec.has(SUMMONED)
            and (regiment is None or regiment_of(state, u) == regiment)]


def regiment_of(state: State, u: int) -> str | None:
    name = state.scene.units[u].extra.get(REGIMENT_KEY)
    return str(name) if name is not None else None


def played(state: State) -> bool:
    """Whether the battle has a deployment phase: some unit of the scene is in reserve, or
    some faction terrain waits to be set up."""
    return (any(spec.reserve and not spec.has(SUMMONED) for spec in state.scene.units)
            or bool(state.scene.reserve_terrain))


def territory(state: State, side: str) -> shapely.Polygon | None:
    pts = state.scene.deployment.get(side)
    return shapely.Polygon(pts) if pts else None


# --- the start and the end -----------------------------------------------------------------------
def start(state: State) -> list[Event]:
    """Deployment begins (the clock's round is the battle's first; `finished`: the sides that
    have no more DEPLOY abilities to use, in the order they finished; `regiment`: the regiment
    being deployed without alternating)."""
    c = state.clock
    side = c["first"]
    c.update({"round": c["round"] + 1, "phase": PHASE, "active": side, "acting": side,
              "regiment": None, "finished": []})
    events: list[Event] = [{"type": "phase", "phase": PHASE, "active": side}]
    for s in state.sides:              # a side with nothing in reserve has finished already
        if not reserves(state, s):
            events.extend(_finished(state, s))
    faction_terrain.begin(state)       # faction terrain first, when some waits
    if faction_terrain.step(state):
        return events
    events.extend(_next(state, side, alternate=False))
    return events


def _units_begin(state: State) -> list[Event]:
    """The faction terrain step is over: the units are deployed, starting with the side that
    begins deployment."""
    return _next(state, state.clock["first"], alternate=False)


def check_terrain(state: State, action: Action) -> list[Violation]:
    return faction_terrain.check(state, action)


def deploy_terrain(state: State, action: Action) -> list[Event]:
    events = faction_terrain.deploy(state, action)
    return events if faction_terrain.step(state) else events + _units_begin(state)


def _finished(state: State, side: str) -> list[Event]:
    c = state.clock
    if side in c["finished"]:
        return []
    c["finished"].append(side)
    return [{"type": "deployed", "side": side}]


def _next(state: State, side: str, alternate: bool = True) -> list[Event]:
    """Who deploys next: the same side while its regiment is not all set up, else the other
    side while it has DEPLOY abilities to use, else this side; both done: the battle begins."""
    c = state.clock
    if c["regiment"] is not None and side not in c["finished"]:
        c["acting"] = c["active"] = side
        return []
    order = (other(state, side), side) if alternate else (side, other(state, side))
    for s in order:
        if s not in c["finished"]:
            c["acting"] = c["active"] = s        # in deployment the side deploying is active
            return []
    return end(state)


def end(state: State) -> list[Event]:
    """Both sides have deployed: units left in reserve take no part; battle round 1 begins."""
    left = [state.scene.units[u].id for s in state.sides for u in reserves(state, s)]
    events: list[Event] = [{"type": "deployment-over", "finished": list(state.clock["finished"])}]
    if left:
        events.append({"type": "not-deployed", "units": left})
    return events + round_one(state)


def round_one(state: State) -> list[Event]:
    """The seam to battle round 1 (the one call the start of the battle round takes over):
    the seed's startOfBattleRound lets the side that finished setting up its army first decide
    who takes the first turn (its decision, turns.PRIORITY). `clock["finished"]` keeps the order
    the sides finished in."""
    c = state.clock
    c["round"] -= 1
    c["regiment"] = None
    return turns.new_round(state, decides=c["finished"][0])


# --- the action ----------------------------------------------------------------------------------
def check(state: State, action: Action) -> list[Violation]:
    """A deploy: a unit of the acting side in reserve, of the regiment being deployed, one
    place per model, each where the seed lets a unit be set up."""
    if faction_terrain.step(state):
        left = ", ".join(p.id for p in faction_terrain.waiting(state, state.clock["acting"]))
        return [v("terrain_first", f"faction terrain is set up before any unit: "
                                   f"deploy-faction-terrain {left} first (or end-phase)")]
    if action.unit is None:
        return [v("no_unit", "deploy needs a \"unit\": one of the acting side's units in "
                             "reserve", choose="unit")]
    try:
        u = state.unit_index(action.unit)
    except KeyError as exc:
        return [v("unknown_unit", str(exc).strip("'\""))]
    spec = state.scene.units[u]
    c = state.clock
    if spec.side != c["acting"]:
        return [v("not_yours", f"{spec.id} is {spec.side}'s; {c['acting']} is deploying",
                  units=[spec.id])]
    if not state.in_reserve(u):
        return [v("deployed", f"{spec.id} is not in reserve: it has been set up",
                  units=[spec.id])]
    if spec.has(SUMMONED):
        return [v("summoned", f"{spec.id} is a manifestation: it is summoned by its spell "
                              f"during the battle, not deployed (battlefield does not play "
                              f"summoning yet)", units=[spec.id])]
    out = _regiment(state, u, action)
    if out:
        return out
    at = places(action)
    if at is None:
        return [v("no_places", f"deploy needs \"at\": a place [x, y] for each of "
                               f"{spec.id}'s {len(spec.models)} models", choose="at")]
    if len(at) != len(spec.models):
        return [v("places", f"{len(at)} places for {spec.id}'s {len(spec.models)} models: "
                            f"one [x, y] each", given=len(at), needed=len(spec.models),
                  units=[spec.id])]
    return set_up_problems(state, u, at, action.facing, also=territory_problems)


def _regiment(state: State, u: int, action: Action) -> list[Violation]:
    spec = state.scene.units[u]
    going = state.clock["regiment"]
    mine = regiment_of(state, u)
    if going is not None and mine != going:
        left = ", ".join(state.scene.units[w].id for w in reserves(state, spec.side, going))
        return [v("regiment", f"regiment {going} is being deployed: {left} first",
                  units=[spec.id])]
    if action.option("regiment") and going is None:
        if mine is None:
            return [v("no_regiment", f"{spec.id} is in no regiment (the unit key "
                                     f"'regiment')", units=[spec.id])]
        done = [s.id for w, s in enumerate(state.scene.units)
                if regiment_of(state, w) == mine and s.side == spec.side
                and not state.in_reserve(w)]
        if done:
            return [v("regiment_begun", f"regiment {mine} has units set up already: "
                                        f"{', '.join(done)}", units=[spec.id])]
    return []


def territory_problems(probe: State, u: int, models: np.ndarray) -> list[Violation]:
    """Each base wholly within friendly territory and more than the gap from enemy territory
    (base edge to the territory's edge, horizontally)."""
    spec = probe.scene.units[u]
    names = probe.scene.model_names
    t = probe.table
    mine = territory(probe, spec.side)
    if mine is None:
        return [v("no_territory", f"the scene has no territory for {spec.side} "
                                  f"(deployment: {', '.join(probe.scene.deployment) or 'none'})",
                  units=[spec.id])]
    gap = book(probe).core.deployment.enemy_territory
    foes = [(s, territory(probe, s)) for s in probe.scene.deployment if s != spec.side]
    for m in models.tolist():
        foot = _foot(t, m)
        outside = foot.difference(mine.buffer(EPS)).area
        if outside > 1e-9 or not mine.buffer(EPS).covers(foot):
            return [v("outside_territory", f"{names[m]} is not wholly within {spec.side}'s "
                                           f"territory", units=[spec.id], models=[names[m]])]
        for s, zone in foes:
            if zone is None:
                continue
            d = _distance(t, m, zone)
            if d <= gap + EPS:
                return [v("near_enemy_territory", f"{names[m]} is {d:.2f}\" from {s}'s "
                                                  f"territory; it must be more than {gap:g}\"",
                          distance=d, gap=gap, units=[spec.id], models=[names[m]])]
    return []


def _foot(t, m: int) -> shapely.Polygon:
    return t.footprint(m, 256)


def _distance(t, m: int, zone: shapely.Polygon) -> float:
    """Base edge to the zone: exact for a round base (centre distance less the radius)."""
    if int(t.shape[m]) == 0 and t.a[m] == t.b[m]:
        return max(0.0, zone.distance(shapely.Point(float(t.x[m]), float(t.y[m])))
                   - float(t.a[m]))
    return float(_foot(t, m).distance(zone))


def deploy(state: State, action: Action) -> list[Event]:
    """Set the unit up; then the regiment's bookkeeping and who deploys next."""
    u = state.unit_index(action.unit)
    spec = state.scene.units[u]
    c = state.clock
    at = places(action) or []
    _, probe = placed(state, u, at, action.facing)
    state.table = probe.table
    events: list[Event] = []
    if action.option("regiment") and c["regiment"] is None:
        c["regiment"] = regiment_of(state, u)
        events.append({"type": "deploy-regiment", "side": spec.side,
                       "regiment": c["regiment"]})
    events.append({"type": "deployed-unit", "unit": spec.id, "side": spec.side,
                   "models": len(at)})
    if c["regiment"] is not None and not reserves(state, spec.side, c["regiment"]):
        c["regiment"] = None
    if not reserves(state, spec.side):
        events.extend(_finished(state, spec.side))
    return events + _next(state, spec.side)


def pass_(state: State) -> list[Event]:
    """end-phase in deployment: the acting side has no more DEPLOY abilities to use."""
    if faction_terrain.step(state):
        events = faction_terrain.pass_(state)
        return events if faction_terrain.step(state) else events + _units_begin(state)
    side = state.clock["acting"]
    state.clock["regiment"] = None
    events: list[Event] = [{"type": "pass", "side": side, "phase": PHASE}]
    events.extend(_finished(state, side))
    return events + _next(state, side)


def as_deploy(state: State, a: Any, u: int, action: Action) -> list[Violation]:
    """Deploy Unit and Deploy Regiment are played as one action type: `deploy`."""
    regiment = ", \"regiment\": true" if a.id == "deploy-regiment" else ""
    return [v("use_deploy", f"{a.id} is played as {{\"type\": \"deploy\", \"unit\": ID, "
                            f"\"at\": [[x, y], ...]{regiment}}} in the deployment phase")]
