"""Rosters as New Recruit and BattleScribe export them: roster > forces > force > selections >
selection, each selection with its profiles, rules, categories and child selections, pointing
back at the catalogue by entryId."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

from battlefield.army.entries import Entry, profile_of, text_of
from battlefield.army.xmlfile import read_xml
from battlefield.errors import InputError


@dataclass
class Roster:
    file: str
    name: str
    factions: list[str]           # the forces' catalogue names
    units: list[Entry]


def read_roster(path: str | Path) -> Roster:
    root = read_xml(path)
    if root.tag != "roster":
        raise InputError(str(path), "", None, f"the XML is a <{root.tag}>, not a <roster>",
                         "a roster exported by New Recruit or BattleScribe (.ros or .rosz)")
    forces = list(root.iter("force"))
    if not forces:
        raise InputError(str(path), "", None, "the roster has no forces",
                         "roster > forces > force > selections")
    units = []
    for force in forces:
        sel = force.find("selections")
        for s in sel.findall("selection") if sel is not None else []:
            if s.get("type") in ("unit", "model"):
                units.append(selection(s))
    if not units:
        raise InputError(str(path), "", None, "the roster has no units",
                         "selections of type unit in the roster's forces")
    return Roster(str(path), root.get("name", ""),
                  [f.get("catalogueName", "") for f in forces], units)


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
