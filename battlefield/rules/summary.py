"""A position in short, for a person: `try --json`'s "state" and the last line of its text
(round, phase, who acts, each side's resources, each unit's models and damage). The position
itself - everything needed to go on from it - is written and restored by rules/position.py."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from battlefield.rules.state import State


def plain(value: Any) -> Any:
    """JSON-ready data: tuples to lists, sets to sorted lists, numpy numbers to Python."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def summary(state: State) -> dict[str, Any]:
    """The position in short, for `try --json`'s "state" and its text's last line."""
    units = {}
    for spec, us in zip(state.scene.units, state.units, strict=True):
        units[spec.id] = {"models_alive": us.models_alive,
                          "damage": [int(d) for d in us.damage],
                          "flags": sorted(us.flags),
                          **({"counters": plain(us.counters)} if us.counters else {})}
    return {"round": state.round, "phase": state.phase, "active": state.active,
            "acting": None if state.over else state.acting_side,
            "sides": {s: {k: plain(v) for k, v in res.items()}
                      for s, res in state.sides.items()},
            "units": units, "objectives": dict(state.objectives),
            **({"pending": [{"side": d.side, "kind": d.kind, "answers": d.answers}
                            for d in state.pending]} if state.pending else {}),
            **({"over": True} if state.over else {})}


def summary_line(state: State) -> str:
    """One line: where the game stands."""
    s = summary(state)
    when = f"round {s['round']}" + (f", {s['active']}'s {s['phase']} phase" if s["phase"]
                                    else f", {s['active']}'s turn" if s["active"]
                                    else ", before its first turn")
    def value(v: Any) -> str:
        return json.dumps(v) if isinstance(v, (dict, list)) else str(v)

    shown = {side: ", ".join(f"{k} {value(v)}" for k, v in r.items() if v not in ([], {}))
             for side, r in s["sides"].items()}
    res = "; ".join(f"{side} {text}" for side, text in shown.items() if text)
    acting = "the battle is over" if s.get("over") else f"{s['acting']} to act"
    if s.get("pending"):
        d = s["pending"][0]
        acting = f"{d['side']} to decide {d['kind']} ({' or '.join(d['answers'])})"
    return f"position: {when}, {acting}" + (f"; {res}" if res else "")
