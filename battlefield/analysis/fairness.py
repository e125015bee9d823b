"""Fairness: every per-side figure side by side, the gap between the sides, and a plain verdict
naming the figures that drive it; and two layouts compared figure by figure.

A gap counts when it reaches THRESHOLD: for a share (of a zone, of the board), that many
percentage points; for a distance, that share of the longer one (or of a move, when both are
shorter than a move, so a quarter inch near the zone is not "50%"). The verdict weighs only the
figures where more is plainly better or worse for a side; the others are shown for reading.
"""

from __future__ import annotations

import math

THRESHOLD = 0.05

# (key, words, unit, which way is better for the side: "higher", "lower" or None)
FIGURES = (
    ("objective_sight_mean", "objectives seen from the zone (mean)", "share", "higher"),
    ("hidden_from_enemy", "zone hidden from the enemy zone", "share", "higher"),
    ("reach_mean", "march to an objective (mean)", "inches", "lower"),
    ("reach_nearest", "march to the nearest objective", "inches", "lower"),
    ("contest_turns_total", "turns to contest every objective (sum)", "turns", "lower"),
    ("sees_board", "board seen from the zone (mean)", "share", None),
)


def gap(a: float, b: float, unit: str, move: float) -> float:
    """How far apart two values are, on the scale THRESHOLD is read on."""
    if unit == "share":
        return abs(a - b)
    scale = max(abs(a), abs(b), move if unit == "inches" else 1.0)
    return abs(a - b) / scale if scale > 0 else 0.0


def _rows(fig: dict) -> list[dict]:
    """One row per figure: (key, words, unit, better, {side: value}), then one per objective."""
    sides = fig["sides"]
    rows = [{"figure": key, "words": words, "unit": unit, "better": better,
             "values": {s: v.get(key) for s, v in sides.items()}}
            for key, words, unit, better in FIGURES]
    objectives = list(next(iter(sides.values()))["objective_sight"]) if sides else []
    for o in objectives:
        rows.append({"figure": f"objective_sight.{o}", "words": f"{o} seen from the zone",
                     "unit": "share", "better": None,
                     "values": {s: v["objective_sight"].get(o) for s, v in sides.items()}})
    for o in objectives:
        rows.append({"figure": f"reach.{o}", "words": f"march to {o}", "unit": "inches",
                     "better": None,
                     "values": {s: fig["reach"].get(s, {}).get(o, {}).get("inches")
                                for s in sides}})
    return rows


def side_table(fig: dict) -> dict:
    """Per-side figures with, for each, the largest gap between two sides and who it favours."""
    move = float(fig.get("move", 0.0))
    rows = _rows(fig)
    for row in rows:
        vals = {s: v for s, v in row["values"].items() if v is not None}
        row["difference"] = None
        row["gap"] = None
        row["favours"] = None
        if len(vals) < 2:
            continue
        hi = max(vals, key=lambda s: vals[s])
        lo = min(vals, key=lambda s: vals[s])
        row["difference"] = round(vals[hi] - vals[lo], 4)
        if len(vals) == 2:
            a, b = list(row["values"])[:2]
            row["difference"] = round(vals[a] - vals[b], 4)
        g = gap(vals[hi], vals[lo], row["unit"], move)
        row["gap"] = round(g, 4)
        if row["better"] and g > 0:
            row["favours"] = hi if row["better"] == "higher" else lo
    return {"sides": list(fig["sides"]), "threshold": THRESHOLD, "rows": rows,
            "differences": {r["figure"]: r["difference"] for r in rows}}


def _value(v: float, unit: str) -> str:
    if unit == "share":
        return f"{v:.0%}"
    if unit == "inches":
        return f'{v:.1f}"'
    return f"{v:g}"


def _gap_text(g: float, unit: str) -> str:
    return f"{g * 100:.0f} points" if unit == "share" else f"{g:.0%}"


def verdict(fig: dict, threshold: float = THRESHOLD) -> dict:
    """'fair' when no weighed figure differs by the threshold; else who is favoured and by what:
    one side when every such figure favours it, or when its gaps add up to at least twice the
    others' ("on balance", the figures against it named too); else "uneven both ways". The
    symmetry of the layout is said alongside."""
    table = fig.get("fairness") or side_table(fig)
    sides = table["sides"]
    sym = fig.get("symmetry", {})
    note = ""
    if sym.get("swaps_sides_under"):
        note = f"; the layout is symmetric ({sym['swaps_sides_under'][0]} swaps the sides)"
    elif sym.get("symmetric_under"):
        note = (f"; the layout is symmetric under {', '.join(sym['symmetric_under'])}, which "
                "keeps each side where it is")
    elif sym.get("summary"):
        note = f"; {sym['summary']}"
    if len(sides) < 2:
        text = ("no verdict: the map has " + ("one deployment zone" if sides
                                               else "no deployment zones"))
        return {"fair": None, "favours": None, "text": text, "drivers": []}
    weighed = [r for r in table["rows"] if r["better"] and r["gap"] is not None]
    drivers = sorted((r for r in weighed if r["gap"] >= threshold - 1e-12),
                     key=lambda r: -r["gap"])
    if not drivers:
        largest = max(weighed, key=lambda r: r["gap"], default=None)
        text = f"fair: every difference under {threshold:.0%}"
        if largest is not None:
            text += f" (largest: {largest['words']}, {_gap_text(largest['gap'], largest['unit'])})"
        return {"fair": True, "favours": None, "text": text + note, "drivers": []}
    score: dict[str, float] = {}
    for r in drivers:
        score[r["favours"]] = score.get(r["favours"], 0.0) + r["gap"]
    ranked = sorted(score, key=lambda side: -score[side])
    side = ranked[0]
    lead = [_driver_text(r) for r in drivers if r["favours"] == side]
    rest = [_driver_text(r) for r in drivers if r["favours"] != side]
    out = {"fair": False, "favours": None, "drivers": [r["figure"] for r in drivers],
           "score": {k: round(v, 4) for k, v in score.items()}}
    if not rest:
        out.update(favours=side, text=f"favours {side}: " + "; ".join(lead) + note)
    elif score[side] >= 2 * sum(score[o] for o in ranked[1:]):
        out.update(favours=side, text=f"favours {side} on balance: " + "; ".join(lead)
                   + "; against: " + "; ".join(rest) + note)
    else:
        out.update(text="uneven both ways: " + "; ".join(lead + rest) + note)
    return out


def _driver_text(r: dict) -> str:
    vals = ", ".join(f"{s} {_value(v, r['unit'])}" for s, v in r["values"].items()
                     if v is not None)
    return f"{r['words']} {vals} ({_gap_text(r['gap'], r['unit'])}, better for {r['favours']})"


# --- two layouts ------------------------------------------------------------------------------
def compare(a: dict, b: dict) -> dict:
    """Two surveys figure by figure: the board-wide figures, then each side's (sides by name,
    or in order when the names differ), with b - a."""
    rows = []

    def add(figure: str, words: str, unit: str, va, vb) -> None:
        diff = None if va is None or vb is None else round(vb - va, 4)
        rows.append({"figure": figure, "words": words, "unit": unit, "a": va, "b": vb,
                     "difference": diff})

    z = lambda f: next(iter(f["sight"]["zone_to_zone"].values()), None)  # noqa: E731
    add("visible_fraction", "board seen from a cell (mean)", "share", a["visible_fraction"],
        b["visible_fraction"])
    add("zone_to_zone", "the zones see each other (share of pairs)", "share", z(a), z(b))
    add("sight_least", "least-seen cell", "share", a["sight"]["least"], b["sight"]["least"])
    add("largest_gap", "largest gap between the sides (verdict figures)", "share",
        _worst_gap(a) if a["sides"] else None, _worst_gap(b) if b["sides"] else None)
    sa, sb = list(a["sides"]), list(b["sides"])
    pairs = [(s, s) for s in sa if s in sb] or list(zip(sa, sb, strict=False))
    for s, t in pairs:
        label = s if s == t else f"{s}/{t}"
        for key, words, unit, _ in FIGURES:
            add(f"{label}.{key}", f"{label}: {words}", unit, a["sides"][s].get(key),
                b["sides"][t].get(key))
    va, vb = a.get("verdict", {}), b.get("verdict", {})
    text = (f"{a['map']}: {va.get('text', '-')}\n{b['map']}: {vb.get('text', '-')}")
    fairer = None
    if va.get("fair") is not None and vb.get("fair") is not None:
        ga, gb = _worst_gap(a), _worst_gap(b)
        if not math.isclose(ga, gb, abs_tol=1e-9):
            fairer = a["map"] if ga < gb else b["map"]
    return {"maps": [a["map"], b["map"]], "rows": rows, "fairer": fairer, "text": text}


def _worst_gap(fig: dict) -> float:
    rows = fig.get("fairness", {}).get("rows", [])
    return max((r["gap"] for r in rows if r["better"] and r["gap"] is not None), default=0.0)
