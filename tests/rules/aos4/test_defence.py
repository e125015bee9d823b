"""All-out Defence is the defending side's decision (rules/aos4/defence.py, rules/decisions.py):
asked when a shoot or fight targets its unit and it can use the command; the answer decides the
save rolls, exactly as try's `"all_out_defence": true` shorthand does."""

from __future__ import annotations

from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.rules.trial import advance, start
from battlefield.scene.load import load_scene_text

from .test_abilities import attempt, codes, scene

SHOOT = {"type": "shoot", "unit": "red", "target": "blue"}
HITS_THEN_SAVES_OF_3 = [6, 6, 6, 6, 3, 3]     # 2 hits, 2 wounds; saves of 3 fail a 4+ save


def shot(text: str = "", dice=HITS_THEN_SAVES_OF_3) -> tuple[State, list[dict]]:
    """The state right after red's shoot at blue, in red's shooting phase."""
    action = Action.from_dict(SHOOT)
    state = start(load_scene_text(text or scene()), [action], 1, list(dice))
    assert not advance(state, action)
    return state, state.apply(action)


def test_a_shoot_at_a_unit_whose_side_can_pay_asks_that_side():
    state, events = shot()
    (d,) = state.pending
    assert (d.side, d.kind, d.secret) == ("blue", "all-out-defence", False)
    assert dict(d.about) == {"attacker": "red", "ability": "shoot", "target": "blue"}
    assert [c.to_dict() for c in d.choices] == [
        {"type": "all-out-defence", "side": "blue", "unit": "blue"},
        {"type": "decline", "side": "blue"}]
    assert state.acting_side == "blue" and state.clock["acting"] == "red"
    assert state.available() == ["all-out-defence", "decline"]
    assert [e["type"] for e in events] == ["decision"]        # no dice before the answer
    assert [v.code for v in state.check(Action("end-phase"))] == ["awaiting_decision"]


def test_all_out_defence_adds_1_to_the_saves_and_costs_blue_a_command_point():
    state, _ = shot()
    events = state.apply(Action.from_dict({"type": "all-out-defence", "side": "blue",
                                           "unit": "blue"}))
    assert events[:2] == [{"type": "decided", "side": "blue", "kind": "all-out-defence",
                           "answer": {"type": "all-out-defence", "side": "blue",
                                      "unit": "blue"}},
                          {"type": "command", "side": "blue", "command": "all-out-defence",
                           "cost": 1, "unit": "blue"}]
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["wounds"] == 2 and attack["unsaved"] == 0
    assert state.sides["blue"]["cp"] == 3 and state.sides["red"]["cp"] == 4
    assert state.acting_side == "red" and not state.pending


def test_declining_rolls_the_saves_as_they_are():
    state, _ = shot()
    events = state.apply(Action.from_dict({"type": "decline", "side": "blue"}))
    assert not [e for e in events if e["type"] == "command"]
    assert next(e for e in events if e["type"] == "attack")["unsaved"] == 2
    assert state.sides["blue"]["cp"] == 4


def test_no_command_point_no_question():
    state, events = shot(scene() + "state: {command_points: {blue: 0}}\n")
    assert not state.pending and state.acting_side == "red"
    assert next(e for e in events if e["type"] == "attack")["unsaved"] == 2


def test_the_answer_resolves_exactly_as_the_shorthand():
    short, (r,) = attempt(scene(), {**SHOOT, "all_out_defence": True},
                          dice=HITS_THEN_SAVES_OF_3)
    assert r["answered"] == [{"type": "all-out-defence", "side": "blue", "unit": "blue"}]
    asked, (s, a) = attempt(scene(), SHOOT, {"type": "all-out-defence", "side": "blue",
                                             "unit": "blue"}, dice=HITS_THEN_SAVES_OF_3)
    assert "answered" not in s and s["events"][-1]["type"] == "decision"
    assert asked.fingerprint() == short.fingerprint()
    assert a["events"] == [e for e in r["events"] if e["type"] != "decision"]
    _, (plain,) = attempt(scene(), SHOOT, dice=HITS_THEN_SAVES_OF_3)   # no shorthand: decline
    assert plain["answered"] == [{"type": "decline", "side": "blue"}]


def test_the_bonus_lasts_the_phase_and_is_not_asked_twice():
    text = scene("""  - id: red-2
    side: red
    stats: {move: 5, health: 1, save: 4, control: 1}
    weapons: [{name: bow, range: 18, attacks: 1, hit: 4, wound: 4, damage: 1}]
    models:
      - {base: 32, at: [10, 28]}
""")
    _, (first, second) = attempt(text, {**SHOOT, "all_out_defence": True},
                                 {"type": "shoot", "unit": "red-2", "target": "blue"},
                                 dice=[6, 6, 6, 6, 6, 6, 6, 6, 3])
    assert "answered" not in second                  # the command was used this phase
    again = next(e for e in second["events"] if e["type"] == "attack")
    assert again["wounds"] == 1 and again["unsaved"] == 0          # the save of 3 (+1) holds


def test_the_option_on_a_plain_apply_is_refused_with_the_way_to_answer():
    state, _ = shot(dice=[1, 1])                     # both miss: the battle goes on
    state.apply(Action("decline", side="blue"))
    bad = state.check(Action.from_dict({**SHOOT, "unit": "red", "all_out_defence": True}))
    assert codes({"violations": [v.to_dict() for v in bad]}) == ["defenders_decision"]
    bad = state.check(Action("decline", side="blue"))
    assert [v.code for v in bad] == ["defenders_decision"]
