"""Passive warscroll abilities the engine plays (aos4): each unit's `abilities:` read whole by
the effect reader (effects.py), and those whose every effect is one of these applied by
themselves to every attack, in play and in `odds`:

- a modifier to hit or wound rolls of the attacks of WHO (melee or shooting ones) or of the
  attacks that target WHO; to save rolls for WHO; to the Rend, Damage or Attacks of WHO's
  (melee or ranged) weapons; a weapon's Attacks or Damage set to N (Battle Damaged);
- a ward for WHO (the best ward a unit has counts);
WHO is the unit itself, or (other) friendly or enemy units (with or without keywords) within
or wholly within N" of it, or in combat with it; the conditions are every one the reader knows
(effects.py). Outside the attack (roll_bonus, charge_dice, keywords): modifiers to charge and
run rolls, charge dice, the Move, control scores, casting and chanting rolls, and STRIKE-FIRST
or STRIKE-LAST given; and what activated abilities put in force for the rest of the turn
(TURN_AURAS, in_force).

`playable(reading)` says whether the engine plays a reading whole (what `army coverage` counts
as played); a reading with any other effect, condition or subject is not played at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from battlefield.rules.aos4 import effects, warscroll
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.weapons import Weapon
from battlefield.rules.dice import parse
from battlefield.rules.standing import referee
from battlefield.rules.state import State
from battlefield.scene.model import Scene

ATTACK_ROLLS = ("hit", "wound", "save")
WEAPON_CHARACTERISTICS = ("rend", "damage", "attacks")
# The rolls and characteristics outside an attack a modifier may change (roll_bonus): charge
# and run rolls, the Move characteristic, the control score, casting and chanting rolls, and
# the number of dice a charge roll uses.
GIVEN_KEYWORDS = ("STRIKE-FIRST", "STRIKE-LAST")   # the keywords an ability may give a unit
OTHER_ROLLS = ("charge", "run", "move", "control", "casting", "chanting", "charge_dice",
               "unbinding")
CHARGE_DICE = (1, 3)            # the fewest and most dice a charge roll can come to
CONDITIONS = ("charged", "in_combat", "damaged", "damage_points_at_least", "target_has",
              "wholly_within", "within", "contesting", "in_combat_with",
              "in_combat_with_charged", "target_models_at_least", "target_has_any", "any",
              "moved")
EPS = 1e-6
COMBAT_RANGE = "combat range"   # a distance the text gives as "this unit's combat range"
TURN_AURAS = "turn_auras"     # state.extra: [owner, ability, effect] of activated abilities,
#                               in force for the rest of the turn (activated.py; turns clears)


# --- what the engine plays ---
def _who_ok(who: Mapping[str, Any] | None) -> bool:
    if not who:
        return False
    keys = set(who) - {"unit", "keywords", "not_keywords", "within", "wholly_within",
                       "in_combat_with", "other"}
    reach = who.get("within", who.get("wholly_within", 0))
    return not keys and who["unit"] in ("self", "friendly", "enemy") and (
        who["unit"] != "self" or len(who) == 1) and (
        not isinstance(reach, str) or reach == COMBAT_RANGE)


def _conditions_ok(conditions: Any) -> bool:
    for c in conditions or ():
        if not any(k in c for k in CONDITIONS):
            return False
        if "any" in c and not _who_ok(c["any"]):
            return False
        if ("wholly_within" in c or "within" in c) and (c.get("of") or {}).get(
                "unit") != "friendly":
            return False
    return True


def effect_ok(e: Mapping[str, Any]) -> bool:
    """Whether the engine plays this one passive effect."""
    if "on" in e or "each" in e or "until" in e or not _conditions_ok(e.get("if")):
        return False
    if "ward" in e:
        return _who_ok(e.get("who"))
    if "unbind" in e:                   # magic.can_unbind asks unbinds_as_wizard
        return e.get("who") == {"unit": "self"} and not e.get("if")
    if "keyword" in e:
        return e["keyword"] in GIVEN_KEYWORDS and _who_ok(e.get("who"))
    if "set" in e:
        return e["set"] in ("attacks", "damage") and e.get("who") == {"unit": "self"}
    roll = e.get("modify")
    if roll in ("hit", "wound"):
        return ("of" in e or "against" in e) and all(
            _who_ok(e[k]) for k in ("of", "against") if k in e)
    if roll in WEAPON_CHARACTERISTICS:
        if "weapon" in e and e.get("who") != {"unit": "self"}:
            return False
        return ("who" in e) != ("against" in e) and _who_ok(e.get("who") or e.get("against"))
    if roll in ("save", "ward") or roll in OTHER_ROLLS:
        return "weapon" not in e and _who_ok(e.get("who"))
    return False


def playable(reading: effects.Reading | None) -> bool:
    """A passive reading the engine plays whole (in attacks: play and odds)."""
    return (reading is not None and reading.timing is None and reading.target is None
            and _conditions_ok(reading.conditions) and bool(reading.effects)
            and all(effect_ok(e) for e in reading.effects))


# --- the scene's passive abilities, read once ---
_cache: dict[int, tuple[Scene, list[tuple[int, str, effects.Reading]]]] = {}


def of_scene(scene: Scene) -> list[tuple[int, str, effects.Reading]]:
    """(unit, ability name, reading) of every passive ability of the scene the engine plays."""
    hit = _cache.get(id(scene))
    if hit is not None and hit[0] is scene:
        return hit[1]
    out = []
    for u, spec in enumerate(scene.units):
        if "abilities" not in spec.extra:
            continue
        for a in warscroll.of(spec):
            if a["kind"] != "passive":
                continue
            r = effects.read(a)
            if playable(r):
                out.append((u, a["name"], r))
    if len(_cache) > 64:
        _cache.clear()
    _cache[id(scene)] = (scene, out)
    return out


def in_force(t: Table) -> list[tuple[int, str, effects.Reading]]:
    """The passive abilities of the scene and the activated ones in force this turn."""
    return [*of_scene(t.scene),
            *((o, n, effects.Reading(None, None, (), (e,))) for o, n, e in t.auras)]


# --- where the game stands, as an attack asks it ---
@dataclass(frozen=True)
class Table:
    """What conditions read: the scene, where models stand, each unit's flags and damage
    points and who is in combat (from a State in play, from the odds' question otherwise)."""

    scene: Scene
    table: Any                                  # geometry.table.Table
    flags: Callable[[int], set[str]]
    damage: Callable[[int], int]
    combat: Mapping[int, Any]
    counters: Callable[[int], Mapping[str, float]] = lambda u: {}
    auras: tuple[tuple[int, str, dict[str, Any]], ...] = ()     # TURN_AURAS
    # who controls each objective unit u contests (a side, or None): [] when it contests none
    contests: Callable[[int], list[str | None]] = lambda u: []


def in_play(state: State, referee: Any) -> Table:
    """The conditions' view of a game: its flags and damage points now."""
    def damage(u: int) -> int:
        us = state.units[u]
        return int(us.damage[us.alive].sum())

    return Table(state.scene, state.table, lambda u: state.units[u].flags, damage,
                 referee.combat, lambda u: state.units[u].counters,
                 _auras(state),
                 _contests(referee, lambda o: state.objectives.get(o.id, o.controlled_by)))


def _sound(e: Any) -> bool:
    """An effect the engine plays, whole and well formed (from a position written by hand)."""
    try:
        return isinstance(e, dict) and isinstance(e.get("by", 0), int) and effect_ok(e) and all(
            isinstance(k, str) for k in e.get("who", e.get("of", e.get("against", {}))).get(
                "keywords", ()))
    except (TypeError, AttributeError, KeyError):
        return False


def _auras(state: State) -> tuple[tuple[int, str, dict[str, Any]], ...]:
    """The activated abilities in force this turn (TURN_AURAS), each one checked: a position
    written by hand may hold anything, and only what the engine plays is applied."""
    out = []
    raw = state.extra.get(TURN_AURAS)
    for item in raw if isinstance(raw, list) else ():
        if isinstance(item, (list, tuple)) and len(item) == 3 and isinstance(item[0], int) \
                and 0 <= item[0] < len(state.scene.units) and _sound(item[2]):
            out.append((item[0], str(item[1]), item[2]))
    return tuple(out)


def in_odds(referee: Any, charged: set[int] = frozenset()) -> Table:
    """The conditions' view of an odds question: no damage, the units that charged."""
    return Table(referee.scene, referee.table, lambda u: {"charged"} if u in charged else set(),
                 lambda u: 0, referee.combat,
                 contests=_contests(referee, lambda o: o.controlled_by))


def _contests(referee: Any, holder: Callable[[Any], str | None]
              ) -> Callable[[int], list[str | None]]:
    """Unit u -> who controls each objective it contests (asked once, when first needed)."""
    got: dict[int, list[str | None]] = {}
    done: list[bool] = []

    def contests(u: int) -> list[str | None]:
        if not done:
            for k, o in enumerate(referee.scene.objectives):
                c = referee.objective(k)
                for units in c.units.values():
                    for w in units:
                        got.setdefault(w, []).append(holder(o))
            done.append(True)
        return got.get(u, [])

    return contests


def _within(t: Table, a: int, b: int, reach: float, wholly: bool) -> bool:
    """Unit a within (some model) or wholly within (every model, its far edge) `reach` of
    unit b."""
    mine, theirs = t.table.unit_models[a], t.table.unit_models[b]
    if not len(mine) or not len(theirs):
        return False
    d = t.table.distances(mine, theirs).min(axis=1)
    if not wholly:
        return bool(d.min() <= reach + EPS)
    far = d + 2 * np.asarray(t.table.reach)[mine]
    return bool((far <= reach + EPS).all())


def _reach(t: Table, d: Any) -> float:
    """A distance in inches: N, or the ruleset's combat range (3")."""
    return float(t.scene.ruleset.combat_range) if d == COMBAT_RANGE else float(d)


def _matches(t: Table, who: Mapping[str, Any], owner: int, u: int) -> bool:
    """Unit u is the WHO of an ability of unit `owner`."""
    if who["unit"] == "self":
        return u == owner
    if who.get("other") and u == owner:
        return False
    spec, mine = t.scene.units[u], t.scene.units[owner]
    same = spec.side == mine.side
    if who["unit"] == "friendly" and not same or who["unit"] == "enemy" and same:
        return False
    keys = tuple(spec.keywords)
    if any(not effects.has_keywords(k, keys) for k in who.get("keywords", ())):
        return False
    if any(effects.has_keywords(k, keys) for k in who.get("not_keywords", ())):
        return False
    if "within" in who and not _within(t, u, owner, _reach(t, who["within"]), False):
        return False
    if "wholly_within" in who and not _within(t, u, owner, _reach(t, who["wholly_within"]),
                                              True):
        return False
    return not ("in_combat_with" in who and owner not in t.combat.get(u, ()))


def _holds(t: Table, c: Mapping[str, Any], owner: int, target: int | None) -> bool:
    if "moved" in c:             # 'if it has not used a MOVE ability in the same turn' (and
        moved = bool(t.flags(owner) & {"moved", "charged"})      # was not set up this turn)
        return moved == bool(c["moved"]) and (
            "set_up" not in c or ("set-up" in t.flags(owner)) == bool(c["set_up"]))
    if "any" in c:               # some unit is WHO: 'while any friendly X are within ...'
        return any(len(t.table.unit_models[w]) and _matches(t, c["any"], owner, w)
                   for w in range(len(t.scene.units)))
    if "charged" in c:
        return ("charged" in t.flags(owner)) == bool(c["charged"])
    if "in_combat" in c:
        return bool(t.combat.get(owner)) == bool(c["in_combat"])
    if "damaged" in c:
        return (t.damage(owner) > 0) == bool(c["damaged"])
    if "contesting" in c:
        side = t.scene.units[owner].side
        held = t.contests(owner)
        return bool(held) if c["contesting"] == "any" else any(
            (h == side) == (c["contesting"] == "yours") for h in held)
    if "in_combat_with" in c:
        return any(effects.has_keywords(c["in_combat_with"], tuple(t.scene.units[w].keywords))
                   for w in t.combat.get(owner, ()))
    if "in_combat_with_charged" in c:
        return any("charged" in t.flags(w) for w in t.combat.get(owner, ()))
    if "target_models_at_least" in c:
        return target is not None and len(t.table.unit_models[target]) >= int(
            c["target_models_at_least"])
    if "target_has_any" in c:
        return target is not None and any(effects.has_keywords(k, tuple(
            t.scene.units[target].keywords)) for k in c["target_has_any"])
    if "damage_points_at_least" in c:
        return t.damage(owner) >= int(c["damage_points_at_least"])
    if "target_has" in c:
        return target is not None and effects.has_keywords(
            c["target_has"], tuple(t.scene.units[target].keywords))
    if "wholly_within" in c or "within" in c:
        kws = (c.get("of") or {}).get("keywords", ())
        side = t.scene.units[owner].side
        wholly = "wholly_within" in c
        reach = _reach(t, c["wholly_within" if wholly else "within"])
        return any(_within(t, owner, w, reach, wholly)
                   for w, spec in enumerate(t.scene.units) if w != owner and spec.side == side
                   and all(effects.has_keywords(k, tuple(spec.keywords)) for k in kws))
    return False


# --- a roll outside the attack with them ---
def unbinds_as_wizard(scene: Scene, u: int) -> int:
    """The power level unit u unbinds with as if it were a WIZARD ('This unit can use UNBIND
    abilities as if it had WIZARD (1)'), 0 when no ability of it says so."""
    return max((int(e["unbind"]) for owner, _, reading in of_scene(scene) if owner == u
                for e in reading.effects if "unbind" in e), default=0)


def roll_bonus(t: Table, u: int, roll: str) -> tuple[int, list[str]]:
    """What the passive abilities in play and the activated ones of the turn (counter
    buff_ROLL) add to unit u's `roll` (one of OTHER_ROLLS), and the names of the passive
    ones that add something."""
    total = int(t.counters(u).get(f"buff_{roll}", 0))
    used: list[str] = []
    for owner, name, reading in in_force(t):
        if not len(t.table.unit_models[owner]):
            continue
        if not all(_holds(t, c, owner, None) for c in reading.conditions):
            continue
        by = sum(int(e["by"]) for e in reading.effects
                 if e.get("modify") == roll and _matches(t, e["who"], owner, u)
                 and all(_holds(t, c, owner, None) for c in e.get("if", ())))
        if by:
            total += by
            used.append(name)
    return total, used


def concerns(state: State, u: int, key: str, value: str) -> bool:
    """Whether any ability in play could change unit u's `value` (a roll: key "modify"; a
    keyword: key "keyword"): a passive one of the scene, one in force this turn, or a counter
    of the turn (asked before anything is measured)."""
    if key == "modify" and f"buff_{value}" in state.units[u].counters:
        return True
    return any(e.get(key) == value for _, _, r in of_scene(state.scene) for e in r.effects) \
        or any(e.get(key) == value for _, _, e in _auras(state))


def bonus_now(state: State, u: int, roll: str) -> tuple[int, list[str]]:
    """roll_bonus in play: what the abilities in play add to unit u's `roll` now."""
    if not concerns(state, u, "modify", roll):
        return 0, []
    return roll_bonus(in_play(state, referee(state)), u, roll)


def keywords(t: Table, u: int) -> set[str]:
    """The keywords (GIVEN_KEYWORDS) the passive abilities in play give unit u now."""
    out: set[str] = set()
    for owner, _, reading in in_force(t):
        if not len(t.table.unit_models[owner]) or not all(
                _holds(t, c, owner, None) for c in reading.conditions):
            continue
        out |= {e["keyword"] for e in reading.effects if "keyword" in e
                and _matches(t, e["who"], owner, u)
                and all(_holds(t, c, owner, None) for c in e.get("if", ()))}
    return out


def keywords_now(state: State, u: int) -> set[str]:
    """keywords in play: what the passive abilities give unit u now."""
    if not any(concerns(state, u, "keyword", k) for k in GIVEN_KEYWORDS):
        return set()
    return keywords(in_play(state, referee(state)), u)


def charge_dice(t: Table, u: int, dice: str) -> str:
    """The charge roll's dice for unit u: "Add 1 to the number of dice rolled when making
    charge rolls for this unit, to a maximum of 3" makes 2D6 3D6 ("subtract 1 ..., to a
    minimum of 1": D6); the reader reads only those bounds (CHARGE_DICE)."""
    extra, _ = roll_bonus(t, u, "charge_dice")
    if not extra:
        return dice
    n, sides, bonus = parse(dice)
    got = max(CHARGE_DICE[0], min(n + extra, CHARGE_DICE[1]))
    return f"{'' if got == 1 else got}D{sides}" + (f"+{bonus}" if bonus else "")


# --- an attack with them ---
def plus(expr: str | int, by: int) -> str:
    """A characteristic ('2', 'D6', 'D3+1') with `by` added (never below 0 when fixed)."""
    n, sides, bonus = parse(str(expr))
    if n == 0:
        return str(max(0, bonus + by))
    bonus += by
    dice = f"{'' if n == 1 else n}D{sides}"
    return dice + (f"+{bonus}" if bonus > 0 else f"{bonus}" if bonus < 0 else "")


def in_attack(t: Table, u: int, w: int, wp: Weapon, mods: Modifiers, companion: bool = False
              ) -> tuple[Weapon, Modifiers, list[str]]:
    """Unit u's weapon `wp` and the modifiers of its attack at unit w with every passive
    ability in play applied, and the names of those that changed something. A Companion
    weapon (`companion`) takes none of its own side's: only the target's side's apply."""
    used: list[str] = []
    warding: list[tuple[str, int]] = []           # modifiers to the target's ward rolls
    mine = t.scene.units[u].side
    if not companion:
        wp, mods = _for_the_turn(t.counters(u), wp, mods)
    ward = t.counters(w).get("buff_ward")            # an activated ability's, this turn
    if ward is not None:
        mods = replace(mods, ward=int(ward) if mods.ward is None else min(mods.ward, int(ward)))
    for owner, name, reading in in_force(t):
        if not len(t.table.unit_models[owner]) or (companion and t.scene.units[owner].side
                                                      == mine):
            continue
        if not all(_holds(t, c, owner, w) for c in reading.conditions):
            continue
        before = (wp, mods)
        for e in reading.effects:
            if all(_holds(t, c, owner, w) for c in e.get("if", ())):
                if e.get("modify") == "ward" and _matches(t, e["who"], owner, w):
                    warding.append((name, int(e["by"])))
                    continue
                wp, mods = _apply(t, e, owner, u, w, wp, mods)
        if (wp, mods) != before:
            used.append(name)
    if warding and mods.ward is not None:     # 'Subtract 1 from ward rolls for enemy units'
        need = mods.ward - sum(by for _, by in warding)
        mods = replace(mods, ward=None if need > 6 else max(2, need))
        used += [n for n, _ in warding if n not in used]
    return wp, mods, used


def _for_the_turn(c: Mapping[str, float], wp: Weapon, mods: Modifiers
                  ) -> tuple[Weapon, Modifiers]:
    """What activated abilities gave the attacking unit for the rest of the turn (counters
    buff_hit_melee, buff_rend_ranged, buff_attacks ... - activated.py; the plain buff_hit,
    buff_wound and buff_save of every attack are the attack's own)."""
    if not c:
        return wp, mods
    kind = "melee" if wp.melee else "ranged"
    for roll in ("hit", "wound"):
        by = int(c.get(f"buff_{roll}_{kind}", 0))
        if by:
            mods = replace(mods, **{roll: getattr(mods, roll) + by})
    for ch in WEAPON_CHARACTERISTICS:
        by = int(c.get(f"buff_{ch}", 0)) + int(c.get(f"buff_{ch}_{kind}", 0))
        if by:
            wp = replace(wp, rend=wp.rend + by) if ch == "rend" else \
                replace(wp, **{ch: plus(getattr(wp, ch), by)})
    return wp, mods


def _apply(t: Table, e: Mapping[str, Any], owner: int, u: int, w: int, wp: Weapon,
           mods: Modifiers) -> tuple[Weapon, Modifiers]:
    if "ward" in e:
        if _matches(t, e["who"], owner, w):
            best = e["ward"] if mods.ward is None else min(mods.ward, e["ward"])
            mods = replace(mods, ward=best)
        return wp, mods
    if "keyword" in e:                   # a keyword given: the fight's order (fighting.strike)
        return wp, mods
    if "set" in e:
        if u == owner and _same_weapon(e["weapon"], wp.name):
            wp = replace(wp, **{e["set"]: str(e["to"])})
        return wp, mods
    roll, by = e["modify"], int(e["by"])
    if roll in OTHER_ROLLS:
        return wp, mods
    if roll in ("hit", "wound"):
        kind = e.get("attacks")
        if kind is not None and kind != ("melee" if wp.melee else "shooting"):
            return wp, mods
        if ("of" not in e or _matches(t, e["of"], owner, u)) and (
                "against" not in e or _matches(t, e["against"], owner, w)):
            mods = replace(mods, **{roll: getattr(mods, roll) + by})
        return wp, mods
    if roll == "save":
        if _matches(t, e["who"], owner, w):
            mods = replace(mods, save=mods.save + by)
        return wp, mods
    kind = e.get("weapons")
    if kind is not None and kind != ("melee" if wp.melee else "ranged"):
        return wp, mods
    if "weapon" in e and not (u == owner and _same_weapon(e["weapon"], wp.name)):
        return wp, mods
    if _matches(t, e["who"], owner, u) if "who" in e else _matches(t, e["against"], owner, w):
        if roll == "rend":
            wp = replace(wp, rend=wp.rend + by)
        else:
            wp = replace(wp, **{roll: plus(getattr(wp, roll), by)})
    return wp, mods


def _same_weapon(named: str, name: str) -> bool:
    """The weapon a text names is this one: 'Butchering Blades' (and 'Blade'), or one of
    'Flameburst Pots and Infernal Fires'."""
    a, b = " ".join(named.lower().split()), " ".join(name.lower().split())
    return a == b or a.rstrip("s") == b.rstrip("s") or (" and " in a and any(
        _same_weapon(part, name) for part in a.split(" and ")))
