"""Writing scenes back to YAML that the loader reads: the map alone (board, terrain, objectives,
deployment zones) for maps/, or the whole scene with its units.

The text follows maps/aos4.yaml: one flow-style line per terrain piece, objective, weapon and
model. Map numbers are rounded to 3 decimals and model positions to 4 (the demo deployment's
precision), with trailing zeros stripped. `load_scene_text(scene_yaml(s))` gives back `s`.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml

from battlefield.files import write_text
from battlefield.geometry.bases import OVAL, ROUND, Base
from battlefield.scene.model import ModelSpec, Scene, UnitSpec

MAP_DIGITS = 3
MODEL_DIGITS = 4
HEADER = "# Written by the battlefield map editor."
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


# --- scalars and flow collections ---------------------------------------------------------------
def number(value: float, digits: int = MAP_DIGITS) -> str:
    """A number rounded to `digits` decimals without trailing zeros: 2.0 -> '2', 1.25 -> '1.25'."""
    if isinstance(value, bool) or not math.isfinite(float(value)):
        raise ValueError(f"not a finite number: {value!r}")
    text = f"{round(float(value), digits):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text(value: str) -> str:
    """A string as a YAML scalar: plain when it reads back as the same string, else quoted."""
    if _PLAIN.fullmatch(value) and yaml.safe_load(value) == value:
        return value
    return quoted(value)


def quoted(value: str) -> str:
    """A string as a YAML double-quoted scalar on one line."""
    return yaml.safe_dump(value, default_style='"', width=10**9, allow_unicode=True).strip()


def flow(value: Any, digits: int = MAP_DIGITS) -> str:
    """Any loaded value (mapping, list, string, number, bool, None) as one line of flow YAML."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number(value, digits)
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{text(str(k))}: {flow(v, digits)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v, digits) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to a scene file")


def points(outline: Any, digits: int = MAP_DIGITS) -> str:
    """[[x, y], ...] on one line."""
    return "[" + ", ".join(f"[{number(x, digits)}, {number(y, digits)}]"
                           for x, y in outline) + "]"


# --- the map ------------------------------------------------------------------------------------
def _map_lines(scene: Scene, scene_state: bool) -> list[str]:
    """The top-level keys of the map part; with scene_state, objectives keep who held them."""
    lines = [f"ruleset: {text(scene.ruleset.id)}"]
    if scene.name:
        lines.append(f"name: {quoted(scene.name)}")
    if scene.description:
        lines.append(f"description: {quoted(scene.description)}")
    lines.append(f"board: {{width: {number(scene.width)}, depth: {number(scene.depth)}}}")
    if scene.terrain:
        lines.append("terrain:")
        lines += [f"  - {{id: {text(p.id)}, kind: {text(p.kind)}, height: {number(p.height)}, "
                  f"outline: {points(p.outline)}" + (", fixed: true" if p.fixed else "") + "}"
                  for p in scene.terrain]
    else:
        lines.append("terrain: []")
    if scene.objectives:
        lines.append("objectives:")
        for o in scene.objectives:
            item = f"  - {{id: {text(o.id)}, at: [{number(o.x)}, {number(o.y)}]"
            for key, value in o.extra.items():      # the ruleset's own objective keys
                item += f", {text(key)}: {flow(value)}"
            if scene_state and o.controlled_by:
                item += f", controlled_by: {text(o.controlled_by)}"
            lines.append(item + "}")
    else:
        lines.append("objectives: []")
    if scene.deployment:
        lines.append("deployment:")
        lines += [f"  {text(side)}: {points(zone)}" for side, zone in scene.deployment.items()]
    return lines


def map_yaml(scene: Scene, header: list[str] | None = None) -> str:
    """The map part of a scene as a map file: ruleset, name, board, terrain, objectives, zones;
    `header`: the comment lines to start with (default: the map editor's)."""
    if header is None:
        source = f" From {Path(scene.file).name}." if scene.file else ""
        header = [HEADER + source]
    return "\n".join([*header, *_map_lines(scene, False)]) + "\n"


def save_map(scene: Scene, path: str | Path) -> Path:
    """Write the scene's map to `path` (making its folder); the path written."""
    path = Path(path)

    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, map_yaml(scene))
    return path


# --- the whole scene ----------------------------------------------------------------------------
def base_value(base: Base) -> Any:
    """A base as the loader reads it: 32 (round), [60, 35] (oval), {rect: [frontage, depth]}."""
    if base.shape == ROUND:
        return base.mm[0]
    if base.shape == OVAL:
        return list(base.mm)
    return {"rect": list(base.mm)}


def model_yaml(m: ModelSpec) -> str:
    """One model on a line; z and height only when the file gave them (else they are derived)."""
    d = MODEL_DIGITS
    out = f"{{base: {flow(base_value(m.base), d)}, at: [{number(m.x, d)}, {number(m.y, d)}]"
    facing = round(m.facing, d) % 360.0
    if facing:
        out += f", facing: {number(facing, d)}"
    if m.z_given:
        out += f", z: {number(m.z, d)}"
    if m.height_given:
        out += f", height: {number(m.height, d)}"
    for key, value in m.extra.items():          # the ruleset's own model keys, as written
        out += f", {text(key)}: {flow(value)}"
    return out + "}"


def unit_lines(u: UnitSpec) -> list[str]:
    """A unit as block YAML, indented as an item of `units:`."""
    lines = [f"  - id: {text(u.id)}", f"    side: {text(u.side)}"]
    if u.name and u.name != u.id:
        lines.append(f"    name: {quoted(u.name)}")
    if u.stats:
        lines.append(f"    stats: {flow(u.stats)}")
    if u.weapons:
        lines.append("    weapons:")
        lines += [f"      - {flow(w)}" for w in u.weapons]
    if u.keywords:
        lines.append(f"    keywords: {flow(list(u.keywords))}")
    if u.profile is not None:
        lines.append(f"    profile: {text(u.profile)}")
    if u.leader:
        lines.append(f"    leader: {u.leader + 1}")
    for key, value in u.extra.items():          # the ruleset's own unit keys, as written
        lines.append(f"    {text(key)}: {flow(value)}")
    lines.append("    models:")
    lines += [f"      - {model_yaml(m)}" for m in u.models]
    return lines


def scene_yaml(scene: Scene) -> str:
    """The whole scene, units included, as a self-contained scene file (no `map:` reference)."""
    source = f" From {Path(scene.file).name}." if scene.file else ""
    lines = [HEADER + source, *_map_lines(scene, True)]
    if "state" in scene.extra:
        lines.append(f"state: {flow(scene.extra['state'])}")
    if scene.units:
        lines.append("units:")
        for u in scene.units:
            lines += unit_lines(u)
    return "\n".join(lines) + "\n"


__all__ = ["map_yaml", "scene_yaml", "save_map", "number", "flow", "base_value"]
