"""The initiative phase (RULES-NOTES): each side rolls 6 dice. Dice whose score shows once are
singles, each a reaction die; dice sharing a score are ability dice - 2 a [double], 3 a [triple],
4 or more a [quad], the combination's value that score. More singles has the initiative (a tie:
a roll-off, ties rolled again) and chooses who activates first.

A side's dice live in `state.sides[side]`: "rolled" (the six dice), "singles" (reaction dice
left) and "ability_dice" (["[double] 6", "[quad] 5"], the combinations not yet spent: the size
and the value, as players say them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from battlefield.rules.actions import Violation
from battlefield.rules.moves import v
from battlefield.rules.state import State
from battlefield.rules.warband.data import NAMES, SIZES, game

Event = dict[str, Any]
MAX_ROLL_OFFS = 100


def split(dice: Sequence[int]) -> tuple[int, list[str]]:
    """(singles, ability dice) of one side's roll: [1, 2, 3, 4, 6, 6] -> (4, ["[double] 6"])."""
    counts = Counter(int(d) for d in dice)
    singles = sum(1 for n in counts.values() if n == 1)
    combos = [f"[{NAMES[min(n, 4)]}] {score}" for score, n in sorted(counts.items()) if n >= 2]
    return singles, combos


def size(combo: str) -> int:
    """How many dice the combination counts for: "[triple] 4" -> 3."""
    return SIZES[combo.split("]")[0].lstrip("[")]


def value(combo: str) -> int:
    """The combination's value (its dice's score): "[triple] 4" -> 4."""
    return int(combo.rsplit(" ", 1)[1])


def labels(combos: Sequence[str]) -> str:
    return ", ".join(combos) if combos else "no ability dice"


def set_dice(state: State, side: str, dice: Sequence[int]) -> None:
    singles, combos = split(dice)
    state.sides[side].update({"rolled": [int(d) for d in dice], "singles": singles,
                              "ability_dice": combos})


def leader(state: State) -> str | None:
    """The side with more singles (None: a tie)."""
    counts = {s: d["singles"] for s, d in state.sides.items()}
    best = max(counts.values())
    top = [s for s, n in counts.items() if n == best]
    return top[0] if len(top) == 1 else None


def roll(state: State, given: dict[str, list[int]] | None) -> list[Event]:
    """Each side's roll (or the dice the scene gave), then the roll-off if the singles tie; the
    winner holds the initiative (clock "initiative") and the phase goes on to `first`."""
    events: list[Event] = []
    n = game(state).initiative_dice
    for side in state.sides:
        dice = (given or {}).get(side)
        if dice is None:
            dice = list(state.dice.roll(f"{n}D6", f"initiative: {side}", summed=False).values)
        set_dice(state, side, dice)
        d = state.sides[side]
        events.append({"type": "initiative-dice", "side": side, "dice": d["rolled"],
                       "singles": d["singles"], "ability_dice": labels(d["ability_dice"]),
                       **({"given": True} if given and side in given else {})})
    winner = leader(state)
    if winner is None:
        sides = list(state.sides)
        for _ in range(MAX_ROLL_OFFS):
            rolls = {s: state.dice.roll("D6", f"initiative roll-off: {s}").total for s in sides}
            events.append({"type": "roll-off", "rolls": rolls})
            best = max(rolls.values())
            top = [s for s in sides if rolls[s] == best]
            if len(top) == 1:
                winner = top[0]
                break
        else:                                   # never with fair dice
            winner = sides[0]
    state.clock["initiative"] = winner
    state.clock["phase"] = "first"
    for side, d in state.sides.items():
        d["initiative"] = side == winner
    events.append({"type": "initiative", "side": winner,
                   "singles": {s: d["singles"] for s, d in state.sides.items()}})
    return events


def payment(state: State, side: str, cost: int, wanted: Any
            ) -> tuple[str | None, Violation | None]:
    """The combination `side` pays an ability of `cost` (2, 3, 4) with: the one of `value`
    (any combination at least that big may pay, discarded whole), or without a value the
    smallest that pays."""
    combos = state.sides[side]["ability_dice"]
    need = f"[{NAMES[cost]}]"
    if wanted is not None:
        if isinstance(wanted, bool) or not isinstance(wanted, int):
            return None, v("bad_value", f"\"value\" is the score of the ability dice paid "
                                        f"with (1-6), not {wanted!r}")
        combo = next((c for c in combos if value(c) == wanted), None)
        if combo is None:
            return None, v("no_ability_dice", f"needs a {need} of value {wanted}, {side} has "
                                              f"{labels(combos)}", needed=cost, value=wanted)
        if size(combo) < cost:
            return None, v("no_ability_dice", f"needs a {need}, {side} has {combo}",
                           needed=cost, size=size(combo), value=wanted)
        return combo, None
    fits = [c for c in combos if size(c) >= cost]
    if not fits:
        return None, v("no_ability_dice", f"needs a {need}, {side} has {labels(combos)}",
                       needed=cost)
    return min(fits, key=lambda c: (size(c), value(c))), None


def spend(state: State, side: str, combo: str) -> None:
    state.sides[side]["ability_dice"] = [c for c in state.sides[side]["ability_dice"]
                                         if c != combo]
