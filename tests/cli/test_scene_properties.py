"""Property (hypothesis): a bundled scene with values mutated - hostile numbers, wrong types,
unreadable text, keys dropped - is answered by check --json, validate and try with exit status
0 or 2 and, on 2, one line; --json output is strict JSON; a file validate passes check passes
too. Few examples, derandomized, no database: the fuzz script (benchmarks/fuzz.py) runs the
thousands."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlefield.cli.main import main

SCENES = ["demo", "demo-blocks", "demo-openwg", "demo-skirmish", "demo-warband"]
ROOT = Path(__file__).resolve().parents[2]
HOSTILE = st.one_of(
    st.sampled_from([float("nan"), float("inf"), -1, 0, 10 ** 50, "", "\x00", "\ufeff", None,
                     True, [], {}, [1, 2], {"a": 1}, "red", "x" * 300, 1e308, 0.25]),
    st.integers(-5, 100), st.text(max_size=5))


def paths_of(value, prefix=()):
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths_of(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):
            out += paths_of(v, (*prefix, i))
    return out


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return code, out, err


@pytest.mark.parametrize("name", SCENES)
@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_mutated_scene_is_answered_or_refused_in_one_line(name, data, tmp_path_factory,
                                                            capsys):
    base = yaml.safe_load((ROOT / "maps" / f"{name}.yaml").read_text(encoding="utf-8"))
    doc = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 2))):
        path = data.draw(st.sampled_from([p for p in paths_of(doc) if p]))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict) and data.draw(st.booleans()) and len(path) > 1:
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(HOSTILE)
    file = tmp_path_factory.mktemp("scene") / "s.yaml"
    file.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    valid, _, _ = run(["validate", str(file)], capsys)
    checked, out, _ = run(["check", str(file), "--json"], capsys)
    if checked == 0:
        json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in --json output"))
    if valid == 0:
        assert checked == 0, "validate passed a file check refuses"
        run(["try", str(file), "--action", '{"type": "end-phase"}'], capsys)
