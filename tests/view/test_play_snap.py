"""A charge dropped near its target snaps to the nearest legal place: the resting cursor shows
the snapped place and says so, and the drop applies exactly that."""

from __future__ import annotations

import math
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.depiction import live  # noqa: E402
from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view.app import Opened, PlayScene, open_game, to_phase  # noqa: E402


def ev(kind: int, **kw) -> pygame.event.Event:
    return pygame.event.Event(kind, **kw)


@pytest.fixture()
def charge():
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    st = opened.state
    to_phase(st, "movement")
    st.apply(Action("normal-move", "red-lightkeeper", path=((31, 9.5), (34.5, 13))))
    to_phase(st, "charge")
    yield PlayScene(Opened(st, opened.scene_text, opened.name), (1200, 760))
    pygame.display.quit()


def test_a_charge_just_short_of_contact_snaps_and_applies_where_shown(charge) -> None:
    scene, st = charge, charge.state
    t = st.table
    u, w = st.scene.unit_index("red-lightkeeper"), st.scene.unit_index("blue-drake")
    lk, drake = st.models_of(u)[0], st.models_of(w)[0]
    # 0.2" short of base contact, to the drake's left: the engine refuses it there
    to = (float(t.x[drake] - t.reach[drake] - t.reach[lk]) - 0.2, float(t.y[drake]))
    p = live.pick_up(st, u, None, "charge")
    assert live.rule(st, p, to, w).legal is False
    a = scene.table.view.px(float(t.x[lk]), float(t.y[lk]))
    b = scene.table.view.px(*to)
    a, b = (round(a[0]), round(a[1])), (round(b[0]), round(b[1]))
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=a))
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=b, rel=(b[0] - a[0], b[1] - a[1]),
                          buttons=(1, 0, 0)))
    scene.drag.update_ruling(engine=True, detail=True)          # the cursor rests
    r = scene.drag.ruling
    assert r.legal and r.notes.lines[0].startswith("snapped ")
    end = r.action.path[-1]
    assert 0 < math.dist(end, scene.drag.to) <= 1.0 + 1e-9
    shown = r.action
    st.dice.fixed.extend([6, 6])                                # the charge roll makes it
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=b))
    assert st.actions[-1] == shown                              # dropped where it was shown


def test_a_charge_far_from_anything_legal_still_snaps_back(charge) -> None:
    scene, st = charge, charge.state
    u, w = st.scene.unit_index("red-lightkeeper"), st.scene.unit_index("blue-drake")
    p = live.pick_up(st, u, None, "charge")
    assert live.snap(st, p, (34.5, 30.0), w) is None            # 1" of nothing legal
    before = len(st.actions)
    a, b = scene.table.view.px(34.5, 13), scene.table.view.px(34.5, 30.0)
    a, b = (round(a[0]), round(a[1])), (round(b[0]), round(b[1]))
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=a))
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=b, rel=(0, 0), buttons=(1, 0, 0)))
    scene.drag.target = w
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=b))
    assert len(st.actions) == before and "snapped back" in scene.panel.message
