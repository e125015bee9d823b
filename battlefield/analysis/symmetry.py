"""Is the layout symmetric? Under a half turn about the board's centre, a left-right mirror and
a front-back mirror, each terrain piece should land on a twin of the same kind and height, each
objective on an objective, and the deployment zones on zones (the two sides swapping places for
the layout to be fair by symmetry). Outlines match when no point of one is further than the
tolerance from the other (Hausdorff distance).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import shapely

from battlefield.scene.model import Scene

TOLERANCE = 0.25            # inches
HEIGHT_TOLERANCE = 0.05

TRANSFORMS = ("rotation", "mirror-left-right", "mirror-front-back")
DESCRIPTION = {"rotation": "half turn about the centre",
               "mirror-left-right": "mirror across the line x = width/2",
               "mirror-front-back": "mirror across the line y = depth/2"}


def _mapper(name: str, width: float, depth: float) -> Callable[[np.ndarray], np.ndarray]:
    sx, sy = {"rotation": (-1, -1), "mirror-left-right": (-1, 1),
              "mirror-front-back": (1, -1)}[name]

    def apply(pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=np.float64)
        out = pts.copy()
        if sx < 0:
            out[..., 0] = width - pts[..., 0]
        if sy < 0:
            out[..., 1] = depth - pts[..., 1]
        return out

    return apply


def _pairs(dist: np.ndarray, tol: float) -> dict[int, int]:
    """One-to-one matching, closest pairs first, of rows to columns no further than tol."""
    out: dict[int, int] = {}
    used: set[int] = set()
    if dist.size == 0:
        return out
    for flat in np.argsort(dist, axis=None, kind="stable"):
        i, j = np.unravel_index(int(flat), dist.shape)
        if dist[i, j] > tol:
            break
        if int(i) in out or int(j) in used:
            continue
        out[int(i)] = int(j)
        used.add(int(j))
    return out


def check(scene: Scene, name: str, tol: float = TOLERANCE) -> dict:
    """How well the layout matches itself under one transform."""
    move = _mapper(name, scene.width, scene.depth)
    pieces = scene.terrain
    moved = [shapely.Polygon(move(np.asarray(p.outline))) for p in pieces]
    polys = [p.polygon for p in pieces]
    dist = np.array([[shapely.hausdorff_distance(a, b) for b in polys] for a in moved]) \
        if pieces else np.zeros((0, 0))
    twin = _pairs(dist, tol)
    breaks = []
    outlines = True
    for i, p in enumerate(pieces):
        if i not in twin:
            outlines = False
            breaks.append({"piece": p.id, "why": "no twin: nothing stands where it would land"})
            continue
        q = pieces[twin[i]]
        if q.kind != p.kind or abs(q.height - p.height) > HEIGHT_TOLERANCE:
            if q.id == p.id:
                continue
            breaks.append({"piece": p.id, "twin": q.id,
                           "why": f"{p.id} is {p.kind} {p.height:g}\" but its twin {q.id} is "
                                  f"{q.kind} {q.height:g}\""})
    obj = scene.objectives
    o_at = np.array([[o.x, o.y] for o in obj]).reshape(-1, 2)
    o_moved = move(o_at)
    o_dist = np.hypot(o_moved[:, None, 0] - o_at[None, :, 0],
                      o_moved[:, None, 1] - o_at[None, :, 1])
    o_twin = _pairs(o_dist, tol)
    for i, o in enumerate(obj):
        if i not in o_twin:
            breaks.append({"objective": o.id, "why": "no objective where it would land"})
    sides = list(scene.deployment)
    zones = [shapely.Polygon(scene.deployment[s]) for s in sides]
    z_moved = [shapely.Polygon(move(np.asarray(scene.deployment[s]))) for s in sides]
    z_dist = np.array([[shapely.hausdorff_distance(a, b) for b in zones] for a in z_moved]) \
        if sides else np.zeros((0, 0))
    z_twin = _pairs(z_dist, tol)
    zone_map = {sides[i]: sides[j] for i, j in z_twin.items()}
    for s in sides:
        if s not in zone_map:
            breaks.append({"zone": s, "why": "no deployment zone where it would land"})
    pieces_same = outlines and not any("twin" in b for b in breaks)
    objectives_same = len(o_twin) == len(obj)
    zones_same = len(zone_map) == len(sides)
    swaps = zones_same and len(sides) >= 2 and all(zone_map[s] != s for s in sides)
    return {
        "transform": name,
        "description": DESCRIPTION[name],
        "outlines": outlines,
        "terrain": pieces_same,
        "objectives": objectives_same,
        "zones": zone_map if zones_same else None,
        "swaps_sides": swaps,
        "symmetric": pieces_same and objectives_same and zones_same,
        "breaks": breaks,
    }


def symmetry(scene: Scene, tol: float = TOLERANCE) -> dict:
    """Every transform checked, and the summary: which transforms the layout (outlines alone,
    and everything) is symmetric under, and whether one of them swaps the sides."""
    checks = {name: check(scene, name, tol) for name in TRANSFORMS}
    full = [n for n, c in checks.items() if c["symmetric"]]
    outlines = [n for n, c in checks.items() if c["outlines"] and c["objectives"]]
    fair = [n for n in full if checks[n]["swaps_sides"]]
    return {"symmetric": bool(full), "symmetric_under": full, "outlines_symmetric_under": outlines,
            "swaps_sides_under": fair, "tolerance": tol, "transforms": checks,
            "summary": summary(checks)}


def summary(checks: dict[str, dict]) -> str:
    """One line: under what the layout is symmetric, and what breaks the closest symmetry."""
    full = [n for n, c in checks.items() if c["symmetric"]]
    if full:
        swap = [n for n in full if checks[n]["swaps_sides"]]
        text = "symmetric under " + ", ".join(full)
        if swap:
            text += f" ({swap[0]} swaps the deployment zones)"
        return text
    best = min(checks.values(), key=lambda c: (len(c["breaks"]), TRANSFORMS.index(c["transform"])))
    what = breaks_text(best["breaks"])
    if best["outlines"] and best["objectives"]:
        return f"outlines symmetric under {best['transform']}; {what}"
    return f"not symmetric (closest: {best['transform']}; {what})"


def breaks_text(breaks: list[dict], limit: int = 4) -> str:
    """What breaks a symmetry, in a few words: twins that differ (each pair once), then the
    pieces, objectives and zones with no twin."""
    parts: list[str] = []
    seen: set[frozenset] = set()
    for b in breaks:
        if "twin" in b:
            pair = frozenset((b["piece"], b["twin"]))
            if pair not in seen:
                seen.add(pair)
                parts.append(b["why"])
    for key, words in (("piece", "no twin for"), ("objective", "no twin for objective"),
                       ("zone", "no twin for the zone of")):
        lone = [b[key] for b in breaks if key in b and "twin" not in b]
        if lone:
            shown = ", ".join(lone[:limit]) + (f" and {len(lone) - limit} more"
                                               if len(lone) > limit else "")
            parts.append(f"{words} {shown}")
    return "; ".join(parts) if parts else "nothing"
