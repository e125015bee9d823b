"""Pressing between a unit's bases picks the whole unit up (a gap in a formation is part of the
unit, not the empty table)."""

from __future__ import annotations

import itertools
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from battlefield.depiction import live  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402


def test_a_press_between_bases_picks_the_unit_up() -> None:
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None, "aos4")
    to_phase(opened.state, "movement")
    scene = PlayScene(opened, (1200, 760))
    st = scene.state
    u = st.scene.unit_index("red-archers")
    t = st.table
    ms = st.models_of(u)
    gap = None              # a point inside the formation that no base covers
    xs = np.linspace(t.x[ms].min(), t.x[ms].max(), 25)
    ys = np.linspace(t.y[ms].min(), t.y[ms].max(), 25)
    for x, y in itertools.product(xs, ys):
        if live.unit_at(st, x, y) is None and live.unit_between(st, x, y) is not None:
            gap = (float(x), float(y))
            break
    assert gap is not None
    assert live.unit_between(st, *gap)[0] == u
    p = scene.table.view.px(*gap)
    assert scene.drag.press((round(p[0]), round(p[1])))
    assert scene.drag.pickup is not None and scene.drag.pickup.unit == u
    assert not scene.drag.pickup.single
    # far from every unit: nothing picked up
    scene.drag.cancel("")
    far = scene.table.view.px(0.5, 0.5)
    assert live.unit_between(st, 0.5, 0.5) is None
    assert not scene.drag.press((round(far[0]), round(far[1])))
    assert np.all(np.isfinite([t.x[ms], t.y[ms]]))
    pygame.display.quit()
