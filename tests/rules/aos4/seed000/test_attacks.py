"""Seed 000's attacks, ruled as written: shoot, fight, the shooting and combat rules, and the
weapon abilities they play (Shoot in Combat, Charge (+1 Damage), Companion). Each scene is small,
the dice fixed, the answer worked out by hand in the comment above it, quoting the seed.

Geometry: a 32 mm base has a radius of 0.629921"; the edge gap of two 32 mm bases is their
centre gap less 1.259843". Unmodified dice: 6 hits, wounds and saves whatever is needed.
"""

from __future__ import annotations

from typing import Any

import pytest

from battlefield.errors import InputError
from battlefield.rules.actions import Action
from battlefield.rules.aos4.odds import attack_odds
from battlefield.rules.registry import checked
from battlefield.rules.trial import advance, run, start
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

R = 0.629921 * 2          # the centre gap of two touching 32 mm bases


def scene(units: str, state: str = "") -> str:
    return f"ruleset: aos4\nboard: {{width: 60, depth: 44}}\nunits:\n{units}{state}"


def combat_state(flags: str = "", counters: str = "", cp: int = 4) -> str:
    units = "{}" if not (flags or counters) else "{red: {" + ", ".join(
        x for x in (f"flags: [{flags}]" if flags else "",
                    f"counters: {{{counters}}}" if counters else "") if x) + "}}"
    return f"""state:
  round: 1
  phase: combat
  active: red
  acting: red
  clock: {{round: 1, turn: 1, active: red, first: red, phase: combat, acting: red,
          over: false, underdog: null}}
  sides:
    red: {{cp: {cp}, vp: 0, commands: [], spells: [], prayers: []}}
    blue: {{cp: 0, vp: 0, commands: [], spells: [], prayers: []}}
  objectives: {{}}
  units: {units}
  dice: 1
"""


def unit(uid: str, side: str, at: list[tuple[float, float]], weapons: str = "",
         save: int = 7, health: int = 5) -> str:
    models = ", ".join(f"{{base: 32, at: [{x}, {y}]}}" for x, y in at)
    w = f", weapons: [{weapons}]" if weapons else ""
    return (f"  - {{id: {uid}, side: {side}, stats: {{move: 5, health: {health}, "
            f"save: {save}}}{w}, models: [{models}]}}\n")


def attempt(text: str, *actions: dict[str, Any], dice: list[int] | None = None):
    state, results = run(load_scene_text(text), [Action.from_dict(a) for a in actions],
                         dice=dice or [])
    return state, results


def at(text: str, action: Action):
    """The state at the moment `action` belongs to (as try moves to it)."""
    state = start(load_scene_text(text), [action], 1, [])
    advance(state, action)
    return state


def attacks_at(result: dict[str, Any]) -> dict[tuple[str, str], int]:
    """(target, weapon) -> attacks made, from a legal result's attack events."""
    out: dict[tuple[str, str], int] = {}
    for e in result["events"]:
        if e["type"] == "attack":
            out[(e["target"], e["weapon"])] = out.get((e["target"], e["weapon"]), 0) + e["attacks"]
    return out


def codes(result: dict[str, Any]) -> list[str]:
    return [v["code"] for v in result["violations"]]


SWORD = "{name: Sword, attacks: ATT, hit: 2, wound: 2, rend: 0, damage: 1}"


# --- fight: a model's Attacks is its total, split between the targets -----------------------------
# red (one model) in combat with blue-a (east, gap 0.74") and blue-b (west, gap 0.74").
# Seed (combat): "If a model has more than one attack, you can split attacks between eligible
# targets" -> Attacks is the total a model makes: Attacks 1 at [blue-a, blue-b] is ONE attack (at
# blue-a, the first in turn); Attacks 2 deals one to each; a split gives them where it says.
def split_scene(attacks: str) -> str:
    return scene(unit("red", "red", [(20, 20)], SWORD.replace("ATT", attacks))
                 + unit("blue-a", "blue", [(22, 20)]) + unit("blue-b", "blue", [(18, 20)]),
                 combat_state())


@pytest.mark.parametrize("attacks, split, expected", [
    ("1", None, {("blue-a", "Sword"): 1}),
    ("2", None, {("blue-a", "Sword"): 1, ("blue-b", "Sword"): 1}),
    ("3", None, {("blue-a", "Sword"): 2, ("blue-b", "Sword"): 1}),
    ("2", {"blue-b": [1]}, {("blue-b", "Sword"): 2}),
    ("3", {"blue-a": [{"model": 1, "attacks": 1}], "blue-b": [{"model": 1, "attacks": 2}]},
     {("blue-a", "Sword"): 1, ("blue-b", "Sword"): 2}),
    ("3", {"blue-b": [{"model": 1, "weapon": "Sword", "attacks": 3}]}, {("blue-b", "Sword"): 3}),
])
def test_fight_splits_attacks(attacks, split, expected):
    action = {"type": "fight", "unit": "red", "target": ["blue-a", "blue-b"],
              "all_out_defence": False, **({"split": split} if split else {})}
    _, (r,) = attempt(split_scene(attacks), action, dice=[6] * 12)
    assert r["legal"], r["violations"]
    assert attacks_at(r) == expected


# A dice Attacks split between targets is rolled first, then dealt: D3 rolls 3 -> 2 at blue-a,
# 1 at blue-b; a count of 3 at blue-b takes at most what it rolled (2).
@pytest.mark.parametrize("split, roll, expected", [
    (None, 3, {("blue-a", "Sword"): 2, ("blue-b", "Sword"): 1}),
    ({"blue-b": [{"model": 1, "attacks": 3}]}, 2, {("blue-b", "Sword"): 2}),
])
def test_a_dice_attacks_is_rolled_before_it_is_split(split, roll, expected):
    action = {"type": "fight", "unit": "red", "target": ["blue-a", "blue-b"],
              "all_out_defence": False, **({"split": split} if split else {})}
    _, (r,) = attempt(split_scene("D3"), action, dice=[roll] + [6] * 12)
    assert attacks_at(r) == expected
    (first,) = r["rolls"][:1]
    assert first["for"] == "attacks (red/1 Sword)" and first["total"] == roll


@pytest.mark.parametrize("split, code", [
    ({"red": [1]}, "split_target"),                                      # not a target
    ({"blue-a": [2]}, "split_model"),                                    # no model 2
    ({"blue-a": [{"model": 1, "attacks": 4}]}, "split_too_many"),        # Attacks 3
    ({"blue-a": [{"model": 1, "weapon": "Axe"}]}, "split_out_of_reach"), # no such weapon
    ({"blue-a": [{"model": 1, "hits": 1}]}, "bad_split"),
])
def test_a_split_that_cannot_be_played_is_refused(split, code):
    _, (r,) = attempt(split_scene("3"), {"type": "fight", "unit": "red",
                                         "target": ["blue-a", "blue-b"], "split": split})
    assert code in codes(r)


# fight.yaml of the audit: red2 at (16.740157,30) is 2.000" from blue2 and 0.44" from red3 (its
# own side); blue-a is 20" away. Seed (fight): "you must pick one or more enemy units as the
# target(s)"; (combat) "Made with melee weapons against units within combat range and visible".
FIGHT = scene(
    unit("red", "red", [(10, 10)], SWORD.replace("ATT", "1"))
    + unit("blue-a", "blue", [(13.259843, 10)], "{name: Club, attacks: 1}")
    + unit("blue-b", "blue", [(7.740157, 10)], "{name: Club, attacks: 1}")
    + unit("red2", "red", [(16.740157, 30)], SWORD.replace("ATT", "1"))
    + unit("blue2", "blue", [(20, 30)], "{name: Club, attacks: 1}")
    + unit("red3", "red", [(16.740157, 28.3)]), combat_state())


@pytest.mark.parametrize("action, code", [
    ({"target": "red3"}, "friendly_target"),                  # "enemy units"
    ({"target": "blue-a"}, "not_in_combat_with"),             # 20" away (N4)
    ({"target": ["blue2", "blue2"]}, "duplicate_target"),     # named twice (N1)
])
def test_fight_targets_are_enemies_in_combat_named_once(action, code):
    _, (r,) = attempt(FIGHT, {"type": "fight", "unit": "red2", **action})
    assert codes(r) == [code]


def test_fight_without_a_target_attacks_the_one_unit_in_combat_and_asks_among_several():
    # red2 is in combat with blue2 alone: that is the target. red is in combat with blue-a
    # and blue-b: the player picks (the window asks for the target: "choose": "target").
    _, (r,) = attempt(FIGHT, {"type": "fight", "unit": "red2", "all_out_defence": False},
                      dice=[6, 6, 6])
    assert attacks_at(r) == {("blue2", "Sword"): 1}
    _, (r,) = attempt(FIGHT, {"type": "fight", "unit": "red"})
    assert [v.get("choose") for v in r["violations"]] == ["target"]


# Pile-in (combat): "Pick enemy unit in combat as target. Each model moves up to 3" but must end
# no further from target unit". red is 2.000" from blue-a and 1.000" from blue-b.
#  - to (9.5,10): 2.5" from its target blue-a -> REFUSED (though nearer blue-b);
#  - to (10.5,10): 1.5" from blue-a (1.5" from blue-b, further) -> LEGAL;
#  - to (10,10) plus nothing: exactly as far (2.000) -> LEGAL; 0.01" back -> REFUSED;
#  - pile_in_target blue-b, to (9.5,10) (0.5" from blue-b), attacking blue-a (2.5", still in
#    combat) -> LEGAL.
#  The refusal names the target the model must end no further from ("2.50\" from blue-a").
@pytest.mark.parametrize("end, extra, legal, said", [
    ((9.5, 10), {}, False, 'red/1 ends 2.50" from blue-a, further than 2.00"'),
    ((10.5, 10), {}, True, ""),
    ((10.0, 10.000001), {}, True, ""),
    ((9.99, 10), {}, False, 'red/1 ends 2.01" from blue-a, further than 2.00"'),
    ((9.5, 10), {"pile_in_target": "blue-b"}, True, ""),
])
def test_pile_in_ends_no_further_from_the_target(end, extra, legal, said):
    _, (r,) = attempt(FIGHT, {"type": "fight", "unit": "red", "target": "blue-a",
                              "path": [list(end)], "all_out_defence": False, **extra},
                      dice=[6, 6, 6])
    assert r["legal"] == legal, r["violations"]
    if not legal:
        assert codes(r) == ["pile_in_further"]
        assert r["violations"][0]["message"] == said


# "Each model moves up to 3\"": red2 (2.000" from blue2) piles in along a chord of the circle
# round blue2 that keeps its gap: to (18.120592,32.663532) is exactly 3.000" -> LEGAL; to
# (18.129810,32.670012) 3.010" -> REFUSED (move_too_far).
@pytest.mark.parametrize("end, legal", [((18.120592, 32.663532), True),
                                        ((18.129810, 32.670012), False)])
def test_pile_in_moves_up_to_three_inches(end, legal):
    _, (r,) = attempt(FIGHT, {"type": "fight", "unit": "red2", "target": "blue2",
                              "path": [list(end)], "all_out_defence": False}, dice=[6, 6, 6])
    assert r["legal"] == legal, r["violations"]
    if not legal:
        assert codes(r) == ["move_too_far"]


def test_pile_in_target_must_be_in_combat_with_the_unit():
    _, (r,) = attempt(FIGHT, {"type": "fight", "unit": "red", "target": "blue-a",
                              "path": [[10.5, 10]], "pile_in_target": "blue2"})
    assert codes(r) == ["pile_in_target"]


# Seed (combat): "Each Unit Must Fight: All units in combat must use a FIGHT ability if able".
# red charged this turn and is in combat with nobody (blue 29" away): it may fight (a pile-in),
# and need not: end-phase is legal, and the phase goes on to the end of the turn (N16).
def test_a_charged_unit_out_of_combat_need_not_fight():
    text = scene(unit("red", "red", [(10, 10)], SWORD.replace("ATT", "1"))
                 + unit("blue", "blue", [(40, 30)]), combat_state(flags="charged"))
    state, (r, r2) = attempt(text, {"type": "end-phase"}, {"type": "end-phase"})
    assert r["legal"] and r2["legal"]
    assert state.clock["phase"] == "end"
    _, (r,) = attempt(scene(unit("red", "red", [(10, 10)], SWORD.replace("ATT", "1"))
                            + unit("blue", "blue", [(12, 10)]), combat_state()),
                      {"type": "end-phase"})
    assert codes(r) == ["must_fight"]


# --- shoot: every ranged weapon, a list of targets shares the attacks -------------------------
# red: two models at (10,10) and (10,11.5), each with a Bow (range 10, Attacks 2) and a Pistol
# (range 10, Attacks 1). blue-at at (21.259843,10): the gap from red/1 is exactly 10.000 (in
# range, "within Range characteristic of the weapon"); from red/2 10.10 (out). blue-b at
# (10,21.5): 8.74 from red/2 (in range), 10.24 from red/1 (out).
# Seed (shooting): "Models attack with all ranged weapons they are armed with"; "If a model has
# more than one attack, you can split attacks between eligible targets".
#  - target blue-at: red/1 alone shoots, Bow 2 + Pistol 1.
#  - targets [blue-at, blue-b]: red/1 reaches blue-at only, red/2 blue-b only: 2 + 1 at each.
#  - blue-past at (21.269843,30) from red3 at (10,30): 10.010 -> REFUSED.
BOW = ("{name: Bow, range: 10, attacks: 2, hit: 2, wound: 2}, "
       "{name: Pistol, range: 10, attacks: 1, hit: 2, wound: 2}")
SHOOT = scene(unit("red", "red", [(10, 10), (10, 11.5)], BOW)
              + unit("blue-at", "blue", [(21.259843, 10)])
              + unit("blue-b", "blue", [(10, 21.5)])
              + unit("red3", "red", [(10, 30)], BOW)
              + unit("blue-past", "blue", [(21.269843, 30)]))


@pytest.mark.parametrize("shooter, target, expected", [
    ("red", "blue-at", {("blue-at", "Bow"): 2, ("blue-at", "Pistol"): 1}),
    ("red", ["blue-at", "blue-b"], {("blue-at", "Bow"): 2, ("blue-at", "Pistol"): 1,
                                    ("blue-b", "Bow"): 2, ("blue-b", "Pistol"): 1}),
    ("red3", "blue-past", None),
])
def test_shoot_fires_every_ranged_weapon_at_every_target(shooter, target, expected):
    _, (r,) = attempt(SHOOT, {"type": "shoot", "unit": shooter, "target": target,
                              "all_out_defence": False}, dice=[6] * 30)
    if expected is None:
        assert codes(r) == ["out_of_range_or_sight"]
    else:
        assert attacks_at(r) == expected


def test_shoot_deals_attacks_a_model_can_aim_at_both_targets_in_turn():
    # red3 (one model, Bow 2 + Pistol 1) has blue-x at 5" and blue-y at 6" both in range:
    # Bow attack 1 -> blue-x, Bow attack 2 -> blue-y, Pistol -> blue-x (the turn goes on).
    text = scene(unit("red3", "red", [(10, 30)], BOW)
                 + unit("blue-x", "blue", [(16.259843, 30)])
                 + unit("blue-y", "blue", [(10, 37.259843)]))
    _, (r,) = attempt(text, {"type": "shoot", "unit": "red3", "target": ["blue-x", "blue-y"],
                             "all_out_defence": False}, dice=[6] * 30)
    assert attacks_at(r) == {("blue-x", "Bow"): 1, ("blue-x", "Pistol"): 1,
                             ("blue-y", "Bow"): 1}


def test_a_weapon_is_not_chosen_on_a_shot_and_try_goes_on():
    # N17: "weapon" on a shoot is refused (every ranged weapon shoots), and the next action runs.
    _, (r, r2) = attempt(SHOOT, {"type": "shoot", "unit": "red", "target": "blue-at",
                                 "weapon": "Nope"}, {"type": "end-phase"})
    assert codes(r) == ["unknown_key"] and r2["legal"]


# --- Shoot in Combat ---------------------------------------------------------------------------
# sic.yaml: red (Sling range 15 with shoot-in-combat, a Knife, and a Bow without it) is in
# combat with blue (gap 1.74"). Seed (shooting): "Models cannot make shooting attacks if their
# unit is in combat unless otherwise specified" -> the Sling shoots, the Bow does not; red-plain
# (Bow only) is REFUSED. Odds agree: the Sling alone, hit 2+ and wound 2+ -> 25/36.
SIC = scene(
    unit("red", "red", [(10, 10)], "{name: Sling, range: 15, attacks: 1, hit: 2, wound: 2, "
         "abilities: [shoot-in-combat]}, {name: Bow, range: 15, attacks: 1, hit: 2, wound: 2}, "
         "{name: Knife, attacks: 1}")
    + unit("blue", "blue", [(13, 10)])
    + unit("red-plain", "red", [(10, 30)], "{name: Bow, range: 15, attacks: 1}")
    + unit("blue2", "blue", [(13, 30)]))


def test_shoot_in_combat_shoots_only_those_weapons_and_odds_agree():
    _, (r,) = attempt(SIC, {"type": "shoot", "unit": "red", "target": "blue",
                            "all_out_defence": False}, dice=[6, 6])
    assert attacks_at(r) == {("blue", "Sling"): 1}
    _, (r,) = attempt(SIC, {"type": "shoot", "unit": "red-plain", "target": "blue2"})
    assert codes(r) == ["in_combat"]
    s = load_scene_text(SIC)
    o = attack_odds(Referee(s), 0, 1, shooting=True)
    assert o.kind == "shooting" and list(o.attackers) == ["Sling"]
    assert o.expected_damage == pytest.approx(25 / 36)
    assert attack_odds(Referee(s), 2, 3, shooting=True).reason.startswith("red-plain is in combat")


# --- Charge (+1 Damage) and Companion -------------------------------------------------------
# red (Lance, Charge (+1 Damage), Damage 1) fights blue (no save): dice 6,6 hit and wound -> 2
# damage when red charged this turn, 1 when it did not. The demo's spelling charge-+1-damage is
# the same ability. Odds: --charging doubles the mean of a Damage 1 attack (25/36 -> 50/36).
@pytest.mark.parametrize("ability", ["charge-damage", "charge-+1-damage"])
@pytest.mark.parametrize("flags, damage", [("charged", 2), ("", 1)])
def test_charge_adds_one_damage_after_a_charge(ability, flags, damage):
    text = scene(unit("red", "red", [(10, 10)], "{name: Lance, attacks: 1, hit: 2, wound: 2, "
                      f"damage: 1, abilities: ['{ability}']}}")
                 + unit("blue", "blue", [(12, 10)]), combat_state(flags=flags))
    _, (r,) = attempt(text, {"type": "fight", "unit": "red", "target": "blue"}, dice=[6, 6])
    (e,) = [e for e in r["events"] if e["type"] == "attack"]
    assert e["damage"] == damage
    s = load_scene_text(text)
    assert attack_odds(Referee(s), 0, 1, charging=bool(flags)).expected_damage == \
        pytest.approx(25 / 36 * damage)


# Companion: "This weapon is not affected by abilities used by a friendly unit" - the unit's own
# buffs (a +1 to hit spell) leave it alone; All-out Attack does affect it (seed: "This also
# affects weapons that have the Companion weapon ability"). Hit 4+, die 3: 3 + 1 = 4 hits.
@pytest.mark.parametrize("abilities, command, hits", [
    ("[]", None, 1),                       # the buff: 3 + 1 hits
    ("[companion]", None, 0),              # no buff on a Companion weapon: 3 misses
    ("[companion]", "all-out-attack", 1),  # All-out Attack: 3 + 1 hits
])
def test_companion_weapons_ignore_the_units_own_buffs(abilities, command, hits):
    text = scene(unit("red", "red", [(10, 10)], "{name: Claws, attacks: 1, hit: 4, wound: 2, "
                      f"abilities: {abilities}}}")
                 + unit("blue", "blue", [(12, 10)]),
                 combat_state(counters="" if command else "buff_hit: 1"))
    _, (r,) = attempt(text, {"type": "fight", "unit": "red", "target": "blue",
                             **({"command": command} if command else {})}, dice=[3, 6])
    (e,) = [e for e in r["events"] if e["type"] == "attack"]
    assert e["hits"] == hits


def test_a_weapon_ability_aos4_does_not_know_is_refused_at_load_naming_it():
    text = scene(unit("red", "red", [(10, 10)], "{name: Claw, attacks: 1, abilities: "
                      "['Crit (Mortal)']}") + unit("blue", "blue", [(12, 10)]))
    with pytest.raises(InputError, match=r"Claw: aos4 does not know the weapon ability "
                                         r"'Crit \(Mortal\)'"):
        checked(load_scene_text(text))


# --- the window's auto-pass and clicks ------------------------------------------------------
# The play window passes a phase by itself when no unit has anything to decide
# (rules.choices.open_choices). A unit in combat with a Shoot in Combat weapon may shoot: the
# shooting phase is not passed over. red-plain alone (a Bow without it, in combat): nothing to
# decide, the phase passes.
def test_auto_pass_offers_a_shot_in_combat_only_with_shoot_in_combat():
    from battlefield.rules.choices import open_choices

    state = at(SIC, Action("shoot", unit="red"))
    assert state.clock["phase"] == "shooting"
    assert "shoot" in open_choices(state)
    plain = scene(unit("red-plain", "red", [(10, 30)], "{name: Bow, range: 15, attacks: 1}")
                  + unit("blue2", "blue", [(13, 30)]))
    state = at(plain, Action("shoot", unit="red-plain"))
    assert "shoot" not in open_choices(state)


def test_a_fight_with_one_unit_in_combat_needs_no_target_click():
    # The window clicks the unit, then asks for a target only when the check says
    # "choose": "target" - with several units in combat, not with one (FIGHT's red2 / red).
    state = at(FIGHT, Action("fight", unit="red2"))
    assert state.check(Action("fight", unit="red2")) == []
    assert [x.choose for x in state.check(Action("fight", unit="red"))] == ["target"]
