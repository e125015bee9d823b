"""The spells and prayers a unit knows: aos4's unit keys `spells:` and `prayers:` (ruleset.yaml
unit_keys), read and checked here rather than by the scene loader, which keeps them as written.

A spell or prayer: id, casting (chanting) value, range, target and one effect: {mortal: D3} on
an enemy unit, {heal: D3} or {buff: {save: 1}} on a friendly one, or {ability: NAME}: what the
unit's ability of that name (its `abilities:` entry) does, read whole by the effect reader and
played as an activated ability (activated.play) once the spell is cast or the prayer answered.
`of(spec, kind)` gives them as the hero phase reads them: every default filled in, a flat amount
as text ("3").
`check_scene` refuses a bad one at its key path and line, as the loader refuses its own keys.
"""

from __future__ import annotations

import re
from typing import Any

from battlefield.rules.aos4 import activated, effects, warscroll
from battlefield.scene.model import Scene, UnitSpec
from battlefield.yamlsource import Reader

# kind -> (the roll's key, what it is called), as the scene writes them.
KINDS = {"spells": ("casting_value", "spell"), "prayers": ("chanting_value", "prayer")}
EFFECTS = ("mortal", "heal", "buff", "ability")
BUFFS = ("hit", "wound", "save")
TARGETS = ["enemy", "friendly", "self"]
DEFAULT_RANGE = 12.0

# id(list as written) -> (that list, its items read): a scene's lists are read once.
_read: dict[int, tuple[list[Any], list[dict[str, Any]]]] = {}


def of(spec: UnitSpec, kind: str) -> list[dict[str, Any]]:
    """The spells (kind "spells") or prayers ("prayers") unit `spec` knows, read: every key
    given, defaults filled in (range 12, target enemy, not unlimited)."""
    items = spec.extra.get(kind)
    if not items:
        return []
    hit = _read.get(id(items))
    if hit is not None and hit[0] is items:
        return hit[1]
    out = read(Reader("<scene>", None, {}), (*spec.path, kind), items, kind)
    if len(_read) > 4096:
        _read.clear()
    _read[id(items)] = (items, out)
    return out


# A warscroll's keyword with a value (WIZARD (1), PRIEST (2), WARD (5+)): the characteristic
# battlefield reads it from instead (army import converts them so).
VALUED = {"WIZARD": "power", "PRIEST": "power", "WARD": "ward"}
_VALUED = re.compile(r"^\s*(WIZARD|PRIEST|WARD)\s*\(\s*(\d+)\+?\s*\)\s*$")


def check_scene(scene: Scene) -> None:
    """Every unit's keywords written with a value (refused, naming the characteristic that
    says it), spells and prayers, checked (an InputError at the first bad key)."""
    r = Reader(scene.file, None, scene.lines)
    for spec in scene.units:
        for k, word in enumerate(spec.keywords):
            m = _VALUED.match(word)
            if m:
                kw, n = m.group(1), m.group(2)
                plain = f"keywords: [{kw}] and " if kw != "WARD" else ""
                raise r.error((*spec.path, "keywords", k),
                              f"'{word}' is a keyword with a value, which aos4 reads from "
                              f"a characteristic: write {plain}stats: {{{VALUED[kw]}: {n}}}",
                              f"a keyword; {VALUED[kw]} in stats")
        for kind in KINDS:
            if kind in spec.extra:
                for k, item in enumerate(read(r, (*spec.path, kind), spec.extra[kind], kind)):
                    name = item["effect"].get("ability")
                    if name is not None and reading(spec, item) is None:
                        raise r.error((*spec.path, kind, k, "effect", "ability"),
                                      f"the unit has no ability {name!r} that battlefield "
                                      f"plays whole as a {KINDS[kind][1]}",
                                      "the name of one of its abilities: entries")


def reading(spec: UnitSpec, item: dict[str, Any]) -> tuple[str, effects.Reading] | None:
    """(the ability's name, its reading) of a spell or prayer whose effect is {ability: NAME}:
    the unit's ability of that name read whole, as an ability used in the hero phase, that
    activated.py plays; else None."""
    want = " ".join(str(item["effect"].get("ability", "")).split()).lower()
    a = next((a for a in warscroll.of(spec) if " ".join(a["name"].split()).lower() == want),
             None)
    if a is None:
        return None
    r = effects.read({**a, "timing": "Your Hero Phase"})
    return (a["name"], r) if activated.playable(r) else None


def read(r: Reader, path: tuple, value: Any, kind: str) -> list[dict[str, Any]]:
    """A list of spells or prayers as written, checked and read."""
    return [_one(r, (*path, k), item, kind) for k, item in enumerate(r.sequence(path, value))]


def _one(r: Reader, path: tuple, value: Any, kind: str) -> dict[str, Any]:
    value_key, _ = KINDS[kind]
    m = r.mapping(path, value, ["id", value_key, "effect"],
                  ["name", "range", "target", "unlimited"])
    out: dict[str, Any] = {"id": r.string((*path, "id"), m["id"]),
                           value_key: r.number((*path, value_key), m[value_key], 1, 13,
                                               integer=True)}
    if "name" in m:
        out["name"] = r.string((*path, "name"), m["name"])
    out["range"] = r.number((*path, "range"), m.get("range", DEFAULT_RANGE), 0)
    out["target"] = r.string((*path, "target"), m.get("target", "enemy"), TARGETS)
    if "unlimited" in m and not isinstance(m["unlimited"], bool):
        raise r.error((*path, "unlimited"), "must be true or false")
    out["unlimited"] = bool(m.get("unlimited", False))
    effect = r.mapping((*path, "effect"), m["effect"], [], EFFECTS)
    if len(effect) != 1:
        raise r.error((*path, "effect"), "give exactly one effect",
                      "mortal: D3, heal: D3 or buff: {save: 1}")
    (name, amount), = effect.items()
    if name == "ability":
        out["effect"] = {"ability": r.string((*path, "effect", "ability"), amount)}
    elif name == "buff":
        buff = r.mapping((*path, "effect", "buff"), amount, [], BUFFS)
        out["effect"] = {"buff": {k: int(r.number((*path, "effect", "buff", k), x, -3, 3,
                                                  integer=True)) for k, x in buff.items()}}
    elif isinstance(amount, str) and _dice(amount):
        out["effect"] = {name: amount.upper()}
    else:
        out["effect"] = {name: str(int(r.number((*path, "effect", name), amount, 0,
                                                integer=True)))}
    return out


def _dice(text: str) -> bool:
    return re.fullmatch(r"\s*(\d*[dD][36](\s*\+\s*\d+)?|\d+\+)\s*", text) is not None
