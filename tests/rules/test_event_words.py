"""Every event of a whole battle of each ruleset in words (rules/event_words.py): no key=value,
no Python repr (dicts, lists in brackets, True / False, None), each line naming what it is
about; and the table of hand-made events, worded as the players read them."""

from __future__ import annotations

import re

import pytest

from battlefield.rules import event_words, outcome, registry
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

RAW = re.compile(r"=|\{|\}|\[\[|\['|'\]|': |\bTrue\b|\bFalse\b|\bNone\b")


@pytest.fixture(scope="module", params=[n for n in registry.playable()
                                        if registry.get(n).spec.demo])
def battle(request):
    text, name = battle_scene(request.param, None)
    state = Game(registry.get(request.param), load_scene_text(text, name), 2).new_state()
    players = {side: state.rules.player() for side in state.sides}
    for _ in range(250):
        if state.over:
            break
        state.apply(players[state.acting_side].choose(state))
    return request.param, state


def test_every_event_of_a_battle_is_in_words(battle):
    ruleset, state = battle
    said = 0
    for e in state.events:
        text = event_words.line(e)
        if e["type"] == "action":
            assert text is None
            continue
        assert text and not RAW.search(text), (ruleset, e, text)
        said += 1
    assert said > 20


def test_the_log_of_a_battle_has_no_raw_fields(battle):
    ruleset, state = battle
    for en in outcome.game_log(state):
        for text in [en.action, *en.lines, *en.events, en.own]:
            assert not RAW.search(text.replace("[double]", "").replace("[triple]", "")
                                  .replace("[quad]", "")), (ruleset, text)


@pytest.mark.parametrize(("event", "said"), [
    ({"type": "decision", "side": "blue", "kind": "all-out-defence", "secret": False,
      "about": {"attacker": "red-archers", "ability": "shoot", "target": "blue-drake"},
      "answers": ["all-out-defence", "decline"]},
     "blue decides all-out-defence: red-archers shoot -> blue-drake (choices: all-out-defence, "
     "decline)"),
    ({"type": "decided", "side": "blue", "kind": "all-out-defence",
      "answer": {"type": "decline", "side": "blue"}}, "blue answers all-out-defence: decline"),
    ({"type": "decided", "side": "red", "kind": "commit", "secret": True},
     "red has answered commit (secret until revealed)"),
    ({"type": "moved", "unit": "red-scouts", "distance": 3.861, "overextended": True,
      "to": [9.0, 23.5]}, 'red-scouts moves 3.86" to (9, 23.5), overextended'),
    ({"type": "turn", "round": 1, "active": "red", "phase": "combat", "command_points": 0},
     "red's turn, round 1, combat phase, 0 command points"),
    ({"type": "charge-roll", "unit": "red-blades", "roll": 7, "needed": 8.2},
     'red-blades rolls 7 to charge, 8.20" needed'),
    ({"type": "battle-over", "round": 5, "winner": None, "by": "objectives"},
     "the battle is over: a draw (objectives)"),
    ({"type": "objective-control", "controlled_by": {"centre": None, "south-east": "red",
                                                     "west": None}},
     "objectives: red holds south-east; nobody holds centre, west"),
    ({"type": "terrain-control", "controlled_by": {"ruin-sw": "red", "ruin-ne": "blue",
                                                   "hill-s": "red"}},
     "terrain: red holds ruin-sw, hill-s; blue holds ruin-ne"),
    ({"type": "skirmish", "unit": "blue-ballista", "target": "red-bows", "overextended": False,
      "in_range": {"blue-ballista": True, "red-bows": False},
      "sight": {"blue-ballista": "partial", "red-bows": "none"}},
     "blue-ballista skirmish -> red-bows: blue-ballista in range, partial sight; red-bows out "
     "of range, no sight"),
    ({"type": "decided", "side": "red", "kind": "retreat",
      "answer": {"type": "retreat", "side": "red", "unit": "red-bows", "from": "blue-ballista"}},
     "red answers retreat: red-bows retreats from blue-ballista"),
    ({"type": "decision", "side": "blue", "kind": "adjust", "secret": False,
      "about": {"by": "red", "kind": "mortal", "unit": "red-blades"},
      "answers": ["accept", "refuse"]},
     "blue to accept or refuse red's adjustment by hand (mortal on red-blades)"),
    ({"type": "attack", "attacker": "a", "cover": [], "overextended": False},
     "attack: attacker a; cover none; overextended no"),           # no words of its own
])
def test_events_in_words(event, said):
    assert event_words.line(event) == said
