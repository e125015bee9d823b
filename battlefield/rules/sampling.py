"""Random legal actions: an action type the acting side may use now (`State.available`), each of
its fields drawn from the field's declared type (rules.boundary: the engine's fields and the
ruleset's `action_fields:`) and from what the table offers - the side's units, every unit as a
target, the unit's weapons, a path from its leader to a random point it may reach (for a
targeted move: to a point touching the target) - and kept only when `State.check` accepts it.

A field of the ruleset's own vocabulary (a text, a mapping) takes one of the values its
`Ruleset.field_values` hook names now; a ruleset that names none gets the value of its
vocabulary's example (ruleset.yaml `actions:`), so that every type can still be tried.

The random legal player (rules/players.py) and the search (rules/search.py) draw from here;
nothing here reads the dice or changes the state."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from battlefield.inputs import FieldType
from battlefield.rules import boundary
from battlefield.rules.actions import Action
from battlefield.rules.moves import leader
from battlefield.rules.state import State

TRIES = 12                 # draws of one type's fields before it is given up for this choice
REACH = 12.0               # how far a path may go when the ruleset names no allowance (inches)
SMALL = 12                 # a whole number of a wide range is drawn from its low end (dice)
_PATH_FIELDS = {"path", "path | paths", "paths"}
_FIXED = ("unit", "side", "target", "weapon", "facing", "path", "paths")


def fields_of(state: State, kind: str) -> list[tuple[str, bool]]:
    """(field, required) for an action type, as its vocabulary entry lists them ('path |
    paths' read as a path); a type the vocabulary does not list (an aos4 spell, a warband
    fighter's ability) is taken to name its unit and, maybe, a target."""
    doc = state.rules.doc(state, kind)
    if doc is None:
        return [("unit", True), ("target", False)]
    out = []
    for f in doc.fields:
        optional = f.endswith("?")
        name = f.rstrip("?").strip()
        if name in _PATH_FIELDS - {"paths"}:
            name = "path"
        elif name == "paths":
            continue                   # each model's own path: left out (a path moves all)
        out.append((name, not optional))
    return out


def example_of(state: State, kind: str) -> dict[str, Any]:
    """The vocabulary's example of an action type (empty when it has none)."""
    doc = state.rules.doc(state, kind)
    return dict(doc.example or {}) if doc is not None else {}


def draw(state: State, rng: random.Random, kind: str, tries: int = TRIES) -> Action | None:
    """A legal action of type `kind` drawn at random within `tries` draws, or None. The unit
    is drawn from those the engine would let take it (a probe without the fields still to
    choose: rules.choices), the target from those it would let the unit aim at."""
    wanted = fields_of(state, kind)
    names = {n for n, _ in wanted}
    units = _able(state, kind) if "unit" in names else [None]
    if not units:
        return None
    for _ in range(tries):
        u = rng.choice(units)
        action = _one(state, rng, kind, wanted, u)
        if action is not None and not state.check(action):
            return action
    return None


def _able(state: State, kind: str) -> list[int]:
    """The acting side's units that may take `kind` now, the fields still to choose aside."""
    side = state.acting_side
    out = []
    for i, spec in enumerate(state.scene.units):
        if spec.side != side or not len(state.models_of(i)):
            continue
        if all(v.choose is not None for v in state.check(Action(kind, unit=spec.id))):
            out.append(i)
    return out


def _targets(state: State, kind: str, u: int | None) -> list[int]:
    """The units the engine would let `u` aim `kind` at (every unit on the table when none
    passes the probe: the draw is then refused by the check, as any other)."""
    alive = [i for i in range(len(state.scene.units)) if len(state.models_of(i))]
    if u is None:
        return alive
    unit = state.scene.units[u].id
    ok = []
    for w in alive:
        bad = state.check(Action(kind, unit=unit, target=state.scene.units[w].id))
        if all(v.choose not in (None, "target") for v in bad):
            ok.append(w)
    return ok or alive


def random_legal(state: State, rng: random.Random, tries: int = TRIES,
                 leave_out: Sequence[str] = ()) -> Action | None:
    """A legal action drawn uniformly over the types the acting side may use now (a pending
    decision: one of its choices), then over each type's fields; None when no draw of any
    type was legal. `leave_out`: types not to draw."""
    if state.pending:
        return rng.choice(state.pending[0].choices)
    kinds = [k for k in state.available() if k not in leave_out]
    rng.shuffle(kinds)
    for kind in kinds:
        action = draw(state, rng, kind, tries)
        if action is not None:
            return action
    return None


# --- one draw ------------------------------------------------------------------------------------
def _one(state: State, rng: random.Random, kind: str, wanted: list[tuple[str, bool]],
         unit: int | None) -> Action | None:
    side = state.acting_side
    data: dict[str, Any] = {"type": kind}
    names = [n for n, need in wanted if need or rng.random() < 0.5]
    if unit is not None:
        data["unit"] = state.scene.units[unit].id
    target = None
    if "target" in names:
        target = rng.choice(_targets(state, kind, unit))
        data["target"] = state.scene.units[target].id
    if "side" in names:
        data["side"] = side
    if "weapon" in names and unit is not None:
        weapons = [w.get("name") for w in state.scene.units[unit].weapons if w.get("name")]
        if weapons:
            data["weapon"] = rng.choice(weapons)
    if "facing" in names:
        data["facing"] = round(rng.uniform(-180.0, 180.0), 1)
    if "path" in names and unit is not None:
        data["path"] = _path(state, rng, kind, unit, target)
    types = boundary.field_types(state.scene)
    for name in names:
        if name in _FIXED:
            continue
        t = types.get(name)
        value = _value(state, rng, kind, name, t, unit) if t is not None else None
        if value is not None:
            data[name] = value
    return Action.from_dict(data)


def _path(state: State, rng: random.Random, kind: str, u: int, target: int | None
          ) -> list[list[float]]:
    """From the unit's leader to a random point: for a targeted move (one that names a
    target) touching the target's nearest model, otherwise anywhere within the move the
    ruleset allows (REACH when it names none)."""
    t = state.table
    lead = leader(state, u)
    x, y = float(t.x[lead]), float(t.y[lead])
    if target is not None and target != u and len(state.models_of(target)):
        theirs = state.models_of(target)
        m = int(theirs[int(rng.randrange(len(theirs)))])
        tx, ty = float(t.x[m]), float(t.y[m])
        d = math.hypot(tx - x, ty - y)
        gap = float(t.reach[lead] + t.reach[m]) + rng.uniform(0.05, 0.5)
        if d > gap:
            f = (d - gap) / d
            return [[x, y], [round(x + (tx - x) * f, 3), round(y + (ty - y) * f, 3)]]
    allowance = state.rules.move_allowance(state, u, kind)
    reach = REACH if allowance is None or not math.isfinite(allowance) else float(allowance)
    far = reach * math.sqrt(rng.random())          # uniform over the disc it may reach
    a = rng.uniform(-math.pi, math.pi)
    ex = min(max(x + far * math.cos(a), 0.0), float(state.scene.width))
    ey = min(max(y + far * math.sin(a), 0.0), float(state.scene.depth))
    return [[x, y], [round(ex, 3), round(ey, 3)]]


def _value(state: State, rng: random.Random, kind: str, name: str, t: FieldType,
           u: int | None) -> Any:
    """A value of the ruleset's field `name` of type `t`: one the ruleset names now
    (Ruleset.field_values), else one of its type, else the vocabulary example's."""
    named = state.rules.field_values(state, kind, name, u)
    if named:
        return rng.choice(list(named))
    drawn = _of_type(state, rng, t)
    if drawn is not None:
        return drawn
    return example_of(state, kind).get(name)


def _of_type(state: State, rng: random.Random, t: FieldType) -> Any:
    """A value of type `t` drawn from what the scene offers; None for a text or a mapping
    (their values are the ruleset's: `field_values` or the example)."""
    k = t.kind
    if k == "any-of":
        options = list(t.options)
        rng.shuffle(options)
        for o in options:
            v = _of_type(state, rng, o)
            if v is not None:
                return v
        return None
    if k == "yes-no":
        return rng.random() < 0.5
    if k in ("whole", "number"):
        low = 0 if t.low is None else int(math.ceil(t.low))
        high = low + SMALL if t.high is None else int(min(t.high, low + SMALL))
        return rng.randint(low, max(low, high))
    if k == "point":
        return [round(rng.uniform(0, state.scene.width), 3),
                round(rng.uniform(0, state.scene.depth), 3)]
    if k == "unit":
        return rng.choice(state.scene.units).id if state.scene.units else None
    if k == "side":
        return state.acting_side
    if k == "list" and t.item is not None:
        v = _of_type(state, rng, t.item)
        return None if v is None else [v]
    if k in ("side-map", "unit-map") and t.item is not None:
        v = _of_type(state, rng, t.item)
        if v is None:
            return None
        key = (state.acting_side if k == "side-map"
               else rng.choice(state.scene.units).id if state.scene.units else None)
        return None if key is None else {key: v}
    return None


__all__ = ["draw", "example_of", "fields_of", "random_legal"]
