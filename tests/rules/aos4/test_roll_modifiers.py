"""Abilities that modify rolls outside an attack (passives.roll_bonus): charge rolls (in play
and in the charge odds), the number of dice of a charge roll, run rolls, the Move
characteristic, control scores and casting rolls - each a scenario worked out by hand, on the
real warscroll texts (checked against the catalogues)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import charge, passives, turns
from battlefield.rules.aos4.movement_phase import allowance, move_stat
from battlefield.rules.aos4.rules import RULESET
from battlefield.rules.log import rules_for
from battlefield.rules.state import Game
from battlefield.rules.trial import advance, run, start
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from .test_effects import _in_data

R = 32 / 25.4 / 2               # a 32 mm base's radius
BOSS = ("Boss Snarlfang", "Add 2 to charge rolls for friendly GITMOB CAVALRY units while they "
        "are wholly within 12\" of this unit.")
WRATH = ("Inescapable Wrath", "Add 1 to the number of dice rolled when making charge rolls for "
         "this unit, to a maximum of 3.")
HORN = ("Kurnothi War-horn", "Add 2\" to the Move characteristic of friendly KURNOTHI units "
        "while they are wholly within 12\" of this unit.")
SKULLS = ("Trial of Skulls", "Add 8 to this unit's control score while it is in combat.")
DORMANT = ("Dormant Energies", "Add 1 to casting rolls for this unit.")


def scene(ability: tuple[str, str] | None, keywords: str = "[]", red_at=(10, 22),
          blue_at=((20, 22),)) -> str:
    entry = json.dumps({"name": ability[0], "kind": "passive", "effect": ability[1]}) \
        if ability else ""
    mine = f"    abilities: [{entry}]\n" if ability else ""
    blue = ", ".join(f"{{base: 32, at: [{x}, {y}]}}" for x, y in blue_at)
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
objectives: [{{id: centre, at: [30, 22]}}]
units:
  - id: red
    side: red
    stats: {{move: 5, health: 5, save: 4, control: 1, power: 1}}
    keywords: {keywords}
    weapons: [{{name: blade, attacks: 2, hit: 3, wound: 3, damage: 1}}]
    spells: [{{id: bolt, casting_value: 7, range: 18, target: enemy, effect: {{mortal: 1}}}}]
{mine}    models: [{{base: 32, at: [{red_at[0]}, {red_at[1]}]}}]
  - id: blue
    side: blue
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: [{{name: blade, attacks: 2, hit: 3, wound: 3, damage: 1}}]
    models: [{blue}]
"""


def state_of(text: str):
    return Game(rules_for("aos4"), load_scene_text(text), 1).new_state()


# red's base edge 8.74" from blue's; the charge ends 1/2" short of it: 8.24" needed
NEEDED = 10 - 2 * R - 0.5
PATH = [[10, 22], [20 - 2 * R - 0.4, 22]]          # 8.4" long: ends 0.4" from blue's base


def charged(text: str, dice: list[int]) -> dict:
    _, (r,) = run(load_scene_text(text), [Action.from_dict(
        {"type": "charge", "unit": "red", "target": "blue", "path": PATH})], seed=1, dice=dice)
    return r


def test_a_charge_modifier_in_the_odds():
    plain = charge.charge_odds(RULESET.book, Referee(load_scene_text(scene(None))), 0, 1)
    boss = charge.charge_odds(RULESET.book, Referee(load_scene_text(
        scene(BOSS, "[GITMOB, CAVALRY]"))), 0, 1)
    assert plain.needed == pytest.approx(NEEDED, abs=1e-3)
    assert plain.probability == pytest.approx(float(Fraction(10, 36)))     # 9+ on 2D6
    assert boss.probability == pytest.approx(float(Fraction(21, 36)))      # 7+: 7 + 2 >= 8.24
    # the keyword the aura names: a unit without it gets nothing
    other = charge.charge_odds(RULESET.book, Referee(load_scene_text(scene(BOSS))), 0, 1)
    assert other.probability == plain.probability


def test_a_charge_modifier_in_play():
    r = charged(scene(BOSS, "[GITMOB, CAVALRY]"), [3, 4])       # 7 + 2 = 9 >= 8.4
    roll = next(e for e in r["events"] if e["type"] == "charge-roll")
    assert roll["roll"] == 7 and roll["modifier"] == 2 and roll["abilities"] == [BOSS[0]]
    assert any(e["type"] == "charged" for e in r["events"])
    r = charged(scene(None), [3, 4])                             # 7 < 8.4
    assert any(e["type"] == "charge-failed" for e in r["events"])


def declared(text: str, dice: list[int]) -> dict:
    """A charge declared without its path (the seed's order): the roll first."""
    _, (r,) = run(load_scene_text(text), [Action.from_dict(
        {"type": "charge", "unit": "red", "target": "blue"})], seed=1, dice=dice)
    return r


def test_a_charge_modifier_when_the_roll_comes_before_the_path():
    # 3 + 4 = 7 and Boss Snarlfang's +2: 9" to move, more than the 8.24" needed - the
    # charging side is asked for the move; without the ability 7" reaches nothing: it fails
    r = declared(scene(BOSS, "[GITMOB, CAVALRY]"), [3, 4])
    roll = next(e for e in r["events"] if e["type"] == "charge-roll")
    assert roll["roll"] == 7 and roll["modifier"] == 2
    assert not any(e["type"] == "charge-failed" for e in r["events"])
    r = declared(scene(None), [3, 4])
    failed = next(e for e in r["events"] if e["type"] == "charge-failed")
    assert "no legal charge of 7" in failed["failed"]
    # 3D6 (Inescapable Wrath): 2 + 2 + 5 = 9 reaches
    r = declared(scene(WRATH), [2, 2, 5])
    assert next(e for e in r["events"] if e["type"] == "charge-roll")["dice"] == "3D6"
    assert not any(e["type"] == "charge-failed" for e in r["events"])


def test_more_dice_for_the_charge_roll():
    st = state_of(scene(WRATH))
    assert charge.charge_roll_of(st, 0) == ("3D6", 0, [])
    assert charge.longest_charge(st, 0) == 18 and allowance(st, 0, "charge") == 18
    r = charged(scene(WRATH), [1, 2, 5])                          # 3D6: 8 < 8.4
    assert next(e for e in r["events"] if e["type"] == "charge-roll")["dice"] == "3D6"
    assert any(e["type"] == "charge-failed" for e in r["events"])
    r = charged(scene(WRATH), [2, 2, 5])                          # 9 >= 8.4
    assert any(e["type"] == "charged" for e in r["events"])
    odds = charge.charge_odds(RULESET.book, Referee(load_scene_text(scene(WRATH))), 0, 1)
    assert odds.probability == pytest.approx(160 / 216)          # 9+ on 3D6


def test_a_move_modifier():
    st = state_of(scene(HORN, "[KURNOTHI]"))
    assert move_stat(st, 0) == 7 and allowance(st, 0, "run") == 13
    _, (r,) = run(load_scene_text(scene(HORN, "[KURNOTHI]", blue_at=((40, 22),))),
                  [Action.from_dict({"type": "normal-move", "unit": "red",
                                     "path": [[10, 22], [16.5, 22]]})], seed=1)
    assert r["legal"]
    _, (r,) = run(load_scene_text(scene(None, blue_at=((40, 22),))),
                  [Action.from_dict({"type": "normal-move", "unit": "red",
                                     "path": [[10, 22], [16.5, 22]]})], seed=1)
    assert not r["legal"]


def test_a_run_modifier_of_the_turn():
    """An activated ability's +1 to run rolls for the rest of the turn (counter buff_run): a
    run roll of 2 lets the unit move 5 + 2 + 1 = 8"."""
    action = Action.from_dict({"type": "run", "unit": "red", "path": [[10, 22], [17.9, 22]]})
    for buff, legal in ((1, True), (0, False)):
        st = start(load_scene_text(scene(None, blue_at=((40, 22),))), [action], 1, [2])
        assert not advance(st, action)
        st.units[0].counters["buff_run"] = buff
        assert passives.bonus_now(st, 0, "run") == (buff, [])
        events = st.apply(action)
        ran = next(e for e in events if e["type"] == "run")
        assert ran["roll"] == 2 and ran["allowed"] == 5 + 2 + buff
        assert any(e["type"] == "run-short" for e in events) != legal


def test_a_control_score_modifier():
    """Red's one model (Control 1) and blue's three (Control 1 each) on the objective, in
    combat: 1 + 8 = 9 against 3 with Trial of Skulls, 1 against 3 without."""
    blue = ((30.5, 22), (30.5, 23.3), (30.5, 20.7))
    for ability, holder in ((SKULLS, "red"), (None, "blue")):
        st = state_of(scene(ability, red_at=(29.2, 22), blue_at=blue))
        ev = turns.control_objectives(st)[0]
        assert ev["controlled_by"] == {"centre": holder}


def test_a_casting_modifier():
    for ability, result in ((DORMANT, "cast"), (None, "failed")):
        _, (r,) = run(load_scene_text(scene(ability, "[HERO, WIZARD]")),
                      [Action.from_dict({"type": "bolt", "unit": "red", "target": "blue"})],
                      seed=1, dice=[3, 3])
        cast = r["events"][0]
        assert cast["result"] == result and cast["roll"] == (7 if ability else 6)


def test_every_quoted_text_is_in_the_data(bsdata):
    _, text = _in_data(bsdata)
    for _, effect in (BOSS, WRATH, HORN, SKULLS, DORMANT):
        assert " ".join(effect.split()) in text
