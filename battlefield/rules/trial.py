"""`battlefield try`: apply actions to a scene, each at the moment it belongs to (aos4: the
phase of its ability within the acting side's turn), and report for each whether it was legal,
why not, what it did and which side would send it in a game (State.sender). Also: the scene
after the actions, written back as a scene file."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battlefield.errors import UsageError
from battlefield.geometry.bases import OVAL, ROUND
from battlefield.inputs import plain_whole, shown
from battlefield.rules import decisions, position, registry
from battlefield.rules.actions import Action, Violation
from battlefield.rules.boundary import Refused, playable_units
from battlefield.rules.state import Game, State
from battlefield.scene.model import Scene


def start(scene: Scene, actions: list[Action], seed: int, dice: list[int]) -> State:
    """A state at the moment the actions belong to: the scene's own `state:` (a whole
    position) where it gives one, the ruleset's defaults for these actions otherwise."""
    ruleset = registry.get(scene.ruleset.id)
    playable_units(scene, ruleset.given_stats)
    defaults = ruleset.try_start(scene, actions)
    extra = dict(scene.extra)
    st = dict(extra.get("state") or {})
    for k, v in defaults.items():
        st.setdefault(k, v)
    extra["state"] = st
    game = Game(ruleset, replace(scene, extra=extra), seed)
    return game.new_state(fixed_dice=dice)


def advance(state: State, action: Action) -> list[Violation]:
    """Bring the state to the moment the action belongs to (the ruleset's rule; most play
    actions where the state stands)."""
    return state.rules.try_advance(state, action)


def run(scene: Scene, actions: list[Action | Refused], seed: int = 1,
        dice: list[int] | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Each action in turn; one the boundary refused (rules.boundary.Refused: a field not of
    its type) is reported illegal like any other and changes nothing."""
    state = start(scene, [a for a in actions if isinstance(a, Action)], seed, dice or [])
    results = []
    given: dict[str, Any] = {}          # answers written on the action that raised decisions
    for i, written in enumerate(actions):
        if isinstance(written, Refused):
            results.append({"action": written.to_dict(), "legal": False,
                            "violations": [x.to_dict() for x in written.violations],
                            "events": []})
            continue
        action, shorthand, bad = decisions.shorthand(state, written)
        if not bad and not state.pending:
            bad = advance(state, action)
        if not bad:
            bad = state.check(action)
        by = state.sender(action)       # the side whose seat would send it in a game
        if bad:
            results.append({"action": written.to_dict(), "by": by, "legal": False,
                            "violations": [x.to_dict() for x in bad], "events": []})
            continue
        before = len(state.dice.log)
        shown = decisions.shown(state, written)
        if not state.pending:
            given = shorthand
        events = state.apply(action)
        answered, more = decisions.settle(state, given, [a for a in actions[i + 1:]
                                                         if isinstance(a, Action)])
        results.append({"action": shown, "by": by, "legal": True, "violations": [],
                        "events": events + more,
                        "rolls": [r.to_dict() for r in state.dice.log[before:]],
                        **({"answered": answered} if answered else {})})
    return state, results


def scene_after(state: State) -> dict[str, Any]:
    """The scene as it stands, a whole position: models where they are now (slain ones keep
    their last place and are listed as slain), and `state:` with everything else."""
    scene = state.scene
    t = state.table
    units = []
    offsets = scene.model_offsets()
    for u, spec in enumerate(scene.units):
        models = []
        reserve = state.in_reserve(u)
        for k, m in enumerate(spec.models):
            i = offsets[u] + k
            if reserve:                   # not set up yet: no place (a unit in reserve)
                models.append({"base": _base(m.base), **m.extra})
                continue
            # Exact coordinates (YAML floats round-trip), so the position reads back bit for bit.
            d: dict[str, Any] = {"base": _base(m.base), "at": [float(t.x[i]), float(t.y[i])]}
            if t.facing[i]:
                d["facing"] = float(t.facing[i])
            if m.z_given or t.z[i]:
                d["z"] = float(t.z[i])
            if m.height_given:
                d["height"] = m.height
            d.update(m.extra)
            models.append(d)
        item: dict[str, Any] = {"id": spec.id, "side": spec.side}
        if spec.name and spec.name != spec.id:
            item["name"] = spec.name
        if spec.stats:
            item["stats"] = spec.stats
        if spec.weapons:
            item["weapons"] = spec.weapons
        if spec.keywords:
            item["keywords"] = list(spec.keywords)
        if spec.leader:
            item["leader"] = spec.leader + 1
        item.update(spec.extra)
        if reserve:
            item["reserve"] = True
        item["models"] = models
        units.append(item)
    out: dict[str, Any] = {"ruleset": scene.ruleset.id,
                           "board": {"width": scene.width, "depth": scene.depth}}
    if scene.name:
        out["name"] = scene.name
    if scene.description:
        out["description"] = scene.description
    out["terrain"] = [{"id": p.id, "outline": [list(pt) for pt in p.outline],
                       "height": p.height, "kind": p.kind,
                       **({"side": p.side} if p.side else {}),
                       **({"reserve": True} if p.reserve else {})}
                      for p in (*scene.terrain, *scene.reserve_terrain)]
    out["objectives"] = []
    for o in scene.objectives:
        d = {"id": o.id, "at": [o.x, o.y]}
        d.update(o.extra)
        if o.controlled_by:
            d["controlled_by"] = o.controlled_by
        out["objectives"].append(d)
    if scene.deployment:
        out["deployment"] = {s: [list(p) for p in pts] for s, pts in scene.deployment.items()}
    out["state"] = position.write(state)
    out["units"] = units
    return out


def _base(base) -> Any:
    if base.shape == ROUND:
        return base.mm[0]
    if base.shape == OVAL:
        return list(base.mm)
    return {"rect": list(base.mm)}


def parse_dice(text: str) -> list[int]:
    """`4,4,6` as dice: plain digits between commas (not "4,,6", "+4" or another script's 4)."""
    read = [plain_whole(x.strip()) for x in text.split(",")]
    if any(x is None for x in read):
        raise UsageError(f"--dice {shown(text)}: expected numbers separated by commas, "
                         f"e.g. 4,4,6")
    values = [x for x in read if x is not None]
    if any(not 1 <= x <= 6 for x in values):
        raise UsageError(f"--dice {shown(text)}: every die is 1 to 6")
    return values
