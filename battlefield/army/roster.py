"""Rosters as New Recruit and BattleScribe export them: roster > forces > force > selections >
selection, each selection with its profiles, rules, categories and child selections, pointing
back at the catalogue by entryId."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

from battlefield.army.entries import Entry, profile_of, text_of
from battlefield.army.xmlfile import read_xml
from battlefield.errors import InputError

GAME = "Age of Sigmar 4"         # the game system the importer reads ("Age of Sigmar 4.0")


@dataclass
class Force:
    """A force of the roster: the catalogue it was made from, by id, name and revision."""

    catalogue_id: str
    catalogue: str
    revision: str
    name: str = ""                # the force's own name: "Regiment" for a regiment
    entry: str = ""               # its entryId (LINK::TARGET): the battle pack's force entry
    top: bool = False             # the army's own force (the battle pack's), not a child force


REGIMENT = "regiment"            # a force of this name (any case) is one of the army's regiments
# The battle pack's force of auxiliary units (Age of Sigmar 4.0.gst: forceEntry "Auxillary
# Units", sic, id 8732-47c4-9f1c-e71e, linked by each General's Handbook): a child force with
# this entry, or whose name says so, holds the units the list takes outside its regiments.
AUXILIARY_ENTRY = "8732-47c4-9f1c-e71e"
AUXILIARY_NAMES = ("auxiliary", "auxillary")
# The army's lores, picked in the battle pack's force (New Recruit: an upgrade selection of this
# name holding the lore picked, and the lore its spells or prayers): every WIZARD of the army
# knows the spell lore's spells, every PRIEST the prayer lore's prayers.
LORES = {"spell lore": "WIZARD", "prayer lore": "PRIEST"}


@dataclass
class Roster:
    file: str
    name: str
    factions: list[str]           # the forces' catalogue names
    units: list[Entry]
    forces: list[Force] = field(default_factory=list)
    force_of: list[int] = field(default_factory=list)    # each unit's force (index)
    game: str = ""                                       # gameSystemName
    points: float | None = None          # the roster's points (its `pts` cost), when it says
    limit: float | None = None           # its points limit (costLimits; 0: none)
    # Each unit's enclosing selections (a Manifestation Lore's manifestation: the lore slot and
    # the lore), empty for a unit straight in its force.
    within: list[list[str]] = field(default_factory=list)
    lores: dict[str, list[Entry]] = field(default_factory=dict)   # keyword -> the lores' picks

    def regiment_of(self, k: int) -> int | None:
        """Unit k's regiment, numbered from 1 in the list's order; None when it is in none
        (an auxiliary unit, or a list without regiments)."""
        regiments = [i for i, f in enumerate(self.forces) if f.name.strip().lower() == REGIMENT]
        force = self.force_of[k] if k < len(self.force_of) else -1
        return regiments.index(force) + 1 if force in regiments else None

    def auxiliary(self, k: int) -> bool:
        """Whether unit k is an auxiliary unit: in the list's force of auxiliary units (seed 000:
        "Auxiliary units allow you to take units from your faction without regiment
        constraints")."""
        if k >= len(self.force_of) or not 0 <= self.force_of[k] < len(self.forces):
            return False
        f = self.forces[self.force_of[k]]
        if (f.entry.rsplit("::", 1)[-1] == AUXILIARY_ENTRY
                or f.name.strip().lower().split(" ")[0] in AUXILIARY_NAMES):
            return True
        # A unit straight in the army's force of a list with regiments is in none of them.
        return f.top and any(g.name.strip().lower() == REGIMENT for g in self.forces)


def read_roster(path: str | Path) -> Roster:
    root = read_xml(path)
    if root.tag != "roster":
        raise InputError(str(path), "", None, f"the XML is a <{root.tag}>, not a <roster>",
                         "a roster exported by New Recruit or BattleScribe (.ros or .rosz)")
    game = root.get("gameSystemName", "")
    if game and GAME.lower() not in game.lower():
        raise InputError(str(path), "", None, f"the roster is a {game} list "
                         f"(gameSystemName '{game}')", f"a list for {GAME}.0: battlefield "
                         "plays Age of Sigmar 4th edition armies")
    forces = list(root.iter("force"))
    if not forces:
        raise InputError(str(path), "", None, "the roster has no forces",
                         "roster > forces > force > selections")
    units, force_of, within = [], [], []
    lores: dict[str, list[Entry]] = {}
    for k, force in enumerate(forces):
        for s, nested in _unit_selections(force.find("selections")):
            units.append(selection(s))
            force_of.append(k)
            within.append(nested)
        for s in force.findall("selections/selection"):
            keyword = LORES.get(s.get("name", "").strip().lower())
            if keyword is not None and s.get("type") != "unit":
                lores.setdefault(keyword, []).extend(selection(s).children)
    if not units:
        raise InputError(str(path), "", None, "the roster has no units",
                         "selections of type unit in the roster's forces")
    tops = root.findall("forces/force")          # the army's own force(s), not child forces
    return Roster(str(path), root.get("name", ""),
                  [f.get("catalogueName", "") for f in forces], units,
                  [Force(f.get("catalogueId", ""), f.get("catalogueName", ""),
                         f.get("catalogueRevision", ""), f.get("name", ""),
                         f.get("entryId", ""), any(f is t for t in tops))
                   for f in forces],
                  force_of, game, _points(root.find("costs"), "cost"),
                  _points(root.find("costLimits"), "costLimit"), within, lores)


def _points(costs: Element | None, tag: str) -> float | None:
    """The `pts` value of a roster's costs (or cost limits), None when it gives none."""
    for c in costs.findall(tag) if costs is not None else []:
        if c.get("name", "").strip().lower() in ("pts", "points") or c.get("typeId") == "points":
            try:
                return float(c.get("value", ""))
            except ValueError:
                return None
    return None


def _unit_selections(sel: Element | None, path: tuple[str, ...] = ()
                     ) -> list[tuple[Element, list[str]]]:
    """The unit selections of a force's selections, also those nested in other selections (a
    regiment, an army of renown's group, a Manifestation Lore's manifestations), in the list's
    order, each with the names of the selections it is nested in; a unit's own selections are
    its models and wargear, not more units."""
    out: list[tuple[Element, list[str]]] = []
    for s in sel.findall("selection") if sel is not None else []:
        if s.get("type") in ("unit", "model"):
            out.append((s, list(path)))
        else:
            out += _unit_selections(s.find("selections"), path + (s.get("name", ""),))
    return out


def selection(el: Element) -> Entry:
    try:
        number = int(el.get("number", "1"))
    except ValueError:
        number = 1
    profiles = el.find("profiles")
    rules = el.find("rules")
    cats = el.find("categories")
    kids = el.find("selections")
    return Entry(
        name=el.get("customName") or el.get("name", ""),
        entry_id=el.get("entryId", ""),
        type=el.get("type", "upgrade"),
        number=max(number, 0),
        profiles=[profile_of(p) for p in (profiles if profiles is not None else [])],
        rules={r.get("name", ""): text_of(r.find("description"))
               for r in (rules if rules is not None else [])},
        categories=[c.get("name", "") for c in (cats if cats is not None else [])],
        children=[selection(k) for k in (kids if kids is not None else [])
                  if k.tag == "selection"],
    )
