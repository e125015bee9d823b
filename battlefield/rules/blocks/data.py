"""The blocks rules as data: rulesets/blocks/game.yaml (rounds, command points, footprints,
damage bar, courage dice, modifiers, command cards) and what the rules read of a unit: its
characteristics, traits, damage bar, standing order and routing flag (ruleset.yaml unit_keys).
The ruleset reads game.yaml once (`Blocks.book`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.inputs import MAX_COORD
from battlefield.rules.datafile import item, read
from battlefield.rules.state import State
from battlefield.scene.model import Scene, UnitSpec

EPS = 1e-6
COLOURS = ("red", "blue", "green")
EFFECTS = ("offence", "defence", "power", "toughness", "move", "courage", "dice")
TRAITS = ("fearsome",)
ORDERS = ("hold", "advance", "withdraw", "charge", "march")


@dataclass(frozen=True)
class Card:
    id: str
    colour: str = item(choices=COLOURS)
    name: str = item()
    effect: tuple[tuple[str, int], ...] = item(keys=EFFECTS)


@dataclass(frozen=True)
class GameData:
    rounds: int
    points_per_command: float = item("command.points_per", least=1)
    bar: tuple[int, ...] = item(length=3)
    courage_dice: str = item(dice=True)
    flank_offence: int = item("modifiers.flank_offence")
    rear_offence: int = item("modifiers.rear_offence")
    extra_side_courage: int = item("modifiers.extra_side_courage")
    fear: tuple[tuple[str, int], ...] = item("modifiers.fear", keys=EFFECTS)
    special_courage: int = item("modifiers.special_courage")
    withdraw: float = item(least=0)
    charge_approach: float = item(least=0)
    cards: tuple[Card, ...] = item()

    def card(self, cid: str) -> Card | None:
        return next((c for c in self.cards if c.id == cid), None)


def load(folder: Path) -> GameData:
    return read(GameData, folder / "game.yaml")


def game(state: State) -> GameData:
    """The numbers of the game `state` is a moment of."""
    return state.rules.book


# --- a unit's characteristics --------------------------------------------------------------------
DEFAULTS = {"move": 0.0, "offence": 0.0, "defence": 0.0, "power": 0.0, "toughness": 0.0,
            "courage": 0.0, "dice": 0.0, "range": 0.0, "points": 0.0}


def stat(state: State | Scene, u: int, key: str) -> float:
    """A unit's characteristic as written (the default when it is missing)."""
    scene = state if isinstance(state, Scene) else state.scene
    v = scene.units[u].stats.get(key)
    if v is None or isinstance(v, str):
        return DEFAULTS[key]
    return float(v)


def traits(spec: UnitSpec) -> tuple[str, ...]:
    return tuple(str(t).lower() for t in spec.extra.get("traits") or ())


def bar(spec: UnitSpec, g: GameData) -> tuple[int, int, int]:
    """The unit's damage bar: its own `bar:`, else the game's."""
    b = spec.extra.get("bar")
    return tuple(int(x) for x in b) if b else g.bar  # type: ignore[return-value]


def boxes(spec: UnitSpec, g: GameData) -> int:
    return sum(bar(spec, g))


def red_from(spec: UnitSpec, g: GameData) -> int:
    """How many boxes are marked when the unit is in the red (its green and yellow gone)."""
    green, yellow, _ = bar(spec, g)
    return green + yellow


def order_of(value: Any) -> dict[str, Any] | None:
    """A standing order in its plain form ({"order": "charge", "target": ...}) from how a scene
    or an action writes it; None when it is not one."""
    if isinstance(value, str):
        return {"order": value} if value in ("hold", "advance", "withdraw") else None
    if isinstance(value, dict) and len(value) == 1:
        (k, x), = value.items()
    elif isinstance(value, tuple) and len(value) == 1 and isinstance(value[0], tuple):
        k, x = value[0]
    else:
        return None
    if k == "charge" and isinstance(x, str):
        return {"order": "charge", "target": x}
    if (k == "march" and isinstance(x, (list, tuple)) and len(x) == 2
            and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in x)):
        return {"order": "march", "to": [float(x[0]), float(x[1])]}
    return None


def order_text(order: dict[str, Any] | None) -> str:
    if not order:
        return "none (holds)"
    if order["order"] == "charge":
        return f"charge {order['target']}"
    if order["order"] == "march":
        return f"march to ({order['to'][0]:g}, {order['to'][1]:g})"
    return str(order["order"])


def check_scene(scene: Scene) -> None:
    """The blocks keys of every unit read as the rules need them (an InputError at the key)."""
    ids = {u.id for u in scene.units}
    for spec in scene.units:
        p = spec.path
        if len(spec.models) != 1:
            raise scene.error((*p, "models"), f"a block is one model, not {len(spec.models)}",
                              "one model with a rectangular base")
        for t in spec.extra.get("traits") or ():
            if str(t).lower() not in TRAITS:
                raise scene.error((*p, "traits"), f"unknown trait {t!r}", ", ".join(TRAITS))
        b = spec.extra.get("bar")
        if b is not None and (len(b) != 3 or not all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in b)
                or sum(b) < 1):
            raise scene.error((*p, "bar"), f"{b!r} is not a damage bar",
                              "[green, yellow, red] boxes, whole numbers, e.g. [3, 3, 3]")
        if "order" in spec.extra:
            o = order_of(spec.extra["order"])
            if o is None:
                raise scene.error((*p, "order"), f"{spec.extra['order']!r} is not an order",
                                  "hold | advance | withdraw | {charge: UNIT} | {march: [x, y]}")
            if o["order"] == "march" and not all(abs(c) <= MAX_COORD for c in o["to"]):
                raise scene.error((*p, "order", "march"), f"{o['to']!r} is off any table",
                                  f"[x, y] in inches, each within {MAX_COORD:g} either way")
            if o["order"] == "charge" and o["target"] not in ids:
                raise scene.error((*p, "order", "charge"), f"no unit {o['target']!r}",
                                  "the id of an enemy unit")
