"""--battles: the demo armies fight on a table from both ends, on simulate's machinery."""

import yaml

from battlefield.layout.battles import play_on_table, swapped
from battlefield.paths import find_map


def test_the_zones_swap():
    text = find_map("warband").read_text()
    before, after = yaml.safe_load(text), yaml.safe_load(swapped(text))
    assert after["deployment"]["red"] == before["deployment"]["blue"]
    assert after["deployment"]["blue"] == before["deployment"]["red"]
    assert after["terrain"] == before["terrain"]


def test_battles_from_both_ends_report_win_rates_with_intervals():
    out = play_on_table(find_map("warband"), "warband", 2, 5, workers=1)
    assert out["games"] == 2 and [d["games"] for d in out["deployments"]] == [1, 1]
    assert [d["deployment"] for d in out["deployments"]] == ["as written", "swapped"]
    assert sum(out["wins"].values()) + out["draws"] == 2
    for side in ("red", "blue"):
        lo, hi = out["win_rate_95"][side]
        assert 0 <= lo <= out["win_rate"][side] <= hi <= 1


BLOCKS_BOARD = """\
ruleset: blocks
name: small blocks
board: {width: 36, depth: 24}
deployment:
  red: [[0, 0], [36, 0], [36, 6], [0, 6]]
  blue: [[0, 18], [36, 18], [36, 24], [0, 24]]
"""

COPSES = """\
pieces:
  - {id: copse, kind: area, height: 3, min: 2, max: 4,
     outline: [[-1.5, -1.5], [1.5, -1.5], [1.5, 1.5], [-1.5, 1.5]]}
"""


def test_blocks_battles_on_a_generated_table(tmp_path, capsys):
    """blocks' demo army files (rulesets/blocks/armies) deploy on a new table: --battles 2 on a
    small board, one battle from each end, each side's win rate with its interval."""
    import json

    from battlefield.cli.main import main
    from battlefield.rules.deploy import armies

    assert [name for name, _ in armies("blocks")] == ["Marcher Host", "Fenwold Warband"]
    (tmp_path / "board.yaml").write_text(BLOCKS_BOARD)
    (tmp_path / "pieces.yaml").write_text(COPSES)
    argv = ["layout", "generate", str(tmp_path / "board.yaml"), "--pieces",
            str(tmp_path / "pieces.yaml"), "--seed", "1", "--iterations", "8", "-o",
            str(tmp_path / "t.yaml"), "--battles", "2", "--workers", "1", "--json"]
    assert main(argv) == 0
    b = json.loads(capsys.readouterr().out)["battles"]
    assert b["games"] == 2 and [d["games"] for d in b["deployments"]] == [1, 1]
    assert sum(b["wins"].values()) + b["draws"] == 2
    for side in ("red", "blue"):
        lo, hi = b["win_rate_95"][side]
        assert 0 <= lo <= b["win_rate"][side] <= hi <= 1


def test_mirror_matches_put_the_same_army_on_both_sides_from_both_ends():
    from battlefield.layout.battles import variants
    from battlefield.scene.load import load_scene_text

    ways = variants(find_map("warband"), "warband")
    assert len(ways) == 4                     # two armies, each from both ends
    plain = yaml.safe_load(find_map("warband").read_text())["deployment"]
    for k, way in enumerate(ways):
        scene = load_scene_text(way.scene_text, way.scene_name)
        red = sorted(u.id.removeprefix("red-") for u in scene.units if u.side == "red")
        blue = sorted(u.id.removeprefix("blue-") for u in scene.units if u.side == "blue")
        assert red == blue
        stand = dict(way.zones)
        assert stand == ({"red": "blue", "blue": "red"} if k % 2 else {"red": "red",
                                                                        "blue": "blue"})
        for side in ("red", "blue"):   # each side stands in the map's zone its label names
            assert [list(p) for p in scene.deployment[side]] == plain[stand[side]]


def test_without_mirror_each_side_keeps_its_own_army():
    from battlefield.layout.battles import variants
    from battlefield.scene.load import load_scene_text

    ways = variants(find_map("warband"), "warband", mirror=False)
    scene = load_scene_text(ways[0].scene_text, ways[0].scene_name)
    red = sorted(u.id.removeprefix("red-") for u in scene.units if u.side == "red")
    blue = sorted(u.id.removeprefix("blue-") for u in scene.units if u.side == "blue")
    assert red != blue and len(ways) == 2
