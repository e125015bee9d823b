"""Deferred kernels (battlefield/geometry/jit.py): the plain-Python version of a kernel and its
compiled copy give the same numbers, and a module defining them imports no numba."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np

from battlefield.geometry import separation as sep
from battlefield.geometry.jit import Kernel


def test_plain_and_compiled_give_the_same_distances():
    rng = np.random.default_rng(7)
    n = 40
    x, y = rng.uniform(0, 10, n), rng.uniform(0, 10, n)
    sh = rng.integers(0, 3, n).astype(np.int64)
    a = rng.uniform(0.5, 1.5, n)
    b = np.minimum(a, rng.uniform(0.3, 1.2, n))
    th = rng.uniform(0, 2 * math.pi, n)
    c, s = np.cos(th), np.sin(th)
    idx = np.arange(n, dtype=np.int64)
    assert isinstance(sep.signed_distance_matrix, Kernel)
    compiled = sep.signed_distance_matrix(x, y, sh, a, b, c, s, idx, idx)
    assert sep.signed_distance_matrix.published          # the first call compiled it
    plain = sep.signed_distance_matrix.py_func(x, y, sh, a, b, c, s, idx, idx)
    assert np.allclose(plain, compiled, atol=1e-12, rtol=0)
    assert sep.point_distances.py_func(x, y, sh, a, b, c, s, idx, 3.0, 4.0).tolist() == \
        sep.point_distances(x, y, sh, a, b, c, s, idx, 3.0, 4.0).tolist()


def test_a_deferred_kernel_runs_plain_until_published():
    script = """
import sys
from battlefield.geometry import jit
from battlefield.geometry.separation import separation
jit.defer()
d = separation(0.0, 0.0, 0, 1.0, 1.0, 1.0, 0.0, 5.0, 0.0, 0, 1.0, 1.0, 1.0, 0.0)
assert d[0] == 3.0 and 'numba' not in sys.modules and not jit.compiled(), d
seen = []
jit.compile_kernels(lambda: seen.append(separation(0.0, 0.0, 0, 1.0, 1.0, 1.0, 0.0, 5.0, 0.0,
                                                   0, 1.0, 1.0, 1.0, 0.0)))
assert 'numba' in sys.modules and jit.compiled() and seen[0][0] == 3.0
print('ok')
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
