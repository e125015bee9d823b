"""Damage on the table (view/damage_marks.py): `render` of a whole position (as `try --out` and
Ctrl+P write it) draws the damage on each model and marks where the slain stood instead of
drawing them as if alive, and keys both in its legend; the window's units layer marks the
models taken off this phase."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402

from battlefield.rules import outcome, registry  # noqa: E402
from battlefield.rules.trial import scene_after  # noqa: E402
from battlefield.scene.load import load_scene  # noqa: E402
from battlefield.view.app import PlayScene, open_game  # noqa: E402
from battlefield.view.picture import Picture  # noqa: E402


@pytest.fixture(scope="module")
def bloodied():
    """A seeded warband battle, stopped right after the first fighter is slain."""
    opened = open_game(None, "warband", 3)
    st = opened.state
    player = registry.get("warband").player()
    for _ in range(400):
        st.apply(player.choose(st))
        if outcome.losses(st):
            return opened
    raise AssertionError("no fighter slain in 400 actions")


def test_render_of_a_position_shows_damage_and_the_slain(bloodied, tmp_path):
    st = bloodied.state
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump(scene_after(st), sort_keys=False), encoding="utf-8")
    scene = load_scene(path)
    pygame.font.init()
    pic = Picture(scene, {}, None, 20)
    slain = [n for n, u in zip(st.scene.model_names, st.table.unit, strict=True) if u < 0]
    assert len(pic.lost) == len(slain) > 0
    drawn = {u.id for u in pic.scene.units if u.models}
    assert all(n.rpartition("/")[0] not in drawn for n in slain)      # warband: one model each
    assert pic.damage == (True, True)
    surface = pic.draw()
    loss = pic.lost[0]
    x, y = pic.view.px(loss.x, loss.y)
    colour = pic.style.side(loss.side)
    near = [surface.get_at((round(x) + dx, round(y) + dy))[:3]
            for dx in range(-6, 7) for dy in range(-6, 7)]
    assert colour in near                      # the cross in its side's colour


def test_the_window_marks_this_phases_losses(bloodied):
    pygame.display.init()
    scene = PlayScene(bloodied, (1200, 800))
    marks = scene.table.losses()
    assert marks and all(m.side in bloodied.state.scene.sides for m in marks)
    scene.draw(pygame.Surface((1200, 800)))
    pygame.display.quit()
