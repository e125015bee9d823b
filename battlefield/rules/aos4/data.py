"""The aos4 rules as data: rulesets/aos4/abilities.yaml (the seed's universal abilities, which
command reacts to which ability, which are not played and why), battleplan.yaml (rounds, command
points, scoring) and rules.yaml (the core rules' numbers: distances and dice). Unknown keys are
errors listing valid ones. The ruleset reads them once (`Aos4.book`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from battlefield.rules.aos4.rolls import most
from battlefield.rules.datafile import item, read, unread, value_of
from battlefield.rules.state import State
from battlefield.rulesets import RulesetData
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


def _phases(r: Reader, path: tuple, value: object) -> tuple[tuple[str, str], ...]:
    names = r.strings(path, value)
    for k, name in enumerate(names):
        if name not in PHASE_OF:
            raise r.error((*path, k), f"unknown phase '{name}'", "one of " + ", ".join(PHASE_OF))
    return tuple(PHASE_OF[name] for name in names)


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    type: str = item(choices=("normal", "command"))
    timing: str = item()
    phases: tuple[tuple[str, str], ...] = item(read=_phases)
    keywords: frozenset[str] = item()
    cost: int = item(least=0, default=0)
    declare: str = item(default="")
    effect: str = item(default="")
    reacts_to: tuple[str, ...] = item(default=())   # a reaction command: the abilities it is on
    not_played: str = item(default="")              # why battlefield does not play it
    decision: bool = item(default=False)            # the other side's pending decision
    where: tuple[str, str, int | None] = unread(("", "", None))   # file, entry, line

    @property
    def command(self) -> bool:
        return self.type == "command"

    @property
    def reaction(self) -> bool:
        return self.timing.startswith("Reaction")


@dataclass(frozen=True)
class Abilities:
    abilities: tuple[Ability, ...]


@dataclass(frozen=True)
class Battleplan:
    name: str
    rounds: int = item(least=0)
    command_points: int = item(least=0)
    underdog_bonus: int = item(least=0)
    auxiliary_bonus: int = item(least=0)
    hold_one: int = item("scoring.hold_one", least=0)
    hold_two: int = item("scoring.hold_two", least=0)
    hold_more: int = item("scoring.hold_more", least=0)


def load_abilities(path: Path) -> dict[str, Ability]:
    """Read an abilities file (rulesets/aos4/abilities.yaml): each reaction says what it reacts
    to (abilities of the file) or why it is not played."""
    r = Reader.open(path)
    found = value_of(r, (), r.data, Abilities).abilities
    ids = {a.id for a in found}
    out: dict[str, Ability] = {}
    for i, a in enumerate(found):
        p = ("abilities", i)
        for k, name in enumerate(a.reacts_to):
            if name not in ids:
                raise r.error((*p, "reacts_to", k), f"no ability '{name}'",
                              "ability ids of this file")
        if a.reacts_to and not a.reaction:
            raise r.error((*p, "reacts_to"), f"{a.id} is not a reaction (timing "
                                             f"'{a.timing}')", "a timing 'Reaction: ...'")
        if a.reaction and not a.reacts_to and not a.not_played and not a.decision:
            raise r.error(p, f"reaction {a.id} says neither what it reacts to nor why it "
                             f"is not played", "reacts_to: [ABILITY, ...], decision: true "
                                               "or not_played: REASON")
        out[a.id] = replace(a, where=(r.file, f"abilities[{i}]", r.line(p)))
    return out


# --- rules.yaml: the core rules' numbers ---------------------------------------------------------
@dataclass(frozen=True)
class MovementRules:
    run_roll: str = item(dice=True)
    at_the_double: int = item(least=0)
    redeploy_roll: str = item(dice=True)
    retreat_mortal: str = item(dice=True)


@dataclass(frozen=True)
class ChargeRules:
    roll: str = item(dice=True)
    reach: float = item(least=0)


@dataclass(frozen=True)
class CombatRules:
    pile_in: float = item(least=0)
    power_through_mortal: str = item(dice=True)


@dataclass(frozen=True)
class HeroRules:
    rally_rolls: int = item(least=0)
    rally_point_on: int = item(least=0)
    place_of_power_range: float = item(least=0)
    place_of_power_roll: str = item(dice=True)
    place_of_power_fails_on: int = item(least=0)
    place_of_power_mortal: str = item(dice=True)
    place_of_power_bonus: int = item(least=0)


@dataclass(frozen=True)
class MagicRules:
    casting_roll: str = item(dice=True)
    miscast_ones: int = item(least=0)
    miscast_mortal: str = item(dice=True)
    unbind_range: float = item(least=0)
    unbinding_roll: str = item(dice=True)
    chanting_roll: str = item(dice=True)
    chant_fails_on: int = item(least=0)
    ritual_lost: str = item(dice=True)
    range: float = item(least=0)
    intervention_penalty: int = item(least=0)


@dataclass(frozen=True)
class BattleRules:
    priority_roll: str = item(dice=True)


@dataclass(frozen=True)
class DeploymentRules:
    enemy_territory: float = item(least=0)


@dataclass(frozen=True)
class CoreRules:
    movement: MovementRules
    charge: ChargeRules
    combat: CombatRules
    hero: HeroRules
    magic: MagicRules
    battle: BattleRules
    deployment: DeploymentRules


def load_rules(path: Path) -> CoreRules:
    """Read a rules file (rulesets/aos4/rules.yaml)."""
    return read(CoreRules, path)


@dataclass(frozen=True)
class Book:
    """Everything aos4 reads of its own files: abilities.yaml, battleplan.yaml, rules.yaml, and
    of its ruleset.yaml the height climbed freely."""

    abilities: dict[str, Ability]
    battleplan: Battleplan
    core: CoreRules
    climb_free: float                  # terrain taller than this is climbed (analysis)

    @cached_property
    def reactions(self) -> dict[str, str]:
        """Which command reacts to which abilities ("shoot|fight"): `reacts_to`."""
        return {a.id: "|".join(a.reacts_to) for a in self.abilities.values() if a.reacts_to}

    @cached_property
    def not_played(self) -> dict[str, str]:
        """The abilities not played, with the reason: `not_played`."""
        return {a.id: a.not_played for a in self.abilities.values() if a.not_played}

    @cached_property
    def max_charge(self) -> int:
        """The most the charge roll can give."""
        return most(self.core.charge.roll)

    @cached_property
    def run_most(self) -> int:
        """The most the run roll adds."""
        return most(self.core.movement.run_roll)

    @cached_property
    def redeploy_most(self) -> float:
        """The most a redeploy moves."""
        return float(most(self.core.movement.redeploy_roll))

    def used_core(self, phase_used: set[str]) -> bool:
        """A unit that has used these abilities this phase has used a CORE one: the Rule of
        One lets it use no other."""
        return any(x in self.abilities and "CORE" in self.abilities[x].keywords
                   for x in phase_used)


def load(folder: Path, spec: RulesetData) -> Book:
    """The aos4 book from its folder (and its ruleset.yaml, `spec`)."""
    analysis = spec.analysis
    assert analysis is not None, "aos4's ruleset.yaml gives analysis.climb_free"
    return Book(load_abilities(folder / "abilities.yaml"),
                read(Battleplan, folder / "battleplan.yaml"),
                load_rules(folder / "rules.yaml"), analysis.climb_threshold)


def book(state: State) -> Book:
    """The aos4 book of the game `state` is a moment of."""
    return state.rules.book
