"""Deploy Faction Terrain as seed 000 words it, each ruling worked out by hand: "Set up the
target faction terrain feature wholly within friendly territory, more than 3" from all
objectives and other terrain features", and the deployment rules' first step: "The player who
begins deployment must use DEPLOY TERRAIN abilities first, followed by their opponent."

The board is 60" x 44"; red's territory is x 10..50, y 0..20, blue's y 24..44. A solid block
stands at x 30..36, y 2..8. The objective is at (20, 16), its marker 40 mm across (radius
R = 0.787402"), so the distance counts from the marker's edge (N20). Each side's shrine is a
4" square (its outline written at 0..4: a shape, not a place); `at` puts its centre, so at
(x, y) it covers x-2..x+2, y-2..y+2.
"""

from __future__ import annotations

import pytest
import yaml

from battlefield.rules.actions import Action
from battlefield.rules.aos4.rules import RULESET
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

R = 40 / 25.4 / 2
STATS = "stats: {move: 5, health: 1, save: 4}, weapons: [{name: Sword}]"
SQUARE = "outline: [[0, 0], [4, 0], [4, 4], [0, 4]], height: 3, kind: obstacle"
TEXT = f"""ruleset: aos4
board: {{width: 60, depth: 44}}
terrain:
  - {{id: block, outline: [[30, 2], [36, 2], [36, 8], [30, 8]], height: 2}}
  - {{id: red-shrine, side: red, reserve: true, {SQUARE}}}
  - {{id: blue-shrine, side: blue, reserve: true, {SQUARE}}}
objectives:
  - {{id: o, at: [20, 16]}}
deployment:
  red: [[10, 0], [50, 0], [50, 20], [10, 20]]
  blue: [[0, 24], [60, 24], [60, 44], [0, 44]]
units:
- {{id: red-a, side: red, reserve: true, {STATS}, models: [{{base: 32}}]}}
- {{id: blue-a, side: blue, reserve: true, {STATS}, models: [{{base: 32}}]}}
"""


def state_of(text: str = TEXT) -> State:
    return Game(RULESET, load_scene_text(text)).new_state()


def terrain(pid: str, x: float, y: float, facing: float | None = None) -> Action:
    return Action("deploy-faction-terrain", facing=facing,
                  options=(("at", ((x, y),)), ("terrain", pid)))


# (what, the action, the refusal's code or None: legal)
TABLE = [
    ("wholly within, clear of everything", terrain("red-shrine", 15, 5), None),
    ("its edge on the territory's edge: within", terrain("red-shrine", 12, 5), None),
    ("a hundredth of an inch outside", terrain("red-shrine", 11.99, 5), "outside_territory"),
    ("3.1\" from the block: more than 3", terrain("red-shrine", 24.9, 5), None),
    ("exactly 3\" from the block: not more than 3", terrain("red-shrine", 25, 5),
     "near_terrain"),
    # top edge y 12 to the marker's centre (20, 16): 4", to its edge 4 - R = 3.21"
    ("3.21\" from the objective marker's edge", terrain("red-shrine", 20, 10), None),
    # top edge y 12.3: 3.7 - R = 2.91"
    ("2.91\" from the objective marker's edge", terrain("red-shrine", 20, 10.3),
     "near_objective"),
    # turned 45 degrees its corners reach 2.83" from the centre: at (13, 5), x 10.17 - 15.83
    ("turned 45 degrees it fits", terrain("red-shrine", 13, 5, 45), None),
    ("turned, a corner outside", terrain("red-shrine", 12.5, 5, 45), "outside_territory"),
    ("off the board", terrain("red-shrine", 15, 1), "off_board"),
    ("blue's piece in red's step", terrain("blue-shrine", 30, 30), "not_yours"),
    ("no such piece", terrain("nothing", 15, 5), "unknown_terrain"),
    ("a unit before the faction terrain", Action("deploy", unit="red-a", options=(
        ("at", ((20, 5),)),)), "terrain_first"),
]


@pytest.mark.parametrize(("what", "action", "code"), TABLE, ids=[t[0] for t in TABLE])
def test_deploy_faction_terrain_rulings(what, action, code):
    st = state_of()
    assert st.phase == "deployment" and st.acting_side == "red"
    got = [x.code for x in st.check(action)]
    assert got == ([] if code is None else [code]), (what, got)


def test_the_side_that_begins_sets_its_terrain_up_first_then_its_opponent_then_units():
    st = state_of()
    assert st.available() == ["end-phase", "deploy-faction-terrain"]
    st.apply(terrain("red-shrine", 15, 5))
    assert st.acting_side == "blue"
    piece = next(p for p in st.scene.terrain if p.id == "red-shrine")
    assert piece.side == "red" and not piece.reserve
    assert [round(c, 6) for c in piece.polygon.bounds] == [13, 3, 17, 7]
    # Once set up it is terrain like any other: on the table's layout, and a base half on its
    # 3" top (centre on its edge x = 17) is refused as on any tall piece.
    assert "red-shrine" in [p.id for p in st.table.layout.pieces]
    st.apply(terrain("blue-shrine", 30, 40))
    assert [e["type"] for e in st.events[-2:]] == ["deployed-terrain", "terrain-deployed"]
    assert st.acting_side == "red" and st.available() == ["end-phase", "deploy"]
    assert st.check(Action("deploy", unit="red-a", options=(("at", ((17, 5),)),)))
    assert st.check(Action("deploy", unit="red-a", options=(("at", ((20, 5),)),))) == []


def test_a_piece_set_up_keeps_3_inches_from_the_next():
    text = TEXT.replace("- {id: blue-shrine, side: blue", "- {id: red-well, side: red")
    st = state_of(text)
    st.apply(terrain("red-shrine", 15, 5))
    assert st.acting_side == "red"                      # its own second piece next
    # the shrine covers x 13..17: the well at 22 covers 20..24, 3" off; at 22.1, 3.1"
    assert [x.code for x in st.check(terrain("red-well", 22, 5))] == ["near_terrain"]
    assert st.check(terrain("red-well", 22.1, 5)) == []


def test_end_phase_leaves_the_rest_out_and_undo_takes_the_piece_back():
    st = state_of()
    before = st.scene
    st.apply(terrain("red-shrine", 15, 5))
    assert st.scene is not before and len(st.scene.terrain) == 2
    st.undo()
    assert st.scene is before and [p.id for p in st.scene.reserve_terrain] == [
        "red-shrine", "blue-shrine"]
    st.apply(Action("end-phase"))
    assert st.acting_side == "blue"
    assert any(e.get("terrain") == ["red-shrine"] for e in st.events
               if e["type"] == "not-deployed")


def test_the_computer_sets_its_faction_terrain_up_where_the_engine_takes_it():
    st = state_of()
    player = RULESET.player()
    for _ in range(2):
        a = player.choose(st)
        assert a.type == "deploy-faction-terrain" and st.check(a) == []
        st.apply(a)
    assert not st.scene.reserve_terrain and st.clock.get("terrain") is None


def test_a_position_mid_step_reads_back(tmp_path):
    """try --out after red's piece: it is written as terrain where it stands, blue's still in
    reserve; the game goes on the same from it."""
    from battlefield.rules.trial import scene_after

    st = state_of()
    st.apply(terrain("red-shrine", 15, 5))
    data = scene_after(st)
    pieces = {p["id"]: p for p in data["terrain"]}
    assert pieces["red-shrine"].get("reserve") is None and pieces["red-shrine"]["side"] == "red"
    assert pieces["blue-shrine"]["reserve"] is True
    again = state_of(yaml.safe_dump(data, sort_keys=False))
    assert again.acting_side == "blue" and again.available() == st.available()
    nxt = terrain("blue-shrine", 30, 40)
    assert again.apply(nxt) == st.apply(nxt)


@pytest.mark.parametrize(("piece", "said"), [
    ("{id: p, reserve: true, " + SQUARE + "}", "a terrain piece in reserve is a side's own"),
    ("{id: p, side: red, reserve: maybe, " + SQUARE + "}", "'maybe' is not true or false"),
])
def test_a_piece_in_reserve_the_loader_refuses(piece, said):
    from battlefield.errors import InputError

    text = TEXT.replace("  - {id: red-shrine", f"  - {piece}\n  - {{id: red-shrine", 1)
    with pytest.raises(InputError, match=said):
        load_scene_text(text)


def test_a_ruleset_without_deployment_refuses_terrain_in_reserve():
    from battlefield.errors import InputError

    with pytest.raises(InputError, match="skirmish has no deployment phase to set up a terrain "
                                         "piece in reserve"):
        load_scene_text("ruleset: skirmish\nboard: {width: 30, depth: 30}\nterrain:\n"
                        f"  - {{id: p, side: red, reserve: true, {SQUARE}}}\n")
