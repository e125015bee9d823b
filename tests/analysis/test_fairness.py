"""Per-side figures, their differences and the verdict; two layouts compared."""

from __future__ import annotations

import pytest

from battlefield.analysis import fairness
from battlefield.analysis.survey import survey

from ._build import make_map, piece, rect

ZONES = {"red": rect(0, 0, 60, 8), "blue": rect(0, 36, 60, 44)}
OBJECTIVES = [{"id": "west", "at": [15, 22]}, {"id": "centre", "at": [30, 22]},
              {"id": "east", "at": [45, 22]}]


def figures(scene, spacing=2.0):
    return survey(scene, spacing).figures


def test_an_open_symmetric_board_is_fair():
    f = figures(make_map(objectives=OBJECTIVES, deployment=ZONES))
    assert f["visible_fraction"] == 1.0
    assert f["verdict"]["fair"] is True and f["verdict"]["favours"] is None
    assert f["verdict"]["text"].startswith("fair: every difference under 5%")
    assert "symmetric" in f["verdict"]["text"]
    assert f["fairness"]["differences"]["reach_mean"] == 0.0
    assert f["sight"]["zone_to_zone"] == {"red|blue": 1.0}
    for side in ("red", "blue"):
        s = f["sides"][side]
        assert s["objective_sight"] == {"west": 1.0, "centre": 1.0, "east": 1.0}
        assert s["hidden_from_enemy"] == 0.0
        assert f["reach"][side]["centre"]["inches"] == pytest.approx(14.0)
        assert f["reach"][side]["centre"]["turns"] == 3


def test_a_screen_and_a_block_before_one_zone_favour_the_other_side():
    screen = piece("screen", rect(5, 30, 55, 31), 6, "obscuring")
    block = piece("block", rect(25, 32, 35, 35.5), 4, "impassable")
    f = figures(make_map([screen, block], OBJECTIVES, ZONES))
    v = f["verdict"]
    assert v["fair"] is False and v["favours"] == "red", v["text"]
    assert "objective_sight_mean" in v["drivers"]
    assert v["text"].startswith("favours red")
    assert f["sides"]["blue"]["objective_sight_mean"] < f["sides"]["red"]["objective_sight_mean"]
    assert f["sides"]["blue"]["hidden_from_enemy"] > f["sides"]["red"]["hidden_from_enemy"]
    assert f["reach"]["blue"]["centre"]["inches"] > f["reach"]["red"]["centre"]["inches"]
    assert f["symmetry"]["swaps_sides_under"] == []          # left-right only: no swap
    assert "keeps each side where it is" in v["text"]
    rows = {r["figure"]: r for r in f["fairness"]["rows"]}
    assert rows["reach_mean"]["favours"] == "red"
    assert rows["reach_mean"]["difference"] < 0           # red - blue: red marches less


def test_a_map_without_zones_or_objectives_still_gets_the_board_figures():
    wall = piece("wall", rect(29.9, 0, 30.1, 44), 10)
    f = figures(make_map([wall]))
    assert f["visible_fraction"] == pytest.approx(329 / 659, abs=1e-6)
    assert f["sides"] == {} and f["reach"] == {} and f["sight"]["zone_to_zone"] == {}
    assert f["verdict"]["fair"] is None and "no deployment zones" in f["verdict"]["text"]
    assert f["symmetry"]["symmetric_under"] == ["rotation", "mirror-left-right",
                                               "mirror-front-back"]


def test_gaps_are_points_of_a_share_or_a_part_of_a_distance():
    assert fairness.gap(0.50, 0.44, "share", 5) == pytest.approx(0.06)
    assert fairness.gap(10.0, 9.0, "inches", 5) == pytest.approx(0.1)
    assert fairness.gap(0.5, 0.25, "inches", 5) == pytest.approx(0.05)   # under a move


def test_two_layouts_compared():
    a = figures(make_map(objectives=OBJECTIVES, deployment=ZONES, name="open"))
    screen = piece("screen", rect(5, 30, 55, 31), 6, "obscuring")
    b = figures(make_map([screen], OBJECTIVES, ZONES, name="screened"))
    c = fairness.compare(a, b)
    assert c["maps"] == ["open", "screened"]
    rows = {r["figure"]: r for r in c["rows"]}
    assert rows["visible_fraction"]["a"] == 1.0
    assert rows["visible_fraction"]["difference"] < 0
    assert rows["blue.objective_sight_mean"]["b"] < 1.0
    assert c["fairer"] == "open"
