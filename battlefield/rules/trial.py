"""`battlefield try`: apply actions to a scene within one turn of the acting side, each in the
phase its ability belongs to, and report for each whether it was legal, why not, and what it did.
Also: the scene after the actions, written back as a scene file."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battlefield.errors import UsageError
from battlefield.rules import decisions
from battlefield.rules.actions import Action, Violation
from battlefield.rules.log import rules_for
from battlefield.rules.state import Game, State
from battlefield.scene.model import Scene


def phase_of(state: State, action: Action) -> tuple[str, str] | None:
    """(phase, whose) the action's ability is used in, as seen by the acting unit's side."""
    if state.rules.id != "aos4":
        return None
    from battlefield.rules.aos4.data import abilities
    from battlefield.rules.aos4.magic import known

    a = abilities().get(action.type)
    if a is None and action.type in known(state):
        return ("hero", _magic_whose(action))
    return a.phases[0] if a is not None and a.phases else None


def _magic_whose(action: Action) -> str:
    """Spells and prayers: your hero phase, or the enemy's with Magical Intervention."""
    names = action.option("command")
    names = [names] if isinstance(names, str) else list(names or [])
    return "enemy" if "magical-intervention" in names else "your"


def acting_side(scene: Scene, actions: list[Action]) -> str:
    for a in actions:
        if a.side:
            return a.side
        if a.unit:
            for u in scene.units:
                if u.id == a.unit:
                    return u.side
    return scene.sides[0]


def start(scene: Scene, actions: list[Action], seed: int, dice: list[int]) -> State:
    """A state at the start of the turn the actions belong to."""
    rules = rules_for(scene.ruleset.id)
    side = acting_side(scene, actions)
    first = phase_of_game(scene, actions)
    active = side if first != "enemy" else next((s for s in scene.sides if s != side), side)
    extra = dict(scene.extra)
    st = dict(extra.get("state") or {})
    st.setdefault("active", active)
    extra["state"] = st
    game = Game(rules, replace(scene, extra=extra), seed)
    return game.new_state(fixed_dice=dice)


def phase_of_game(scene: Scene, actions: list[Action]) -> str | None:
    if scene.ruleset.id != "aos4" or not actions:
        return None
    from battlefield.rules.aos4.data import abilities

    a = abilities().get(actions[0].type)
    if a is None:
        return _magic_whose(actions[0])
    return a.phases[0][1] if a.phases else None


def advance(state: State, action: Action) -> list[Violation]:
    """Pass phases until the action's phase and actor come up in this turn."""
    from battlefield.rules.aos4.turns import PHASES

    where = phase_of(state, action)
    if where is None:
        return []
    phase, _ = where
    side = acting_side(state.scene, [action])
    c = state.clock
    target = PHASES.index(phase)
    turn = (c["round"], c["turn"])
    while True:
        if state.over or (c["round"], c["turn"]) != turn:
            return [Violation("phase_passed", f"the {phase} phase of this turn has passed")]
        now = PHASES.index(c["phase"])
        if now > target:
            return [Violation("phase_passed", f"the {phase} phase of this turn has passed "
                                              f"(it is the {c['phase']} phase)")]
        if now == target and c["acting"] == side:
            return []
        end = Action("end-phase")      # the side acting now passes
        bad = state.check(end)
        if bad:
            return bad
        state.apply(end)


def run(scene: Scene, actions: list[Action], seed: int = 1, dice: list[int] | None = None
        ) -> tuple[State, list[dict[str, Any]]]:
    state = start(scene, actions, seed, dice or [])
    results = []
    given: dict[str, Any] = {}          # answers written on the action that raised decisions
    for i, written in enumerate(actions):
        action, shorthand, bad = decisions.shorthand(state, written)
        if not bad and not state.pending:
            bad = advance(state, action)
        if not bad:
            bad = state.check(action)
        if bad:
            results.append({"action": written.to_dict(), "legal": False,
                            "violations": [x.to_dict() for x in bad], "events": []})
            continue
        before = len(state.dice.log)
        shown = decisions.shown(state, written)
        if not state.pending:
            given = shorthand
        events = state.apply(action)
        answered, more = decisions.settle(state, given, actions[i + 1:])
        results.append({"action": shown, "legal": True, "violations": [],
                        "events": events + more,
                        "rolls": [r.to_dict() for r in state.dice.log[before:]],
                        **({"answered": answered} if answered else {})})
    return state, results


def scene_after(state: State) -> dict[str, Any]:
    """The scene as it stands: models where they are now, slain ones gone, objectives held."""
    scene = state.scene
    t = state.table
    units = []
    offsets = scene.model_offsets()
    for u, spec in enumerate(scene.units):
        models = []
        for k, m in enumerate(spec.models):
            i = offsets[u] + k
            if t.unit[i] < 0:
                continue
            d: dict[str, Any] = {"base": _base(m.base), "at": [round(float(t.x[i]), 6),
                                                              round(float(t.y[i]), 6)]}
            if t.facing[i]:
                d["facing"] = round(float(t.facing[i]), 6)
            if m.z_given:
                d["z"] = float(t.z[i])
            if m.height_given:
                d["height"] = m.height
            models.append(d)
        if not models:
            continue
        item: dict[str, Any] = {"id": spec.id, "side": spec.side}
        if spec.name and spec.name != spec.id:
            item["name"] = spec.name
        if spec.stats:
            item["stats"] = spec.stats
        if spec.weapons:
            item["weapons"] = spec.weapons
        if spec.keywords:
            item["keywords"] = list(spec.keywords)
        if spec.spells:
            item["spells"] = spec.spells
        if spec.prayers:
            item["prayers"] = spec.prayers
        leader_k = spec.leader
        alive_ks = [k for k in range(len(spec.models)) if t.unit[offsets[u] + k] >= 0]
        if leader_k in alive_ks and alive_ks.index(leader_k):
            item["leader"] = alive_ks.index(leader_k) + 1
        item["models"] = models
        units.append(item)
    out: dict[str, Any] = {"ruleset": scene.ruleset.id,
                           "board": {"width": scene.width, "depth": scene.depth}}
    if scene.name:
        out["name"] = scene.name
    if scene.description:
        out["description"] = scene.description
    out["terrain"] = [{"id": p.id, "outline": [list(pt) for pt in p.outline],
                       "height": p.height, "kind": p.kind} for p in scene.terrain]
    out["objectives"] = []
    for o in scene.objectives:
        d = {"id": o.id, "at": [o.x, o.y]}
        if o.home:
            d["home"] = o.home
        held = state.objectives.get(o.id)
        if held:
            d["controlled_by"] = held
        out["objectives"].append(d)
    if scene.deployment:
        out["deployment"] = {s: [list(p) for p in pts] for s, pts in scene.deployment.items()}
    out["units"] = units
    return out


def _base(base) -> Any:
    from battlefield.geometry.bases import OVAL, ROUND

    if base.shape == ROUND:
        return base.mm[0]
    if base.shape == OVAL:
        return list(base.mm)
    return {"rect": list(base.mm)}


def parse_dice(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise UsageError(f"--dice {text!r}: expected numbers separated by commas, "
                         f"e.g. 4,4,6") from None
    if any(not 1 <= x <= 6 for x in values):
        raise UsageError(f"--dice {text!r}: every die is 1 to 6")
    return values
