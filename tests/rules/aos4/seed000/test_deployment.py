"""The deployment phase as seed 000 words it, each ruling worked out by hand.

Deploy Unit: "Set up the target unit wholly within friendly territory and more than 9" from
enemy territory." Deploy Regiment: "Keep using DEPLOY abilities without alternating until all
units in that regiment have been deployed." deployment: "the players alternate using DEPLOY
abilities ... Once one player has no more DEPLOY abilities to use, their opponent must continue
to use DEPLOY abilities until they also have no more to use."

The board is 60" x 44"; red's territory is x 10..50, y 0..20, blue's y 24..44 (4" apart, so the
9" rule binds inside red's territory: a red base's far edge must stay below 24 - 9 = 15"). A
32 mm base has a radius R = 0.629921". A solid piece 2" tall stands at x 30..36, y 2..8.
"""

from __future__ import annotations

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.aos4.rules import RULESET
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

R = 32 / 25.4 / 2
STATS = "stats: {move: 5, health: 1, save: 4}, weapons: [{name: Sword}]"


def scene_text(red: str, blue: str = "") -> str:
    blue = blue or f"- {{id: blue-a, side: blue, reserve: true, {STATS}, models: [{{base: 32}}]}}"
    return f"""ruleset: aos4
board: {{width: 60, depth: 44}}
terrain:
  - {{id: block, outline: [[30, 2], [36, 2], [36, 8], [30, 8]], height: 2}}
deployment:
  red: [[10, 0], [50, 0], [50, 20], [10, 20]]
  blue: [[0, 24], [60, 24], [60, 44], [0, 44]]
units:
{red}
{blue}
"""


ONE = f"- {{id: red-a, side: red, reserve: true, {STATS}, models: [{{base: 32}}]}}"
TWO = f"- {{id: red-b, side: red, reserve: true, {STATS}, models: [{{base: 32}}, {{base: 32}}]}}"
STANDING = f"- {{id: red-s, side: red, {STATS}, models: [{{base: 32, at: [20, 5]}}]}}"
SUMMONED = (f"- {{id: red-m, side: red, reserve: true, keywords: [MANIFESTATION], {STATS}, "
            f"models: [{{base: 32}}]}}")


def state_of(text: str) -> State:
    return Game(RULESET, load_scene_text(text)).new_state()


def deploy(unit: str, *at: tuple[float, float], **extra) -> Action:
    return Action("deploy", unit=unit, options=tuple(sorted(
        {"at": tuple(at), **extra}.items())))


# (what, units, the deploy, the refusal's code or None: legal, the hand computation)
TABLE = [
    ("wholly within: the base touches the territory's edge", ONE,
     deploy("red-a", (10 + R, 5)), None),               # edge at x = 10 exactly: within
    ("a hundredth of an inch outside", ONE,
     deploy("red-a", (10 + R - 0.01, 5)), "outside_territory"),
    ("9\" exactly from enemy territory", ONE,
     deploy("red-a", (20, 15 - R)), "near_enemy_territory"),    # 24 - (15 - R + R) = 9
    ("just past 9\"", ONE,
     deploy("red-a", (20, 15 - R - 0.01)), None),               # 9.01" > 9"
    ("on top of a 2\" piece: wholly on it", ONE,
     deploy("red-a", (33, 5)), None),
    ("half on a 2\" piece: mid-climb", ONE,
     deploy("red-a", (30, 5)), "straddles_terrain"),
    ("on another model", ONE + "\n" + STANDING,
     deploy("red-a", (20.5, 5)), "on_another_model"),
    ("off the board", ONE,
     deploy("red-a", (20, 0.3)), "off_board"),
    ("out of coherency: 2\" apart", TWO,
     deploy("red-b", (20, 5), (20, 5 + 2 * R + 2)), "coherency"),  # more than 1/2" apart
    ("in coherency: 1/2\" apart", TWO,
     deploy("red-b", (20, 5), (20, 5 + 2 * R + 0.5)), None),
    ("one place per model", TWO,
     deploy("red-b", (20, 5)), "places"),
    ("a unit set up already", ONE + "\n" + STANDING,
     deploy("red-s", (40, 5)), "deployed"),
    ("the other side's unit", ONE,
     deploy("blue-a", (30, 40)), "not_yours"),
    ("no regiment to deploy", ONE,
     deploy("red-a", (20, 5), regiment=True), "no_regiment"),
    ("a manifestation: summoned in the battle, never deployed", ONE + "\n" + SUMMONED,
     deploy("red-m", (20, 5)), "summoned"),
]


@pytest.mark.parametrize("what, units, action, code", TABLE, ids=[t[0] for t in TABLE])
def test_deploy_rulings(what, units, action, code):
    state = state_of(scene_text(units))
    assert state.phase == "deployment" and state.acting_side == "red"
    got = [x.code for x in state.check(action)]
    assert got == ([] if code is None else [code]) or (code in got), (what, got)


def test_at_height_the_model_stands_on_the_piece():
    state = state_of(scene_text(ONE))
    state.apply(deploy("red-a", (33, 5)))
    m = int(state.models_of(0)[0])
    assert state.table.z[m] == pytest.approx(2.0)


def test_the_9_inch_refusal_gives_the_distance():
    state = state_of(scene_text(ONE))
    bad = state.check(deploy("red-a", (20, 15 - R + 0.5)))
    assert bad[0].code == "near_enemy_territory"
    assert dict(bad[0].numbers)["distance"] == pytest.approx(8.5, abs=1e-6)


def test_the_sides_alternate_and_the_last_units_are_deployed_by_the_side_with_them():
    """Red has three units, blue one: red, blue, then red twice (blue has finished); blue
    finished first, so it takes the first turn of round 1."""
    red = "\n".join(f"- {{id: red-{k}, side: red, reserve: true, {STATS}, "
                    f"models: [{{base: 32}}]}}" for k in range(3))
    state = state_of(scene_text(red))
    sides = []
    for unit, at in [("red-0", (15, 5)), ("blue-a", (30, 40)), ("red-1", (20, 5)),
                     ("red-2", (25, 5))]:
        sides.append(state.acting_side)
        state.apply(deploy(unit, at))
    assert sides == ["red", "blue", "red", "red"]
    # startOfBattleRound: "the player who finished setting up their army first decides"
    assert [d.kind for d in state.pending] == ["first-turn"] and state.pending[0].side == "blue"
    state.apply(Action("go-first", side="blue"))
    assert state.phase == "start" and state.round == 1
    assert state.clock["finished"] == ["blue", "red"] and state.active == "blue"
    assert any(e["type"] == "deployment-over" for e in state.events)


def test_a_regiment_is_deployed_together():
    red = "\n".join(f"- {{id: red-{k}, side: red, reserve: true, regiment: r1, {STATS}, "
                    f"models: [{{base: 32}}]}}" for k in range(2)) + \
        f"\n- {{id: red-x, side: red, reserve: true, {STATS}, models: [{{base: 32}}]}}"
    state = state_of(scene_text(red))
    state.apply(deploy("red-0", (15, 5), regiment=True))
    assert state.acting_side == "red" and state.clock["regiment"] == "r1"
    assert [x.code for x in state.check(deploy("red-x", (25, 5)))] == ["regiment"]
    state.apply(deploy("red-1", (20, 5)))
    assert state.acting_side == "blue" and state.clock["regiment"] is None


def test_a_regiment_with_a_unit_set_up_already_cannot_be_declared():
    red = "\n".join(f"- {{id: red-{k}, side: red, reserve: true, regiment: r1, {STATS}, "
                    f"models: [{{base: 32}}]}}" for k in range(2))
    state = state_of(scene_text(red))
    state.apply(deploy("red-0", (15, 5)))
    state.apply(deploy("blue-a", (30, 40)))
    assert [x.code for x in state.check(deploy("red-1", (20, 5), regiment=True))] == \
        ["regiment_begun"]


def test_a_side_that_passes_leaves_its_reserve_out_of_the_battle():
    state = state_of(scene_text(TWO + "\n" + ONE))
    state.apply(Action("end-phase"))                 # red: no more DEPLOY abilities to use
    assert state.acting_side == "blue"
    state.apply(deploy("blue-a", (30, 40)))
    assert state.pending[0].side == "red"        # red finished first: red decides
    state.apply(Action("go-second", side="red"))
    assert state.phase == "start" and state.active == "blue"
    left = next(e for e in state.events if e["type"] == "not-deployed")
    assert left["units"] == ["red-b", "red-a"]
    assert state.in_reserve(0) and state.clock["finished"] == ["red", "blue"]


def test_deploy_outside_deployment_is_the_wrong_phase():
    state = state_of(scene_text(STANDING, f"- {{id: blue-s, side: blue, {STATS}, "
                                          f"models: [{{base: 32, at: [30, 40]}}]}}"))
    state.apply(Action("go-first", side=state.pending[0].side))
    assert state.phase == "start"
    assert [x.code for x in state.check(deploy("red-s", (20, 5)))] == ["wrong_phase"]


@pytest.mark.parametrize("written", [
    {"type": "deploy-unit"}, {"type": "deploy-regiment"}, {"type": "deploy-faction-terrain"},
    {"type": "deploy"}, {"type": "deploy", "unit": "nobody"},
    {"type": "deploy", "unit": "red-a"}, {"type": "deploy", "unit": "red-a", "at": "here"},
    {"type": "deploy", "unit": "red-a", "at": [[1]]}, {"type": "deploy-unit", "unit": "red-a"},
    {"type": "deploy", "unit": "red-a", "at": [[20, 5]], "regiment": "yes"},
    {"type": "normal-move", "unit": "red-a", "path": [[20, 5]]},
])
@pytest.mark.parametrize("reserve", [True, False])
def test_try_never_crashes_on_a_deploy_action(written, reserve):
    """N2: `try` with any deploy action answers, in deployment and out of it."""
    from battlefield.rules.boundary import read
    from battlefield.rules.trial import run

    units = ONE if reserve else STANDING.replace("red-s", "red-a")
    scene = load_scene_text(scene_text(units, f"- {{id: blue-s, side: blue, {STATS}, "
                                              f"models: [{{base: 32, at: [30, 40]}}]}}"))
    _, results = run(scene, [read(written, scene)])
    if written["type"] == "normal-move" and not reserve:
        assert results[0]["legal"] is True          # a move in a battle past deployment
    else:
        assert results[0]["legal"] is False and results[0]["violations"]


def test_a_position_in_deployment_reads_back():
    """try --out mid-deployment: the units still in reserve are written so, the deployed ones
    where they stand; the game goes on the same from it."""
    import yaml

    from battlefield.rules.trial import scene_after

    state = state_of(scene_text(TWO + "\n" + ONE))
    state.apply(deploy("red-b", (20, 5), (20, 6.5)))
    text = yaml.safe_dump(scene_after(state), sort_keys=False)
    again = state_of(text)
    assert again.fingerprint() == state.fingerprint()
    assert again.acting_side == "blue" and again.in_reserve(1) and not again.in_reserve(0)


def test_a_manifestation_in_reserve_neither_starts_deployment_nor_is_left_to_deploy():
    """A manifestation waits in reserve to be summoned (army import writes a Manifestation
    Lore's so): a side with only it in reserve has finished deploying, and a scene with no
    other unit in reserve starts at round 1, not in deployment."""
    from battlefield.rules.aos4 import deployment

    state = state_of(scene_text(ONE + "\n" + SUMMONED))
    assert deployment.reserves(state, "red") == [state.scene.unit_index("red-a")]
    only = scene_text(SUMMONED + "\n" + STANDING,
                      f"- {{id: blue-s, side: blue, {STATS}, models: [{{base: 32, "
                      f"at: [30, 40]}}]}}")
    assert state_of(only).phase != "deployment"
