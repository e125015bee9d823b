"""Every playable ruleset's own catalogue on a small board (30" x 22", three objectives across the
middle): the written table keeps the constraints - inside the board, off the objective markers,
the ruleset's largest base between pieces, every objective reachable from both zones - and
analyze finds it symmetric, the same bytes from the same seed. A few sweeps: seconds each."""

import itertools
import json

import pytest
import shapely

from battlefield.analysis.survey import survey
from battlefield.cli.main import main
from battlefield.layout.table import largest_base, marker_radius
from battlefield.rules import registry
from battlefield.scene.load import load_scene

RULESETS = tuple(registry.playable())

SMALL = """\
ruleset: {ruleset}
name: small {ruleset}
board: {{width: 30, depth: 22}}
objectives:
  - {{id: west, at: [7, 11]}}
  - {{id: centre, at: [15, 11]}}
  - {{id: east, at: [23, 11]}}
deployment:
  red: [[0, 0], [30, 0], [30, 5], [0, 5]]
  blue: [[0, 17], [30, 17], [30, 22], [0, 22]]
"""


def _generate(tmp, ruleset: str, name: str, symmetry: str = "half-turn") -> tuple:
    base = tmp / f"small-{ruleset}.yaml"
    base.write_text(SMALL.format(ruleset=ruleset), encoding="utf-8")
    out = tmp / name
    argv = ["layout", "generate", str(base), "--symmetry", symmetry, "--seed", "2",
            "--iterations", "8", "-o", str(out), "--json"]
    return out, argv


@pytest.fixture(scope="module", params=RULESETS)
def made(request, tmp_path_factory):
    """One half-turn generation per ruleset with its own catalogue: (ruleset, file, JSON)."""
    import contextlib
    import io
    import os

    tmp = tmp_path_factory.mktemp(request.param)
    before = os.environ.get("BATTLEFIELD_CACHE")
    os.environ["BATTLEFIELD_CACHE"] = str(tmp_path_factory.getbasetemp() / "sight-cache")
    try:
        out, argv = _generate(tmp, request.param, "table.yaml")
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            assert main(argv) == 0
    finally:
        if before is None:
            os.environ.pop("BATTLEFIELD_CACHE", None)
        else:
            os.environ["BATTLEFIELD_CACHE"] = before
    return request.param, out, json.loads(text.getvalue())


def test_pieces_are_inside_the_board_off_the_objectives_and_apart(made):
    ruleset, out, _ = made
    scene = load_scene(out)
    assert scene.ruleset.id == ruleset and (scene.width, scene.depth) == (30, 22)
    assert len(scene.terrain) >= 2
    board = shapely.box(0, 0, 30, 22)
    marker = marker_radius(scene)
    gap = largest_base(ruleset)
    for p in scene.terrain:
        assert board.covers(p.polygon), p.id
        for o in scene.objectives:
            assert p.polygon.distance(shapely.Point(o.x, o.y)) >= marker - 1e-9, (p.id, o.id)
    for a, b in itertools.combinations(scene.terrain, 2):
        assert a.polygon.distance(b.polygon) >= gap - 1e-6, (a.id, b.id, gap)


def test_every_objective_is_reachable_from_both_zones(made):
    _, out, _ = made
    reach = survey(load_scene(out)).figures["reach"]
    assert set(reach) == {"red", "blue"}
    for side, marches in reach.items():
        assert set(marches) == {"west", "centre", "east"}, side
        assert all(r["inches"] is not None and r["turns"] is not None
                   for r in marches.values()), side


def test_analyze_finds_the_table_symmetric(made):
    _, out, data = made
    sym = survey(load_scene(out)).figures["symmetry"]
    rotation = sym["transforms"]["rotation"]
    assert rotation["symmetric"] and rotation["swaps_sides"]
    assert data["symmetric"] == sym["symmetric_under"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_same_seed_writes_the_same_bytes(ruleset, tmp_path, capsys):
    files = []
    for name in ("a.yaml", "b.yaml"):
        out, argv = _generate(tmp_path, ruleset, name, "mirror")
        assert main(argv) == 0
        capsys.readouterr()
        files.append(out.read_bytes())
    assert files[0] == files[1]
    scene = load_scene(tmp_path / "a.yaml")
    mirror = survey(scene).figures["symmetry"]["transforms"]["mirror-front-back"]
    assert mirror["symmetric"] and mirror["swaps_sides"]
