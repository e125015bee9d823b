"""The outcome of an action in words (rules/outcome.py): scenario tables of each ruleset's own
event shapes (as its resolve returns them) and the lines they read as - the outcome first, then
the dice - and, in a seeded battle of every ruleset, the wounds left it reports equal the state's
and every model taken off has a line in the game log."""

from __future__ import annotations

import pytest

from battlefield.rules import outcome, registry
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

# (ruleset, events, the lines expected, in order)
TABLE = [
    ("aos4", [{"type": "attack", "attacker": "red-archers", "target": "blue-drake",
               "weapon": "Ashwood Longbow", "models": 8, "attacks": 16, "hits": 7,
               "critical": 1, "wounds": 2, "unsaved": 0, "damage": 0, "cover": []}],
     ["blue-drake: no damage",
      "red-archers at blue-drake, Ashwood Longbow: 16 attacks, 7 hits (1 critical), 2 wounds, "
      "0 unsaved"]),
    ("aos4", [{"type": "attack", "attacker": "blue-drake", "target": "red-blades",
               "weapon": "Tail Lash", "models": 1, "attacks": 4, "hits": 2, "critical": 0,
               "wounds": 2, "unsaved": 2, "damage": 4},
              {"type": "slain", "unit": "red-blades", "cause": "fought by blue-drake",
               "models": ["red-blades/1", "red-blades/5"]},
              {"type": "removed", "unit": "red-blades", "reason": "coherency",
               "models": ["red-blades/10"]}],
     ["red-blades: 4 damage, 2 slain (red-blades/1, /5), 1 removed for coherency "
      "(red-blades/10)",
      "blue-drake at red-blades, Tail Lash: 4 attacks, 2 hits, 2 wounds, 2 unsaved"]),
    ("aos4", [{"type": "cast", "unit": "blue-seer", "spell": "undertow", "roll": 2,
               "casting_value": 7, "result": "miscast"},
              {"type": "mortal-damage", "unit": "blue-seer", "damage": 2,
               "for": "miscast blue-seer"}],
     ["blue-seer: 2 damage, mortal damage (miscast blue-seer)"]),
    ("skirmish", [{"type": "morale", "commit": {"red": 2, "blue": 0}, "advantage": "red",
                   "tokens": {"red": 10, "blue": 11}},
                  {"type": "attack", "attacker": "blue-ballista", "defender": "red-bows",
                   "dice": 9, "support": 0, "models": 3, "strike": 3, "hit_on": 5, "hits": 2,
                   "cover_bonus": 1, "saved": 0, "overextended": False, "damage": 2,
                   "slain": ["red-bows/1", "red-bows/2"]},
                  {"type": "destroyed", "unit": "red-bows"}],
     ["red-bows: 2 damage, 2 slain (red-bows/1, /2), destroyed",
      "morale spent: red 2, blue 0 - red has the advantage; morale left: red 10, blue 11",
      "blue-ballista at red-bows, attack: 9 dice hitting on 5+: 2 hits, 0 saved, cover +1"]),
    ("skirmish", [{"type": "pot-shots", "by": "red-scouts", "target": "blue-scouts",
                   "dice": 4, "support": 0, "models": 4, "strike": 1, "hit_on": 6, "hits": 1,
                   "cover_bonus": 0, "saved": 0, "damage": 1, "slain": ["blue-scouts/3"]}],
     ["blue-scouts: 1 damage, 1 slain (blue-scouts/3)",
      "red-scouts at blue-scouts, pot shots: 4 dice hitting on 6+: 1 hit, 0 saved"]),
    ("skirmish", [{"type": "fortify", "side": "red", "objectives": {"red": 2, "blue": 1},
                   "lost": {"blue": 1}, "morale": {"red": 12, "blue": 11}}],
     ["red fortifies: blue loses 1 morale (objectives held: red 2, blue 1)"]),
    ("openwg", [{"type": "shoot", "unit": "blue-hunters", "target": "red-hearthguard",
                 "with": "Ranged", "wounds": 2,
                 "attackers": {"Ranged": ["blue-hunters/1", "blue-hunters/2"]}, "pool": 2}],
     ["red-hearthguard: 2 wounds pooled (taken at the end of the phase)",
      "blue-hunters at red-hearthguard, Ranged: 2 models attacking, 2 wounds"]),
    ("openwg", [{"type": "wounds", "unit": "red-vulkites", "wounds": 4, "shrug": 2,
                 "ignored": 0, "slain": ["red-vulkites/10", "red-vulkites/9"]},
                {"type": "morale", "unit": "red-vulkites", "slain": 2, "bravery": 7,
                 "fled": ["red-vulkites/8"]}],
     ["red-vulkites: 4 damage, 2 slain (red-vulkites/10, /9), 1 removed (red-vulkites/8), "
      "2 shrugged off, morale: 1 fled (Bravery 7)"]),
    ("warband", [{"type": "attack-declared", "unit": "red-slinger-2",
                  "target": "blue-reaver-1", "weapon": "Sling"},
                 {"type": "attack", "unit": "red-slinger-2", "target": "blue-reaver-1",
                  "weapon": "Sling", "attacks": 2, "hit_on": 5, "defense": 4, "hits": 1,
                  "criticals": 0, "damage": 1},
                 {"type": "damage", "unit": "blue-reaver-1", "amount": 1, "total": 10,
                  "wounds": 10, "for": "attack"},
                 {"type": "slain", "unit": "blue-reaver-1"}],
     ["blue-reaver-1: 1 damage, slain",
      "red-slinger-2 at blue-reaver-1, Sling: 2 dice hitting on 5+: 1 hit, 0 critical, "
      "defence 4"]),
    ("blocks", [{"type": "attack", "unit": "red-bows", "target": "blue-axes", "kind": "ranged",
                 "dice": 5, "hit_on": 3, "damage_on": 3, "side": "front", "damage": 2,
                 "modifiers": []},
                {"type": "damage", "unit": "blue-axes", "boxes": 2, "marked": 2, "of": 9},
                {"type": "routs", "unit": "blue-axes", "facing": 90.0}],
     ["blue-axes: 2 damage, routs",
      "red-bows at blue-axes, ranged attack on its front: 5 dice, hit on 3+, damage on 3+"]),
    # A new ruleset's own "fight" (not openwg's: no "attackers") with the common events only.
    ("any", [{"type": "fight", "unit": "red-1", "target": "blue-1", "roll": 5},
             {"type": "damage", "unit": "blue-1", "amount": 1},
             {"type": "slain", "unit": "blue-1", "models": ["blue-1/1"]}],
     ["blue-1: 1 damage, 1 slain (blue-1/1)"]),
]


@pytest.mark.parametrize("ruleset, events, expected", TABLE,
                         ids=[f"{r}-{k}" for k, (r, _, _) in enumerate(TABLE)])
def test_outcome_first_then_dice(ruleset, events, expected):
    words = registry.get(ruleset) if ruleset != "any" else None     # Ruleset.effect
    assert outcome.outcome(events, ruleset=words) == expected


def test_a_rulesets_own_events_are_worded_only_by_it():
    # aos4's attack read by the common words alone (or by another ruleset): nothing of it.
    aos4_attack = TABLE[0][1]
    assert outcome.outcome(aos4_attack) == []
    assert outcome.outcome(aos4_attack, ruleset=registry.get("warband")) == []


def test_failure_is_the_headline():
    # an event says what failed in its own words (its "failed" field); outcome decodes nothing
    events = [{"type": "run-short", "unit": "blue-cantor", "reason": "moves 10.83\"",
               "failed": "run short: moves 10.83\", more than 10\""}]
    assert outcome.headline(events) == "run short: moves 10.83\", more than 10\""
    assert outcome.headline([{"type": "moved", "unit": "a"}]) == "done"
    assert outcome.failure([{"type": "cast", "result": "miscast"}]) is None


CHARGE = """\
ruleset: aos4
board: {width: 30, depth: 30}
units:
- {id: red-1, side: red, stats: {move: 5, health: 1, save: 4},
   weapons: [{name: Blade}], models: [{base: 32, at: [10, 10]}]}
- {id: blue-1, side: blue, stats: {move: 5, health: 1, save: 4},
   weapons: [{name: Blade}], models: [{base: 32, at: [10, 16]}]}
state: {active: red}
"""


def test_a_ruleset_says_what_failed_as_a_field():
    from battlefield.rules.actions import Action
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    # the charge needs 4.5" (from 4.74" apart to 0.24"); the dice roll 1 + 1
    state = Game(registry.get("aos4"), load_scene_text(CHARGE)).new_state(fixed_dice=[1, 1])
    while state.phase != "charge":
        state.apply(Action("end-phase"))
    events = state.apply(Action("charge", "red-1", target="blue-1",
                                path=((10.0, 10.0), (10.0, 14.5))))
    assert outcome.failure(events) == "charge failed"


def test_action_words():
    assert outcome.action_words({"type": "shoot", "unit": "red-archers",
                                 "target": "blue-drake"}) == "red-archers shoot -> blue-drake"
    assert outcome.action_words({"type": "commit", "side": "red", "secret": True}) \
        == "red commit (secret)"


@pytest.fixture(scope="module", params=[n for n in registry.playable()
                                        if registry.get(n).spec.demo])
def battle(request):
    """A seeded computer-against-computer battle, stopped after the first action that hurt a
    unit (and, to the end, the log of every loss). A ruleset that counts no health (an
    installed one without attacks, as tests/rules/homebrew's race) has no losses to word."""
    ruleset = registry.get(request.param)
    if not ruleset.provides("health"):
        pytest.skip(f"{request.param} counts no health (Ruleset.health): nothing is hurt")
    text, name = battle_scene(request.param, None)
    state = Game(ruleset, load_scene_text(text, name), 5).new_state()
    players = {side: ruleset.player() for side in state.sides}
    hurt = None
    for _ in range(3000):
        if state.over:
            break
        events = state.apply(players[state.acting_side].choose(state))
        found, _, _ = outcome.effects(events, ruleset)
        if hurt is None and any(h.damage for h in found.values()):
            hurt = (state.snapshot(), events)
    return request.param, state, hurt


def test_wounds_left_are_the_states(battle):
    ruleset, _, hurt = battle
    assert hurt is not None, f"{ruleset}: no unit was hurt in a whole battle"
    state, events = hurt
    lines = outcome.outcome(events, state)
    found, _, _ = outcome.effects(events, state.rules)
    uid = next(u for u, h in found.items() if h.damage)
    line = next(x for x in lines if x.startswith(uid + ":"))
    u = state.scene.unit_index(uid)
    if len(state.models_of(u)):
        left, full = outcome.wounds(state, u)
        assert f"{left}/{full} wounds left" in line
        assert 0 <= left <= full
        each = outcome.unit_wounds(state)[uid]            # what the window shows
        assert (sum(h - d for d, h in each), sum(h for _, h in each)) == (left, full)
    else:
        assert line.endswith("none left")


def test_every_loss_has_a_line_in_the_log(battle):
    """A model taken off (a warband fighter the computer slays included) is named in the log."""
    ruleset, state, _ = battle
    text = "\n".join(line for en in outcome.game_log(state) for line in en.text)
    off = [n for n, u in zip(state.scene.model_names, state.table.unit, strict=True) if u < 0]
    assert off, f"{ruleset}: nothing was taken off in a whole battle"
    for name in off:
        unit = name.rpartition("/")[0]
        single = len(state.scene.units[state.scene.unit_index(unit)].models) == 1
        assert (f"{unit}: " in text and ("slain" in text or "removed" in text)) if single \
            else ("/" + name.rpartition("/")[2] in text and unit in text), name


def test_losses_mark_this_phase(battle):
    """outcome.losses: models off the table this phase, none that is on it."""
    _, state, _ = battle
    for m in outcome.losses(state):
        assert state.table.unit[m] < 0


def test_a_pass_is_the_side_that_passed():
    """aos4's end-phase names no side: the log takes it from the 'pass' event, so the other
    side's pass in the active side's turn is not put down to the active side."""
    from battlefield.view.app import open_game

    state = open_game(None, "aos4").state
    from battlefield.rules.actions import Action

    state.apply(Action("go-first", side="red"))          # red decides who goes first
    state.apply(Action("end-phase"))
    state.apply(Action("end-phase"))
    sides = [en.side for en in outcome.game_log(state)]
    assert sides == ["red", "red", "blue"]


def test_an_answer_is_credited_to_the_action_it_lets_resolve():
    """blue declining All-out Defence lets red's fight resolve: the damage is red's doing, so
    the entry says red's fight (and what blue answered), in red's name; what blue did is its
    own line ('blue answered ...', the computer's list), not 'blue decline: 1 damage'."""
    from battlefield.rules.actions import Action

    text, name = battle_scene("aos4", None)
    state = Game(registry.get("aos4"), load_scene_text(text, name), 1).new_state()
    state.apply(Action("go-first", side="red"))      # red decides who takes the first turn
    while state.phase != "combat":
        state.apply(Action("end-phase"))
    state.apply(Action("fight", unit="red-blades", target="blue-drake"))
    assert state.pending and state.pending[0].kind == "all-out-defence"
    asked = outcome.game_log(state)[-1]
    assert asked.lines == ["blue decides all-out-defence (choices: all-out-defence, decline)"]
    assert asked.events[0] == asked.lines[0]
    state.apply(Action("decline", side="blue"))
    last = outcome.game_log(state)[-1]
    assert last.side == "blue" and last.credit == "red"
    assert last.action == ("red-blades fight -> blue-drake (blue answered all-out-defence: "
                           "decline)")
    assert last.own == "blue answered all-out-defence: decline"
    assert last.lines[0].startswith("blue-drake: 1 damage")
    assert outcome.news(state) == f"{last.action}: {last.lines[0]}"


def test_an_answer_that_names_its_decision_is_left_as_it_is():
    text, name = battle_scene("warband", None)
    state = Game(registry.get("warband"), load_scene_text(text, name), 9).new_state()
    players = {side: state.rules.player() for side in state.sides}
    for _ in range(400):
        if state.over:
            break
        state.apply(players[state.acting_side].choose(state))
    said = [e.action for e in outcome.game_log(state)]
    assert any(a.endswith(" react") for a in said)                 # not 'react (reaction)'
    assert not any("(reaction)" in a and ("react" in a.split("(")[0]) for a in said)
