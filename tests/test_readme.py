"""README stays true: its scene example is a valid scene, its commands exist."""

from pathlib import Path

from battlefield.cli.main import build_parser
from battlefield.scene.load import load_scene_text

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_scene_example_loads():
    block = README.split("## Scene files", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    scene = load_scene_text(block, "README.md")
    assert scene.units and scene.terrain and scene.objectives


def test_quick_start_is_two_commands():
    quick = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    lines = [line for line in quick.strip().splitlines() if line.strip()]
    assert lines == ['pip install . && battlefield check', 'pip install ".[test]" && pytest']


def test_every_command_in_the_table_exists():
    commands = set(build_parser()._subparsers._group_actions[0].choices)
    table = README.split("## What you can ask", 1)[1].split("\n\n", 2)[1]
    for line in table.splitlines():
        if line.startswith("| `battlefield "):
            assert line.split("`battlefield ", 1)[1].split()[0] in commands, line


def test_the_screenshot_commands_parse():
    import shlex

    block = README.split("## Playing at the table", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    parser = build_parser()
    lines = [line for line in block.strip().splitlines() if line.startswith("battlefield ")]
    assert len(lines) >= 7
    for line in lines:
        args = parser.parse_args(shlex.split(line)[1:])
        assert args.command in ("play", "try"), line


def test_the_browser_commands_parse():
    import shlex

    block = README.split("## In a browser", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    parser = build_parser()
    lines = [line for line in block.strip().splitlines() if line.startswith("battlefield ")]
    assert len(lines) == 4
    for line in lines:
        parser.parse_args(shlex.split(line)[1:])
    assert "--html game.html" in block and "game.html#v=" in block


def test_the_shorter_aos4_battle_plays_as_shown(capsys):
    # Rulesets: a game with parameters (Game(ruleset, scene, seed, params)) plays three rounds.
    block = README.split("## Rulesets", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    exec(compile(block, "README.md", "exec"), {})
    assert capsys.readouterr().out.split() == ["3"]
