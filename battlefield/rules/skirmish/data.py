"""The skirmish rules as data: rulesets/skirmish/game.yaml (rounds, morale, movement, pot shots,
skirmish modifiers, support, bombardment, retreats), and the unit characteristics the rules read
(speed, range, strike, hit, damage, toughness, cover, initiative, melee)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from battlefield.paths import ruleset_dir
from battlefield.rules.state import State
from battlefield.yamlsource import Reader

EPS = 1e-6


@dataclass(frozen=True)
class GameData:
    rounds: int
    morale_tokens: int
    morale_cards: tuple[int, ...]
    commands_per_turn: int
    climb_free: float
    dangerous_drop: float
    dangerous_fails_on: int
    overextended_speed: float
    pot_shot_within: float
    pot_shot_hit_on: int
    overextended_hit: int
    overextended_cover: int
    cut_them_down: int
    hold_the_line: int
    partial_sight_cover: int
    cover_save_on: int
    melee_vertical: float
    charge_within: float
    melee_range: float
    flanking: int
    flanking_strong: int
    strong_strike: int
    high_ground: int
    high_ground_rise: float
    bombardment: int
    bombardment_strong: int
    bombardment_reach: float
    bombard_farther_than: float
    bombard_keywords: tuple[str, ...]
    retreat_distance: float
    retreat_max_turn: float
    retreat_turn_step: float


SECTIONS = {
    "movement": ["climb_free", "dangerous_drop", "dangerous_fails_on", "overextended_speed"],
    "pot_shots": ["within", "hit_on"],
    "skirmish": ["overextended_hit", "overextended_cover", "cut_them_down", "hold_the_line",
                 "partial_sight_cover", "cover_save_on", "melee_vertical", "charge_within",
                 "melee_range"],
    "support": ["flanking", "flanking_strong", "strong_strike", "high_ground", "high_ground_rise",
                "bombardment", "bombardment_strong", "bombardment_reach"],
    "bombardment": ["farther_than", "keywords"],
    "retreat": ["distance", "max_turn", "turn_step"],
}


@cache
def game() -> GameData:
    r = Reader.open(ruleset_dir("skirmish") / "game.yaml")
    top = r.mapping((), r.data, ["rounds", "morale_tokens", "morale_cards", "commands_per_turn",
                                 *SECTIONS])
    s = {k: r.mapping((k,), top[k], keys) for k, keys in SECTIONS.items()}

    def num(section: str, key: str, integer: bool = False, minimum: float | None = None):
        value = r.number((section, key), s[section][key], minimum, integer=integer)
        return int(value) if integer else float(value)

    cards = tuple(int(r.number(("morale_cards", i), c, 0, integer=True))
                  for i, c in enumerate(r.sequence(("morale_cards",), top["morale_cards"], 1)))
    return GameData(
        rounds=int(r.number(("rounds",), top["rounds"], 1, integer=True)),
        morale_tokens=int(r.number(("morale_tokens",), top["morale_tokens"], 1, integer=True)),
        morale_cards=cards,
        commands_per_turn=int(r.number(("commands_per_turn",), top["commands_per_turn"], 1,
                                       integer=True)),
        climb_free=num("movement", "climb_free", minimum=0),
        dangerous_drop=num("movement", "dangerous_drop", minimum=0),
        dangerous_fails_on=num("movement", "dangerous_fails_on", True, 0),
        overextended_speed=num("movement", "overextended_speed", minimum=0),
        pot_shot_within=num("pot_shots", "within", minimum=0),
        pot_shot_hit_on=num("pot_shots", "hit_on", True, 1),
        overextended_hit=num("skirmish", "overextended_hit", True),
        overextended_cover=num("skirmish", "overextended_cover", True),
        cut_them_down=num("skirmish", "cut_them_down", True),
        hold_the_line=num("skirmish", "hold_the_line", True),
        partial_sight_cover=num("skirmish", "partial_sight_cover", True),
        cover_save_on=num("skirmish", "cover_save_on", True),
        melee_vertical=num("skirmish", "melee_vertical", minimum=0),
        charge_within=num("skirmish", "charge_within", minimum=0),
        melee_range=num("skirmish", "melee_range", minimum=0),
        flanking=num("support", "flanking", True, 0),
        flanking_strong=num("support", "flanking_strong", True, 0),
        strong_strike=num("support", "strong_strike", True, 0),
        high_ground=num("support", "high_ground", True, 0),
        high_ground_rise=num("support", "high_ground_rise", minimum=0),
        bombardment=num("support", "bombardment", True, 0),
        bombardment_strong=num("support", "bombardment_strong", True, 0),
        bombardment_reach=num("support", "bombardment_reach", minimum=0),
        bombard_farther_than=num("bombardment", "farther_than", minimum=0),
        bombard_keywords=tuple(k.upper() for k in r.strings(("bombardment", "keywords"),
                                                           s["bombardment"]["keywords"])),
        retreat_distance=num("retreat", "distance", minimum=0),
        retreat_max_turn=num("retreat", "max_turn", minimum=0),
        retreat_turn_step=num("retreat", "turn_step", minimum=0.1),
    )


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
    return spec.has("MELEE") or stat(state, u, "range") <= game().melee_range + EPS


def bombards(state: State, u: int) -> bool:
    """The unit has the Bombardment upgrade (artillery)."""
    spec = state.scene.units[u]
    return any(spec.has(k) for k in game().bombard_keywords)


def leader(state: State, u: int) -> int:
    """The table index of unit u's leader (the leader is always the last model to fall)."""
    return state.scene.leader_model(u, state.table)
