"""What each model of a unit carries: its weapons and its unit-command role, as the roster gives
them.

A unit's models are its model entries in the order the bases are read (convert._models): a
model selection of N models is N slots. What a model selection holds goes to its N models; an
upgrade below it with a smaller number (4 Warhammers of 5 models) to that many of them, the
ones that carry the fewest such upgrades so far (so 4 Warhammers and 1 Grandhammer of 5 models
are 4 + 1 models, not 4 models with both); an upgrade of the unit itself to every model. New
Recruit writes a champion with its own weapons as a model selection of its own, so this is
usually exact. A catalogue's entry lists the choices, not a roster's picks (`every`): each model
selection's models then carry every weapon below it.

A unit-command role (Champion, Musician, Standard Bearer: the game system's `Command Model`
entries) goes to as many models as its number says (one champion), with its rule as the data
words it (the first profile of its name: the data gives a second one for another battle pack),
and to no more models than the unit's keyword for it allows: CHAMPION one, `STANDARD BEARER
(1/10)` and `MUSICIAN (1/5)` one in every 10 or 5 models (at least one). A list that gives more
(New Recruit writes a unit of 10 models whose Champion upgrade says 10) is capped, and `capped`
says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from battlefield.army.entries import Entry, Profile

WEAPON_TYPES = ("Melee Weapon", "Ranged Weapon")
COMMAND_CATEGORY = "Command Model"
COMMAND_ROLES = ("Champion", "Musician", "Standard Bearer")


@dataclass
class Loadout:
    """A unit's weapon profiles (scene form, in the order the data gives them) and, for each of
    its models, the names of the weapons it carries and its unit-command roles (role -> rule)."""

    weapons: list[dict[str, Any]] = field(default_factory=list)
    carried: list[list[str]] = field(default_factory=list)
    command: list[dict[str, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)       # weapon -> models carrying it
    capped: list[str] = field(default_factory=list)    # roles the list gave too many models

    def names(self) -> list[str]:
        """The unit's weapon names, each once."""
        return list(dict.fromkeys(w["name"] for w in self.weapons))

    def own(self) -> bool:
        """Whether some model carries other weapons than the rest (per-model weapons)."""
        return any(c != self.names() for c in self.carried)

    def model_keys(self) -> list[dict[str, Any]]:
        """Each model's own scene keys: `weapons:` where it does not carry them all, and
        `command:` where it has a role."""
        names = self.names()
        out = []
        for carried, role in zip(self.carried, self.command, strict=True):
            keys: dict[str, Any] = {}
            if carried != names:
                keys["weapons"] = list(carried)
            if role:
                keys["command"] = dict(role)
            out.append(keys)
        return out


def is_command(e: Entry) -> bool:
    """A unit-command role: the game system's Command Model entry (Champion, Musician, Standard
    Bearer), an upgrade whose rule is an ability of its own name."""
    if e.type == "model":
        return False
    if any(c.strip().lower() == COMMAND_CATEGORY.lower() for c in e.categories):
        return True
    return e.name in COMMAND_ROLES and any(p.name == e.name and p.type_name.startswith(
        "Ability") for p in e.profiles)


def role_limits(entry: Entry, slots: int) -> dict[str, tuple[int, str]]:
    """How many of the unit's `slots` models may carry each unit-command role, by the unit's
    keyword for it (CHAMPION: 1; STANDARD BEARER (1/10): 1 in every 10 models, at least 1), with
    that keyword; a role without its keyword is not limited."""
    out: dict[str, tuple[int, str]] = {}
    for c in entry.categories:
        name = c.strip()
        for role in COMMAND_ROLES:
            if name.upper() == role.upper():
                out[role] = (1, name)
            elif m := re.fullmatch(rf"{role}\s*\(\s*1\s*/\s*(\d+)\s*\)", name, re.I):
                out[role] = (max(1, slots // max(int(m.group(1)), 1)), name)
    return out


def command_rule(e: Entry, text: Callable[[str], str]) -> str:
    """The rule of a unit-command role as the data words it (its ability of its own name)."""
    for p in e.profiles:
        if p.type_name.startswith("Ability") and p.name == e.name:
            return text(p.get("Effect"))
    return ""


def loadout(entry: Entry, slots: int, weapon: Callable[[Profile], dict[str, Any] | None],
            text: Callable[[str], str], every: bool = False) -> Loadout:
    """Each of the unit's `slots` models' weapons and roles. `weapon(profile)`: the profile as a
    scene weapon, or None when it is left out (said by the caller); `text`: the data's markup
    taken off a rule."""
    out = Loadout(carried=[[] for _ in range(slots)], command=[{} for _ in range(slots)])
    specs: dict[tuple[str, str], dict[str, Any] | None] = {}
    carried: list[set[tuple[str, str]]] = [set() for _ in range(slots)]
    load = [0] * slots                   # partial upgrades each model carries so far
    roles = [0] * slots
    limits = role_limits(entry, slots)
    given: dict[str, int] = {}           # each role: the models the list gives it, all told
    models = [e for e in entry.walk() if e.type == "model" and e is not entry] or [entry]
    start: dict[int, int] = {}
    n = 0
    for m in models:
        start[id(m)] = n
        n += max(m.number, 0)
    everyone = list(range(min(n, slots)))

    def arm(e: Entry, who: list[int]) -> None:
        for p in e.profiles:
            if p.type_name not in WEAPON_TYPES:
                continue
            key = (p.type_name, p.name)
            if key not in specs:
                specs[key] = weapon(p)
            if specs[key] is not None:
                for k in who:
                    carried[k].add(key)

    def fewest(who: list[int], k: int, by: list[int]) -> list[int]:
        picked = sorted(who, key=lambda i: (by[i], i))[:k]
        for i in picked:
            by[i] += 1
        return sorted(picked)

    def visit(e: Entry, who: list[int], unit_level: bool) -> None:
        arm(e, who)
        for c in e.children:
            if c.type == "model":
                if c.number > 0 and id(c) in start:
                    s = start[id(c)]
                    visit(c, [i for i in range(s, s + c.number) if i < slots], False)
                continue
            if c.number <= 0 or getattr(c, "table", False):
                continue
            if is_command(c):
                most, _ = limits.get(c.name, (slots, ""))
                had = sum(c.name in r for r in out.command)
                given[c.name] = given.get(c.name, 0) + c.number
                mine = fewest(who, max(0, min(c.number, most - had)), roles)
                for k in mine:
                    out.command[k][c.name] = command_rule(c, text)
                visit(c, mine, False)
            elif unit_level or every or c.number >= len(who):
                visit(c, who, unit_level)
            else:
                visit(c, fewest(who, c.number, load), False)

    if models == [entry]:
        visit(entry, everyone, False)
    else:
        visit(entry, everyone, True)
    for role, n in given.items():
        most, keyword = limits.get(role, (slots, ""))
        if n > most:
            out.capped.append(f"the list gives {n} of its models the {role} role; its "
                              f"{keyword} keyword allows {most}, so {most} "
                              f"{'model carries' if most == 1 else 'models carry'} it")
    keys = [k for k, spec in specs.items() if spec is not None]
    out.weapons = [dict(specs[k] or {}) for k in keys]
    for i in range(slots):        # by name: a melee and a ranged profile may share one
        out.carried[i] = list(dict.fromkeys(k[1] for k in keys if k in carried[i]))
    out.counts = {k[1]: sum(k in c for c in carried) for k in keys}
    return out
