"""A roster unit (merged with its catalogue entry) as an aos4 unit of a scene: the `Unit` profile
as stats, every weapon profile as a weapon with its weapon abilities, categories as keywords,
spells and prayers the engine plays, every ability of its warscroll (warscroll.py), and each
model with its own base, its own weapons and its unit-command role (loadout.py). A
`Manifestation` profile is read as a Unit profile; faction terrain (the FACTION TERRAIN keyword,
or Move - and Control -) becomes a terrain piece. A Move that is dice (2D6") is kept as dice.
What cannot be mapped raises ImportProblem naming the unit; what is left out or defaulted (a
weapon whose characteristic points at an ability, a spell without a casting value, a weapon
ability the engine does not play) is a warning that says so."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from battlefield.army import bases as base_sizes
from battlefield.army.bases import BASE_RULE, BaseSizeError, expected, parse_base
from battlefield.army.entries import Entry, Profile
from battlefield.army.loadout import Loadout, loadout
from battlefield.army.warscroll import abilities, is_ability, rules_text
from battlefield.rules.aos4 import activated, effects
from battlefield.rules.aos4 import weapons as aos4_weapons

UNIT_PROFILE = "Unit"
UNIT_PROFILES = (UNIT_PROFILE, "Manifestation")     # a manifestation's profile is its Unit one
TERRAIN_KEYWORD = "FACTION TERRAIN"
# Characteristics a profile has that battlefield does not play: read past, named in a warning.
IGNORED_STATS = {"Banishment"}
# The characteristic names of each profile type the importer reads, and the scene key of each.
UNIT_STATS = {"Move": "move", "Health": "health", "Save": "save", "Control": "control"}
WEAPON_STATS = {"Rng": "range", "Atk": "attacks", "Hit": "hit", "Wnd": "wound", "Rnd": "rend",
                "Dmg": "damage", "Ability": "abilities"}
WEAPON_TYPES = {"Melee Weapon": False, "Ranged Weapon": True}
MAGIC_TYPES = {"Ability (Spell)": ("spells", "Casting Value", "casting_value"),
               "Ability (Prayer)": ("prayers", "Chanting Value", "chanting_value")}
# Weapon abilities of the data and the engine's names for them (rules/aos4/weapons.py); Anti-X
# (+N Rend) is read by _ANTI in every spelling the data uses.
WEAPON_ABILITIES = {"crit (mortal)": "crit-mortal", "crit (2 hits)": "crit-2-hits",
                    "crit (auto-wound)": "crit-auto-wound", "companion": "companion",
                    "shoot in combat": "shoot-in-combat", "charge (+1 damage)": "charge-damage",
                    "charge (+1 damage": "charge-damage"}
# 'Anti-Infantry (+1 Rend)', 'Anti-Hero(+1 Rend)', 'Anti-Cavalry +1 Rend)', 'Anit-Infantry (+1
# Rend)', 'Anti-WAR MACHINE (+1 Rend)', and once 'Anti-Monster' alone (every Anti-X of the
# game is +1 Rend: read so, with a warning).
_ANTI = re.compile(r"^an(?:ti|it)-\s*(?P<what>[a-z][a-z' -]*?)\s*(?:\(?\s*\+\s*(?P<rend>\d+)\s*"
                   r"rend\s*\)?)?$", re.I)
# Categories with a number: the keyword, and the stat the number is.
NUMBERED = {"WARD": "ward", "WIZARD": "power", "PRIEST": "power"}

_DICE = re.compile(r"^(\d*D[36](\+\d+)?|\d+)$", re.I)
_MOVE_DICE = re.compile(r'^(\d*D[36](?:\+\d+)?)\s*(?:"|”|in|inches)?$', re.I)
_ROLL = re.compile(r"^(\d)\+$")
_INCHES = re.compile(r'^(\d+(?:\.\d+)?)\s*(?:"|”|in|inches)?$')


class ImportProblem(Exception):
    """A unit the importer cannot map; the message names the unit and says why."""

    def __init__(self, unit: str, message: str, expected: str | None = None) -> None:
        self.unit, self.message, self.expected = unit, message, expected
        super().__init__(f"unit '{unit}': {message}")


class WeaponProblem(Exception):
    """A weapon the importer cannot map (a characteristic that points at an ability): the
    weapon is left out, the unit kept."""


@dataclass
class Converted:
    unit: dict[str, Any]                        # an army template (rules/deploy.py ARMY_KEYS)
    warnings: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)   # profiles the import does not read
    bases: list[Any] = field(default_factory=list)      # each model's base, in mm
    loadout: Loadout | None = None              # each model's weapons and unit-command role
    terrain: bool = False                       # faction terrain: a piece, not a unit

    def __post_init__(self) -> None:
        self.warnings = _Once(self.warnings)


class _Once(list):
    """A list of warnings that keeps each one once (one per unit and reason, not per model)."""

    def append(self, item: str) -> None:
        if item not in self:
            super().append(item)


def convert(entry: Entry, with_catalogues: bool, all_weapons: bool = False) -> Converted:
    """The unit as an army template. `all_weapons`: every weapon of the entry (a catalogue's
    entry lists the choices, not what each model carries)."""
    name = display_name(entry.name)
    out = Converted({"id": slug(name), "name": name})
    w = out.warnings
    profile = _unit_profile(entry, with_catalogues)
    if is_terrain(entry, profile):
        return _terrain(entry, out, with_catalogues)
    stats = _stats(name, profile, w)
    keywords: list[str] = []
    for cat in entry.categories:
        kw, number = keyword(cat)
        if kw is None:
            continue                   # a list label ("Legends"), not a keyword
        if kw in NUMBERED and number is not None:
            key = NUMBERED[kw]
            stats[key] = max(stats.get(key, 0), number)
            if kw == "WARD":
                continue
        if kw not in keywords:
            keywords.append(kw)
    out.unit["stats"] = stats
    n, out.bases = _models(entry, with_catalogues, w)
    out.loadout = _weapons(entry, len(out.bases), w, all_weapons)
    out.unit["weapons"] = out.loadout.weapons
    out.unit["keywords"] = keywords
    out.unit["models"] = n
    out.unit["base"] = base_sizes.scene_base(_spacing(out.bases))
    for kind, items in _magic(entry, w).items():
        if items:
            out.unit[kind] = items
    said = abilities(entry)
    if said:
        out.unit["abilities"] = said
    read = {*UNIT_PROFILES, *WEAPON_TYPES, *MAGIC_TYPES}
    for e in entry.walk():
        for p in e.profiles:
            if p.type_name not in read and not is_ability(p):
                out.left_out.append(f"{p.type_name}: {p.name}")
    return out


# A catalogue's name for an undersize unit says how many models the entry was made for ("Crypt
# Flayers (2 Models)"); the roster's models say how many it has, so the unit is named without it.
_MODELS_IN_NAME = re.compile(r"\s*\(\s*\d+\s+models?\s*\)\s*$", re.I)


def display_name(name: str) -> str:
    """The unit's name as the scene shows it: a "(N Models)" the catalogue adds left off."""
    return _MODELS_IN_NAME.sub("", name).strip() or name


def is_terrain(entry: Entry, profile: Profile) -> bool:
    """Faction terrain: the FACTION TERRAIN keyword, or a profile with Move - and Control -
    that is no manifestation."""
    if any(c.strip().upper() == TERRAIN_KEYWORD for c in entry.categories):
        return True
    return (profile.type_name == UNIT_PROFILE and profile.get("Move").strip() == "-"
            and profile.get("Control").strip() == "-")


def _terrain(entry: Entry, out: Converted, with_catalogues: bool) -> Converted:
    """Faction terrain as a piece: its footprint is its base (one model's), else the default
    the writer documents."""
    out.terrain = True
    out.unit = {"id": slug(entry.name), "name": entry.name, "kind": "terrain"}
    models = [e for e in entry.walk() if e.type == "model" and e is not entry] or [entry]
    text = next((m.rules.get(BASE_RULE) for m in models if m.rules.get(BASE_RULE)), None)
    text = text or entry.rules.get(BASE_RULE)
    if text:
        try:
            said: list[str] = []
            out.bases = base_sizes.model_bases(parse_base(text, said), 1)
            for x in said:
                out.warnings.append(f"unit '{entry.name}': {x}")
        except BaseSizeError as exc:
            out.warnings.append(f"unit '{entry.name}': {exc}; the default footprint is used")
    return out


def _spacing(sizes: list[Any]) -> Any:
    """The base a unit's block is laid out with: the one base of its models, or for mixed
    bases a round base as wide as the longest."""
    first = sizes[0]
    if all(s == first for s in sizes):
        return first
    return max(base_sizes.extent(s) for s in sizes)


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "unit"


# --- the Unit profile -------------------------------------------------------------------------
def _unit_profile(entry: Entry, with_catalogues: bool) -> Profile:
    found = [p for e in entry.walk() for p in e.profiles if p.type_name in UNIT_PROFILES]
    if not found:
        raise ImportProblem(entry.name, "no 'Unit' profile (Move, Health, Save, Control)",
                            "the unit's profile in the roster" if with_catalogues else
                            "the unit's profile in the roster, or --catalogues DIR")
    return found[0]


def _stats(unit: str, p: Profile, w: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in p.characteristics:
        if k in IGNORED_STATS and p.type_name != UNIT_PROFILE:
            w.append(f"unit '{unit}': its {k} ({v}) is not played")
            continue
        if k not in UNIT_STATS:
            raise ImportProblem(unit, f"unknown characteristic '{k}' in its {p.type_name} "
                                "profile", "Move, Health, Save, Control")
        key = UNIT_STATS[k]
        if key == "move":
            out[key] = _move(unit, k, v, w)
        elif key == "control" and v.strip() == "-":
            out[key] = 0                 # Control -: it never contests an objective
        elif key == "save":
            out[key] = _roll(unit, k, v)
        else:
            out[key] = _whole(unit, k, v)
    if p.type_name != UNIT_PROFILE:
        out.setdefault("control", 0)     # a manifestation has no Control: it contests nothing
    missing = [k for k in UNIT_STATS if UNIT_STATS[k] not in out]
    if missing:
        raise ImportProblem(unit, f"its Unit profile has no {', '.join(missing)}",
                            "Move, Health, Save and Control")
    return out


def _inches(unit: str, k: str, v: str) -> float | int:
    m = _INCHES.match(v.strip())
    if m is None:
        raise ImportProblem(unit, f"{k} '{v}' is not a distance", 'inches, like 5"')
    x = float(m.group(1))
    return int(x) if x.is_integer() else x


def _move(unit: str, k: str, v: str, w: list[str]) -> float | int | str:
    """Move in inches; a dice Move ("2D6\"", "D6+8\"") kept as dice ("2D6"), rolled when the
    unit moves; "-" (it cannot move) is 0."""
    t = v.strip()
    if t == "-":
        w.append(f"unit '{unit}': Move '-': it does not move")
        return 0
    m = _MOVE_DICE.match(t.upper().replace(" ", ""))
    if m is not None:
        return m.group(1)
    if t == "*":
        raise ImportProblem(unit, f"{k} '*' (a damage table of an older edition's warscroll)",
                            "a list made for Age of Sigmar 4 (Move in inches, or dice)")
    return _inches(unit, k, v)


def _roll(unit: str, k: str, v: str) -> int:
    m = _ROLL.match(v.strip())
    if m is None:
        raise ImportProblem(unit, f"{k} '{v}' is not a roll", "a roll like 4+")
    return int(m.group(1))


def _whole(unit: str, k: str, v: str) -> int:
    if not v.strip().isdigit():
        raise ImportProblem(unit, f"{k} '{v}' is not a whole number", "a whole number")
    return int(v)


def _amount(unit: str, k: str, v: str) -> int | str:
    t = v.strip().upper().replace(" ", "")
    if not _DICE.match(t):
        raise ImportProblem(unit, f"{k} '{v}' is not a number or dice", "a number or D3, 2D6+1")
    return int(t) if t.isdigit() else t


def keyword(category: str) -> tuple[str | None, int | None]:
    """'WIZARD (1)' -> ('WIZARD', 1); 'WARD (6+)' -> ('WARD', 6); 'Legends' -> (None, None)."""
    m = re.match(r"^(.*?)\s*\(([^)]*)\)\s*$", category)
    word, inside = (m.group(1), m.group(2)) if m else (category, "")
    word = word.strip()
    if not word or word != word.upper() or not any(c.isalpha() for c in word):
        return None, None
    number = re.fullmatch(r"(\d+)\+?", inside.strip())
    return word, int(number.group(1)) if number else None


# --- models and bases -------------------------------------------------------------------------
def _models(entry: Entry, with_catalogues: bool, w: list[str]) -> tuple[int, list[Any]]:
    """How many models, and each one's base (mm) from its Base Size rule."""
    models = [e for e in entry.walk() if e.type == "model" and e is not entry]
    if not models:
        models = [entry]               # a single-model unit written as the model itself
    n = sum(m.number for m in models)
    if n < 1:
        raise ImportProblem(entry.name, "the roster gives it no models", "1 or more models")
    sizes: list[Any] = []
    for m in models:
        if m.number < 1:
            continue
        text = m.rules.get(BASE_RULE) or entry.rules.get(BASE_RULE)
        if not text:
            raise ImportProblem(
                entry.name, f"no '{BASE_RULE}' rule for its model '{m.name}'",
                "the rule in the catalogue entry of the model" if with_catalogues
                else "--catalogues DIR (the BSData .cat files) to read base sizes from, or "
                     "`battlefield army catalogues update` once")
        said: list[str] = []
        try:
            lines = parse_base(text, said)
        except BaseSizeError as exc:
            raise ImportProblem(entry.name, str(exc), expected()) from None
        for x in said:
            w.append(f"unit '{entry.name}': {x}")
        sizes += base_sizes.model_bases(lines, m.number)
    return n, sizes


# --- weapons ----------------------------------------------------------------------------------
def _weapons(entry: Entry, n: int, w: list[str], every: bool = False) -> Loadout:
    """Every weapon profile of the unit, and the ones each of its n models carries
    (loadout.py); a weapon whose characteristic points at an ability is left out (a warning)."""
    for e in entry.walk():
        for p in e.profiles:
            if p.type_name not in WEAPON_TYPES and "weapon" in p.type_name.lower():
                raise ImportProblem(entry.name, f"unknown weapon profile type '{p.type_name}' "
                                    f"('{p.name}')", "Melee Weapon or Ranged Weapon")

    def one(p: Profile) -> dict[str, Any] | None:
        try:
            return _weapon(entry.name, p, WEAPON_TYPES[p.type_name], w)
        except WeaponProblem as exc:
            w.append(f"unit '{entry.name}': weapon '{p.name}' is left out: {exc}")
            return None

    got = loadout(entry, n, one, rules_text, every)
    w.extend(f"unit '{entry.name}': {x}" for x in got.capped)
    if not got.weapons:
        w.append(f"unit '{entry.name}': no weapon profiles; it cannot attack")
    return got


def _weapon(unit: str, p: Profile, ranged: bool, w: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name}
    for k, v in p.characteristics:
        if k not in WEAPON_STATS or (k == "Rng" and not ranged):
            raise ImportProblem(unit, f"unknown characteristic '{k}' in weapon '{p.name}'",
                                ", ".join(c for c in WEAPON_STATS if ranged or c != "Rng"))
        key = WEAPON_STATS[k]
        if key != "abilities" and re.search(r"\bsee\b", v, re.I):
            raise WeaponProblem(f"its {k} is '{clean(v).strip('⟝⟞ ')}' (an ability battlefield "
                                "does not play)")
        try:
            _weapon_value(unit, p, k, key, v, out, w)
        except ImportProblem as exc:
            raise WeaponProblem(exc.message) from None
    need = ["Atk", "Hit", "Wnd", "Dmg"] + (["Rng"] if ranged else [])
    missing = [k for k in need if WEAPON_STATS[k] not in out]
    if missing:
        raise WeaponProblem(f"it has no {', '.join(missing)}")
    out.setdefault("rend", 0)
    order = ["name", "range", "attacks", "hit", "wound", "rend", "damage", "abilities"]
    return {k: out[k] for k in order if k in out}


def _weapon_value(unit: str, p: Profile, k: str, key: str, v: str, out: dict[str, Any],
                  w: list[str]) -> None:
    """One characteristic of a weapon profile into `out`; ImportProblem when it is not one."""
    if key == "range":
        out[key] = _inches(unit, f"{p.name} {k}", v)
    elif key in ("attacks", "damage"):
        out[key] = _amount(unit, f"{p.name} {k}", v)
    elif key in ("hit", "wound"):
        out[key] = _roll(unit, f"{p.name} {k}", v)
    elif key == "rend":
        out[key] = 0 if v.strip() in ("-", "", "0") else _whole(unit, f"{p.name} {k}", v)
    else:
        abilities = _abilities(unit, p.name, v, w)
        if abilities:
            out[key] = abilities


def _abilities(unit: str, weapon: str, text: str, w: list[str]) -> list[str]:
    """A weapon's abilities as the engine names them (every spelling the data uses); one the
    engine does not play is a warning (kept on the weapon when the engine knows it, left off
    when it does not), and the weapon is always kept."""
    out = []
    for part in re.split(r",(?![^(]*\))", clean(text)):
        part = part.strip()
        if part in ("", "-"):
            continue
        name = weapon_ability(part)
        if name is None or not aos4_weapons.known(name):
            w.append(f"unit '{unit}': weapon '{weapon}' ability '{part}' is not one "
                     f"battlefield knows; left off the weapon")
            continue
        if not aos4_weapons.played(name):
            w.append(f"unit '{unit}': weapon '{weapon}' ability '{part}' is kept on the weapon "
                     f"but not played yet")
        elif name.startswith("anti-") and "+" not in part:
            w.append(f"unit '{unit}': weapon '{weapon}' ability '{part}' gives no Rend; read "
                     f"as {name}")
        if name not in out:
            out.append(name)
    return out


def weapon_ability(text: str) -> str | None:
    """A weapon ability of the data as a scene writes it ('Anti-Hero(+1 Rend)' -> 'anti-hero
    (+1 rend)', 'Shoot In Combat' -> 'shoot-in-combat'), or None for one it does not know."""
    t = " ".join(text.split())
    m = _ANTI.match(t)
    if m is not None:
        return f"anti-{m.group('what').strip().lower()} (+{int(m.group('rend') or 1)} rend)"
    return WEAPON_ABILITIES.get(t.lower())


def clean(text: str) -> str:
    """The data's markup taken off: **^^Infantry^^** -> Infantry; odd spaces and hyphens."""
    text = text.replace("**", "").replace("^^", "").replace("\xa0", " ").replace("\u2011", "-")
    return " ".join(text.split())


# --- spells and prayers -----------------------------------------------------------------------
def _dice_or_whole(text: str) -> int | str:
    """'D3' -> 'D3', '1' -> 1: a flat amount is a number in the scene, not text."""
    return int(text) if text.isdigit() else text.upper()


def magic_item(declare: str, effect: str, kind: str, name: str = "",
               as_written: tuple[str, str] | None = None) -> dict[str, Any] | None:
    """What rules/aos4/magic.py plays of a spell or prayer - {"target", "range", "effect":
    {"mortal" | "heal": N}} - when the effect reader reads its whole text as exactly that: one
    enemy unit it must see (magic checks sight) or one friendly unit, within N", mortal
    damage on the enemy or healing of the friend; else {"effect": {"ability": NAME}} (with its
    target and range, or target self) when the text is read whole as what activated abilities
    play (rules/aos4/activated.py: modifiers, wards, keywords for the rest of the turn or
    until your next turn, mortal damage on a roll ...) on a target magic checks the same way
    or on the caster (`name` and `as_written`: the ability's name and its Declare and Effect
    as its `abilities:` entry has them, keywords in capitals); else None (never a part of the
    text)."""
    ability = (*(as_written or (declare, effect)), kind, name)
    r = effects.read({"kind": kind, "timing": None, "declare": declare, "effect": effect})
    if r is None or r.conditions or r.target is None or len(r.effects) != 1:
        return _as_ability(*ability)
    t, e = r.target, r.effects[0]
    if set(t) - {"unit", "within", "visible", "count"} or t.get("count") != 1 or not isinstance(
            t.get("within"), int) or bool(t.get("visible")) != (t["unit"] == "enemy"):
        return None
    if set(e) - {"mortal", "heal", "who"} or e["who"] != {"unit": "target"}:
        return _as_ability(*ability)
    if "mortal" in e and t["unit"] == "enemy" and e["mortal"] != "ROLL":
        eff = {"mortal": _dice_or_whole(e["mortal"])}
    elif "heal" in e and t["unit"] == "friendly":
        eff = {"heal": _dice_or_whole(e["heal"])}
    else:
        return _as_ability(*ability)
    return {"target": t["unit"], "range": t["within"], "effect": eff}


def _as_ability(declare: str, effect: str, kind: str, name: str) -> dict[str, Any] | None:
    """A spell or prayer magic plays as the unit's ability of its name (read as one used in
    the hero phase, played whole by activated.py): on the caster, or on one enemy unit it must
    see or one friendly unit, within N"."""
    r = effects.read({"kind": kind, "timing": "Your Hero Phase", "declare": declare,
                      "effect": effect})
    if not name or r is None or not activated.playable(r):
        return None
    t = r.target
    if t is None:
        return {"target": "self", "effect": {"ability": name}}
    if set(t) - {"unit", "within", "visible", "count"} or t.get("count") != 1 or not isinstance(
            t.get("within"), int) or bool(t.get("visible")) != (t["unit"] == "enemy"):
        return None
    return {"target": t["unit"], "range": t["within"], "effect": {"ability": name}}


def _magic(entry: Entry, w: list[str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {"spells": [], "prayers": []}
    seen = set()
    for e in entry.walk():
        for p in e.profiles:
            if p.type_name not in MAGIC_TYPES or p.name in seen:
                continue
            seen.add(p.name)
            kind, value_name, value_key = MAGIC_TYPES[p.type_name]
            what = kind[:-1]
            value = p.get(value_name)
            if not value.strip().isdigit():
                w.append(f"unit '{entry.name}': {what} '{p.name}' has {value_name} "
                         f"'{value}', not a number; left out")
                continue
            played = magic_item(clean(p.get("Declare")), clean(p.get("Effect")), what,
                                rules_text(p.name) or p.name,
                                (rules_text(p.get("Declare")), rules_text(p.get("Effect"))))
            if played is None:
                w.append(f"unit '{entry.name}': {what} '{p.name}' does something battlefield "
                         f"does not play whole (it plays mortal damage on one enemy unit and "
                         f"healing of one friendly unit); declared and applied by hand")
                continue
            out[kind].append({"id": slug(p.name), "name": p.name, value_key: int(value),
                              **played})
    return out
