"""Who attacks whom with what (seed: Attacks and damage; Ranged; Melee): the attacking models
(those with the target within their weapon's range), grouped by profile, with the target's
Armor, the attacker's Pierce, the re-rolls and specials of both profiles; and the same plan
rolled (play) or enumerated (odds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from battlefield.rules.chance import play
from battlefield.rules.openwg import odds
from battlefield.rules.openwg.data import EPS, game
from battlefield.rules.openwg.odds import Burst, Group
from battlefield.rules.openwg.profiles import Profile, Weapon, profiles
from battlefield.rules.openwg.reach import between, unit_gap
from battlefield.rules.state import State


@dataclass
class Plan:
    """One attack of unit u on unit w: the groups that roll, the dice after it, who attacks."""

    u: int
    w: int
    groups: list[Group] = field(default_factory=list)
    bursts: list[Burst] = field(default_factory=list)
    attackers: dict[str, list[str]] = field(default_factory=dict)
    closest: float = float("inf")

    def distribution(self) -> dict[int, Fraction]:
        dist: dict[int, Fraction] = {0: Fraction(1)}
        for g in self.groups:
            dist = odds.convolve(dist, odds.group_distribution(g))
        for b in self.bursts:
            dist = odds.convolve(dist, dict(b.pool().outcomes()))
        return dist

    def roll(self, state: State) -> list[int]:
        """Each group's WOUNDS and each burst's, rolled with the game's dice in order."""
        procs = [odds.group_attack(g) for g in self.groups] + [odds.burst(b)
                                                                for b in self.bursts]
        return [play(p, state.dice) for p in procs] if procs else []


def armor(state: State, w: int) -> int:
    """Unit w's Armor now: its characteristic, +1 while holding (Standfast), and `armor`
    specials (shields: unless it charged this round)."""
    prof = profiles(state)[w]
    flags = state.units[w].flags
    value = prof.stat("armor")
    if "held" in flags:
        value += game(state).hold_armor
    for e in prof.effects("armor"):
        if e.get("unless") == "charged" and "charged" in flags:
            continue
        value += float(e.get("add", 0))
    return int(value)


def _faces(spec: Any, threshold: int, roll: str) -> frozenset[int]:
    """The faces a re-roll takes: misses (precision), saves / wounds (armor), or a list."""
    if isinstance(spec, list):
        return frozenset(int(x) for x in spec)
    if roll == "precision":
        return frozenset(f for f in range(1, 7) if f > threshold) if spec == "misses" \
            else frozenset(f for f in range(1, 7) if f <= threshold)
    if spec == "saves":
        return frozenset(f for f in range(1, 7) if f <= threshold)
    return frozenset(f for f in range(1, 7) if f > threshold)


def _applies(e: dict[str, Any], kind: str) -> bool:
    return e.get("when", "any") in ("any", kind)


def granted(state: State, u: int) -> list[dict[str, Any]]:
    """Effects unit u holds from spells cast on it (flags "granted:CASTER:SPELL:ROUND")."""
    out = []
    for f in sorted(state.units[u].flags):
        if not f.startswith("granted:"):
            continue
        _, caster, spell, _ = f.split(":")
        for e in profiles(state)[state.unit_index(caster)].effects("wizard"):
            if e.get("spell") == spell and isinstance(e.get("grants"), dict):
                out.append(e["grants"])
    return out


def _rerolls(state: State, u: int, w: int, kind: str, roll: str, threshold: int
             ) -> frozenset[int]:
    mine = [*profiles(state)[u].effects("reroll"), *granted(state, u)]
    theirs = profiles(state)[w].effects("reroll")
    faces: frozenset[int] = frozenset()
    for e, side in [*((e, "attacker") for e in mine), *((e, "defender") for e in theirs)]:
        if e.get("effect", "reroll") != "reroll" or e.get("roll") != roll:
            continue
        if e.get("side", "attacker") != side or not _applies(e, kind):
            continue
        faces |= _faces(e.get("faces", "misses"), threshold, roll)
    return faces


def _leader_damage(prof: Profile, damage: int) -> int:
    for e in prof.effects("leader_damage"):
        damage = damage * int(e.get("times", 1)) + int(e.get("add", 0))
    return damage


def plan(state: State, u: int, w: int, kind: str, weapon: str | None = None,
         models: list[int] | None = None, bursts: bool = True, extra: Weapon | None = None
         ) -> Plan:
    """Unit u attacks unit w with its `kind` weapons (only `weapon` when named; only the
    models listed, 0-based in the unit, when given; `extra` instead of its own weapons)."""
    scene = state.scene
    t = state.table
    prof = profiles(state)[u]
    first = scene.model_offsets()[u]
    names = scene.model_names
    out = Plan(u, w)
    targets = t.unit_models[w]
    mine = np.array(sorted(int(m) for m in t.unit_models[u]), dtype=np.int64)
    if not len(mine) or not len(targets):
        return out
    gaps = between(t, mine, targets).min(axis=1)
    out.closest = float(gaps.min())
    target_armor = armor(state, w)
    leader = scene.units[u].leader
    groups: dict[tuple, int] = {}
    for m, gap in zip(mine, gaps, strict=True):
        k = int(m) - first
        if models is not None and k not in models:
            continue
        arms = (extra,) if extra is not None else prof.model_weapons[k]
        for wp in arms:
            if wp.type != kind or (weapon is not None and wp.name != weapon):
                continue
            if gap > wp.range + EPS:
                continue
            damage = _leader_damage(prof, wp.damage) if k == leader else wp.damage
            threshold = target_armor - wp.pierce
            flame = max([int(e.get("at_most", 0)) for e in prof.effects("hit_wounds")
                         if _applies(e, kind)] or [0])
            key = (wp.name, wp.precision, damage, threshold, flame)
            groups[key] = groups.get(key, 0) + 1
            out.attackers.setdefault(wp.name, []).append(names[m])
    for (name, precision, damage, threshold, flame), n in groups.items():
        label = f"{scene.units[u].id} {name}" + (f" (damage {damage})" if len(groups) > 1
                                                   else "")
        out.groups.append(Group(label, n, precision, damage, threshold,
                                _rerolls(state, u, w, kind, "precision", precision),
                                _rerolls(state, u, w, kind, "armor", threshold), flame))
    if bursts and out.groups:
        out.bursts = nearby(state, u, w, "attack")
    return out


def nearby(state: State, u: int, w: int, when: str) -> list[Burst]:
    """`wounds_nearby` dice of unit u against unit w (within their range) on `when`."""
    prof = profiles(state)[u]
    n = len(state.models_of(u))
    out = []
    for e in prof.effects("wounds_nearby"):
        if e.get("when") != when:
            continue
        if unit_gap(state.table, u, w) <= float(e.get("within", 0)) + EPS:
            out.append(Burst(f"{state.scene.units[u].id}: {when} dice within "
                             f"{float(e.get('within', 0)):g}\"", int(e.get("dice", 1)) * n,
                             int(e.get("at_most", 1))))
    return out

