"""Army composition as seed 000 has it (the `deployment` rules' Army Composition) and the data
words it (Age of Sigmar 4.0.gst: the `Regiment` force entry, the `General` and `Reinforced`
upgrades, the roster's points limit), checked on a roster before its units are imported:

- **Regiments**: each regiment (a child force named `Regiment`) is led by one HERO (the unit
  in the `Regimental Leader` category, else a HERO of it) and has at most 3 units that are not
  HEROES, 4 in the general's regiment (the seed; the data's Regiment takes one more selection
  when the General is in it, and lets a regiment take a further HERO as an option).
- **The general**: one unit carries the `General` upgrade; it is a HERO leading a regiment
  (not an auxiliary unit); if any unit is a WARMASTER, the general is one of them.
- **Unique and reinforced units**: a UNIQUE unit is in the list once and is not reinforced
  (the `Reinforced` upgrade).
- **Points**: the roster's points (its `pts` cost) are within its points limit (`costLimits`;
  0 or none: no limit).

Each breach is one sentence naming the units; `army import` warns of them (`--strict`: the
first stops the import, exit 2). A list without regiments (units straight in the army's force,
as BattleScribe and older exports write them) is checked for the general, unique, reinforced
and points only."""

from __future__ import annotations

from battlefield.army.entries import Entry
from battlefield.army.roster import Roster

HERO = "HERO"
UNIQUE = "UNIQUE"
WARMASTER = "WARMASTER"
LEADER = "Regimental Leader"      # the category New Recruit gives a regiment's leader
GENERAL = "General"               # the upgrade naming the general (gst a56b-952e-ad15-7868)
REINFORCED = "Reinforced"         # the upgrade doubling a unit (gst 1b37-82b8-c062-eb82)
OTHERS = 3                        # units that are not HEROES in a regiment
GENERALS_OTHERS = 4               # ... in the general's regiment
NOT_UNITS = ("FACTION TERRAIN", "MANIFESTATION")    # selections a list takes that are no units


def has(e: Entry, category: str) -> bool:
    return any(c.strip().upper() == category.upper() for c in e.categories)


def upgraded(e: Entry, name: str) -> bool:
    """Whether the unit carries the upgrade `name` (its own selection, not a model's)."""
    return any(x.type == "upgrade" and x.name.strip().lower() == name.lower()
               for x in e.walk() if x is not e)


def breaches(r: Roster) -> list[str]:
    """What the roster breaks of the army composition rules, each a sentence; empty: none."""
    out: list[str] = []
    units = [(k, e) for k, e in enumerate(r.units) if not any(has(e, c) for c in NOT_UNITS)]
    regiments: dict[int, list[Entry]] = {}
    for k, e in units:
        n = r.regiment_of(k)
        if n is not None:
            regiments.setdefault(n, []).append(e)
    generals = [(k, e) for k, e in units if upgraded(e, GENERAL)]
    general_regiment = r.regiment_of(generals[0][0]) if len(generals) == 1 else None
    for n, members in sorted(regiments.items()):
        heroes = [e for e in members if has(e, HERO)]
        leaders = [e for e in members if has(e, LEADER)] or heroes[:1]
        if not leaders:
            out.append(f"regiment {n} ({_names(members)}) has no HERO to lead it")
        others = [e for e in members if not has(e, HERO)]
        most = GENERALS_OTHERS if n == general_regiment else OTHERS
        if len(others) > most:
            whose = "the general's regiment" if n == general_regiment else "a regiment"
            out.append(f"regiment {n} has {len(others)} units that are not HEROES "
                       f"({_names(others)}); {whose} takes at most {most}")
    out += _general(r, units, generals, bool(regiments))
    seen: dict[str, int] = {}
    for _, e in units:
        if has(e, UNIQUE):
            seen[e.name] = seen.get(e.name, 0) + 1
            if upgraded(e, REINFORCED):
                out.append(f"'{e.name}' is UNIQUE and cannot be reinforced")
    out += [f"'{name}' is UNIQUE but is in the list {n} times" for name, n in seen.items()
            if n > 1]
    if r.limit and r.points is not None and r.points > r.limit:
        out.append(f"the list is {r.points:g} points, over its limit of {r.limit:g}")
    return out


def _general(r: Roster, units: list[tuple[int, Entry]], generals: list[tuple[int, Entry]],
             regiments: bool) -> list[str]:
    if not generals:
        return ["no unit is the general (the 'General' upgrade on a HERO leading a regiment)"]
    if len(generals) > 1:
        return [f"{len(generals)} units are the general ({_names([e for _, e in generals])}); "
                "the army has one"]
    k, g = generals[0]
    out = []
    if not has(g, HERO):
        out.append(f"the general '{g.name}' is not a HERO")
    elif regiments and r.regiment_of(k) is None:
        out.append(f"the general '{g.name}' leads no regiment (an auxiliary unit cannot be "
                   "the general)")
    masters = [e for _, e in units if has(e, WARMASTER)]
    if masters and not has(g, WARMASTER):
        out.append(f"the general '{g.name}' is not a WARMASTER, but {_names(masters)} "
                   "is: a WARMASTER must be the general")
    return out


def _names(entries: list[Entry]) -> str:
    return ", ".join(f"'{e.name}'" for e in entries)
