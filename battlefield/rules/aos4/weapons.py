"""Weapon profiles as written in scenes: range (none = melee), attacks, hit, wound, rend, damage,
and weapon abilities (crit-2-hits, crit-auto-wound, crit-mortal, companion)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from battlefield.errors import UsageError
from battlefield.scene.model import Scene

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


def weapon_from(spec: dict[str, Any], defaults: Sequence[tuple[str, float]] = ()) -> Weapon:
    """A weapon as a scene writes it; what it leaves out is `defaults` (the scene's
    ruleset.yaml weapon_defaults)."""
    d = {**dict(defaults), **spec}
    missing = [k for k in ("attacks", "hit", "wound", "rend", "damage") if k not in d]
    if missing:
        raise UsageError(f"weapon {spec.get('name', 'weapon')!r} gives no "
                         f"{', '.join(missing)}")
    rng = spec.get("range")
    return Weapon(
        name=str(spec.get("name", "weapon")),
        range=float(rng) if rng not in (None, 0) else None,
        attacks=_amount(d["attacks"]),
        hit=_plus(d["hit"]),
        wound=_plus(d["wound"]),
        rend=int(float(d["rend"])),
        damage=_amount(d["damage"]),
        abilities=tuple(str(a).lower() for a in spec.get("abilities", ())),
    )


def weapons_of(scene: Scene, u: int, melee: bool | None = None, name: str | None = None
               ) -> list[Weapon]:
    """Unit u's weapons, optionally only melee/ranged, or the one called `name`."""
    unit = scene.units[u]
    out = [weapon_from(w, scene.ruleset.weapon_defaults) for w in unit.weapons]
    if name is not None:
        chosen = [w for w in out if w.name == name]
        if not chosen:
            names = ", ".join(w.name for w in out) or "none"
            raise UsageError(f"{unit.id} has no weapon '{name}' (its weapons: {names})")
        return chosen
    if melee is not None:
        out = [w for w in out if w.melee == melee]
    return out
