"""A HERO's reaction to its own fight that lets another unit fight immediately after
(rules/aos4/abilities_play.py fight_reactions, fighting.fighters' FIGHTS_NEXT): asked of the
fighting unit's side as a decision (fight-reaction: each reaction and target it may pick, or
decline) when it declares the fight; the target picked fights next, before the other side
picks, with what the reaction gives it. Real texts of the data; a hand-worked scene:

    red-boss (HERO) at (10, 10) and red-brutes (BRUTE) at (10, 12.6): both in combat with
    blue-a at (11.4, 11.3) (1.4" and 1.3" apart edge to edge on 32 mm bases, under 3");
    red-grots (no BRUTE) at (8.6, 11.3), in combat with blue-a too; blue-b at (30, 30) alone.
    Red is active in the combat phase: red-boss fights -> red decides: 'Lead da Brutes' on
    red-brutes (the only BRUTE in its combat range that may still fight), or decline.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import pytest
import yaml

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import abilities_play, effects, fighting
from battlefield.rules.aos4.player import Aos4Player
from battlefield.rules.trial import advance, start
from battlefield.scene.load import load_scene_text

from .test_effects import _in_data

LEAD = ("Lead da Brutes", "Reaction: You declared a FIGHT ability for this unit", None,
        "Pick a friendly BRUTE unit that has not used a FIGHT ability this turn and is within "
        "this unit's combat range to be the target. The target can be picked to use a FIGHT "
        "ability immediately after the FIGHT ability used by this unit has been resolved. If it "
        "is picked to do so, add 1 to the Attacks characteristic of that unit's melee weapons "
        "for the rest of the turn.")
KNIGHTLY = ("Knightly Exemplar", "Reaction: You declared a FIGHT ability for this unit", None,
            "Pick a friendly Crypt Horrors unit that has not used a FIGHT ability this turn and "
            "is within this unit's combat range to be the target. The target can be picked to "
            "use a FIGHT ability immediately after the FIGHT ability used by this unit has been "
            "resolved. If it is picked to do so, add 1 to hit rolls for the target's attacks "
            "for the rest of the turn.")
BOUNCIN = ("Let's Get Bouncin'!", "Reaction: You declared a FIGHT ability for this unit", None,
           "Pick a friendly non-HERO MOONCLAN CAVALRY unit that has not used a FIGHT ability "
           "this turn and is within this unit's combat range to be the target. The target\n"
           "can be picked to use a FIGHT ability immediately after the FIGHT ability used by "
           "this unit has been resolved.")          # the data breaks a line inside a sentence
UNREAD = ("The Blood Must Flow", "Reaction: You declared a FIGHT ability for this unit", None,
          "Pick a friendly Bloodletters unit that has not used a FIGHT ability this turn and is "
          "within this unit's combat range to be the target. The target can be picked to use a "
          "FIGHT ability immediately after the FIGHT ability used by this unit has been "
          "resolved. For the rest of the turn, add 1 to hit rolls for combat attacks made by "
          "this unit and that friendly Bloodletters unit.")


def ability(text: tuple) -> dict:
    name, timing, declare, effect = text
    return {"name": name, "kind": "activated", "timing": timing, "declare": declare,
            "effect": effect}


def scene(text: tuple = LEAD, brutes: dict | None = None) -> str:
    unit = {"move": 5, "health": 3, "save": 6, "control": 1}
    axe = {"name": "Axe", "range": 0, "attacks": 2, "hit": 4, "wound": 4, "rend": 0,
           "damage": 1}
    return yaml.safe_dump({"ruleset": "aos4", "board": {"width": 60, "depth": 44}, "units": [
        {"id": "red-boss", "side": "red", "stats": unit, "weapons": [axe],
         "keywords": ["HERO"], "abilities": [ability(text)],
         "models": [{"base": 32, "at": [10, 10]}]},
        {"id": "red-brutes", "name": "Crypt Horrors", "side": "red", "stats": unit,
         "weapons": [axe], "keywords": ["BRUTE", "INFANTRY"],
         "models": [{"base": 32, "at": [10, 12.6]}], **(brutes or {})},
        {"id": "red-grots", "side": "red", "stats": unit, "weapons": [axe],
         "models": [{"base": 32, "at": [8.6, 11.3]}]},
        {"id": "blue-a", "side": "blue", "stats": {**unit, "health": 20}, "weapons": [axe],
         "models": [{"base": 32, "at": [11.4, 11.3]}]},
        {"id": "blue-b", "side": "blue", "stats": unit, "weapons": [axe],
         "models": [{"base": 32, "at": [30, 30]}]}]})


def fought(text: tuple = LEAD, brutes: dict | None = None):
    """red-boss fights blue-a (the combat phase of red's turn); the decision is pending."""
    action = Action("fight", "red-boss", target="blue-a")
    state = start(load_scene_text(scene(text, brutes)), [action], 1, [])
    assert not advance(state, action)
    assert not state.check(action)
    state.apply(action)
    return state


def defence_declined(state) -> list:
    """blue declines All-out Defence for the attack awaiting it (the fight then rolls)."""
    assert state.pending and state.pending[0].kind == "all-out-defence"
    return state.apply(Action("decline", side="blue"))


def test_the_reaction_is_read_whole_and_played():
    r = effects.read(ability(LEAD))
    assert r is not None and r.target == {"unit": "friendly", "within": "combat range",
                                          "count": 1, "not_fought": True,
                                          "keywords": ["BRUTE"]}
    assert r.effects == ({"fight_after": True, "who": {"unit": "target"}},
                         {"modify": "attacks", "by": 1, "who": {"unit": "target"},
                          "weapons": "melee", "until": "turn"})
    assert abilities_play.played(ability(LEAD)) is not None
    knightly = effects.read(ability(KNIGHTLY))
    assert knightly is not None and knightly.target["name"] == "Crypt Horrors"
    bouncin = effects.read(ability(BOUNCIN))
    assert bouncin is not None and bouncin.target["not_keywords"] == ["HERO"] \
        and bouncin.target["keywords"] == ["MOONCLAN CAVALRY"]
    # 'this unit and that friendly Bloodletters unit': a subject the reader does not know
    assert effects.read(ability(UNREAD)) is None


def test_the_fight_asks_its_side_and_the_target_fights_immediately_after():
    state = fought()
    d = state.pending[0]
    assert (d.kind, d.side, d.get("unit")) == (abilities_play.REACTION, "red", "red-boss")
    lead = Action("ability", "red-boss", side="red", target="red-brutes",
                  options=(("ability", "Lead da Brutes"),))
    assert list(d.choices) == [lead, Action("decline", side="red")]
    state.dice.fixed = deque([1] * 40)       # every attack misses: nobody is slain
    events = state.apply(lead)
    said = [e for e in events if e["type"] in ("ability-declared", "ability-effect")]
    assert said[0] == {"type": "ability-declared", "unit": "red-boss",
                       "ability": "Lead da Brutes", "played": True, "target": "red-brutes"}
    assert {"type": "ability-effect", "unit": "red-brutes", "ability": "Lead da Brutes",
            "effect": "fights immediately after red-boss"} in said
    # then red-boss's fight goes on: blue is asked All-out Defence for blue-a
    assert state.pending[0].kind == "all-out-defence"
    assert "fights_next" in state.extra
    events = state.apply(Action("decline", side="blue"))
    assert any(e.get("attacker") == "red-boss" for e in events)
    b = state.unit_index("red-brutes")
    assert state.units[b].counters.get("buff_attacks_melee") == 1
    # red keeps the pick: only red-brutes may fight now (not red-grots, not blue)
    assert state.clock["acting"] == "red"
    assert fighting.fighters(state, "red") == [b]
    assert fighting.fighters(state, "blue") == []
    grots = Action("fight", "red-grots", target="blue-a")
    assert [x.code for x in state.check(grots)] == ["strike_order"]
    events = state.apply(Action("fight", "red-brutes", target="blue-a"))
    events += state.apply(Action("decline", side="blue"))
    attack = next(e for e in events if e["type"] == "attack")
    assert (attack["attacker"], attack["attacks"]) == ("red-brutes", 3)    # 2, +1 given
    assert "fights_next" not in state.extra
    assert state.clock["acting"] == "blue"          # then the alternation goes on


def test_declined_the_other_side_picks_next():
    state = fought()
    state.dice.fixed = deque([1] * 40)
    events = state.apply(Action("decline", side="red"))
    assert {"type": "no-reaction", "side": "red"} in events
    defence_declined(state)
    assert state.clock["acting"] == "blue"
    assert "buff_attacks_melee" not in state.units[state.unit_index("red-brutes")].counters


@pytest.mark.parametrize("brutes, why", [
    ({"keywords": ["INFANTRY"]}, "not a BRUTE"),
    ({"models": [{"base": 32, "at": [10, 16]}]}, "out of red-boss's combat range"),
])
def test_no_unit_to_pick_asks_nothing(brutes, why):
    state = fought(brutes=brutes)
    assert state.pending[0].kind == "all-out-defence", why      # no reaction asked
    defence_declined(state)
    assert state.clock["acting"] == "blue"


def test_a_unit_that_fought_is_not_picked():
    action = Action("fight", "red-brutes", target="blue-a")
    state = start(load_scene_text(scene()), [action], 1, [])
    assert not advance(state, action)
    state.dice.fixed = deque([1] * 40)
    state.apply(action)                            # red-brutes fights first
    defence_declined(state)
    state.apply(Action("fight", "blue-a", target="red-brutes"))
    state.apply(Action("decline", side="red"))     # red's All-out Defence
    state.apply(Action("fight", "red-boss", target="blue-a"))
    assert state.pending[0].kind == "all-out-defence"  # red-brutes has fought: no reaction


def test_the_name_picks_the_warscroll():
    state = fought(KNIGHTLY)
    d = state.pending[0]
    assert [c.target for c in d.choices if c.type == "ability"] == ["red-brutes"]


def test_declared_on_its_own_it_is_refused():
    plain = Action("ability", "red-boss", target="red-brutes",
                   options=(("ability", "Lead da Brutes"),))
    state = start(load_scene_text(scene()), [plain], 1, [])
    assert not advance(state, plain)
    assert state.clock["phase"] == "combat" and state.clock["acting"] == "red"
    assert [x.code for x in state.check(plain)] == ["reaction"]
    assert not any(a.type == "ability" for a in abilities_play.offers(state))
    assert not any(a.type == "ability" for _, a in abilities_play.menu(state, 0))


def test_the_computer_reacts():
    state = fought()
    answer = Aos4Player().choose(state)
    assert answer.type == "ability" and answer.target == "red-brutes"


def test_the_quoted_texts_are_in_the_data(bsdata):
    _, text = _in_data(bsdata)
    for name, _, _, effect in (LEAD, KNIGHTLY, BOUNCIN, UNREAD):
        assert " ".join(effect.split()) in text, name


def test_each_choice_has_its_own_label():
    """The window's and the pages' buttons: one label per reaction and unit it picks."""
    state = fought(brutes={"keywords": ["BRUTE", "INFANTRY"]})
    d = state.pending[0]
    assert [d.label(c) for c in d.choices] == ["ability red-boss Lead da Brutes -> red-brutes",
                                               "decline"]
    two = replace(d, choices=(d.choices[0], replace(d.choices[0], target="red-grots"),
                              d.choices[-1]))
    assert [two.label(c) for c in two.choices] == [
        "ability red-boss Lead da Brutes -> red-brutes",
        "ability red-boss Lead da Brutes -> red-grots", "decline"]
