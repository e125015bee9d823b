"""Passive warscroll abilities the engine plays by themselves (rules/aos4/passives.py), each
pattern pinned on a real warscroll text of the data (checked against the catalogues): in an
attack's modifiers and weapon, in play and in `odds`; a reading with anything else is not
played at all."""

from __future__ import annotations

import pytest
import yaml

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import effects, passives
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.odds import attack_odds
from battlefield.rules.aos4.weapons import weapons_of
from battlefield.rules.log import rules_for
from battlefield.rules.registry import checked
from battlefield.rules.state import Game
from battlefield.rules.trial import advance, start
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from .test_effects import _in_data

# (unit, name, effect) of the data, and what it changes in an attack red -> blue (or blue ->
# red: "defends"): {"hit": +-1, "save": +1, "ward": N, "rend": +1, "attacks": "4"}.
PLAYED = [
    ("Ghorgon", "Battle Damaged", "While this unit has 10 or more damage points, the Attacks "
     "characteristic of its Butchering Blades is 4.", "red", {"damage": 10},
     {"attacks": "4"}),
    ("Wrath of Khorne Bloodthirster", "Wrathful Dominance", "Add 1 to hit rolls for this "
     "unit's attacks that target an enemy HERO.", "red", {"blue_keywords": ["HERO"]},
     {"hit": 1}),
    ("Bloodreavers", "Blood for the Blood God!", "Add 1 to the Rend characteristic of this "
     "unit's melee weapons if it charged in the same turn.", "red", {"charged": True},
     {"rend": 1}),
    ("Lorai, Child of the Abyss", "Aquatic Illusions", "Subtract 1 from hit rolls for "
     "attacks that target this unit.", "blue", {}, {"hit": -1}),
    ("Murknob with Belcha-banna", "Power of Kragnos", "Friendly KRULEBOYZ units have WARD "
     "(6+) while they are wholly within 12\" of this unit.", "blue",
     {"blue_keywords": ["KRULEBOYZ"]}, {"ward": 6}),
    ("Slaughter Queen on Cauldron of Blood", "Consecrated Revulsion", "Add 1 to save rolls "
     "for friendly DAUGHTERS OF KHAINE INFANTRY units while they are wholly within 12\" of "
     "this unit.", "blue", {"blue_keywords": ["DAUGHTERS OF KHAINE", "INFANTRY"]},
     {"save": 1}),
    ("Ogor Gluttons", "Wall of Meat", "Add 1 to save rolls for this unit if it has not "
     "charged this turn.", "blue", {}, {"save": 1}),
    ("Steelheart's Champions", "Heroic Guard", "Add 1 to save rolls for this unit while it "
     "is in combat with any enemy units that charged in the same turn.", "blue",
     {"charged": True}, {"save": 1}),
    ("Exalted Hero of Chaos", "Glory-seeker", "Add 1 to the Damage characteristic of this "
     "unit's melee weapons for attacks that target HEROES or MONSTERS.", "red",
     {"blue_keywords": ["MONSTER"]}, {"damage": "2"}),
    ("Neave Blacktalon", "Justice From Azyr", "Add 1 to the Damage characteristic of this unit's "
     "Whirlwind Axes for attacks that target a HERO.", "red",
     {"blue_keywords": ["HERO"], "red_weapon": "Whirlwind Axe"}, {"damage": "2"}),
    ("Sporesplatta Fanatics", "Choking Spore-clouds", "Subtract 1 from the Attacks "
     "characteristic of weapons used by enemy units while they are in combat with this unit.",
     "blue", {}, {"attacks": "1"}),
]
# Read, but not played: a passive effect "for the rest of the turn" (from when?). The engine
# plays none of it. (Control scores, charge, run, casting and chanting rolls and the Move are
# played: tests/rules/aos4/test_roll_modifiers.py.)
NOT_PLAYED = [
    ("Saurus Oldblood", "Spearhead of the Charge", "If this unit charged this turn, add 1 to "
     "charge rolls for friendly SAURUS units while they are wholly within 18\" of this unit for "
     "the rest of the turn"),
]


def scene(owner_side: str, when: dict, red_weapon: str = "Butchering Blades") -> str:
    """Red attacks blue in combat; the ability is on the `owner_side` unit."""
    return yaml.safe_dump({
        "ruleset": "aos4", "board": {"width": 60, "depth": 44},
        "units": [
            {"id": "red", "side": "red", "stats": {"move": 5, "health": 20, "save": 4,
                                                    "control": 1},
             "keywords": [],
             "weapons": [{"name": red_weapon, "range": 0, "attacks": 2, "hit": 4,
                          "wound": 4, "rend": 0, "damage": 1}],
             "models": [{"base": 32, "at": [10, 10]}]},
            {"id": "blue", "side": "blue", "stats": {"move": 5, "health": 2, "save": 4,
                                                      "control": 1},
             "keywords": when.get("blue_keywords", []),
             "weapons": [{"name": "Choppa", "range": 0, "attacks": 2, "hit": 4, "wound": 4,
                          "rend": 0, "damage": 1}],
             "models": [{"base": 32, "at": [10, 11.4]}, {"base": 32, "at": [11.4, 11.4]}]},
        ]})


def with_ability(text: str, side: str, name: str, effect: str) -> str:
    data = yaml.safe_load(text)
    unit = data["units"][0 if side == "red" else 1]
    unit["abilities"] = [{"name": name, "kind": "passive", "effect": effect}]
    return yaml.safe_dump(data)


@pytest.mark.parametrize("unit, name, effect, side, when, change", PLAYED,
                         ids=[p[1] for p in PLAYED])
def test_each_passive_changes_the_attack_it_says(unit, name, effect, side, when, change):
    assert passives.playable(effects.read({"name": name, "kind": "passive", "effect": effect}))
    weapon = when.get("red_weapon", "Butchering Blades")
    sc = checked(load_scene_text(with_ability(scene(side, when, weapon), side, name, effect)))
    state = Game(rules_for("aos4"), sc, 1).new_state()
    if when.get("damage"):
        state.units[0].damage[0] = when["damage"]
    if when.get("charged"):
        state.units[0].flags.add("charged")
    ref = Referee(sc, state.table)
    wp = weapons_of(sc, 0, melee=True)[0]
    got_wp, got, used = passives.in_attack(passives.in_play(state, ref), 0, 1, wp, Modifiers())
    assert used == [name]
    for key, value in change.items():
        if key in ("hit", "wound", "save", "ward"):
            assert getattr(got, key) == value, key
        else:
            assert getattr(got_wp, key) == (value if isinstance(value, str)
                                            else getattr(wp, key) + value), key
    # Without its condition, or without the ability, nothing changes.
    bare = checked(load_scene_text(scene(side, {}, weapon)))
    b = Game(rules_for("aos4"), bare, 1).new_state()
    assert passives.in_attack(passives.in_play(b, Referee(bare, b.table)), 0, 1, wp,
                              Modifiers())[2] == []


def test_a_weapon_named_and_a_target_of_many_models():
    """Justice From Azyr names the Whirlwind Axes: the Butchering Blades get nothing; Brutal
    Blows' +1 Damage counts the target's models (2 here: 10 needed)."""
    name, effect = "Justice From Azyr", PLAYED[-2][2]
    sc = checked(load_scene_text(with_ability(scene("red", {"blue_keywords": ["HERO"]}), "red",
                                              name, effect)))
    state = Game(rules_for("aos4"), sc, 1).new_state()
    wp = weapons_of(sc, 0, melee=True)[0]
    assert passives.in_attack(passives.in_play(state, Referee(sc, state.table)), 0, 1, wp,
                              Modifiers())[2] == []
    blows = "Add 1 to the Damage characteristic of this unit's melee weapons for attacks that " \
            "target an enemy unit that has 10 or more models."
    data = yaml.safe_load(with_ability(scene("red", {}), "red", "Brutal Blows", blows))
    few = checked(load_scene_text(yaml.safe_dump(data)))
    st = Game(rules_for("aos4"), few, 1).new_state()
    assert passives.in_attack(passives.in_play(st, Referee(few, st.table)), 0, 1, wp,
                              Modifiers())[2] == []
    data["units"][1]["models"] = [{"base": 32, "at": [10 + 1.3 * (k % 5), 11.4 + 1.3 * (k // 5)]}
                                  for k in range(10)]
    many = checked(load_scene_text(yaml.safe_dump(data)))
    st = Game(rules_for("aos4"), many, 1).new_state()
    got_wp, _, used = passives.in_attack(passives.in_play(st, Referee(many, st.table)), 0, 1, wp,
                                         Modifiers())
    assert used == ["Brutal Blows"] and got_wp.damage == "2"


def test_contesting_an_objective_you_control():
    """Cloud of Flies: -1 to hit the unit while it contests an objective its side controls -
    not when the objective is the other side's, not when it stands off it."""
    flies = "Subtract 1 from hit rolls for attacks that target this unit while it is " \
            "contesting an objective you control."
    for at, held, hit in (([10.5, 12], "blue", -1), ([10.5, 12], "red", 0),
                          ([40, 30], "blue", 0)):
        data = yaml.safe_load(with_ability(scene("blue", {}), "blue", "Cloud of Flies", flies))
        data["objectives"] = [{"id": "o", "at": at, "controlled_by": held}]
        sc = checked(load_scene_text(yaml.safe_dump(data)))
        st = Game(rules_for("aos4"), sc, 1).new_state()
        wp = weapons_of(sc, 0, melee=True)[0]
        got = passives.in_attack(passives.in_play(st, Referee(sc, st.table)), 0, 1, wp,
                                 Modifiers())[1]
        assert got.hit == hit, (at, held)


def test_a_condition_not_met_plays_nothing():
    unit, name, effect, side, when, _ = PLAYED[2]              # charged: not this time
    sc = checked(load_scene_text(with_ability(scene(side, when), side, name, effect)))
    state = Game(rules_for("aos4"), sc, 1).new_state()
    wp = weapons_of(sc, 0, melee=True)[0]
    assert passives.in_attack(passives.in_play(state, Referee(sc, state.table)), 0, 1, wp,
                              Modifiers()) == (wp, Modifiers(), [])


def test_an_aura_reaches_only_units_wholly_within():
    unit, name, effect, side, when, _ = PLAYED[4]              # Power of Kragnos, 12"
    data = yaml.safe_load(with_ability(scene(side, when), side, name, effect))
    data["units"].append({"id": "far", "side": "blue", "keywords": ["KRULEBOYZ"],
                          "stats": {"move": 5, "health": 2, "save": 4, "control": 1},
                          "weapons": [{"name": "Choppa", "range": 0, "attacks": 2, "hit": 4,
                                       "wound": 4, "rend": 0, "damage": 1}],
                          "models": [{"base": 32, "at": [40, 30]}]})
    sc = checked(load_scene_text(yaml.safe_dump(data)))
    state = Game(rules_for("aos4"), sc, 1).new_state()
    t = passives.in_play(state, Referee(sc, state.table))
    wp = weapons_of(sc, 0, melee=True)[0]
    assert passives.in_attack(t, 0, 1, wp, Modifiers())[1].ward == 6
    assert passives.in_attack(t, 0, 2, wp, Modifiers())[1].ward is None


SHIELD = ("Liberators", "Shield of the Storm", "While any friendly STORMCAST ETERNALS INFANTRY "
          "HEROES are within this unit's combat range, both this unit and those friendly units "
          "have WARD (5+).")
STEEL = ("Freeguild Steelhelms", "Steel and Sorcery", "While any friendly CITIES OF SIGMAR AELF "
         "INFANTRY HEROES are wholly within this unit's combat range, both this unit and those "
         "friendly units have WARD (5+).")


@pytest.mark.parametrize("ability, hero_at, wards", [
    (SHIELD, [13, 12.5], (5, 5)),        # the hero's base 0.68" from blue's: within 3"
    (SHIELD, [12, 17], (None, None)),    # 4.37": out of its combat range, no ward for either
    (STEEL, [12, 13.4], (5, 5)),         # its far edge 0.83 + 1.26 = 2.09" from blue: wholly
    (STEEL, [12, 14.6], (None, None)),   # its near edge 2.0" (within), far edge 3.26" (not)
])
def test_both_this_unit_and_the_heroes_within_its_combat_range(ability, hero_at, wards):
    unit, name, effect = ability
    data = yaml.safe_load(with_ability(scene("blue", {}), "blue", name, effect))
    data["units"].append({"id": "hero", "side": "blue", "keywords": [
        "STORMCAST ETERNALS", "CITIES OF SIGMAR", "AELF", "INFANTRY", "HERO"],
        "stats": {"move": 5, "health": 5, "save": 4, "control": 1},
        "weapons": [{"name": "Choppa", "range": 0, "attacks": 2, "hit": 4, "wound": 4,
                     "rend": 0, "damage": 1}], "models": [{"base": 32, "at": hero_at}]})
    sc = checked(load_scene_text(yaml.safe_dump(data)))
    state = Game(rules_for("aos4"), sc, 1).new_state()
    t = passives.in_play(state, Referee(sc, state.table))
    assert passives.playable(effects.read({"name": name, "kind": "passive", "effect": effect}))
    wp = weapons_of(sc, 0, melee=True)[0]
    assert (passives.in_attack(t, 0, 1, wp, Modifiers())[1].ward,
            passives.in_attack(t, 0, 2, wp, Modifiers())[1].ward) == wards


CORRUPTING = ("Corrupting Influence", "Subtract 1 from ward rolls for enemy units while they "
              "are within 13\" of this unit.")
IRON = ("Iron Resilience", "Add 1 to save rolls for this unit if it has not used a MOVE ability "
        "in the same turn.")


def test_a_modifier_to_the_ward_rolls_of_enemy_units():
    # blue's WARD (6+) (Power of Kragnos) less 1: a 6 no longer saves - no ward at all
    unit, name, effect, side, when, _ = PLAYED[4]
    data = yaml.safe_load(with_ability(scene(side, when), side, name, effect))
    data["units"][0]["abilities"] = [{"name": CORRUPTING[0], "kind": "passive",
                                      "effect": CORRUPTING[1]}]
    sc = checked(load_scene_text(yaml.safe_dump(data)))
    state = Game(rules_for("aos4"), sc, 1).new_state()
    t = passives.in_play(state, Referee(sc, state.table))
    wp = weapons_of(sc, 0, melee=True)[0]
    _, mods, used = passives.in_attack(t, 0, 1, wp, Modifiers())
    assert mods.ward is None and used == [name, CORRUPTING[0]]
    _, mods, _ = passives.in_attack(t, 0, 1, wp, Modifiers(ward=4))
    assert mods.ward == 5


@pytest.mark.parametrize("flag, save", [(None, 1), ("moved", 0), ("charged", 0)])
def test_if_it_has_not_used_a_move_ability(flag, save):
    sc = checked(load_scene_text(with_ability(scene("blue", {}), "blue", *IRON)))
    state = Game(rules_for("aos4"), sc, 1).new_state()
    if flag:
        state.units[1].flags.add(flag)
    t = passives.in_play(state, Referee(sc, state.table))
    wp = weapons_of(sc, 0, melee=True)[0]
    assert passives.in_attack(t, 0, 1, wp, Modifiers())[1].save == save


def test_odds_play_them_too():
    unit, name, effect, side, when, _ = PLAYED[3]              # -1 to hit red's attacks
    bare = checked(load_scene_text(scene(side, when)))
    sc = checked(load_scene_text(with_ability(scene(side, when), side, name, effect)))
    plain = attack_odds(Referee(bare, bare.table()), 0, 1)
    harder = attack_odds(Referee(sc, sc.table()), 0, 1)
    assert harder.expected_damage < plain.expected_damage
    assert harder.modifiers["abilities"] == {"Butchering Blades": [name]}


def test_in_play_the_attack_event_names_them():
    unit, name, effect, side, when, _ = PLAYED[3]
    text = with_ability(scene(side, when), side, name, effect)
    fight = Action("fight", "red", target="blue")
    state = start(load_scene_text(text), [fight], 1, [])
    assert not advance(state, fight)
    events = state.apply(fight)
    if state.pending:
        events = state.apply(Action("decline", side="blue"))
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["abilities"] == [name]


@pytest.mark.parametrize("unit, name, effect", NOT_PLAYED)
def test_read_but_not_played(unit, name, effect):
    r = effects.read({"name": name, "kind": "passive", "effect": effect})
    assert r is not None and not passives.playable(r)


def test_every_quoted_text_is_in_the_data(bsdata):
    raw, text = _in_data(bsdata)
    for _, name, effect, *_ in [*PLAYED, SHIELD, STEEL, ("", *CORRUPTING), ("", *IRON)]:
        xml = name.replace("&", "&amp;").replace("'", "&apos;")
        assert f'name="{xml}"' in raw or f'name="{name}"' in raw, name
        assert " ".join(effect.split()) in text, name
