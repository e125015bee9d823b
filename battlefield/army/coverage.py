"""`army coverage`: what battlefield makes of the data, over every catalogue - the units a list can
field that map, their weapon profiles imported, the weapon abilities the engine plays, the
models that carry their own weapons, and the units' abilities: kept in the scene, read by the
effect reader, played by the engine, and the commonest shapes of those it does not play.

Every figure is asked of the code that does the work, not written down: the importer
(convert) maps each unit as `army units` does (every weapon of the entry: a catalogue lists the
choices), aos4's weapons module says which weapon abilities it plays, the effect reader which
abilities it reads, and an ability is played when the engine plays it whole: the spells and
prayers the import writes into `spells:`/`prayers:` (rules/aos4/magic.py), the passive ones
rules/aos4/passives.py applies to every attack, the activated ones rules/aos4/activated.py
plays when they are declared (abilities_play.played). Shown: at its timing in the window and
the pages (abilities_play.timing: every ability that is not passive has one) or, passive, on
its unit's hover.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from battlefield.army.catalogue import Catalogues
from battlefield.army.convert import WEAPON_TYPES, ImportProblem, clean, convert, weapon_ability
from battlefield.army.entries import Entry
from battlefield.rules.aos4 import abilities_play, effects, passives
from battlefield.rules.aos4 import weapons as aos4_weapons

SHAPES = 15             # the commonest unplayed shapes listed
MAGIC = {"spell": "spells", "prayer": "prayers"}


def coverage(folder: str | Path) -> dict[str, Any]:
    """The figures over every catalogue (.cat) of a folder of the dataset."""
    folder = Path(folder)
    cats = Catalogues.read(folder)
    units: dict[str, Entry] = {}
    for f in sorted(folder.glob("*.cat")):
        for e in cats.units(str(f)):
            units.setdefault(e.name, e)
    mapped = 0
    weapons = imported = 0
    w_total = w_played = 0
    unplayed: Counter[str] = Counter()
    own_units = own_models = 0
    abilities: dict[tuple, dict[str, Any]] = {}        # distinct abilities -> the entry
    played: set[tuple] = set()
    for e in units.values():
        profiles = {(p.type_name, p.name): p for x in e.walk() for p in x.profiles
                    if p.type_name in WEAPON_TYPES}
        weapons += len(profiles)
        try:
            c = convert(e, True, all_weapons=True)
        except ImportProblem:
            continue
        mapped += 1
        if c.terrain:
            continue
        kept = {w["name"] for w in c.unit.get("weapons", [])}
        for (_, wname), p in profiles.items():
            if wname not in kept:
                continue
            imported += 1
            for part in re.split(r",(?![^(]*\))", clean(p.get("Ability"))):
                part = part.strip()
                if part in ("", "-"):
                    continue
                w_total += 1
                known = weapon_ability(part)
                if known is not None and aos4_weapons.played(known):
                    w_played += 1
                else:
                    unplayed[known if known is not None and aos4_weapons.known(known)
                             else part] += 1
        keys = c.loadout.model_keys() if c.loadout else []
        if any("weapons" in k for k in keys):
            own_units += 1
            own_models += sum("weapons" in k for k in keys)
        magic = {(kind, m["name"]) for kind in ("spells", "prayers")
                 for m in c.unit.get(kind, [])}
        for a in c.unit.get("abilities", []):
            key = (a["kind"], a["name"], a["timing"], a["declare"], a["effect"])
            abilities.setdefault(key, a)
            if a["kind"] in MAGIC and (MAGIC[a["kind"]], a["name"]) in magic:
                played.add(key)
    return {
        "units": {"mapped": mapped, "total": len(units)},
        "weapons": {"imported": imported, "total": weapons},
        "weapon_abilities": {"played": w_played, "total": w_total,
                             "unplayed": dict(unplayed.most_common())},
        "abilities": _abilities(abilities, played),
        "own_weapons": {"units": own_units, "models": own_models},
        "catalogues": {"folder": str(folder), "files": len(list(folder.glob("*.cat")))},
    }


def engine_plays(ability: dict[str, Any], reading: Any = None) -> bool:
    """Whether the engine plays a unit's ability (an `abilities:` entry) by itself: a passive
    one the effect reader reads whole into modifiers it applies (passives.playable), an
    activated one abilities_play plays. `reading`: effects.read(ability), when already read.
    A spell or prayer is played as the unit's `spells:`/`prayers:` entry (unit_plays)."""
    if ability["kind"] == "passive":
        return passives.playable(effects.read(ability) if reading is None else reading)
    return abilities_play.played(ability) is not None


def unit_plays(unit: dict[str, Any]) -> list[str]:
    """The names of a scene unit's abilities the engine plays by itself (as `army coverage`
    counts them): its spells and prayers imported as such, and what engine_plays says."""
    magic = {(kind, m["name"]) for kind in MAGIC.values() for m in unit.get(kind, [])}
    return [a["name"] for a in unit.get("abilities", [])
            if (a["kind"] in MAGIC and (MAGIC[a["kind"]], a["name"]) in magic)
            or (a["kind"] not in MAGIC and engine_plays(a))]


def _abilities(abilities: dict[tuple, dict[str, Any]], magic: set[tuple]) -> dict[str, Any]:
    """The distinct abilities of the units: how many the engine plays (magic's spells and
    prayers, passives.playable, abilities_play.played), how many the window and the pages show,
    how many the effect reader reads, by kind, and the commonest shapes of the effects not
    played and not read."""
    readings = {k: effects.read(a) for k, a in abilities.items()}
    readable = {k for k, r in readings.items() if r is not None}
    played = set(magic) | {k for k, a in abilities.items() if engine_plays(a, readings[k])}
    shown = {k for k, a in abilities.items()
             if a["kind"] == "passive" or abilities_play.timing(a) is not None}
    shapes = Counter(effects.shape(a["effect"]) for k, a in abilities.items()
                     if k not in played)
    unread = Counter(effects.shape(a["effect"]) for k, a in abilities.items()
                     if k not in readable)

    def by_kind(keys: set[tuple]) -> dict[str, int]:
        return dict(Counter(abilities[k]["kind"] for k in keys).most_common())

    return {"played": len(played), "shown": len(shown), "total": len(abilities),
            "by_kind": dict(Counter(a["kind"] for a in abilities.values()).most_common()),
            "played_by_kind": by_kind(played), "shown_by_kind": by_kind(shown),
            "kept": len(abilities), "readable": len(readable),
            "readable_by_kind": by_kind(readable),
            "unplayed_shapes": dict(shapes.most_common(SHAPES)),
            "unread_shapes": dict(unread.most_common(SHAPES))}
