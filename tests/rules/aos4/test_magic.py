"""The hero phase with fixed dice: casting, miscasts, unbinding, prayers and ritual points."""

from __future__ import annotations

from battlefield.rules.actions import Action
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

SCENE = """
ruleset: aos4
board: {width: 60, depth: 44}
units:
  - id: wizard
    side: red
    stats: {move: 5, health: 5, save: 5, control: 1, power: 1}
    keywords: [HERO, WIZARD]
    spells:
      - {id: bolt, casting_value: 7, range: 18, target: enemy, effect: {mortal: 2}}
      - {id: ward, casting_value: 6, range: 12, target: friendly, effect: {buff: {save: 1}}}
    models: [{base: 32, at: [10, 22]}]
  - id: priest
    side: red
    stats: {move: 5, health: 5, save: 5, control: 1}
    keywords: [HERO, PRIEST]
    prayers:
      - {id: smite, chanting_value: 6, range: 12, target: enemy, effect: {mortal: 1}}
    models: [{base: 32, at: [10, 26]}]
  - id: foes
    side: blue
    stats: {move: 5, health: 1, save: 4, control: 1}
    models: [{base: 32, at: [20, 22]}, {base: 32, at: [20, 23.5]}, {base: 32, at: [20, 25]}]
{more}
"""
SEER = """  - id: seer
    side: blue
    stats: {move: 5, health: 5, save: 5, control: 1, power: 1}
    keywords: [HERO, WIZARD]
    models: [{base: 32, at: [40, 22]}]"""


def play(*actions, dice=(), more=""):
    state, results = run(load_scene_text(SCENE.replace("{more}", more)),
                         [Action.from_dict(a) for a in actions], seed=1, dice=list(dice))
    return state, results


def kinds(result):
    return [e["type"] for e in result["events"]]


def test_cast_and_effect():
    state, (r,) = play({"type": "bolt", "unit": "wizard", "target": "foes"}, dice=[3, 4])
    cast = r["events"][0]
    assert cast["result"] == "cast" and cast["roll"] == 7
    assert len(state.models_of(2)) == 1            # 2 mortal damage: two 1-health models


def test_failed_cast_and_once_per_phase_power():
    _, (r, again) = play({"type": "bolt", "unit": "wizard", "target": "foes"},
                         {"type": "ward", "unit": "wizard", "target": "priest"}, dice=[2, 4])
    assert r["events"][0]["result"] == "failed"
    assert [v["code"] for v in again["violations"]] == ["power_level"]


def test_miscast_hurts_the_wizard():
    state, (r,) = play({"type": "bolt", "unit": "wizard", "target": "foes"}, dice=[1, 1, 2])
    assert r["events"][0]["result"] == "miscast"
    assert state.units[0].damage[0] == 2            # D3 rolled 2


def test_unbinding_within_30_inches():
    # Seer 30" from the wizard (edge to edge 28.74"): unbinds on 2D6 over the casting roll 7.
    _, (r,) = play({"type": "bolt", "unit": "wizard", "target": "foes"}, dice=[3, 4, 4, 4],
                   more=SEER)
    assert kinds(r)[:4] == ["cast", "decision", "decided", "unbind"] and r["events"][3]["unbound"]
    assert not any(e["type"] == "mortal-damage" for e in r["events"])
    _, (r,) = play({"type": "bolt", "unit": "wizard", "target": "foes"}, dice=[3, 4, 3, 4],
                   more=SEER)
    assert not r["events"][3]["unbound"]            # 7 does not beat 7


SCORN = """  - id: slayers
    side: blue
    stats: {move: 5, health: 5, save: 5, control: 1}
    keywords: [HERO]
    abilities:
      - {name: Scorn of Sorcery, kind: passive, effect: "This unit can use UNBIND abilities as
          if it had WIZARD (1)."}
    models: [{base: 32, at: [40, 22]}]"""


def test_unbinding_as_if_it_had_wizard_1():
    # Scorn of Sorcery (the Slaughterpriest's, as the data words it): a HERO that is no WIZARD
    # unbinds as one of power level 1
    _, (r,) = play({"type": "bolt", "unit": "wizard", "target": "foes"}, dice=[3, 4, 4, 4],
                   more=SCORN)
    assert kinds(r)[:4] == ["cast", "decision", "decided", "unbind"] and r["events"][3]["unbound"]
    _, (r,) = play({"type": "bolt", "unit": "wizard", "target": "foes"}, dice=[3, 4, 4, 4],
                   more=SCORN.replace("UNBIND abilities", "BANISH abilities"))
    assert "unbind" not in kinds(r)         # not read: no unbind


def test_an_unbinding_roll_modified():
    # Arcane Disruption on the caster's side: -1 to the enemy WIZARD's unbinding roll (8 - 1)
    more = SEER + "\n" + """  - id: disruptor
    side: red
    stats: {move: 5, health: 5, save: 5, control: 1}
    abilities:
      - {name: Arcane Disruption, kind: passive, effect: "Subtract 1 from casting rolls and
          unbinding rolls for enemy WIZARDS while they are within 12\\" of this unit."}
    models: [{base: 32, at: [40, 26]}]"""
    _, (r,) = play({"type": "bolt", "unit": "wizard", "target": "foes"}, dice=[3, 4, 4, 4],
                   more=more)
    unbind = next(e for e in r["events"] if e["type"] == "unbind")
    assert unbind["roll"] == 7 and unbind["modifier"] == -1 and not unbind["unbound"]
    assert unbind["abilities"] == ["Arcane Disruption"]


def test_target_rules():
    _, (r,) = play({"type": "bolt", "unit": "wizard", "target": "priest"})
    assert [v["code"] for v in r["violations"]] == ["wrong_target"]
    _, (r,) = play({"type": "bolt", "unit": "wizard", "target": "seer"}, more=SEER)
    assert [v["code"] for v in r["violations"]] == ["out_of_range"]


def test_prayer_ritual_points():
    # Chant 4: 4 < 6 and no ritual points: banked (4). Next turn's prayers would add them.
    state, (r,) = play({"type": "smite", "unit": "priest", "target": "foes"}, dice=[4])
    assert r["events"][0]["result"] == "ritual points"
    assert state.units[1].counters["ritual"] == 4


def test_sacred_rites_banks_safely_and_counts_as_a_prayer():
    # A 1 on Sacred Rites is still banked (it is safe), and it uses the priest's one prayer.
    state, (rites, smite) = play({"type": "sacred-rites", "unit": "priest"},
                                 {"type": "smite", "unit": "priest", "target": "foes"},
                                 dice=[1, 2])
    assert rites["legal"] and state.units[1].counters.get("ritual", 0) == 1
    assert [v["code"] for v in smite["violations"]] == ["power_level"]


def test_unmodified_one_fails_a_prayer():
    state, (r,) = play({"type": "smite", "unit": "priest", "target": "foes"}, dice=[1, 2])
    assert r["events"][0]["result"] == "failed"


def test_not_a_wizard():
    _, (r,) = play({"type": "bolt", "unit": "priest", "target": "foes"})
    assert [v["code"] for v in r["violations"]] == ["unknown_spell"]


# Real spells of the data whose effect is no mortal damage or healing, played as the unit's
# ability of that name (spells: effect {ability: NAME}; army import writes them so).
FAILING = ("Failing Fortitude", "Pick a visible enemy unit within 18\" of this unit to be the "
           "target, then make a casting roll of 2D6.", "Until the start of your next turn, "
           "subtract 1 from wound rolls for the target's attacks.")
QUICKBLOOD = ("Quickblood", "Make a casting roll of 2D6.", "This unit has STRIKE-FIRST until "
              "the start of your next turn.")
AS_ABILITY = """
ruleset: aos4
board: {width: 60, depth: 44}
units:
  - id: wizard
    side: red
    stats: {move: 5, health: 5, save: 5, control: 1, power: 2}
    keywords: [HERO, WIZARD]
    spells:
      - {id: failing-fortitude, casting_value: 6, range: 18, target: enemy,
         effect: {ability: Failing Fortitude}}
      - {id: quickblood, casting_value: 7, target: self, effect: {ability: Quickblood}}
    abilities:
""" + "".join(f"""      - name: {n}
        kind: spell
        timing: Your Hero Phase
        declare: '{d}'
        effect: "{e}"
""" for n, d, e in (FAILING, QUICKBLOOD)) + """    models: [{base: 32, at: [10, 22]}]
  - id: foes
    side: blue
    stats: {move: 5, health: 1, save: 4, control: 1}
    models: [{base: 32, at: [20, 22]}]
"""


def test_a_spell_played_as_the_units_ability():
    """Failing Fortitude cast (3 + 4 = 7 against 6): -1 to wound rolls for foes' attacks until
    red's next turn; Quickblood (4 + 4): the wizard has STRIKE-FIRST until then."""
    from battlefield.army.convert import magic_item

    state, (r, q) = run(load_scene_text(AS_ABILITY),
                        [Action("failing-fortitude", "wizard", target="foes"),
                         Action("quickblood", "wizard")], seed=1, dice=[3, 4, 4, 4])
    assert [e["type"] for e in r["events"]] == ["cast", "ability-effect"]
    assert r["events"][1]["effect"] == "-1 to wound rolls until the start of red's next turn"
    assert state.units[1].counters["buff_wound"] == -1
    assert q["events"][1]["effect"] == "STRIKE-FIRST until the start of red's next turn"
    assert "strike-first" in state.units[0].flags
    assert magic_item(*FAILING[1:], "spell", FAILING[0]) == {
        "target": "enemy", "range": 18, "effect": {"ability": "Failing Fortitude"}}
    assert magic_item(*QUICKBLOOD[1:], "spell", QUICKBLOOD[0]) == {
        "target": "self", "effect": {"ability": "Quickblood"}}


def test_a_spell_naming_an_ability_the_engine_does_not_play_is_refused():
    import pytest

    from battlefield.errors import InputError

    bad = AS_ABILITY.replace("effect: {ability: Quickblood}", "effect: {ability: Nothing}")
    with pytest.raises(InputError, match="no ability 'Nothing'"):
        run(load_scene_text(bad), [Action("quickblood", "wizard")], seed=1, dice=[4, 4])


def test_the_quoted_spells_are_in_the_data(bsdata):
    from .test_effects import _in_data

    _, text = _in_data(bsdata)
    for name, _, effect in (FAILING, QUICKBLOOD):
        assert " ".join(effect.split()) in text, name
