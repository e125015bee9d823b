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


def test_the_json_has_the_keys_the_issue_names(bsdata, capsys):
    assert main(["army", "coverage", "--catalogues", str(bsdata), "--json"]) == 0
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
    # every spelling of Anti-X and the crits is played; what aos4 keeps but does not play yet
    # and the factions' own abilities are listed
    assert wa["played"] > 700
    assert not any(k.lower().startswith(("anti", "anit", "crit")) for k in wa["unplayed"])
    assert {"companion", "shoot-in-combat", "charge-damage", "Blood-hungry"} <= set(
        wa["unplayed"])
    assert sum(a["by_kind"].values()) == a["total"] == a["kept"] > 1800
    assert set(a["by_kind"]) == {"passive", "activated", "command", "spell", "prayer"}
    assert 0 < a["played"] < a["total"] and a["shown"] == 0
    assert a["readable"] >= 0.1 * a["total"]
    assert len(a["unread_shapes"]) == cov.SHAPES
    assert figures["own_weapons"]["units"] > 20


def test_played_is_asked_of_the_engine_not_written_down(bsdata, monkeypatch):
    monkeypatch.setattr(cov.aos4_weapons, "played", lambda ability: False)
    monkeypatch.setattr(cov.effects, "read", lambda ability: None)
    d = cov.coverage(bsdata)
    assert d["weapon_abilities"]["played"] == 0 and d["abilities"]["readable"] == 0
    assert sum(d["weapon_abilities"]["unplayed"].values()) == d["weapon_abilities"]["total"]


def test_the_cache_by_default_and_a_clear_line_without_it(bsdata, monkeypatch, capsys):
    assert main(["army", "coverage"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "army catalogues update" in err
    monkeypatch.setattr(store, "cached", lambda: store.Cached(bsdata, "v1", "test", "now", 133))
    assert main(["army", "coverage"]) == 0
    out = capsys.readouterr().out
    assert "units mapped" in out and "weapon abilities played" in out
    assert "commonest shapes the effect reader does not read" in out
