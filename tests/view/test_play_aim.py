"""Choosing a target with the cursor: before the click, the panel says what the click would be
for the enemy under the cursor - the engine's verdict on that same action, range, sight, odds."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402


def test_the_enemy_under_the_cursor_is_ruled_on_before_the_click() -> None:
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    to_phase(opened.state, "shooting")
    scene = PlayScene(opened, (1200, 760))
    st = scene.state
    scene.draw(pygame.Surface((1200, 760)))
    rect = next(r for r, n in scene.panel.buttons if n == "shoot")
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))

    def px(uid: str) -> tuple[int, int]:
        m = st.models_of(st.scene.unit_index(uid))[0]
        p = scene.table.view.px(float(st.table.x[m]), float(st.table.y[m]))
        return round(p[0]), round(p[1])

    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                          pos=px("red-archers")))
    assert scene.picking == ("shoot", "red-archers")
    before = len(st.actions)
    for foe in ("blue-drake", "blue-seer"):
        scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=px(foe), rel=(0, 0),
                                              buttons=(0, 0, 0)))
        said = scene.panel.message
        assert said.startswith(f"shoot red-archers -> {foe}: ") and "sight " in said, said
        legal = not st.check(Action("shoot", "red-archers", target=foe))
        assert ("; legal" in said) == legal and ("illegal: " in said) == (not legal)
        if legal:
            assert "expected damage" in said
    assert len(st.actions) == before                      # nothing applied by hovering
    pygame.display.quit()


def test_an_instant_click_between_a_units_bases_picks_it() -> None:
    """The reported case: after `shoot`, an instant press and release on red-archers (between
    its bases, where a drag's press takes the whole unit) was ignored, and the next click on
    the target was taken as "your unit" (illegal: blue-drake is blue's)."""
    pygame.display.init()
    pygame.font.init()
    try:
        opened = open_game(None)
        to_phase(opened.state, "shooting")
        scene = PlayScene(opened, (1200, 760))
        st = scene.state
        scene.draw(pygame.Surface((1200, 760)))
        rect = next(r for r, n in scene.panel.buttons if n == "shoot")
        scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                              pos=rect.center))
        a, b = (st.models_of(st.scene.unit_index("red-archers"))[k] for k in (0, 1))
        x = (float(st.table.x[a]) + float(st.table.x[b])) / 2       # between two bases
        y = (float(st.table.y[a]) + float(st.table.y[b])) / 2
        p = scene.table.view.px(x, y)
        pos = (round(p[0]), round(p[1]))
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):     # one batch
            scene.handle_event(pygame.event.Event(kind, button=1, pos=pos))
        assert scene.picking == ("shoot", "red-archers")
        assert scene.drag.pickup is None
    finally:
        pygame.display.quit()
