"""The effect reader (rules/aos4/effects.py) pinned on real warscroll texts: every pattern it
knows, each with an ability quoted from the BSData catalogues (as the import writes it: keywords
in capitals), and texts it must leave alone because it would read only part of them. With the
catalogues at hand, every quoted text is checked to be in them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from battlefield.rules.aos4.effects import has_keywords, read, read_timing, shape

SELF, TARGET = {"unit": "self"}, {"unit": "target"}


def ability(effect: str, timing: str | None = None, declare: str | None = None,
            name: str = "ability") -> dict:
    return {"name": name, "kind": "activated" if timing else "passive", "timing": timing,
            "declare": declare, "effect": effect, "keywords": [], "once": None}


# (name, timing, declare, effect, the effects read, the target read, the conditions read)
READ = [
    # modifiers to hit and wound rolls: whose attacks, which attacks, against whom
    ("Aquatic Illusions", None, None,
     "Subtract 1 from hit rolls for attacks that target this unit.",
     [{"modify": "hit", "by": -1, "against": SELF}], None, []),
    ("Ferocious Advance", None, None,
     "Subtract 1 from wound rolls for shooting attacks that target this unit.",
     [{"modify": "wound", "by": -1, "against": SELF, "attacks": "shooting"}], None, []),
    ("Wrathful Dominance", None, None,
     "Add 1 to hit rolls for this unit's attacks that target an enemy HERO.",
     [{"modify": "hit", "by": 1, "of": SELF, "if": [{"target_has": "HERO"}]}], None, []),
    ("Lay the Beast Low", None, None,
     "Add 1 to hit rolls and wound rolls for this unit's shooting attacks that target enemy "
     "MONSTERS.",
     [{"modify": "hit", "by": 1, "of": SELF, "attacks": "shooting",
       "if": [{"target_has": "MONSTERS"}]},
      {"modify": "wound", "by": 1, "of": SELF, "attacks": "shooting",
       "if": [{"target_has": "MONSTERS"}]}], None, []),
    ("Drench With Hate", None, None,
     "Add 1 to wound rolls for combat attacks made by friendly IDONETH DEEPKIN units while "
     "they are wholly within 12\" of this unit.",
     [{"modify": "wound", "by": 1, "attacks": "melee",
       "of": {"unit": "friendly", "keywords": ["IDONETH DEEPKIN"], "wholly_within": 12}}],
     None, []),
    ("Twilight's Allure", None, None,
     "Subtract 1 from hit rolls for combat attacks that target friendly SOULBLIGHT GRAVELORDS "
     "units while they are wholly within 6\" of this unit.",
     [{"modify": "hit", "by": -1, "attacks": "melee",
       "against": {"unit": "friendly", "keywords": ["SOULBLIGHT GRAVELORDS"],
                   "wholly_within": 6}}], None, []),
    # save, casting, charge and control
    ("Befouled Rainfall", None, None,
     "Subtract 1 from save rolls for enemy units while they are within 6\" of this unit.",
     [{"modify": "save", "by": -1, "who": {"unit": "enemy", "within": 6}}], None, []),
    ("Bounding Haste", None, None,
     "Add 1 to the number of dice rolled when making charge rolls for this unit, to a maximum "
     "of 3.", [{"modify": "charge_dice", "by": 1, "who": SELF}], None, []),
    ("Slaughterer's Call", "Once Per Turn (Army), Any Charge Phase",
     "Pick a friendly WARHERD unit that is not in combat and is wholly within 12\" of this unit "
     "to be the target.", "For the rest of the turn, add 1 to the number of dice rolled when "
     "making charge rolls for the target, to a maximum of 3.",
     [{"modify": "charge_dice", "by": 1, "who": TARGET, "until": "turn"}],
     {"unit": "friendly", "keywords": ["WARHERD"], "wholly_within": 12, "not_in_combat": True,
      "count": 1}, []),
    # conditions: not charged, contesting an objective, in combat with units that charged,
    # the target's models and keywords (one of two)
    ("Wall of Meat", None, None, "Add 1 to save rolls for this unit if it has not charged this "
     "turn.", [{"modify": "save", "by": 1, "who": SELF, "if": [{"charged": False}]}], None, []),
    ("Cloud of Flies", None, None,
     "Subtract 1 from hit rolls for attacks that target this unit while it is contesting an "
     "objective you control.",
     [{"modify": "hit", "by": -1, "against": SELF, "if": [{"contesting": "yours"}]}], None, []),
    ("No Respite", None, None,
     "While this unit is contesting an objective you do not control, it has Ward (5+)",
     [{"ward": 5, "who": SELF, "if": [{"contesting": "not_yours"}]}], None, []),
    ("Heroic Guard", None, None,
     "Add 1 to save rolls for this unit while it is in combat with any enemy units that charged "
     "in the same turn.",
     [{"modify": "save", "by": 1, "who": SELF, "if": [{"in_combat_with_charged": True}]}], None,
     []),
    ("Overwhelming Fire", None, None,
     "Add 1 to hit rolls for this unit's shooting attacks that target an enemy unit that has 10 "
     "or more models.", [{"modify": "hit", "by": 1, "of": SELF, "attacks": "shooting",
                          "if": [{"target_models_at_least": 10}]}], None, []),
    ("Glory-seeker", None, None,
     "Add 1 to the Damage characteristic of this unit's melee weapons for attacks that target "
     "HEROES or MONSTERS.",
     [{"modify": "damage", "by": 1, "who": SELF, "weapons": "melee",
       "if": [{"target_has_any": ["HEROES", "MONSTERS"]}]}], None, []),
    # whose attacks and against whom at once; other friendly units; a MANIFESTATION's own
    ("Creed of the Askurga Renkai", None, None,
     "Subtract 1 from hit rolls for combat attacks made by enemy MONSTERS that target this "
     "unit. Add 1 to hit rolls for combat attacks made by this unit that target enemy MONSTERS.",
     [{"modify": "hit", "by": -1, "of": {"unit": "enemy", "keywords": ["MONSTERS"]},
       "attacks": "melee", "against": SELF},
      {"modify": "hit", "by": 1, "of": SELF, "attacks": "melee",
       "if": [{"target_has": "MONSTERS"}]}], None, []),
    ("First Among Akhelians", None, None,
     "Add 1 to hit rolls for combat attacks made by other friendly AKHELIAN units while they "
     "are wholly within 12\" of this unit.",
     [{"modify": "hit", "by": 1, "attacks": "melee",
       "of": {"unit": "friendly", "other": True, "keywords": ["AKHELIAN"],
              "wholly_within": 12}}], None, []),
    ("Tornado of Magic", None, None,
     "Subtract 1 from hit rolls for shooting attacks made by enemy units while they are within "
     "12\" of this MANIFESTATION.",
     [{"modify": "hit", "by": -1, "attacks": "shooting", "of": {"unit": "enemy", "within": 12}}],
     None, []),
    # weapon characteristics: of the attacks that target a unit, of the weapons a group uses,
    # of a weapon by name
    ("Heavy-scaled Skin", None, None,
     "Subtract 1 from the Rend characteristic of ranged weapons used for shooting attacks that "
     "target this unit.", [{"modify": "rend", "by": -1, "against": SELF, "weapons": "ranged"}],
     None, []),
    ("Behemoth's Bane", None, None,
     "Subtract 2 from the Attacks characteristic of enemy MONSTERS' melee weapons while they "
     "are in combat with this unit.",
     [{"modify": "attacks", "by": -2, "weapons": "melee",
       "who": {"unit": "enemy", "keywords": ["MONSTERS"], "in_combat_with": "self"}}], None,
     []),
    ("Choking Spore-clouds", None, None,
     "Subtract 1 from the Attacks characteristic of weapons used by enemy units while they are "
     "in combat with this unit.",
     [{"modify": "attacks", "by": -1, "who": {"unit": "enemy", "in_combat_with": "self"}}],
     None, []),
    ("Justice From Azyr", None, None,
     "Add 1 to the Damage characteristic of this unit's Whirlwind Axes for attacks that target "
     "a HERO.", [{"modify": "damage", "by": 1, "who": SELF, "weapon": "Whirlwind Axes",
                  "if": [{"target_has": "HERO"}]}], None, []),
    ("Decimating Blow", None, None,
     "Add 1 to the Damage characteristic of this unit's Decimator Thunderaxes if the target "
     "unit has 10 or more models.",
     [{"modify": "damage", "by": 1, "who": SELF, "weapon": "Decimator Thunderaxes",
       "if": [{"target_models_at_least": 10}]}], None, []),
    # keywords given, commands taken away
    ("Pulled Into the Depths", "Once Per Turn (Army), Any Charge Phase",
     "Pick an enemy HERO in combat with this unit to be the target.",
     "Roll a dice. On a 3+, the target has STRIKE-LAST for the rest of the turn.",
     [{"keyword": "STRIKE-LAST", "who": TARGET, "until": "turn",
       "on": {"roll": "D6", "dice": 1, "at_least": 3}}],
     {"unit": "enemy", "keywords": ["HERO"], "in_combat": True, "count": 1}, []),
    ("Horrific Predators", "Once Per Turn (Army), Any Combat Phase",
     "Pick an enemy unit in combat with this unit to be the target.",
     "Roll a dice. On a 3+, the target cannot use commands for the rest of the turn.",
     [{"no_commands": True, "who": TARGET, "until": "turn",
       "on": {"roll": "D6", "dice": 1, "at_least": 3}}],
     {"unit": "enemy", "in_combat": True, "count": 1}, []),
    # models slain by a roll against the target's Health
    ("Easy Meat", "Once Per Turn (Army), Enemy Hero Phase",
     "Pick an enemy unit in combat with this unit to be the target.",
     "Roll a dice. If the roll is at least double the target's Health characteristic, 1 model "
     "in the target unit is slain.",
     [{"slay": 1, "who": TARGET, "on": {"roll": "D6", "dice": 1, "health": "double"}}],
     {"unit": "enemy", "in_combat": True, "count": 1}, []),
    # a Declare's condition that this unit did not charge; up to N different units
    ("Freezing Aura", "Once Per Turn (Army), Any Combat Phase",
     "If this unit did not charge this turn, pick an enemy unit in combat with it to be the "
     "target.", "Roll a dice. On a 3+, subtract 1 from the Attacks characteristic of the "
     "target's melee weapons for the rest of the turn.",
     [{"modify": "attacks", "by": -1, "who": TARGET, "weapons": "melee", "until": "turn",
       "on": {"roll": "D6", "dice": 1, "at_least": 3}}],
     {"unit": "enemy", "in_combat": True, "count": 1}, [{"charged": False}]),
    ("Ark of Sotek", "Once Per Turn (Army), Any Combat Phase",
     "Pick up to 3 different enemy units within 9\" of this unit to be the targets.",
     "Roll a D3 for each target. On a 2+, inflict an amount of mortal damage on the target "
     "equal to the roll.",
     [{"mortal": "ROLL", "who": TARGET,
       "on": {"roll": "D3", "dice": 1, "each_target": True, "at_least": 2}}],
     {"unit": "enemy", "within": 9, "count": 3}, []),
    ("Dormant Energies", None, None, "Add 1 to casting rolls for this unit.",
     [{"modify": "casting", "by": 1, "who": SELF}], None, []),
    ("Boss Snarlfang", None, None,
     "Add 2 to charge rolls for friendly GITMOB CAVALRY units while they are wholly within "
     "12\" of this unit.",
     [{"modify": "charge", "by": 2,
       "who": {"unit": "friendly", "keywords": ["GITMOB CAVALRY"], "wholly_within": 12}}],
     None, []),
    ("Trial of Skulls", None, None, "Add 8 to this unit's control score while it is in combat.",
     [{"modify": "control", "by": 8, "who": SELF, "if": [{"in_combat": True}]}], None, []),
    ("Curse of Loyalty", None, None,
     "If this unit charged this turn, add 3 to the control scores of friendly NIGHTHAUNT units "
     "while they are wholly within 12\" of this unit.",
     [{"modify": "control", "by": 3, "if": [{"charged": True}],
       "who": {"unit": "friendly", "keywords": ["NIGHTHAUNT"], "wholly_within": 12}}], None,
     []),
    ("Harbingers of Dark Omens", None, None,
     "Subtract 5 from the control scores of enemy units while they are within 12\" of this "
     "unit.", [{"modify": "control", "by": -5, "who": {"unit": "enemy", "within": 12}}],
     None, []),
    # rend, attacks and damage of weapons; a set characteristic (Battle Damaged)
    ("Blood for the Blood God!", None, None,
     "Add 1 to the Rend characteristic of this unit's melee weapons if it charged in the same "
     "turn.",
     [{"modify": "rend", "by": 1, "who": SELF, "weapons": "melee", "if": [{"charged": True}]}],
     None, []),
    ("Whirlwind of Destruction", None, None,
     "Add 1 to the Attacks characteristic of this unit's melee weapons if this unit charged "
     "this turn.",
     [{"modify": "attacks", "by": 1, "who": SELF, "weapons": "melee",
       "if": [{"charged": True}]}], None, []),
    ("Battle Damaged", None, None,
     "While this unit has 10 or more damage points, the Attacks characteristic of its "
     "Butchering Blades is 4.",
     [{"set": "attacks", "to": 4, "weapon": "Butchering Blades", "who": SELF,
       "if": [{"damage_points_at_least": 10}]}], None, []),
    # ward
    ("Void Drum", None, None,
     "Friendly IDONETH DEEPKIN units have WARD (5+) while they are wholly within 6\" of this "
     "unit.",
     [{"ward": 5, "who": {"unit": "friendly", "keywords": ["IDONETH DEEPKIN"],
                          "wholly_within": 6}}], None, []),
    ("Galv-shields", None, None, "This unit has WARD (5+) if it charged in the same turn.",
     [{"ward": 5, "who": SELF, "if": [{"charged": True}]}], None, []),
    ("Endless Terrors", None, None,
     "This unit has WARD (4+) while it is wholly within 12\" of any friendly ARACHNAROK units.",
     [{"ward": 4, "who": SELF, "if": [{"wholly_within": 12, "of": {
         "unit": "friendly", "keywords": ["ARACHNAROK"]}}]}], None, []),
    # heal
    ("Regeneration", "Start of Any Turn", None, "Heal (D3) this unit.",
     [{"heal": "D3", "who": SELF}], None, []),
    ("Sacred Amphora", "Once Per Battle, Any Hero Phase",
     "Pick a visible friendly unit within 3\" of this unit to be the target.",
     "Heal (2D3) the target.", [{"heal": "2D3", "who": TARGET}],
     {"unit": "friendly", "visible": True, "within": 3, "count": 1}, []),
    # mortal damage on a roll
    ("Alpha Charge", "Any Charge Phase",
     "If this unit charged this phase, pick an enemy unit within 1\" of it to be the target.",
     "Roll a D3. On a 2+, inflict an amount of mortal damage on the target equal to the roll.",
     [{"mortal": "ROLL", "who": TARGET, "on": {"roll": "D3", "dice": 1, "at_least": 2}}],
     {"unit": "enemy", "within": 1, "count": 1}, [{"charged": True}]),
    ("Vengeance of Khorne", "Once Per Turn (Army), Any Combat Phase",
     "Pick an enemy HERO in combat with this unit to be the target.",
     "Roll 8 dice. For each 4+, inflict 1 mortal damage on the target.",
     [{"mortal": "1", "who": TARGET, "each": {"roll": "D6", "dice": 8, "at_least": 4}}],
     {"unit": "enemy", "keywords": ["HERO"], "in_combat": True, "count": 1}, []),
    ("Vectors of Foulest Contagion", "Once Per Turn (Army), Any Combat Phase",
     "Pick up to 3 enemy units in combat with this unit to be the targets.",
     "Roll a D3 for each target. On a 2+, inflict an amount of mortal damage on the target "
     "equal to the roll.",
     [{"mortal": "ROLL", "who": TARGET,
       "on": {"roll": "D3", "dice": 1, "each_target": True, "at_least": 2}}],
     {"unit": "enemy", "in_combat": True, "count": 3}, []),
    ("Sweeping Tusks", "Once Per Turn (Army), Any Movement Phase",
     "Pick an enemy unit in combat with this unit to be the target.",
     "Roll a dice for each model in the target unit. For each 5+, inflict 1 mortal damage on "
     "the target.",
     [{"mortal": "1", "who": TARGET,
       "each": {"roll": "D6", "dice": "models of target", "at_least": 5}}],
     {"unit": "enemy", "in_combat": True, "count": 1}, []),
    # a roll with a modifier or a ward for the rest of the turn; several outcomes of one roll
    ("Portents of Battle", "Once Per Turn (Army), Your Hero Phase",
     "Pick a visible friendly CITIES OF SIGMAR HUMAN unit wholly within 12\" of this unit to "
     "be the target.",
     "Roll a dice. On a 3+, add 1 to hit rolls for the target's combat attacks until the start "
     "of your next turn.",
     [{"modify": "hit", "by": 1, "of": TARGET, "attacks": "melee", "until": "next-turn",
       "on": {"roll": "D6", "dice": 1, "at_least": 3}}],
     {"unit": "friendly", "keywords": ["CITIES OF SIGMAR HUMAN"], "visible": True,
      "wholly_within": 12, "count": 1}, []),
    ("Witchbrew", "Once Per Turn (Army), Any Hero Phase",
     "Pick a friendly DAUGHTERS OF KHAINE unit wholly within 12\" of this unit to be the "
     "target.", "Roll a dice. On a 3+, the target has WARD (5+) for the rest of the turn.",
     [{"ward": 5, "who": TARGET, "until": "turn",
       "on": {"roll": "D6", "dice": 1, "at_least": 3}}],
     {"unit": "friendly", "keywords": ["DAUGHTERS OF KHAINE"], "wholly_within": 12,
      "count": 1}, []),
    ("Foul Elixirs", "Once Per Turn (Army), Your Hero Phase",
     "Pick a friendly KRULEBOYZ INFANTRY unit wholly within 12\" of this unit to be the "
     "target.",
     "Roll a dice. On a 2+, add 1 to save rolls for the target for the rest of the turn. On a "
     "1, inflict D3 mortal damage on the target.",
     [{"modify": "save", "by": 1, "who": TARGET, "until": "turn",
       "on": {"roll": "D6", "dice": 1, "at_least": 2}},
      {"mortal": "D3", "who": TARGET,
       "on": {"roll": "D6", "dice": 1, "at_least": 1, "at_most": 1}}],
     {"unit": "friendly", "keywords": ["KRULEBOYZ INFANTRY"], "wholly_within": 12,
      "count": 1}, []),
    ("Supreme Lord of Tides", "Once Per Battle, Any Combat Phase",
     "Pick up to 3 other friendly IDONETH DEEPKIN units wholly within 12\" of this unit to be "
     "the targets.",
     "Add 1 to the Attacks characteristic of the targets' melee weapons for the rest of the "
     "turn.",
     [{"modify": "attacks", "by": 1, "who": TARGET, "weapons": "melee", "until": "turn"}],
     {"unit": "friendly", "keywords": ["IDONETH DEEPKIN"], "other": True,
      "wholly_within": 12, "count": 3}, []),
    # a spell: the casting roll in the declare
    ("Purulent Profusion", "Your Hero Phase",
     "Pick a visible enemy unit within 18\" of this unit to be the target, then make a casting "
     "roll of 2D6.",
     "Subtract 1 from the Rend characteristic of the target's melee weapons until the start of "
     "your next turn.",
     [{"modify": "rend", "by": -1, "who": TARGET, "weapons": "melee", "until": "next-turn"}],
     {"unit": "enemy", "visible": True, "within": 18, "count": 1}, []),
    # a condition on using the ability at all
    ("Drunken Revelry", "Once Per Turn (Army), Your Movement Phase", None,
     "This unit can use this ability if it is not in combat. It has WARD (4+) for the rest of "
     "the turn.", [{"ward": 4, "who": SELF, "until": "turn"}], None, [{"in_combat": False}]),
    # a Declare's keywords: either of two, a shared one then either, 'non-X Y' exactly
    ("Crushing Coils", "Any Combat Phase",
     "Pick an enemy HERO or MONSTER in combat with this MANIFESTATION to be the target.",
     "Roll a dice. On a 3+, the target has STRIKE-LAST for the rest of the turn.",
     [{"keyword": "STRIKE-LAST", "who": TARGET, "until": "turn",
       "on": {"roll": "D6", "dice": 1, "at_least": 3}}],
     {"unit": "enemy", "any_keywords": ["HERO", "MONSTER"], "in_combat": True, "count": 1},
     []),
    ("Divine Matriarch", "Your Hero Phase",
     "Pick a visible friendly DAUGHTERS OF KHAINE PRIEST or WIZARD wholly within 12\" of this "
     "unit to be the target.",
     "Add 1 to casting rolls and chanting rolls for the target until the start of your next "
     "turn.",
     [{"modify": "casting", "by": 1, "who": TARGET, "until": "next-turn"},
      {"modify": "chanting", "by": 1, "who": TARGET, "until": "next-turn"}],
     {"unit": "friendly", "keywords": ["DAUGHTERS OF KHAINE"], "any_keywords": ["PRIEST",
                                                                               "WIZARD"],
      "visible": True, "wholly_within": 12, "count": 1}, []),
    ("Open the Gates!", "Once Per Turn (Army), Any Charge Phase",
     "Pick a visible friendly non-WAR MACHINE CITIES OF SIGMAR unit wholly within 12\" of this "
     "unit to be the target.", "Add 2 to charge rolls for the target for the rest of the turn.",
     [{"modify": "charge", "by": 2, "who": TARGET, "until": "turn"}],
     {"unit": "friendly", "not_keywords": ["WAR MACHINE"], "keywords": ["CITIES OF SIGMAR"],
      "visible": True, "wholly_within": 12, "count": 1}, []),
    # as many dice as the target's Health, its damage points, its models (to a maximum)
    ("Last of the Lodge-fire", "Once Per Battle, Any Combat Phase",
     "Pick an enemy unit in combat with this unit to be the target.",
     "Roll a number of dice equal to the target's Health characteristic. For each 4+, inflict 1 "
     "mortal damage on the target.",
     [{"mortal": "1", "who": TARGET, "each": {"roll": "D6", "dice": "health of target",
                                               "at_least": 4}}],
     {"unit": "enemy", "in_combat": True, "count": 1}, []),
    ("Bloodthirsty Dominance", "Once Per Turn (Army), End of Any Turn",
     "If this unit charged this turn, pick an enemy unit in combat with it to be the target.",
     "Roll a number of dice equal to the target's Health characteristic. For each 6, inflict 1 "
     "mortal damage on the target.",
     [{"mortal": "1", "who": TARGET, "each": {"roll": "D6", "dice": "health of target",
                                               "at_least": 6, "at_most": 6}}],
     {"unit": "enemy", "in_combat": True, "count": 1}, [{"charged": True}]),
    ("Aggravate Wounds", "Once Per Turn (Army), End of Any Turn",
     "Pick an enemy MONSTER in combat with this unit to be the target.",
     "Roll a number of dice equal to the number of damage points the target has. For each 5+, "
     "inflict 1 mortal damage on the target.",
     [{"mortal": "1", "who": TARGET, "each": {"roll": "D6", "dice": "damage of target",
                                               "at_least": 5}}],
     {"unit": "enemy", "keywords": ["MONSTER"], "in_combat": True, "count": 1}, []),
    ("Strangle Hex", "Your Hero Phase",
     "Pick a visible enemy unit within 18\" of this unit to be the target, then make a casting "
     "roll of 2D6.",
     "Roll a number of dice equal to the target's Health characteristic, to a maximum of 10. "
     "For each 4+, inflict 1 mortal damage on the target.",
     [{"mortal": "1", "who": TARGET, "each": {"roll": "D6", "dice": "health of target",
                                               "most": 10, "at_least": 4}}],
     {"unit": "enemy", "visible": True, "within": 18, "count": 1}, []),
    ("Ker-splat!", "Once Per Turn (Army), Any Charge Phase",
     "If this unit charged this phase, pick an enemy unit within 1\" of it to be the target.",
     "Roll a dice for each model in the target unit, to a maximum of 10. For each 4+, inflict 1 "
     "mortal damage on the target.",
     [{"mortal": "1", "who": TARGET, "each": {"roll": "D6", "dice": "models of target",
                                               "most": 10, "at_least": 4}}],
     {"unit": "enemy", "within": 1, "count": 1}, [{"charged": True}]),
]

# Texts the reader must leave alone: it would read only a part of them.
UNREAD = [
    # a modifier to the roll it does not know, then an effect it does
    ("Bait and Trap", "Any Combat Phase",
     "Pick an enemy MONSTER in combat with this unit to be the target.",
     "Roll a dice. Add 1 to the roll if the target is damaged. On a 3+, the target has "
     "STRIKE-LAST for the rest of the turn."),
    # mortal damage, then more mortal damage against CAVALRY
    ("Gore-grunta Charge", "Any Charge Phase",
     "If this unit charged this phase, pick an enemy unit within 1\" of it to be the target.",
     "Roll a D3. On a 2+, inflict an amount of mortal damage on the target equal to the roll. "
     "Add 1 to the mortal damage inflicted (if any) if the target is CAVALRY."),
    # a reaction
    ("On a Tear", "Once Per Turn (Army), Reaction: You declared a CHARGE ability for this unit",
     None, "Add 5 to this unit's control score for the rest of the turn."),
    # a target the vocabulary has no word for (targeted by another unit's shooting)
    ("Cold-blooded Unity", None, None,
     "Add 1 to hit rolls for this unit's combat attacks if they target an enemy unit that was "
     "targeted by shooting attacks made by a friendly Raptadon Hunters unit in the same turn."),
    # a condition it does not know (the same objective as this unit)
    ("Defend the Banner", None, None,
     "Add 1 to save rolls for friendly VANARI INFANTRY units while they are contesting the same "
     "objective as this unit."),
    # a keyword it does not know how to play (a faction's own)
    ("Sludgeraker Venom", "Your Hero Phase",
     "Pick a friendly KRULEBOYZ unit wholly within 12\" of this unit to be the target.",
     "That unit has the SLUDGERAKER VENOM keyword for the rest of the turn."),
]


# Made up, not quoted: what no warscroll says, but a careless reader would take.
MADE_UP = [
    ("a roll nothing uses", "Your Hero Phase", None, "Roll a dice."),
    ("the target, nothing declared", None, None, "Inflict D3 mortal damage on the target."),
    ("an unknown sentence after a known one", None, None,
     "Add 1 to casting rolls for this unit. It has WARD (5+) while it is near a wood."),
    ("bullets without a header", None, None, "• Add 1 to casting rolls for this unit."),
]


@pytest.mark.parametrize("name, timing, declare, effect, effects, target, conditions", READ,
                         ids=[r[0] for r in READ])
def test_reads_the_whole_text(name, timing, declare, effect, effects, target, conditions):
    got = read(ability(effect, timing, declare, name))
    assert got is not None, effect
    assert list(got.effects) == effects
    assert got.target == target
    assert list(got.conditions) == conditions


@pytest.mark.parametrize("name, timing, declare, effect", UNREAD + MADE_UP,
                         ids=[r[0] for r in UNREAD + MADE_UP])
def test_leaves_alone_what_it_would_read_in_part(name, timing, declare, effect):
    assert read(ability(effect, timing, declare, name)) is None


@pytest.mark.parametrize("timing, read_as", [
    (None, None), ("Passive", None),
    ("Your Hero Phase", {"phase": "hero", "whose": "your"}),
    ("Once Per Turn (Army), Any Combat Phase", {"phase": "combat", "whose": "any"}),
    ("Once Per Battle, Enemy Shooting Phase", {"phase": "shooting", "whose": "enemy"}),
    ("End of Any Turn", {"phase": "end of turn", "whose": "any"}),
    ("Deployment Phase", {"phase": "deployment", "whose": "any"}),
])
def test_timings(timing, read_as):
    assert read_timing(timing) == read_as


def test_keywords_named_together_and_in_the_plural():
    assert has_keywords("CITIES OF SIGMAR HUMAN", ["CITIES OF SIGMAR", "HUMAN", "INFANTRY"])
    assert not has_keywords("CITIES OF SIGMAR HUMAN", ["CITIES OF SIGMAR", "AELF"])
    assert has_keywords("MONSTERS", ["MONSTER"]) and has_keywords("HEROES", ["HERO"])
    assert not has_keywords("", ["HERO"])


def test_a_reading_is_json_ready():
    got = read(ability("Heal (D3) this unit.", "Your Hero Phase"))
    assert got is not None and got.to_dict() == {
        "timing": {"phase": "hero", "whose": "your"}, "target": None, "if": [],
        "effects": [{"heal": "D3", "who": SELF}]}


def test_shape_takes_out_numbers_dice_and_keywords():
    assert shape("Friendly DUARDIN units have WARD (5+) while they are wholly within 12\" of "
                 "this unit.") == ("Friendly KW units have KW (N+) while they are wholly "
                                   "within N\" of this unit.")
    assert shape("Roll a D3. On a 2+, inflict D6 mortal damage.") == (
        "Roll a DICE. On a N+, inflict DICE mortal damage.")


def _in_data(folder: Path) -> tuple[str, str]:
    """Every catalogue's XML as it is (for the profiles' names), and its text with the markup
    off and keywords in capitals as the import writes it (army/warscroll.rules_text)."""
    from battlefield.army.warscroll import rules_text

    raw = "\n".join(f.read_text(encoding="utf-8", errors="replace")
                    for f in sorted(folder.glob("*.cat")))
    text = re.sub(r"<[^>]+>", " ", raw)
    text = text.replace("&quot;", '"').replace("&apos;", "'").replace("&amp;", "&")
    return raw, " ".join(rules_text(text).split())


def test_every_quoted_ability_is_a_warscroll_ability_of_the_data(bsdata):
    raw, text = _in_data(bsdata)
    for name, _, _, effect, *_ in READ + UNREAD:
        xml_name = name.replace("&", "&amp;").replace("'", "&apos;")
        assert f'name="{xml_name}"' in raw or f'name="{name}"' in raw, name
        assert " ".join(effect.split()) in text, name
