"""What a run of computer battles says: each side's wins, draws and losses with 95% intervals,
its match score (a win 1, a draw 1/2), the win rate of each deployment zone (the table's
verdict, apart from the colours), of the side that moved first, the navigation check, the
abilities each side used per battle, and whether the number of battles could detect a bias
worth knowing (BIAS) at all.

The intervals are Wilson score intervals (they stay within 0..1 and are honest at 0% and
100%, where the normal approximation is not); a match score counts a draw as half a win."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from battlefield.analysis.navigation import shares

Z95 = 1.959964               # two-sided 95%
Z80 = 0.841621               # one-sided 80% power
BIAS = 0.10                  # the bias a fairness verdict should be able to see: 10 points


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials (k may be fractional: a match
    score with draws as halves)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def interval(k: float, n: int) -> list[float]:
    return [round(x, 4) for x in wilson(k, n)]


def detectable(n: int) -> float:
    """The smallest bias from an even 50% that n battles detect at 95% confidence with 80%
    power (the normal approximation; a rate near 50% has the widest spread)."""
    return (Z95 + Z80) * math.sqrt(0.25 / n) if n else 1.0


def battles_needed(bias: float = BIAS) -> int:
    """How many battles detect `bias` at 95% confidence with 80% power."""
    return math.ceil(((Z95 + Z80) / bias) ** 2 * 0.25)


def power(n: int) -> dict[str, Any]:
    """Whether n battles can see a BIAS-point bias, and the words saying so when they cannot."""
    d = detectable(n)
    out: dict[str, Any] = {"detectable_bias": round(d, 4), "battles_for_10_points":
                           battles_needed()}
    if d > BIAS + 1e-9:
        out["note"] = (f"{n} battles cannot detect a {BIAS * 100:.0f}-point bias (they see "
                       f"one of {d * 100:.0f} points or more); {battles_needed()} battles can")
    return out


def summarise(results: list[dict[str, Any]], sides: list[str]) -> dict[str, Any]:
    """The figures of battles' results (analysis.battles.play_one) for `sides`."""
    results = sorted(results, key=lambda r: r["index"])
    n = len(results)
    wins = {s: sum(1 for r in results if r["winner"] == s) for s in sides}
    draws = sum(1 for r in results if r["winner"] is None)
    losses = {s: n - wins[s] - draws for s in sides}
    name = results[0]["score"] if results else "victory_points"   # the deciding score
    score = {s: (sum(r[name].get(s, 0) for r in results) / n if n else 0.0) for s in sides}
    points = {s: wins[s] + draws / 2 for s in sides}
    out: dict[str, Any] = {
        "score": name, "games": n, "wins": wins, "draws": draws, "losses": losses,
        "win_rate": {s: wins[s] / n if n else 0.0 for s in sides},
        "win_rate_95": {s: interval(wins[s], n) for s in sides},
        "draw_rate": draws / n if n else 0.0,
        "draw_rate_95": interval(draws, n),
        "loss_rate": {s: losses[s] / n if n else 0.0 for s in sides},
        "loss_rate_95": {s: interval(losses[s], n) for s in sides},
        "match_score": {s: round(points[s] / n, 4) if n else 0.0 for s in sides},
        "match_score_95": {s: interval(points[s], n) for s in sides},
        "mean_score": {s: round(v, 3) for s, v in score.items()},
        "seeds": [r["seed"] for r in results],
    }
    if results and "players" in results[0]:
        out["players"] = results[0]["players"]
    out.update(_zones(results))
    out.update(_first(results))
    nav = [r["navigation"] for r in results if r.get("navigation")]
    if nav:
        out["navigation"] = shares(nav)
    if any("uses" in r for r in results):
        out["uses"] = uses_per_battle(results, sides)
    out["power"] = power(n)
    return out


def _zones(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The share of battles won by the side deployed in each zone (when zones are known)."""
    known = [r for r in results if r.get("zones")]
    if not known:
        return {}
    zones = sorted({z for r in known for z in r["zones"].values()})
    won = {z: sum(1 for r in known if r["winner"] is not None
                  and r["zones"].get(r["winner"]) == z) for z in zones}
    n = len(known)
    return {"zone_win_rates": {z: round(won[z] / n, 4) for z in zones},
            "zone_win_rate_95": {z: interval(won[z], n) for z in zones}}


def _first(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The share of battles won by the side that acted first with a unit."""
    known = [r for r in results if r.get("first")]
    if not known:
        return {}
    won = sum(1 for r in known if r["winner"] == r["first"])
    return {"first_player_win_rate": round(won / len(known), 4),
            "first_player_win_rate_95": interval(won, len(known))}


def uses_per_battle(results: list[dict[str, Any]], sides: list[str]) -> dict[str, dict[str,
                                                                                     float]]:
    """{side: {action type: times used per battle}}, most used first."""
    out = {}
    n = len(results) or 1
    for s in sides:
        total: Counter[str] = Counter()
        for r in results:
            total.update(r.get("uses", {}).get(s, {}))
        out[s] = {k: round(v / n, 3) for k, v in total.most_common()}
    return out
