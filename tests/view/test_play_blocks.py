"""A blocks turn in the window, driven by synthetic events under the dummy video driver: take
direct control, drag the block with a turn of the wheel and Q, see the front arc and the
engagement it would make, drop it flush against an enemy, attack, and pass the turn."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402

from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view.app import PlayScene, open_game  # noqa: E402

INFANTRY = {"rect": [101.6, 50.8]}
STATS = {"move": 4, "offence": 7, "defence": 4, "power": 5, "toughness": 3, "courage": 10,
         "dice": 2, "range": 0, "points": 500}


@pytest.fixture()
def scene(tmp_path):
    data = {"ruleset": "blocks", "board": {"width": 48, "depth": 32},
            "deployment": {"red": [[0, 0], [48, 0], [48, 8], [0, 8]],
                           "blue": [[0, 24], [48, 24], [48, 32], [0, 32]]},
            "state": {"round": 2, "active": "red"},
            "units": [{"id": "red-a", "side": "red", "stats": STATS,
                       "models": [{"base": INFANTRY, "at": [20, 10], "facing": 90}]},
                      {"id": "blue-d", "side": "blue", "stats": STATS, "order": "hold",
                       "models": [{"base": INFANTRY, "at": [20, 15], "facing": 270}]}]}
    path = tmp_path / "blocks.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    pygame.display.init()
    pygame.font.init()
    yield PlayScene(open_game(str(path)), (1200, 760))
    pygame.display.quit()


def px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


def ev(kind: int, **kw) -> pygame.event.Event:
    return pygame.event.Event(kind, **kw)


def test_a_turn_in_the_window(scene: PlayScene) -> None:
    st = scene.state
    assert scene.apply(Action("direct", "red-a"))
    a, b = px(scene, 20, 10), px(scene, 20, 12)
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=a))
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=b, rel=(0, b[1] - a[1]), buttons=(1, 0, 0)))
    scene.handle_event(ev(pygame.MOUSEWHEEL, x=0, y=1))          # +15 degrees
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_q, mod=0))  # +15 more
    scene.drag.settle()                  # held there: the worker's verdict (view/checker.py)
    r = scene.drag.ruling
    assert r.action.facing == pytest.approx(120) and r.legal
    assert any(m.kind == "outline" and m.label == "front arc" for m in r.notes.marks)
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_e, mod=0))  # back to 105
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_e, mod=0))  # back to 90
    # Held flush against blue-d's front (its front edge at y = 14, ours at y = 13 + 1).
    c = px(scene, 20, 13)
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=c, rel=(0, c[1] - b[1]), buttons=(1, 0, 0)))
    scene.drag.settle()
    r = scene.drag.ruling
    assert r.action.facing == pytest.approx(90)
    assert "engages blue-d on its front (engaged on its own front)" in r.notes.lines
    assert any(m.kind == "edge" for m in r.notes.marks)
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)                                            # the overlay draws
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=c))
    m = int(st.models_of(0)[0])
    y = float(st.table.y[m])
    assert st.actions[-1].type == "move" and 12.9 < y <= 13.0 + 1e-6
    assert scene.apply(Action("end-phase"))                     # to the combat phase
    assert st.phase == "combat"
    assert scene.apply(Action("attack", "red-a", target="blue-d"))
    assert scene.apply(Action("end-phase"))                     # blue strikes back
    assert st.acting_side == "blue"
    assert scene.apply(Action("end-phase"))
    assert st.active == "blue" and st.phase == "command"
    scene.draw(surf)                                            # orders and engaged sides drawn


def test_a_move_by_standing_orders_is_in_the_game_log(tmp_path) -> None:
    """The engine's own moves (blocks' standing orders at the end of the command phase) are
    worded in the window's game log, as the replay page words them."""
    data = {"ruleset": "blocks", "board": {"width": 48, "depth": 32},
            "deployment": {"red": [[0, 0], [48, 0], [48, 8], [0, 8]],
                           "blue": [[0, 24], [48, 24], [48, 32], [0, 32]]},
            "state": {"round": 2, "active": "red"},
            "units": [{"id": "red-a", "side": "red", "stats": STATS, "order": "advance",
                       "models": [{"base": INFANTRY, "at": [20, 4], "facing": 90}]},
                      {"id": "blue-d", "side": "blue", "stats": STATS, "order": "hold",
                       "models": [{"base": INFANTRY, "at": [20, 28], "facing": 270}]}]}
    path = tmp_path / "blocks.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    pygame.display.init()
    pygame.font.init()
    try:
        scene = PlayScene(open_game(str(path)), (1200, 760))
        assert scene.state.phase == "command"
        assert scene.apply(Action("end-phase"))
        said = [text for text, _, _ in scene.panel.log_lines(scene.state)]
        assert 'red-a moves 4.00" (advance)' in said
        assert said[0].startswith("red end-phase")        # whose pass, then what followed
    finally:
        pygame.display.quit()
