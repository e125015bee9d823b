"""The JSON Schema (draft 2020-12) of scene and map files, written from the key lists the loader
checks (scene_keys.py) and the rulesets' own data (characteristics, weapon characteristics,
unit_keys and model_keys), so that an editor completes and checks a scene as the loader would:
every key with its description, unknown keys refused, required keys required, values typed.
The loader's checks of the table itself (bases on the board, outlines that do not cross, ids
that are unique, bases that do not overlap) are beyond a schema."""

from __future__ import annotations

from typing import Any

from battlefield import scene_keys as keys
from battlefield.geometry.bases import OVAL_SIZES_MM, ROUND_SIZES_MM
from battlefield.geometry.terrain import KINDS
from battlefield.paths import ruleset_names
from battlefield.rulesets import load_ruleset
from battlefield.scene_keys import Shape

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# "D6", "2D3+1", "3+" - scene/load.py _dice_or_bonus
DICE = r"^\s*(\d*[dD][36](\s*\+\s*\d+)?|\d+\+)\s*$"
EXTRA_TYPES = {"mapping": {"type": "object"}, "list": {"type": "array"},
               "text": {"type": "string"}, "number": {"type": "number"},
               "boolean": {"type": "boolean"}, "any": {"not": {"type": "null"}}}
_NUMBER = {"type": "number"}
_WORD = {"type": ["string", "number"], "pattern": r"\S"}


def schema(kind: str = "scene", ruleset: str | None = None) -> dict[str, Any]:
    """The schema of a scene or map file; with `ruleset`, of that ruleset's files only (its
    characteristics and its own unit and model keys)."""
    if kind not in ("scene", "map"):
        raise ValueError(f"unknown kind of file '{kind}' (scene or map)")
    names = [ruleset] if ruleset is not None else ruleset_names()
    rulesets = [load_ruleset(n) for n in names]
    defs: dict[str, Any] = {}
    shapes = [keys.BOARD, keys.TERRAIN, keys.OBJECTIVE]
    if kind == "scene":
        for rs in rulesets:
            defs.update(_unit_defs(rs))
        shapes += [keys.BASE]
    for shape in shapes:
        defs[_def_name(shape)] = _object(shape)
        if shape is keys.BASE:                         # exactly one of its keys
            defs[_def_name(shape)].update(minProperties=1, maxProperties=1)
    defs[_def_name(keys.OBJECTIVE)]["properties"].update(      # the rulesets' own keys
        {k.name: _own(k) for rs in rulesets for k in rs.objective_keys})
    units = {"anyOf": [{"$ref": f"#/$defs/unit-{rs.id}"} for rs in rulesets]}
    if len(rulesets) == 1:
        units = {"$ref": f"#/$defs/unit-{rulesets[0].id}"}
    top_keys = [k for k in keys.SCENE.keys if kind == "scene" or k.name in keys.MAP_KEYS]
    props = {k.name: _kind(k.kind, None, names, units) | {"description": k.description}
             for k in top_keys}
    out: dict[str, Any] = {
        "$schema": DRAFT,
        "title": f"battlefield {kind} file" + (f" ({ruleset})" if ruleset else ""),
        "description": keys.SCENE.description,
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        # the board from the file or from its map
        "anyOf": [{"required": ["board"]}, {"required": ["map"]}],
        "$defs": defs,
    }
    if kind == "scene":
        rules: list[dict[str, Any]] = [{
            # units need a ruleset: the file's or its map's
            "if": {"required": ["units"], "properties": {"units": {"minItems": 1}}},
            "then": {"anyOf": [{"required": ["ruleset"]}, {"required": ["map"]}]}}]
        if len(rulesets) > 1:
            rules += [{"if": {"required": ["ruleset"], "properties": {"ruleset": {"const": rs.id}}},
                       "then": {"properties": {"units": {"items": {
                           "$ref": f"#/$defs/unit-{rs.id}"}}}}} for rs in rulesets]
        out["allOf"] = rules
    return out


def _def_name(shape: Shape) -> str:
    return shape.name.replace(" ", "-")


def _object(shape: Shape, extra: dict[str, Any] | None = None, ruleset: Any = None
            ) -> dict[str, Any]:
    props = {k.name: _kind(k.kind, ruleset) | {"description": k.description}
             for k in shape.keys}
    props.update(extra or {})
    out: dict[str, Any] = {"type": "object", "description": shape.description,
                           "properties": props, "additionalProperties": False}
    if shape.required():
        out["required"] = shape.required()
    return out


def _own(k: Any) -> dict[str, Any]:
    """A ruleset's own key (ExtraKey): its schema, or its type's; a key naming default bases
    lists its names."""
    out = (k.schema or EXTRA_TYPES[k.type]) | {"description": k.description}
    return out | {"enum": [n for n, _ in k.bases]} if k.bases else out


def _unit_defs(rs: Any) -> dict[str, Any]:
    """A ruleset's unit, model, stats and weapon: its characteristics and its own keys."""
    r = rs.id

    unit = _object(keys.UNIT, {k.name: _own(k) for k in rs.unit_keys}, rs)
    for key, _ in rs.unplayed_unit_keys:       # refused by the loader: not offered
        unit["properties"].pop(key, None)
    if any(a.id == "deploy" for a in rs.actions):
        # A unit in reserve (reserve: true) has models without `at`; any other, with it.
        unit["if"] = {"required": ["reserve"], "properties": {"reserve": {"const": True}}}
        unit["then"] = {"properties": {"models": {"items": {"not": {"required": ["at"]}}}}}
        unit["else"] = {"properties": {"models": {"items": {"required": ["at"]}}}}
    else:                                      # no deployment phase: no unit in reserve
        unit["properties"].pop("reserve", None)
        unit["properties"]["models"] = {**unit["properties"]["models"], "items": {
            "allOf": [{"$ref": f"#/$defs/model-{r}"}, {"required": ["at"]}]}}
    model = _object(keys.MODEL, {k.name: _own(k) for k in rs.model_keys}, rs)
    if any(k.bases for k in rs.unit_keys):     # a model may take its base from its unit's key
        model["required"] = [k for k in model.get("required", []) if k != "base"]
    stats = {"type": "object", "description": f"The unit's characteristics ({r}).",
             "properties": {c: _stat(c) for c in rs.characteristics},
             "additionalProperties": False}
    assumed = dict(rs.weapon_defaults)

    def weapon_stat(c: str) -> dict[str, Any]:
        out = _stat(c)
        if c in assumed:
            out = out | {"default": assumed[c], "description": f"{out['description']} "
                         f"Left out: {assumed[c]:g} is assumed (battlefield check shows it)."}
        if c == "range" and rs.weapon_range_min:
            out = out | {"description": f"{out['description']} A melee weapon has no range; "
                         f"a shooting weapon's is {rs.weapon_range_min:g}\" or more."}
        return out

    weapon = {"type": "object", "description": f"A weapon ({r}).",
              "properties": {c: weapon_stat(c) for c in rs.weapon_characteristics
                             if c != "name"} | {"name": _WORD | {
                                 "description": keys.WEAPON_NAME}},
              "required": ["name"], "additionalProperties": False}
    return {f"unit-{r}": unit, f"model-{r}": model, f"stats-{r}": stats, f"weapon-{r}": weapon}


def _stat(name: str) -> dict[str, Any]:
    if name == "abilities":
        return {"type": "array", "items": _WORD, "description": keys.WEAPON_ABILITIES}
    if name == "name":
        return _WORD | {"description": keys.WEAPON_NAME}
    if name == "type":      # text, as the loader reads it (openwg: melee or ranged)
        return {"type": "string", "description": "the weapon's kind, e.g. melee or ranged"}
    return {"anyOf": [_NUMBER, {"type": "string", "pattern": DICE}], "description": keys.STAT}


def _point() -> dict[str, Any]:
    return {"type": "array", "prefixItems": [_NUMBER, _NUMBER], "minItems": 2, "items": False,
            "description": "[x, y] in inches"}


def _pair(minimum: float = 0) -> dict[str, Any]:
    n = {"type": "number", "exclusiveMinimum": minimum}
    return {"type": "array", "prefixItems": [n, n], "minItems": 2, "items": False}


def _kind_pattern(kind: str) -> str:
    """Any spelling the loader takes: 'Place of Power', 'place_of_power', 'place-of-power'."""
    return r"^\s*" + "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else "[-_ ]"
                             for c in kind) + r"\s*$"


def _kind(kind: str, ruleset: Any = None, names: list[str] | None = None,
          units: dict[str, Any] | None = None) -> dict[str, Any]:
    r = ruleset.id if ruleset is not None else None
    rounds = sorted(set(ROUND_SIZES_MM))
    ovals = [list(p) for p in OVAL_SIZES_MM]
    simple: dict[str, dict[str, Any]] = {
        "text": {"type": ["string", "number"]},
        "word": _WORD,
        "word-or-null": {"type": ["string", "number", "null"], "pattern": r"\S"},
        "unit-id": {"type": ["string", "number"], "pattern": r"^[^/]*[^/\s][^/]*$"},
        "number": _NUMBER,
        "positive": {"type": "number", "exclusiveMinimum": 0},
        "nonnegative": {"type": "number", "minimum": 0},
        "boolean": {"type": "boolean"},
        "point": _point(),
        "outline": {"type": "array", "items": _point(), "minItems": 3},
        "state": {"type": "object"},
        "terrain-kind": {"type": "string",
                         "anyOf": [{"pattern": _kind_pattern(k)} for k in KINDS]},
        "board": {"$ref": "#/$defs/board"},
        "terrain": {"type": "array", "items": {"$ref": "#/$defs/terrain-piece"}},
        "objectives": {"type": "array", "items": {"$ref": "#/$defs/objective"}},
        "deployment": {"type": "object", "additionalProperties": {
            "type": "array", "items": _point(), "minItems": 3,
            "description": keys.DEPLOYMENT_SIDE}},
        "leader": {"type": "integer", "minimum": 1},
        "keywords": {"type": "array", "items": _WORD},
        "round-mm": {"type": "number", "exclusiveMinimum": 0},   # written out: any size
        "oval-mm": _pair(),
        "rect-mm": _pair(),
    }
    if kind in simple:
        return dict(simple[kind])
    if kind == "ruleset":
        return {"enum": list(names or [])}
    if kind == "units":
        return {"type": "array", "items": units or {}}
    if kind == "models":
        return {"type": "array", "minItems": 1, "items": {"$ref": f"#/$defs/model-{r}"}}
    if kind == "stats":
        return {"$ref": f"#/$defs/stats-{r}"}
    if kind == "weapons":
        return {"type": "array", "items": {"$ref": f"#/$defs/weapon-{r}"}}
    if kind == "base":
        choices = [{"enum": rounds}, {"enum": ovals}, {"$ref": "#/$defs/base"}]
        if ruleset is not None and ruleset.rect_bases:
            choices.append(_pair())          # [frontage, depth] is a rectangle (blocks)
        return {"anyOf": choices}
    raise KeyError(f"scene_keys.py names a kind of value schema.py does not know: {kind}")
