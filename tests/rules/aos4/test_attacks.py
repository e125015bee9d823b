"""The attack sequence's exact odds, checked against hand-worked probabilities."""

import pytest

from battlefield.rules.aos4 import attacks as seq
from battlefield.rules.aos4.odds import attack_odds
from battlefield.rules.aos4.weapons import weapon_from
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text


def w(**kw):
    base = {"name": "w", "attacks": 1, "hit": 4, "wound": 4, "rend": 0, "damage": 1}
    return weapon_from({**base, **kw})


def test_one_attack_four_up_everything():
    d = seq.attack_dist(w(), save=4)
    assert d == pytest.approx([7 / 8, 1 / 8])


def test_crit_two_hits_mean():
    # Hit 3+: 3, 4, 5 hit (1/2), 6 is two hits (1/6). Each hit wounds on 4+ (1/2) and gets
    # through a 4+ save with rend 1 (saved on 5+: 1/3): 1/3 of a damage per hit.
    d = seq.attack_dist(w(hit=3, rend=1, abilities=["crit-2-hits"]), save=4)
    assert seq.mean(d) == pytest.approx(1 / 2 * 1 / 3 + 1 / 6 * 2 / 3)


def test_crit_mortal_skips_wound_and_save():
    d = seq.attack_dist(w(wound=6, damage=2, abilities=["crit-mortal"]), save=2)
    # A 6 to hit: 2 mortal damage. 4, 5 hit, wound on 6 (1/6), save 2+ fails only on 1 (1/6).
    assert d[2] == pytest.approx(1 / 6 + 2 / 6 * 1 / 6 * 1 / 6)


def test_ward_negates_each_point():
    # Hit 2+, wound 2+, no save, damage 2, ward 5+ (each point kept 2/3).
    d = seq.attack_dist(w(hit=2, wound=2, damage=2), save=None,
                        mods=seq.Modifiers(ward=5))
    hit = 25 / 36
    assert d[2] == pytest.approx(hit * 4 / 9)
    assert d[1] == pytest.approx(hit * 4 / 9)
    assert sum(d) == pytest.approx(1)


def test_dice_attacks_and_damage():
    d = seq.volley_dist(w(attacks="D3", hit=1, wound=1, damage="D3"), 1, None,
                        seq.Modifiers())
    # Hit/wound on 1+ still fail on an unmodified 1: each attack lands 25/36.
    assert seq.mean(d) == pytest.approx(2 * 25 / 36 * 2)


def test_damage_capped_and_models_slain():
    d = seq.capped(seq._power(seq.attack_dist(w(hit=1, wound=1), None), 10), 3)
    assert len(d) == 4 and sum(d) == pytest.approx(1)
    s = seq.slain(d, health=2, models=2)
    assert s[1] == pytest.approx(d[2] + d[3])


SCENE = """
ruleset: aos4
board: {{width: 60, depth: 44}}
terrain: [{terrain}]
units:
  - id: archers
    side: red
    weapons: [{{name: bows, range: 10, attacks: 1, hit: 4, wound: 4, damage: 1}}]
    models: [{{base: 32, at: [10, 20]}}, {{base: 32, at: [10, 10]}}]
  - id: target
    side: blue
    stats: {{save: 4, health: 1}}
    models: [{{base: 32, at: [19, 20]}}]
"""


def test_only_models_in_range_and_sight_attack():
    # archers/1 is 7.74" away (in range 10"); archers/2 is 12.79" away (out of range).
    r = Referee(load_scene_text(SCENE.format(terrain="")))
    o = attack_odds(r, 0, 1)
    assert o.attackers == {"bows": ["archers/1"]}
    assert o.distribution == pytest.approx({"0": 7 / 8, "1": 1 / 8})


def test_cover_is_minus_one_to_hit():
    wood = "{id: wood, outline: [[17, 18], [21, 18], [21, 22], [17, 22]], height: 0, kind: area}"
    o = attack_odds(Referee(load_scene_text(SCENE.format(terrain=wood))), 0, 1)
    assert o.modifiers["cover"] == ["wood"] and o.modifiers["hit"] == -1
    assert o.distribution["1"] == pytest.approx(2 / 6 * 1 / 2 * 1 / 2)


def test_obscuring_hides_from_shooting():
    ruin = ("{id: ruin, outline: [[17, 18], [21, 18], [21, 22], [17, 22]], height: 0.5, "
            "kind: obscuring}")
    o = attack_odds(Referee(load_scene_text(SCENE.format(terrain=ruin))), 0, 1)
    assert o.distribution == {"0": 1.0} and "obscuring" in o.reason
