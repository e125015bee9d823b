"""The map editor driven by synthetic pygame events under the dummy video driver, on the
picture test scene (30" x 22" at 32 px an inch): each edit checked against numbers worked out
by hand, with an on_change that validates and rebuilds the game as the play window does."""

from __future__ import annotations

import math
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield import palette as pal  # noqa: E402
from battlefield.errors import InputError  # noqa: E402
from battlefield.rules import log  # noqa: E402
from battlefield.rules.state import Game  # noqa: E402
from battlefield.scene import edits  # noqa: E402
from battlefield.scene.load import load_scene, load_scene_text  # noqa: E402
from battlefield.scene.mapfile import scene_yaml  # noqa: E402
from battlefield.scene.model import Scene  # noqa: E402
from battlefield.view.app import open_game  # noqa: E402
from battlefield.view.editor import Editor  # noqa: E402
from battlefield.view.table_view import TableView  # noqa: E402
from battlefield.view.transform import ViewTransform  # noqa: E402

SCENE = Path(__file__).with_name("scene.yaml")
SCALE = 32.0


class Window:
    """What the play window gives the editor: a table, a message line, the game rebuilt."""

    def __init__(self, maps_dir: Path) -> None:
        pygame.display.init()
        pygame.font.init()
        self.table = TableView(open_game(str(SCENE)).state, pygame.Rect(0, 0, 1000, 760))
        self.table.view = ViewTransform.for_board(30, 22, SCALE, 20, 28)   # whole inches
        self.said: list[str] = []
        self.offered: list[Scene] = []
        self.editor = Editor(self.table, self.said.append, self.on_change, maps_dir)

    def on_change(self, scene: Scene) -> str | None:
        self.offered.append(scene)
        try:
            load_scene_text(scene_yaml(scene), "edited map")
        except InputError as exc:
            return exc.message
        self.table.state = Game(log.rules_for(scene.ruleset.id), scene, 1).new_state()
        self.table.changed()
        return None

    # --- input --------------------------------------------------------------------------------
    def px(self, x: float, y: float) -> tuple[int, int]:
        p = self.table.view.px(x, y)
        return round(p[0]), round(p[1])

    def send(self, kind: int, **kw) -> bool:
        return self.editor.handle_event(pygame.event.Event(kind, **kw))

    def click(self, x: float, y: float) -> bool:
        pos = self.px(x, y)
        used = self.send(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)
        self.send(pygame.MOUSEBUTTONUP, button=1, pos=pos)
        return used

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        self.send(pygame.MOUSEBUTTONDOWN, button=1, pos=start)
        mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        for p in (mid, end):
            self.send(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
        self.send(pygame.MOUSEBUTTONUP, button=1, pos=end)

    def key(self, key: int, mod: int = 0, char: str = "") -> bool:
        return self.send(pygame.KEYDOWN, key=key, mod=mod, unicode=char)

    def hover(self, x: float, y: float) -> tuple[int, int]:
        pos = self.px(x, y)
        self.send(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        return pos

    # --- what is there ------------------------------------------------------------------------
    def outline(self, pid: str) -> tuple[tuple[float, float], ...]:
        return edits.find_piece(self.editor.scene, pid).outline


@pytest.fixture()
def w(tmp_path: Path):
    yield Window(tmp_path)
    pygame.display.quit()              # the picture tests check that no window is left open


def close(a, b, tol: float = 1.5e-3) -> bool:
    return len(a) == len(b) and all(math.dist(p, q) <= tol for p, q in zip(a, b, strict=True))


RUIN = ((12, 8), (16, 8), (16, 12), (12, 12))          # centroid (14, 10), 5" obscuring


def test_the_view_is_what_the_numbers_assume(w: Window) -> None:
    assert w.table.view.scale == SCALE
    assert w.outline("ruin") == RUIN


def test_click_selects_the_smallest_piece_and_empty_board_deselects(w: Window) -> None:
    w.hover(22, 4)
    w.key(pygame.K_n)                        # a 4" square inside the wood (20..25 x 2..6)
    w.key(pygame.K_LEFTBRACKET, char="[")   # 3.6" square: smaller than the wood (16 sq in)
    w.click(10, 12)
    assert w.editor.selected is None
    assert w.click(21, 3) and w.editor.selected == ("piece", "piece-1")
    w.click(24.6, 4)
    assert w.editor.selected == ("piece", "wood")
    w.click(14, 10)
    assert w.editor.selected == ("piece", "ruin")
    assert "ruin: obscuring, 5\" high" in w.said[-1]


def test_drag_moves_a_piece_by_pixels_over_scale(w: Window) -> None:
    start = w.px(14, 10)
    w.drag(start, (start[0] + 50, start[1] - 24))            # 1.5625" right, 0.75" up
    assert w.editor.selected == ("piece", "ruin")
    moved = tuple((x + 50 / SCALE, y + 24 / SCALE) for x, y in RUIN)
    assert close(w.outline("ruin"), moved)
    assert len(w.offered) == 1                                # one offer for the whole drag
    assert w.table.state.scene.terrain == w.editor.scene.terrain   # the game was rebuilt


def test_a_dragged_piece_stops_at_the_board_edge(w: Window) -> None:
    start = w.px(14, 10)
    w.drag(start, (start[0] - 20 * 32, start[1]))
    assert close(w.outline("ruin"), ((0, 8), (4, 8), (4, 12), (0, 12)))


def test_rotate_turns_a_corner_about_the_centroid(w: Window) -> None:
    w.click(14, 10)
    w.key(pygame.K_r)
    c, s = math.cos(math.radians(15)), math.sin(math.radians(15))
    # (12, 8) is (-2, -2) from the centroid: turned 15 degrees counter-clockwise.
    assert close(w.outline("ruin")[:1], ((14 - 2 * c + 2 * s, 10 - 2 * s - 2 * c),))
    assert close(w.outline("ruin")[:1], ((12.585786, 7.550510),))
    w.key(pygame.K_r, pygame.KMOD_SHIFT)
    assert close(w.outline("ruin"), RUIN)
    w.key(pygame.K_r, pygame.KMOD_SHIFT)                        # clockwise from the start
    assert close(w.outline("ruin")[:1], ((14 - 2 * c - 2 * s, 10 + 2 * s - 2 * c),))


def test_resize_scales_about_the_centroid(w: Window) -> None:
    w.click(14, 10)
    w.key(pygame.K_RIGHTBRACKET, char="]")
    assert close(w.outline("ruin"), ((11.8, 7.8), (16.2, 7.8), (16.2, 12.2), (11.8, 12.2)))
    w.editor.undo()
    w.key(pygame.K_LEFTBRACKET, char="[")
    assert close(w.outline("ruin"), ((12.2, 8.2), (15.8, 8.2), (15.8, 11.8), (12.2, 11.8)))


def test_height_steps_and_kind_cycles(w: Window) -> None:
    w.click(14, 10)
    w.key(pygame.K_PAGEUP)
    assert edits.find_piece(w.editor.scene, "ruin").height == 5.5
    w.key(pygame.K_PAGEDOWN)
    w.key(pygame.K_PAGEDOWN)
    assert edits.find_piece(w.editor.scene, "ruin").height == 4.5
    w.click(17.5, 14.25)                                   # the 1" wall
    for _ in range(3):
        w.key(pygame.K_PAGEDOWN)
    assert edits.find_piece(w.editor.scene, "wall").height == 0.5      # never below 0.5"
    w.click(14, 10)
    w.key(pygame.K_k)
    assert edits.find_piece(w.editor.scene, "ruin").kind == "impassable"
    w.key(pygame.K_k)
    assert edits.find_piece(w.editor.scene, "ruin").kind == "place-of-power"
    assert edits.find_piece(w.table.state.scene, "ruin").kind == "place-of-power"
    assert edits.next_height(1.2, True) == 1.5 and edits.next_height(1.2, False) == 1.0


def test_delete_removes_a_piece_and_an_objective(w: Window) -> None:
    w.click(17.5, 14.25)
    w.key(pygame.K_DELETE)
    assert "wall" not in [p.id for p in w.editor.scene.terrain]
    assert w.editor.selected is None
    w.click(15, 16)
    assert w.editor.selected == ("objective", "centre")
    w.key(pygame.K_BACKSPACE)
    assert [o.id for o in w.editor.scene.objectives] == ["home"]


def test_n_adds_a_piece_at_the_cursor_and_terrain_lifts_models(w: Window) -> None:
    pos = w.hover(20, 7.5)                                      # under red-2's 40 mm base
    w.key(pygame.K_n)
    x, y = w.table.table_at(pos)
    assert w.editor.selected == ("piece", "piece-1")
    p = edits.find_piece(w.editor.scene, "piece-1")
    assert (p.kind, p.height) == ("solid", 2.0)
    assert close(p.outline, ((x - 2, y - 2), (x + 2, y - 2), (x + 2, y + 2), (x - 2, y + 2)))
    model = w.editor.scene.units[w.editor.scene.unit_index("red-2")].models[0]
    assert model.z == 2.0                                       # it stands on the new piece
    w.hover(5, 20)
    w.key(pygame.K_n)                                           # kept wholly on the board
    assert edits.find_piece(w.editor.scene, "piece-2").outline[2] == (7.0, 22.0)


def test_o_adds_an_objective_dragged_like_a_piece(w: Window) -> None:
    pos = w.hover(8, 6)
    w.key(pygame.K_o)
    o = edits.find_objective(w.editor.scene, "objective-1")
    assert (o.x, o.y) == w.table.table_at(pos) == (8, 6)
    assert w.editor.selected == ("objective", "objective-1")
    w.drag(pos, (pos[0] + 64, pos[1]))
    o = edits.find_objective(w.editor.scene, "objective-1")
    assert (o.x, o.y) == (10, 6)


def test_zone_selected_inside_and_reshaped_by_a_corner(w: Window) -> None:
    w.click(3, 2)
    assert w.editor.selected == ("zone", "red")
    w.drag(w.px(30, 4), w.px(30, 6))
    assert w.editor.scene.deployment["red"] == ((0, 0), (30, 0), (30, 6), (0, 4))
    w.key(pygame.K_DELETE)
    assert "red" in w.editor.scene.deployment and "not deleted" in w.said[-1]


def test_a_corner_handle_reshapes_the_selected_piece(w: Window) -> None:
    w.click(14, 10)
    w.drag(w.px(16, 12), w.px(17, 13))
    assert w.outline("ruin") == ((12, 8), (16, 8), (17, 13), (12, 12))


def test_the_game_refuses_a_rock_dropped_on_a_model(w: Window) -> None:
    before = w.editor.scene
    start = w.px(25.5, 16.5)
    w.drag(start, (start[0], start[1] + 4 * 32))           # onto blue-2 at (27, 12)
    assert w.editor.scene is before
    assert "impassable terrain 'rock'" in w.said[-1] and w.said[-1].startswith("refused")
    assert edits.find_piece(w.table.state.scene, "rock").outline[0] == (24, 15)


def test_a_crossed_outline_is_refused_before_the_game_sees_it(w: Window) -> None:
    w.click(14, 10)
    w.drag(w.px(12, 8), w.px(17, 11))                      # a bow tie
    assert w.outline("ruin") == RUIN
    assert "simple polygon" in w.said[-1] and w.offered == []


def test_save_writes_a_map_that_loads_with_the_edit(w: Window, tmp_path: Path) -> None:
    w.click(14, 10)
    w.key(pygame.K_r)
    path = w.editor.save(tmp_path / "out" / "edited.yaml")
    saved = load_scene(path)
    assert saved.terrain == w.editor.scene.terrain and saved.units == []
    assert saved.objectives == w.editor.scene.objectives
    w.key(pygame.K_s, pygame.KMOD_CTRL)
    default = tmp_path / "picture-test-edited.yaml"
    assert default.is_file() and str(default) in w.said[-1]
    assert load_scene(default).terrain == w.editor.scene.terrain


def test_undo_restores_the_scene_and_the_game(w: Window) -> None:
    w.click(14, 10)
    w.key(pygame.K_DELETE)
    w.click(17.5, 14.25)
    w.key(pygame.K_PAGEUP)
    w.key(pygame.K_z, pygame.KMOD_CTRL)
    assert edits.find_piece(w.editor.scene, "wall").height == 1
    assert w.editor.undo()
    assert w.outline("ruin") == RUIN
    assert edits.find_piece(w.table.state.scene, "ruin").outline == RUIN
    assert not w.editor.undo() and w.said[-1] == "nothing to undo"


def test_keys_the_window_uses_are_left_alone(w: Window) -> None:
    w.click(14, 10)
    for key in (pygame.K_e, pygame.K_h, pygame.K_f, pygame.K_m, pygame.K_F12, pygame.K_LEFT,
                pygame.K_PLUS, pygame.K_MINUS):
        assert not w.key(key)
    assert not w.send(pygame.MOUSEWHEEL, x=0, y=1)
    assert not w.send(pygame.MOUSEBUTTONDOWN, button=3, pos=w.px(14, 10))
    assert not w.send(pygame.MOUSEBUTTONDOWN, button=1, pos=(1500, 10))   # off the table


def test_draw_marks_the_selection_and_changes_nothing(w: Window) -> None:
    w.click(14, 10)
    surf = pygame.Surface((1000, 760))
    w.table.draw(surf)
    w.editor.draw(surf)
    x, y = w.px(12, 12)
    assert tuple(surf.get_at((x, y))[:3]) == pal.HALO                  # a corner handle
    assert tuple(surf.get_at(w.px(14, 12))[:3]) == pal.HIGHLIGHT         # the selected edge
    strip = [surf.get_at((x, 10))[:3] for x in range(0, 1000, 5)]
    assert any(c[0] < 80 for c in strip)                          # the tool strip's text
    assert w.editor.scene.terrain == w.table.state.scene.terrain and w.offered == []


def test_draw_mid_drag_shows_the_piece_where_it_would_land(w: Window) -> None:
    start = w.px(14, 10)
    w.send(pygame.MOUSEBUTTONDOWN, button=1, pos=start)
    w.send(pygame.MOUSEMOTION, pos=(start[0] + 160, start[1]), rel=(160, 0), buttons=(1, 0, 0))
    surf = pygame.Surface((1000, 760))
    w.table.draw(surf)
    w.editor.draw(surf)
    assert tuple(surf.get_at(w.px(19, 12))[:3]) == pal.HIGHLIGHT     # the edge 5" to the right
    assert w.offered == [] and w.outline("ruin") == RUIN             # nothing offered yet
    w.send(pygame.MOUSEBUTTONUP, button=1, pos=(start[0] + 160, start[1]))
    assert close(w.outline("ruin"), tuple((x + 5, y) for x, y in RUIN))
