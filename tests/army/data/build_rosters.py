"""Builds the test rosters of this folder from the BSData catalogues in ../shared/bsdata (run it
from the repository: python tests/army/data/build_rosters.py). A roster is written the way New
Recruit exports one: roster > forces > force > selections > selection, each unit selection
pointing at its catalogue entry by entryId (LINK::TARGET for an entry reached through the
faction catalogue's entryLink), with the entry's profiles, rules and categories copied in, and
its models and their weapons as child selections with their numbers. Hidden rules (Base Size)
are copied only when `hidden_rules` is set; New Recruit leaves hidden rules out of some exports,
which is what --catalogues is for.

The standard library's ElementTree reads the catalogues here: they are the trusted local data,
and the rosters must not be made by the code they test."""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

HERE = Path(__file__).resolve().parent
BSDATA = HERE.parents[2].parent / "shared" / "bsdata" / "age-of-sigmar-4th"
CAT = "{http://www.battlescribe.net/schema/catalogueSchema}"
GST = "{http://www.battlescribe.net/schema/gameSystemSchema}"
ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
GST_ID, GST_NAME, FORCE_ENTRY = "e51d-b1a3-75fc-dc3g", "Age of Sigmar 4.0", "f079-501a-2738-6845"

# (roster file, faction catalogue, library, hidden rules copied, [(unit, [(model, number,
# [weapons by upgrade name], [unit-command roles])]) ...]): a champion is a model selection of
# its own, with its role (the game system's Champion entry, as New Recruit links it).
ROSTERS = [
    ("stormcast.ros", "Stormcast Eternals.cat", "Stormcast Eternals - Library.cat", True, [
        ("Liberators", [("Liberator", 1, ["Warhammer"], ["Champion"]),
                        ("Liberator", 3, ["Warhammer"]), ("Liberator", 1, ["Grandhammer"])]),
        ("Prosecutors", [("Prosecutor", 3, None)]),
        ("Lord-Aquilor", [("Lord-Aquilor", 1, None)]),
        ("Ionus Cryptborn, Warden of Lost Souls", [("Ionus Cryptborn, Warden of Lost Souls", 1,
                                                    None)]),
    ]),
    ("fyreslayers.rosz", "Fyreslayers.cat", "Fyreslayers - Library.cat", False, [
        ("Auric Runefather", [("Auric Runefather", 1, None)]),
        ("Vulkite Berzerkers with Fyresteel Weapons",
         [("Vulkite Berzerkers with Fyresteel Weapons", 10, None)]),
        ("Hearthguard Berzerkers with Berzerker Broadaxes",
         [("Hearthguard Berzerkers with Berzerker Broadaxes", 5, None)]),
        ("Auric Runesmiter on Magmadroth", [("Auric Runesmiter on Magmadroth", 1, None)]),
    ]),
    # A whole army of 19 units, ids up to 52 characters: what `render` must keep readable.
    ("fyreslayers-19.ros", "Fyreslayers.cat", "Fyreslayers - Library.cat", True,
     [(n, [(n, k, None)]) for n, k in (
         ("Auric Runesmiter on Magmadroth", 1), ("Grimhold Exile", 1), ("Auric Flamekeeper", 1),
         ("Auric Runefather on Magmadroth", 1), ("Auric Runeson on Magmadroth", 1),
         ("Auric Runeson", 1), ("Auric Runesmiter", 1), ("Auric Runemaster", 1),
         ("Battlesmith", 1), ("Grimwrath Berzerker", 1), ("Auric Runefather", 1),
         ("Doomseeker", 1), ("Auric Hearthguard", 5),
         ("Hearthguard Berzerkers with Berzerker Broadaxes", 5),
         ("Vulkite Berzerkers with Fyresteel Weapons", 10),
         ("Vulkite Berzerkers with Bladed Slingshields", 10),
         ("Hearthguard Berzerkers with Flamestrike Poleaxes", 5))]
     + [("Auric Runeson on Magmadroth (Scourge of Ghyran)",
         [("Auric Runeson on Magmadroth", 1, None)]),
        ("The Chosen Axes", [(n, 1, None) for n in ("Tefk Flamebearer", "Fjul-Grimnir",
                                                     "Mad Maegrim", "Vol Orrukbane")])]),
]


def rid(*parts: str) -> str:
    """A selection id in BattleScribe's form, the same every build."""
    h = hashlib.sha1("/".join(parts).encode()).hexdigest()
    return f"{h[:4]}-{h[4:8]}-{h[8:12]}-{h[12:16]}"


def kids(el: ET.Element, holder: str, tag: str) -> list[ET.Element]:
    """The `tag` children of el's `holder` (a catalogue's or the game system's)."""
    for ns in (CAT, GST):
        h = el.find(ns + holder)
        if h is not None:
            return [c for c in h if c.tag == ns + tag]
    return []


def copy_profiles(src: ET.Element, dst: ET.Element, first_only: bool = False) -> None:
    profiles = kids(src, "profiles", "profile")
    if first_only:      # the data's second profile of a name is for another battle pack
        profiles = [p for k, p in enumerate(profiles)
                    if p.get("name") not in {q.get("name") for q in profiles[:k]}]
    if not profiles:
        return
    out = ET.SubElement(dst, "profiles")
    for p in profiles:
        q = ET.SubElement(out, "profile", {"id": p.get("id"), "name": p.get("name"),
                                           "hidden": "false", "typeId": p.get("typeId"),
                                           "typeName": p.get("typeName"), "from": "entry"})
        chars = ET.SubElement(q, "characteristics")
        for c in kids(p, "characteristics", "characteristic"):
            text = "".join(t for t in [c.text or ""] + [(k.tail or "") for k in c]).strip()
            ET.SubElement(chars, "characteristic",
                          {"name": c.get("name"), "typeId": c.get("typeId")}).text = text


def copy_rules(src: ET.Element, dst: ET.Element, hidden: bool) -> None:
    rules = [r for r in kids(src, "rules", "rule") if hidden or r.get("hidden") != "true"]
    if not rules:
        return
    out = ET.SubElement(dst, "rules")
    for r in rules:
        q = ET.SubElement(out, "rule", {"id": r.get("id"), "name": r.get("name"),
                                        "hidden": r.get("hidden", "false")})
        ET.SubElement(q, "description").text = "".join(r.find(CAT + "description").itertext())


def command_model(parent: ET.Element, ids: tuple[str, ...], model: ET.Element, role: str,
                  number: int) -> None:
    """A unit-command role of the model (Champion ...): the model's entryLink to the game
    system's entry, with that entry's profile and its Command Model category."""
    link = next(e for e in model.iter(CAT + "entryLink") if e.get("name") == role)
    gst = ET.parse(BSDATA / "Age of Sigmar 4.0.gst").getroot()
    entry = next(e for e in gst.iter(GST + "selectionEntry") if e.get("id") ==
                 link.get("targetId"))
    s = ET.SubElement(parent, "selection", {
        "id": rid(*ids, role), "name": role,
        "entryId": f"{link.get('id')}::{entry.get('id')}", "number": str(number),
        "type": "upgrade", "from": "group"})
    copy_profiles(entry, s, first_only=True)
    cats = ET.SubElement(s, "categories")
    for c in kids(entry, "categoryLinks", "categoryLink"):
        ET.SubElement(cats, "category", {"id": rid(*ids, role, c.get("id")),
                                         "name": c.get("name"), "entryId": c.get("targetId"),
                                         "primary": c.get("primary", "false")})


def build(name: str, faction: str, library: str, hidden: bool, units: list) -> bytes:
    fac = ET.parse(BSDATA / faction).getroot()
    lib = ET.parse(BSDATA / library).getroot()
    entries = {e.get("name"): e for e in kids(lib, "sharedSelectionEntries", "selectionEntry")}
    links = {e.get("targetId"): e for e in kids(fac, "entryLinks", "entryLink")}
    roster = ET.Element("roster", {
        "id": rid(name), "name": f"{fac.get('name')} test list", "battleScribeVersion": "2.03",
        "generatedBy": "https://newrecruit.eu", "gameSystemId": GST_ID,
        "gameSystemName": GST_NAME, "gameSystemRevision": "2", "xmlns": ROSTER_NS})
    forces = ET.SubElement(roster, "forces")
    force = ET.SubElement(forces, "force", {
        "id": rid(name, "force"), "name": "General's Handbook 2025-26", "entryId": FORCE_ENTRY,
        "catalogueId": fac.get("id"), "catalogueRevision": fac.get("revision"),
        "catalogueName": fac.get("name")})
    sels = ET.SubElement(force, "selections")
    traits = next(e for e in links.values() if e.get("name", "").startswith("Battle Traits"))
    ET.SubElement(sels, "selection", {"id": rid(name, "traits"), "name": traits.get("name"),
                                      "entryId": f"{traits.get('id')}::{traits.get('targetId')}",
                                      "number": "1", "type": "upgrade", "from": "entry"})
    for unit_name, models in units:
        entry = entries[unit_name]
        link = links[entry.get("id")]
        u = ET.SubElement(sels, "selection", {
            "id": rid(name, unit_name), "name": unit_name,
            "entryId": f"{link.get('id')}::{entry.get('id')}", "number": "1", "type": "unit",
            "from": "entry"})
        copy_profiles(entry, u)
        copy_rules(entry, u, hidden)
        children = ET.SubElement(u, "selections")
        model_entries = [m for m in kids(entry, "selectionEntries", "selectionEntry")
                         if m.get("type") == "model"]
        for k, (model_name, number, weapons, *roles) in enumerate(models):
            me = next(m for m in model_entries if m.get("name") == model_name)
            m = ET.SubElement(children, "selection", {
                "id": rid(name, unit_name, model_name, str(k)), "name": model_name,
                "entryId": me.get("id"), "number": str(number), "type": "model",
                "from": "entry"})
            copy_rules(me, m, hidden)
            wsel = ET.SubElement(m, "selections")
            for up in kids(me, "selectionEntries", "selectionEntry"):
                if weapons is not None and up.get("name") not in weapons:
                    continue
                w = ET.SubElement(wsel, "selection", {
                    "id": rid(name, unit_name, model_name, str(k), up.get("id")),
                    "name": up.get("name"), "entryId": up.get("id"), "number": str(number),
                    "type": "upgrade", "from": "entry"})
                copy_profiles(up, w)
            for role in roles[0] if roles else []:
                command_model(wsel, (name, unit_name, model_name, str(k)), me, role, number)
        cats = ET.SubElement(u, "categories")
        for c in kids(entry, "categoryLinks", "categoryLink"):
            ET.SubElement(cats, "category", {"id": rid(name, unit_name, c.get("id")),
                                             "name": c.get("name"),
                                             "entryId": c.get("targetId"),
                                             "primary": c.get("primary", "false")})
    ET.indent(roster)
    return (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            + ET.tostring(roster, encoding="utf-8"))


def main() -> int:
    for name, faction, library, hidden, units in ROSTERS:
        xml = build(name, faction, library, hidden, units)
        path = HERE / name
        if name.endswith(".rosz"):
            info = zipfile.ZipInfo(name[:-1], date_time=(2026, 1, 1, 0, 0, 0))
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr(info, xml, zipfile.ZIP_DEFLATED)
        else:
            path.write_bytes(xml)
        print(f"wrote {path} ({len(xml)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
