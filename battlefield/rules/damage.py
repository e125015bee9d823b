"""Damage on a unit's models, the same mechanic in every ruleset: points go to the models in
the order the ruleset picks (its allocation rule), each model taking what it has room for; a
filled model is slain. Rulesets differ in two settings only: the order, and whether a packet's
points left over when its model falls go on to the next model (`spill`: aos4's damage pool,
openwg's WOUNDS) or are lost (skirmish's damage per hit). A unit's models share one health, or
each has its own (openwg's health ranks)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np


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
