"""The picture `battlefield render` saves: size, side colours at model centres, the y axis, the
highlight on a piece that blocks a measurement, and the layers drawn onto any surface."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield import palette as pal  # noqa: E402
from battlefield.rulings import Referee  # noqa: E402
from battlefield.scene.load import load_scene  # noqa: E402
from battlefield.view.layers import Style, find_model, objective_radii  # noqa: E402
from battlefield.view.legend import measure_caption  # noqa: E402
from battlefield.view.overlays import combat_links, draw_scene  # noqa: E402
from battlefield.view.picture import Picture, margins, render_scene  # noqa: E402
from battlefield.view.transform import ViewTransform  # noqa: E402

SCENE = Path(__file__).parent / "scene.yaml"
PPI = 20


@pytest.fixture(scope="module")
def scene():
    return load_scene(SCENE)


@pytest.fixture(scope="module")
def report(scene):
    return Referee(scene).check_report()


@pytest.fixture(scope="module")
def measure(scene):
    return Referee(scene).measure_report("red-1", "blue-1")


def _close(c, want, tol=12) -> bool:
    return all(abs(int(a) - int(b)) <= tol for a, b in zip(tuple(c)[:3], want, strict=True))


def _pixel(img: pygame.Surface, pic: Picture, x: float, y: float):
    px, py = pic.view.px(x, y)
    return img.get_at((round(px), round(py)))


def test_png_has_the_expected_size(tmp_path, scene, report):
    out = tmp_path / "scene.png"
    render_scene(scene, report, str(out))
    assert out.is_file()
    img = pygame.image.load(str(out))
    pic = Picture(scene, report, None, PPI)
    left, top, right, bottom = margins(pic.style, scene)
    assert img.get_size() == pic.size
    assert img.get_width() == left + 30 * PPI + right
    assert img.get_height() > top + 22 * PPI + bottom      # the legend is underneath
    assert not pygame.display.get_init()                   # no window was opened


def test_models_are_filled_in_their_side_colours(tmp_path, scene, report):
    out = tmp_path / "scene.png"
    render_scene(scene, report, str(out))
    img = pygame.image.load(str(out))
    pic = Picture(scene, report, None, PPI)
    assert _close(_pixel(img, pic, 7.4, 10), pal.VERMILLION)      # red-1/2
    assert _close(_pixel(img, pic, 20, 7.5), pal.VERMILLION)      # red-2/1
    assert _close(_pixel(img, pic, 23.4, 10), pal.BLUE)           # blue-1/2
    assert _close(_pixel(img, pic, 27, 9.9), pal.BLUE)            # blue-2/2
    # Bases are true size: a 32 mm base (radius 0.63") is side-coloured 0.5" from its centre
    # and not 0.75" away.
    assert _close(_pixel(img, pic, 23.4 + 0.5, 10), pal.BLUE)
    assert not _close(_pixel(img, pic, 23.4 + 0.75, 10), pal.BLUE, 40)


def test_y_points_up_with_the_origin_bottom_left(scene, report):
    pic = Picture(scene, report, None, PPI)
    x0, y0 = pic.view.px(0, 0)
    x1, y1 = pic.view.px(scene.width, scene.depth)
    assert (round(x0), round(y0)) == pic.board.bottomleft
    assert (round(x1), round(y1)) == pic.board.topright
    assert pic.view.table(*pic.view.px(3.5, 7.25)) == pytest.approx((3.5, 7.25))


def test_measurement_highlights_the_blocking_piece(tmp_path, scene, report, measure):
    assert "ruin" in measure["blocked_by"]
    plain, measured = tmp_path / "plain.png", tmp_path / "measured.png"
    render_scene(scene, report, str(plain))
    render_scene(scene, report, str(measured), measure)
    pic = Picture(scene, report, measure, PPI)
    edge = (14, 12)                                   # middle of the ruin's top edge
    assert _close(_pixel(pygame.image.load(str(measured)), pic, *edge), pal.HIGHLIGHT, 20)
    assert not _close(_pixel(pygame.image.load(str(plain)), pic, *edge), pal.HIGHLIGHT, 60)
    # A blocking model is ringed too: blue-1/1 blocks red-1's view of the rest of blue-1.
    assert "blue-1/1" in measure["blocked_by"]
    m = find_model(scene, "blue-1/1")[1]
    img = pygame.image.load(str(measured))
    below = [_pixel(img, pic, m.x, m.y - m.base.a - k / PPI) for k in range(1, 16)]
    assert any(_close(c, pal.HIGHLIGHT, 20) for c in below)


def test_measurement_line_is_drawn_between_the_closest_points(tmp_path, scene, report, measure):
    out = tmp_path / "measured.png"
    render_scene(scene, report, str(out), measure)
    pic = Picture(scene, report, measure, PPI)
    img = pygame.image.load(str(out))
    (ax, ay, _), (bx, by, _) = measure["points"]["a"], measure["points"]["b"]
    for t in (0.15, 0.85):                            # clear of the distance label
        c = _pixel(img, pic, ax + (bx - ax) * t, ay + (by - ay) * t)
        assert _close(c, pal.MEASURE, 30)


def test_coherency_break_is_ringed(tmp_path, scene, report):
    assert report["units"]["red-1"]["coherency_breaks"] == ["red-1/3"]
    out = tmp_path / "scene.png"
    render_scene(scene, report, str(out))
    pic = Picture(scene, report, None, PPI)
    m = find_model(scene, "red-1/3")[1]               # an oval facing up (+y)
    img = pygame.image.load(str(out))
    beyond = [_pixel(img, pic, m.x, m.y + m.base.a + k / PPI) for k in range(1, 12)]
    assert any(_close(c, pal.COHERENCY, 20) for c in beyond)
    ok = find_model(scene, "red-2/1")[1]              # coherent: no ring
    beyond = [_pixel(img, pic, ok.x, ok.y + ok.base.a + k / PPI) for k in range(1, 12)]
    assert not any(_close(c, pal.COHERENCY, 40) for c in beyond)


def test_combat_pairs_are_drawn_once(scene, report):
    view = ViewTransform.for_board(scene.width, scene.depth, PPI)
    pairs = [p for p in report["pairs"] if p["in_combat"]]
    assert len(pairs) == 2                            # red-2 v blue-1, listed both ways
    assert len(combat_links(view, scene, report)) == 1


def test_objective_zone_is_range_plus_marker(scene):
    zone, marker = objective_radii(scene)             # aos4: 3" from a 40 mm marker's edge
    assert marker == pytest.approx(20 / 25.4)
    assert zone == pytest.approx(3 + 20 / 25.4)


def test_layers_draw_onto_any_surface_and_view(scene, report, measure):
    surface = pygame.Surface((500, 400))
    view = ViewTransform.fit(scene.width, scene.depth, (10, 10, 480, 380))
    labels = draw_scene(surface, view, scene, report, measure, rulers=False)
    assert labels.placed                               # labels were placed
    m = find_model(scene, "blue-1/2")[1]
    x, y = view.px(m.x, m.y)
    assert _close(surface.get_at((round(x), round(y))), pal.BLUE)


def test_side_colours_are_okabe_ito():
    cols = pal.side_colours(["red", "blue", "orcs", "elves"])
    assert cols["red"] == pal.VERMILLION and cols["blue"] == pal.BLUE
    assert cols["orcs"] == pal.GREEN and cols["elves"] == pal.PURPLE
    assert pal.side_colours(["north", "south"]) == {"north": pal.VERMILLION, "south": pal.BLUE}
    assert Style.for_scene(load_scene(SCENE)).side(None) == pal.NEUTRAL


def test_taller_terrain_is_darker():
    assert pal.luminance(pal.terrain_fill(6, "solid")) < pal.luminance(pal.terrain_fill(1, "solid"))


def test_measure_caption(measure):
    text = measure_caption(measure)
    assert text.startswith(f'red-1 -> blue-1: {measure["distance"]:.2f}"')
    assert "visible: partial" in text and "blocked by ruin" in text
    three_d = dict(measure, distance=7.42, distance_3d=7.6, blocked_by=["ruin"], in_combat=False,
                   within_combat_range=False)
    assert measure_caption(three_d) == ('red-1 -> blue-1: 7.42" (3-D 7.60"), visible: partial, '
                                        'blocked by ruin')


@pytest.mark.parametrize("name", ["demo", "demo-skirmish", "aos4", "skirmish"])
def test_bundled_maps_render(tmp_path, name):
    path = Path(__file__).resolve().parents[2] / "maps" / f"{name}.yaml"
    s = load_scene(path)                        # it ships with battlefield: a missing one fails
    ref = Referee(s)
    m = ref.measure_report(s.units[0].id, s.units[-1].id) if len(s.units) > 1 else None
    out = tmp_path / f"{name}.png"
    render_scene(s, ref.check_report(), str(out), m, px_per_inch=10)
    assert pygame.image.load(str(out)).get_width() == Picture(s, None, m, 10).width
