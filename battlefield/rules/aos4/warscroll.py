"""A unit's warscroll abilities (aos4's unit key `abilities:`) and a model's unit-command role
(the model key `command:`), read and checked here as spellbook.py reads spells: the scene
loader keeps them as written.

An ability: `{name, kind, timing, declare, effect, keywords, once}` (kind: passive, activated,
command, spell, prayer; once: null, turn or battle), with `value` (a spell's casting or a
prayer's chanting value) or `cost` (a command's) where the warscroll gives one; `name`, `kind`
and `effect` are needed, the rest default to null (no keywords: []). `of(spec)` gives them
read, every key present; `check_scene` refuses a bad one at its key path and line.
"""

from __future__ import annotations

from typing import Any

from battlefield.scene.model import Scene, UnitSpec
from battlefield.yamlsource import Reader

KINDS = ["passive", "activated", "command", "spell", "prayer"]
ONCE = ["turn", "battle"]
KEYS = ["name", "kind", "effect"], ["timing", "declare", "keywords", "once", "value", "cost"]

_read: dict[int, tuple[list[Any], list[dict[str, Any]]]] = {}


def of(spec: UnitSpec) -> list[dict[str, Any]]:
    """The abilities of unit `spec`, read: every key present (null where not given)."""
    items = spec.extra.get("abilities")
    if not items:
        return []
    hit = _read.get(id(items))
    if hit is not None and hit[0] is items:
        return hit[1]
    out = read(Reader("<scene>", None, {}), (*spec.path, "abilities"), items)
    if len(_read) > 4096:
        _read.clear()
    _read[id(items)] = (items, out)
    return out


def commands(spec: UnitSpec, k: int) -> dict[str, str]:
    """The unit-command roles of the unit's k-th model (from 0): role -> its rule."""
    given = spec.models[k].extra.get("command") if 0 <= k < len(spec.models) else None
    return {str(r): str(t) for r, t in given.items()} if isinstance(given, dict) else {}


def check_scene(scene: Scene) -> None:
    """Every unit's abilities and every model's command roles, checked (an InputError at the
    first bad key)."""
    r = Reader(scene.file, None, scene.lines)
    for spec in scene.units:
        if "abilities" in spec.extra:
            read(r, (*spec.path, "abilities"), spec.extra["abilities"])
        for k, m in enumerate(spec.models):
            if "command" in m.extra:
                _command(r, (*spec.path, "models", k, "command"), m.extra["command"])


def read(r: Reader, path: tuple, value: Any) -> list[dict[str, Any]]:
    """A list of abilities as written, checked and read."""
    return [_one(r, (*path, k), item) for k, item in enumerate(r.sequence(path, value))]


def _text(r: Reader, path: tuple, value: Any, null: bool = True) -> str | None:
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise r.error(path, "must be text" + (" or null" if null else ""))
    return str(value)


def _one(r: Reader, path: tuple, value: Any) -> dict[str, Any]:
    required, optional = KEYS
    m = r.mapping(path, value, required, optional)
    name = _text(r, (*path, "name"), m["name"], null=False)
    if not str(name).strip():
        raise r.error((*path, "name"), "is empty", "the ability's name")
    out: dict[str, Any] = {
        "name": name, "kind": r.string((*path, "kind"), m["kind"], KINDS),
        "timing": _text(r, (*path, "timing"), m.get("timing")),
        "declare": _text(r, (*path, "declare"), m.get("declare")),
        "effect": _text(r, (*path, "effect"), m["effect"], null=False),
        "keywords": [str(k).upper() for k in r.strings((*path, "keywords"),
                                                        m.get("keywords", []))],
        "once": (r.string((*path, "once"), m["once"], ONCE) if m.get("once") is not None
                 else None)}
    for key in ("value", "cost"):
        if key in m:
            v = m[key]
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                raise r.error((*path, key), "must be a whole number or text")
            out[key] = v
    return out


def _command(r: Reader, path: tuple, value: Any) -> None:
    roles = r.mapping(path, value, [], list(value) if isinstance(value, dict) else [])
    if not roles:
        raise r.error(path, "names no role", "{Champion: RULE}")
    for role, rule in roles.items():
        _text(r, (*path, role), rule, null=False)
