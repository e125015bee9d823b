"""The aos4 rules as data: rulesets/aos4/abilities.yaml (the seed's universal abilities) and
battleplan.yaml (rounds, command points, scoring). Unknown keys are errors listing valid ones."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from battlefield.paths import ruleset_dir
from battlefield.scene.yamlsource import Reader

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
    r = Reader.open(ruleset_dir("aos4") / "abilities.yaml")
    top = r.mapping((), r.data, ["abilities"])
    out: dict[str, Ability] = {}
    for i, item in enumerate(r.sequence(("abilities",), top["abilities"])):
        p = ("abilities", i)
        a = r.mapping(p, item, ["id", "name", "type", "timing", "phases", "keywords"],
                      ["cost", "declare", "effect"])
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
            a.get("declare", ""), a.get("effect", ""))
    return out


@cache
def battleplan() -> Battleplan:
    r = Reader.open(ruleset_dir("aos4") / "battleplan.yaml")
    top = r.mapping((), r.data, ["name", "rounds", "command_points", "underdog_bonus",
                                 "scoring"], ["board", "objectives", "territory_depth",
                                              "deploy_gap"])
    s = r.mapping(("scoring",), top["scoring"], ["hold_one", "hold_two", "hold_more"])
    n = lambda path, v: int(r.number(path, v, 0, integer=True))  # noqa: E731
    return Battleplan(top["name"], n(("rounds",), top["rounds"]),
                      n(("command_points",), top["command_points"]),
                      n(("underdog_bonus",), top["underdog_bonus"]),
                      n(("scoring", "hold_one"), s["hold_one"]),
                      n(("scoring", "hold_two"), s["hold_two"]),
                      n(("scoring", "hold_more"), s["hold_more"]))
