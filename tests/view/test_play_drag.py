"""The window driven by synthetic pygame events under the dummy video driver: drag a unit, see
what the overlay shows, drop it and check the action the engine applied."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.depiction import live  # noqa: E402
from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402
from battlefield.view.launch import play  # noqa: E402


@pytest.fixture()
def scene():
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    to_phase(opened.state, "movement")
    yield PlayScene(opened, (1200, 760))
    pygame.display.quit()


def px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


def at(scene: PlayScene, uid: str) -> tuple[float, float]:
    st = scene.state
    u = st.scene.unit_index(uid)
    from battlefield.rules.moves import leader

    m = leader(st, u)
    return float(st.table.x[m]), float(st.table.y[m])


def ev(kind: int, **kw) -> pygame.event.Event:
    return pygame.event.Event(kind, **kw)


def drag(scene: PlayScene, start: tuple[float, float], end: tuple[float, float],
         release: bool = True) -> None:
    a, b = px(scene, *start), px(scene, *end)
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=a))
    scene.handle_event(ev(pygame.MOUSEMOTION, pos=b, rel=(b[0] - a[0], b[1] - a[1]),
                          buttons=(1, 0, 0)))
    if release:
        scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=b))
    elif scene.drag.pickup is not None:
        scene.drag.settle()         # held there: the worker's verdict (view/checker.py)


def last_used(scene: PlayScene) -> str:
    """How far the newest action's unit moved, from its events, in inches."""
    from battlefield.page.words import fmt_in
    from battlefield.rules.outcome import last_events

    gone = [e["distance"] for e in last_events(scene.state) if e.get("distance") is not None]
    return fmt_in(max(gone))


def test_drag_shows_live_rulings_and_drop_applies_the_move(scene: PlayScene) -> None:
    x, y = at(scene, "red-lancers")
    drag(scene, (x, y), (x, y + 4), release=False)
    r = scene.drag.ruling
    assert r is not None and r.action.type == "normal-move" and r.legal
    assert abs(r.used - 4) < 0.05 and r.allowed == 10
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)                         # draws the overlay without changing the game
    assert all(a.type in ("go-first", "end-phase") for a in scene.state.actions)   # nothing yet
    b = px(scene, x, y + 4)
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=b))
    last = scene.state.actions[-1]
    assert last.type == "normal-move" and last.unit == "red-lancers"
    assert abs(last.path[-1][1] - (y + 4)) < 0.1
    assert "done" in scene.panel.message
    # the headline words the move as the game log does: the unit, the move, how far it went
    logged = scene.panel.log_lines(scene.state)[0][0]
    assert logged == f"red-lancers normal-move, {last_used(scene)}"
    assert scene.panel.message.startswith(f"{logged}: ")


def test_too_far_is_shown_on_the_models_and_snaps_back(scene: PlayScene) -> None:
    x, y = at(scene, "red-lancers")
    drag(scene, (x, y), (x, y + 12), release=False)
    r = scene.drag.ruling
    assert r.legal is False and r.fraction > 1
    assert any("more than 10" in w for why in r.faults.values() for w in why)
    assert any(line.startswith("illegal") for line in live.describe(r))
    n = len(scene.state.actions)
    b = px(scene, x, y + 12)
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=b))
    assert len(scene.state.actions) == n
    assert "snapped back" in scene.panel.message


def test_sight_to_the_enemy_under_the_cursor(scene: PlayScene) -> None:
    st = scene.state
    from battlefield.view.held import hold

    hold(scene, "red-lancers", (14, 12), "blue-drake")
    r = scene.drag.ruling
    assert r.sight is not None and r.sight.visible in ("full", "partial", "none")
    assert any(line.startswith("sight:") for line in live.describe(r))
    assert set(r.objectives) == {o.id for o in st.scene.objectives}


def test_undo_redo_save_load(scene: PlayScene, tmp_path) -> None:
    x, y = at(scene, "red-lancers")
    drag(scene, (x, y), (x, y + 3))
    n = len(scene.state.actions)
    ctrl = pygame.KMOD_CTRL
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_z, mod=ctrl))
    assert len(scene.state.actions) == n - 1
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_y, mod=ctrl))
    assert len(scene.state.actions) == n
    path = str(tmp_path / "g.jsonl")
    scene.save(path)
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_z, mod=ctrl))
    scene.load(path)
    assert len(scene.state.actions) == n


def test_ctrl_p_saves_the_position_and_it_plays_on(scene: PlayScene, tmp_path) -> None:
    from battlefield.scene.load import load_scene

    to_phase(scene.state, "movement")
    x, y = at(scene, "red-lancers")
    drag(scene, (x, y), (x, y + 3))
    scene.save_path = str(tmp_path / "g.jsonl")
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_p, mod=pygame.KMOD_CTRL))
    path = tmp_path / "g-position.yaml"
    assert path.is_file() and str(path) in scene.panel.message
    again = open_game(str(path)).state
    assert again.fingerprint() == scene.state.fingerprint()
    assert load_scene(path).extra["state"]["phase"] == "movement"


def test_buttons_pass_the_phase_and_help_opens(scene: PlayScene) -> None:
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    rect = next(r for r, name in scene.panel.buttons if name == "end-phase")
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    assert scene.state.actions[-1].type == "end-phase"
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_h, mod=0))
    assert scene.push is not None


def test_measure_tool(scene: PlayScene) -> None:
    scene.handle_event(ev(pygame.KEYDOWN, key=pygame.K_m, mod=0))
    for uid in ("red-archers", "blue-drake"):
        scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=px(scene, *at(scene, uid))))
    assert scene.measure.result is not None and scene.measure.result["distance"] > 0


def test_computer_opponent_plays_its_turn(scene: PlayScene) -> None:
    st = scene.state
    scene.glide_s = 0.0                               # each update one action (no glide)
    scene.computer = {"red", "blue"}                  # the rest of red's turn, played for red
    for _ in range(300):
        if st.clock.get("active") == "blue":
            break
        scene.update(0.016)
    scene.computer = {"blue"}
    n, first_round = len(st.actions), st.clock.get("round")
    waited = 0
    for _ in range(300):
        if st.clock.get("active") != "blue" or st.clock.get("round") != first_round or st.over:
            break
        if st.acting_side == "red":                  # red's reactions: the human's call
            before = len(st.actions)
            by_itself = scene.forced()               # unless red has nothing to decide
            scene.update(0.016)
            if by_itself is not None:
                assert len(st.actions) == before + 1 and st.actions[-1] == by_itself
                continue
            assert len(st.actions) == before         # the computer waits for the human
            waited += 1
            must = st.check(Action("end-phase")) if not st.pending else []
            say = "decline" if st.pending else "fight" if must else "end-phase"
            rect = next(r for r, name in scene.panel.buttons if name == say)
            # as a hand does: to the button, then the click (the last click's place may hold
            # this new button: view.guard takes no click there until the pointer moves)
            for pos in ((0, 0), rect.center):
                scene.handle_event(ev(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
            scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
            if must:                                 # units in combat must fight: click one
                where = at(scene, must[0].message.rsplit(": ", 1)[1].split(", ")[0])
                drag(scene, where, where)
            scene.draw(pygame.Surface((1200, 760)))
            continue
        scene.update(0.016)
        scene.draw(pygame.Surface((1200, 760)))      # the panel's buttons follow the game
    played = st.actions[n:]
    assert waited
    # The computer played blue's turn to its end: blue's is the second turn of round 1 (red,
    # which set up first, chose the first), so its end ends the battle round and round 2
    # begins with the priority roll's winner deciding who takes its first turn.
    assert (first_round, st.clock["round"], st.over) == (1, 2, False)
    assert st.pending[0].kind == "first-turn"
    red = [a for a in played if a.type in ("decline", "fight") and a.side != "blue"
           and (a.unit is None or st.side_of(st.unit_index(a.unit)) == "red")]
    assert played and all(a.side in (None, "blue") for a in played
                          if a.type != "end-phase" and a not in red)
    assert any(a.type not in ("end-phase", "end-turn") for a in played)


def test_the_reachable_region_goes_round_terrain_and_the_drop_follows_it(
        scene: PlayScene) -> None:
    # The pyromancer (22.5, 11.15; move 6"; a 40 mm base, R = 0.787") behind the 6" ruin-sw,
    # whose bar ends at x = 25: straight to (26, 15) clips the ruin (5.20" + 12" climbing).
    # The whole base goes round its corner C = (25, 13): tangent from the start to the circle
    # of radius R round C, the arc, tangent to the end: with d1 = |SC| = 3.1101 and
    # d2 = |EC| = 2.2361, sqrt(d1^2 - R^2) + sqrt(d2^2 - R^2) + R (206.93 deg in radians
    # - acos(R / d1) - acos(R / d2)) = 3.0087 + 2.0928 + 0.8551 = 5.9566" by hand; the route
    # turns at the corners of a polygon just enclosing that arc: up to 0.04" longer.
    from battlefield.view.held import hold

    hold(scene, "red-pyromancer", (26, 15))
    d = scene.drag
    r = d.ruling
    assert d.pickup.reach is not None
    assert r.legal and 5.9566 - 1e-6 <= r.used <= 5.9566 + 0.04
    turns = np.asarray(r.action.path[1:-1])
    gap = np.hypot(turns[:, 0] - 25, turns[:, 1] - 13)
    assert len(turns) >= 1 and (gap >= 0.787).all() and (gap <= 0.787 + 0.05).all()
    field = d.pickup.reach
    assert field.within(6.0)[field.cell(26, 15)]
    assert not field.within(6.0)[field.cell(22.5, 16.5)]     # over the ruin: out of reach
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    # The shading is on the table where the region is, and not where it is not.
    inside = surf.get_at(px(scene, 22.5, 9.0))
    outside = surf.get_at(px(scene, 22.5, 3.0))
    assert inside != outside
    # Dropped a little short of (26, 15) (5.99" of 6" there: a pixel further could be too far)
    # and clear of the ruin's top corner (25, 14.2) by more than the base and a cell.
    b = px(scene, 26, 14.8)
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=b))
    last = scene.state.actions[-1]
    assert last.type == "normal-move" and len(last.path) >= 3


def test_the_window_lays_out_again_when_resized(scene: PlayScene) -> None:
    """Fitted, the board refits to the new size; zoomed, the point at the centre stays."""
    scene.handle_event(ev(pygame.VIDEORESIZE, w=1500, h=900, size=(1500, 900)))
    assert scene.panel.rect.right == 1500 and scene.table.rect.height == 900
    assert scene.table.view == scene.table.fit_view()
    scene.table.zoom(2.0, scene.table.rect.center)
    centre = scene.table.view.table(*scene.table.rect.center)
    scene.handle_event(ev(pygame.VIDEORESIZE, w=1400, h=800, size=(1400, 800)))
    assert scene.table.view.table(*scene.table.rect.center) == pytest.approx(centre)
    surf = pygame.Surface((1500, 900))
    scene.draw(surf)


def test_screenshot_of_the_drag(tmp_path) -> None:
    out = tmp_path / "drag.png"
    play("demo", phase="movement", drag="red-lancers", to=(12.5, 12), screenshot=str(out),
         size=(1000, 640))
    img = pygame.image.load(str(out))
    assert img.get_size() == (1000, 640)


def test_a_charge_dropped_beside_the_enemy_targets_it_and_a_failed_roll_says_so(
        tmp_path) -> None:
    from battlefield.rules.actions import Action
    from battlefield.view.app import Opened

    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    st = opened.state
    to_phase(st, "movement")
    st.apply(Action("normal-move", "red-lightkeeper", path=((31, 9.5), (34.5, 13))))
    to_phase(st, "charge")
    scene = PlayScene(Opened(st, opened.scene_text, opened.name), (1200, 760))
    # Grab the lightkeeper by its centre and drop it beside blue-drake, the cursor on no one.
    drag(scene, (34.5, 13), (43.5, 18.1), release=False)
    r = scene.drag.ruling
    assert scene.drag.target == st.scene.unit_index("blue-drake")
    assert r.action.target == "blue-drake" and r.legal and r.notes.odds is not None
    st.dice.fixed.extend([2, 3])               # 5 on 2D6: short of the 10.21" needed
    scene.handle_event(ev(pygame.MOUSEBUTTONUP, button=1, pos=px(scene, 43.5, 18.1)))
    assert st.actions[-1].type == "charge"
    assert "charge failed" in scene.panel.message
    assert at(scene, "red-lightkeeper") == pytest.approx((34.5, 13))
    pygame.display.quit()


def test_a_click_on_a_unit_in_combat_fights_where_it_stands() -> None:
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    to_phase(opened.state, "combat")
    scene = PlayScene(opened, (1200, 760))
    scene.draw(pygame.Surface((1200, 760)))
    rect = next(r for r, name in scene.panel.buttons if name == "fight")
    scene.handle_event(ev(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    where = at(scene, "red-blades")
    drag(scene, where, where)                  # a click: press and release in place
    last = scene.state.actions[-1]
    assert last.type == "fight" and last.unit == "red-blades" and last.target == "blue-drake"
    assert at(scene, "red-blades") == pytest.approx(where)
    pygame.display.quit()


def test_a_ruling_the_pointer_has_left_is_not_shown_as_current(scene: PlayScene,
                                                                monkeypatch) -> None:
    """The reported case (a busy machine): the caption said a verdict of a place the pointer
    had left 7" behind. With a motion waiting in the queue to a place far from the ruled
    one, the caption keeps the distance but says "checking..." instead of the verdict."""
    x, y = at(scene, "red-lancers")
    drag(scene, (x, y), (x, y + 1), release=False)
    st = scene.state
    scene.drag.update_ruling(engine=True, detail=True)
    said = [text for text, _ in scene.drag.caption()]
    assert "legal" in said
    pygame.event.clear()
    far = px(scene, x, y + 8)
    pygame.event.post(ev(pygame.MOUSEMOTION, pos=far, rel=(0, 0), buttons=(1, 0, 0)))
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: far)
    said = [text for text, _ in scene.drag.caption()]
    assert said[-1] == "checking..." and "legal" not in said
    assert said[0].startswith("normal-move: ") and said[0].endswith('/ 10"')   # ruled on
    scene.draw(pygame.Surface((1200, 760)))
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: px(scene, x, y + 1))   # a tremble
    assert "legal" in [text for text, _ in scene.drag.caption()]
    pygame.event.clear()
    assert "legal" in [text for text, _ in scene.drag.caption()]
    assert st.table is scene.state.table


def test_a_run_of_pointer_motions_is_one_motion() -> None:
    from battlefield.view.frames import coalesced

    pygame.display.init()
    try:
        held = (1, 0, 0)
        moves = [ev(pygame.MOUSEMOTION, pos=(10 + k, 20), rel=(1, 0), buttons=held)
                 for k in range(20)]
        click = ev(pygame.MOUSEBUTTONUP, button=1, pos=(29, 20))
        after = ev(pygame.MOUSEMOTION, pos=(40, 20), rel=(11, 0), buttons=(0, 0, 0))
        out = coalesced([*moves, click, after])
        assert [e.type for e in out] == [pygame.MOUSEMOTION, pygame.MOUSEBUTTONUP,
                                         pygame.MOUSEMOTION]
        assert out[0].pos == (29, 20) and out[0].rel == (20, 0) and out[0].buttons == held
        assert out[2] is after
    finally:
        pygame.display.quit()
