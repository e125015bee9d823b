"""Scenes from other people's machines: refused by size and kind before reading, `map:` only
to bundled maps or files in the scene's folder or below (never quoting a file that is no
scene), names people can read, no .nan/.inf anywhere; validate says what the other commands
would; a map without units is refused by try in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from battlefield.cli.main import main


def one_line(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def test_a_device_is_refused_before_reading(capsys):
    assert "not a regular file" in one_line(capsys, ["check", "/dev/zero"])


def test_a_huge_scene_is_refused_by_its_size_before_it_is_read(capsys, tmp_path,
                                                               monkeypatch):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    real = Path.read_text

    def read_text(self, *args, **kwargs):
        assert self != big, "the 50 MB file was read"
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    assert "MB" in one_line(capsys, ["check", str(big)])


def test_a_fifo_is_refused(capsys, tmp_path):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in one_line(capsys, ["validate", str(fifo)])


def test_a_log_that_is_no_file_of_a_sane_size_is_refused_unread(capsys, tmp_path):
    """`replay /dev/zero` was a MemoryError (the kernel's killer without a limit): a log is
    refused by its kind and size before reading, as a scene is (a FIFO; 17 MB, sparse)."""
    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)
    assert "not a regular file" in one_line(capsys, ["replay", str(fifo)])
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(17 * 1024 * 1024)
    assert "more than the 16 MB a game log may be" in one_line(capsys, ["replay", str(big)])


@pytest.mark.parametrize("ref", ["../../../../etc/passwd", "/etc/passwd", "../outside.yaml"])
def test_a_map_outside_the_scene_folder_is_refused_unread(capsys, tmp_path, ref):
    (tmp_path / "outside.yaml").write_text("root:x:0:0:secret\n")
    folder = tmp_path / "scenes"
    folder.mkdir()
    scene = folder / "s.yaml"
    scene.write_text(f"ruleset: aos4\nmap: {json.dumps(ref)}\nunits: []\n")
    err = one_line(capsys, ["check", str(scene)])
    assert "outside the scene's folder" in err and "root:" not in err


def test_a_map_below_the_scene_folder_is_read(capsys, tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "m.yaml").write_text("board: {width: 30, depth: 20}\n")
    scene = tmp_path / "s.yaml"
    scene.write_text("ruleset: aos4\nmap: maps/m.yaml\n")
    assert main(["check", str(scene)]) == 0


def test_a_file_that_is_no_scene_is_not_quoted(capsys, tmp_path):
    notes = tmp_path / "notes.yaml"
    notes.write_text("my secret password\n")
    assert "secret" not in one_line(capsys, ["check", str(notes)])


@pytest.mark.parametrize("key, value", [("id", "\ufeff"), ("side", "r\x00d"),
                                        ("id", "a\u200b"), ("name", "\x07")])
def test_names_people_cannot_read_are_refused(capsys, tmp_path, key, value):
    data = yaml.safe_load(open("maps/demo.yaml"))
    data["units"][0][key] = value
    scene = tmp_path / "s.yaml"
    scene.write_text(yaml.safe_dump(data, allow_unicode=True))
    for command in (["validate"], ["render", "-o", str(tmp_path / "x.png")]):
        assert "not a name people can read" in one_line(capsys, [command[0], str(scene),
                                                                 *command[1:]])


@pytest.mark.parametrize("where, said", [
    (("name",), "not a name people can read"),            # the scene's: the picture's title
    (("description",), "not printable"),
    (("units", 0, "weapons", 0, "name"), "not a name people can read"),
    (("objectives", 0, "controlled_by"), "not a name people can read"),
])
def test_every_text_the_pictures_write_is_printable(capsys, tmp_path, where, said):
    """A scene name with a NUL passed validate and crashed render (ValueError in the legend):
    found by the scenes-then-play fuzz at 2,000 cases."""
    data = yaml.safe_load(open("maps/demo-blocks.yaml" if where[0] != "units"
                               else "maps/demo.yaml"))
    if where[0] == "objectives":
        data = yaml.safe_load(open("maps/demo.yaml"))
        data["objectives"] = [{"id": "o", "at": [30, 22]}]
    node = data
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = "a\x00b"
    scene = tmp_path / "s.yaml"
    scene.write_text(yaml.safe_dump(data, allow_unicode=True))
    for command in (["validate"], ["render", "-o", str(tmp_path / "x.png")]):
        assert said in one_line(capsys, [command[0], str(scene), *command[1:]])


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_a_non_finite_build_number_is_refused(capsys, tmp_path, value):
    data = yaml.safe_load(open("maps/demo-openwg.yaml"))
    unit = next(u for u in data["units"] if "build" in u)
    unit["build"]["health"] = value
    scene = tmp_path / "s.yaml"
    scene.write_text(yaml.safe_dump(data))
    for command in ("points", "check", "validate"):
        assert "finite" in one_line(capsys, [command, str(scene)])


def test_validate_refuses_what_check_and_try_refuse(capsys, tmp_path):
    data = yaml.safe_load(open("maps/demo-blocks.yaml"))
    data["units"][0]["side"] = "green"               # blocks: two sides only
    scene = tmp_path / "three.yaml"
    scene.write_text(yaml.safe_dump(data))
    for command in ("validate", "check"):
        assert "two sides" in one_line(capsys, [command, str(scene)])


def test_a_blocks_scene_without_units_is_a_map_to_every_command(capsys, tmp_path):
    scene = tmp_path / "empty.yaml"
    scene.write_text("ruleset: blocks\nboard: {width: 48, depth: 32}\nstate: {round: 2}\n"
                     "units: []\n")
    assert main(["validate", str(scene)]) == 0
    assert main(["check", str(scene)]) == 0
    assert main(["render", str(scene), "-o", str(tmp_path / "x.png")]) == 0
    capsys.readouterr()
    assert "no units" in one_line(capsys, ["try", str(scene), "--action",
                                           '{"type": "end-phase"}'])


@pytest.mark.parametrize("name", ["aos4", "skirmish", "open", "openwg", "warband"])
def test_try_refuses_a_bundled_map_without_units(capsys, name):
    assert "no units" in one_line(capsys, ["try", name, "--action", '{"type": "end-phase"}'])


@pytest.mark.parametrize("demo, needs, odds", [
    ("demo", "move, health, save", ["--move", "red-pyromancer"]),
    ("demo-blocks", "move, offence, defence, power, toughness, courage, dice, points",
     ["--courage", "red-spears"]),
    ("demo-openwg", "move, bravery, armor, health", ["--attack", "red-vulkites", "blue-spearhead"]),
    ("demo-skirmish", "speed, range, strike, hit, damage, toughness, cover, initiative",
     ["--attack", "red-spears", "blue-pikes"]),
])
def test_a_unit_without_the_stats_its_ruleset_needs_is_named(capsys, tmp_path, demo, needs,
                                                             odds):
    """Not a Move (blocks: a Courage, skirmish: a Speed) of 0 nobody stated: validate, try and
    odds name what the unit leaves out (ruleset.yaml's unit_needs:)."""
    data = yaml.safe_load(open(f"maps/{demo}.yaml"))
    unit = data["units"][0]["id"]
    del data["units"][0]["stats"]
    scene = tmp_path / "s.yaml"
    scene.write_text(yaml.safe_dump(data))
    end = json.dumps({"type": _ENDS[demo]})
    for command in (["validate"], ["try", "--action", end], ["odds", *odds]):
        err = one_line(capsys, [command[0], str(scene), *command[1:]])
        assert f"{unit} has no {needs}" in err


_ENDS = {"demo": "end-phase", "demo-blocks": "end-phase", "demo-openwg": "stop",
         "demo-skirmish": "end-turn"}


def test_an_openwg_unit_built_with_build_needs_no_stats(capsys):
    assert main(["validate", "demo-openwg"]) == 0       # blue-spearhead: build:, no stats:


def test_a_tampered_log_names_the_file_line_and_action(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--ruleset", "warband", "--seed", "1", "--log", str(log)]) == 0
    lines = log.read_text().splitlines()
    item = json.loads(lines[3])
    item["action"]["type"] = "undertow"
    lines[3] = json.dumps(item)
    log.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    err = one_line(capsys, ["replay", str(log)])
    assert f"{log}:4: action 3: 'undertow' is illegal here" in err


def test_weapon_defaults_are_shown_as_assumed_and_a_melee_range_refused(capsys, tmp_path):
    data = yaml.safe_load(open("maps/demo.yaml"))
    data["units"][0]["weapons"] = [{"name": "Staff", "attacks": 2}]
    scene = tmp_path / "s.yaml"
    scene.write_text(yaml.safe_dump(data))
    assert main(["check", str(scene), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["units"]["red-pyromancer"]["assumed"] == "Staff: hit 4, wound 4, rend 0, " \
                                                           "damage 1"
    data["units"][0]["weapons"] = [{"name": "Staff", "attacks": 2, "range": 1}]
    scene.write_text(yaml.safe_dump(data))
    err = one_line(capsys, ["check", str(scene)])
    assert "weapons[0].range" in err and "a melee weapon has no range" in err


def test_a_warband_ability_cost_of_the_wrong_type_is_one_line(capsys, tmp_path):
    """Found by benchmarks/fuzz.py (seed 1): a list as an ability's cost was a TypeError."""
    data = yaml.safe_load(open("maps/demo-warband.yaml"))
    unit = next(u for u in data["units"] if u.get("abilities"))
    unit["abilities"][0]["cost"] = [[1]]
    scene = tmp_path / "s.yaml"
    scene.write_text(yaml.safe_dump(data))
    for command in ("check", "validate"):
        assert "is not a size of ability dice" in one_line(capsys, [command, str(scene)])


def test_a_log_whose_scene_cannot_be_set_up_names_the_header_line(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--ruleset", "warband", "--seed", "1", "--log", str(log)]) == 0
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["ruleset"] = "aos4"
    lines[0] = json.dumps(head)
    log.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert f"{log}:1: scene: the battle this log starts cannot be set up" in one_line(
        capsys, ["replay", str(log)])


def test_a_board_too_big_to_draw_is_refused(capsys, tmp_path):
    """Found by benchmarks/fuzz.py: render of a 1e300" board crashed pygame (a segfault)."""
    scene = tmp_path / "s.yaml"
    scene.write_text("ruleset: aos4\nboard: {width: 1.0e+300, depth: 44}\n")
    assert "board.width" in one_line(capsys, ["render", str(scene), "-o",
                                              str(tmp_path / "x.png")])
    scene.write_text("ruleset: aos4\nboard: {width: 100000, depth: 44}\n")
    assert "--scale" in one_line(capsys, ["render", str(scene), "-o", str(tmp_path / "x.png")])


@pytest.mark.parametrize("change, where", [
    ("order: {march: [1.0e+20, 5]}", "order.march"),
    ("order: {march: [10000000000000000000000000000000000000000, 5]}", "order.march"),
    ("stats: {move: 4, offence: 7, defence: 4, power: 7, toughness: 3, courage: 11, dice: 6, "
     "range: 1.0e+308, points: 150}", "stats.range"),
])
def test_a_number_far_off_any_table_is_refused_before_render(capsys, tmp_path, change, where):
    """Found by benchmarks/fuzz.py (scenes then render): a blocks march order to 1e20" or a
    range of 1e308 passed check and crashed render (OverflowError, GEOSException)."""
    from battlefield.paths import find_map

    text = find_map("demo-blocks").read_text(encoding="utf-8")
    key = change.split(":")[0]
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.strip().startswith(f"{key}:"))
    lines[i] = lines[i][:len(lines[i]) - len(lines[i].lstrip())] + change
    scene = tmp_path / "s.yaml"
    scene.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for argv in (["check", str(scene)], ["validate", str(scene)],
                 ["render", str(scene), "-o", str(tmp_path / "x.png")]):
        assert where in one_line(capsys, argv)
