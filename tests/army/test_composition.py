"""Army composition (seed 000's Army Composition, as the data words it): a scenario table of small
rosters in New Recruit's shape (the army's force, its regiments as child forces named Regiment,
the General and Reinforced upgrades, the roster's points and limit), each with what it breaks;
`army import` warns of a breach, and with --strict refuses the list in one line, exit 2."""

from __future__ import annotations

import pytest

from battlefield.army.composition import breaches
from battlefield.army.roster import read_roster
from battlefield.cli.main import main

from .conftest import DATA


def unit(name: str, *categories: str, upgrades: tuple[str, ...] = ()) -> str:
    cats = "".join(f'<category name="{c}" />' for c in categories)
    ups = "".join(f'<selection name="{u}" type="upgrade" number="1" />' for u in upgrades)
    return (f'<selection name="{name}" type="unit" number="1"><selections>'
            f'<selection name="{name}" type="model" number="1" />{ups}</selections>'
            f'<categories>{cats}</categories></selection>')


AUXILIARY_FORCE = ('<force name="Auxillary Units" entryId="6084-3baa-f00b-ac0a::'
                   '8732-47c4-9f1c-e71e" catalogueName="Stormcast Eternals"><selections>'
                   '{}</selections></force>')       # New Recruit's, "Auxillary" as it spells it


def roster(*regiments: list[str], auxiliary: tuple[str, ...] = (), points: int = 1000,
           limit: int = 2000, auxiliary_force: tuple[str, ...] = ()) -> str:
    forces = "".join(f'<force name="Regiment" catalogueName="Stormcast Eternals"><selections>'
                     f'{"".join(r)}</selections></force>' for r in regiments)
    if auxiliary_force:
        forces += AUXILIARY_FORCE.format("".join(auxiliary_force))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<roster name="t" gameSystemName="Age of Sigmar 4.0" '
            f'xmlns="http://www.battlescribe.net/schema/rosterSchema">'
            f'<costs><cost name="pts" typeId="points" value="{points}" /></costs>'
            f'<costLimits><costLimit name="pts" typeId="points" value="{limit}" /></costLimits>'
            f'<forces><force name="General\'s Handbook" catalogueName="Stormcast Eternals">'
            f'<selections>{"".join(auxiliary)}</selections><forces>{forces}</forces></force>'
            f'</forces></roster>')


LORD = unit("Lord-Vigilant", "HERO", "Regimental Leader", upgrades=("General",))
KNIGHT = unit("Knight-Arcanum", "HERO", "Regimental Leader")
LIB = [unit(f"Liberators {k}", "INFANTRY") for k in range(5)]
CASES = [
    ("legal", roster([LORD, *LIB[:4]], [KNIGHT, *LIB[:3]]), []),
    ("no general", roster([KNIGHT, LIB[0]]), ["no unit is the general"]),
    ("two generals", roster([LORD, LIB[0]], [unit("Lord-Relictor", "HERO", upgrades=(
        "General",))]), ["2 units are the general"]),
    ("a regiment without a hero", roster([LORD], [LIB[0], LIB[1]]),
     ["regiment 2 ('Liberators 0', 'Liberators 1') has no HERO to lead it"]),
    ("four others outside the general's regiment", roster([LORD], [KNIGHT, *LIB[:4]]),
     ["regiment 2 has 4 units that are not HEROES ('Liberators 0', 'Liberators 1', "
      "'Liberators 2', 'Liberators 3'); a regiment takes at most 3"]),
    ("five in the general's regiment", roster([LORD, *LIB]),
     ["the general's regiment takes at most 4"]),
    ("a second hero is no breach", roster([LORD, unit("Lord-Veritant", "HERO"), *LIB[:4]]), []),
    ("an auxiliary general", roster([KNIGHT], auxiliary=(LORD,)),
     ["the general 'Lord-Vigilant' leads no regiment"]),
    ("the general is no hero", roster([KNIGHT, unit("Prosecutors", upgrades=("General",))]),
     ["the general 'Prosecutors' is not a HERO"]),
    ("a warmaster passed over", roster([LORD], [unit("Gardus", "HERO", "WARMASTER")]),
     ["a WARMASTER must be the general"]),
    ("a unique unit twice", roster([LORD, unit("Gardus", "HERO", "UNIQUE"),
                                    unit("Gardus", "HERO", "UNIQUE")]),
     ["'Gardus' is UNIQUE but is in the list 2 times"]),
    ("a unique unit reinforced", roster([LORD, unit("Gardus", "HERO", "UNIQUE",
                                                    upgrades=("Reinforced",))]),
     ["'Gardus' is UNIQUE and cannot be reinforced"]),
    ("over the points limit", roster([LORD], points=2010), ["2010 points, over its limit of 2000"]),
    ("no limit", roster([LORD], points=5000, limit=0), []),
]


@pytest.mark.parametrize(("case", "text", "said"), CASES, ids=[c[0] for c in CASES])
def test_composition_rulings(tmp_path, case, text, said):
    path = tmp_path / "list.ros"
    path.write_text(text, encoding="utf-8")
    got = breaches(read_roster(path))
    if not said:
        assert got == [], (case, got)
    assert len(got) == len(said), (case, got)
    for words in said:
        assert any(words in b for b in got), (case, words, got)


# Which units are auxiliary (seed 000: taken "without regiment constraints"; the side with the
# fewest gains an extra command point each battle round): each unit's name, in list order.
AUXILIARY_CASES = [
    ("regiments only", roster([LORD, LIB[0]], [KNIGHT]), []),
    ("New Recruit's auxiliary force", roster([LORD], auxiliary_force=(KNIGHT, LIB[1])),
     ["Knight-Arcanum", "Liberators 1"]),
    ("straight in the army's force beside regiments", roster([LORD], auxiliary=(LIB[2],)),
     ["Liberators 2"]),
    ("a list without regiments has none", roster(auxiliary=(LORD, LIB[0])), []),
]


@pytest.mark.parametrize(("case", "text", "want"), AUXILIARY_CASES,
                         ids=[c[0] for c in AUXILIARY_CASES])
def test_auxiliary_units(tmp_path, case, text, want):
    path = tmp_path / "list.ros"
    path.write_text(text, encoding="utf-8")
    r = read_roster(path)
    assert [e.name for k, e in enumerate(r.units) if r.auxiliary(k)] == want, case


def test_import_warns_of_a_breach_and_strict_refuses_it(tmp_path, bsdata, capsys):
    out = tmp_path / "out.yaml"
    lst = DATA / "stormcast.ros"                   # a list without a general
    assert main(["army", "import", str(lst), "-o", str(out), "--catalogues", str(bsdata)]) == 0
    err = capsys.readouterr().err
    assert "army composition: no unit is the general" in err and out.exists()
    out.unlink()
    assert main(["army", "import", str(lst), "-o", str(out), "--catalogues", str(bsdata),
                 "--strict"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "army composition: no unit is the general" in err
    assert "Traceback" not in err and not out.exists()
