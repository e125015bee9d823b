"""Scenario table of the blocks rulings `check --json` gives, each worked out by hand: the side
of b that a's centre lies on (b's diagonals), engagement within 0.1", engaged sides of rotated
blocks, front arcs, shooting distance from the front edge, and rout routes round obstacles."""

from __future__ import annotations

import math

import pytest

from battlefield.scene.load import load_scene_text

from ._scene import MONSTER, block, check, pair, scene, square

C30, S30 = math.cos(math.radians(30)), math.sin(math.radians(30))

# B: a 4" x 2" block at (20, 16) facing 30 degrees (its left normal points at 120 degrees).
B = block("blue-b", "blue", 20, 16, 30)


def at(angle: float, dist: float) -> tuple[float, float]:
    return (20 + dist * math.cos(math.radians(angle)), 16 + dist * math.sin(math.radians(angle)))


ENGAGEMENT = [
    # A flush on B's left side: centre 2 (B's half-frontage) + 1 (A's half-depth) out along 120.
    ("left flush", [*at(120, 3), 300], "left", True, ["left"], ["front"]),
    # Flush on the rear: 1 + 1 out along 210, facing B (30 degrees).
    ("rear flush", [*at(210, 2), 30], "rear", True, ["rear"], ["front"]),
    # Flush on the right: along 300.
    ("right flush", [*at(300, 3), 120], "right", True, ["right"], ["front"]),
    # On the front, 0.05" apart: still engaged (within 0.1").
    ("front 0.05 gap", [*at(30, 2.05), 210], "front", True, ["front"], ["front"]),
    # On the front, 0.2" apart: not engaged, but a's centre is still on B's front side.
    ("front 0.2 gap", [*at(30, 2.2), 210], "front", False, [], []),
]


@pytest.mark.parametrize("name, pose, side, engaged, b_sides, a_sides", ENGAGEMENT,
                         ids=[e[0] for e in ENGAGEMENT])
def test_engaged_sides_of_rotated_blocks(tmp_path, capsys, name, pose, side, engaged,
                                         b_sides, a_sides):
    x, y, f = pose
    report = check(tmp_path, scene(block("red-a", "red", x, y, f), B), capsys)
    p = pair(report, "red-a", "blue-b")
    assert p["side"] == side and p["in_combat"] is engaged
    assert report["units"]["blue-b"]["engaged_sides"] == b_sides
    assert report["units"]["red-a"]["engaged_sides"] == a_sides


def test_a_point_on_a_diagonal_is_on_the_front_side(tmp_path, capsys):
    """B faces 0 at (20, 16), a = 1, b = 2: its front-left diagonal runs through (22, 20); a
    2" x 2" block centred there is on B's front side (a diagonal belongs to the front)."""
    report = check(tmp_path, scene(block("red-a", "red", 22, 20, 0, base=MONSTER),
                                   block("blue-b", "blue", 20, 16, 0)), capsys)
    assert pair(report, "red-a", "blue-b")["side"] == "front"
    # Nudged 0.01" further left (y up) it is on the left side.
    report = check(tmp_path, scene(block("red-a", "red", 22, 20.01, 0, base=MONSTER),
                                   block("blue-b", "blue", 20, 16, 0)), capsys)
    assert pair(report, "red-a", "blue-b")["side"] == "left"


# A: a 4" x 2" block at (10, 10) facing north: its front edge is y = 11 from x = 8 to 12 and
# its arc is y >= 11, |x - 10| <= 2 + (y - 11). Targets are 2" x 2" blocks.
ARCS = [
    # Spans x 15..17, y 13..15: at y = 15 the arc reaches x = 16, so part of it is inside;
    # nearest points (12, 11) and (15, 13): sqrt(13).
    ("partly in the arc", (16, 14), True, math.sqrt(13)),
    # Spans x 17..19: at y = 15 the arc reaches only x = 16.
    ("beside the arc", (18, 14), False, math.hypot(5, 2)),
    # Straight ahead, y 19..21: 8" from the front edge.
    ("ahead", (10, 20), True, 8.0),
    # Behind: y 3..5, 6" behind the front edge.
    ("behind", (10, 4), False, 6.0),
]


@pytest.mark.parametrize("name, where, in_arc, distance", ARCS, ids=[a[0] for a in ARCS])
def test_front_arc_and_shooting_distance(tmp_path, capsys, name, where, in_arc, distance):
    report = check(tmp_path, scene(block("red-a", "red", 10, 10, 90),
                                   block("blue-t", "blue", *where, 0, base=MONSTER)), capsys)
    p = pair(report, "red-a", "blue-t")
    assert p["in_arc"] is in_arc
    assert p["shooting_distance"] == pytest.approx(distance, abs=1e-6)


def test_arc_and_distance_of_a_block_facing_west(tmp_path, capsys):
    """A at (10, 10) facing 180: its front edge is x = 9, y 8..12; a 2" block at (3, 10)
    spans x 2..4: 5" away and in the arc; the same block east of A is behind it."""
    report = check(tmp_path, scene(block("red-a", "red", 10, 10, 180),
                                   block("blue-t", "blue", 3, 10, 0, base=MONSTER),
                                   block("blue-u", "blue", 17, 10, 0, base=MONSTER)), capsys)
    assert pair(report, "red-a", "blue-t")["in_arc"] is True
    assert pair(report, "red-a", "blue-t")["shooting_distance"] == pytest.approx(5.0)
    assert pair(report, "red-a", "blue-u")["in_arc"] is False
    assert pair(report, "red-a", "blue-u")["shooting_distance"] == pytest.approx(7.0)


# Rout routes: a routing red 4" x 2" block (a = 1, half-diagonal r = sqrt(5)) at (10, 10); red's
# zone touches the south edge, where the route ends with the block's front (facing the edge)
# touching it: the centre at y = 1.
R = math.sqrt(5)


def _round_the_corner() -> float:
    """Round the wall's north-west corner (7, 6): the tangent from (10, 10) to the circle of
    radius r about it, the arc to due west of it, then straight down x = 7 - r to y = 1."""
    d = math.hypot(3, 4)
    tangent = math.sqrt(d * d - R * R)
    arc = math.pi - (math.atan2(4, 3) + math.acos(R / d))
    return tangent + R * arc + 5


ROUTS = [
    ("open ground", (), (), 9.0, [[10, 10], [10, 1]]),
    ("round a wall", (square("wall", 7, 4, 20, 6),), (), _round_the_corner(), None),
    # A friendly block in the way is no obstacle to the route (it stops the move, later).
    ("through a friend", (), (block("red-f", "red", 10, 5, 90),), 9.0, [[10, 10], [10, 1]]),
]


@pytest.mark.parametrize("name, terrain, others, distance, path", ROUTS,
                         ids=[r[0] for r in ROUTS])
def test_rout_routes(tmp_path, capsys, name, terrain, others, distance, path):
    text = scene(block("red-r", "red", 10, 10, 90, routing=True), *others,
                 block("blue-x", "blue", 40, 28, 270), terrain=terrain)
    rout = check(tmp_path, text, capsys)["units"]["red-r"]["rout"]
    assert rout["edge"] == "south"
    # The grown outline's arcs are chords pushed out to clear the circle: a little longer.
    assert rout["distance"] == pytest.approx(distance, abs=0.01)
    if path is not None:
        assert [c for p in rout["path"] for c in p] == pytest.approx([c for p in path
                                                                      for c in p])
    else:
        assert rout["path"][-1] == pytest.approx([7 - R, 1], abs=0.01)


def test_a_rout_goes_round_an_enemy_block(tmp_path, capsys):
    """An enemy 4" x 2" block at (10, 5) facing north, kept r clear of (grown by r, mitred:
    corners at (8 - r, 6 + r) and (12 + r, 6 + r)): from (10.5, 10) round the nearer
    north-east corner, then straight down to y = 1."""
    text = scene(block("red-r", "red", 10.5, 10, 90, routing=True),
                 block("blue-e", "blue", 10, 5, 90))
    rout = check(tmp_path, text, capsys)["units"]["red-r"]["rout"]
    corner = (12 + R, 6 + R)
    expected = math.hypot(corner[0] - 10.5, corner[1] - 10) + (corner[1] - 1)
    assert rout["distance"] == pytest.approx(expected, abs=1e-3)
    assert rout["path"][-1] == pytest.approx([corner[0], 1], abs=1e-3)


def test_own_edge_comes_from_the_deployment_zone(tmp_path, capsys):
    text = scene(block("red-x", "red", 10, 10, 90),
                 block("blue-r", "blue", 30, 20, 270, routing=True))
    rout = check(tmp_path, text, capsys)["units"]["blue-r"]["rout"]
    assert rout["edge"] == "north" and rout["distance"] == pytest.approx(32 - 1 - 20)


def test_a_type_gives_the_default_footprint(tmp_path, capsys):
    """A cavalry block (4" x 3") at (10, 10) facing north, a monster (2" x 2") at (10, 20),
    neither with a `base`: front edge y = 11.5 to the monster's near edge y = 19, 7.5"."""
    text = scene(block("red-a", "red", 10, 10, 90, base=None, type="cavalry"),
                 block("blue-b", "blue", 10, 20, 0, base=None, type="monster"))
    assert "base" not in text
    report = check(tmp_path, text, capsys)
    assert pair(report, "red-a", "blue-b")["shooting_distance"] == pytest.approx(7.5)


def test_an_unknown_type_is_refused_at_its_line(tmp_path, capsys):
    from battlefield.cli.main import main

    path = tmp_path / "scene.yaml"
    path.write_text(scene(block("red-a", "red", 10, 10, 90, type="dragon"),
                          block("blue-b", "blue", 10, 20, 0)))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "units[0].type: unknown type 'dragon'" in err and "infantry, cavalry, monster" in err


BAD = [
    ({"order": "run"}, "units[0].order: 'run' is not an order"),
    ({"order": {"charge": "nobody"}}, "units[0].order.charge: no unit 'nobody'"),
    ({"bar": [3, 3]}, "units[0].bar: [3, 3] is not a damage bar"),
    ({"traits": ["brave"]}, "units[0].traits: unknown trait 'brave'"),
    ({"routing": "yes"}, "units[0].routing: must be"),
]


@pytest.mark.parametrize("keys, message", BAD, ids=[m for _, m in BAD])
def test_a_bad_blocks_key_is_one_line_at_its_key(tmp_path, capsys, keys, message):
    from battlefield.cli.main import main

    path = tmp_path / "scene.yaml"
    path.write_text(scene(block("red-a", "red", 10, 10, 90, **keys),
                          block("blue-b", "blue", 10, 20, 0)))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "scene.yaml:" in err


def test_the_check_text_lists_the_blocks_rulings(tmp_path, capsys):
    from battlefield.cli.main import main

    path = tmp_path / "scene.yaml"
    path.write_text(scene(block("red-r", "red", 10, 10, 90, routing=True),
                          block("blue-b", "blue", 10, 20, 0)))
    assert main(["check", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Units (blocks)" in text and 'edge south, distance 9.00"' in text
    assert "Pairs (blocks: a looking at b)" in text and "shooting_distance" in text


def test_check_says_whether_blocks_shooting_sees(tmp_path, capsys):
    """A wall between two blocks shuts the shooting sight off; moved aside, it is open."""
    import json

    from battlefield.cli.main import main

    for y, sees in ((14, False), (2, True)):
        wall = (f"terrain:\n- {{id: wall, kind: solid, height: 3, outline: [[6, {y}], "
                f"[14, {y}], [14, {y + 1}], [6, {y + 1}]]}}\n")
        text = scene(block("red-a", "red", 10, 10, 90), block("blue-b", "blue", 10, 20, 270))
        text = text.replace("terrain: []\n", wall, 1)
        path = tmp_path / f"wall{y}.yaml"
        path.write_text(text)
        assert main(["check", str(path), "--json"]) == 0
        pairs = json.loads(capsys.readouterr().out)["pairs"]
        pair = next(p for p in pairs if p["a"] == "red-a" and p["b"] == "blue-b")
        assert pair["shooting_sight"] is sees, (y, pair)



def test_a_charge_orders_arrow_is_the_way_the_charge_goes():
    """red-c charges blue-t (12" north) with a wall between: the arrow drawn for its order
    goes round the wall, the route the Movement phase moves it along (turns.charge_route),
    not straight through it; it ends where the charge ends, flush on blue-t's front."""
    import shapely

    from battlefield.rules.blocks import turns
    from battlefield.rules.blocks.marks import order_mark
    from battlefield.rules.log import rules_for
    from battlefield.rules.state import Game

    wall = square("wall", 6, 14, 14, 15)
    text = scene(block("red-c", "red", 10, 6, 90, order={"charge": "blue-t"}),
                 block("blue-t", "blue", 10, 24, 270, order="hold"), terrain=(wall,),
                 state={"round": 2, "active": "red"})
    state = Game(rules_for("blocks"), load_scene_text(text, "scene.yaml"), 1).new_state()
    arrow = order_mark(state, 0)
    route, facing = turns.charge_route(state, 0, 1)
    assert arrow.kind == "arrow" and arrow.points.tolist() == [list(p) for p in route]
    assert len(route) > 2 and facing == pytest.approx(90)      # facing blue-t, north
    assert not shapely.LineString(route).intersects(shapely.box(6, 14, 14, 15))
    assert route[-1] == pytest.approx((10, 24 - 1 - 1))        # 2" deep blocks, fronts flush
    assert arrow.label == "red-c charges blue-t"     # two blocks may charge one foe: whose


@pytest.mark.parametrize("name, ahead, end", [
    # red-a's front edge at y 7, Move 4: free ahead, the edge goes 4" to y 11
    ("free", None, 11.0),
    # blue-b's front edge at y 9: red-a stops touching it (its centre 2" on), not inside it
    ("a block in the way", block("blue-b", "blue", 10, 10, 270, order="hold"), 9.0),
    # a wall from y 8.5: it stops touching the wall, 1.5" on
    ("a wall in the way", None, 8.5),
])
def test_an_advance_arrow_ends_where_the_move_really_ends(name, ahead, end):
    """The advance order's arrow runs from the block's front edge to where that edge stops
    as the Movement phase moves it (turns.by_order: movement.straight), touching whatever it
    meets - not through it to the full Move."""
    from battlefield.rules.blocks.marks import order_mark
    from battlefield.rules.log import rules_for
    from battlefield.rules.state import Game

    others = [ahead] if ahead else [block("blue-b", "blue", 40, 26, 270, order="hold")]
    terrain = (square("wall", 6, 8.5, 14, 9.5),) if name == "a wall in the way" else ()
    text = scene(block("red-a", "red", 10, 6, 90, order="advance"), *others, terrain=terrain,
                 state={"round": 2, "active": "red"})
    state = Game(rules_for("blocks"), load_scene_text(text, "scene.yaml"), 1).new_state()
    arrow = order_mark(state, 0)
    assert arrow.label == "advance"
    assert arrow.points.ravel().tolist() == pytest.approx([10, 7, 10, end])


def test_a_block_that_cannot_advance_at_all_shows_no_arrow():
    """Touching an enemy block ahead it goes nowhere: no arrow into the enemy."""
    from battlefield.rules.blocks.marks import order_mark
    from battlefield.rules.log import rules_for
    from battlefield.rules.state import Game

    text = scene(block("red-a", "red", 10, 6, 90, order="advance"),
                 block("blue-b", "blue", 10, 8, 270, order="hold"),
                 state={"round": 2, "active": "red"})
    state = Game(rules_for("blocks"), load_scene_text(text, "scene.yaml"), 1).new_state()
    assert order_mark(state, 0) is None
