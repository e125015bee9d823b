"""Layout tests: a small board (24" x 16", zones 3" deep, three objectives) and a small
catalogue, so a whole generation runs in seconds; the sight cache in a temporary folder."""

import pytest

BASE = """\
ruleset: skirmish
name: small
board: {width: 24, depth: 16}
terrain:
  - {id: pillar, kind: obscuring, height: 4, fixed: true,
     outline: [[11, 7], [13, 7], [13, 9], [11, 9]]}
  - {id: loose, kind: area, height: 2, outline: [[2, 6], [4, 6], [4, 8], [2, 8]]}
objectives:
  - {id: west, at: [5, 8]}
  - {id: east, at: [19, 8]}
  - {id: mid, at: [12, 12]}
  - {id: mid2, at: [12, 4]}
deployment:
  red: [[0, 0], [24, 0], [24, 3], [0, 3]]
  blue: [[0, 13], [24, 13], [24, 16], [0, 16]]
"""

PIECES = """\
pieces:
  - {id: block, kind: obscuring, height: 3, min: 2, max: 4,
     outline: [[-1, -1], [1, -1], [1, 1], [-1, 1]]}
  - {id: wall, kind: obstacle, height: 1.2, min: 0, max: 2,
     outline: [[-2, -0.25], [2, -0.25], [2, 0.25], [-2, 0.25]]}
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("BATTLEFIELD_CACHE", str(tmp_path_factory.getbasetemp() / "sight-cache"))


@pytest.fixture
def small(tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text(BASE, encoding="utf-8")
    pieces = tmp_path / "pieces.yaml"
    pieces.write_text(PIECES, encoding="utf-8")
    return base, pieces
