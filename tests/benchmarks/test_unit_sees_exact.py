"""SightModel.unit_sees takes shortcuts to meet the live-check budget (pieces that certainly cut
two models apart, shadows of tall pieces, sampled lines first). Its answer must stay exactly the
exhaustive one: some sight line from a top point of the observers (centre and edge ring) to a top
point of a target model is clear of every terrain piece and of every model outside the observing
unit and that target model."""

import math

import numpy as np
import pytest

from battlefield.geometry.bases import Base
from battlefield.geometry.sight import SightModel, surface_points
from battlefield.geometry.sight.kernel import lines_blocked
from battlefield.geometry.sight.units import piece_cuts
from battlefield.geometry.table import Table
from battlefield.geometry.terrain import Layout, Piece

BASES = [Base.round(25), Base.round(32), Base.round(60), Base.oval(90, 52), Base.rect(100, 50),
         Base.round(130)]


def table(models, pieces=(), size=24.0) -> Table:
    """models: (unit, base, x, y, facing, z, height or None) tuples."""
    return Table(
        width=size, depth=size, layout=Layout(tuple(pieces)),
        x=np.array([m[2] for m in models], dtype=float),
        y=np.array([m[3] for m in models], dtype=float),
        facing=np.array([m[4] for m in models], dtype=float),
        shape=np.array([m[1].shape for m in models], dtype=np.int64),
        a=np.array([m[1].a for m in models]), b=np.array([m[1].b for m in models]),
        z=np.array([m[5] for m in models], dtype=float),
        height=np.array([m[6] if m[6] is not None else m[1].default_height()
                         for m in models], dtype=float),
        unit=np.array([m[0] for m in models], dtype=np.int64),
        n_units=max(m[0] for m in models) + 1)


def exhaustive(t: Table, u: int, v: int) -> bool:
    lay = t.layout
    obs = t.unit_models[u]
    p = np.concatenate([surface_points(t, int(m), interior=False)[0] for m in obs])
    tc = np.arange(len(lay), dtype=np.int64)
    for target in t.unit_models[v]:
        q = surface_points(t, int(target))[0]
        keep = np.ones(len(t), dtype=bool)
        keep[obs] = False
        keep[target] = False
        mc = np.nonzero(keep)[0].astype(np.int64)
        pp = np.repeat(p, len(q), axis=0)
        qq = np.tile(q, (len(p), 1))
        if (lines_blocked(pp, qq, tc, lay.bboxes, lay.heights, lay.edges, lay.edge_start, mc,
                          t.x, t.y, t.cos, t.sin, t.a, t.b, t.shape, t.z, t.z + t.height,
                          t.reach) == -1).any():
            return True
    return False


def piece(pid, pts, height) -> Piece:
    return Piece(pid, tuple((float(x), float(y)) for x, y in pts), float(height))


def rect(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def random_polygon(rng, size):
    c = rng.uniform(0, size, 2)
    kind = rng.integers(3)
    if kind == 0:
        w, h = (rng.uniform(2, 9), rng.uniform(0.1, 0.6)) if rng.random() < 0.5 else \
            rng.uniform(0.3, 6, 2)
        pts = np.array(rect(-w / 2, -h / 2, w / 2, h / 2))
    elif kind == 1:
        w, h = rng.uniform(2, 7, 2)
        s = rng.uniform(0.3, 1.5)
        pts = np.array([(0, 0), (w, 0), (w, s), (s, s), (s, h), (0, h)]) - [w / 2, h / 2]
    else:
        n = int(rng.integers(3, 10))
        ang = np.sort(rng.uniform(0, 2 * math.pi, n))
        r = rng.uniform(0.5, 4) * rng.uniform(0.3, 1, n)
        pts = np.column_stack([r * np.cos(ang), r * np.sin(ang)])
    a = rng.uniform(0, math.pi)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    return pts @ rot + c


def random_table(seed: int) -> Table:
    import shapely

    rng = np.random.default_rng(seed)
    size = 24.0
    pieces = []
    for k in range(int(rng.integers(0, 9)) if rng.random() < 0.3 else int(rng.integers(8, 20))):
        pts = random_polygon(rng, size)
        if not shapely.Polygon(pts).is_valid or shapely.Polygon(pts).area < 0.05:
            continue
        pieces.append(piece(f"p{k}", pts, rng.choice([rng.uniform(0.3, 6), 1.25, 2.5,
                                                      rng.uniform(3, 8)])))
    models = []
    for u in range(int(rng.integers(2, 5))):
        shared = BASES[int(rng.integers(len(BASES)))] if rng.random() < 0.7 else None
        c = rng.uniform(0, size, 2)
        for _ in range(int(rng.integers(1, 7))):
            base = shared or BASES[int(rng.integers(len(BASES)))]
            x, y = c + rng.normal(0, 1.5, 2)
            z = float(rng.choice([0.0, 0.0, 0.0, rng.uniform(0, 4), 2.5]))
            h = None if rng.random() < 0.7 else float(rng.uniform(0.5, 5))
            models.append((u, base, x, y, rng.uniform(0, 360), z, h))
    return table(models, pieces, size)


# 21 of 40 random tables, one of them heavy (13): the other heavy ones took 2-12 s each and
# pushed the suite past its time; the hand-built tables below pin the edge cases.
@pytest.mark.parametrize("seed", [0, 2, 3, 5, 6, 7, 8, 9, 11, 13, 14, 15, 16, 17, 18, 20, 24,
                                  28, 29, 32, 37])
def test_unit_sees_is_the_exhaustive_answer_on_random_tables(seed):
    t = random_table(seed)
    sight = SightModel(t)
    for u in range(t.n_units):
        for v in range(t.n_units):
            if u != v:
                assert sight.unit_sees(u, v) == exhaustive(t, u, v), (seed, u, v)


R = Base.round(32)


def duel(pieces, a=(5.0, 10.0), b=(19.0, 10.0), extra=()):
    """A red 5-model line at a, a blue 5-model line at b, both across the x axis."""
    models = [(0, R, a[0], a[1] + 1.4 * k, 0, 0.0, None) for k in range(-2, 3)]
    models += [(1, R, b[0], b[1] + 1.4 * k, 0, 0.0, None) for k in range(-2, 3)]
    return table(models + list(extra), pieces)


@pytest.mark.parametrize(("pieces", "seen"), [
    ([piece("wall", rect(11.9, 2, 12.1, 18), 4)], False),             # one piece cuts all
    ([piece("wall", rect(11.9, 2, 12.1, 12.5), 4)], True),            # a gap at the end
    ([piece("low", rect(11.9, 2, 12.1, 18), 1.0)], True),             # lower than the tops
    ([piece("w1", rect(11.7, 2, 11.9, 10.3), 4),                       # two overlapping walls
      piece("w2", rect(12.1, 9.7, 12.3, 18), 4)], False),
    ([piece("w1", rect(9.9, 2, 10.1, 10.2), 4),                        # staggered: lines slip
      piece("w2", rect(13.9, 9.8, 14.1, 18), 4)], True),               # through diagonally
    ([piece("ell", [(17, 5), (18, 5), (18, 15), (17, 15), (17, 14.5), (17.5, 14.5),
                    (17.5, 5.5), (17, 5.5)], 4)], False),              # hugging the targets
    ([piece("box", rect(10, 7.5, 14, 12.5), 1.5)], True),             # lines round a low box
])
def test_unit_sees_on_hand_made_cases(pieces, seen):
    t = duel(pieces)
    sight = SightModel(t)
    assert exhaustive(t, 0, 1) == seen
    assert sight.unit_sees(0, 1) == seen
    assert sight.unit_sees(1, 0) == seen


def test_models_on_a_hill_see_over_the_wall_that_hides_them_on_the_ground():
    wall = piece("wall", rect(11.9, 2, 12.1, 18), 2.0)
    hill = piece("hill", rect(2, 4, 8, 16), 3.0)
    for z, seen in ((0.0, False), (3.0, True)):
        t = duel([wall, hill], extra=())
        ms = t.unit_models[0]
        t = t.moved(ms, t.x[ms], t.y[ms], z=np.full(len(ms), z))
        assert SightModel(t).unit_sees(0, 1) == exhaustive(t, 0, 1) == seen


def test_a_tall_model_between_blocks_like_terrain():
    big = [(2, Base.round(160), 12.0, y, 0, 0.0, 6.0) for y in (6.0, 9.2, 12.4, 15.6)]
    t = duel([], extra=big)
    assert SightModel(t).unit_sees(0, 1) == exhaustive(t, 0, 1)


def test_piece_cuts_needs_the_whole_corridor():
    lay = Layout((piece("wall", rect(9.9, 0, 10.1, 20), 4),
                  piece("short", rect(9.9, 9.5, 10.1, 20), 4)))
    ring_start = np.array([0, 4, 8], dtype=np.int64)
    piece_ring = np.array([0, 1, 2], dtype=np.int64)
    args = (lay.edges, ring_start, piece_ring)
    assert piece_cuts(0, 5.0, 10.0, 0.7, 15.0, 10.0, 0.7, *args)
    assert piece_cuts(0, 5.0, 10.0, 0.0, 15.0, 12.0, 3.0, *args)
    assert not piece_cuts(1, 5.0, 10.0, 0.7, 15.0, 10.0, 0.7, *args)   # 10 - 0.7 < 9.5
    assert piece_cuts(1, 5.0, 10.0, 0.4, 15.0, 10.0, 0.4, *args)
    assert not piece_cuts(0, 9.5, 10.0, 0.7, 15.0, 10.0, 0.7, *args)   # the disc reaches it
