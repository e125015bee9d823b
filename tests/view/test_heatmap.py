"""Heat maps: the colour ramp, the value grid where the board is, the colour bar, the marches."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from battlefield.paths import find_map  # noqa: E402
from battlefield.scene.load import load_scene  # noqa: E402
from battlefield.view import heatmap as hm  # noqa: E402
from battlefield.view.layers import Style  # noqa: E402
from battlefield.view.picture import margins  # noqa: E402


def test_the_ramp_runs_from_dark_to_light_and_greys_out_nan():
    c = hm.ramp(np.array([0.0, 0.5, 1.0, np.nan, 2.0, -1.0]))
    assert tuple(c[0]) == hm.VIRIDIS[0] and tuple(c[2]) == hm.VIRIDIS[-1]
    assert tuple(c[3]) == hm.NO_VALUE
    assert tuple(c[4]) == hm.VIRIDIS[-1] and tuple(c[5]) == hm.VIRIDIS[0]
    lum = [0.2126 * r + 0.7152 * g + 0.0722 * b for r, g, b in hm.ramp(np.linspace(0, 1, 50))]
    assert all(q > p for p, q in zip(lum[:-1], lum[1:], strict=True))


def test_the_values_fill_the_board_cell_by_cell():
    scene = load_scene(find_map("open"))
    values = np.zeros((22, 30))
    values[0, 0] = 1.0                    # bottom-left cell bright, the rest dark
    values[21, 29] = np.nan               # top-right cell: nowhere to stand
    pic = hm.heatmap_picture(scene, values, ["Open", "a test"], "value", px_per_inch=10)
    style = Style.for_scene(scene, None, 10)
    left, top, _, _ = margins(style, scene)
    board_bottom = top + 440

    def at(x_in: float, y_in: float) -> tuple[int, int, int]:
        return tuple(pic.get_at((round(left + x_in * 10), round(board_bottom - y_in * 10))))[:3]

    assert at(1, 1) == hm.VIRIDIS[-1]
    assert at(22, 26) == hm.VIRIDIS[0]
    assert at(59, 43) == hm.NO_VALUE
    assert pic.get_height() > top + 440 + 60            # colour bar and caption underneath


def test_marches_are_drawn_in_side_colours(tmp_path):
    scene = load_scene(find_map("open"))
    routes = [hm.Route("red", [(30, 12), (30, 22)], '10", 2 turns'),
              hm.Route("blue", [(30, 32), (30, 22)], '10", 2 turns')]
    pic = hm.marches_picture(scene, routes, ["Open", "marches"], px_per_inch=10)
    colours = {tuple(pic.get_at((x, y)))[:3] for x in range(pic.get_width())
               for y in range(0, pic.get_height(), 3)}
    style = Style.for_scene(scene, None, 10)
    assert style.side("red") in colours and style.side("blue") in colours
    hm.save(hm.side_by_side([pic, pic]), str(tmp_path / "two.png"))
    assert pygame.image.load(str(tmp_path / "two.png")).get_width() == 2 * pic.get_width() + 24
