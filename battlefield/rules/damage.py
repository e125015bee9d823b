"""Damage on a unit's models, the same mechanic in every ruleset: points go to the models in
the order the ruleset picks (its allocation rule), each model taking what it has room for; a
filled model is slain. Rulesets differ in two settings only: the order, and whether a packet's
points left over when its model falls go on to the next model (`spill`: aos4's damage pool,
openwg's WOUNDS) or are lost (skirmish's damage per hit). A unit's models share one health, or
each has its own (openwg's health ranks)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from battlefield.rules.state import State


@dataclass
class Filled:
    """What dealing came to: points dealt, the models slain (unit-local indices, in the order
    they fell) and the last model that took a point."""

    dealt: int = 0
    slain: list[int] = field(default_factory=list)
    last: int | None = None


Health = int | Sequence[int] | np.ndarray       # every model's, or each model's own


def fill(damage: np.ndarray, health: Health, order: Sequence[int], packets: Iterable[int],
         spill: bool) -> Filled:
    """Deal `packets` of points to the models `order` names (unit-local indices), changing
    `damage` (points on each model) in place; a model with `health` points (its own, when
    `health` has one per model) is slain."""
    last = Filled()
    for running in fill_each(damage, health, order, packets, spill):
        last = running
    return last


def fill_each(damage: np.ndarray, health: Health, order: Sequence[int],
              packets: Iterable[int], spill: bool) -> Iterator[Filled]:
    """fill, one packet at a time: the running Filled (the same object, updated) after each
    packet, until the packets run out or every model in `order` is slain. Exact odds read
    what every number of hits deals from one pass instead of one fill per number."""
    out = Filled()
    each = isinstance(health, (list, tuple, np.ndarray))
    i = 0
    for packet in packets:
        left = int(packet)
        while i < len(order):
            k = order[i]
            room = int(health[k]) if each else health
            take = min(left, room - int(damage[k]))
            damage[k] += take
            out.dealt += take
            left -= take
            out.last = k
            if damage[k] >= room:
                out.slain.append(k)
                i += 1
                if spill and left > 0:
                    continue
            break
        yield out
        if i >= len(order):
            return


@dataclass
class Dealt:
    """What `deal` did to a unit: points dealt, the models slain as the table numbers them
    (State.slay's, UNIT/N's order: what to name in events) and as the unit does (0-based)."""

    dealt: int
    slain: list[int]
    slain_in_unit: list[int]


def deal(state: State, u: int, packets: Iterable[int], health: Health,
         order: Sequence[int] | None = None, spill: bool = True) -> Dealt:
    """Unit u takes `packets` of points on its models still standing (in `order`, 0-based
    within the unit; default: the unit's order), each model up to its `health`; the models
    slain are taken off the table. `fill` and `State.slay` in one, with their two numberings
    (the unit's own, the table's) kept apart for the ruleset."""
    us = state.units[u]
    first = state.scene.model_offsets()[u]
    if order is None:
        order = [int(m) - first for m in state.models_of(u)]
    filled = fill(us.damage, health, order, packets, spill)
    slain = [first + k for k in filled.slain]
    if slain:
        state.slay(u, slain)
    return Dealt(filled.dealt, slain, list(filled.slain))
