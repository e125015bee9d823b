"""Labels placed in one pass (view/labels.py), as `render` and the window place them: on a real
imported army of 19 units (ids up to 52 characters, tests/army/data/fyreslayers-19.ros) no two
labels overlap, none leaves the board, and a label set away from its unit is tied to it by a
leader line; the window labels terrain in the same pass as the models (no terrain name under a
model)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.army.writer import import_army, write_scene  # noqa: E402
from battlefield.rules.actions import Action  # noqa: E402
from battlefield.rulings import Referee  # noqa: E402
from battlefield.scene.load import load_scene  # noqa: E402
from battlefield.view.labels import Labels  # noqa: E402
from battlefield.view.overlays import draw_scene  # noqa: E402
from battlefield.view.picture import Picture  # noqa: E402

ROSTER = Path(__file__).parents[1] / "army" / "data" / "fyreslayers-19.ros"


@pytest.fixture(scope="module")
def army(tmp_path_factory):
    out = tmp_path_factory.mktemp("army") / "fyreslayers-19.yaml"
    write_scene(import_army(ROSTER, out, deploy=True), out, "red", True)
    return load_scene(out)


def test_the_army_is_the_one_the_issue_names(army):
    assert len(army.units) == 19
    assert max(len(u.id) for u in army.units) == 52


def test_no_two_labels_overlap_on_the_imported_army(army, tmp_path):
    pygame.font.init()
    pic = Picture(army, Referee(army).check_report(), None, 20)
    surface = pygame.Surface(pic.size)
    labels = draw_scene(surface, pic.view, pic.scene, pic.report, None, pic.style)
    rects = labels.placed
    assert len(rects) >= 19 + len(army.terrain)
    for i, a in enumerate(rects):
        assert pic.board.inflate(2, 2).contains(a), a
        for b in rects[i + 1:]:
            assert not a.inflate(-4, -4).colliderect(b.inflate(-4, -4)), (a, b)
    pygame.image.save(surface, str(tmp_path / "army.png"))


def test_a_crowded_label_moves_out_with_a_leader_line():
    pygame.font.init()
    labels = Labels(bounds=pygame.Rect(0, 0, 400, 400))
    unit = pygame.Rect(190, 190, 20, 20)
    labels.avoid(unit)
    tag = pygame.Surface((60, 14))
    for _ in range(12):                  # a dozen labels all wanting the same near places
        labels.add(tag, [(200, 180), (200, 220)], anchor=unit)
    labels.draw(pygame.Surface((400, 400)))
    for i, a in enumerate(labels.placed):
        assert not a.colliderect(unit.inflate(-2, -2))
        for b in labels.placed[i + 1:]:
            assert not a.inflate(-4, -4).colliderect(b.inflate(-4, -4))
    far = [r for r in labels.placed if not r.colliderect(unit.inflate(10, 10))]
    assert far, "every label stayed next to the unit"


def test_the_window_labels_terrain_with_the_models():
    """Terrain names, objective tags and unit ids share one placement in the window: none
    overlaps another and none covers a model's base."""
    from battlefield.view.app import PlayScene, open_game
    from battlefield.view.layers import model_px

    pygame.display.init()
    scene = PlayScene(open_game(None), (1400, 900))
    table = scene.table
    table.units_layer()
    rects = table.labels.placed
    st = table.state.scene
    assert len(rects) >= len(st.units) + len(st.terrain) + len(st.objectives)
    view = table.local_view()
    bases = [pygame.Rect(_box(model_px(view, m))) for u in st.units for m in u.models]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.inflate(-4, -4).colliderect(b.inflate(-4, -4)), (a, b)
        assert a.inflate(-4, -4).collidelist(bases) < 0, a
    pygame.display.quit()


def _box(pts):
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def test_zoomed_in_the_rulers_stay_and_a_resize_refits():
    """Zoomed in past the board's edges the inch rulers are drawn along the view's edges; a
    resized window refits the whole board while the view was fitted, and keeps a zoom."""
    from battlefield.view.app import PlayScene, open_game

    pygame.display.init()
    scene = PlayScene(open_game(None), (1400, 900))
    table = scene.table
    table.zoom(3.0, (500, 450))
    layer = table.units_layer()
    strip = [layer.get_at((x, y))[:3] for x in range(2, 12) for y in range(100, 800, 3)]
    paper = sum(1 for c in strip if min(c) >= 240)          # the board's cloth is (238, ...)
    assert paper > len(strip) / 2, "no paper strip for the rulers at the left edge"
    assert any(c[0] < 150 for c in strip + [layer.get_at((x, y))[:3] for x in range(12, 30)
                                            for y in range(100, 800, 3)]), "no ruler ink"
    scene.resize((1100, 700))
    assert table.view != table.fit_view()                  # the zoom is kept
    table.fit()
    scene.resize((1200, 800))
    assert table.view == table.fit_view()                  # refitted
    pygame.display.quit()


def test_two_raised_models_of_a_unit_share_one_height_badge():
    """openwg: blue-hunters end their move with two of ten models on the 2" hill - one badge
    "+2" x2" on the unit's label, not a "+2"" beside each of the two (the window draws the
    depiction's labels: view/depict.py)."""
    from battlefield.view.app import PlayScene, open_game

    pygame.display.init()
    pygame.font.init()
    opened = open_game(None, "openwg")
    st = opened.state
    path = [[12.9803, 40.2451], [13.84127624, 29.27884631]]
    st.apply(Action("stop"))
    st.apply(Action("move", unit="blue-hunters", path=path))
    hunters = st.scene.unit_index("blue-hunters")
    raised = [m for m in st.models_of(hunters) if st.table.z[m] > 0]
    assert len(raised) == 2
    table = PlayScene(opened, (1400, 900)).table
    table.units_layer()
    texts = [s for s in table.depiction.layers["labels"] if s["k"] == "text"]
    hunters_label = next(s for s in texts if s.get("a", {}).get("data-label-for") ==
                         "blue-hunters")
    assert hunters_label.get("badge") == '+2" x2'
    assert not [s for s in texts if s["t"] == '+2"']
    pygame.display.quit()
