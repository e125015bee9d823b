"""Terrain pieces and the prepared layout (battlefield/geometry/terrain.py)."""

import numpy as np
import pytest
import shapely

from battlefield.geometry.bases import Base, footprint
from battlefield.geometry.terrain import (
    KIND_TRAITS,
    KINDS,
    STANDABLE,
    Layout,
    Piece,
    normalise_kind,
)

from ._build import rect_outline


def square(pid, x0, y0, x1, y1, height, kind="solid"):
    return Piece(pid, tuple(map(tuple, rect_outline(x0, y0, x1, y1))), height, kind)


def base_at(x, y, mm=32):
    b = Base.round(mm)
    return footprint(b.shape, b.a, b.b, x, y, 0.0, 64)


@pytest.mark.parametrize("text", ["Place of Power", "place_of_power", "place-of-power",
                                  "  PLACE OF POWER "])
def test_kind_names_normalise(text):
    assert normalise_kind(text) == "place-of-power"


def test_every_kind_has_traits():
    assert set(KIND_TRAITS) == set(KINDS)
    assert "cover" in Piece("w", ((0, 0), (1, 0), (1, 1)), 1, "area").traits
    assert KIND_TRAITS["obscuring"] >= {"cover", "obscuring"}
    assert "area" not in STANDABLE and "impassable" not in STANDABLE


def test_layout_arrays():
    tri = Piece("tri", ((0, 0), (4, 0), (0, 3)), 2.0)
    box = square("box", 10, 10, 12, 15, 3.5, "obstacle")
    lay = Layout((tri, box))
    assert len(lay) == 2
    np.testing.assert_allclose(lay.heights, [2.0, 3.5])
    np.testing.assert_allclose(lay.bboxes, [[0, 0, 4, 3], [10, 10, 12, 15]])
    # 3 + 4 edges, each (x0, y0, x1, y1), piece k owning edges[edge_start[k]:edge_start[k+1]]
    assert lay.edges.shape == (7, 4)
    assert list(lay.edge_start) == [0, 3, 7]
    np.testing.assert_allclose(lay.edges[0], [0, 0, 4, 0])
    perimeter = np.hypot(lay.edges[3:, 2] - lay.edges[3:, 0],
                         lay.edges[3:, 3] - lay.edges[3:, 1]).sum()
    assert perimeter == pytest.approx(14.0)
    assert lay.index("box") == 1
    with pytest.raises(KeyError):
        lay.index("nope")
    assert lay.pieces_with("cover") == [1]


def test_empty_layout():
    lay = Layout(())
    assert len(lay) == 0
    assert lay.edges.shape == (0, 4)
    assert list(lay.edge_start) == [0]
    assert lay.ground_height(base_at(5, 5)) == 0.0
    assert lay.pieces_touching(shapely.Point(1, 1).buffer(1)) == []


def test_ground_height_needs_the_whole_base_on_the_piece():
    hill = square("hill", 0, 0, 6, 6, 3.0)
    lay = Layout((hill,))
    r = 16 / 25.4
    assert lay.ground_height(base_at(3, 3)) == 3.0
    assert lay.ground_height(base_at(6 - r - 0.01, 3)) == 3.0    # just inside the edge
    assert lay.ground_height(base_at(6 - r + 0.01, 3)) == 0.0    # overhangs by 0.01"
    assert lay.ground_height(base_at(10, 3)) == 0.0              # off the piece


def test_ground_height_takes_the_tallest_standable_piece():
    lay = Layout((square("low", 0, 0, 10, 10, 1.0), square("high", 2, 2, 6, 6, 3.0),
                  square("wood", 0, 0, 10, 10, 5.0, "area"),
                  square("pit", 0, 0, 10, 10, 6.0, "impassable")))
    assert lay.ground_height(base_at(4, 4)) == 3.0   # on both hills: the top of the higher
    assert lay.ground_height(base_at(8, 8)) == 1.0   # only on the low one
    # area terrain is walked through at ground level, impassable is never stood on


def test_pieces_touching():
    lay = Layout((square("a", 0, 0, 2, 2, 1), square("b", 5, 0, 7, 2, 1)))
    assert lay.pieces_touching(shapely.box(1, 1, 6, 1.5)) == [0, 1]
    assert lay.pieces_touching(shapely.Point(3.5, 1).buffer(1)) == []
    assert lay.pieces_touching(shapely.Point(3.5, 1).buffer(1.6)) == [0, 1]
