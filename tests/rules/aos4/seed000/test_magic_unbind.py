"""Unbind (seed 000, abilities: unbind) - "Reaction: Opponent declared a SPELL ability. Pick a
friendly WIZARD within 30" of the enemy WIZARD casting the spell to use this ability. Make an
unbinding roll of 2D6. If the roll exceeds the casting roll for the spell, then the spell is
unbound and its effect is not resolved. This reaction cannot be used more than once per casting
roll." The other side's pending decision: which WIZARD, or decline."""

from __future__ import annotations

import pytest

from battlefield.errors import InputError
from battlefield.rules.actions import Action
from battlefield.rules.aos4.player import Aos4Player
from battlefield.rules.trial import advance, start
from battlefield.scene.load import load_scene_text

from .magic_scenes import GAP, codes, event, kinds, play

BOLT = {"type": "bolt", "unit": "red-wiz", "target": "blue-tgt"}


def scene(gap: float = 30.0, z: float = 0.0, power: int = 1, more: str = "") -> str:
    """red-wiz at (10, 10); blue-wiz `gap` inches edge to edge along x (on a piece `z` tall
    when z > 0); blue-tgt 6" from red-wiz. Bolt: casting value 7, D3 mortal damage."""
    x = 10 + gap + GAP
    hill = (f"terrain:\n  - {{id: hill, outline: [[{x - 2}, 8], [{x + 2}, 8], [{x + 2}, 12], "
            f"[{x - 2}, 12]], height: {z}}}\n" if z else "")
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
{hill}units:
  - id: red-wiz
    side: red
    keywords: [HERO, WIZARD]
    stats: {{move: 5, health: 5, save: 4, power: 1}}
    spells: [{{id: bolt, casting_value: 7, range: 18, effect: {{mortal: D3}}}},
             {{id: flare, casting_value: 5, range: 18, effect: {{mortal: 1}}}}]
    models: [{{base: 32, at: [10, 10]}}]
  - id: blue-wiz
    side: blue
    keywords: [HERO, WIZARD]
    stats: {{move: 5, health: 5, save: 4, power: {power}}}
    models: [{{base: 32, at: [{x}, 10]}}]
  - id: blue-tgt
    side: blue
    stats: {{move: 5, health: 5, save: 4}}
    models: [{{base: 32, at: [10, {10 + 6 + GAP}]}}]
{more}"""


def test_the_other_side_decides_which_wizard_or_none():
    # Cast 4+4 = 8 >= 7: cast. blue-wiz is 30.000" away: blue is asked, not the engine.
    state, results = play(scene(), BOLT, {"type": "decline", "side": "blue"}, dice=(4, 4, 2))
    cast, declined = results
    decision = event(cast, "decision")
    assert decision["side"] == "blue" and decision["kind"] == "unbind"
    assert decision["about"] == {"caster": "red-wiz", "spell": "bolt", "casting roll": "8"}
    assert decision["answers"] == ["unbind", "decline"]
    # Declined: the effect resolves, D3 = 2 mortal damage on blue-tgt.
    assert declined["legal"] and event(declined, "mortal-damage")["unit"] == "blue-tgt"
    assert int(state.units[2].damage.sum()) == 2


def test_an_unbinding_roll_over_the_casting_roll_unbinds():
    # Unbind 5+4 = 9 > 8: "the spell is unbound and its effect is not resolved".
    state, (r, u) = play(scene(), BOLT, {"type": "unbind", "side": "blue", "unit": "blue-wiz"},
                         dice=(4, 4, 5, 4))
    assert u["legal"] and event(u, "unbind") == {"type": "unbind", "unit": "blue-wiz",
                                                 "roll": 9, "unbound": True,
                                                 "failed": "unbound by blue-wiz"}
    assert "mortal-damage" not in kinds(u) and not state.units[2].damage.any()
    # 4+4 = 8 does not exceed 8: the spell resolves (D3 = 2).
    state, (r, u) = play(scene(), BOLT, {"type": "unbind", "side": "blue", "unit": "blue-wiz"},
                         dice=(4, 4, 4, 4, 2))
    assert not event(u, "unbind")["unbound"] and int(state.units[2].damage.sum()) == 2


@pytest.mark.parametrize(("gap", "z", "asked"), [
    (30.0, 0.0, True),          # exactly 30" edge to edge: within 30"
    (30.01, 0.0, False),        # just past: nobody can unbind, nothing is asked
    (30.0, 4.0, True),          # on a 4" hill, 30" horizontally: distances are horizontal
])
def test_within_30_inches_of_the_caster(gap, z, asked):
    _, (r,) = play(scene(gap, z), BOLT, dice=(4, 4, 1, 1, 2))
    assert ("decision" in kinds(r)) is asked
    if not asked:        # "Pick a friendly WIZARD within 30"": none, so the spell resolves
        assert event(r, "mortal-damage")["unit"] == "blue-tgt"


def test_a_wizard_unbinds_as_often_a_phase_as_its_power_level():
    # "Each WIZARD can use UNBIND abilities: number of times per phase equal to their power
    # level". red-wiz casts twice (power 2); blue-wiz, power 1, is asked only the first time.
    text = scene().replace("power: 1}", "power: 2}", 1)
    flare = {"type": "flare", "unit": "red-wiz", "target": "blue-tgt"}
    _, (r1, u1, r2) = play(text, BOLT, {"type": "unbind", "side": "blue", "unit": "blue-wiz"},
                           flare, dice=(4, 4, 1, 1, 2, 3, 2))
    assert "decision" in kinds(r1) and u1["legal"]
    assert "decision" not in kinds(r2) and event(r2, "mortal-damage")["unit"] == "blue-tgt"
    # With power 2 it is asked both times.
    _, (r1, u1, r2) = play(scene(power=2).replace("power: 1}", "power: 2}", 1), BOLT,
                           {"type": "unbind", "side": "blue", "unit": "blue-wiz"},
                           flare, dice=(4, 4, 1, 1, 2, 3, 2))
    assert "decision" in kinds(r2)


def test_a_failed_cast_asks_nothing():
    # "Enemy reactions can only be used if the casting roll equals or exceeds the casting
    # value": 3+3 = 6 < 7.
    _, (r,) = play(scene(), BOLT, dice=(3, 3))
    assert kinds(r) == ["cast"] and event(r, "cast")["result"] == "failed"


def test_the_caster_no_longer_decides_for_the_defender():
    # The caster's old "unbind": false option is gone: a saved log that carries it is refused
    # with the key named (the defender's decision is asked instead).
    _, (r,) = play(scene(), {**BOLT, "unbind": False}, dice=(4, 4, 2))
    assert codes(r) == ["unknown_key"] and "'unbind'" in r["violations"][0]["message"]


def test_an_answer_that_is_no_choice_says_why():
    more = """  - id: blue-grunt
    side: blue
    stats: {move: 5, health: 5, save: 4}
    models: [{base: 32, at: [20, 10]}]"""
    _, (r, bad) = play(scene(more=more), BOLT,
                       {"type": "unbind", "side": "blue", "unit": "blue-grunt"}, dice=(4, 4))
    assert codes(bad) == ["cannot_unbind"] and "not a WIZARD" in bad["violations"][0]["message"]
    # Unbind when no spell is being cast: the other side's decision, none asked now.
    _, (r,) = play(scene(), {"type": "unbind", "side": "blue", "unit": "blue-wiz"})
    assert codes(r) == ["defenders_decision"]


def test_the_computer_player_unbinds_with_a_wizard():
    bolt = Action.from_dict(BOLT)
    state = start(load_scene_text(scene()), [bolt], 1, [4, 4])
    assert not advance(state, bolt)                  # red's hero phase
    state.apply(bolt)
    assert state.pending and state.acting_side == "blue"
    answer = Aos4Player().choose(state)
    assert answer == Action("unbind", unit="blue-wiz", side="blue")
    assert [v.code for v in state.check(Action("end-phase"))] == ["awaiting_decision"]


@pytest.mark.parametrize(("word", "fix"), [
    ("WIZARD (1)", "write keywords: [WIZARD] and stats: {power: 1}"),
    ("PRIEST (2)", "write keywords: [PRIEST] and stats: {power: 2}"),
    ("WARD (5+)", "write stats: {ward: 5}"),
])
def test_a_keyword_with_a_value_is_refused_naming_the_characteristic(word, fix):
    # Written as on a warscroll, "WIZARD (1)" made no WIZARD and "WARD (5+)" no ward: read by
    # nothing. Refused in one line at the keyword, saying what aos4 reads instead.
    text = scene().replace("keywords: [HERO, WIZARD]", f'keywords: [HERO, "{word}"]', 1)
    with pytest.raises(InputError) as err:
        play(text, BOLT)
    message = str(err.value)
    assert "units[0].keywords[1]" in message and fix in message and "\n" not in message
