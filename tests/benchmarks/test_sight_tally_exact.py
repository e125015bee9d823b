"""SightModel's full / partial / none answers count lines untested when a tall piece certainly
shuts an observer point off from a whole target (shadow._settled), and work out the
candidates of all the targets at once. Every answer must stay the one of testing each line: the
status of each target model and the blockers in the same order (the counts of lines they
block decide it)."""

import numpy as np
import pytest
from numba import njit
from test_unit_sees_exact import duel, piece, random_table, rect  # the random tables (same dir)

from battlefield.geometry.sight import STATUS, Sight, SightModel
from battlefield.geometry.sight.kernel import edge_flags, fan_to, prepare_pieces


@njit(cache=True)
def every_line(obs, top, bottom, tcand, bboxes, heights, edges, edge_start,
               mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach, tally):
    """point_visibility with each line tested in turn: the reference."""
    soa = prepare_pieces(tcand, bboxes, heights)
    mask = np.empty(tcand.shape[0], dtype=np.bool_)
    flags = edge_flags(edge_start)
    npieces = heights.shape[0]
    n = obs.shape[0]
    every = np.arange(n)
    seen_any = False
    for j in range(top.shape[0]):
        if fan_to(obs, every, n, top[j, 0], top[j, 1], top[j, 2], tcand, soa, mask, flags,
                   edges, edge_start, mcand, -1, npieces, mx, my, mc, ms, ma, mb, mshape,
                   mzlo, mzhi, mreach, tally, True) >= 0:
            seen_any = True
            break
    if not seen_any:
        return 0
    for j in range(bottom.shape[0]):
        if fan_to(obs, every, n, bottom[j, 0], bottom[j, 1], bottom[j, 2], tcand, soa, mask,
                   flags, edges, edge_start, mcand, -1, npieces, mx, my, mc, ms, ma, mb,
                   mshape, mzlo, mzhi, mreach, tally, True) < 0:
            return 1
    return 2


def reference(sight: SightModel, observers, own, targets) -> Sight:
    """SightModel._group_visibility as it was: candidates per target, every line tested."""
    t = sight.table
    tally = np.zeros(len(t.layout) + len(t), dtype=np.int64)
    statuses = {}
    for target in targets:
        tc, mc = sight.candidates(own, np.concatenate([observers, [target]]))
        mc = mc[mc != target]
        top, bottom = sight.points(int(target))
        obs = sight._observer_points(observers)
        if sight._floating[mc].any():
            top = bottom = sight._levels(int(target), top)
            obs = np.concatenate([sight._levels(int(m), sight.points(int(m), False)[0])
                                  for m in observers])
        statuses[int(target)] = STATUS[int(every_line(obs, top, bottom, tc, *sight._t, mc,
                                                      *sight._m, tally))]
    values = set(statuses.values())
    visible = values.pop() if len(values) == 1 else "partial"
    blocked = [int(k) for k in np.argsort(-tally, kind="stable") if tally[k] > 0]
    return Sight(visible, blocked, statuses)


def same(a: Sight, b: Sight) -> bool:
    return (a.visible, a.blocked_by, a.models) == (b.visible, b.blocked_by, b.models)


# 14 of 40 random tables (the heavier ones take 5-25 s each on a cold numba cache; the suite
# keeps under its time): shortcuts fire on these, and the walls below pin the edge cases.
@pytest.mark.parametrize("seed", [0, 2, 3, 5, 7, 9, 11, 14, 16, 18, 24, 29, 33, 37])
def test_unit_and_model_visibility_are_every_lines_answer_on_random_tables(seed):
    t = random_table(seed)
    sight = SightModel(t)
    for u in range(t.n_units):
        own = t.unit_models[u]
        for v in range(t.n_units):
            if u != v:
                assert same(sight.unit_visibility(u, v), reference(sight, own, own,
                                                                    t.unit_models[v])), (seed, u, v)
        i, j = int(own[0]), int(t.unit_models[(u + 1) % t.n_units][0])
        assert same(sight.model_visibility(i, j), reference(sight, np.array([i]), own,
                                                            np.array([j]))), (seed, i, j)


@pytest.mark.parametrize("pieces", [
    [piece("wall", rect(11.9, 2, 12.1, 18), 4)],                       # shuts every point off
    [piece("wall", rect(11.9, 2, 12.1, 12.5), 4)],                     # a gap at the end
    [piece("low", rect(11.9, 2, 12.1, 18), 1.0)],                      # lower than the tops
    [piece("w1", rect(11.7, 2, 11.9, 10.3), 4), piece("w2", rect(12.1, 9.7, 12.3, 18), 4)],
    [piece("side", rect(6, 0, 18, 1), 4), piece("wall", rect(11.9, 2, 12.1, 18), 4)],
    [piece("ell", [(17, 5), (18, 5), (18, 15), (17, 15), (17, 14.5), (17.5, 14.5),
                   (17.5, 5.5), (17, 5.5)], 4)],
])
def test_blockers_in_the_same_order_when_a_wall_shuts_the_lines_off(pieces):
    t = duel(pieces)
    sight = SightModel(t)
    for u, v in ((0, 1), (1, 0)):
        ref = reference(sight, t.unit_models[u], t.unit_models[u], t.unit_models[v])
        assert same(sight.unit_visibility(u, v), ref)
