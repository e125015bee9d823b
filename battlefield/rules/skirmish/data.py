"""The skirmish rules as data: rulesets/skirmish/game.yaml (rounds, morale, movement, pot shots,
skirmish modifiers, support, bombardment, retreats), read by the ruleset (`Skirmish.book`), and
the unit characteristics the rules read (speed, range, strike, hit, damage, toughness, cover,
initiative, melee)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from battlefield.rules.datafile import item, read
from battlefield.rules.state import State

EPS = 1e-6


@dataclass(frozen=True)
class GameData:
    rounds: int = item(least=1)
    morale_tokens: int = item(least=1)
    morale_cards: tuple[int, ...] = item(least=0)
    commands_per_turn: int = item(least=1)
    climb_free: float = item("movement.climb_free", least=0)
    dangerous_drop: float = item("movement.dangerous_drop", least=0)
    dangerous_fails_on: int = item("movement.dangerous_fails_on", least=0)
    overextended_speed: float = item("movement.overextended_speed", least=0)
    pot_shot_within: float = item("pot_shots.within", least=0)
    pot_shot_hit_on: int = item("pot_shots.hit_on", least=1)
    overextended_hit: int = item("skirmish.overextended_hit")
    overextended_cover: int = item("skirmish.overextended_cover")
    cut_them_down: int = item("skirmish.cut_them_down")
    hold_the_line: int = item("skirmish.hold_the_line")
    partial_sight_cover: int = item("skirmish.partial_sight_cover")
    cover_save_on: int = item("skirmish.cover_save_on")
    melee_vertical: float = item("skirmish.melee_vertical", least=0)
    charge_within: float = item("skirmish.charge_within", least=0)
    melee_range: float = item("skirmish.melee_range", least=0)
    flanking: int = item("support.flanking", least=0)
    flanking_strong: int = item("support.flanking_strong", least=0)
    strong_strike: int = item("support.strong_strike", least=0)
    high_ground: int = item("support.high_ground", least=0)
    high_ground_rise: float = item("support.high_ground_rise", least=0)
    bombardment: int = item("support.bombardment", least=0)
    bombardment_strong: int = item("support.bombardment_strong", least=0)
    bombardment_reach: float = item("support.bombardment_reach", least=0)
    bombard_farther_than: float = item("bombardment.farther_than", least=0)
    bombard_keywords: tuple[str, ...] = item("bombardment.keywords", upper=True)
    retreat_distance: float = item("retreat.distance", least=0)
    retreat_max_turn: float = item("retreat.max_turn", least=0)
    retreat_turn_step: float = item("retreat.turn_step", least=0.1)


def load(folder: Path) -> GameData:
    return read(GameData, folder / "game.yaml")


def game(state: State) -> GameData:
    """The numbers of the game `state` is a moment of."""
    return state.rules.book


# --- characteristics -----------------------------------------------------------------------------
DEFAULTS = {"speed": 0.0, "range": 0.0, "strike": 1.0, "hit": 4.0, "damage": 1.0,
            "toughness": 1.0, "cover": 0.0, "initiative": 0.0, "melee": 0.0}


def stat(state: State, u: int, key: str) -> float:
    """A unit's characteristic as a number ("4+" reads as 4); the default when it is missing."""
    v = state.scene.units[u].stats.get(key)
    if v is None or v == "-":
        return DEFAULTS[key]
    return float(str(v).rstrip("+"))


def istat(state: State, u: int, key: str) -> int:
    return int(round(stat(state, u, key)))


def is_melee(state: State, u: int) -> bool:
    """A melee unit: `melee: 1` in its stats, or the MELEE keyword; without either, a unit whose
    Range is 1" or less (`melee: 0` says it is not, whatever its range)."""
    spec = state.scene.units[u]
    if "melee" in spec.stats:
        return stat(state, u, "melee") > 0
    return spec.has("MELEE") or stat(state, u, "range") <= game(state).melee_range + EPS


def bombards(state: State, u: int) -> bool:
    """The unit has the Bombardment upgrade (artillery)."""
    spec = state.scene.units[u]
    return any(spec.has(k) for k in game(state).bombard_keywords)


def leader(state: State, u: int) -> int:
    """The table index of unit u's leader (the leader is always the last model to fall)."""
    return state.scene.leader_model(u, state.table)
