"""Clicks that would decide by accident (view/guard.py): a button that appears under the
pointer takes no click for a moment nor until the pointer moves; a choice that spends
something (command points, morale tokens) can be taken back until the player's next action."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view import guard  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402

pytestmark = pytest.mark.usefixtures("display")
SIZE = (1200, 760)
HERE = pygame.Rect(100, 100, 80, 24)


@pytest.mark.parametrize(("pointer", "moves", "after", "blocked"), [
    ((120, 110), [], 0.1, True),                     # appeared under it: not at once
    ((120, 110), [], 5.0, True),                     # ... nor later while it has not moved
    ((120, 110), [(122, 111)], 5.0, True),           # a tremble of 2 px is not a move
    ((120, 110), [(140, 115)], 0.1, True),           # moved, but too soon
    ((120, 110), [(140, 115)], guard.GUARD_S + 0.01, False),   # moved, a moment passed
    ((120, 110), [(300, 300), (120, 110)], 0.1, False),   # left it and came back: meant
    ((20, 20), [], 0.0, False),                      # appeared away from the pointer
    (None, [], 0.0, False),                          # no pointer seen yet
])
def test_a_button_that_appears_under_the_pointer(pointer, moves, after, blocked) -> None:
    g = guard.ButtonGuard()
    if pointer is not None:
        g.pointer_at(pointer)
    g.drawn([(HERE, "decline")], now=10.0)
    for m in moves:
        g.pointer_at(m)
    assert g.blocks("decline", now=10.0 + after) is blocked


def test_a_button_that_stays_where_it_was_takes_clicks() -> None:
    g = guard.ButtonGuard()
    g.drawn([(HERE, "end-phase")], now=0.0)
    g.pointer_at(HERE.center)
    g.drawn([(HERE, "end-phase")], now=1.0)         # drawn again, the same
    assert not g.blocks("end-phase", now=1.0)
    g.drawn([(HERE, "all-out-defence")], now=2.0)   # another in its place: fresh
    assert g.blocks("all-out-defence", now=2.1)


def _in_combat() -> PlayScene:
    opened = open_game(None, "aos4")
    to_phase(opened.state, "combat")
    return PlayScene(opened, SIZE)


def _draw(scene: PlayScene) -> None:
    scene.draw(pygame.Surface(SIZE))


def _rect(scene: PlayScene, name: str) -> pygame.Rect:
    return next(r for r, n in scene.panel.buttons if n == name)


def _click(scene: PlayScene, pos) -> None:
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))


def _move(scene: PlayScene, pos) -> None:
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                          buttons=(0, 0, 0)))


def _answer_spot() -> tuple[int, int]:
    """Where the first answer of blue's All-out Defence decision is drawn."""
    scene = _in_combat()
    scene.apply(Action("fight", unit="red-blades", target="blue-drake"))
    _draw(scene)
    return scene.panel.buttons[0][0].center


def test_a_decision_that_appears_under_the_pointer_takes_no_click(monkeypatch):
    """The reported case: the pointer at rest where an attack's decision then draws its first
    answer (aos4: where end-phase was); the click that was meant for what was there before
    spends nothing."""
    spot = _answer_spot()
    scene = _in_combat()
    st = scene.state
    _draw(scene)
    _move(scene, spot)
    scene.apply(Action("fight", unit="red-blades", target="blue-drake"))
    assert st.pending and st.pending[0].side == "blue"
    _draw(scene)
    under = scene.panel.button_at(spot)
    assert under is not None and under in scene.panel.answers
    cp = dict(st.sides["blue"])
    _click(scene, spot)
    assert st.pending and st.sides["blue"] == cp               # nothing decided
    assert "just appeared under the pointer" in scene.panel.message
    # moved off and back, a moment later: now the click is meant
    now = [guard.time.monotonic()]
    monkeypatch.setattr(guard.time, "monotonic", lambda: now[0])
    _move(scene, (spot[0] + 30, spot[1] + 30))
    _move(scene, spot)
    now[0] += guard.GUARD_S
    _click(scene, spot)
    assert not st.pending


def test_all_out_defence_can_be_taken_back_until_the_next_action() -> None:
    scene = _in_combat()
    st = scene.state
    scene.apply(Action("fight", unit="red-blades", target="blue-drake"))
    before = (len(st.actions), st.sides["blue"]["cp"])
    _draw(scene)
    answer = next(n for n in scene.panel.answers if n.startswith("all-out-defence"))
    scene.button(answer)
    assert st.sides["blue"]["cp"] == before[1] - 1
    _draw(scene)
    label = scene.take_back.label
    assert label == "take back all-out-defence blue-drake" and label in \
        [n for _, n in scene.panel.buttons]
    scene.button(label)
    assert (len(st.actions), st.sides["blue"]["cp"]) == before
    assert st.pending and st.pending[0].kind == "all-out-defence"     # to choose again
    assert scene.take_back is None and "took back" in scene.panel.message


def test_the_next_action_ends_the_take_back() -> None:
    scene = _in_combat()
    scene.apply(Action("fight", unit="red-blades", target="blue-drake"))
    _draw(scene)
    scene.button(next(n for n in scene.panel.answers if n.startswith("all-out-defence")))
    assert scene.take_back is not None
    st = scene.state
    assert scene.apply(st.rules.player().choose(st))      # the player's next action
    assert scene.take_back is None


def test_a_morale_commitment_can_be_taken_back_and_commit_0_spends_nothing() -> None:
    opened = open_game(None, "skirmish")
    st = opened.state
    scene = PlayScene(opened, SIZE)
    scene.apply(Action("skirmish", unit="red-scouts", target="blue-scouts"))
    _draw(scene)
    assert st.pending and st.pending[0].side == "red"
    scene.button("commit 4")
    assert scene.take_back is not None and scene.take_back.what == "commit 4"
    scene.button(scene.take_back.label)
    assert st.pending and st.pending[0].side == "red" and len(st.actions) == 1
    _draw(scene)
    scene.button("commit 0")
    assert scene.take_back is None                  # costs nothing: nothing to take back


def _at_movement(monkeypatch) -> tuple[PlayScene, list[float]]:
    """aos4's demo in red's movement phase, the clock in the test's hand."""
    opened = open_game(None, "aos4")
    to_phase(opened.state, "movement")
    scene = PlayScene(opened, SIZE)
    now = [100.0]
    monkeypatch.setattr(guard.time, "monotonic", lambda: now[0])
    return scene, now


@pytest.mark.parametrize("frame_between", [True, False])
def test_a_double_click_on_end_phase_ends_one_phase(monkeypatch, frame_between) -> None:
    """The reported case (aos4: hero then movement gone): the next phase's `end-phase` is the
    same name in the same place, yet another button; two clicks 200 ms apart end one phase,
    with a frame drawn between them or not."""
    scene, now = _at_movement(monkeypatch)
    st = scene.state
    _draw(scene)
    spot = _rect(scene, "end-phase").center
    _move(scene, spot)
    before = len(st.actions)
    _click(scene, spot)
    after = st.phase, len(st.actions)
    assert after[1] == before + 1
    if frame_between:
        _draw(scene)
        assert _rect(scene, "end-phase").center == spot       # the same place
    now[0] += 0.2
    _click(scene, spot)
    assert (st.phase, len(st.actions)) == after
    _draw(scene)
    now[0] += 5.0
    _click(scene, spot)                                     # a long wait, the pointer still
    assert (st.phase, len(st.actions)) == after
    _move(scene, (spot[0] + 6, spot[1]))                    # moved on it, a moment later
    _click(scene, (spot[0] + 6, spot[1]))
    assert len(st.actions) == after[1] + 1


def test_a_button_moved_under_the_pointer_takes_no_click() -> None:
    g = guard.ButtonGuard()
    g.drawn([(HERE, "end-phase"), (HERE.move(0, 30), "take back commit 2")], now=0.0,
            version=1)
    g.pointer_at(HERE.center)
    g.drawn([(HERE.move(0, -30), "end-phase"), (HERE, "take back commit 2")], now=1.0,
            version=1)
    assert g.blocks("take back commit 2", now=1.1, version=1)


def test_buttons_drawn_for_another_state_take_no_click() -> None:
    g = guard.ButtonGuard()
    g.drawn([(HERE, "end-phase")], now=0.0, version=1)
    assert not g.blocks("end-phase", now=5.0, version=1)
    assert g.blocks("end-phase", now=5.0, version=2)       # the game moved on since the frame


def test_the_take_back_button_keeps_its_row_when_the_choices_above_shrink(monkeypatch) -> None:
    """The reported case: `take back all-out-defence` jumped up a row when the row of
    abilities above it shrank."""
    scene = _in_combat()
    st = scene.state
    scene.apply(Action("fight", unit="red-blades", target="blue-drake"))
    _draw(scene)
    scene.button(next(n for n in scene.panel.answers if n.startswith("all-out-defence")))
    many = ["end-phase", "fight", "pile-in", "all-out-attack", "all-out-defence", "redeploy",
            "rally", "magical-intervention"]
    monkeypatch.setattr(st, "available", lambda: list(many))
    _draw(scene)
    label = scene.take_back.label
    first = _rect(scene, label)
    assert first.left == scene.panel.rect.left + 12            # a row of its own
    monkeypatch.setattr(st, "available", lambda: ["end-phase"])
    _draw(scene)
    assert _rect(scene, label) == first
