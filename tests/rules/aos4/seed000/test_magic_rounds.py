"""The battle round (seed 000 rule sections startOfBattleRound, endOfTurn, endOfBattleRound):
"If it is the first battle round, the player who finished setting up their army first decides who
will take the first turn ... If it is not the first battle round, the players make a roll-off
called the priority roll and the winner decides who will take the first turn. If the roll-off
is a tie, the player who took the first turn in the previous battle round decides"; "Terrain
features are controlled in the same way as objective markers but do not remain in your control
if no friendly models are contesting them"; "If you have completed the number of battle rounds
specified in your battleplan, the battle has ended"."""

from __future__ import annotations

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.aos4.player import Aos4Player
from battlefield.rules.aos4.turns import control_terrain
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

from .magic_scenes import R

END = Action("end-phase")


def unit(uid: str, side: str, x: float, y: float, control: int = 1,
         auxiliary: bool = False) -> str:
    aux = ", auxiliary: true" if auxiliary else ""
    return (f"  - {{id: {uid}, side: {side}, stats: {{move: 5, health: 5, save: 4, control: "
            f"{control}}}{aux}, models: [{{base: 32, at: [{x}, {y}]}}]}}\n")


def game(units: str, state: str = "", terrain: str = "", dice: tuple[int, ...] = ()) -> State:
    text = (f"ruleset: aos4\nboard: {{width: 60, depth: 44}}\n{terrain}"
            f"objectives: [{{id: obj, at: [30, 22]}}]\nunits:\n{units}{state}")
    return Game(registry.get("aos4"), load_scene_text(text), 1).new_state(fixed_dice=dice)


def decision(state: State) -> tuple[str, str]:
    (d,) = state.pending
    return d.side, d.kind


TWO = unit("red-a", "red", 28.5, 22) + unit("blue-a", "blue", 50, 40)


def test_round_1_the_side_that_finished_setting_up_first_decides():
    # Set up by alternating units, red beginning: with one unit each red finishes first.
    state = game(TWO)
    assert decision(state) == ("red", "first-turn") and state.pending[0].answers == \
        ["go-first", "go-second"]
    assert [v.code for v in state.check(END)] == ["awaiting_decision"]
    # Blue with fewer units (1 against 2) runs out first: blue decides; it lets red go first.
    state = game(TWO + unit("red-b", "red", 10, 10))
    assert decision(state) == ("blue", "first-turn")
    events = state.apply(Action("go-second", side="blue"))
    assert state.clock["first"] == "red" and state.active == "red" and state.phase == "start"
    assert {"type": "turn", "round": 1, "active": "red"} in events


def test_a_scene_that_says_whose_turn_it_is_asks_nothing():
    state = game(TWO, "state: {active: blue}\n")
    assert not state.pending and state.active == "blue"


ROUND_END = """state:
  round: {rnd}
  phase: end
  active: blue
  acting: blue
  clock: {{round: {rnd}, turn: 2, active: blue, first: red, phase: end, acting: blue,
          over: false, underdog: null}}
  sides:
    red: {{cp: 2, vp: 3, commands: [], spells: [], prayers: []}}
    blue: {{cp: 1, vp: 0, commands: [], spells: [], prayers: []}}
  objectives: {{obj: red}}
  dice: 1
"""


@pytest.mark.parametrize(("rolls", "decides"), [((3, 5), "blue"), ((5, 3), "red"),
                                                 ((4, 4), "red")])   # tie: red went first
def test_the_priority_roll_winner_decides(rolls, decides):
    state = game(TWO, ROUND_END.format(rnd=1), dice=rolls)
    state.apply(END)
    events = state.apply(END)
    prio = next(e for e in events if e["type"] == "priority")
    assert prio == {"type": "priority", "rolls": dict(zip(("red", "blue"), rolls,
                                                             strict=True)),
                    "decides": decides}
    assert decision(state) == (decides, "first-turn")
    state.apply(Action("go-second", side=decides))
    other = "red" if decides == "blue" else "blue"
    assert state.clock["first"] == other and state.active == other
    # Blue has fewer victory points (0 against 3): the underdog, 4 + 1 command points.
    assert state.sides["blue"]["cp"] == 5 and state.sides["red"]["cp"] == 4


def army(side: str, units: int, auxiliary: int) -> str:
    """`units` units of `side` in a row, the first `auxiliary` of them auxiliary units."""
    y = 6 if side == "red" else 38
    return "".join(unit(f"{side}-{k}", side, 6 + 4 * k, y, auxiliary=k < auxiliary)
                   for k in range(units))


# Seed 000 (army composition): "The player with the fewest auxiliary units on their roster gains
# 1 extra command point at the start of each battle round." Each side 4 command points (the
# battleplan), 1 more for the underdog (fewest victory points) and 1 more for the fewest
# auxiliary units; a tie gives neither. (red units, red auxiliary, blue units, blue auxiliary,
# round, red cp, blue cp)
AUXILIARY_CP = [
    (2, 0, 2, 0, 1, 4, 4),        # no auxiliary units: a tie, 4 each
    (2, 1, 2, 0, 1, 4, 5),        # blue has fewer (0 < 1): 4 + 1
    (3, 2, 3, 1, 1, 4, 5),        # blue has fewer (1 < 2)
    (2, 1, 2, 2, 1, 5, 4),        # red has fewer (1 < 2)
    (2, 2, 2, 2, 1, 4, 4),        # a tie (2 and 2), neither
    (2, 1, 2, 0, 2, 4, 6),        # round 2: blue the underdog (0 vp to 3) and fewer: 4 + 1 + 1
    (2, 0, 2, 1, 2, 5, 5),        # round 2: blue the underdog, red fewer: 5 each
]


@pytest.mark.parametrize(("ru", "ra", "bu", "ba", "rnd", "red_cp", "blue_cp"), AUXILIARY_CP)
def test_the_side_with_the_fewest_auxiliary_units_gains_a_command_point(ru, ra, bu, ba, rnd,
                                                                        red_cp, blue_cp):
    units = army("red", ru, ra) + army("blue", bu, ba)
    if rnd == 1:                 # equal numbers of units: red finished setting up first
        state = game(units)
        events = state.apply(Action("go-first", side="red"))
    else:                        # the end of round 1 (red 3 vp, blue 0); red wins the priority
        state = game(units, ROUND_END.format(rnd=1), dice=(5, 3))
        state.apply(END)
        state.apply(END)
        events = state.apply(Action("go-first", side="red"))
    assert (state.sides["red"]["cp"], state.sides["blue"]["cp"]) == (red_cp, blue_cp)
    (started,) = [e for e in events if e["type"] == "battle-round"]
    fewest = None if ra == ba else ("red" if ra < ba else "blue")
    assert started["round"] == rnd and started["fewest_auxiliary"] == fewest
    assert started["command_points"] == {"red": red_cp, "blue": blue_cp}


def test_the_computer_player_takes_the_first_turn():
    state = game(TWO)
    assert Aos4Player().choose(state) == Action("go-first", side="red")


def test_the_battle_ends_after_the_last_round_without_a_priority_roll():
    state = game(TWO, ROUND_END.format(rnd=4))
    state.apply(END)
    events = state.apply(END)
    assert [e["type"] for e in events][-2:] == ["end-of-battle-round", "battle-over"]
    assert state.over and not state.pending and state.result().winner == "red"


def piece(x0: float) -> str:
    return (f"terrain:\n  - {{id: ruin, outline: [[{x0}, 20], [{x0 + 4}, 20], [{x0 + 4}, 24], "
            f"[{x0}, 24]], height: 3, kind: obstacle}}\n")


@pytest.mark.parametrize(("gap", "held"), [(3.0, "red"), (3.01, None)])
def test_terrain_is_controlled_like_an_objective(gap, held):
    # red-a at (28.5, 22); the ruin's west edge `gap` past its base edge: within its combat
    # range at 3.000", not at 3.010".
    state = game(TWO, ROUND_END.format(rnd=1), piece(28.5 + R + gap), dice=(5, 3))
    state.apply(END)
    events = state.apply(END)
    control = next(e for e in events if e["type"] == "terrain-control")
    assert control["controlled_by"] == ({"ruin": held} if held else {})


def test_terrain_control_is_lost_when_no_friendly_model_contests_it():
    # Red holds the ruin (its Control 1 against none); blue-b then stands by it with Control 1
    # against red's 1: a tie - red keeps it while red-a still contests it; once red-a has left,
    # red loses it though nobody gained it ("do not remain in your control").
    units = TWO + unit("blue-b", "blue", 38, 18)
    state = game(units, ROUND_END.format(rnd=1), piece(30.0), dice=(5, 3))
    state.apply(END)
    state.apply(END)                               # end of blue's turn: control checked
    assert state.extra["terrain_control"]["ruin"] == "red"      # red 1, blue-b 3.84" off
    state.table = state.table.moved([2], [36.5], [18])          # blue-b 2.57" off: 1 v 1
    control_terrain(state)
    assert state.extra["terrain_control"]["ruin"] == "red"
    state.table = state.table.moved([0], [10.0], [10.0])        # red-a leaves
    control_terrain(state)
    assert state.extra["terrain_control"]["ruin"] == "blue"
    state.table = state.table.moved([2], [50.0], [10.0])        # nobody contests
    control_terrain(state)
    assert state.extra["terrain_control"]["ruin"] is None
