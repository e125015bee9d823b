"""The openwg game as data: rulesets/openwg/game.yaml (rounds, phases, the numbers of moves and
holds) read once, with unknown keys refused."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from battlefield.paths import ruleset_dir
from battlefield.yamlsource import Reader

EPS = 1e-6
PHASES = ("movement", "ranged", "melee", "leadership")
# The phase each action belongs to.
PHASE_OF = {"move": "movement", "run": "movement", "charge": "movement", "retreat": "movement",
            "hold": "movement", "shoot": "ranged", "fight": "melee", "cast": "leadership"}


@dataclass(frozen=True)
class GameData:
    rounds: int
    phases: tuple[str, ...]
    combat_range: float
    run_multiplier: float
    adjust: float
    hold_armor: int
    objective_range: float
    cast_dice: str


@cache
def game() -> GameData:
    r = Reader.open(ruleset_dir("openwg") / "game.yaml")
    top = r.mapping((), r.data, ["rounds", "phases", "combat_range", "run_multiplier", "adjust",
                                 "hold_armor", "objective_range", "cast_dice"])
    phases = tuple(r.strings(("phases",), top["phases"]))
    if phases != PHASES:
        raise r.error(("phases",), f"the phases are {list(phases)}",
                      f"the seed's four phases in order: {', '.join(PHASES)}")
    return GameData(
        rounds=int(r.number(("rounds",), top["rounds"], 1, integer=True)),
        phases=phases,
        combat_range=float(r.number(("combat_range",), top["combat_range"], 0)),
        run_multiplier=float(r.number(("run_multiplier",), top["run_multiplier"], 1)),
        adjust=float(r.number(("adjust",), top["adjust"], 0)),
        hold_armor=int(r.number(("hold_armor",), top["hold_armor"], 0, integer=True)),
        objective_range=float(r.number(("objective_range",), top["objective_range"], 0)),
        cast_dice=r.string(("cast_dice",), top["cast_dice"]),
    )
