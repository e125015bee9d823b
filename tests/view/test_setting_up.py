"""The deployment phase in the window, driven by synthetic pygame events under the dummy video
driver: the acting side's units in reserve are listed; a drag from the list shows the block
green where the engine takes it and red (with the refusal) where it does not, with the
territory and the 9" line; the drop is the deploy action; the computer deploys its own."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules.aos4.rules import RULESET  # noqa: E402
from battlefield.rules.state import Game  # noqa: E402
from battlefield.scene.load import load_scene_text  # noqa: E402
from battlefield.view.app import Opened, PlayScene  # noqa: E402

STATS = "stats: {move: 5, health: 1, save: 4}, weapons: [{name: Sword}]"
TEXT = f"""ruleset: aos4
map: aos4
units:
- {{id: red-a, side: red, reserve: true, {STATS}, models: [{{base: 32}}, {{base: 32}}]}}
- {{id: red-b, side: red, reserve: true, {STATS}, models: [{{base: 32}}]}}
- {{id: blue-a, side: blue, reserve: true, {STATS}, models: [{{base: 32}}, {{base: 32}}]}}
"""


@pytest.fixture()
def scene():
    pygame.display.init()
    pygame.font.init()
    state = Game(RULESET, load_scene_text(TEXT, "reserve")).new_state()
    yield PlayScene(Opened(state, TEXT, "reserve"), (1200, 760), computer=("blue",))
    pygame.display.quit()


def ev(kind: int, **kw) -> pygame.event.Event:
    return pygame.event.Event(kind, **kw)


def px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


def test_drag_from_the_reserve_list_checked_live_and_dropped(scene: PlayScene, tmp_path):
    tool = scene.setup
    rows = tool.rows()
    assert [scene.state.scene.units[u].id for u, _ in rows] == ["red-a", "red-b"]
    assert "reserve list" in scene.now_line()
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=rows[0][1].center))
    assert tool.held is not None and tool.held.unit == 0
    # Over the middle of the board (y 22: outside red's territory, y 0..12): refused.
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=px(scene, 30, 22), rel=(0, 0),
                          buttons=(1, 0, 0)))
    assert tool.held.problems and tool.held.problems[0].code == "outside_territory"
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    pygame.image.save(surf, str(tmp_path / "refused.png"))
    # In red's territory: taken; the picture shows it green.
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=px(scene, 30, 6), rel=(0, 0),
                          buttons=(1, 0, 0)))
    assert tool.held.problems == []
    scene.draw(surf)
    green = surf.get_at(px(scene, *tool.held.places[0]))[:3]
    assert green[1] > green[0], green              # the OK colour, not the side's red
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=px(scene, 30, 6)))
    st = scene.state
    assert st.actions[-1].type == "deploy" and st.actions[-1].unit == "red-a"
    assert not st.in_reserve(0) and st.acting_side == "blue"
    # The computer deploys blue's unit; red's last unit is listed alone.
    scene.glide_s = 0
    scene.update(0.1)
    assert st.actions[-1].type == "deploy" and st.actions[-1].unit == "blue-a"
    assert [st.scene.units[u].id for u, _ in tool.rows()] == ["red-b"]


def test_a_drop_back_on_the_list_puts_the_unit_back(scene: PlayScene):
    tool = scene.setup
    row = tool.rows()[1][1]
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=row.center))
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=px(scene, 30, 6), rel=(0, 0),
                          buttons=(1, 0, 0)))
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=row.center))
    assert tool.held is None and not scene.state.actions
    assert "back in reserve" in scene.panel.message


TERRAIN_TEXT = f"""ruleset: aos4
map: aos4
terrain:
- {{id: red-shrine, side: red, reserve: true, outline: [[0, 0], [4, 0], [4, 4], [0, 4]],
   height: 3, kind: obstacle}}
units:
- {{id: red-a, side: red, reserve: true, {STATS}, models: [{{base: 32}}]}}
- {{id: blue-a, side: blue, reserve: true, {STATS}, models: [{{base: 32}}]}}
"""


def test_faction_terrain_is_dragged_from_the_list_first(tmp_path):
    """Deploy Faction Terrain in the window: red's piece waiting is the list's only row (before
    any unit); dragged over the middle it is refused, in red's territory it is taken, and the
    drop is the deploy-faction-terrain action; then the units' list follows."""
    pygame.display.init()
    pygame.font.init()
    try:
        # A scene of its own with the aos4 map's terrain kept: the map's pieces and ours.
        import yaml

        from battlefield.paths import find_map
        from battlefield.rules.aos4.faction_terrain import spots

        board = yaml.safe_load(find_map("aos4").read_text())
        data = yaml.safe_load(TERRAIN_TEXT)
        data["terrain"] = board.get("terrain", []) + data["terrain"]
        text = yaml.safe_dump(data, sort_keys=False)
        state = Game(RULESET, load_scene_text(text, "terrain")).new_state()
        scene = PlayScene(Opened(state, text, "terrain"), (1200, 760), computer=("blue",))
        tool = scene.setup
        rows = tool.rows()
        assert [u for u, _ in rows] == [-1] and tool.pieces()[0].id == "red-shrine"
        scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=rows[0][1].center))
        assert tool.held is not None and tool.held.terrain == "red-shrine"
        scene.handle_event(ev(pygame.MOUSEMOTION, pos=px(scene, 30, 22), rel=(0, 0),
                              buttons=(1, 0, 0)))
        assert tool.held.problems and tool.held.problems[0].code == "outside_territory"
        spot = next(p for p in spots(state, tool.pieces()[0])      # clear of the edges
                    if 8 < p[0] < 52 and p[1] > 4 and p[1] < 40)
        scene.handle_event(ev(pygame.MOUSEMOTION, pos=px(scene, *spot), rel=(0, 0),
                              buttons=(1, 0, 0)))
        held = tool.held
        assert held.problems == [], held.problems
        surf = pygame.Surface((1200, 760))
        scene.draw(surf)
        pygame.image.save(surf, str(tmp_path / "terrain.png"))
        scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=px(scene, *held.places[0])))
        st = scene.state
        assert st.actions[-1].type == "deploy-faction-terrain"
        assert "red-shrine" in [p.id for p in st.scene.terrain] and not st.scene.reserve_terrain
        assert [st.scene.units[u].id for u, _ in tool.rows()] == ["red-a"]
    finally:
        pygame.display.quit()


def test_the_list_stands_away_from_the_deploying_side_s_territory(scene: PlayScene):
    """Red's territory is the table's lower band (y 0..12) as the window shows it: red's list
    stands in the upper half; blue's (territory above) in the lower half, so neither covers
    where its units go. A long list runs in columns within its half."""
    tool = scene.setup
    rect = scene.table.rect
    assert all(r.bottom <= rect.centery for _, r in tool.rows())
    zone = scene.state.scene.deployment["red"]
    ys = [scene.table.view.px(x, y)[1] for x, y in zone]
    assert min(ys) > rect.centery - 1          # red's territory in the lower half
    blue_rows = [(u, r) for u, r in tool.rows()]
    assert blue_rows
    # Blue deploys: red's units set up by the engine's own block, then blue's turn.
    from battlefield.rules.actions import Action
    from battlefield.rules.deploy import block

    st = scene.state
    for u in (0, 1):
        spec = st.scene.units[u]
        places = block([m.base for m in spec.models], 10 + 12 * u, 5, 90.0)
        st.apply(Action("deploy", spec.id, options=(("at", tuple(places)),)))
        if st.acting_side == "blue":
            break
    assert st.acting_side == "blue"
    tool.mine = lambda side: True
    rows = tool.rows()
    assert rows and all(r.top >= rect.centery for _, r in rows)
    many = list(range(40))
    tool.reserve = lambda: many                          # a long list: columns, in its half
    rows = tool.rows()
    assert len({r.x for _, r in rows}) > 1
    assert all(r.top >= rect.centery and r.bottom <= rect.bottom for _, r in rows)
