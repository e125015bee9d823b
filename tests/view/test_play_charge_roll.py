"""A charge in the seed's order in the window: a click on the unit (no drag) declares it at the
enemy nearest the cursor and rolls 2D6 at once; the charging side then decides the move - the
unit dragged, checked against that roll - or declines. (A charge dragged with its path before
any roll is try's shorthand: the roll must reach that path.)"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from battlefield.view.app import PlayScene, open_text  # noqa: E402

SIZE = (1200, 760)
R = 32 / 25.4 / 2            # a 32 mm base's radius in inches
# red (10, 22), blue (14.3, 22): 4.3" between centres, 3.04" between bases (out of combat);
# the shortest charge is 4.3 - 2R - 1/2 = 2.54": every roll but 2 (1 + 1) reaches it.
SCENE = """ruleset: aos4
board: {width: 30, depth: 30}
units:
  - {id: red, side: red, stats: {move: 5, health: 1, save: 4}, models: [{base: 32, at: [10, 22]}]}
  - {id: blue, side: blue, stats: {move: 5, health: 1, save: 4},
     models: [{base: 32, at: [14.3, 22]}]}
state:
  round: 1
  phase: charge
  active: red
  acting: red
  clock: {round: 1, turn: 1, active: red, first: red, phase: charge, acting: red,
          over: false, underdog: null}
  sides:
    red: {cp: 0, vp: 0, commands: [], spells: [], prayers: []}
    blue: {cp: 0, vp: 0, commands: [], spells: [], prayers: []}
  objectives: {}
  units: {}
  dice: 1
"""


def px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


def test_a_click_declares_and_rolls_then_the_drag_answers_the_roll(display) -> None:
    scene = PlayScene(open_text("aos4", SCENE, "charge"), SIZE)
    scene.auto_pass = True          # the decision's one button is no forced step: a drag is
    st = scene.state
    scene.draw(pygame.Surface(SIZE))
    at = px(scene, 10, 22)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=at))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=at))
    assert st.actions[-1].type == "charge" and st.actions[-1].path is None
    rolled = next(e["roll"] for e in reversed(st.events) if e.get("type") == "charge-roll")
    if rolled < 2.54:                        # the one roll that reaches nothing: failed, said
        assert not st.pending and "charge failed: no legal charge of 2\"" in str(st.events)
        return
    d = st.pending[0]
    assert (d.kind, d.side, d.get("roll"), d.open) == ("charge-move", "red", str(rolled),
                                                       ("charge",))
    scene.update(1.0)                # auto-pass on: the decision waits for the player
    assert st.pending and scene.forced() is None
    scene.draw(pygame.Surface(SIZE))
    assert [n for _, n in scene.panel.buttons][:1] == ["decline"]
    # dragged to 0.3" from blue: 2.74" <= the roll
    end = px(scene, 14.3 - 2 * R - 0.3, 22)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=at))
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0),
                                          buttons=(1, 0, 0)))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=end))
    assert not st.pending, scene.panel.message
    assert "charged" in st.units[0].flags
    assert st.actions[-1].type == "charge" and st.actions[-1].path is not None


# Rolled 7 (3 + 4): while the charge-move decision waits, the unit picked up is allowed 7" (the
# caption's "/ 7\"") and the shaded reach ends 7" from where it stands, not at 12" (the most
# 2D6 gives, the allowance before the roll).
def test_the_shaded_reach_during_the_decision_is_the_roll(display) -> None:
    scene = PlayScene(open_text("aos4", SCENE, "charge"), SIZE)
    scene.auto_pass = True
    st = scene.state
    scene.draw(pygame.Surface(SIZE))
    st.dice.fixed.extend([3, 4])
    at = px(scene, 10, 22)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=at))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=at))
    assert st.pending and st.pending[0].get("roll") == "7"
    assert st.rules.move_allowance(st, 0, "charge") == 7.0
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=at))
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=px(scene, 11, 23), rel=(0, 0),
                                          buttons=(1, 0, 0)))
    p = scene.drag.pickup
    assert p is not None and p.allowed == 7.0     # the shading is the reach within p.allowed
