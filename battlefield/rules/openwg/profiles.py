"""Each unit's profile: its characteristics and weapons (from `stats:`/`weapons:` or `build:`),
each model's own where it has them (seed: a model without a characteristic uses its unit's),
and its special rules as settings of a few generic effects (`specials:`).

Effects (a mapping with `effect:` and its settings):
- reroll {roll: precision|armor, faces: misses|saves|wounds|[faces], when: melee|ranged|any,
  side: attacker|defender}: re-roll those dice once (Pair of Handaxes, Evocators' armor).
- leader_damage {add: N} or {times: N}: the leader's Damage (the Karl, the Evocator-Prime).
- armor {add: N, unless: charged}: more Armor (shields while not charging).
- shrug {value: N, models: [[10, 2], [20, 3]] (10 or more models: 2 ...), near: {keywords:
  [..], within: D, value: N}}: ignore each pooled wound on a roll <= the value (Vulkite and
  Hearthguard Berzerkers).
- wounds_nearby {when: charge|attack, within: D, dice: N, at_most: N}: N dice per model against an
  enemy unit within D, each roll <= at_most a WOUND (shields on the charge, Evocators' storm).
- hit_wounds {when: melee, at_most: N}: a die per hit, each <= N a WOUND more (Flamestrike).
- charge_move {add: N}: a longer charge (the hornblower).
- attack_on_charge {weapon: {...}, once: battle}: a ranged attack at the start of a charge
  (Fyreslayers' Throwing Axes).
- wizard {spell, cast, range, min_models, grants: {effect ...}}: casts `spell` in the
  Leadership phase; a friendly unit within range gains `grants` until its side's next
  Leadership phase (Empower).
- standfast (may hold), frenzy (fights twice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battlefield.inputs import shown
from battlefield.rules.openwg.builder import Builder, Built, build
from battlefield.rules.state import State
from battlefield.scene.model import Scene, UnitSpec

STAT_KEYS = ("move", "bravery", "armor", "health", "shrug", "size")
MODEL_STAT_KEYS = ("move", "health")      # what a model may have of its own (the rest: unit's)
WEAPON_KEYS = ("name", "type", "range", "damage", "precision", "pierce")
# What every weapon must give (ruleset.yaml's weapon_defaults assumes pierce 0, check shows it).
WEAPON_NEEDS = ("type", "range", "damage", "precision")
EFFECTS: dict[str, tuple[str, ...]] = {
    "reroll": ("roll", "faces", "when", "side"),
    "leader_damage": ("add", "times"),
    "armor": ("add", "unless"),
    "shrug": ("value", "models", "near"),
    "wounds_nearby": ("when", "within", "dice", "at_most"),
    "hit_wounds": ("when", "at_most"),
    "charge_move": ("add",),
    "attack_on_charge": ("weapon", "once"),
    "wizard": ("spell", "cast", "range", "min_models", "grants"),
    "standfast": (),
    "frenzy": (),
}
NUMBERS = ("add", "times", "value", "within", "dice", "at_most", "cast", "range", "min_models")
DEFAULT_STATS = {"move": 0.0, "bravery": 0.0, "armor": 0.0, "health": 1.0, "shrug": 0.0}


@dataclass(frozen=True)
class Weapon:
    name: str
    type: str                        # melee | ranged
    range: float
    damage: int
    precision: int
    pierce: int


@dataclass
class Profile:
    stats: dict[str, float]
    weapons: tuple[Weapon, ...]
    model_stats: list[dict[str, float]]
    model_weapons: list[tuple[Weapon, ...]]
    specials: list[dict[str, Any]] = field(default_factory=list)
    built: Built | None = None

    def stat(self, key: str, k: int | None = None) -> float:
        """A characteristic of model k (0-based in the unit), else the unit's."""
        if k is not None and key in self.model_stats[k]:
            return self.model_stats[k][key]
        return self.stats.get(key, DEFAULT_STATS.get(key, 0.0))

    def effects(self, kind: str) -> list[dict[str, Any]]:
        return [s for s in self.specials if s["effect"] == kind]

    def has(self, kind: str) -> bool:
        return any(s["effect"] == kind for s in self.specials)

    def weapon_names(self) -> list[str]:
        names = [w.name for w in self.weapons]
        for ws in self.model_weapons:
            names.extend(w.name for w in ws if w.name not in names)
        return names


def _weapon(scene: Scene, path: tuple, w: Any) -> Weapon:
    if not isinstance(w, dict):
        raise scene.error(path, "a weapon must be a mapping", "{name, type, range, damage, "
                                                              "precision, pierce}")
    odd = [k for k in w if k not in WEAPON_KEYS]
    if odd:
        raise scene.error((*path, odd[0]), f"unknown weapon key '{odd[0]}'",
                          ", ".join(WEAPON_KEYS))
    missing = [k for k in WEAPON_NEEDS if k not in w]
    if missing:          # not a Precision of 0 (never hits) or a melee weapon nobody called one
        name = f"{w['name']}: " if isinstance(w.get("name"), str) else ""
        raise scene.error(path, f"{name}the weapon has no {', '.join(missing)}: openwg needs "
                                f"{', '.join(WEAPON_NEEDS)} of every weapon (pierce 0 is "
                                f"assumed)", "{name, type, range, damage, precision, pierce?}")
    kind = w["type"]
    if kind not in ("melee", "ranged"):
        raise scene.error((*path, "type"), f"weapon type {kind!r}", "melee or ranged")
    for k in ("range", "damage", "precision", "pierce"):
        x = w.get(k, 0)
        if isinstance(x, bool) or not isinstance(x, (int, float)) or x < 0:
            raise scene.error((*path, k), f"must be a number 0 or more, not {x!r}")
    return Weapon(str(w.get("name", kind)), kind, float(w["range"]), int(w["damage"]),
                  int(w["precision"]), int(w.get("pierce", 0)))


def _stats(scene: Scene, path: tuple, d: Any, keys: tuple[str, ...] = STAT_KEYS
           ) -> dict[str, float]:
    if not isinstance(d, dict):
        raise scene.error(path, "must be a mapping", ", ".join(keys))
    out = {}
    for k, x in d.items():
        if k in STAT_KEYS and k not in keys:
            raise scene.error((*path, k), f"'{k}' is the unit's: every model uses the unit's "
                                          f"{k} (a model may give its own "
                                          f"{', '.join(keys)})", ", ".join(keys))
        if k not in keys:
            raise scene.error((*path, k), f"unknown characteristic '{k}'", ", ".join(keys))
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise scene.error((*path, k), f"must be a number, not {x!r}")
        out[k] = float(x)
    return out


def _specials(scene: Scene, path: tuple, raw: Any) -> list[dict[str, Any]]:
    out = []
    for i, s in enumerate(raw or []):
        p = (*path, i)
        if not isinstance(s, dict) or not isinstance(s.get("effect"), str) \
                or s["effect"] not in EFFECTS:          # [a list] is unhashable: a TypeError
            raise scene.error(p, f"unknown special {shown(s)}",
                              f"{{effect: ...}} with an effect among {', '.join(EFFECTS)}")
        odd = [k for k in s if k != "effect" and k not in EFFECTS[s["effect"]]]
        if odd:
            raise scene.error((*p, odd[0]), f"{s['effect']} has no setting '{odd[0]}'",
                              ", ".join(EFFECTS[s["effect"]]) or "no settings")
        for k in NUMBERS:
            x = s.get(k, 0)
            if k in s and (isinstance(x, bool) or not isinstance(x, (int, float))):
                raise scene.error((*p, k), f"{s['effect']}'s {k} must be a number, not {x!r}")
        pairs = s.get("models", [])
        if not isinstance(pairs, list) or not all(
                isinstance(q, list) and len(q) == 2 and all(isinstance(n, int) for n in q)
                for q in pairs):
            raise scene.error((*p, "models"), f"shrug's models must be [[models, value], ...], "
                                              f"not {pairs!r}", "e.g. [[10, 2], [20, 3]]")
        if "weapon" in s:          # read at a charge: checked here, as the unit's weapons are
            w = s["weapon"]
            if not isinstance(w, dict) or "type" in w:
                raise scene.error((*p, "weapon"), f"{s['effect']}'s weapon must be a mapping "
                                  f"without a type (it is a ranged attack), not {w!r}"[:300],
                                  "{name, range, damage, precision, pierce?}")
            _weapon(scene, (*p, "weapon"), {"type": "ranged", **w})
        if s["effect"] == "wizard" and "grants" in s:
            _specials(scene, (*p, "grants"), [s["grants"]])
        out.append(dict(s))
    return out


def _profile(scene: Scene, u: int, builder: Builder) -> Profile:
    spec: UnitSpec = scene.units[u]
    built = None
    if "build" in spec.extra:
        built = build(scene, spec, builder)
        stats = dict(built.stats)
        stats.update({k: float(v) for k, v in spec.stats.items()
                      if isinstance(v, (int, float))})
        weapons = tuple(_weapon(scene, (*spec.path, "build"), w) for w in built.weapons)
        specials = list(built.specials)
    else:
        stats = {k: float(v) for k, v in spec.stats.items() if isinstance(v, (int, float))}
        weapons = ()
        specials = []
    if spec.weapons:
        weapons = tuple(_weapon(scene, (*spec.path, "weapons", k), w)
                        for k, w in enumerate(spec.weapons))
    specials += _specials(scene, (*spec.path, "specials"), spec.extra.get("specials"))
    model_stats, model_weapons = [], []
    for k, m in enumerate(spec.models):
        mp = (*spec.path, "models", k)
        model_stats.append(_stats(scene, (*mp, "stats"), m.extra["stats"], MODEL_STAT_KEYS)
                           if "stats" in m.extra else {})
        model_weapons.append(tuple(_weapon(scene, (*mp, "weapons", j), w)
                                   for j, w in enumerate(m.extra["weapons"]))
                             if "weapons" in m.extra else weapons)
    return Profile(stats, weapons, model_stats, model_weapons, specials, built)


def scene_profiles(scene: Scene, builder: Builder) -> list[Profile]:
    """Every unit's profile, its `build:` worked out with `builder` (once per scene and
    builder; errors name the key path)."""
    made = scene.__dict__.setdefault("_openwg_profiles", {})
    found = made.get(id(builder))
    if found is None or found[0] is not builder:
        found = made[id(builder)] = (builder, [_profile(scene, u, builder)
                                               for u in range(len(scene.units))])
    return found[1]


def profiles(state: State) -> list[Profile]:
    """Every unit's profile in the game `state` is a moment of (its ruleset's builder)."""
    return scene_profiles(state.scene, state.rules.book.builder)
