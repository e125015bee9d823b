"""The warband rules as data: rulesets/warband/game.yaml (rounds, initiative dice, the attack
roll, disengage, falling, reactions, the universal abilities), read by the ruleset
(`Warband.book`), and each fighter as the rules read it from the scene: Move, Defense, Wounds,
its weapons and its own abilities."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from battlefield.rules.datafile import item, read, value_of
from battlefield.rules.state import State
from battlefield.scene.model import Scene
from battlefield.yamlsource import Reader

EPS = 1e-6
SIZES = {"double": 2, "triple": 3, "quad": 4}      # ability dice: how many dice share a score
NAMES = {n: k for k, n in SIZES.items()}
EFFECTS = ("move", "melee_attacks", "heal", "defense", "bonus_action", "command")
BONUS_ACTIONS = ("move", "attack", "disengage")


def _cost(r: Reader, path: tuple, value: Any) -> int:
    if not isinstance(value, str) or value not in SIZES:
        raise r.error(path, f"{value!r} is not a size of ability dice", "double, triple or quad")
    return SIZES[value]


def _effects(r: Reader, path: tuple, value: Any) -> tuple[tuple[str, Any], ...]:
    if not isinstance(value, dict) or not value:
        raise r.error(path, "must be a mapping of effects", f"some of {', '.join(EFFECTS)}")
    for key, x in value.items():
        where = (*path, key)
        if key not in EFFECTS:
            raise r.error(where, f"unknown effect {key!r}", f"one of {', '.join(EFFECTS)}")
        if key == "bonus_action":
            if x not in BONUS_ACTIONS:
                raise r.error(where, f"{x!r} is not an action a bonus can be",
                              ", ".join(BONUS_ACTIONS))
        elif key == "heal":
            if x != "value" and (isinstance(x, bool) or not isinstance(x, int) or x < 1):
                raise r.error(where, f"{x!r} is not damage to remove",
                              "a whole number, or value (the ability's value)")
        elif isinstance(x, bool) or not isinstance(x, (int, float)):
            raise r.error(where, f"{x!r} is not a number", "a number (inches or a bonus)")
    return tuple(sorted(value.items()))


@dataclass(frozen=True)
class Ability:
    """A warband ability: what it costs and its generic effects (game.yaml's universal ones,
    or a fighter's own from its `abilities:`)."""

    id: str
    cost: int = item(read=_cost)                # 2 double, 3 triple, 4 quad
    effects: tuple[tuple[str, Any], ...] = item(read=_effects)
    name: str = item(default="")                # (default: the id)
    not_engaged: bool = item(default=False)

    def effect(self, key: str, default: Any = None) -> Any:
        return dict(self.effects).get(key, default)


def _abilities(r: Reader, path: tuple, value: Any) -> tuple[Ability, ...]:
    """The universal abilities: {id: {name, cost, not_engaged?, effects}}."""
    return tuple(read_ability(r, (*path, k), {"id": k, **dict(a)})
                 for k, a in r.mapping(path, value, [], list(value)
                                       if isinstance(value, dict) else []).items())


@dataclass(frozen=True)
class GameData:
    rounds: int = item(least=1)
    initiative_dice: int = item(least=1)
    actions: int = item("actions_per_activation", least=1)
    most_of_one: int = item("most_of_one_action", least=1)
    engaged: float = item("engaged_within", least=0)
    disengage: float = item(least=0)
    disengage_clear: float = item(least=0)
    hit_on: dict[str, int] = item(keys=("stronger", "equal", "weaker"), least=1)
    critical_on: int = item(least=1)
    objective_vp: int = item(least=0)
    fall_drop: float = item("falling.drop", least=0)
    fall_fails_on: int = item("falling.fails_on", least=0)
    fall_damage: str = item("falling.damage", dice=True)
    dodge: int = item("reactions.dodge")
    counter_attacks: int = item("reactions.counter_attacks")
    counter_least: int = item("reactions.counter_least", least=1)
    opportunistic_on: int = item("reactions.opportunistic_on", least=1)
    abilities: tuple[Ability, ...] = item(read=_abilities)

    def ability(self, aid: str) -> Ability | None:
        return next((a for a in self.abilities if a.id == aid), None)


def load(folder: Path) -> GameData:
    return read(GameData, folder / "game.yaml")


def game(state: State) -> GameData:
    """The numbers of the game `state` is a moment of."""
    return state.rules.book


def read_ability(r: Reader, path: tuple, raw: Any) -> Ability:
    """One ability written as data (`r` reads the file it is in)."""
    a = value_of(r, path, raw, Ability)
    return replace(a, name=a.name or a.id)


# --- fighters -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Weapon:
    name: str
    melee: bool
    range: float
    attacks: int
    strength: int
    damage: int
    crit: int


@dataclass(frozen=True)
class Fighter:
    move: float
    defense: int
    wounds: int
    weapons: tuple[Weapon, ...]
    abilities: tuple[Ability, ...]

    def weapon(self, name: str | None) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    @property
    def melee(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if w.melee)


WEAPON_KEYS = ("type", "range", "attacks", "strength", "damage", "crit")


def fighters(scene: Scene, book: GameData) -> list[Fighter]:
    """Every unit of the scene as a fighter of the game `book` describes (checked once per
    scene and book: a scene breaking the warband's rules is an InputError at the key and
    line)."""
    made = scene.__dict__.setdefault("_warband_fighters", {})
    found = made.get(id(book))
    if found is None or found[0] is not book:
        found = made[id(book)] = (book, [_fighter(scene, u, book)
                                         for u in range(len(scene.units))])
    return found[1]


def fighter(state: State, u: int) -> Fighter:
    return fighters(state.scene, game(state))[u]


def _fighter(scene: Scene, u: int, book: GameData) -> Fighter:
    spec = scene.units[u]
    p = spec.path or ("units", u)
    if len(spec.models) != 1:
        raise scene.error((*p, "models"), f"{spec.id} has {len(spec.models)} models: a warband "
                                          f"fighter is a unit of one model", "one model")
    stats = {}
    for key in ("move", "defense", "wounds"):
        value = spec.stats.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < (
                1 if key != "move" else 0):
            raise scene.error((*p, "stats", key), f"{spec.id} needs a {key} characteristic "
                                                  f"(a number), not {value!r}",
                              "stats: {move, defense, wounds}")
        stats[key] = value
    weapons = []
    for k, w in enumerate(spec.weapons):
        wp = (*p, "weapons", k)
        for key in WEAPON_KEYS:
            if key not in w:
                raise scene.error(wp, f"weapon {w.get('name', k)!r} has no {key}",
                                  "{name, type: melee|ranged, range, attacks, strength, "
                                  "damage, crit}")
        if w["type"] not in ("melee", "ranged"):
            raise scene.error((*wp, "type"), f"{w['type']!r} is not a weapon type",
                              "melee or ranged")
        for key in WEAPON_KEYS[2:]:
            if isinstance(w[key], str) or w[key] != int(w[key]) or w[key] < 0:
                raise scene.error((*wp, key), f"{w[key]!r} is not a whole number",
                                  "a whole number")
        if w["range"] < (1 if w["type"] == "melee" else 0) or isinstance(w["range"], str):
            raise scene.error((*wp, "range"), f"a melee weapon's range is at least 1\", "
                                              f"not {w['range']!r}", "1 or more")
        weapons.append(Weapon(str(w["name"]), w["type"] == "melee", float(w["range"]),
                              int(w["attacks"]), int(w["strength"]), int(w["damage"]),
                              int(w["crit"])))
    if not weapons:
        raise scene.error((*p, "weapons"), f"{spec.id} has no weapons", "at least one weapon")
    names = [w.name for w in weapons]
    if len(set(names)) != len(names):
        raise scene.error((*p, "weapons"), f"{spec.id} has two weapons of one name",
                          "a different name for each weapon")
    own = []
    raw = spec.extra.get("abilities") or []
    universal = {a.id for a in book.abilities}
    for k, a in enumerate(raw):
        ability = read_ability(Reader(scene.file, scene, scene.lines), (*p, "abilities", k), a)
        if ability.id in universal or ability.id in RESERVED:
            raise scene.error((*p, "abilities", k, "id"), f"{ability.id!r} is already an "
                                                          f"action or universal ability",
                              "a name of its own")
        own.append(ability)
    return Fighter(float(stats["move"]), int(stats["defense"]), int(stats["wounds"]),
                   tuple(weapons), tuple(own))


RESERVED = ("initiative", "first", "move", "attack", "disengage", "wait", "pass", "react",
            "no-reaction")


def abilities_of(state: State, u: int) -> tuple[Ability, ...]:
    """The universal abilities and the fighter's own."""
    return (*game(state).abilities, *fighter(state, u).abilities)


def ability_of(state: State, u: int, aid: str) -> Ability | None:
    return next((a for a in abilities_of(state, u) if a.id == aid), None)
