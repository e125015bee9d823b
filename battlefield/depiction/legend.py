"""The legend of a picture, decided once: who is who, what the symbols mean, what the referee
ruled and the measurement in words. The PNG's caption bar (view/legend.py) and the pages'
legend (page/legend.py) draw these entries, each with its own icon for a key."""

from __future__ import annotations

from dataclasses import dataclass, field

from battlefield.depiction.table import fmt_in, measure_text, objective_radii
from battlefield.scene.model import Scene

KIND_NAMES = {"solid": "solid", "obstacle": "obstacle", "area": "area (translucent)",
              "obscuring": "obscuring", "impassable": "impassable",
              "place-of-power": "place of power"}
MOST_REASONS = 4          # coherency breaks listed with their reasons; past that, names only


@dataclass
class Legend:
    """Rows of (icon key, words) under a head; the rulings in lines; the measurement."""

    rows: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    caption: str | None = None


def legend(scene: Scene, report: dict | None, measure: dict | None,
           damage: tuple[bool, bool] = (False, False), shown: tuple[str, ...] = ()) -> Legend:
    """The legend of a picture of `scene`: `report` (battlefield check) and `measure` as drawn,
    `damage` (wound bars drawn, slain models marked), `shown`: rulings some version of a game
    page draws besides the report's ("coherency", "combat")."""
    out = Legend()
    sides = []
    for side in dict.fromkeys([*scene.sides, *scene.deployment]):
        ids = [u.id for u in scene.units if u.side == side]
        words = side + (": " + (", ".join(ids) if len(ids) <= 4 else f"{len(ids)} units")
                        if ids else "")
        sides.append((f"side:{side}", words))
    if sides:
        out.rows.append(("Sides", sides))
    key: list[tuple[str, str]] = []
    models = [m for u in scene.units for m in u.models]
    if any(len(u.models) > 1 for u in scene.units):
        key.append(("leader", "leader"))
    if any(m.base.shape != 0 for m in models):
        key.append(("facing", "facing"))
    if any(m.z > 0 for m in models):
        key.append(("height", "height above the table"))
    units = (report or {}).get("units", {}).values()
    if "coherency" in shown or any(u.get("coherency_breaks") for u in units):
        key.append(("coherency", "out of coherency"))
    if damage[0]:
        key.append(("wound-bar", "health left (wounds left by the unit's id)"))
    if damage[1]:
        key.append(("slain", "slain, where it stood"))
    if "combat" in shown or any(p.get("in_combat") for p in (report or {}).get("pairs", [])):
        key.append(("combat", "in combat"))
    if scene.objectives:
        zone, marker = objective_radii(scene)
        rule = scene.ruleset.objectives
        what = (f"objective zone {fmt_in(rule.range)} from a {rule.marker_mm:g} mm marker"
                if marker > 0 else f"objective zone {fmt_in(zone)} from the centre")
        key.append(("objective" if marker > 0 else "objective-point", what))
    if measure:
        key.append(("measure", "closest points"))
        if measure.get("blocked_by"):
            key.append(("blocker", "blocks sight"))
    if key:
        out.rows.append(("Key", key))
    kinds = list(dict.fromkeys(p.kind for p in scene.terrain))
    if kinds:
        out.rows.append(("Terrain", [("heights", "darker = taller")]
                         + [(f"terrain:{k}", KIND_NAMES.get(k, k)) for k in kinds]))
    out.rulings = ruling_lines(report)
    if measure:
        out.caption = measure_caption(measure)
    return out


def measure_caption(measure: dict) -> str:
    """'red-1 -> blue-2: 7.42" (3-D 7.60"), visible: partial, blocked by ruin'."""
    text = f"{measure['a']} -> {measure['b']}: {measure_text(measure)}, "
    text += f"visible: {measure.get('visible', '?')}"
    blocked = measure.get("blocked_by") or []
    if blocked:
        text += ", blocked by " + ", ".join(blocked)
    if measure.get("in_combat"):
        text += "; in combat"
    elif measure.get("within_combat_range"):
        text += f"; within combat range ({fmt_in(float(measure.get('combat_range', 0)))})"
    return text


def ruling_lines(report: dict | None) -> list[str]:
    """'Out of coherency: ...', 'In combat: a v b', 'Objectives: centre held by red ...'."""
    if not report:
        return []
    broken = []
    for u in report.get("units", {}).values():
        reasons = u.get("coherency_reasons", {})
        for name in u.get("coherency_breaks", []):
            broken.append((name, reasons.get(name)))
    if len(broken) > MOST_REASONS:
        said = [", ".join(name for name, _ in broken)]
    else:
        said = [f"{name} ({why})" if why else name for name, why in broken]
    combat, seen = [], set()
    for p in report.get("pairs", []):
        key = frozenset((p["a"], p["b"]))
        if p.get("in_combat") and key not in seen:
            seen.add(key)
            combat.append(f"{p['a']} v {p['b']}")
    objectives = []
    for oid, o in report.get("objectives", {}).items():
        held = o.get("controlled_by")
        tally = " v ".join(f"{s} {v:g}" for s, v in (o.get("totals") or {}).items())
        text = f"{oid} held by {held}" if held else f"{oid} unheld"
        objectives.append(text + (f" ({tally})" if tally else ""))
    out = []
    if said:
        out.append("Out of coherency: " + "; ".join(said))
    if combat:
        out.append("In combat: " + "; ".join(combat))
    if objectives:
        out.append("Objectives: " + "; ".join(objectives))
    return out


__all__ = ["Legend", "legend", "ruling_lines", "measure_caption", "KIND_NAMES"]
