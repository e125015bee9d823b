"""Builds lists/shapes-fec.ros and lists/shapes-sob.ros from the BSData catalogues in
../shared/bsdata (run it from the repository: python tests/army/data/build_shapes.py): the shapes
real New Recruit exports of Age of Sigmar 4 lists have (as the public fixtures of 29 real lists
show them), each written here the way New Recruit writes it, from the catalogues' own entries:

- shapes-fec.ros (Flesh-eater Courts, a "kitchen sink" list of General's Handbook 2026-27): the
  battle pack's force named with a leading "✦", its army-composition selections (Allow Legends,
  a Battle Formation, Battle Tactic Cards, a Manifestation Lore whose manifestation is a `unit`
  selection beside its summoning spell, a Prayer Lore, a Spell Lore), the force's "Illegal Units"
  marker, and one Regiment (a child force) holding: the general (the `General` upgrade on the
  unit) with an artefact and a heroic trait, the same unit twice, a Scourge of Aqshy variant, an
  undersize unit named "(2 Models)" with its "Undersize Unit" marker and its champion an upgrade
  inside a model selection, a reinforced unit (1 + 19 models, the champion's model its own
  selection), a unit with a champion, a musician and a standard bearer each on its own model,
  and a MONSTER.
- shapes-boc.ros (Beasts of Chaos, a Legends faction: its catalogue is "Beasts of Chaos
  [LEGENDS]"; an "every unit" capture): the units in the child force New Recruit names
  "Auxillary Units" (no regiment), the army-composition slots each taken twice, a points limit of
  0, the same unit twice and faction terrain.

Each selection points at its catalogue entry by entryId (LINK::TARGET through the faction
catalogue's entryLink), with the entry's profiles and categories copied in; hidden rules (the
Base Size) are left out as New Recruit leaves them out. The standard library's ElementTree reads
the catalogues: the lists must not be made by the code they test."""

from __future__ import annotations

import sys
from pathlib import Path
from xml.etree import ElementTree as ET

from build_lists import index, minimum, profiles, roster, wargear, write
from build_rosters import BSDATA, kids, rid

HERE = Path(__file__).resolve().parent / "lists"
GHB = "0151-9c5b-2f1e-32d4"                      # the battle pack's force entry (the .gst)
REGIMENT = "b016-6952-57f2-c82b::376a-6b97-8699-dd59"
AUXILIARY = "6084-3baa-f00b-ac0a::8732-47c4-9f1c-e71e"
COMPOSITION = ("ac97-b27c-7e35-7ab9", "Army Composition")
ROLES = {"Champion": "9c21-1746-9873-a5b5", "Musician": "2475-183b-3802-4431",
         "Standard Bearer": "7f34-77c9-597-62c3"}
COMMAND_MODEL = ("9c77-5e0b-a20f-d885", "Command Model")


class Data:
    """Every catalogue element with an id, of the game system and the catalogues named."""

    def __init__(self, *files: str) -> None:
        self.by_id: dict[str, ET.Element] = {}
        for f in ("Age of Sigmar 4.0.gst", *files):
            for e in ET.parse(BSDATA / f).getroot().iter():
                if e.get("id") and e.get("id") not in self.by_id:
                    self.by_id[e.get("id")] = e

    def __getitem__(self, key: str) -> ET.Element:
        return self.by_id[key]


def category(parent: ET.Element, ids: tuple[str, ...], cid: str, name: str,
             primary: bool = False) -> None:
    cats = parent.find("categories")
    if cats is None:
        cats = ET.SubElement(parent, "categories")
    ET.SubElement(cats, "category", {"id": rid(*ids, cid), "name": name, "entryId": cid,
                                     "primary": "true" if primary else "false"})


def upgrade(parent: ET.Element, ids: tuple[str, ...], entry_id: str, src: ET.Element,
            number: int = 1, group: str | None = None, kind: str = "upgrade") -> ET.Element:
    """A selection of the catalogue entry `src` (its profiles copied), under `parent`'s
    selections."""
    sels = parent.find("selections")
    if sels is None:
        sels = ET.SubElement(parent, "selections")
    attrs = {"id": rid(*ids, entry_id), "name": src.get("name"), "entryId": entry_id,
             "number": str(number), "type": kind, "from": "group" if group else "entry"}
    if group:
        attrs["group"] = group
    s = ET.SubElement(sels, "selection", attrs)
    profiles(src, s)
    return s


def unit(parent: ET.Element, name: str, faction: str, unit_name: str,
         split: list[tuple[int, str | None]] | None = None, display: str | None = None,
         link: str | None = None, markers: tuple[tuple[str, str], ...] = ()) -> ET.Element:
    """A unit selection as New Recruit writes it: its model entry as one model selection per
    part of `split` (count, unit-command role or None), each with its wargear; the role an
    upgrade inside that model's selection with the game system's profile and the Command Model
    category. `display`: the name the list shows (a catalogue's `set name` modifier)."""
    _, units, links = index(faction)
    entry = units[unit_name]
    uid = entry.get("id")
    lk = link or (links[uid].get("id") if uid in links else None)
    ids = (name, unit_name, str(len(parent)))
    u = ET.SubElement(parent, "selection", {
        "id": rid(*ids), "name": display or entry.get("name"),
        "entryId": f"{lk}::{uid}" if lk else uid, "number": "1", "type": "unit",
        "from": "entry"})
    profiles(entry, u)
    sels = ET.SubElement(u, "selections")
    gst = ET.parse(BSDATA / "Age of Sigmar 4.0.gst").getroot()
    roles = {e.get("id"): e for e in gst.iter() if e.get("id") in ROLES.values()}
    model = next((m for m in kids(entry, "selectionEntries", "selectionEntry")
                  if m.get("type") == "model"), None)
    for k, (n, role) in enumerate([] if model is None else
                                  split or [(minimum(model), None)]):
        mid = f"{lk}::{model.get('id')}" if lk else model.get("id")
        ms = ET.SubElement(sels, "selection", {
            "id": rid(*ids, "model", str(k)), "name": model.get("name"), "entryId": mid,
            "number": str(n), "type": "model", "from": "entry"})
        ws = ET.SubElement(ms, "selections")
        for w in wargear(model):
            s = ET.SubElement(ws, "selection", {
                "id": rid(*ids, str(k), w.get("id")), "name": w.get("name"),
                "entryId": f"{lk}::{w.get('id')}" if lk else w.get("id"), "number": str(n),
                "type": "upgrade", "from": "entry"})
            profiles(w, s)
        if role:
            r = roles[ROLES[role]]
            s = ET.SubElement(ws, "selection", {
                "id": rid(*ids, str(k), role), "name": role,
                "entryId": f"{lk}::{rid(role)}::{r.get('id')}", "number": "1",
                "type": "upgrade", "from": "group", "group": "Command Models"})
            first = [p for p in kids(r, "profiles", "profile")][:1]
            if first:
                holder = ET.Element("x")
                ET.SubElement(holder, "profiles").extend(first)
                profiles(holder, s)
            category(s, ids + (str(k), role), *COMMAND_MODEL)
    for c in kids(entry, "categoryLinks", "categoryLink"):
        category(u, ids, c.get("targetId"), c.get("name"), c.get("primary") == "true")
    for cid, cname in markers:
        category(u, ids, cid, cname)
    return u


def force(parent: ET.Element, name: str, fid: str, fname: str, entry: str,
          fac: ET.Element) -> ET.Element:
    forces = parent.find("forces")
    if forces is None:
        forces = ET.SubElement(parent, "forces")
    return ET.SubElement(forces, "force", {
        "id": rid(name, fid), "name": fname, "entryId": entry, "catalogueId": fac.get("id"),
        "catalogueRevision": fac.get("revision"), "catalogueName": fac.get("name")})


def slot(sels: ET.Element, name: str, data: Data, slot_id: str, k: int = 0,
         picks: list[tuple[str, str, list[tuple[str, str]]]] = ()) -> ET.Element:
    """An army-composition selection (Battle Formation, a lore ...): its pick (a group's entry)
    and the pick's own entries (a lore's spells, a manifestation `unit`)."""
    src = data[slot_id]
    s = ET.SubElement(sels, "selection", {
        "id": rid(name, slot_id, str(k)), "name": src.get("name"), "entryId": slot_id,
        "number": "1", "type": "upgrade", "from": "entry"})
    for pick_id, group, inner in picks:
        p = upgrade(s, (name, slot_id, str(k)), pick_id, data[pick_id.split("::")[-1]],
                    group=group)
        for inner_id, kind in inner:
            upgrade(p, (name, pick_id), inner_id, data[inner_id.split("::")[-1]],
                    group=p.get("name"), kind=kind)
    category(s, (name, slot_id, str(k)), *COMPOSITION, primary=True)
    return s


def fec() -> ET.Element:
    name = "shapes-fec.ros"
    faction = "Flesh-eater Courts"
    fac, _, _ = index(faction)
    data = Data(f"{faction}.cat", f"{faction} - Library.cat", "Lores.cat")
    root = roster(name)
    root.set("gameSystemRevision", "98")
    ET.SubElement(ET.SubElement(root, "costs"), "cost",
                  {"name": "pts", "typeId": "points", "value": "2500"})
    ET.SubElement(ET.SubElement(root, "costLimits"), "costLimit",
                  {"name": "pts", "typeId": "points", "value": "2500"})
    top = force(root, name, "ghb", "✦ General's Handbook 2026-27", GHB, fac)
    sels = ET.SubElement(top, "selections")
    legends = slot(sels, name, data, "7e59-2237-4890-a80a")
    legends.remove(legends.find("categories"))
    category(legends, (name, "legends"), "676-2b78-7bbf-ba9c", "Configuration", True)
    slot(sels, name, data, "bc11-45de-a9d2-c4b3", picks=[
        ("fb18-7def-dad5-bb7f::be68-2ab8-be60-2150", "Battle Formations: Flesh-eater Courts",
         [])])
    slot(sels, name, data, "1668-6989-2470-5e10")
    slot(sels, name, data, "659d-a6a3-ad87-c789", picks=[
        ("967-1d44-697f-f13::83f1-e447-c26-c5c", "Manifestation Lores", [
            ("967-1d44-697f-f13::e419-d78e-c334-2227::15c0-e4e0-b110-0b69::d420-1699-5ad9-1956",
             "unit"),
            ("967-1d44-697f-f13::e419-d78e-c334-2227::3008-bafb-852b-b69f", "upgrade")])])
    slot(sels, name, data, "1d9f-bef7-c1f4-5cda", picks=[
        ("fab0-66d4-5d89-bbd6::fdc4-e11c-84d6-f910", "Prayer Lores", [
            ("fab0-66d4-5d89-bbd6::8454-140d-3226-42ee::ec7b-d603-1ff9-4961", "upgrade")])])
    slot(sels, name, data, "93aa-54db-db81-5ec0", picks=[
        ("a314-813d-72b7-52e4::1828-2d64-781e-159", "Spell Lores", [
            ("a314-813d-72b7-52e4::cec8-7259-3285-b4df::0880-f8e9-de32-7fdc", "upgrade")])])
    manifestation = next(s for s in sels.iter("selection") if s.get("type") == "unit")
    for cid, cname in (("70a4-383f-421f-52cd", "WARD (6+)"), ("bff0-8be9-719f-4afc",
                                                              "MANIFESTATION"),
                       ("e7bc-543-4076-553c", "ENDLESS SPELL"), ("b979-4c3e-7d0e-6921", "FLY")):
        category(manifestation, (name, "geminids"), cid, cname)
    for cid, cname in (("676-2b78-7bbf-ba9c", "Configuration"), (*COMPOSITION,),
                       ("(Illegal Units)", "Illegal Units")):
        category(top, (name, "force"), cid, cname)
    reg = force(top, name, "regiment", "Regiment", REGIMENT, fac)
    rs = ET.SubElement(reg, "selections")
    leader = unit(rs, name, faction, "Abhorrant Archregent",
                  markers=(("d1f3-921c-b403-1106", "Regimental Leader"),))
    upgrade(leader, (name, "general"), "451a-5dc8-e4f8-f23d::c901-e5e2-39df-510e::"
            "a56b-952e-ad15-7868", data["a56b-952e-ad15-7868"])
    upgrade(leader, (name, "artefact"), "d141-c394-f897-5335::f6cf-5f0e-94d4-de67",
            data["f6cf-5f0e-94d4-de67"], group="Artefacts of Power::Royal Treasury")
    upgrade(leader, (name, "trait"), "eed2-1728-2de3-89f3::e1c7-c8f0-854d-65dc",
            data["e1c7-c8f0-854d-65dc"], group="Heroic Traits::Royal Traits")
    unit(rs, name, faction, "Royal Decapitator")
    unit(rs, name, faction, "Royal Decapitator")
    unit(rs, name, faction, "Royal Decapitator (Scourge of Aqshy)")
    undersize = (("c461-2ebb-5bbc-81a2", "Undersize Unit"),)
    unit(rs, name, faction, "Crypt Flayers", [(1, "Champion"), (1, None)],
         display="Crypt Flayers (2 Models)", link="6a0d-753-3126-5c40", markers=undersize)
    unit(rs, name, faction, "Crypt Flayers", [(1, "Champion"), (2, None)],
         display="Crypt Flayers (2 Models)", link="6a0d-753-3126-5c40", markers=undersize)
    unit(rs, name, faction, "Crypt Ghouls", [(1, "Champion"), (19, None)])
    unit(rs, name, faction, "Cryptguard", [(1, "Champion"), (1, "Musician"),
                                           (1, "Standard Bearer"), (7, None)])
    unit(rs, name, faction, "Royal Terrorgheist")
    category(reg, (name, "regiment"), "(Illegal Units)", "Illegal Units")
    return root


def boc() -> ET.Element:
    name = "shapes-boc.ros"
    faction = "Beasts of Chaos"
    fac, units, _ = index(faction)
    data = Data(f"{faction}.cat", f"{faction} - Library.cat")
    root = roster(name)
    ET.SubElement(ET.SubElement(root, "costLimits"), "costLimit",
                  {"name": "pts", "typeId": "points", "value": "0"})
    top = force(root, name, "ghb", "✦ General's Handbook 2026-27", GHB, fac)
    sels = ET.SubElement(top, "selections")
    for slot_id in ("1668-6989-2470-5e10",) * 2:
        slot(sels, name, data, slot_id, k=len(sels))
    aux = force(top, name, "aux", "Auxillary Units", AUXILIARY, fac)
    rs = ET.SubElement(aux, "selections")
    for n in ("Gors", "Chimera", "Gors"):
        unit(rs, name, faction, n)
    terrain = next(n for n, e in units.items()
                   if any(c.get("name") == "FACTION TERRAIN"
                          for c in kids(e, "categoryLinks", "categoryLink")))
    unit(rs, name, faction, terrain)
    return root


def main() -> int:
    HERE.mkdir(exist_ok=True)
    write("shapes-fec.ros", fec())
    write("shapes-boc.ros", boc())
    return 0


if __name__ == "__main__":
    sys.exit(main())
