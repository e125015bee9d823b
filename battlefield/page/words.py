"""The words of a ruling page: inches as players write them, the measurement, the scene's
title, a unit's profile line and the text of a game's events - the same wording as the PNG's
caption and the play window's panel, without pygame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from battlefield.depiction.legend import measure_caption
from battlefield.depiction.table import fmt_in, measure_text
from battlefield.rules import event_words
from battlefield.scene.model import Scene, UnitSpec


def scene_name(scene: Scene) -> str:
    return scene.name or Path(scene.file).stem or "scene"


def ruleset_name(scene: Scene) -> str:
    rs = scene.ruleset
    return rs.name if rs.id.lower() in rs.name.lower() else f"{rs.name} ({rs.id})"


def scene_title(scene: Scene) -> str:
    return (f"{scene_name(scene)}  |  {ruleset_name(scene)}  |  {fmt_in(scene.width)} x "
            f"{fmt_in(scene.depth)} board")


def _stat(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} {_stat(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return ", ".join(_stat(x) for x in v)
    return f"{v:g}" if isinstance(v, float) else str(v)


def profile_line(unit: UnitSpec) -> str:
    """'Cinder Bows: move 5, health 1, save 5, control 1; Ashwood Longbow, Skinning Knife'."""
    head = unit.name or unit.id
    stats = ", ".join(f"{k} {_stat(v)}" for k, v in unit.stats.items())
    weapons = ", ".join(str(w.get("name", "?")) for w in unit.weapons)
    text = head + (f": {stats}" if stats else "")
    if weapons:
        text += f"; {weapons}"
    if unit.keywords:
        text += f" [{', '.join(unit.keywords)}]"
    return text


def event_text(event: dict[str, Any]) -> str:
    """An event as one line in words, as the play window and `try` say it
    (rules/event_words.py)."""
    return event_words.line(event) or str(event.get("type", "event"))


def action_text(action: dict[str, Any]) -> str:
    """'normal-move red-lancers -> (12.5, 12)', 'shoot red-archers at blue-drake'."""
    text = str(action.get("type", "?"))
    for key in ("side", "unit"):
        if action.get(key):
            text += f" {action[key]}"
    if action.get("target"):
        text += f" at {action['target']}"
    path = action.get("path")
    if isinstance(path, (list, tuple)) and path and isinstance(path[-1], (list, tuple)):
        end = path[-1]
        text += " to (" + ", ".join(f"{float(c):g}" for c in end[:2]) + ")"
    return text


MOVES = ("move", "normal-move", "run", "retreat", "charge", "disengage", "pile-in",
         "consolidate", "advance", "march")


def action_title(said: str, action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """A log entry's title as the window words it (rules/outcome: 'red-archers shoot ->
    blue-drake'), a move with the distance its unit moved ('blue-pikes move, 4.50"') rather
    than the point its path ended at."""
    if action.get("type") not in MOVES and not action.get("path") and not action.get("paths"):
        return said
    unit = action.get("unit")
    gone = [float(e["distance"]) for e in events
            if e.get("unit") == unit and isinstance(e.get("distance"), (int, float))
            and not isinstance(e.get("distance"), bool)]
    return f"{said}, {fmt_in(max(gone))}" if gone else said


def roll_text(roll: dict[str, Any]) -> str:
    """'2D6 [3, 5] for charge red-blades' from a roll's to_dict()."""
    text = f"{roll.get('dice', '')} {list(roll.get('values', []))}"
    if roll.get("summed"):
        text += f" = {roll.get('total')}"
    return f"{text} for {roll.get('for', '')}".strip()


__all__ = ["fmt_in", "measure_text", "measure_caption", "scene_name", "ruleset_name",
           "scene_title", "profile_line", "event_text", "action_text", "action_title",
           "roll_text"]
