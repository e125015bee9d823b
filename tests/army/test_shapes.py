"""The shapes of real New Recruit exports (tests/army/data/lists/shapes-*.ros, built by
build_shapes.py the way the 29 real lists of a public fixture corpus write them), one test each:
the list imports whole and right - every unit, its models and each model's weapons and role,
the general, the regiments, enhancements and lores shown, legality markers never turned into
errors or keywords - through the .ros and through New Recruit's JSON."""

from __future__ import annotations

import contextlib
import io
import json
from xml.etree import ElementTree as ET

import pytest

from battlefield.cli.main import main
from battlefield.scene.load import load_scene

from .conftest import DATA
from .test_json_roster import as_new_recruit_json

LISTS = DATA / "lists"
FEC, BOC = LISTS / "shapes-fec.ros", LISTS / "shapes-boc.ros"
NS = "{http://www.battlescribe.net/schema/rosterSchema}"


@pytest.fixture(scope="module")
def fec(bsdata, tmp_path_factory):
    """The kitchen-sink list imported once: the scene, what was said, and the roster."""
    out = tmp_path_factory.mktemp("fec") / "fec.yaml"
    mp = pytest.MonkeyPatch()
    mp.setenv("BATTLEFIELD_CACHE", str(out.parent / "cache"))
    err, said = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(said):
            code = main(["army", "import", str(FEC), "-o", str(out), "--catalogues",
                         str(bsdata)])
    finally:
        mp.undo()
    assert code == 0, err.getvalue()
    scene = load_scene(out)
    return {"scene": scene, "units": {u.id: u for u in scene.units}, "err": err.getvalue(),
            "out": said.getvalue(), "path": out, "roster": ET.parse(FEC).getroot()}


def roster_units(root: ET.Element) -> list[ET.Element]:
    """The roster's unit selections that are fielded (a Manifestation Lore's are not)."""
    out = []
    for f in root.iter(NS + "force"):
        sels = f.find(NS + "selections")
        for s in sels.iter(NS + "selection") if sels is not None else []:
            if s.get("type") == "unit" and not any(
                    c.get("name") == "MANIFESTATION" for c in s.iter(NS + "category")):
                out.append(s)
    return out


def carried(unit: ET.Element) -> list[list[str]]:
    """Each model's weapon profile names, as the roster gives them (sorted, model by model)."""
    out = []
    for m in unit.iter(NS + "selection"):
        if m.get("type") != "model":
            continue
        names = sorted({p.get("name") for p in m.iter(NS + "profile")
                        if p.get("typeName") in ("Melee Weapon", "Ranged Weapon")})
        out += [names] * int(m.get("number"))
    return sorted(out)


def test_every_fielded_unit_imports_with_its_models_and_each_models_weapons(fec):
    """unit-model-nesting, composite-entry-id: every unit of the roster (its entries reached
    through LINK::TARGET), each with as many models as its model selections number, each
    model with the weapons its own selection holds."""
    units = roster_units(fec["roster"])
    scene_units = [u for u in fec["scene"].units if "MANIFESTATION" not in u.keywords]
    assert len(scene_units) == len(units) == 9
    for sel, u in zip(units, scene_units, strict=True):
        mine = sorted(sorted(m.extra.get("weapons") or [w["name"] for w in u.weapons])
                      for m in u.models)
        assert mine == carried(sel), u.id
    assert "left out" not in fec["out"]


@pytest.mark.parametrize("uid, models, roles", [
    # reinforced-unit-model-counts: 1 + 19 Crypt Ghouls, the champion's model its own selection
    ("red-crypt-ghouls", 20, {"Champion": 1}),
    # champion-split-model-counts: the champion an upgrade inside a model selection of 1
    ("red-crypt-flayers", 2, {"Champion": 1}),
    # model-count-in-display-name: "(2 Models)" is the entry's name; the models are 3
    ("red-crypt-flayers-2", 3, {"Champion": 1}),
    # champion-and-musician-model-counts: each role on a model of its own
    ("red-cryptguard", 10, {"Champion": 1, "Musician": 1, "Standard Bearer": 1}),
    ("red-royal-terrorgheist", 1, {}),
])
def test_model_counts_and_unit_command_roles(fec, uid, models, roles):
    u = fec["units"][uid]
    assert len(u.models) == models
    got: dict[str, int] = {}
    for m in u.models:
        for role in m.extra.get("command") or {}:
            got[role] = got.get(role, 0) + 1
        assert len(m.extra.get("command") or {}) <= 1, "one role a model"
    assert got == roles


def test_a_units_name_leaves_off_the_catalogues_model_count(fec):
    flayers = [u for u in fec["scene"].units if u.name.startswith("Crypt Flayers")]
    assert [u.name for u in flayers] == ["Crypt Flayers", "Crypt Flayers"]
    assert "(2 Models)" not in fec["path"].read_text()


def test_duplicate_units_get_distinct_ids(fec):
    ids = [u.id for u in fec["scene"].units]
    assert len(ids) == len(set(ids))
    assert {"red-royal-decapitator", "red-royal-decapitator-2"} <= set(ids)


def test_a_seasonal_variant_is_its_own_warscroll(fec):
    base = fec["units"]["red-royal-decapitator"]
    aqshy = fec["units"]["red-royal-decapitator-scourge-of-aqshy"]
    assert aqshy.name == "Royal Decapitator (Scourge of Aqshy)"
    names = {a["name"] for a in aqshy.extra["abilities"]}
    assert "Executioner and Enforcer" in names
    assert names != {a["name"] for a in base.extra["abilities"]}


def test_the_regiment_and_the_general(fec):
    """nested-regiment-force, general-upgrade: every unit in the list's one Regiment, led by
    the general; the composition check finds the general (and the regiment too big: a warning,
    as the list is illegal)."""
    assert {u.extra.get("regiment") for u in fec["scene"].units
            if "MANIFESTATION" not in u.keywords} == {"red-regiment-1"}
    generals = [u.id for u in fec["scene"].units if u.extra.get("general")]
    assert generals == ["red-abhorrant-archregent"]
    assert "no unit is the general" not in fec["err"]
    assert "army composition: regiment 1 has 5 units that are not HEROES" in fec["err"]


def test_enhancements_are_the_heros_abilities(fec):
    """enhancement-artefact, enhancement-heroic-trait: shown among the bearer's abilities."""
    hero = fec["units"]["red-abhorrant-archregent"]
    names = [a["name"] for a in hero.extra["abilities"]]
    assert {"Charnel Vestments", "Cruel Taskmaster"} <= set(names)
    for other in fec["scene"].units:
        if other is not hero:
            assert "Charnel Vestments" not in {a["name"] for a in other.extra["abilities"]}


def test_the_armys_spell_lore_is_its_wizards(fec):
    """spell-lore: the Spell Lore's spells are known by every WIZARD of the army - as a spell
    the engine casts when its reader reads the whole text, else as a spell ability declared
    and applied by hand (Charnel Feast: mortal damage and a heal, not read whole); a unit that
    is no WIZARD knows none."""
    for u in fec["scene"].units:
        spells = [s["name"] for s in u.extra.get("spells") or []]
        spells += [a["name"] for a in u.extra.get("abilities") or []
                   if a.get("kind") == "spell" and a["name"] == "Charnel Feast"]
        if "WIZARD" in u.keywords:
            assert "Charnel Feast" in spells, u.id
        else:
            assert spells == [], u.id
    assert all(not u.extra.get("prayers") for u in fec["scene"].units
               if "PRIEST" not in u.keywords)              # prayer-lore: no PRIEST, no prayer


def test_a_manifestation_lores_manifestation_waits_in_reserve_and_is_never_deployed(fec):
    """manifestation-lore: the manifestation is a `unit` selection of the lore, summoned during
    the battle: in the scene (the list imports whole) in reserve, never set up or deployed,
    said once."""
    (u,) = [u for u in fec["scene"].units if "geminids" in u.id]
    assert u.reserve and "MANIFESTATION" in u.keywords
    lines = [x for x in fec["err"].splitlines() if "summoned by its spell" in x]
    assert len(lines) == 1 and "Geminids of Uhl-Gysh" in lines[0], fec["err"]
    assert "in reserve" in lines[0]     # never deployed: tests/rules/aos4/seed000/test_deployment


def test_legality_markers_and_army_composition_slots_are_not_diagnostics(fec):
    """illegal-units-marker, undersize-unit-marker, battle-formation, battle-tactic-cards,
    allow-legends-configuration, unicode-force-name: none is a unit, a keyword or a warning."""
    text = fec["path"].read_text(encoding="utf-8")
    for word in ("Illegal Units", "Undersize Unit", "Regimental Leader", "Battle Formation",
                 "Battle Tactic", "Allow Legends", "Royal Hunt", "✦"):
        assert word not in text and word not in fec["err"], word
    assert all(k == k.upper() for u in fec["scene"].units for k in u.keywords)
    assert "MONSTER" in fec["units"]["red-royal-terrorgheist"].keywords


def test_the_json_export_with_a_numeric_id_imports_as_the_ros(fec, bsdata, tmp_path):
    """New Recruit's JSON of the same list (numeric-selection-id: an id of digits is a JSON
    number; a rule's description a key) imports to the very scene the .ros does."""
    root = ET.parse(FEC).getroot()
    first = next(s for s in root.iter(NS + "selection") if s.get("type") == "unit")
    first.set("id", "1234567")
    doc = {"roster": as_new_recruit_json(root)}
    doc_text = json.dumps(doc, ensure_ascii=False).replace('"id": "1234567"', '"id": 1234567')
    assert '"id": 1234567,' in doc_text                  # a JSON number, as New Recruit types it
    path = tmp_path / "shapes-fec.json"
    path.write_text(doc_text, encoding="utf-8")
    out = tmp_path / "b.yaml"
    assert main(["army", "import", str(path), "-o", str(out), "--catalogues",
                 str(bsdata)]) == 0
    body = [x.split("\n", 1)[1] for x in (fec["path"].read_text(), out.read_text())]
    assert body[0] == body[1]


def test_an_auxiliary_force_of_a_legends_faction_with_its_terrain(bsdata, tmp_path, capsys):
    """auxiliary-force, legends-faction, duplicate-composition-slots, faction-terrain,
    zero-cost-limit: the "Auxillary Units" force's units (no regiment), the same unit twice,
    faction terrain as a piece; into the kitchen-sink list as blue, set up, it validates."""
    red, both = tmp_path / "red.yaml", tmp_path / "both.yaml"
    cats = ["--catalogues", str(bsdata)]
    assert main(["army", "import", str(FEC), "-o", str(red), *cats, "--deploy"]) == 0
    assert main(["army", "import", str(BOC), "-o", str(both), "--into", str(red),
                 "--side", "blue", "--deploy", *cats]) == 0
    err = capsys.readouterr().err
    scene = load_scene(both)
    blue = [u for u in scene.units if u.side == "blue"]
    assert sorted(u.id for u in blue) == ["blue-chimera", "blue-gors", "blue-gors-2"]
    assert all("regiment" not in u.extra for u in blue)
    assert all(u.extra.get("auxiliary") is True for u in blue)      # the extra command point
    assert not any("auxiliary" in u.extra for u in scene.units if u.side == "red")
    assert any(p.id == "blue-herdstone" for p in scene.terrain)
    assert "over its limit" not in err                 # a points limit of 0 is none
    assert main(["validate", str(both)]) == 0
