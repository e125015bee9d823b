"""Weapon profiles as written in scenes: range (none = melee), attacks, hit, wound, rend, damage,
and weapon abilities (crit-2-hits, crit-auto-wound, crit-mortal, companion); the weapons each
model carries (a model's `weapons:`, else all of its unit's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battlefield.errors import UsageError
from battlefield.rulesets import load_ruleset

CRIT_ABILITIES = ("crit-2-hits", "crit-auto-wound", "crit-mortal")
KNOWN_ABILITIES = (*CRIT_ABILITIES, "companion", "shoot-in-combat", "charge-damage")


@dataclass(frozen=True)
class Weapon:
    name: str
    range: float | None          # None: a melee weapon (combat range)
    attacks: str                 # a number or dice ("D6", "2D3+1")
    hit: int
    wound: int
    rend: int
    damage: str
    abilities: tuple[str, ...] = ()

    @property
    def melee(self) -> bool:
        return self.range is None

    @property
    def crit(self) -> str | None:
        for a in self.abilities:
            if a in CRIT_ABILITIES:
                return a
        return None


def _plus(v: Any) -> int:
    """4 or '4+' -> 4."""
    return int(float(str(v).rstrip("+")))


def _amount(v: Any) -> str:
    """Attacks or Damage: a whole number (3, 3.0) or dice ('D6', '2D3+1'), as text."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(int(v))
    return str(v).upper()


def weapon_from(spec: dict[str, Any]) -> Weapon:
    """A weapon as a scene writes it; what it leaves out is ruleset.yaml's weapon_defaults."""
    d = dict(load_ruleset("aos4").weapon_defaults)
    rng = spec.get("range")
    return Weapon(
        name=str(spec.get("name", "weapon")),
        range=float(rng) if rng not in (None, 0) else None,
        attacks=_amount(spec.get("attacks", d["attacks"])),
        hit=_plus(spec.get("hit", d["hit"])),
        wound=_plus(spec.get("wound", d["wound"])),
        rend=int(float(spec.get("rend", d["rend"]))),
        damage=_amount(spec.get("damage", d["damage"])),
        abilities=tuple(str(a).lower() for a in spec.get("abilities", ())),
    )


def carries(unit: Any, k: int, name: str) -> bool:
    """Whether the unit's k-th model (from 0) carries its weapon `name`: the model's
    `weapons:` names it, or the model names none (then it carries all of them)."""
    named = unit.models[k].extra.get("weapons") if 0 <= k < len(unit.models) else None
    return not isinstance(named, list) or name in {str(n) for n in named}


def weapons_of_model(unit: Any, k: int, melee: bool | None = None) -> list[Weapon]:
    """The weapons the unit's k-th model carries, optionally only melee/ranged ones."""
    return [w for w in weapons_of(unit, melee) if carries(unit, k, w.name)]


def weapons_of(unit: Any, melee: bool | None = None, name: str | None = None) -> list[Weapon]:
    """A unit's weapons, optionally only melee/ranged, or the one called `name`."""
    out = [weapon_from(w) for w in unit.weapons]
    if name is not None:
        chosen = [w for w in out if w.name == name]
        if not chosen:
            names = ", ".join(w.name for w in out) or "none"
            raise UsageError(f"{unit.id} has no weapon '{name}' (its weapons: {names})")
        return chosen
    if melee is not None:
        out = [w for w in out if w.melee == melee]
    return out
