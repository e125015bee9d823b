"""`battlefield army coverage`: what battlefield makes of every catalogue, each figure asked of
the importer, aos4 and the effect reader (README shows the figures)."""

from __future__ import annotations

import json

import pytest

import battlefield.army.coverage as cov
from battlefield.army import store
from battlefield.cli.main import main


@pytest.fixture(scope="module")
def figures(bsdata):
    return cov.coverage(bsdata)


@pytest.fixture
def counted(figures, bsdata, monkeypatch):
    """The command's figures are the module's (worked out once: each pass over the 132
    catalogues costs seconds); the folders it was asked about are listed."""
    asked: list[str] = []

    def coverage(folder):
        asked.append(str(folder))
        assert str(folder) == str(bsdata)
        return figures

    monkeypatch.setattr(cov, "coverage", coverage)
    return asked


@pytest.fixture
def few(bsdata, tmp_path):
    """A folder with the game system, the shared catalogues and two factions (with their
    libraries): a whole pass of coverage, over a tenth of the data."""
    out = tmp_path / "few"
    out.mkdir()
    for f in bsdata.iterdir():
        if f.suffix == ".gst" or f.name.startswith(("Stormcast Eternals", "Fyreslayers",
                                                    "Lores")):
            (out / f.name).symlink_to(f)
    return out


def test_the_json_has_the_keys_the_issue_names(bsdata, capsys, counted):
    assert main(["army", "coverage", "--catalogues", str(bsdata), "--json"]) == 0
    assert counted == [str(bsdata)]
    d = json.loads(capsys.readouterr().out)
    assert set(d["units"]) == {"mapped", "total"}
    assert set(d["weapons"]) == {"imported", "total"}
    assert set(d["weapon_abilities"]) == {"played", "total", "unplayed"}
    assert {"played", "shown", "total", "by_kind"} <= set(d["abilities"])
    assert all(isinstance(n, int) for n in d["weapon_abilities"]["unplayed"].values())


def test_the_figures_hold_together(figures):
    u, w, wa, a = (figures["units"], figures["weapons"], figures["weapon_abilities"],
                   figures["abilities"])
    assert u["total"] > 1000 and u["total"] - u["mapped"] <= 10
    assert 0 < w["imported"] <= w["total"] and w["total"] - w["imported"] < 50
    assert wa["played"] + sum(wa["unplayed"].values()) == wa["total"]
    # every spelling of Anti-X and the crits is played, and Companion, Shoot in Combat and
    # Charge (+1 Damage); the factions' own abilities are listed
    assert wa["played"] > 1400
    assert not any(k.lower().startswith(("anti", "anit", "crit")) for k in wa["unplayed"])
    assert not {"companion", "shoot-in-combat", "charge-damage"} & set(wa["unplayed"])
    assert "Blood-hungry" in wa["unplayed"]
    assert sum(a["by_kind"].values()) == a["total"] == a["kept"] > 1800
    assert set(a["by_kind"]) == {"passive", "activated", "command", "spell", "prayer"}
    # every ability is shown (at its timing, a passive one on its unit's hover); the engine
    # plays the spells and prayers magic plays and what passives and activated play whole
    assert a["shown"] == a["total"] and sum(a["shown_by_kind"].values()) == a["total"]
    assert 0.14 * a["total"] < a["played"] < a["total"]
    assert sum(a["played_by_kind"].values()) == a["played"]
    assert a["played_by_kind"]["passive"] > 90 and a["played_by_kind"]["activated"] > 50
    assert a["readable"] >= 0.1 * a["total"]
    assert len(a["unread_shapes"]) == cov.SHAPES
    assert figures["own_weapons"]["units"] > 20


def test_the_readme_says_the_figures_coverage_gives(figures):
    """README's table of the abilities read and played is army coverage's, word for word."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    a = figures["abilities"]
    for label, n in (("read whole by the effect reader", a["readable"]),
                     ("played by the engine", a["played"])):
        m = re.search(r"\| \.\.\. " + label + r"[^|]*\| ([\d,]+) of ([\d,]+) \| ([\d.]+)% \|",
                      readme)
        assert m is not None, label
        assert int(m.group(1).replace(",", "")) == n, label
        assert int(m.group(2).replace(",", "")) == a["total"]
        assert m.group(3) == f"{100 * n / a['total']:.1f}", label


def test_played_is_asked_of_the_engine_not_written_down(few, monkeypatch):
    assert cov.coverage(few)["weapon_abilities"]["played"] > 0
    monkeypatch.setattr(cov.aos4_weapons, "played", lambda ability: False)
    monkeypatch.setattr(cov.effects, "read", lambda ability: None)
    d = cov.coverage(few)
    assert d["weapon_abilities"]["played"] == 0 and d["abilities"]["readable"] == 0
    # nothing read, nothing played but the spells and prayers magic plays
    assert set(d["abilities"]["played_by_kind"]) <= {"spell", "prayer"}
    assert sum(d["weapon_abilities"]["unplayed"].values()) == d["weapon_abilities"]["total"]


def test_the_cache_by_default_and_a_clear_line_without_it(bsdata, monkeypatch, capsys,
                                                        counted):
    assert main(["army", "coverage"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "army catalogues update" in err
    monkeypatch.setattr(store, "cached", lambda: store.Cached(bsdata, "v1", "test", "now", 133))
    assert main(["army", "coverage"]) == 0
    out = capsys.readouterr().out
    assert "units mapped" in out and "weapon abilities played" in out
    assert "commonest shapes the effect reader does not read" in out


def test_an_import_says_how_many_of_its_abilities_the_engine_plays(bsdata, tmp_path, capsys):
    """The import's note counts what `army coverage` counts, unit by unit (unit_plays): the
    Stormcast list's Prosecutors' 'Heralds of Righteousness' and Ionus' 'Battle Damaged'
    (passives read whole) are played; a spell imported as the unit's spell is played; an
    ability the engine does not play is not counted."""
    from pathlib import Path

    import yaml

    roster = Path(__file__).parent / "data" / "stormcast.ros"
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(roster), "-o", str(out), "--catalogues",
                 str(bsdata)]) == 0
    said = capsys.readouterr().out
    units = yaml.safe_load(out.read_text())["units"]
    plays = {u["id"]: cov.unit_plays(u) for u in units}
    assert plays["red-prosecutors"] == ["Heralds of Righteousness"]
    assert "Battle Damaged" in plays["red-ionus-cryptborn-warden-of-lost-souls"]
    kept = sum(len(u.get("abilities", ())) for u in units)
    assert f"{kept} abilities of the roster's units kept" in said
    assert f"{sum(map(len, plays.values()))} played by the engine" in said
    spell = {"name": "Bolt", "kind": "spell", "timing": "", "declare": "", "effect": "x"}
    unit = {"abilities": [spell, {**spell, "name": "Other"}], "spells": [{"name": "Bolt"}]}
    assert cov.unit_plays(unit) == ["Bolt"]
