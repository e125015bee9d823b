"""Builds the lists of tests/army/data/lists from the BSData catalogues in ../shared/bsdata (run
it from the repository: python tests/army/data/build_lists.py), in the form New Recruit exports
an Age of Sigmar 4 list: roster > forces > force (the battle pack) > selections, the units of
each regiment in a child force (`Regiment`), a unit's models and their wargear as nested
selections, each selection pointing at its catalogue entry by entryId (LINK::TARGET through the
faction catalogue's entryLink), profiles and categories copied in, hidden rules (the Base Size)
left out as New Recruit leaves them out. Each list holds units of one faction that meet what a
real list meets: faction terrain, a dice Move, bases written in every way, weapons that point at
an ability. `stale.ros` is a list made with an older catalogue (an entry id the catalogue no
longer has); `warhammer-40k.ros` and `kill-team.ros` are lists of other games.

The standard library's ElementTree reads the catalogues here: they are the trusted local data,
and the lists must not be made by the code they test."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

from build_rosters import BSDATA, FORCE_ENTRY, GST_ID, GST_NAME, ROSTER_NS, kids, rid

HERE = Path(__file__).resolve().parent / "lists"
REGIMENT = "376a-6b97-8699-dd59"
WEAPONS = ("Melee Weapon", "Ranged Weapon")

# (file, faction catalogue, [regiment: [unit names]])
LISTS = [
    ("gloomspite-gitz.ros", "Gloomspite Gitz",
     [["Loonboss on Mangler Squigs", "Squig Hoppers", "Loonsmasha Fanatics"],
      ["Rippa's Snarlfangs", "Bad Moon Loonshrine"]]),
    ("skaven.rosz", "Skaven",
     [["Doomwheel", "Gutter Runners", "Warp Lightning Cannon"], ["Gnawhole"]]),
    ("sylvaneth.ros", "Sylvaneth",
     [["Belthanos, First Thorn of Kurnoth", "The Twistweald", "Skaeth's Wild Hunt"],
      ["Awakened Wyldwood"]]),
    ("cities-of-sigmar.rosz", "Cities of Sigmar",
     [["Battlemage on Luminark of Hysh", "Dawner's Triumph"]]),
    ("beasts-of-chaos.ros", "Beasts of Chaos",
     [["Chimera", "Beasts of Chaos Chaos Spawn", "Herdstone"]]),
]


def index(faction: str) -> tuple[ET.Element, dict[str, ET.Element], dict[str, ET.Element]]:
    """The faction catalogue, its library's units by name, and its entry links by target."""
    fac = ET.parse(BSDATA / f"{faction}.cat").getroot()
    lib = ET.parse(BSDATA / f"{faction} - Library.cat").getroot()
    units = {e.get("name"): e for e in kids(lib, "sharedSelectionEntries", "selectionEntry")
             if e.get("type") == "unit"}
    links = {e.get("targetId"): e for e in kids(fac, "entryLinks", "entryLink")}
    return fac, units, links


def profiles(src: ET.Element, dst: ET.Element) -> None:
    ps = kids(src, "profiles", "profile")
    if not ps:
        return
    out = ET.SubElement(dst, "profiles")
    for p in ps:
        q = ET.SubElement(out, "profile", {"id": p.get("id"), "name": p.get("name"),
                                           "hidden": "false", "typeId": p.get("typeId"),
                                           "typeName": p.get("typeName"), "from": "entry"})
        chars = ET.SubElement(q, "characteristics")
        for c in kids(p, "characteristics", "characteristic"):
            ET.SubElement(chars, "characteristic", {"name": c.get("name"),
                                                    "typeId": c.get("typeId")}).text = \
                "".join(c.itertext()).strip()


def minimum(el: ET.Element) -> int:
    for c in kids(el, "constraints", "constraint"):
        if c.get("type") == "min" and c.get("field") == "selections" and \
                c.get("scope") == "parent":
            return max(1, int(float(c.get("value", "1"))))
    return 1


def wargear(model: ET.Element) -> list[ET.Element]:
    """The weapons a model takes by default: its own weapon entries, and from each group the
    default choice (else the first)."""
    out = [e for e in kids(model, "selectionEntries", "selectionEntry")
           if any(p.get("typeName") in WEAPONS for p in kids(e, "profiles", "profile"))]
    for g in kids(model, "selectionEntryGroups", "selectionEntryGroup"):
        options = kids(g, "selectionEntries", "selectionEntry")
        pick = next((o for o in options if o.get("id") == g.get("defaultSelectionEntryId")),
                    options[0] if options else None)
        if pick is not None and any(p.get("typeName") in WEAPONS
                                    for p in kids(pick, "profiles", "profile")):
            out.append(pick)
    return out


def unit_selection(parent: ET.Element, name: str, entry: ET.Element,
                   link: ET.Element | None) -> None:
    uid = entry.get("id")
    u = ET.SubElement(parent, "selection", {
        "id": rid(name, uid), "name": entry.get("name"),
        "entryId": f"{link.get('id')}::{uid}" if link is not None else uid,
        "number": "1", "type": "unit", "from": "entry"})
    profiles(entry, u)
    sels = ET.SubElement(u, "selections")
    models = [m for m in kids(entry, "selectionEntries", "selectionEntry")
              if m.get("type") == "model"]
    for m in models:
        n = minimum(m)
        ms = ET.SubElement(sels, "selection", {
            "id": rid(name, uid, m.get("id")), "name": m.get("name"), "entryId": m.get("id"),
            "number": str(n), "type": "model", "from": "entry"})
        profiles(m, ms)
        gear = wargear(m)
        if gear:
            ws = ET.SubElement(ms, "selections")
            for w in gear:
                s = ET.SubElement(ws, "selection", {
                    "id": rid(name, uid, m.get("id"), w.get("id")), "name": w.get("name"),
                    "entryId": w.get("id"), "number": str(n), "type": "upgrade",
                    "from": "entry"})
                profiles(w, s)
    cats = ET.SubElement(u, "categories")
    for c in kids(entry, "categoryLinks", "categoryLink"):
        ET.SubElement(cats, "category", {"id": rid(name, uid, c.get("id")),
                                         "name": c.get("name"), "entryId": c.get("targetId"),
                                         "primary": c.get("primary", "false")})


def roster(name: str, game: str = GST_NAME, game_id: str = GST_ID) -> ET.Element:
    return ET.Element("roster", {
        "id": rid(name), "name": name.split(".")[0], "battleScribeVersion": "2.03",
        "generatedBy": "https://newrecruit.eu", "gameSystemId": game_id,
        "gameSystemName": game, "gameSystemRevision": "15", "xmlns": ROSTER_NS})


def build(name: str, faction: str, regiments: list[list[str]]) -> ET.Element:
    fac, units, links = index(faction)
    root = roster(name)
    forces = ET.SubElement(root, "forces")
    force = ET.SubElement(forces, "force", {
        "id": rid(name, "force"), "name": "General's Handbook 2025-26", "entryId": FORCE_ENTRY,
        "catalogueId": fac.get("id"), "catalogueRevision": fac.get("revision"),
        "catalogueName": fac.get("name")})
    sels = ET.SubElement(force, "selections")
    traits = next((e for e in links.values() if e.get("name", "").startswith("Battle Traits")),
                  None)
    if traits is not None:
        ET.SubElement(sels, "selection", {
            "id": rid(name, "traits"), "name": traits.get("name"),
            "entryId": f"{traits.get('id')}::{traits.get('targetId')}", "number": "1",
            "type": "upgrade", "from": "entry"})
    child = ET.SubElement(force, "forces")
    for k, regiment in enumerate(regiments):
        reg = ET.SubElement(child, "force", {
            "id": rid(name, "regiment", str(k)), "name": "Regiment", "entryId": REGIMENT,
            "catalogueId": fac.get("id"), "catalogueRevision": fac.get("revision"),
            "catalogueName": fac.get("name")})
        rs = ET.SubElement(reg, "selections")
        for unit in regiment:
            entry = units[unit]
            unit_selection(rs, name, entry, links.get(entry.get("id")))
    return root


def stale(base: ET.Element) -> ET.Element:
    """The Gloomspite Gitz list as made with an older catalogue: a revision behind, and its
    Squig Hoppers' model an entry the catalogue no longer has."""
    root = ET.fromstring(ET.tostring(base))
    ns = f"{{{ROSTER_NS}}}"
    for f in root.iter(ns + "force"):
        f.set("catalogueRevision", str(int(f.get("catalogueRevision")) - 3))
    hoppers = next(s for s in root.iter(ns + "selection") if s.get("name") == "Squig Hoppers")
    model = next(s for s in hoppers.iter(ns + "selection") if s.get("type") == "model")
    model.set("entryId", "dead-beef-0000-0001")
    root.set("name", "stale")
    return root


def other_game(name: str, game: str, game_id: str, unit: str) -> ET.Element:
    root = roster(name, game, game_id)
    forces = ET.SubElement(root, "forces")
    force = ET.SubElement(forces, "force", {
        "id": rid(name, "force"), "name": "Army Roster", "entryId": rid(name, "entry"),
        "catalogueId": rid(name, "cat"), "catalogueRevision": "12", "catalogueName": unit})
    sels = ET.SubElement(force, "selections")
    u = ET.SubElement(sels, "selection", {"id": rid(name, unit), "name": unit,
                                          "entryId": rid(name, unit, "e"), "number": "1",
                                          "type": "unit", "from": "entry"})
    ps = ET.SubElement(ET.SubElement(u, "profiles"), "profile", {
        "id": rid(name, "p"), "name": unit, "hidden": "false", "typeId": rid(name, "t"),
        "typeName": "Unit", "from": "entry"})
    chars = ET.SubElement(ps, "characteristics")
    for k, v in (("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", "2"), ("LD", "6+"),
                 ("OC", "2")):
        ET.SubElement(chars, "characteristic", {"name": k, "typeId": rid(name, k)}).text = v
    return root


def write(name: str, root: ET.Element) -> None:
    ET.register_namespace("", ROSTER_NS)
    ET.indent(root)
    xml = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
           + ET.tostring(root, encoding="utf-8"))
    path = HERE / name
    if name.endswith(".rosz"):
        info = zipfile.ZipInfo(name[:-1], date_time=(2026, 1, 1, 0, 0, 0))
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(info, xml, zipfile.ZIP_DEFLATED)
    else:
        path.write_bytes(xml)
    print(f"wrote {path} ({len(xml)} bytes)")


def main() -> int:
    HERE.mkdir(exist_ok=True)
    built = {}
    for name, faction, regiments in LISTS:
        built[name] = build(name, faction, regiments)
        write(name, built[name])
    write("stale.ros", stale(built["gloomspite-gitz.ros"]))
    write("warhammer-40k.ros", other_game("warhammer-40k.ros", "Warhammer 40,000 10th Edition",
                                          "sys-352e-adc2-7639-d6a9", "Intercessor Squad"))
    write("kill-team.ros", other_game("kill-team.ros", "Kill Team (2024)",
                                      "3b7e-7dab-f79f-2e74", "Angels of Death"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
