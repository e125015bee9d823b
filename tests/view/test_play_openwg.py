"""openwg in the window: a turn played by dragging and the phase bar's stop; the charge
button makes a drag a charge at 2 x Move; the panel lists the pooled wounds."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.view.app import PlayScene, open_game  # noqa: E402

SIZE = (1200, 760)


def px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


def at(scene: PlayScene, uid: str) -> tuple[float, float]:
    from battlefield.rules.moves import leader

    st = scene.state
    m = leader(st, st.scene.unit_index(uid))
    return float(st.table.x[m]), float(st.table.y[m])


def drag(scene: PlayScene, start: tuple[float, float], end: tuple[float, float],
         release: bool = True) -> None:
    a, b = px(scene, *start), px(scene, *end)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=a))
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=b,
                                          rel=(b[0] - a[0], b[1] - a[1]), buttons=(1, 0, 0)))
    if release:
        scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=b))
    elif scene.drag.pickup is not None:
        scene.drag.settle()         # held there: the worker's verdict (view/checker.py)


@pytest.fixture()
def scene():
    pygame.display.init()
    pygame.font.init()
    yield PlayScene(open_game("demo-openwg"), SIZE)
    pygame.display.quit()


def click(scene: PlayScene, name: str) -> None:
    scene.draw(pygame.Surface(SIZE))
    rect = next(r for r, label in scene.panel.buttons if label == name)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))


def test_a_movement_phase_by_drag_and_stop(scene: PlayScene) -> None:
    x, y = at(scene, "red-vulkites")
    drag(scene, (x, y), (x, y + 3.5), release=False)
    r = scene.drag.ruling
    assert r.action.type == "move" and r.legal and r.allowed == 4
    drag(scene, (x, y), (x, y + 3.5))
    assert scene.state.actions[-1].type == "move" and scene.state.acting_side == "blue"
    click(scene, "stop")                               # blue stops first
    assert scene.state.acting_side == "red" and scene.state.phase == "movement"
    click(scene, "run")
    hx, hy = at(scene, "red-hearthguard")
    drag(scene, (hx, hy), (hx, hy + 7.5), release=False)
    assert scene.drag.ruling.action.type == "run" and scene.drag.ruling.allowed == 8
    drag(scene, (hx, hy), (hx, hy + 7.5))
    assert scene.state.actions[-1].type == "run"
    click(scene, "stop")
    assert scene.state.phase == "ranged" and scene.state.acting_side == "blue"


def test_the_panel_lists_the_wounds_pooled(scene: PlayScene) -> None:
    scene.state.units[0].counters["wounds"] = 3
    click(scene, "stop")                               # the panel is drawn

    assert scene.state.rules.window.unit_notes(scene.state) == {0: "3 wounds pooled"}


def test_a_charge_is_dragged_in_a_straight_line_whatever_is_in_the_way():
    """ruleset.yaml marks openwg's charge `straight: true`: no reach field routes it round
    things, so the drop is the straight line the rules want (a move is routed as usual)."""
    from battlefield.depiction import live
    from battlefield.rules.log import rules_for
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene, resolve_scene_path

    scene = load_scene(resolve_scene_path("demo-openwg"))
    state = Game(rules_for("openwg"), scene, 1).new_state()
    u = scene.unit_index(scene.units[0].id)
    charge = live.pick_up(state, u, wanted="charge")
    move = live.pick_up(state, u, wanted="move")
    assert charge is not None and charge.ability == "charge" and charge.reach is None
    assert move is not None and move.ability == "move" and move.reach is not None
    x, y = float(state.table.x[charge.ref]), float(state.table.y[charge.ref])
    assert live.drop_path(state, charge, (x + 3.0, y + 4.0)) == ((x, y), (x + 3.0, y + 4.0))
