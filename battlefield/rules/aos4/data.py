"""The aos4 rules as data: rulesets/aos4/abilities.yaml (the seed's universal abilities, which
command reacts to which ability, which are not played and why), battleplan.yaml (rounds, command
points, scoring) and rules.yaml (the core rules' numbers: distances and dice). Unknown keys are
errors listing valid ones."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from battlefield.paths import ruleset_dir
from battlefield.rules.dice import DiceError, parse
from battlefield.yamlsource import Reader

PHASE_OF = {  # seed phase names -> (phase, whose turn: your / enemy / any)
    "yourMovement": ("movement", "your"), "enemyMovement": ("movement", "enemy"),
    "yourShooting": ("shooting", "your"), "enemyShooting": ("shooting", "enemy"),
    "anyShooting": ("shooting", "any"), "yourCharge": ("charge", "your"),
    "enemyCharge": ("charge", "enemy"), "anyCombat": ("combat", "any"),
    "yourHero": ("hero", "your"), "enemyHero": ("hero", "enemy"), "anyHero": ("hero", "any"),
    "deployment": ("deployment", "any"), "anyStartOfTurn": ("start", "any"),
    "anyEndOfTurn": ("end", "any"),
}


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    type: str                       # normal | command
    timing: str
    phases: tuple[tuple[str, str], ...]
    keywords: frozenset[str]
    cost: int = 0
    declare: str = ""
    effect: str = ""
    reacts_to: tuple[str, ...] = ()     # a reaction command: the abilities it is given on
    not_played: str = ""                # why battlefield does not play it (empty: played)
    where: tuple[str, str, int | None] = field(default=("", "", None), compare=False)

    @property
    def command(self) -> bool:
        return self.type == "command"

    @property
    def reaction(self) -> bool:
        return self.timing.startswith("Reaction")


@dataclass(frozen=True)
class Battleplan:
    name: str
    rounds: int
    command_points: int
    underdog_bonus: int
    hold_one: int
    hold_two: int
    hold_more: int


@cache
def abilities() -> dict[str, Ability]:
    return load_abilities(ruleset_dir("aos4") / "abilities.yaml")


def load_abilities(path: Path) -> dict[str, Ability]:
    """Read an abilities file (rulesets/aos4/abilities.yaml)."""
    r = Reader.open(path)
    top = r.mapping((), r.data, ["abilities"])
    out: dict[str, Ability] = {}
    items = r.sequence(("abilities",), top["abilities"])
    ids = [item.get("id") for item in items if isinstance(item, dict)]
    for i, item in enumerate(items):
        p = ("abilities", i)
        a = r.mapping(p, item, ["id", "name", "type", "timing", "phases", "keywords"],
                      ["cost", "declare", "effect", "reacts_to", "not_played"])
        reaction = str(a["timing"]).startswith("Reaction")
        reacts = r.strings((*p, "reacts_to"), a.get("reacts_to", []))
        for k, name in enumerate(reacts):
            if name not in ids:
                raise r.error((*p, "reacts_to", k), f"no ability '{name}'",
                              "ability ids of this file")
        if reacts and not reaction:
            raise r.error((*p, "reacts_to"), f"{a['id']} is not a reaction (timing "
                                             f"'{a['timing']}')", "a timing 'Reaction: ...'")
        if reaction and not reacts and "not_played" not in a:
            raise r.error(p, f"reaction {a['id']} says neither what it reacts to nor why it "
                             f"is not played", "reacts_to: [ABILITY, ...] or not_played: REASON")
        phases = []
        for k, name in enumerate(r.strings((*p, "phases"), a["phases"])):
            if name not in PHASE_OF:
                raise r.error((*p, "phases", k), f"unknown phase '{name}'",
                              "one of " + ", ".join(PHASE_OF))
            phases.append(PHASE_OF[name])
        out[a["id"]] = Ability(
            a["id"], a["name"], r.string((*p, "type"), a["type"], ["normal", "command"]),
            a["timing"], tuple(phases), frozenset(r.strings((*p, "keywords"), a["keywords"])),
            int(r.number((*p, "cost"), a.get("cost", 0), 0, integer=True)),
            a.get("declare", ""), a.get("effect", ""), tuple(reacts),
            r.string((*p, "not_played"), a["not_played"]) if "not_played" in a else "",
            (r.file, f"abilities[{i}]", r.line(p)))
    return out


@cache
def battleplan() -> Battleplan:
    r = Reader.open(ruleset_dir("aos4") / "battleplan.yaml")
    top = r.mapping((), r.data, ["name", "rounds", "command_points", "underdog_bonus",
                                 "scoring"])
    s = r.mapping(("scoring",), top["scoring"], ["hold_one", "hold_two", "hold_more"])
    n = lambda path, v: int(r.number(path, v, 0, integer=True))  # noqa: E731
    return Battleplan(top["name"], n(("rounds",), top["rounds"]),
                      n(("command_points",), top["command_points"]),
                      n(("underdog_bonus",), top["underdog_bonus"]),
                      n(("scoring", "hold_one"), s["hold_one"]),
                      n(("scoring", "hold_two"), s["hold_two"]),
                      n(("scoring", "hold_more"), s["hold_more"]))


# --- rules.yaml: the core rules' numbers ---------------------------------------------------------
@dataclass(frozen=True)
class MovementRules:
    run_roll: str
    at_the_double: int
    redeploy_roll: str
    retreat_mortal: str


@dataclass(frozen=True)
class ChargeRules:
    roll: str
    reach: float


@dataclass(frozen=True)
class CombatRules:
    pile_in: float
    power_through_mortal: str


@dataclass(frozen=True)
class HeroRules:
    rally_rolls: int
    rally_point_on: int
    place_of_power_range: float
    place_of_power_roll: str
    place_of_power_fails_on: int
    place_of_power_mortal: str
    place_of_power_bonus: int


@dataclass(frozen=True)
class MagicRules:
    casting_roll: str
    miscast_ones: int
    miscast_mortal: str
    unbind_range: float
    unbinding_roll: str
    chanting_roll: str
    chant_fails_on: int
    ritual_lost: str
    range: float
    intervention_penalty: int


@dataclass(frozen=True)
class BattleRules:
    priority_roll: str


@dataclass(frozen=True)
class CoreRules:
    movement: MovementRules
    charge: ChargeRules
    combat: CombatRules
    hero: HeroRules
    magic: MagicRules
    battle: BattleRules


def _field(r: Reader, path: tuple[Any, ...], value: Any, kind: type) -> Any:
    """A dice expression (str), a whole number (int) or a distance in inches (float)."""
    if kind is int:
        return int(r.number(path, value, 0, integer=True))
    if kind is float:
        return float(r.number(path, value, 0))
    text = r.string(path, value)
    try:
        parse(text)
    except DiceError as exc:
        raise r.error(path, str(exc), "dice such as D6, 2D6, D3+1") from None
    return text.upper()


def load_rules(path: Path) -> CoreRules:
    """Read a rules file (rulesets/aos4/rules.yaml)."""
    r = Reader.open(path)
    sections = {f.name: f.type for f in fields(CoreRules)}
    top = r.mapping((), r.data, list(sections))
    kinds = {"str": str, "int": int, "float": float}
    made = {}
    for name, cls in ((f.name, globals()[str(f.type)]) for f in fields(CoreRules)):
        keys = {f.name: kinds[str(f.type)] for f in fields(cls)}
        sec = r.mapping((name,), top[name], list(keys))
        made[name] = cls(**{k: _field(r, (name, k), sec[k], t) for k, t in keys.items()})
    return CoreRules(**made)


@cache
def core() -> CoreRules:
    """rulesets/aos4/rules.yaml, read once."""
    return load_rules(ruleset_dir("aos4") / "rules.yaml")


def used_core(phase_used: set[str]) -> bool:
    """A unit that has used these abilities this phase has used a CORE one: the Rule of One
    lets it use no other."""
    table = abilities()
    return any(x in table and "CORE" in table[x].keywords for x in phase_used)

