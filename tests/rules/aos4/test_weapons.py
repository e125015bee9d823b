"""Each model attacks with its own weapons (a model's `weapons:`), and Anti-X (+N Rend) adds its
rend against a target with keyword X (or one that charged), in play and in odds, and nowhere
else. A weapon ability aos4 does not know is refused in one line."""

from __future__ import annotations

import pytest

from battlefield.cli.main import main
from battlefield.errors import InputError
from battlefield.rules.aos4 import attacks as seq
from battlefield.rules.aos4.odds import attack_odds
from battlefield.rules.aos4.weapons import (
    against,
    anti_of,
    carries,
    known,
    played,
    weapon_from,
    weapons_of_model,
)
from battlefield.rules.registry import checked
from battlefield.rulesets import load_ruleset
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from .test_abilities import attempt

BOW = "{name: Bow, range: 18, attacks: 1, hit: 4, wound: 4, damage: 1}"
PISTOL = "{name: Pistol, range: 10, attacks: 2, hit: 3, wound: 3, damage: 1}"
SPEAR = ("{name: Spear, range: 18, attacks: 1, hit: 4, wound: 4, damage: 1, "
         "abilities: [ABILITY]}")


def scene(red_models: str, red_weapons: str = f"[{BOW}, {PISTOL}]",
          blue_keywords: str = "[INFANTRY]") -> str:
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
units:
  - id: red
    side: red
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: {red_weapons}
    models: {red_models}
  - id: blue
    side: blue
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    keywords: {blue_keywords}
    models: [{{base: 32, at: [20, 22]}}, {{base: 32, at: [20, 23.5]}}]
"""



def weapon_from_aos4(spec):
    """A weapon profile with aos4's defaults for what it leaves out."""
    return weapon_from(spec, load_ruleset("aos4").weapon_defaults)


CHAMPION = ("[{base: 32, at: [12, 22], weapons: [Pistol]}, "
            "{base: 32, at: [12, 23.5], weapons: [Bow]}, {base: 32, at: [12, 25]}]")


# --- each model its own weapons -------------------------------------------------------------
def test_a_model_carries_what_it_names_or_all():
    loaded = load_scene_text(scene(CHAMPION))
    unit = loaded.units[0]
    assert [carries(unit, k, "Pistol") for k in range(3)] == [True, False, True]
    assert [w.name for w in weapons_of_model(loaded, 0, 1)] == ["Bow"]
    assert [w.name for w in weapons_of_model(loaded, 0, 2)] == ["Bow", "Pistol"]
    assert [w["name"] for w in unit.model_weapons(0)] == ["Pistol"]


def test_odds_count_only_the_models_that_carry_each_weapon():
    o = attack_odds(Referee(load_scene_text(scene(CHAMPION))), 0, 1)
    assert o.attackers == {"Bow": ["red/2", "red/3"], "Pistol": ["red/1", "red/3"]}
    bow = seq.volley_dist(weapon_from_aos4({"name": "Bow", "range": 18}), 2, 4, seq.Modifiers())
    pistol = seq.volley_dist(weapon_from_aos4({"name": "Pistol", "range": 10, "attacks": 2,
                                          "hit": 3, "wound": 3}), 2, 4, seq.Modifiers())
    whole = seq.capped(seq._conv(bow, pistol), 2)
    assert o.expected_damage == pytest.approx(seq.mean(whole))


def test_in_play_each_weapon_is_rolled_by_its_carriers():
    # Bow: 2 carriers, 1 attack each; Pistol: 2 carriers, 2 attacks each.
    _, (r,) = attempt(scene(CHAMPION), {"type": "shoot", "unit": "red", "target": "blue",
                                        "all_out_defence": False},
                      dice=[1, 1, 1, 1, 1, 1])
    volleys = {e["weapon"]: (e["models"], e["attacks"]) for e in r["events"]
               if e["type"] == "attack"}
    assert volleys == {"Bow": (2, 2), "Pistol": (2, 4)}


def test_a_scene_without_model_weapons_attacks_with_everything():
    plain = "[{base: 32, at: [12, 22]}, {base: 32, at: [12, 23.5]}, {base: 32, at: [12, 25]}]"
    o = attack_odds(Referee(load_scene_text(scene(plain))), 0, 1)
    assert o.attackers == {"Bow": ["red/1", "red/2", "red/3"],
                           "Pistol": ["red/1", "red/2", "red/3"]}


# --- Anti-X (+N Rend) -----------------------------------------------------------------------
@pytest.mark.parametrize("ability, keywords, charged, rend", [
    ("anti-infantry (+1 rend)", "[INFANTRY]", False, 1),
    ("anti-infantry (+1 rend)", "[CAVALRY]", False, 0),
    ("Anti-Infantry (+1 Rend)", "[infantry, hero]", False, 1),       # any case
    ("anti-war machine (+1 rend)", "[WAR MACHINE]", False, 1),       # a keyword of two words
    ("anti-war machine (+1 rend)", "[WAR]", False, 0),
    ("anti-charge (+1 rend)", "[INFANTRY]", True, 1),                # the target charged
    ("anti-charge (+1 rend)", "[CHARGE]", False, 0),                 # not a keyword
    ("anti-hero (+2 rend)", "[HERO]", False, 2),
])
def test_anti_adds_rend_only_against_its_target(ability, keywords, charged, rend):
    text = scene("[{base: 32, at: [12, 22]}]", f"[{SPEAR.replace('ABILITY', repr(ability))}]",
                 keywords)
    s = load_scene_text(text)
    w, said = against(weapon_from_aos4(s.units[0].weapons[0]), s.units[1], charged)
    assert w.rend == rend and bool(said) == bool(rend)
    o = attack_odds(Referee(s), 0, 1, charged=charged)
    one = seq.attack_dist(weapon_from_aos4({"name": "Spear", "range": 18, "rend": rend}), 4)
    assert o.distribution == pytest.approx(seq.as_dict(seq.capped(one, 2)))
    assert ("anti" in o.modifiers) == bool(rend)


def test_anti_in_play_fails_a_save_it_would_pass():
    # One hit (4), one wound (4), a save of 4 against Save 4: saved at Rend 0, failed at Rend 1.
    for ability, unsaved in (("anti-infantry (+1 rend)", 1), ("anti-monster (+1 rend)", 0)):
        text = scene("[{base: 32, at: [12, 22]}]",
                     f"[{SPEAR.replace('ABILITY', repr(ability))}]")
        _, (r,) = attempt(text, {"type": "shoot", "unit": "red", "target": "blue",
                                 "all_out_defence": False}, dice=[4, 4, 4])
        (attack,) = [e for e in r["events"] if e["type"] == "attack"]
        assert attack["unsaved"] == unsaved
        assert ("anti" in attack) == bool(unsaved)


# --- which weapon abilities aos4 knows and plays --------------------------------------------
@pytest.mark.parametrize("ability, is_known, is_played", [
    ("crit-mortal", True, True), ("crit-2-hits", True, True), ("crit-auto-wound", True, True),
    ("anti-infantry (+1 rend)", True, True), ("companion", True, False),
    ("charge-damage", True, False), ("shoot-in-combat", True, False),
    ("blood-hungry", False, False), ("anti-infantry", False, False), ("anti- (+1 rend)", False,
                                                                       False),
])
def test_known_and_played(ability, is_known, is_played):
    assert (known(ability), played(ability)) == (is_known, is_played)


def test_anti_of_reads_the_keyword_and_the_rend():
    assert anti_of("anti-infantry (+1 rend)") == ("INFANTRY", 1)
    assert anti_of("ANTI-War  Machine(+1 Rend)") == ("WAR MACHINE", 1)
    assert anti_of("crit-mortal") is None


def test_an_unknown_weapon_ability_is_refused_in_one_line(tmp_path, capsys):
    text = scene("[{base: 32, at: [12, 22]}]", f"[{SPEAR.replace('ABILITY', 'blood-hungry')}]")
    with pytest.raises(InputError, match=r"units\[0\]\.weapons\[0\]\.abilities\[0\]: Spear: "
                                         r"aos4 does not know the weapon ability 'blood-hungry'"):
        checked(load_scene_text(text, "s.yaml"))
    f = tmp_path / "s.yaml"
    f.write_text(text)
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "blood-hungry" in err[0] and "anti-KEYWORD (+N rend)" in err[0]
