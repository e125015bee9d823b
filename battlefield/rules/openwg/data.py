"""The openwg game as data: rulesets/openwg/game.yaml (rounds, phases, the numbers of moves and
holds) and builder.yaml (the unit builder), read by the ruleset (`OpenWG.book`) with unknown keys
refused."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.rules.datafile import item, read
from battlefield.rules.openwg.builder import Builder, read_builder
from battlefield.rules.state import State
from battlefield.scene.model import Scene
from battlefield.yamlsource import Reader

EPS = 1e-6
PHASES = ("movement", "ranged", "melee", "leadership")


def phase_of(scene: Scene, kind: str) -> str | None:
    """The phase an action of type `kind` belongs to (its `phases:` in ruleset.yaml)."""
    doc = next((a for a in scene.ruleset.actions if a.id == kind), None)
    return doc.phases[0] if doc is not None and doc.phases else None


def _phases(r: Reader, path: tuple, value: Any) -> tuple[str, ...]:
    phases = tuple(r.strings(path, value))
    if phases != PHASES:
        raise r.error(path, f"the phases are {list(phases)}",
                      f"the seed's four phases in order: {', '.join(PHASES)}")
    return phases


@dataclass(frozen=True)
class GameData:
    rounds: int = item(least=1)
    phases: tuple[str, ...] = item(read=_phases)
    combat_range: float = item(least=0)
    run_multiplier: float = item(least=1)
    adjust: float = item(least=0)
    hold_armor: int = item(least=0)
    objective_range: float = item(least=0)
    cast_dice: str = item(dice=True)


@dataclass(frozen=True)
class Book:
    """Everything openwg reads of its own files."""

    game: GameData
    builder: Builder


def load(folder: Path) -> Book:
    return Book(read(GameData, folder / "game.yaml"), read_builder(folder / "builder.yaml"))


def game(state: State) -> GameData:
    """The numbers of the game `state` is a moment of."""
    return state.rules.book.game
