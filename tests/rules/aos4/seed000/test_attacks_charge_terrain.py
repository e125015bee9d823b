"""A charge that would end half on a piece taller than 1": the charge odds count only ends play
accepts ("Models cannot end a move mid-climb or mid-jump"), so odds and play agree.

Scene: red (one 32 mm model, radius R = 0.629921") at (10, 22) charges blue at (BX, 22); a wall
2" tall (climbed: taller than 1") stands at x 12 to 12.5 across the board. A charge ends within
1/2" of blue: red's centre between BX - 2R - 1/2 and BX - 2R (the bases touching); red stands
half on the wall while its base spans x 12 or 12.5 (centre between 12 - R = 11.370 and
12.5 + R = 13.130).
"""

from __future__ import annotations

import math

import pytest

from battlefield.rules.aos4.charge import charge_odds
from battlefield.rules.aos4.rules import RULESET
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from ._moves import R, codes, play

WALL = ("  - {id: wall, outline: [[12, 0], [12.5, 0], [12.5, 44], [12, 44]], height: 2, "
        "kind: obstacle}\n")


def charge_scene(bx: float) -> str:
    return f"""ruleset: aos4
board: {{width: 60, depth: 44}}
terrain:
{WALL}units:
  - {{id: red, side: red, stats: {{move: 5, health: 1, save: 4}},
      models: [{{base: 32, at: [10, 22]}}]}}
  - {{id: blue, side: blue, stats: {{move: 5, health: 1, save: 4}},
      models: [{{base: 32, at: [{bx}, 22]}}]}}
state:
  round: 1
  phase: charge
  active: red
  acting: red
  clock: {{round: 1, turn: 1, active: red, first: red, phase: charge, acting: red,
          over: false, underdog: null}}
  sides:
    red: {{cp: 0, vp: 0, commands: [], spells: [], prayers: []}}
    blue: {{cp: 0, vp: 0, commands: [], spells: [], prayers: []}}
  objectives: {{}}
  units: {{}}
  dice: 1
"""


def odds(bx: float):
    return charge_odds(RULESET.book, Referee(load_scene_text(charge_scene(bx))), 0, 1)


# blue at x 14.5. The nearest end (1/2" from blue) is x 14.5 - 2R - 0.5 = 12.740: its base spans
# 12.110 to 13.370, half on the wall -> play refuses it (straddles_terrain), so the odds may not
# count its 2.740" + 2" up = 4.740". The first end play takes is just past the wall, its base
# wholly on the ground: centre x 12.5 + R = 13.130 (the check's 64-sided base: 13.128), 0.11"
# from blue, still within 1/2": 3.128" of ground + 2" up the wall (the drop beyond it ends the
# move) = 5.128" -> 6+ on 2D6: 26/36 (the old answer, 5+, was 30/36).
def test_the_odds_count_no_end_half_on_the_wall_and_play_agrees():
    o = odds(14.5)
    assert o.needed == pytest.approx(3.1299 + 2, abs=3e-3)
    assert o.probability == pytest.approx(26 / 36)
    end = o.path[-1]
    assert end[0] == pytest.approx(12.5 + R, abs=3e-3)
    # play: the odds' own path with a charge roll of 6 (3 + 3) is a charge; the nearest end
    # 1/2" from blue (x 12.740) is refused, whatever the roll
    _, (r,) = play(charge_scene(14.5), {"type": "charge", "unit": "red", "target": "blue",
                                        "path": [list(end)]}, dice=[3, 3])
    assert r["legal"], r["violations"]
    assert any(e.get("type") == "charged" for e in r["events"]), r["events"]
    _, (r,) = play(charge_scene(14.5), {"type": "charge", "unit": "red", "target": "blue",
                                        "path": [[14.5 - 2 * R - 0.5, 22]]}, dice=[6, 6])
    assert codes(r) == ["straddles_terrain"]


# blue at x 14.0: every end on the straight line within 1/2" of blue (centre 12.240 to 12.740,
# the bases touching at the far end) is half on the wall (centre between 11.370 and 13.130):
# play refuses the nearest and the touching one. The odds count neither: their charge ends off
# the line, beside blue and wholly past the wall, and play takes that very path with a roll of
# its length rounded up (not one less).
@pytest.mark.parametrize("x", [14.0 - 2 * R - 0.5, 14.0 - 2 * R - 0.001])
def test_no_end_on_the_line_when_it_is_half_on_the_wall(x):
    _, (r,) = play(charge_scene(14.0), {"type": "charge", "unit": "red", "target": "blue",
                                        "path": [[x, 22]]}, dice=[6, 6])
    assert "straddles_terrain" in codes(r)
    o = odds(14.0)
    end = o.path[-1]
    assert end[1] != pytest.approx(22.0, abs=0.1) and end[0] > 12.5 + R - 3e-3
    roll = math.ceil(o.needed)
    assert o.probability == pytest.approx(sum(a + b >= roll for a in range(1, 7)
                                              for b in range(1, 7)) / 36)
    for dice, made in (([roll // 2, roll - roll // 2], True),
                       ([(roll - 1) // 2, roll - 1 - (roll - 1) // 2], False)):
        _, (r,) = play(charge_scene(14.0), {"type": "charge", "unit": "red", "target": "blue",
                                            "path": [list(end)]}, dice=dice)
        assert r["legal"], r["violations"]
        assert any(e.get("type") == "charged" for e in r["events"]) is made, r["events"]
