"""Weapon profiles as written in scenes: range (none = melee), attacks, hit, wound, rend, damage,
and weapon abilities (crit-2-hits, crit-auto-wound, crit-mortal, anti-KEYWORD (+N rend),
companion, shoot-in-combat, charge-damage); the weapons each model carries (a model's
`weapons:`, else all of its unit's).

Anti-X (+N Rend): N is added to the weapon's Rend against a target with keyword X, or, for
`anti-charge`, a target that charged this turn (`against`). A scene writes it
`anti-infantry (+1 rend)` (any case; a keyword of two words as it is spelt,
`anti-war machine (+1 rend)`). `check_scene` refuses a weapon ability aos4 does not know, in one
line naming it; `played` says which of them the engine plays (in play and in odds)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from battlefield.errors import UsageError
from battlefield.scene.model import Scene

CRIT_ABILITIES = ("crit-2-hits", "crit-auto-wound", "crit-mortal")
# Known, and kept on the weapon, but not played yet (shoot-in-combat only in odds); the demo
# scenes spell Charge (+1 Damage) "charge-+1-damage".
KNOWN_ABILITIES = (*CRIT_ABILITIES, "companion", "shoot-in-combat", "charge-damage",
                   "charge-+1-damage")
PLAYED = CRIT_ABILITIES            # and every anti-X (+N rend)
ANTI = re.compile(r"^anti-\s*(?P<what>[a-z][a-z0-9' -]*?)\s*\(\s*\+\s*(?P<rend>[1-9])\s*rend\s*\)$")
ANTI_CHARGE = "CHARGE"             # anti-charge: the target charged this turn
ANTI_FORM = "anti-KEYWORD (+N rend)"


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

    @property
    def anti(self) -> tuple[tuple[str, int], ...]:
        """Each Anti-X (+N Rend) of the weapon: (X as a keyword, N)."""
        return tuple(x for x in (anti_of(a) for a in self.abilities) if x is not None)


def anti_of(ability: str) -> tuple[str, int] | None:
    """'anti-infantry (+1 rend)' -> ('INFANTRY', 1); None for another ability."""
    m = ANTI.match(" ".join(str(ability).lower().split()))
    return (m.group("what").strip().upper(), int(m.group("rend"))) if m else None


def known(ability: str) -> bool:
    """Whether aos4 knows a weapon ability as a scene writes it."""
    a = str(ability).lower()
    return a in KNOWN_ABILITIES or anti_of(a) is not None


def played(ability: str) -> bool:
    """Whether the engine plays a weapon ability, in play and in odds (the rest are kept on
    the weapon, shown, and played by the later rules)."""
    a = str(ability).lower()
    return a in PLAYED or anti_of(a) is not None


def against(w: Weapon, target: Any, charged: bool) -> tuple[Weapon, list[str]]:
    """The weapon as it attacks `target` (a UnitSpec) that charged this turn or not: its Rend
    with every Anti-X (+N Rend) that applies added, and what applied ("+1 rend: INFANTRY")."""
    if not w.abilities:
        return w, []
    said, extra = [], 0
    for what, n in w.anti:
        if (what == ANTI_CHARGE and charged) or (what != ANTI_CHARGE and target.has(what)):
            extra += n
            said.append(f"+{n} rend: {what.lower() if what == ANTI_CHARGE else what}")
    return (replace(w, rend=w.rend + extra), said) if extra else (w, [])


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


def carries(unit: Any, k: int, name: str) -> bool:
    """Whether the unit's k-th model (from 0) carries its weapon `name`: the model's
    `weapons:` names it, or the model names none (then it carries all of them)."""
    named = unit.models[k].extra.get("weapons") if 0 <= k < len(unit.models) else None
    return not isinstance(named, list) or name in {str(n) for n in named}


def weapons_of_model(scene: Scene, u: int, k: int, melee: bool | None = None) -> list[Weapon]:
    """The weapons unit u's k-th model carries, optionally only melee/ranged ones."""
    unit = scene.units[u]
    return [w for w in weapons_of(scene, u, melee) if carries(unit, k, w.name)]


def check_scene(scene: Any) -> None:
    """Every weapon ability of the scene's units is one aos4 knows (an InputError naming the
    first one it does not, at its key path and line)."""
    for spec in scene.units:
        for k, w in enumerate(spec.weapons):
            for j, a in enumerate(w.get("abilities", ())):
                if not known(a):
                    raise scene.error(
                        (*spec.path, "weapons", k, "abilities", j),
                        f"{w.get('name', 'weapon')}: aos4 does not know the weapon ability "
                        f"'{a}'", ", ".join((*KNOWN_ABILITIES[:-1], ANTI_FORM)))


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
