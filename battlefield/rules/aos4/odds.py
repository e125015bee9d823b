"""What an attack by unit A on unit B does where they stand: which models of A can attack (in
range and able to see a model of B), the positional modifiers (cover, obscuring), and the exact
distribution of the damage B takes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from battlefield.rules.aos4 import attacks as seq
from battlefield.rules.aos4 import passives
from battlefield.rules.aos4.cover import pieces_covering
from battlefield.rules.aos4.weapons import Weapon, against, carries, weapons_of, wielded

EPS = 1e-6


@dataclass
class AttackOdds:
    kind: str                                   # "shooting" or "combat"
    expected_damage: float
    distribution: dict[str, float]
    models_slain: dict[str, float]
    attackers: dict[str, list[str]] = field(default_factory=dict)  # weapon -> models attacking
    modifiers: dict[str, Any] = field(default_factory=dict)
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "expected_damage": round(self.expected_damage, 9),
                "distribution": self.distribution, "models_slain": self.models_slain,
                "attackers": self.attackers, "modifiers": self.modifiers,
                **({"reason": self.reason} if self.reason else {})}


def _stat(unit, key: str, default: int | None) -> int | None:
    v = unit.stats.get(key)
    if v is None or v == "-":
        return default
    return int(float(str(v).rstrip("+")))


def attack_odds(referee, u: int, v: int, weapon: str | None = None,
                all_out_attack: bool = False, all_out_defence: bool = False,
                charged: bool = False, charging: bool = False,
                shooting: bool = False,
                counts: Mapping[str, tuple[int, int]] | None = None) -> AttackOdds:
    """Exact odds of unit u attacking unit v with its ranged weapons (or melee ones when the
    units are in combat and `shooting` is not asked, or the one named - of a name that is both
    a ranged and a melee profile, the one that rule picks): a unit in combat
    shoots only its Shoot in Combat weapons, as play has it. `charged`: the target charged
    (no cover, Anti-charge); `charging`: the attacker charged (Charge (+1 Damage)).
    `counts`: the attacks split between several targets (split.planned), weapon -> (models
    making all their attacks at v, further attacks at v); none: every able model's all."""
    scene, table = referee.scene, referee.table
    a, b = scene.units[u], scene.units[v]
    in_combat = v in referee.combat[u]
    engaged = bool(referee.combat[u])
    if weapon is not None:
        named = weapons_of(scene, u, name=weapon)
        kinds = {w.melee for w in named}
        # a name that is a ranged and a melee profile (a Gutpiercer Spear): the one this
        # attack uses, as with no name
        melee = kinds.pop() if len(kinds) == 1 else (in_combat and not shooting)
        chosen = [w for w in named if w.melee == melee]
    else:
        melee = (in_combat and not shooting) or not weapons_of(scene, u, melee=False)
        chosen = weapons_of(scene, u, melee=melee)
    kind = "combat" if melee else "shooting"
    save = _stat(b, "save", None)
    ward = _stat(b, "ward", None)
    health = _stat(b, "health", 1) or 1
    alive_targets = table.unit_models[v]
    models = len(alive_targets)
    pool = health * models
    none = AttackOdds(kind, 0.0, {"0": 1.0}, {"0": 1.0})
    if not chosen:
        none.reason = f"{a.id} has no {'melee' if melee else 'ranged'} weapons"
        return none
    if kind == "shooting" and engaged:
        chosen = [w for w in chosen if w.shoots_in_combat]
        if not chosen:
            none.reason = f"{a.id} is in combat and cannot shoot (no Shoot in Combat weapon)"
            return none
    cr = referee.rules.combat_range
    attackers = table.unit_models[u]
    if kind == "shooting" and not b.has("FLY"):
        hiding = pieces_covering(table, attackers, alive_targets, "obscuring", cr)
        if hiding:
            none.reason = (f"{b.id} is behind or on obscuring terrain "
                           f"({', '.join(table.layout.pieces[k].id for k in hiding)})")
            none.modifiers["obscured_by"] = [table.layout.pieces[k].id for k in hiding]
            return none
    cover = [] if (charged or b.has("FLY")) else pieces_covering(table, attackers,
                                                                  alive_targets, "cover", cr)
    mods = seq.Modifiers(hit=(-1 if cover else 0) + (1 if all_out_attack else 0),
                         save=1 if all_out_defence else 0, ward=ward)
    dist = np.array([1.0])
    who: dict[str, list[str]] = {}
    anti: dict[str, list[str]] = {}
    played: dict[str, list[str]] = {}          # weapon -> the passive abilities it played
    for w in chosen:
        n, names = _able(referee, u, v, w)
        extra = 0
        if counts is not None:
            n, extra = counts.get(w.name, (0, 0))
        who[w.name] = who.get(w.name, []) + [x for x in names if x not in who.get(w.name, [])]
        w, said = against(wielded(w, charging), b, charged)   # Anti-X (+N Rend), Charge
        if said:
            anti[w.name] = said
        w, wmods, used = passives.in_attack(passives.in_odds(referee), u, v, w, mods)
        if used:
            played[w.name] = used
        if n:
            dist = np.convolve(dist, seq.volley_dist(w, n, save, wmods))
        if extra:
            dist = np.convolve(dist, seq.strikes_dist(w, extra, save, wmods))
    inflicted = seq.capped(dist, pool)
    return AttackOdds(
        kind, seq.mean(inflicted), seq.as_dict(inflicted),
        seq.as_dict(seq.slain(inflicted, health, models)), who,
        {"hit": mods.hit, "save": mods.save, "ward": ward, "target_save": save,
         "cover": [table.layout.pieces[k].id for k in cover], **({"anti": anti} if anti else {}),
         **({"abilities": played} if played else {})},
        "" if any(who.values()) else "no model of the attacking unit is in range and can see")


def _able(referee, u: int, v: int, w: Weapon) -> tuple[int, list[str]]:
    """Models of u that can attack v with w (able_models): how many, and their names."""
    names = [referee.names[m] for m in able_models(referee, u, v, w)]
    return len(names), names


def able_models(referee, u: int, v: int, w: Weapon) -> list[int]:
    """The models of u (table indices) that can attack v with w: models that carry it
    (weapons.carries), with a model of v within range (a melee weapon: combat range), and
    visible - unless the units are in combat through a terrain piece (onto_terrain), where a
    melee weapon's target need not be seen."""
    table = referee.table
    reach = referee.rules.combat_range if w.melee else float(w.range)
    mine = table.unit_models[u]
    theirs = table.unit_models[v]
    if not len(mine) or not len(theirs):
        return []
    d = table.distances(mine, theirs)
    spec, first = referee.scene.units[u], referee.scene.model_offsets()[u]
    out = []
    unseen = w.melee and referee.through(u, v) is not None
    for i, m in enumerate(mine):
        if not carries(spec, int(m) - first, w.name):
            continue
        close = theirs[d[i] <= reach + EPS]
        if len(close) and (unseen or any(_sees(referee, int(m), int(t)) for t in close)):
            out.append(int(m))
    return out


def _sees(referee, m: int, t: int) -> bool:
    """Model m sees some of model t (asked once per table: every weapon, the player's odds
    and the engine's check ask the same)."""
    return referee.table.memo(("model-sees", m, t),
                              lambda: referee.sight.model_visibility(m, t).any)
