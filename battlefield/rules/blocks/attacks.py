"""Attacks and courage checks (seed: Combat Phase 2a, Pre-combat Courage Phase 1a), each written
once as a chance procedure: rolled in play, enumerated exactly by `odds`.

An attack: roll the unit's dice; each die <= (Offence - Defence) hits, a 1 always hits and a 6
always misses; each hit rolls a die, <= (Power - Toughness) is one point of damage (1 always,
6 never). A courage check: 3D6 <= Courage passes. Modifiers (rulesets/blocks/game.yaml): a close
attack on the target's flank or rear, a failed fear check, command cards, the rally cry, and
-1 Courage for each engaged side beyond the first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import shapely

from battlefield.geometry.contact import engaged_sides as contact_sides
from battlefield.geometry.contact import side_of
from battlefield.rules import chance
from battlefield.rules.actions import Violation
from battlefield.rules.blocks.data import Card, game, stat, traits
from battlefield.rules.blocks.movement import block, pose, rect
from battlefield.rules.chance import Pool, Procedure, Throw
from battlefield.rules.moves import v
from battlefield.rules.state import State

EPS = 1e-6
ARC_REACH = 500.0
SIGHT_BLOCKING = ("solid", "obscuring", "impassable")   # terrain kinds that block sight
SIGHT_POINTS = 9                                        # along the shooter's front edge


# --- contact -------------------------------------------------------------------------------------
def engaged_with(state: State, u: int) -> dict[int, str]:
    """The enemy units in contact with unit u, each with the side of u it engages."""
    return dict(state.table.memo(("blocks-engaged", id(state.scene), u),
                                 lambda: _engaged_with(state, u)))


def _engaged_with(state: State, u: int) -> dict[int, str]:
    if not len(state.models_of(u)):
        return {}
    foes = state.enemies(u)
    if not foes:
        return {}
    m = int(state.models_of(u)[0])
    models = np.array([int(state.models_of(w)[0]) for w in foes], dtype=np.int64)
    found = contact_sides(state.table, m, models)
    unit = state.table.unit
    return {int(unit[k]): s for k, s in found.items()}


def sides_engaged(state: State, u: int) -> list[str]:
    order = ("front", "left", "right", "rear")
    got = set(engaged_with(state, u).values())
    return [s for s in order if s in got]


def side_attacked(state: State, u: int, w: int) -> str:
    """Which side of w the centre of u lies on (by w's diagonals)."""
    return side_of(state.table, int(state.models_of(w)[0]), int(state.models_of(u)[0]))


# --- shooting ------------------------------------------------------------------------------------
def front_edge(state: State, u: int) -> tuple[np.ndarray, np.ndarray]:
    """The front corners of unit u's block: (left, right) as it faces."""
    x, y, f = pose(state, u)
    _, a, b = block(state, u)
    th = math.radians(f)
    fw = np.array([math.cos(th), math.sin(th)])
    left = np.array([-math.sin(th), math.cos(th)])
    c = np.array([x, y])
    return c + a * fw + b * left, c + a * fw - b * left


def footprint(state: State, w: int) -> shapely.Polygon:
    _, a, b = block(state, w)
    x, y, f = pose(state, w)
    return rect(x, y, f, a, b)


def arc(state: State, u: int) -> shapely.Polygon:
    """Unit u's front arc: ahead of its front edge, between the 45-degree lines outward from
    its front corners (cut off far beyond any table)."""
    fl, fr = front_edge(state, u)
    _, _, f = pose(state, u)
    th = math.radians(f)
    fw = np.array([math.cos(th), math.sin(th)])
    left = np.array([-math.sin(th), math.cos(th)])
    out_l = (fw + left) / math.sqrt(2)
    out_r = (fw - left) / math.sqrt(2)
    return shapely.Polygon([fl, fl + ARC_REACH * out_l, fr + ARC_REACH * out_r, fr])


def in_arc(state: State, u: int, w: int) -> bool:
    """Some part of w's block is in u's front arc (its edges count)."""
    return bool(arc(state, u).intersects(footprint(state, w)))


def shooting_distance(state: State, u: int, w: int) -> float:
    """From u's front edge to the nearest point of w's block."""
    fl, fr = front_edge(state, u)
    return float(shapely.LineString([fl, fr]).distance(footprint(state, w)))


def visible(state: State, u: int, w: int) -> bool:
    """Some point of u's front edge sees some point of w's block: a sight line is blocked by
    solid, obscuring and impassable terrain and by every other block."""
    return state.table.memo(("blocks-sight", id(state.scene), u, w), lambda: _visible(state, u, w))


def _visible(state: State, u: int, w: int) -> bool:
    fl, fr = front_edge(state, u)
    eyes = [fl + (fr - fl) * k / (SIGHT_POINTS - 1) for k in range(SIGHT_POINTS)]
    target = footprint(state, w)
    corners = np.asarray(target.exterior.coords)[:-1]
    marks = [*corners, *((corners + np.roll(corners, -1, axis=0)) / 2),
             np.asarray(target.centroid.coords[0])]
    blockers = []
    layout = state.table.layout
    for k, piece in enumerate(layout.pieces):
        if piece.kind in SIGHT_BLOCKING:
            blockers.append(layout.polygons[k])
    for other in range(len(state.scene.units)):
        if other not in (u, w) and len(state.models_of(other)):
            blockers.append(footprint(state, other).buffer(-1e-6))
    if not blockers:
        return True
    lines = [shapely.LineString([e, p]) for e in eyes for p in marks]
    tree = shapely.STRtree(blockers)
    hit, _ = tree.query(lines, predicate="crosses")
    hit2, _ = tree.query(lines, predicate="within")
    blocked = set(int(i) for i in hit) | set(int(i) for i in hit2)
    return len(blocked) < len(lines)


# --- modifiers -----------------------------------------------------------------------------------
def bonus(state: State, u: int, key: str) -> int:
    """What this turn adds to unit u's characteristic: green cards and a failed fear check."""
    us = state.units[u]
    out = int(us.counters.get(f"card-{key}", 0))
    if "afraid" in us.flags:
        out += dict(game(state).fear).get(key, 0)
    return out


@dataclass
class Attack:
    """The numbers of one attack of u on w: dice, what hits and what damages, why."""

    unit: int
    target: int
    kind: str                                   # close | ranged
    dice: int
    hit_on: int                                 # a die <= this hits (1 always, 6 never)
    damage_on: int
    side: str                                   # the side of the target attacked
    notes: list[str] = field(default_factory=list)


def numbers(state: State, u: int, w: int, kind: str, red: Card | None = None,
            blue: Card | None = None) -> Attack:
    g = game(state)
    red_eff = dict(red.effect) if red else {}
    blue_eff = dict(blue.effect) if blue else {}
    notes = []
    side = side_attacked(state, u, w)
    offence = stat(state, u, "offence") + bonus(state, u, "offence") + red_eff.get("offence", 0)
    if kind == "close" and side in ("left", "right") and g.flank_offence:
        offence += g.flank_offence
        notes.append(f"flank +{g.flank_offence} Offence")
    elif kind == "close" and side == "rear" and g.rear_offence:
        offence += g.rear_offence
        notes.append(f"rear +{g.rear_offence} Offence")
    for who, x in (("attacker", u), ("target", w)):
        if "afraid" in state.units[x].flags:
            notes.append(f"{who} failed its fear check")
    if red:
        notes.append(f"red card {red.name}")
    if blue:
        notes.append(f"blue card {blue.name}")
    defence = stat(state, w, "defence") + bonus(state, w, "defence") + blue_eff.get("defence", 0)
    power = stat(state, u, "power") + bonus(state, u, "power") + red_eff.get("power", 0)
    tough = (stat(state, w, "toughness") + bonus(state, w, "toughness")
             + blue_eff.get("toughness", 0))
    dice = max(0, int(stat(state, u, "dice")) + bonus(state, u, "dice") + red_eff.get("dice", 0))
    return Attack(u, w, kind, dice, int(round(offence - defence)), int(round(power - tough)),
                  side, notes)


@cache
def scorer(target: int):
    """1 for a die that succeeds against `target`: <= target, a 1 always, a 6 never."""
    def score(v: int) -> int:
        return 1 if v == 1 or (v != 6 and v <= target) else 0
    return score


def needed(target: int) -> str:
    """What a die must roll against `target`, as the table reads it: a 1 always succeeds and a
    6 never does, so a target of 1 or less needs a 1 and one of 5 or more a 5 or less."""
    if target <= 1:
        return f"a 1 (target {target})"
    if target >= 5:
        return "5 or less" + (f" (target {target})" if target > 5 else "")
    return f"{target} or less"


def attack_procedure(dice: int, hit_on: int, damage_on: int, what: str) -> Procedure[int]:
    hits = yield Pool(dice, scorer(hit_on), f"{what}: to hit ({needed(hit_on)})")
    damage = yield Pool(hits, scorer(damage_on), f"{what}: to damage ({needed(damage_on)})")
    return damage


def damage_distribution(att: Attack, room: int | None = None) -> dict[int, Fraction]:
    """Exact distribution of the boxes the attack marks (capped at `room`, the boxes left)."""
    dist = chance.outcomes(lambda: attack_procedure(att.dice, att.hit_on, att.damage_on, ""))
    if room is None:
        return dict(sorted(dist.items()))
    out: dict[int, Fraction] = {}
    for k, p in dist.items():
        out[min(k, room)] = out.get(min(k, room), Fraction(0)) + p
    return dict(sorted(out.items()))


# --- courage -------------------------------------------------------------------------------------
def courage(state: State, u: int) -> tuple[int, list[str]]:
    """Unit u's Courage with the modifiers in play, and what they are."""
    g = game(state)
    value = stat(state, u, "courage")
    notes = []
    extra = len(sides_engaged(state, u)) - 1
    if extra > 0 and g.extra_side_courage:
        value += extra * g.extra_side_courage
        notes.append(f"engaged on {extra + 1} sides {extra * g.extra_side_courage:+d}")
    card = bonus(state, u, "courage")
    if card:
        value += card
        notes.append(f"this turn {card:+d}")
    if state.sides.get(state.side_of(u), {}).get("rally_cry"):
        value += g.special_courage
        notes.append(f"rally cry {g.special_courage:+d}")
    return int(round(value)), notes


def courage_procedure(dice: str, value: int, what: str) -> Procedure[bool]:
    total = yield Throw(dice, f"{what}: courage check ({value} or less)")
    return total <= value


def courage_probability(dice: str, value: int) -> Fraction:
    return chance.outcomes(lambda: courage_procedure(dice, value, "")).get(True, Fraction(0))


def fearsome(state: State, u: int) -> bool:
    return "fearsome" in traits(state.scene.units[u])


def as_json(dist: dict[int, Fraction]) -> dict[str, Any]:
    return {str(k): round(float(p), 6) for k, p in dist.items()}


def attack_kind(state: State, u: int, w: int, close_only: bool) -> tuple[str, Violation | None]:
    """close (engaged with the target) or ranged (unengaged, target in the front arc, in range
    from the front edge, visible), or why unit u may not attack w now."""
    uid, wid = state.scene.units[u].id, state.scene.units[w].id
    flags = state.units[u].flags
    if state.side_of(w) == state.side_of(u):
        return "", v("not_an_enemy", f"{wid} is not an enemy of {uid}")
    if not len(state.models_of(w)) or "destroyed" in state.units[w].flags:
        return "", v("destroyed", f"{wid} has been destroyed")
    if "attacked" in flags:
        return "", v("already_attacked", f"{uid} has attacked this phase")
    if "routing" in flags:
        return "", v("routing", f"{uid} is routing: it does not fight")
    foes = engaged_with(state, u)
    if w in foes:
        return "close", None
    if close_only:
        return "", v("not_engaged", f"{uid} is not engaged with {wid}: striking back is close "
                                    f"combat only")
    if foes:
        return "", v("engaged", f"{uid} is engaged (with "
                                f"{', '.join(state.scene.units[x].id for x in foes)}): it "
                                f"may only attack a unit it is engaged with")
    rng = stat(state, u, "range")
    if rng <= 0:
        return "", v("no_range", f"{uid} has no ranged attack (range 0) and is not engaged "
                                 f"with {wid}")
    if "trampled" in flags:
        return "", v("trampled", f"a routing unit moved through {uid}: it may not shoot")
    if not in_arc(state, u, w):
        return "", v("not_in_arc", f"{wid} is not in {uid}'s front arc")
    d = shooting_distance(state, u, w)
    if d > rng + 1e-6:
        return "", v("out_of_range", f"{wid} is {d:.2f}\" from {uid}'s front edge > range "
                                     f"{rng:g}\"", distance=d, range=rng)
    if not visible(state, u, w):
        return "", v("not_visible", f"{uid}'s front edge cannot see {wid}")
    return "ranged", None
