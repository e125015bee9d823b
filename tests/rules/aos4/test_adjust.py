"""Adjustments by hand (rules/adjust.py) on aos4's table: proposed by the acting side, carried
out only once the other side accepts, a refused one leaving the game exactly as it was; a unit's
own ability declared and logged with its text; the computer player accepting what a declared
ability's text supports (Unstoppable Stampede, a Stegadon's real warscroll ability) and refusing
the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlefield.rules.actions import Action, IllegalAction
from battlefield.rules.aos4 import abilities_play
from battlefield.rules.aos4.player import Aos4Player
from battlefield.rules.state import State
from battlefield.rules.trial import advance, start
from battlefield.scene.load import load_scene_text

SCENE = (Path(__file__).parent / "stampede.yaml").read_text(encoding="utf-8")
MORTAL = {"type": "adjust", "side": "red", "unit": "blue", "kind": "mortal", "amount": 2,
          "reason": "Unstoppable Stampede rolled 2", "ability": "Unstoppable Stampede",
          "source": "red"}


def game(first: dict, dice: list[int] = ()) -> State:
    action = Action.from_dict(first)
    state = start(load_scene_text(SCENE), [action], 1, list(dice))
    assert not advance(state, action)
    return state


def codes(state: State, action: dict) -> list[str]:
    return [v.code for v in state.check(Action.from_dict(action))]


def test_an_adjustment_waits_for_the_other_sides_consent():
    state = game(MORTAL)
    events = state.apply(Action.from_dict(MORTAL))
    assert [e["type"] for e in events] == ["adjust-proposed", "decision"]
    (d,) = state.pending
    assert (d.side, d.kind, dict(d.about)) == ("blue", "adjust", {"by": "red", "kind": "mortal",
                                                                    "unit": "blue"})
    assert state.available() == ["accept", "refuse"] and state.acting_side == "blue"
    assert state.units[1].damage.sum() == 0                # nothing until accepted
    assert codes(state, {"type": "end-phase"}) == ["awaiting_decision"]
    events = state.apply(Action("accept", side="blue"))
    assert [e["type"] for e in events][:3] == ["decided", "adjusted", "mortal-damage"]
    assert events[1]["reason"] == "Unstoppable Stampede rolled 2"
    assert state.units[1].models_alive == 2                # 2 mortal damage: one model slain


def test_a_refused_adjustment_leaves_the_game_exactly_as_it_was():
    state = game({**MORTAL, "amount": "D3"})
    before = state.fingerprint()
    state.apply(Action.from_dict({**MORTAL, "amount": "D3"}))
    events = state.apply(Action("refuse", side="blue"))
    assert [e["type"] for e in events] == ["decided", "adjust-refused"]
    assert events[1]["failed"] == "refused by blue"
    assert state.fingerprint() == before and not state.pending     # the dice too


@pytest.mark.parametrize("change, then", [
    ({"kind": "damage", "amount": 3}, lambda s: s.units[1].models_alive == 2),
    ({"kind": "token", "token": "Stunned", "amount": 2},
     lambda s: s.units[1].counters == {"token:Stunned": 2}),
    ({"kind": "modifier", "roll": "hit", "by": -1},
     lambda s: s.units[1].counters == {"next_hit": -1}),
    ({"kind": "move", "path": [[10, 30], [10, 20]]},
     lambda s: abs(float(s.table.y[2]) - 20) < 1e-9),
])
def test_each_kind_is_carried_out_once_accepted(change, then):
    action = {**MORTAL, **change}
    del action["amount"]
    action.update({k: x for k, x in change.items()})
    state = game(action)
    state.apply(Action.from_dict(action))
    state.apply(Action("accept", side="blue"))
    assert then(state)


def test_heal_and_return_undo_damage_and_casualties():
    state = game(MORTAL)
    state.apply(Action.from_dict({**MORTAL, "amount": 3}))
    state.apply(Action("accept", side="blue"))
    assert state.units[1].models_alive == 2
    slain = int((~state.units[1].alive).sum())
    back = {**MORTAL, "kind": "return", "amount": slain}
    state.apply(Action.from_dict(back))
    state.apply(Action("accept", side="blue"))
    assert state.units[1].models_alive == 3 and len(state.models_of(1)) == 3
    hurt = int(state.units[1].damage.sum())
    assert hurt == 1                                       # the third point, on a survivor
    state.apply(Action.from_dict({**MORTAL, "kind": "heal", "amount": 5}))
    events = state.apply(Action("accept", side="blue"))
    assert events[-1] == {"type": "healed", "unit": "blue", "points": 1}
    assert not state.units[1].damage.any()


@pytest.mark.parametrize("change, code", [
    ({"kind": "explode"}, "bad_adjust_kind"),
    ({"reason": " "}, "no_reason"),
    ({"amount": 0}, "bad_amount"),
    ({"amount": "D7"}, "bad_amount"),
    ({"amount": "lots"}, "bad_amount"),
    ({"kind": "return", "amount": 1}, "not_so_many_slain"),
    ({"kind": "heal", "amount": 1}, "nothing_to_heal"),
    ({"kind": "token", "token": "Stunned", "amount": -1}, "not_so_many_tokens"),
    ({"kind": "modifier", "roll": "luck", "by": 1, "amount": None}, "bad_roll"),
    ({"kind": "modifier", "roll": "hit", "by": 0, "amount": None}, "bad_modifier"),
    ({"kind": "move", "amount": None, "path": [[10, 30], [70, 30]]}, "off_board"),
    ({"roll": "hit"}, "unknown_key"),
])
def test_a_bad_adjustment_is_refused_with_its_reason(change, code):
    state = game(MORTAL)
    action = {k: x for k, x in {**MORTAL, **change}.items() if x is not None}
    assert code in codes(state, action)[0]


def test_a_declared_ability_the_engine_cannot_play_is_logged_with_its_text():
    declare = {"type": "ability", "unit": "red", "ability": "unstoppable stampede",
               "target": "blue"}
    state = game(declare)
    assert state.clock["phase"] == "charge"
    events = state.apply(Action.from_dict(declare))
    assert events == [{"type": "ability-declared", "unit": "red", "ability": "Unstoppable Stampede",
                       "kind": "activated", "played": False,
                       "timing": "Once Per Turn (Army), Any Charge Phase",
                       "declare": events[0]["declare"], "effect": events[0]["effect"],
                       "target": "blue"}]
    assert "must end that move in combat" in events[0]["effect"]
    assert codes(state, {**declare, "ability": "Stubborn"}) == ["passive"]
    assert codes(state, {**declare, "ability": "Fly"}) == ["unknown_ability"]


def test_not_at_its_timing():
    state = game({"type": "end-phase"})
    assert state.clock["phase"] != "charge"
    assert codes(state, {"type": "ability", "unit": "red", "ability": "Unstoppable Stampede"}) == \
        ["not_now"]


@pytest.mark.parametrize("change, answer", [
    ({}, "accept"),                                          # 2 mortal: a D3 can roll it
    ({"amount": "D3"}, "accept"),
    ({"amount": 13}, "refuse"),                              # more than its dice roll
    ({"kind": "heal", "amount": 1}, "refuse"),               # the text heals nobody
    ({"ability": "Stubborn", "kind": "modifier", "roll": "save", "by": 1, "unit": "red",
      "amount": None}, "accept"),                            # a passive ability says so
    ({"ability": "Made Up"}, "refuse"),
])
def test_the_computer_accepts_what_a_declared_ability_says(change, answer):
    declare = {"type": "ability", "unit": "red", "ability": "Unstoppable Stampede",
               "target": "blue"}
    state = game(declare)
    state.apply(Action.from_dict(declare))
    action = {k: x for k, x in {**MORTAL, **change}.items() if x is not None}
    if action["kind"] == "heal":
        state.units[1].damage[0] = 1
    state.apply(Action.from_dict(action))
    got = Aos4Player().choose(state)
    assert got.type == answer and got.side == "blue"


def test_the_computer_refuses_an_ability_not_declared():
    state = game(MORTAL)
    state.apply(Action.from_dict(MORTAL))
    assert abilities_play.answer(state, state.pending[0]).type == "refuse"


def test_an_illegal_adjustment_changes_nothing():
    state = game(MORTAL)
    before = state.fingerprint()
    with pytest.raises(IllegalAction):
        state.apply(Action.from_dict({**MORTAL, "amount": 500}))
    assert state.fingerprint() == before


def test_a_modifier_to_the_next_roll_is_used_by_the_next_attack_and_gone():
    from battlefield.rules.aos4.attacks import Modifiers

    state = game(MORTAL)
    state.units[0].counters["next_hit"] = 1
    state.units[1].counters["next_save"] = -1
    mods = abilities_play.by_hand(state, 0, 1, Modifiers(hit=-1))
    assert (mods.hit, mods.wound, mods.save) == (0, 0, -1)
    assert state.units[0].counters == {} and state.units[1].counters == {}
    assert abilities_play.by_hand(state, 0, 1, Modifiers()) == Modifiers()


def test_no_adjustment_crashes_the_engine_and_a_refused_one_changes_nothing():
    """200 random adjustments and declarations (seeded), each accepted or refused: the engine
    only ever refuses with its reasons, and a refusal leaves the state's fingerprint as it
    was before the proposal."""
    import random

    from battlefield.rules import boundary

    rnd = random.Random(7)
    state = game({"type": "end-phase"})
    for _ in range(200):
        kind = rnd.choice(["damage", "mortal", "heal", "return", "move", "token", "modifier"])
        d: dict = {"type": "adjust", "side": state.acting_side, "unit": rnd.choice(["red", "blue"]),
                   "kind": kind, "reason": "fuzz"}
        if kind == "token":
            d.update(token=rnd.choice(["a", "b"]), amount=rnd.choice([1, -1, 2]))
        elif kind == "modifier":
            d.update(roll=rnd.choice(["hit", "wound", "save"]), by=rnd.choice([1, -1]))
        elif kind == "move":
            start_at = [10, 30] if d["unit"] == "blue" else [10, 10]
            d["path"] = [start_at, [rnd.uniform(-5, 65), rnd.uniform(-5, 50)]]
        else:
            d["amount"] = rnd.choice([1, 2, 5, "D3", "2D6", "D6+1"])
        if rnd.random() < 0.2:
            d = {"type": "ability", "unit": "red", "ability": "Unstoppable Stampede"}
        action = boundary.read(d, state.scene)
        if not isinstance(action, Action) or state.check(action):
            if rnd.random() < 0.3 and not state.check(Action("end-phase")):
                state.apply(Action("end-phase"))
            continue
        before = state.fingerprint()
        state.apply(action)
        if state.pending:
            answer = rnd.choice(["accept", "refuse"])
            state.apply(Action(answer, side=state.pending[0].side))
            if answer == "refuse":
                assert state.fingerprint() == before


@pytest.mark.parametrize("roll, first, event", [
    ("run", {"type": "run", "unit": "red"}, "run"),
    ("charge", {"type": "charge", "unit": "red", "target": "blue"}, "charge-roll"),
])
def test_a_modifier_to_the_next_run_or_charge_roll(roll, first, event):
    """+1 to red's next run (charge) roll, accepted by blue: the roll made next adds it, named
    "by hand" in its event, and it is used up."""
    near = SCENE.replace("at: [10, 30]", "at: [10, 18]").replace(
        "at: [11.5, 30]", "at: [11.5, 18]").replace("at: [10.75, 31.3]", "at: [10.75, 19.3]")
    action = Action.from_dict(first)
    state = start(load_scene_text(near), [action], 1, [3, 3, 3])
    assert not advance(state, action)
    state.apply(Action.from_dict({"type": "adjust", "side": "red", "unit": "red",
                                  "kind": "modifier", "roll": roll, "by": 1,
                                  "reason": "a +1 an ability gave"}))
    state.apply(Action("accept", side="blue"))
    assert state.units[0].counters == {f"next_{roll}": 1}
    events = state.apply(Action.from_dict(first))
    rolled = next(e for e in events if e["type"] == event)
    assert (rolled["modifier"], rolled["abilities"]) == (1, ["by hand"])
    assert state.units[0].counters == {}


def test_the_side_not_acting_proposes_one_and_the_acting_side_consents():
    """Red acts; blue proposes 1 mortal damage on red for a reaction it used (side: blue): the
    server takes it from blue's seat (sender), red is asked, and once red accepts it is carried
    out and red acts on. A side the scene does not have is refused (a field of no side)."""
    state = game(MORTAL)
    assert state.acting_side == "red"
    theirs = Action.from_dict({"type": "adjust", "side": "blue", "unit": "red", "kind": "mortal",
                               "amount": 1, "reason": "a reaction of blue's"})
    assert state.check(theirs) == [] and state.sender(theirs) == "blue"
    events = state.apply(theirs)
    assert events[0]["side"] == "blue"
    (d,) = state.pending
    assert (d.side, d.get("by")) == ("red", "blue")
    state.apply(Action("accept", side="red"))
    assert state.units[0].damage.sum() == 1 and state.acting_side == "red"
    assert codes(state, {**theirs.to_dict(), "side": "green"}) == ["bad_field"]
    mine = Action.from_dict({k: x for k, x in MORTAL.items() if k != "side"})
    assert state.sender(mine) == "red"
