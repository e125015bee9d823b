"""Every unit of every catalogue imports into a scene `battlefield validate` takes: each unit a
list can field, mapped as `army units` maps it (every weapon of the entry, each model with its
own, every ability), is set up by the import's own path (writer.place_army, six units a scene
beside one enemy) and written by write_scene, which checks the scene first; then `validate`
passes every file. And a scene the checks refuse is never written."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlefield.army.catalogue import Catalogues
from battlefield.army.convert import ImportProblem, convert
from battlefield.army.writer import Army, place_army, write_scene
from battlefield.cli.main import main

INTO = """ruleset: aos4
board: {width: 60, depth: 44}
units:
  - id: blue-sentry
    side: blue
    stats: {move: 5, health: 1, save: 4, control: 1}
    weapons: [{name: Spear, attacks: 1, hit: 4, wound: 4, damage: 1, abilities: [ABILITY]}]
    models: [{base: 32, at: [58, 42]}]
"""
PER_SCENE = 6


def test_every_unit_of_every_catalogue_imports_and_validates(bsdata, tmp_path, capsys):
    into = tmp_path / "into.yaml"
    into.write_text(INTO.replace("ABILITY", "crit-mortal"))
    cats = Catalogues.read(bsdata)
    units = {}
    for f in sorted(bsdata.glob("*.cat")):
        for e in cats.units(str(f)):
            units.setdefault(e.name, e)
    converted, unmapped = [], []
    for name, e in units.items():
        try:
            converted.append(convert(e, True, all_weapons=True))
        except ImportProblem:
            unmapped.append(name)
    assert len(units) > 1000 and len(unmapped) <= 10, unmapped
    files: list[str] = []
    own = anti = abilities = 0
    for k in range(0, len(converted), PER_SCENE):
        army = Army("every unit")
        for c in converted[k:k + PER_SCENE]:
            army.add(c)
        out = tmp_path / f"scene-{k // PER_SCENE:03d}.yaml"
        got = place_army(army, out, "red", str(into))
        write_scene(got, out, "red", False)
        files.append(str(out))
        own += sum(any("weapons" in m for m in u["models"]) for u in got.units)
        anti += sum("anti-" in a for u in got.units for w in u["weapons"]
                    for a in w.get("abilities", ()))
        abilities += sum(len(u.get("abilities", ())) for u in got.units)
    capsys.readouterr()
    assert main(["validate", *files]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert out.count(": ok (aos4") == len(files)
    assert own > 20 and anti > 100 and abilities > 2000


def test_a_scene_the_checks_refuse_is_never_written(tmp_path, capsys):
    """--into a scene holding a weapon ability aos4 does not know: refused, nothing written."""
    into = tmp_path / "into.yaml"
    into.write_text(INTO.replace("ABILITY", "blood-hungry"))
    out = tmp_path / "s.yaml"
    roster = Path(__file__).parent / "data" / "stormcast.ros"
    assert main(["army", "import", str(roster), "-o", str(out), "--into", str(into)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "blood-hungry" in err[-1] and not out.exists()


def test_a_mistyped_into_scene_says_did_you_mean(tmp_path, capsys):
    out = tmp_path / "s.yaml"
    roster = Path(__file__).parent / "data" / "stormcast.ros"
    assert main(["army", "import", str(roster), "-o", str(out), "--into", "dmeo"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "no such scene file; did you mean demo?" in err[-1] and not out.exists()


@pytest.mark.parametrize("spec, grown", [(32, {"round": 32.0}), ([60, 35], {"oval": [60, 35]}),
                                         ({"rect": [100, 50]}, {"rect": [100, 50]})])
def test_bases_are_laid_out_grown_round_their_true_outline(spec, grown):
    from battlefield.army.writer import LAYOUT, _grown

    got = _grown(spec)
    (kind, size), = got.items()
    assert kind == next(iter(grown))
    want = next(iter(grown.values()))
    factor = 1 if kind == "rect" else LAYOUT
    assert size == pytest.approx([x * factor for x in want] if isinstance(want, list)
                                 else want * factor)
