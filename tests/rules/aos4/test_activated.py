"""Activated warscroll abilities the engine plays (rules/aos4/activated.py): each pattern
pinned on a real warscroll text of the data (checked against the catalogues), declared as
{"type": "ability", "unit", "ability", "target"} at its timing, with fixed dice: mortal damage on
a roll, for each success, equal to the roll; healing; modifiers and a ward for the rest of the
turn that the next attacks use; the Declare's target and conditions refused with their reason."""

from __future__ import annotations

from collections import deque

import pytest
import yaml

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import abilities_play, activated, commands, effects, fighting, passives
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.player import Aos4Player
from battlefield.rules.aos4.weapons import weapons_of
from battlefield.rules.trial import advance, start
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from .test_effects import _in_data

# (unit, name, timing, declare, effect) as the data has them
ABILITIES = {
    "Alpha Charge": ("Doombull", "Any Charge Phase", "If this unit charged this phase, pick an "
                     "enemy unit within 1\" of it to be the target.", "Roll a D3. On a 2+, "
                     "inflict an amount of mortal damage on the target equal to the roll."),
    "Warherd Charge": ("Bullgors", "Any Charge Phase", "If this unit charged this phase, pick "
                       "an enemy unit within 1\" of it to be the target.", "Roll a dice for "
                       "each model in this unit. For each 2+, inflict 1 mortal damage on the "
                       "target."),
    "Regeneration": ("Breaka-boss on Mirebrute Troggoth", "Start of Any Turn", None,
                     "Heal (D3) this unit."),
    "Raging Inferno": ("Auric Runefather on Magmadroth", "Once Per Turn (Army), Any Combat "
                       "Phase", "Pick an enemy unit in combat with this unit to be the target.",
                       "Roll a dice. On a 3+, subtract 1 from save rolls for the target for "
                       "the rest of the turn."),
    "Dance of Death": ("Sisters of Slaughter", "Once Per Turn (Army), Any Combat Phase",
                       "Pick an enemy unit that charged this turn and is in combat with this "
                       "unit to be the target.", "Subtract 1 from hit rolls and wound rolls "
                       "for the target's combat attacks for the rest of the turn."),
    "Unleashed Savagery": ("Ogroid Theridons", "Once Per Battle, Any Combat Phase", None,
                           "Add 1 to the Damage characteristic of this unit's melee weapons "
                           "for the rest of the turn."),
    "Witchbrew": ("Morgwaeth's Blade-coven", "Once Per Turn (Army), Any Hero Phase",
                  "Pick a friendly DAUGHTERS OF KHAINE unit wholly within 12\" of this unit "
                  "to be the target.", "Roll a dice. On a 3+, the target has WARD (5+) for "
                  "the rest of the turn."),
    "Foul Elixirs": ("Swampcalla Shaman with Pot-grot", "Once Per Turn (Army), Your Hero Phase",
                     "Pick a friendly KRULEBOYZ INFANTRY unit wholly within 12\" of this unit "
                     "to be the target.", "Roll a dice. On a 2+, add 1 to save rolls for the "
                     "target for the rest of the turn. On a 1, inflict D3 mortal damage on the "
                     "target."),
    "Horrific Predators": ("Khorgorath", "Once Per Turn (Army), Any Combat Phase",
                           "Pick an enemy unit in combat with this unit to be the target.",
                           "Roll a dice. On a 3+, the target cannot use commands for the rest "
                           "of the turn."),
    "Pulled Into the Depths": ("Eidolon of Mathlann, Aspect of the Storm",
                               "Once Per Turn (Army), Any Charge Phase",
                               "Pick an enemy HERO in combat with this unit to be the target.",
                               "Roll a dice. On a 3+, the target has STRIKE-LAST for the rest "
                               "of the turn."),
    "Fissures In Reality": ("Vizzik Skour, Prophet of the Horned Rat", "Any Combat Phase",
                            "Pick each enemy unit in combat with this unit to be the targets.",
                            "Roll a D3 for each target. On a 2+, inflict an amount of mortal "
                            "damage on the target equal to the roll."),
    "Warrior-kings": ("Auric Runefather on Magmadroth", "Once Per Battle (Army), Your Combat "
                      "Phase", None, "For the rest of the turn, add 1 to the Attacks "
                      "characteristic of melee weapons used by friendly FYRESLAYERS units while "
                      "they are wholly within 12\" of this unit."),
    "Crush to Death": ("Gobsprakk, the Mouth of Mork", "Once Per Turn (Army), Any Combat Phase",
                       "Pick an enemy unit in combat with this unit to be the target.",
                       "Roll a dice. If the roll exceeds the target's Health characteristic, 1 "
                       "model in the target unit is slain."),
    "Word of Pain": ("Sorceress", "Once Per Turn (Army), Any Combat Phase", "Pick an enemy "
                     "unit in combat with this unit to be the target.", "Roll a dice. On a 3+, "
                     "subtract 1 from hit rolls and wound rolls for the target's attacks until "
                     "the start of your next turn."),
    "Darkness of the Soul": ("Scinari Cathallar", "Once Per Turn (Army), Your Hero Phase",
                             "Pick a visible enemy unit within 18\" of this unit to be the "
                             "target.", "Roll a dice. On a 3+, the target cannot use commands "
                             "until the start of your next turn."),
    "Unfeeling Fortitude": ("The Exiled Dead", "Your Hero Phase", None, "Roll a dice. On a 3+, "
                            "this unit has WARD (5+) until the start of your next turn."),
    "Crushing Coils": ("Chaos Soulpiercer", "Any Combat Phase", "Pick an enemy HERO or MONSTER in "
                       "combat with this MANIFESTATION to be the target.", "Roll a dice. On a "
                       "3+, the target has STRIKE-LAST for the rest of the turn."),
    "Divine Matriarch": ("Morathi-Khaine", "Your Hero Phase", "Pick a visible friendly DAUGHTERS "
                         "OF KHAINE PRIEST or WIZARD wholly within 12\" of this unit to be the "
                         "target.", "Add 1 to casting rolls and chanting rolls for the target "
                         "until the start of your next turn."),
    "Last of the Lodge-fire": ("Auric Flamekeeper", "Once Per Battle, Any Combat Phase",
                               "Pick an enemy unit in combat with this unit to be the target.",
                               "Roll a number of dice equal to the target's Health "
                               "characteristic. For each 4+, inflict 1 mortal damage on the "
                               "target."),
    "Ker-splat!": ("Gargant", "Once Per Turn (Army), Any Charge Phase", "If this unit charged "
                   "this phase, pick an enemy unit within 1\" of it to be the target.", "Roll a "
                   "dice for each model in the target unit, to a maximum of 10. For each 4+, "
                   "inflict 1 mortal damage on the target."),
}


def scene(name: str) -> str:
    _, timing, declare, effect = ABILITIES[name]
    unit = {"move": 5, "health": 3, "save": 4, "control": 1}
    weapon = {"name": "Axe", "range": 0, "attacks": 2, "hit": 4, "wound": 4, "rend": 0,
              "damage": 1}
    return yaml.safe_dump({"ruleset": "aos4", "board": {"width": 60, "depth": 44}, "units": [
        {"id": "red", "side": "red", "stats": unit, "weapons": [weapon],
         "abilities": [{"name": name, "kind": "activated", "timing": timing,
                        "declare": declare, "effect": effect}],
         "models": [{"base": 32, "at": [10, 10]}, {"base": 32, "at": [11.4, 10]}]},
        {"id": "friend", "side": "red", "stats": unit, "weapons": [weapon],
         "keywords": ["DAUGHTERS OF KHAINE", "KRULEBOYZ", "INFANTRY", "FYRESLAYERS"],
         "models": [{"base": 32, "at": [20, 10]}]},
        {"id": "blue", "side": "blue", "stats": unit, "weapons": [weapon], "keywords": ["HERO"],
         "models": [{"base": 32, "at": [10, 11.4]}, {"base": 32, "at": [11.4, 11.4]}]}]})


def declared(name: str, target: str | None, dice: list[int], setup=None):
    action = Action("ability", "red", target=target, options=(("ability", name),))
    state = start(load_scene_text(scene(name)), [action], 1, [])
    assert not advance(state, action)
    if setup:
        setup(state)
    state.dice.fixed = deque(dice)
    return state, action


def buffs(state, u: int) -> dict:
    """Unit u's buff_ counters (what the attacks read), without their turn-end shares."""
    return {k: x for k, x in state.units[u].counters.items() if k.startswith("buff_")}


def charged(state) -> None:
    state.units[0].flags.add("charged")
    state.units[2].flags.add("charged")


@pytest.mark.parametrize("name, target, dice, setup, then", [
    ("Alpha Charge", "blue", [2], charged, lambda s: s.units[2].damage.sum() == 2),
    ("Alpha Charge", "blue", [1], charged, lambda s: s.units[2].damage.sum() == 0),
    ("Warherd Charge", "blue", [2, 1], charged, lambda s: s.units[2].damage.sum() == 1),
    ("Regeneration", None, [3], lambda s: s.units[0].damage.__setitem__(0, 2),
     lambda s: s.units[0].damage.sum() == 0),
    ("Raging Inferno", "blue", [3], None,
     lambda s: buffs(s, 2) == {"buff_save": -1}),
    ("Raging Inferno", "blue", [2], None, lambda s: buffs(s, 2) == {}),
    ("Dance of Death", "blue", [], charged,
     lambda s: buffs(s, 2) == {"buff_hit_melee": -1, "buff_wound_melee": -1}),
    ("Unleashed Savagery", None, [], None,
     lambda s: buffs(s, 0) == {"buff_damage_melee": 1}),
    ("Witchbrew", "friend", [3], None, lambda s: buffs(s, 1) == {"buff_ward": 5}),
    ("Foul Elixirs", "friend", [2], None, lambda s: buffs(s, 1) == {"buff_save": 1}),
    ("Foul Elixirs", "friend", [1, 2], None, lambda s: s.units[1].damage.sum() == 2),
    ("Horrific Predators", "blue", [3], None, lambda s: s.units[2].flags == {"no-commands"}),
    ("Horrific Predators", "blue", [2], None, lambda s: not s.units[2].flags),
    ("Pulled Into the Depths", "blue", [3], None,
     lambda s: s.units[2].flags == {"strike-last"} and fighting.strike(s, 2) == "last"),
    # blue's Health is 3: a 4 exceeds it, a 3 does not
    ("Crush to Death", "blue", [4], None, lambda s: len(s.models_of(2)) == 1),
    ("Crush to Death", "blue", [3], None, lambda s: len(s.models_of(2)) == 2),
    # either keyword: blue is a HERO
    ("Crushing Coils", "blue", [3], None, lambda s: s.units[2].flags == {"strike-last"}),
    # as many dice as blue's Health (3); one for each model (2, of up to 10)
    ("Last of the Lodge-fire", "blue", [4, 1, 5], None,
     lambda s: s.units[2].damage.sum() == 2),
    ("Ker-splat!", "blue", [4, 3], charged, lambda s: s.units[2].damage.sum() == 1),
], ids=lambda x: x if isinstance(x, str) else None)
def test_played_by_the_engine(name, target, dice, setup, then):
    r = effects.read({"name": name, "kind": "activated", "timing": ABILITIES[name][1],
                      "declare": ABILITIES[name][2], "effect": ABILITIES[name][3]})
    assert activated.playable(r)
    state, action = declared(name, target, dice, setup)
    assert state.check(action) == []
    events = state.apply(action)
    assert events[0] == {"type": "ability-declared", "unit": "red", "ability": name,
                         "played": True, **({"target": target} if target else {})}
    assert then(state)
    assert not state.dice.fixed                     # every die it should roll, and no more


@pytest.mark.parametrize("name, target, setup, code", [
    ("Alpha Charge", "blue", None, "not_charged"),
    ("Alpha Charge", None, charged, "no_target"),
    ("Alpha Charge", "friend", charged, "not_a_target"),
    ("Witchbrew", "blue", None, "not_a_target"),
    ("Regeneration", "blue", None, "no_target_needed"),
    ("Dance of Death", "blue", None, "not_a_target"),         # it did not charge
    ("Divine Matriarch", "friend", None, "not_a_target"),     # neither a PRIEST nor a WIZARD
])
def test_the_declare_is_checked(name, target, setup, code):
    state, action = declared(name, target, [], setup)
    assert [v.code for v in state.check(action)] == [code]


def test_what_it_gave_for_the_turn_is_used_by_the_attacks():
    state, action = declared("Unleashed Savagery", None, [])
    state.apply(action)
    state.units[1].counters["buff_ward"] = 5
    wp = weapons_of(state.scene, 0, melee=True)[0]
    t = passives.in_play(state, Referee(state.scene, state.table))
    got, mods, _ = passives.in_attack(t, 0, 1, wp, Modifiers())
    assert got.damage == "2" and mods.ward == 5


def test_what_it_gave_for_the_rest_of_the_turn_ends_with_the_turn():
    """Raging Inferno's -1 to blue's save rolls, Unleashed Savagery's +1 Damage to red's own
    weapons: both gone when the next turn starts, whoever's turn it is."""
    from battlefield.rules.aos4 import turns

    state, action = declared("Raging Inferno", "blue", [3])
    state.apply(action)
    state.units[2].counters["buff_save"] -= 1           # and a spell's, that stays
    state.units[0].counters["buff_hit"] = 1
    turns._turn_ended(state.units[2])
    turns._turn_ended(state.units[0])
    assert buffs(state, 2) == {"buff_save": -1} and buffs(state, 0) == {"buff_hit": 1}
    state, action = declared("Unleashed Savagery", None, [])
    state.apply(action)
    turns._turn_ended(state.units[0])
    assert buffs(state, 0) == {}


def test_what_it_gave_until_the_start_of_your_next_turn_lasts_through_the_other_turn():
    """Word of Pain (red's, a 3): -1 to hit and wound rolls for blue's attacks, kept when
    blue's own turn starts (which clears blue's own buffs) and gone when red's next turn
    starts; Darkness of the Soul: blue cannot use commands through its own turn; Unfeeling
    Fortitude: red's WARD (5+) through blue's turn, gone at red's."""
    from battlefield.rules.aos4 import defence, turns

    state, action = declared("Word of Pain", "blue", [3])
    events = state.apply(action)
    assert events[-1]["effect"] == "-1 to wound rolls until the start of red's next turn"
    state.units[2].counters["buff_save"] = 1            # blue's own, until blue's turn
    turns.start_turn(state, "blue")
    assert buffs(state, 2) == {"buff_hit": -1, "buff_wound": -1}
    turns.start_turn(state, "red")
    assert buffs(state, 2) == {} and not state.units[2].counters

    state, action = declared("Darkness of the Soul", "blue", [3])
    state.apply(action)
    turns.start_turn(state, "blue")
    assert not defence.can_use(state, 2)
    turns.start_turn(state, "red")
    assert defence.can_use(state, 2) and not state.units[2].counters

    state, action = declared("Unfeeling Fortitude", None, [3])
    state.apply(action)
    turns.start_turn(state, "blue")
    assert buffs(state, 0) == {"buff_ward": 5}
    turns.start_turn(state, "red")
    assert buffs(state, 0) == {}


def test_each_unit_that_fits_is_a_target():
    """Fissures In Reality picks each enemy unit in combat with red: blue (the friend 10" off is
    not an enemy); a D3 of 2 inflicts 2 mortal damage. Naming a target is refused."""
    state, action = declared("Fissures In Reality", None, [2])
    events = state.apply(action)
    assert events[0]["targets"] == ["blue"] and state.units[2].damage.sum() == 2
    assert not state.dice.fixed
    state, _ = declared("Fissures In Reality", None, [])
    named = Action("ability", "red", target="blue", options=(("ability", "Fissures In Reality"),))
    assert [v.code for v in state.check(named)] == ["each_target"]
    assert abilities_play.offers(state) == [action]


def test_an_aura_for_the_rest_of_the_turn():
    """Warrior-kings: +1 Attacks to the melee weapons of friendly FYRESLAYERS units wholly
    within 12\" of red - the friend 10\" off (2 -> 3), not red itself (no keyword) - in force
    like a passive ability until the turn ends."""
    from battlefield.rules.aos4 import turns

    state, action = declared("Warrior-kings", None, [])
    events = state.apply(action)
    assert events[1]["effect"].startswith("for the rest of the turn: +1 to Attacks (melee)")
    wp = weapons_of(state.scene, 1, melee=True)[0]
    t = passives.in_play(state, Referee(state.scene, state.table))
    assert passives.in_attack(t, 1, 2, wp, Modifiers())[0].attacks == "3"
    assert passives.in_attack(t, 0, 2, wp, Modifiers())[2] == []
    turns.start_turn(state, "blue")
    t = passives.in_play(state, Referee(state.scene, state.table))
    assert passives.in_attack(t, 1, 2, wp, Modifiers())[2] == []


@pytest.mark.parametrize("bad", [5, [1], [[0, "x", {"modify": "hit"}]], [[9, "x", {}]],
                                 [[0, "x", {"modify": "hit", "of": 5}]],
                                 [[0, "x", {"modify": "attacks", "by": "2",
                                            "who": {"unit": "friendly"}}]]])
def test_a_position_s_turn_auras_written_wrong_are_left_alone(bad):
    """A position written by hand may put anything under extra.turn_auras: what the engine
    would not play is ignored, never a crash."""
    state, _ = declared("Warrior-kings", None, [])
    state.extra[passives.TURN_AURAS] = bad
    wp = weapons_of(state.scene, 1, melee=True)[0]
    t = passives.in_play(state, Referee(state.scene, state.table))
    assert passives.in_attack(t, 1, 2, wp, Modifiers())[2] == []
    assert passives.bonus_now(state, 1, "move") == (0, [])


def test_a_unit_that_cannot_use_commands_is_refused_them():
    """Horrific Predators on a 3+: blue cannot use commands for the rest of the turn - not
    All-out Defence when red attacks it, not a command of its own."""
    from battlefield.rules.aos4 import defence

    state, action = declared("Horrific Predators", "blue", [3])
    assert defence.can_use(state, 2)
    state.apply(action)
    assert not defence.can_use(state, 2)
    a = state.rules.book.abilities["all-out-attack"]
    got = commands.rules_of_one(state, a, 2, Action("fight", "blue"))
    assert "no_commands" in [v.code for v in got]


def test_the_computer_declares_it_at_its_timing():
    state, action = declared("Raging Inferno", "blue", [3])
    offered = abilities_play.offers(state)
    assert offered == [Action("ability", "red", target="blue",
                              options=(("ability", "Raging Inferno"),))]
    assert Aos4Player().choose(state) == offered[0]


def test_every_quoted_text_is_in_the_data(bsdata):
    raw, text = _in_data(bsdata)
    for name, (_, _, _, effect) in ABILITIES.items():
        xml = name.replace("&", "&amp;").replace("'", "&apos;")
        assert f'name="{xml}"' in raw or f'name="{name}"' in raw, name
        assert " ".join(effect.split()) in text, name
