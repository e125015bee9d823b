"""The scenario table: hand-computed rulings for small scenes (tests/scenarios/*.yaml), checked
through the command line's own JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from battlefield.cli.main import main

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.yaml"))
TOL = 1e-3


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def assert_subset(expected, actual, where: str) -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for k, v in expected.items():
            assert k in actual, f"{where}: no key {k!r}"
            assert_subset(v, actual[k], f"{where}.{k}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), \
            f"{where}: {actual!r} != {expected!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_subset(e, a, f"{where}[{i}]")
    elif isinstance(expected, (int, float)) and not isinstance(expected, bool):
        assert actual == pytest.approx(expected, abs=TOL), f"{where}: {actual} != {expected}"
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path, tmp_path: Path, capsys) -> None:
    spec = yaml.safe_load(path.read_text())
    scene = tmp_path / f"{path.stem}.yaml"
    scene.write_text(yaml.safe_dump(spec["scene"]))
    if "check" in spec:
        report = run_json(capsys, "check", str(scene))
        expect = spec["check"]
        for uid, u in expect.get("units", {}).items():
            assert_subset(u, report["units"][uid], f"units.{uid}")
        for oid, o in expect.get("objectives", {}).items():
            assert_subset(o, report["objectives"][oid], f"objectives.{oid}")
        pairs = {(p["a"], p["b"]): p for p in report["pairs"]}
        for p in expect.get("pairs", []):
            assert_subset(p, pairs[(p["a"], p["b"])], f"pairs[{p['a']}->{p['b']}]")
    for m in spec.get("measure", []):
        report = run_json(capsys, "measure", str(scene), m["a"], m["b"])
        assert_subset(m["expect"], report, f"measure {m['a']} {m['b']}")
