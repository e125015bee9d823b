"""The bad-input corpus: every malformed file in tests/bad_inputs/ ends with one clear message
naming the file, the line, the key path and what was expected; the command line prints it and
exits with status 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from battlefield.errors import InputError
from battlefield.scene.load import load_scene

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "bad_inputs"
EXPECTED: dict[str, dict] = yaml.safe_load((CORPUS / "expected.yaml").read_text("utf-8"))
FILES = sorted(p.name for p in CORPUS.glob("*.yaml") if p.name != "expected.yaml")
GOOD = Path(__file__).resolve().parent / "good.yaml"


def _rel(name: str) -> str:
    """The corpus file as the tests name it: relative to the checkout, like a user would."""
    return os.path.join("tests", "bad_inputs", name)


def _where(name: str) -> tuple[str, int | None]:
    want = EXPECTED[name]
    return _rel(want.get("file", name)), want["line"]


def test_corpus_is_large_and_fully_listed() -> None:
    assert len(FILES) >= 30
    assert sorted(EXPECTED) == FILES, "every corpus file needs an entry in expected.yaml"
    for name, want in EXPECTED.items():
        assert set(want) <= {"line", "message", "file"}, name
        assert want["message"], name


@pytest.fixture()
def in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("name", FILES)
def test_bad_input_message(name: str, in_root: None) -> None:
    with pytest.raises(InputError) as info:
        load_scene(_rel(name))
    text = str(info.value)
    file, line = _where(name)
    prefix = file if line is None else f"{file}:{line}: "
    assert text.startswith(prefix), f"{text!r} does not start with {prefix!r}"
    if line is None:
        assert info.value.line is None
    assert EXPECTED[name]["message"] in text
    assert "\n" not in text
    assert "Traceback" not in text
    # A message says what was expected: in its own words or in an "(expected ...)" tail.
    assert "expected" in text or "must be" in text or "needs" in text


@pytest.mark.parametrize("name", FILES)
def test_bad_input_error_fields(name: str, in_root: None) -> None:
    with pytest.raises(InputError) as info:
        load_scene(_rel(name))
    err = info.value
    file, line = _where(name)
    assert err.file == file
    assert err.line == line


def test_python_tags_never_run(in_root: None, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    scene = tmp_path / "evil.yaml"
    scene.write_text(f"ruleset: !!python/object/apply:os.system ['touch {marker}']\n"
                     "board: {width: 60, depth: 44}\n", encoding="utf-8")
    with pytest.raises(InputError, match="is not allowed"):
        load_scene(scene)
    assert not marker.exists()


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_scene(tmp_path / "nothing.yaml")
    with pytest.raises(InputError, match="is a folder"):
        load_scene(tmp_path)


def test_good_scene_loads() -> None:
    scene = load_scene(GOOD)
    assert scene.ruleset.id == "aos4"
    assert [u.id for u in scene.units] == ["knights", "beast"]
    assert [p.id for p in scene.terrain] == ["ruin"]
    assert scene.objectives[0].id == "centre"
    assert scene.units[0].weapons[0]["damage"] == "D3"


def test_merge_keys_override_without_duplicate_error(tmp_path: Path) -> None:
    scene = tmp_path / "merge.yaml"
    scene.write_text(
        "ruleset: aos4\nboard: {width: 60, depth: 44}\nunits:\n"
        "  - id: a\n    side: red\n    models:\n"
        "      - &m {base: 32, at: [5, 5], facing: 90}\n"
        "      - {<<: *m, at: [7, 5]}\n", encoding="utf-8")
    models = load_scene(scene).units[0].models
    assert (models[1].x, models[1].facing) == (7.0, 90.0)


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "battlefield", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def test_cli_validate_exit_status_2() -> None:
    """One `battlefield validate` over the whole corpus: exit 2, one line per file, in order,
    each naming its file and saying what was expected; never a traceback."""
    proc = _cli("validate", *(_rel(name) for name in FILES))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == len(FILES), proc.stderr
    failures = []
    for name, line in zip(FILES, lines, strict=True):
        file, _ = _where(name)
        if not line.startswith(f"battlefield validate: {file}"):
            failures.append(f"{name}: file not named first: {line!r}")
        elif EXPECTED[name]["message"] not in line:
            failures.append(f"{name}: expected message missing: {line!r}")
    assert not failures, "\n".join(failures)


def test_cli_validate_good_scene() -> None:
    proc = _cli("validate", str(GOOD))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["measure", "tests/scene/good.yaml", "knights/1", "nobody/1"], "nobody"),
    (["measure", "tests/scene/good.yaml", "knights/9", "beast"], "knights/9"),
    (["measure", "tests/scene/good.yaml", "knights", "knights/0"], "knights/0"),
    (["validate", "tests/scene/no-such-scene.yaml"], "no-such-scene.yaml"),
])
def test_cli_unknown_ids_and_files(args: list[str], words: str) -> None:
    proc = _cli(*args)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert words in proc.stderr
