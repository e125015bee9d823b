"""Targets in analyze's own terms, and how far a table's figures are from them.

- visible: analyze's visible_fraction (the board-wide mean share a model sees);
- hidden: each side's hidden_from_enemy (share of its zone no enemy zone cell sees);
- objective: each side's objective_sight_mean (share of its zone that sees each objective);
- reach: each side's mean over the objectives of reach.SIDE.OBJECTIVE.turns.

The score of a table is the sum of |figure - target| over the figures (per side for the side
figures) plus, for each side figure, the gap between the sides. A table meets its targets when
every figure is within TOLERANCE of its target.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from battlefield.errors import UsageError
from battlefield.rulesets import LAYOUT_TARGETS

TOLERANCE = 0.03
SIDE_FIGURES = ("hidden", "objective", "reach")
SHARES = ("visible", "hidden", "objective")
WORDS = {"visible": "board seen (visible_fraction)",
         "hidden": "zone hidden from the enemy (hidden_from_enemy)",
         "objective": "objectives seen from the zone (objective_sight_mean)",
         "reach": "turns to march to an objective (mean of reach turns)"}


MAX_TURNS = 100      # a reach target beyond any battle's length (1e308 made the score inf)


@dataclass(frozen=True)
class Targets:
    values: tuple[tuple[str, float], ...]

    def __getitem__(self, key: str) -> float:
        return dict(self.values)[key]

    def keys(self) -> list[str]:
        return [k for k, _ in self.values]

    def to_dict(self) -> dict[str, float]:
        return dict(self.values)

    def text(self) -> str:
        return ",".join(f"{k}={v:g}" for k, v in self.values)


def parse(text: str | None, defaults: Targets | None = None) -> Targets:
    """`visible=0.45,hidden=0.1` over the defaults (a key given replaces the default's)."""
    out = dict(defaults.values) if defaults else {}
    given: set[str] = set()
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in LAYOUT_TARGETS:
            raise UsageError(f"--target {part!r}: expected KEY=VALUE with KEY one of "
                             + ", ".join(LAYOUT_TARGETS))
        if key in given:                # not the last one silently
            raise UsageError(f"--target {key} is given twice: give each key once")
        given.add(key)
        try:
            v = float(value)
        except ValueError:
            raise UsageError(f"--target {key}={value}: the value must be a number") from None
        if not math.isfinite(v) or v < 0 or v > (1 if key in SHARES else MAX_TURNS):
            what = "a share from 0 to 1" if key in SHARES else f"0 to {MAX_TURNS} turns"
            raise UsageError(f"--target {key}={value}: expected {what}")
        out[key] = v
    return Targets(tuple((k, out[k]) for k in LAYOUT_TARGETS if k in out))


def figures_of(analysis: dict) -> dict[str, float | dict[str, float | None] | None]:
    """The target figures of an analyze JSON (survey figures): visible, and per side
    hidden, objective and reach."""
    sides = list(analysis["sides"])
    out: dict = {"visible": analysis["visible_fraction"]}
    out["hidden"] = {s: analysis["sides"][s]["hidden_from_enemy"] for s in sides}
    out["objective"] = {s: analysis["sides"][s]["objective_sight_mean"] for s in sides}
    reach: dict[str, float | None] = {}
    for s in sides:
        turns = [r["turns"] for r in analysis["reach"].get(s, {}).values()]
        reach[s] = (None if not turns or None in turns else round(sum(turns) / len(turns), 4))
    out["reach"] = reach
    return out


def rows(figures: dict, targets: Targets) -> list[dict]:
    """One row per figure and side against its target, then one per side figure's gap."""
    out = []
    for key in targets.keys():
        t = targets[key]
        val = figures.get(key)
        if key == "visible":
            out.append(_row(key, None, val, t))
            continue
        for side, v in (val or {}).items():
            out.append(_row(key, side, v, t))
    for key in targets.keys():
        if key in SIDE_FIGURES and isinstance(figures.get(key), dict):
            vals = list(figures[key].values())
            if len(vals) >= 2:
                gap = (None if None in vals else round(max(vals) - min(vals), 6))
                out.append({"figure": key, "side": "gap", "value": gap, "target": 0.0,
                            "distance": gap if gap is not None else math.inf,
                            "met": gap is not None and gap <= TOLERANCE + 1e-9})
    return out


def _row(key: str, side: str | None, v: float | None, t: float) -> dict:
    d = math.inf if v is None else abs(v - t)
    return {"figure": key, "side": side, "value": v, "target": t,
            "distance": round(d, 6) if math.isfinite(d) else d,
            "met": d <= TOLERANCE + 1e-9}


def score(table_rows: list[dict]) -> float:
    """The sum of the rows' distances (inf when a figure is missing: no path, say)."""
    return float(sum(r["distance"] for r in table_rows))


def met(table_rows: list[dict]) -> bool:
    return all(r["met"] for r in table_rows if r["side"] != "gap")
