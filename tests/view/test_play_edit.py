"""The play window's map editor (E) and sight heat map (V), driven by synthetic events: an edit
starts a new game on the edited map, a refused edit keeps the game, the map saves and loads."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.scene.load import load_scene  # noqa: E402
from battlefield.view.app import PlayScene, open_game  # noqa: E402
from battlefield.view.launch import play  # noqa: E402


@pytest.fixture()
def scene(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                  # the editor saves under ./maps
    pygame.display.init()
    pygame.font.init()
    yield PlayScene(open_game(None), (1200, 760))
    pygame.display.quit()


def key(scene: PlayScene, k: int, mod: int = 0) -> None:
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))


def px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


def mouse(scene: PlayScene, kind: int, at: tuple[float, float]) -> None:
    kw = {"button": 1} if kind != pygame.MOUSEMOTION else {"rel": (0, 0), "buttons": (1, 0, 0)}
    scene.handle_event(pygame.event.Event(kind, pos=px(scene, *at), **kw))


def test_editing_a_piece_starts_a_new_game_on_the_edited_map(scene: PlayScene) -> None:
    st = scene.state
    scene.apply(__import__("battlefield.rules.actions", fromlist=["Action"]).Action("go-first",
                                                                                  side="red"))
    key(scene, pygame.K_e)
    assert scene.editor is None and "unsaved" in scene.panel.message   # asked first
    key(scene, pygame.K_y)
    assert scene.editor is not None
    # wall-e runs (33, 17)-(39, 17.5); drag it 2" up by a point on it.
    mouse(scene, pygame.MOUSEBUTTONDOWN, (36, 17.25))
    assert scene.editor.selected == ("piece", "wall-e")
    mouse(scene, pygame.MOUSEMOTION, (36, 19.25))
    mouse(scene, pygame.MOUSEBUTTONUP, (36, 19.25))
    wall = next(p for p in scene.state.scene.terrain if p.id == "wall-e")
    assert min(y for _, y in wall.outline) == pytest.approx(19, abs=0.05)
    assert scene.state is not st and scene.state.actions == []     # a new game
    assert next(p for p in scene.state.table.layout.pieces if p.id == "wall-e") == wall
    # Raise it: the game's terrain follows.
    key(scene, pygame.K_PAGEUP)
    assert next(p for p in scene.state.scene.terrain if p.id == "wall-e").height == 1.5
    # Save the map, leave edit mode; the saved map loads with the edit.
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    saved = list((os.getcwd() / __import__("pathlib").Path("maps")).glob("*.yaml"))
    assert len(saved) == 1
    back = load_scene(saved[0])
    assert next(p for p in back.terrain if p.id == "wall-e").height == 1.5
    assert back.units == []
    key(scene, pygame.K_e)
    assert scene.editor is None and "new game" in scene.panel.message


def test_a_refused_edit_keeps_the_game(scene: PlayScene) -> None:
    key(scene, pygame.K_e)
    st = scene.state
    # The rock (impassable) dragged onto red-lightkeeper (31, 9.5): the loader refuses it.
    mouse(scene, pygame.MOUSEBUTTONDOWN, (20, 30.5))
    assert scene.editor.selected == ("piece", "rock")
    mouse(scene, pygame.MOUSEMOTION, (31, 9.5))
    mouse(scene, pygame.MOUSEBUTTONUP, (31, 9.5))
    assert scene.state is st
    assert "refused" in scene.panel.message and "impassable" in scene.panel.message


def test_heat_map_toggle(scene: PlayScene) -> None:
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    before = surf.get_at(px(scene, 30, 24))
    key(scene, pygame.K_v)
    assert scene.table.heat
    values = scene.table.heat_values()
    assert values.shape == (44, 60)
    assert 0 < float(values[24, 30]) <= 1          # the open centre sees much of the board
    scene.draw(surf)
    assert surf.get_at(px(scene, 30, 24)) != before


def test_screenshots_of_the_heat_map_and_the_editor(tmp_path) -> None:
    for kw in ({"heat": True}, {"edit": "ruin-sw"}):
        out = tmp_path / "shot.png"
        play("demo", screenshot=str(out), size=(1000, 640), **kw)
        assert pygame.image.load(str(out)).get_size() == (1000, 640)
    with pytest.raises(Exception, match="no such terrain piece"):
        play("demo", screenshot=str(tmp_path / "x.png"), size=(1000, 640), edit="nope")
