"""The battle round (RULES-NOTES): the initiative phase, then the combat phase in which the
sides alternate activating one fighter that has not activated; a side with nobody left passes.
After the combat phase each objective's control is updated (the side with more fighters within
3" of it gains it, and keeps it until the other does) and each gives its side 1 VP. Four rounds;
a side with no fighters left loses at once.

A fighter's flags for the round: "activated" (it has activated), "waiting" (it waited as its
first action and activates once more), "done" (no activation left). Counters: "defense" lasts
the round (Rampage); the rest last one activation (actions taken, bonus actions, Rush ...).
"""

from __future__ import annotations

from typing import Any

from battlefield.errors import UsageError
from battlefield.rules.state import State, scene_start, start_round
from battlefield.rules.warband import initiative
from battlefield.rules.warband.data import fighters, game
from battlefield.rulings import Referee
from battlefield.scene.model import Scene

Event = dict[str, Any]
START_KEYS = ("round", "active", "initiative")
ROUND_COUNTERS = ("defense",)


def alive(state: State, u: int) -> bool:
    return bool(len(state.models_of(u)))


def fighters_of(state: State, side: str) -> list[int]:
    return [u for u, spec in enumerate(state.scene.units)
            if spec.side == side and alive(state, u)]


def can_activate(state: State, u: int) -> bool:
    return alive(state, u) and "done" not in state.units[u].flags


def left(state: State, side: str) -> list[int]:
    """The side's fighters that may still activate this round."""
    return [u for u in fighters_of(state, side) if can_activate(state, u)]


def begin(state: State) -> list[Event]:
    scene = state.scene
    where = scene.file
    if len(scene.sides) != 2:
        raise UsageError(f"{where}: a warband battle needs two sides; the scene has "
                         f"{len(scene.sides)}: {', '.join(scene.sides)}")
    fighters(scene, state.rules.book)                  # every fighter checked up front
    start, active = scene_start(state, START_KEYS)
    rnd = start_round(state, start, game(state).rounds)
    state.sides = {s: {"singles": 0, "ability_dice": [], "rolled": [], "initiative": False,
                       "vp": 0, "activated": [], "waiting": []} for s in scene.sides}
    state.clock = {"round": rnd, "phase": "initiative", "active": active, "initiative": None,
                   "activating": None, "commanded": None, "over": False}
    state.objectives = {o.id: o.controlled_by for o in scene.objectives}
    events: list[Event] = [{"type": "battle-round", "round": rnd}]
    given = given_roll(scene, start.get("initiative"), game(state).initiative_dice)
    if given is not None:
        counts = {s: initiative.split(d)[0] for s, d in given.items()}
        if len(set(counts.values())) > 1:            # no roll-off: nothing to roll
            events.extend(initiative.roll(state, given))
        else:
            state.clock["given"] = given
    return events


def given_roll(scene: Scene, raw: Any, n: int) -> dict[str, list[int]] | None:
    """The scene's initiative roll for the first round: {side: `n` dice}."""
    if raw is None:
        return None
    want = f"{{{', '.join(f'{s}: [{n} dice 1-6]' for s in scene.sides)}}}"
    if isinstance(raw, dict):
        odd = [s for s in raw if s not in scene.sides]
        if odd:
            raise scene.error(("state", "initiative", odd[0]), f"no side {odd[0]!r}", want)
    if not isinstance(raw, dict) or sorted(raw) != sorted(scene.sides):
        raise scene.error(("state", "initiative"), "must give each side's roll", want)
    for side, dice in raw.items():
        if (not isinstance(dice, list) or len(dice) != n
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                           for d in dice)):
            raise scene.error(("state", "initiative", side), f"{side}'s roll must be {n} dice "
                                                             f"of 1 to 6", want)
    return {s: list(raw[s]) for s in scene.sides}


def refresh(state: State) -> None:
    """Each side's lists for people (try's state, the window): who has activated, who waits."""
    for side, d in state.sides.items():
        ids = [(state.scene.units[u].id, state.units[u].flags) for u in fighters_of(state, side)]
        d["activated"] = [i for i, f in ids if "activated" in f]
        d["waiting"] = [i for i, f in ids if "waiting" in f]


def control(state: State) -> dict[str, str | None]:
    """Sticky control now: more fighters within 3" of the objective gains it."""
    ref = Referee(state.scene, state.table)
    return {o.id: ref.objective(k, held_by=state.objectives.get(o.id)).controlled_by
            for k, o in enumerate(state.scene.objectives)}


def vp(state: State) -> dict[str, int]:
    return {s: int(d["vp"]) for s, d in state.sides.items()}


def end_round(state: State) -> list[Event]:
    c = state.clock
    state.objectives = control(state)
    gained = {s: 0 for s in state.sides}
    for held in state.objectives.values():
        if held in gained:
            gained[held] += game(state).objective_vp
    for s, n in gained.items():
        state.sides[s]["vp"] += n
    events: list[Event] = [{"type": "end-round", "round": c["round"],
                            "objectives": dict(state.objectives), "gained": gained,
                            "vp": vp(state)}]
    if c["round"] >= game(state).rounds:
        c["over"] = True
        return events
    c["round"] += 1
    c.update({"phase": "initiative", "active": state.scene.sides[0], "initiative": None,
              "activating": None, "commanded": None})
    for us in state.units:
        us.flags.clear()
        us.counters.clear()
    for d in state.sides.values():
        d.update({"singles": 0, "ability_dice": [], "rolled": [], "initiative": False})
    events.append({"type": "battle-round", "round": c["round"]})
    return events
