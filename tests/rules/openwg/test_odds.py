"""Scenario table for `odds`: small scenes whose WOUNDS distributions are worked out by hand
(seed: a die per model, <= Precision hits; Damage dice per hit, each > Armor - Pierce wounds)."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from battlefield.cli.main import main
from battlefield.rules.chance import outcomes
from battlefield.rules.openwg import RULESET, odds

from ._scene import MELEE, R, load, row, scene, unit


def attack_answer(ruleset, scene, args, options):
    """openwg's --attack as `battlefield odds` asks it (OddsQuestion.answer)."""
    return ruleset.question("attack").answer(ruleset, scene, args, options)


def morale_answer(ruleset, scene, args, options):
    return ruleset.question("morale").answer(ruleset, scene, args, options)

GAP = 2 * R + 0.5                      # centres of two 25 mm bases 0.5" apart


def weapon(**k) -> list[dict]:
    return [{**MELEE, **k}]


def close(a: dict, b: dict) -> float:
    return max(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b))


def ratio(d: dict) -> dict:
    return {str(k): float(v) for k, v in d.items()}


HALF, SIXTH = F(1, 2), F(1, 6)
CASES = [
    # 1 model, hit on 3 or less (1/2), 1 die over armor 2 (4/6): 1/3 of one WOUND.
    ("one die", dict(), dict(), [], {0: F(2, 3), 1: F(1, 3)}),
    # Damage 2, Pierce 1 against Armor 2: each die over 1 (5/6).
    ("damage and pierce", dict(damage=2, pierce=1), dict(), [],
     {0: HALF + HALF * F(1, 36), 1: HALF * F(10, 36), 2: HALF * F(25, 36)}),
    # Re-rolled misses: hit 1/2 + 1/2 * 1/2 = 3/4; a die over armor 3 (1/2).
    ("re-rolled misses", dict(), dict(armor=3),
     [{"effect": "reroll", "roll": "precision", "faces": "misses", "when": "melee"}],
     {0: F(5, 8), 1: F(3, 8)}),
    # Precision 6 always hits; Armor - Pierce <= 0 wounds on every die.
    ("always", dict(precision=6, pierce=2), dict(armor=2), [], {1: F(1)}),
    # Armor - Pierce >= 6 never wounds.
    ("never", dict(precision=6), dict(armor=6), [], {0: F(1)}),
    # After the attack: 2 dice a model within 3", each 3 or less a WOUND (1/2 each).
    ("storm after", dict(precision=6), dict(armor=6),
     [{"effect": "wounds_nearby", "when": "attack", "within": 3, "dice": 2, "at_most": 3}],
     {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}),
    # Shields: +1 Armor while not charging: armor 3 -> a die over 3.
    ("shields", dict(precision=6), dict(armor=2), "target-shields", {0: HALF, 1: HALF}),
]


@pytest.mark.parametrize("name,wp,target_stats,specials,want", CASES,
                         ids=[c[0] for c in CASES])
def test_attack_distribution(name, wp, target_stats, specials, want):
    target_specials = []
    if specials == "target-shields":
        specials, target_specials = [], [{"effect": "armor", "add": 1, "unless": "charged"}]
    text = scene(unit("a", "red", [(10, 10)], weapons=weapon(**wp), specials=specials),
                 unit("b", "blue", [(10, 10 + GAP)], stats=target_stats,
                      specials=target_specials))
    d = attack_answer(RULESET, load(text), ("a", "b"), {"weapon": None})
    assert close(d["distribution"], ratio(want)) < 1e-12
    assert d["expected_damage"] == pytest.approx(float(sum(k * p for k, p in want.items())))
    assert d["attackers"] == {"Blade": ["a/1"]}


def test_only_models_in_range_attack_and_the_leader_doubles():
    """Three models in a row: the third is 2.9" from the target (out of 1" range); the leader
    (model 1, the Karl) rolls 2 dice a hit. Precision 6, over armor 3: each die 1/2."""
    text = scene(unit("a", "red", row(10, 10, 3), weapons=weapon(precision=6),
                      specials=[{"effect": "leader_damage", "times": 2}]),
                 unit("b", "blue", [(10.6, 10 + GAP)], stats={"armor": 3}))
    d = attack_answer(RULESET, load(text), ("a", "b"), {"weapon": None})
    assert d["attackers"] == {"Blade": ["a/1", "a/2"]}
    # 3 dice (2 from the Karl, 1 from model 2), each 1/2: Binomial(3, 1/2).
    assert close(d["distribution"], ratio({0: F(1, 8), 1: F(3, 8), 2: F(3, 8),
                                           3: F(1, 8)})) < 1e-12


def test_a_ranged_weapon_named_and_the_defenders_reroll_of_sixes():
    """Evocators re-roll 6s on their Armor rolls in the Ranged phase: a die over 2 wounds with
    3/6 + 1/6 * 4/6 = 11/18; the shooter is 6" away with an 8" weapon, its melee out of range."""
    text = scene(unit("a", "red", [(10, 10)],
                      weapons=[MELEE, {"name": "Bow", "type": "ranged", "range": 8,
                                       "damage": 1, "precision": 6, "pierce": 0}]),
                 unit("b", "blue", [(10, 10 + 2 * R + 6)],
                      specials=[{"effect": "reroll", "roll": "armor", "faces": [6],
                                 "when": "ranged", "side": "defender"}]))
    d = attack_answer(RULESET, load(text), ("a", "b"), {"weapon": "Bow"})
    assert d["kind"] == "ranged" and d["attackers"] == {"Bow": ["a/1"]}
    assert close(d["distribution"], ratio({0: F(7, 18), 1: F(11, 18)})) < 1e-12
    melee = attack_answer(RULESET, load(text), ("a", "b"), {"weapon": None})
    assert melee["attackers"] == {} and melee["distribution"] == {"0": 1.0}


def test_the_exact_odds_are_the_played_procedure_enumerated():
    g = odds.Group("g", 2, 3, 2, 2, frozenset({4, 5, 6}), frozenset({1}), 4)
    assert odds.group_distribution(g) == outcomes(lambda: odds.group_attack(g))


@pytest.mark.parametrize("bravery,slain,models,want", [
    # D6 + 3 over 7: a 5 -> 1 flees, a 6 -> 2.
    (7, 3, 10, {0: F(4, 6), 1: SIXTH, 2: SIXTH}),
    # D6 + 4 over 5, at most the 2 left: 1 -> 0, 2 -> 1, 3..6 -> 2.
    (5, 4, 6, {0: SIXTH, 1: SIXTH, 2: F(4, 6)}),
    (9, 1, 5, {0: F(1)}),
])
def test_morale_distribution(bravery, slain, models, want):
    text = scene(unit("a", "red", row(5, 5, models), stats={"bravery": bravery}),
                 unit("b", "blue", [(30, 30)]))
    d = morale_answer(RULESET, load(text), ("a",), {"slain": slain})
    assert d["models_left"] == models - slain
    assert close(d["distribution"], ratio(want)) < 1e-12


def test_odds_on_the_demo_scene(capsys):
    assert main(["odds", "demo-openwg", "--attack", "red-vulkites", "blue-spearhead",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d) >= {"expected_damage", "distribution", "attackers"}
    assert d["distribution"] == {"0": 1.0} and d["attackers"] == {}    # 20" apart
    assert main(["odds", "demo-openwg", "--morale", "red-vulkites", "--slain", "3",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["distribution"] == pytest.approx({"0": 4 / 6, "1": 1 / 6, "2": 1 / 6})


def test_odds_on_the_demo_battle_once_the_hunters_have_charged():
    """The README's position: blue-hunters charged red-vulkites. Only vulkites 4 and 5 have a
    hunter within 1"; War-picks hit on 3 or less (1/2), 2 dice a hit, each over armor 1 - pierce
    1 = 0: every die wounds. WOUNDS = 2 x hits, hits ~ Binomial(2, 1/2)."""
    import yaml

    from battlefield.rules.actions import Action
    from battlefield.rules.deploy import battle_scene
    from battlefield.rules.trial import run, scene_after

    stop = {"type": "stop"}
    actions = [{"type": "run", "unit": "red-vulkites",
                "path": [[26.0197, 7.7549], [26.0197, 15.7549]]},
               {"type": "move", "unit": "blue-hunters",
                "path": [[12.9803, 40.2451], [14.5, 29.4]]}, *[stop] * 9,
               {"type": "charge", "unit": "blue-hunters", "target": "red-vulkites",
                "path": [[14.5, 29.4], [15.5, 17.8]]}, stop, stop, stop]
    state, results = run(load(battle_scene("openwg", None)[0]),
                         [Action.from_dict(a) for a in actions])
    assert all(r["legal"] for r in results)
    position = load(yaml.safe_dump(scene_after(state), sort_keys=False))
    d = attack_answer(RULESET, position, ("red-vulkites", "blue-hunters"), {"weapon": None})
    assert d["attackers"] == {"War-picks": ["red-vulkites/4", "red-vulkites/5"]}
    assert close(d["distribution"], {"0": 0.25, "2": 0.5, "4": 0.25}) < 1e-12


def test_morale_with_more_slain_than_models_is_one_line(capsys):
    from battlefield.cli.main import main

    assert main(["odds", "demo-openwg", "--morale", "red-hearthguard", "--slain", "9"]) == 2
    err = capsys.readouterr().err
    assert "--slain 9: red-hearthguard has 5 models on the table" in err


def test_the_odds_say_when_the_game_would_refuse_the_attack_now():
    """a is in combat with c (0.5" apart) and 6" from b: the dice of its Bow at b are worked
    out all the same, and the answer says the game would refuse that shot now (a unit in combat
    shoots only at an enemy it is in combat with); the Bow at c and the melee at c are not
    refused. The scene's own phase (movement here) says nothing about an attack: never listed."""
    bow = {"name": "Bow", "type": "ranged", "range": 8, "damage": 1, "precision": 6,
           "pierce": 0}
    text = scene(unit("a", "red", [(10, 10)], weapons=[MELEE, bow]),
                 unit("b", "blue", [(10 + 2 * R + 6, 10)]),
                 unit("c", "blue", [(10, 10 + GAP)]), state={"phase": "movement"})
    shot = attack_answer(RULESET, load(text), ("a", "b"), {"weapon": "Bow"})
    assert [x["code"] for x in shot["refused_now"]] == ["must_shoot_combat_enemy"]
    assert shot["attackers"] == {"Bow": ["a/1"]} and shot["expected_damage"] > 0
    assert attack_answer(RULESET, load(text), ("a", "c"), {"weapon": "Bow"})["refused_now"] == []
    assert attack_answer(RULESET, load(text), ("a", "c"), {"weapon": None})["refused_now"] == []
