"""The drag's slow rulings off the main thread (view/checker.py): while a unit is dragged the
engine's check runs on the worker's thread, never on the frame's, once the check is known to cost
more than a frame can spare; the latest request wins; the verdict shown at rest is the one
State.check gives for the place held."""

from __future__ import annotations

import os
import threading

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402
from battlefield.view.checker import Checker, Request  # noqa: E402


@pytest.fixture()
def scene():
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    to_phase(opened.state, "movement")
    yield PlayScene(opened, (1200, 760))
    pygame.display.quit()


def _where(scene: PlayScene, uid: str) -> tuple[float, float]:
    from battlefield.rules.moves import leader

    st = scene.state
    m = leader(st, st.scene.unit_index(uid))
    return float(st.table.x[m]), float(st.table.y[m])


def _px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


class _Threads:
    """Which threads ran the ruleset's check (the real one, called through)."""

    def __init__(self, rules) -> None:
        self.rules, self.real, self.seen = rules, rules.check, []

    def __call__(self, state, action):
        self.seen.append(threading.get_ident())
        return self.real(state, action)


def test_a_slow_check_runs_on_the_worker_and_the_rested_verdict_is_the_engines(scene):
    st = scene.state
    spy = _Threads(st.rules)
    st.rules.check = spy
    try:
        x, y = _where(scene, "red-lancers")
        a, b = _px(scene, x, y), _px(scene, x, y + 4)
        scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=a))
        tool = scene.drag
        assert tool.pickup is not None and tool.checker is not None
        tool.check_cost = 1.0                     # a check known to cost more than a frame
        for k in range(1, 9):                     # the pointer on its way, frame by frame
            p = (a[0], a[1] + (b[1] - a[1]) * k // 8)
            scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 1),
                                                  buttons=(1, 0, 0)))
            scene.update(0.016)
            tool.check_cost = 1.0
        main = threading.get_ident()
        assert main not in spy.seen               # not one check on the frame's thread
        tool.settle()
        r = tool.ruling
        assert r.checked and r.detailed and r.legal
        assert r.action.path[-1] == pytest.approx(tool.to)
        assert spy.seen and main not in spy.seen     # at rest too: the worker worked it out
        assert st.check(r.action) == []           # the verdict shown is the engine's
        scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=b))
        assert st.actions[-1].type == "normal-move" and tool.checker is None
    finally:
        del st.rules.check


def test_the_latest_request_wins_and_an_answer_for_a_place_left_is_not_shown(scene):
    st = scene.state
    x, y = _where(scene, "red-lancers")
    u = st.scene.unit_index("red-lancers")
    checker = Checker(st, u, None, "normal-move", scene.table.version)
    try:
        asks = [Request(((x, y + d), None, None), False) for d in (1.0, 2.0, 3.0, 4.0)]
        for r in asks:
            checker.ask(r)
        done = checker.wait()
        assert done is not None and done.request == asks[-1]     # the newest, last
        assert done.ruling.action.path[-1] == pytest.approx((x, y + 4.0))
        assert checker.answer() is None
    finally:
        checker.close()
    # The drag tool takes an answer only for the place held now.
    x0, y0 = _px(scene, x, y)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x0, y0)))
    tool = scene.drag
    tool.check_cost = 1.0
    far = _px(scene, x, y + 3)
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=far, rel=(0, 1),
                                          buttons=(1, 0, 0)))
    stale = Checker(st, u, None, "normal-move", scene.table.version)
    try:
        stale.ask(Request(((x, y + 1.0), None, None), False))
        done = stale.wait()
        assert done is not None
        shown = tool.ruling
        tool.take(done)
        assert tool.ruling is shown and not shown.checked        # still "checking..."
    finally:
        stale.close()
        tool.cancel("")
