"""The scene loader on good input: default model heights, leaders, elevation on terrain, base
sizes in inches, and `map:` references."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest

from battlefield.errors import InputError
from battlefield.scene.load import load_scene

HEADER = "ruleset: aos4\nboard: {width: 60, depth: 44}\n"


def write(tmp_path: Path, body: str, name: str = "scene.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def one_model(tmp_path: Path, model: str, terrain: str = "") -> object:
    body = HEADER + terrain + f"units:\n  - id: u\n    side: red\n    models:\n      - {model}\n"
    return load_scene(write(tmp_path, body)).units[0].models[0]


@pytest.mark.parametrize(("base", "height"), [
    ("25", 1.25), ("32", 1.25), ("40", 1.5), ("50", 2.5), ("60", 2.5), ("[60, 35]", 2.5),
    ("[75, 42]", 2.5), ("80", 4.0), ("160", 4.0), ("[90, 52]", 4.0), ("[170, 105]", 4.0),
    ("{round: 40}", 1.5), ("{oval: [60, 35]}", 2.5),
])
def test_default_height_by_base_size(tmp_path: Path, base: str, height: float) -> None:
    m = one_model(tmp_path, f"{{base: {base}, at: [20, 20]}}")
    assert m.height == pytest.approx(height)
    assert not m.height_given


def test_base_sizes_in_inches(tmp_path: Path) -> None:
    m = one_model(tmp_path, "{base: 32, at: [20, 20]}")
    assert m.base.a == pytest.approx(0.6299, abs=1e-4)
    assert m.base.b == pytest.approx(0.6299, abs=1e-4)
    oval = one_model(tmp_path, "{base: [60, 35], at: [20, 20], facing: 90}")
    assert oval.base.a == pytest.approx(60 / 25.4 / 2)
    assert oval.base.b == pytest.approx(35 / 25.4 / 2)
    assert oval.facing == 90.0


def test_facing_wraps_to_0_360(tmp_path: Path) -> None:
    assert one_model(tmp_path, "{base: 32, at: [20, 20], facing: -90}").facing == 270.0


def test_explicit_z_and_height_kept(tmp_path: Path) -> None:
    m = one_model(tmp_path, "{base: 32, at: [20, 20], z: 2.5, height: 3}")
    assert (m.z, m.height, m.z_given, m.height_given) == (2.5, 3.0, True, True)


TERRAIN = """\
terrain:
  - id: tower
    kind: solid
    outline: [[10, 10], [20, 10], [20, 20], [10, 20]]
    height: 3
  - id: wood
    kind: area
    outline: [[30, 10], [40, 10], [40, 20], [30, 20]]
    height: 4
"""


def test_z_is_top_of_solid_piece_when_wholly_on_it(tmp_path: Path) -> None:
    m = one_model(tmp_path, "{base: 32, at: [15, 15]}", TERRAIN)
    assert m.z == 3.0
    assert not m.z_given


def test_z_is_ground_when_partly_on_a_piece(tmp_path: Path) -> None:
    assert one_model(tmp_path, "{base: 32, at: [10, 15]}", TERRAIN).z == 0.0


def test_z_is_ground_in_area_terrain(tmp_path: Path) -> None:
    assert one_model(tmp_path, "{base: 32, at: [35, 15]}", TERRAIN).z == 0.0


def test_explicit_z_on_terrain_wins(tmp_path: Path) -> None:
    assert one_model(tmp_path, "{base: 32, at: [15, 15], z: 0}", TERRAIN).z == 0.0


def test_models_at_different_heights_may_overlap(tmp_path: Path) -> None:
    body = HEADER + "units:\n  - id: u\n    side: red\n    models:\n" \
        "      - {base: 32, at: [20, 20]}\n      - {base: 32, at: [20.5, 20], z: 5}\n"
    assert len(load_scene(write(tmp_path, body)).units[0].models) == 2


def test_leader_index(tmp_path: Path) -> None:
    body = HEADER + """\
units:
  - id: u
    side: red
    leader: 3
    models:
      - {base: 32, at: [10, 10]}
      - {base: 32, at: [12, 10]}
      - {base: 32, at: [14, 10]}
  - id: v
    side: blue
    models: [{base: 32, at: [40, 10]}]
"""
    scene = load_scene(write(tmp_path, body))
    assert scene.units[0].leader == 2
    assert scene.units[1].leader == 0
    assert scene.units[0].name == "u"
    assert scene.model_names == ["u/1", "u/2", "u/3", "v/1"]
    assert scene.sides == ["red", "blue"]


def test_stats_weapons_keywords(tmp_path: Path) -> None:
    body = HEADER + """\
units:
  - id: u
    side: red
    name: Liberators
    keywords: [infantry, Hero]
    stats: {move: 5, health: 2, save: 3+, control: 1}
    weapons:
      - {name: Warhammer, attacks: 2, hit: 3+, wound: 3+, rend: 1, damage: D3, abilities: [crit]}
    models: [{base: 40, at: [10, 10]}]
"""
    u = load_scene(write(tmp_path, body)).units[0]
    assert u.name == "Liberators"
    assert u.keywords == ("INFANTRY", "HERO")
    assert u.has("hero")
    assert u.stats == {"move": 5.0, "health": 2.0, "save": "3+", "control": 1.0}
    assert u.weapons[0]["damage"] == "D3"
    assert u.weapons[0]["abilities"] == ["crit"]


MAP = """\
name: Test map
ruleset: aos4
board: {width: 44, depth: 30}
terrain:
  - id: rock
    outline: [[5, 5], [9, 5], [9, 9], [5, 9]]
    height: 2
objectives:
  - {id: o1, at: [22, 15]}
deployment:
  red: [[0, 0], [44, 0], [44, 6], [0, 6]]
"""


@pytest.mark.parametrize("ref", ["testmap", "testmap.yaml"])
def test_map_reference(tmp_path: Path, ref: str) -> None:
    write(tmp_path, MAP, "testmap.yaml")
    scene = load_scene(write(tmp_path, f"""\
map: {ref}
units:
  - id: u
    side: red
    models: [{{base: 32, at: [7, 7]}}]
"""))
    assert scene.ruleset.id == "aos4"
    assert (scene.width, scene.depth) == (44, 30)
    assert [p.id for p in scene.terrain] == ["rock"]
    assert [o.id for o in scene.objectives] == ["o1"]
    assert set(scene.deployment) == {"red"}
    assert scene.name == "Test map"
    assert scene.units[0].models[0].z == 2.0      # on top of the map's rock


def test_scene_keys_override_the_map(tmp_path: Path) -> None:
    write(tmp_path, MAP, "testmap.yaml")
    scene = load_scene(write(tmp_path, "map: testmap\nname: Mine\nterrain: []\n"
                                       "board: {width: 30, depth: 22}\n"))
    assert (scene.width, scene.depth) == (30, 22)
    assert scene.terrain == ()
    assert scene.name == "Mine"
    assert [o.id for o in scene.objectives] == ["o1"]


def test_map_loop_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "map: b\n", "a.yaml")
    write(tmp_path, "map: a\n", "b.yaml")
    with pytest.raises(InputError, match="leads back to a.yaml"):
        load_scene(tmp_path / "a.yaml")


def test_bundled_map_by_name(tmp_path: Path) -> None:
    from battlefield.paths import map_names

    assert "aos4" in map_names()                # it ships with battlefield: never skipped
    scene = load_scene(write(tmp_path, "map: aos4\n"))
    assert scene.ruleset.id == "aos4"
    assert scene.width > 0 and scene.depth > 0


def test_ruleset_override(tmp_path: Path) -> None:
    path = write(tmp_path, "board: {width: 30, depth: 22}\n")
    assert load_scene(path, ruleset="skirmish").ruleset.id == "skirmish"


def test_require_units(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER)
    assert load_scene(path).units == []
    with pytest.raises(InputError, match="units"):
        load_scene(path, require_units=True)


def test_key_lines_are_reported(tmp_path: Path) -> None:
    body = HEADER + "units:\n  - id: u\n    side: red\n    models:\n" \
        "      - {base: 32, at: [10, 10]}\n"
    unit = load_scene(write(tmp_path, body)).units[0]
    assert unit.line == 4


def test_dates_and_numbers_as_words(tmp_path: Path) -> None:
    scene = load_scene(write(tmp_path, HEADER + "name: 2024-05-01\ndescription: 42\n"))
    assert scene.name == "2024-05-01"
    assert scene.description == "42"
    assert math.isfinite(scene.width)


# --- maps are boards -------------------------------------------------------------------------
PLAIN_MAP = """\
name: plain
board: {width: 30, depth: 20}
terrain:
- {id: hill, outline: [[10, 5], [14, 5], [14, 9], [10, 9]], height: 2}
objectives:
- {id: middle, at: [15, 10]}
"""


def test_a_map_without_units_needs_no_ruleset(tmp_path: Path) -> None:
    from battlefield.analysis.reach import climb_free_of, default_move

    s = load_scene(write(tmp_path, PLAIN_MAP))
    assert s.ruleset.id == "board" and len(s.terrain) == 1
    assert default_move("board") == 6.0 and climb_free_of(s) == 1.0
    assert s.ruleset.objectives.range == 3.0


def test_a_scene_with_units_needs_a_ruleset_even_on_a_plain_map(tmp_path: Path) -> None:
    write(tmp_path, PLAIN_MAP, "plain.yaml")
    scene = write(tmp_path, """\
        map: plain
        units:
        - {id: red-1, side: red, models: [{base: 32, at: [3, 3]}]}
        """)
    with pytest.raises(InputError) as info:
        load_scene(scene)
    assert "missing key 'ruleset'" in str(info.value)


def test_a_plain_board_is_analysed_with_the_stated_defaults(tmp_path: Path, capsys) -> None:
    import json

    from battlefield.cli.main import main

    path = write(tmp_path, PLAIN_MAP)
    assert main(["analyze", str(path), "--grid", "2", "--json", "--out",
                 str(tmp_path / "out")]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["ruleset"] == "board" and figures["move"] == 6.0
    # Contested within 3" of the centre, plus the 32 mm mover's radius.
    assert figures["contest_range"] == pytest.approx(3 + 16 / 25.4, abs=0.01)
    assert main(["analyze", str(path), "--grid", "2", "--json", "--move", "4", "--out",
                 str(tmp_path / "out2")]) == 0
    assert json.loads(capsys.readouterr().out)["move"] == 4.0


def test_a_plain_board_plays_with_the_default_rulesets_demo_armies(tmp_path: Path) -> None:
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from battlefield.view.app import open_game

    board = tmp_path / "board.yaml"
    board.write_text(PLAIN_MAP.replace("board: {width: 30, depth: 20}",
                                       "board: {width: 60, depth: 44}")
                     + "deployment:\n  red: [[0, 0], [60, 0], [60, 12], [0, 12]]\n"
                       "  blue: [[0, 32], [60, 32], [60, 44], [0, 44]]\n", encoding="utf-8")
    state = open_game(str(board)).state
    assert state.rules.id == "aos4" and state.scene.units


def test_try_on_a_plain_board_is_one_line(tmp_path: Path, capsys) -> None:
    from battlefield.cli.main import main

    path = write(tmp_path, PLAIN_MAP)
    assert main(["try", str(path), "--action", '{"type": "end-turn"}']) == 2
    err = capsys.readouterr().err
    assert "plain board" in err and len(err.strip().splitlines()) == 1
