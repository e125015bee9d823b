"""Commands and the Rules of One in the hero phase (seed 000: magical-intervention, rally, and
the rule sections startOfBattleRound's command rules, startOfTurn's Rules of One and hero's
UNLIMITED): "Each unit can only use 1 command in each phase", "Each command can only be used 1
time by each army in each phase", "A unit cannot use the same ability more than once per phase",
"A unit cannot be affected by the same passive ability more than once at the same time"."""

from __future__ import annotations

from battlefield.rulings import Referee

from .magic_scenes import GAP, codes, event, play

MI = "magical-intervention"


def scene(active: str = "blue", spells: str = "", power: int = 1, more: str = "") -> str:
    """red-wiz and red-priest (power `power`) 4" apart, red-tgt beside them, blue-tgt 6" from
    red-wiz; `active`'s turn. Bolt: casting value 7, D3 mortal damage."""
    spells = spells or "[{id: bolt, casting_value: 7, range: 18, effect: {mortal: D3}}]"
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
state: {{active: {active}}}
units:
  - id: red-wiz
    side: red
    keywords: [HERO, WIZARD]
    stats: {{move: 5, health: 5, save: 4, power: {power}}}
    spells: {spells}
    models: [{{base: 32, at: [10, 10]}}]
  - id: red-priest
    side: red
    keywords: [HERO, PRIEST]
    stats: {{move: 5, health: 5, save: 4, power: {power}}}
    prayers: [{{id: smite, chanting_value: 3, range: 18, effect: {{mortal: 1}}}}]
    models: [{{base: 32, at: [14, 10]}}]
  - id: red-tgt
    side: red
    stats: {{move: 5, health: 5, save: 4}}
    models: [{{base: 32, at: [12, 13]}}]
  - id: blue-tgt
    side: blue
    stats: {{move: 5, health: 5, save: 4}}
    models: [{{base: 32, at: [10, {10 + 6 + GAP}]}}]
{more}"""


BOLT = {"type": "bolt", "unit": "red-wiz", "target": "blue-tgt"}


def test_magical_intervention_only_in_the_enemy_hero_phase():
    # Timing "Enemy Hero Phase": in red's own hero phase it is refused.
    _, (r,) = play(scene(active="red"), {**BOLT, "command": MI}, dice=(4, 4, 2))
    assert codes(r) == ["wrong_phase"] and "enemy hero phase" in r["violations"][0]["message"]
    # In blue's hero phase: 1 CP, and -1 to the casting roll: 4+4 = 8 - 1 = 7 >= 7, cast.
    state, (r,) = play(scene(), {**BOLT, "command": MI}, dice=(4, 4, 2))
    assert r["legal"] and event(r, "cast")["roll"] == 7 and state.sides["red"]["cp"] == 3


def test_magical_intervention_is_the_units_command_for_the_phase():
    # MI, then Rally by the same unit in the same phase: a second command - refused.
    _, (mi, rally) = play(scene(), {**BOLT, "command": MI}, {"type": "rally", "unit": "red-wiz"},
                          dice=(4, 4, 2))
    assert mi["legal"] and codes(rally) == ["unit_command_used"]
    # Rally first, then MI: refused the same way.
    _, (rally, mi) = play(scene(), {"type": "rally", "unit": "red-wiz"}, {**BOLT, "command": MI},
                          dice=(4, 4, 4, 4, 4, 4))
    assert rally["legal"] and codes(mi) == ["unit_command_used"]
    # Another unit may rally: each unit 1 command (rally and MI are different commands).
    _, (mi, rally) = play(scene(), {**BOLT, "command": MI}, {"type": "rally", "unit": "red-tgt"},
                          dice=(4, 4, 2, 4, 4, 4, 4, 4, 4))
    assert mi["legal"] and rally["legal"]


def test_a_command_given_twice_is_refused():
    _, (r,) = play(scene(), {**BOLT, "command": [MI, MI]}, dice=(4, 4, 2))
    assert codes(r) == ["command_twice"]


def test_an_unlimited_spell_once_per_phase_by_one_unit():
    # UNLIMITED lifts "once per turn" and "no more than 1 friendly WIZARD", not the Rule of One:
    # red-wiz (power 2) casts zap, then zap again - refused; a second wizard may cast it.
    zap = "[{id: zap, casting_value: 5, range: 18, unlimited: true, effect: {mortal: 1}}]"
    more = f"""  - id: red-wiz2
    side: red
    keywords: [HERO, WIZARD]
    stats: {{move: 5, health: 5, save: 4}}
    spells: {zap}
    models: [{{base: 32, at: [6, 10]}}]"""
    z = {"type": "zap", "unit": "red-wiz", "target": "blue-tgt"}
    _, (a, b, c) = play(scene("red", zap, power=2, more=more), z, z,
                        {**z, "unit": "red-wiz2"}, dice=(4, 4, 4, 4))
    assert a["legal"] and codes(b) == ["once_per_phase"] and c["legal"]


def test_sacred_rites_once_per_phase_by_one_priest():
    rites = {"type": "sacred-rites", "unit": "red-priest"}
    _, (a, b) = play(scene("red", power=2), rites, rites, dice=(3, 3))
    assert a["legal"] and codes(b) == ["once_per_phase"]


def test_the_same_buff_spell_does_not_stack():
    # Two wizards cast the UNLIMITED emberskin (+1 save) on red-tgt in one phase: "cannot be
    # affected by the same ... ability more than once at the same time": +1, not +2.
    skin = "[{id: emberskin, casting_value: 5, range: 12, target: friendly, unlimited: true, " \
           "effect: {buff: {save: 1}}}]"
    more = f"""  - id: red-wiz2
    side: red
    keywords: [HERO, WIZARD]
    stats: {{move: 5, health: 5, save: 4}}
    spells: {skin}
    models: [{{base: 32, at: [6, 10]}}]"""
    cast = {"type": "emberskin", "unit": "red-wiz", "target": "red-tgt"}
    state, (a, b) = play(scene("red", skin, more=more), cast, {**cast, "unit": "red-wiz2"},
                         dice=(4, 4, 4, 4))
    assert a["legal"] and b["legal"]
    assert state.units[2].counters["buff_save"] == 1


RALLY_SCENE = """
ruleset: aos4
board: {width: 60, depth: 44}
units:
  - {id: blades, side: red, stats: {move: 5, health: 2, save: 4},
     models: [{base: 32, at: [10, 10]}, {base: 32, at: [11.5, 10]}, {base: 32, at: [13, 10]},
              {base: 32, at: [14.5, 10]}]}
  - {id: blue, side: blue, stats: {move: 5, health: 5, save: 4},
     models: [{base: 32, at: [50, 40]}]}
state:
  round: 1
  phase: hero
  active: red
  acting: red
  clock: {round: 1, turn: 1, active: red, first: red, phase: hero, acting: red, over: false,
          underdog: null}
  sides:
    red: {cp: 4, vp: 0, commands: [], spells: [], prayers: []}
    blue: {cp: 4, vp: 0, commands: [], spells: [], prayers: []}
  objectives: {}
  units:
    blades: {damage: [0, 1, 0, 0], slain: [3, 4]}
  dice: 1
"""


def test_rally_points_spent_in_any_combination():
    # Health 2; blades/2 has 1 damage, blades/3 and /4 are slain. 4,4,4,4,1,1: 4 rally points.
    # "You can spend a number of rally points equal to the Health characteristic of that unit to
    # return a slain model ... in any combination": by default both return (4 standing).
    state, (r,) = play(RALLY_SCENE, {"type": "rally", "unit": "blades"}, dice=(4, 4, 4, 4, 1, 1))
    assert event(r, "rally")["returned"] == ["blades/3", "blades/4"]
    assert int(state.units[0].alive.sum()) == 4
    # Chosen: heal 1 and return 1 (2 + 1 points, 1 unspent and lost).
    state, (r,) = play(RALLY_SCENE, {"type": "rally", "unit": "blades",
                                     "spend": {"heal": 1, "return": 1}}, dice=(4, 4, 4, 4, 1, 1))
    e = event(r, "rally")
    assert (e["healed"], e["returned"], e["unspent"]) == (1, ["blades/3"], 1)
    _, (r,) = play(RALLY_SCENE, {"type": "rally", "unit": "blades", "spend": {"revive": 1}})
    assert codes(r) == ["bad_spend"]


def test_rally_returns_models_beside_the_unit_after_it_moved():
    # The slain models fell at (30, 30); the unit stands at (10, 10): 6 points return both
    # beside it (coherent) and heal 1, the sixth point is lost.
    far = RALLY_SCENE.replace("{base: 32, at: [13, 10]}", "{base: 32, at: [30, 30]}").replace(
        "{base: 32, at: [14.5, 10]}", "{base: 32, at: [31.5, 30]}")
    state, (r,) = play(far, {"type": "rally", "unit": "blades"}, dice=(4,) * 6)
    e = event(r, "rally")
    assert (e["healed"], e["returned"]) == (1, ["blades/3", "blades/4"])
    assert Referee(state.scene, state.table).coherency(0).coherent


def test_banish_manifestation_is_refused_with_its_reason():
    # No scene has a manifestation (the seed gives no manifestation warscroll): refused in the
    # one line the coverage table gives.
    _, (r,) = play(scene("red"), {"type": "banish-manifestation", "unit": "red-wiz"})
    assert codes(r) == ["not_played"]
    assert r["violations"][0]["message"] == (
        "banish-manifestation: scenes have no manifestations (the seed gives no manifestation "
        "warscroll), so there is nothing to banish")


def test_a_command_ability_with_a_reaction_command_is_two_commands_of_one_unit():
    # Covering Fire is a command; All-out Attack written on it is a second command of the same
    # unit in the same phase: "Each unit can only use 1 command in each phase".
    archers = """  - id: red-archers
    side: red
    stats: {move: 5, health: 1, save: 5}
    weapons: [{name: bow, range: 18, attacks: 1, hit: 4, wound: 4, rend: 0, damage: 1}]
    models: [{base: 32, at: [10, 30]}]"""
    cf = {"type": "covering-fire", "unit": "red-archers", "target": "blue-tgt"}
    _, (r,) = play(scene("blue", more=archers), {**cf, "command": "all-out-attack"})
    assert "unit_command_used" in codes(r)
    assert "commands in one phase" in next(v["message"] for v in r["violations"]
                                            if v["code"] == "unit_command_used")
