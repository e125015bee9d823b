"""What the window asks and explains: a button's tooltip from the ruleset's data, a question
before a game in progress is discarded (Ctrl+O, E), the chosen ability cleared when the turn
passes, buttons that stay put when the text above them gets shorter."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.depiction import live  # noqa: E402
from battlefield.rules import registry  # noqa: E402
from battlefield.rules.actions import Action  # noqa: E402
from battlefield.rulesets import load_ruleset  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402
from battlefield.view.panels import button_tip  # noqa: E402

pytestmark = pytest.mark.usefixtures("display")


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod)


def click_button(scene: PlayScene, name: str) -> None:
    scene.draw(pygame.Surface((1200, 760)))
    rect = next(r for r, n in scene.panel.buttons if n == name)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))


@pytest.mark.parametrize("ruleset", registry.playable())
def test_every_button_only_action_says_what_it_costs(ruleset: str) -> None:
    data = load_ruleset(ruleset)
    bare = [a for a in data.actions if all(f.endswith("?") for f in a.fields)]
    assert bare and all(a.explain for a in bare), [a.id for a in bare if not a.explain]


def test_a_decision_answer_is_explained_by_its_action() -> None:
    st = open_game(None, "skirmish").state
    answers = {"commit 3": Action("commit", side="red", options=(("tokens", 3),))}
    tip = button_tip(st, "commit 3", answers)
    assert tip.startswith("commit 3: ") and "morale tokens" in tip


def test_hovering_a_button_shows_its_tooltip() -> None:
    opened = open_game(None, "openwg")
    scene = PlayScene(opened, (1200, 760))
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    rect = next(r for r, n in scene.panel.buttons if n == "stop")
    before = surf.copy()
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0),
                                          buttons=(0, 0, 0)))
    scene.draw(surf)
    assert scene.panel.hover == rect.center
    below = pygame.Rect(scene.panel.rect.left, rect.bottom + 4, scene.panel.rect.width, 30)
    changed = sum(before.get_at((x, y)) != surf.get_at((x, y))
                  for x in range(below.left, below.right, 4) for y in range(below.top,
                                                                            below.bottom, 3))
    assert changed > 20          # the tooltip box drawn under the button


def test_a_clicked_buttons_tooltip_leaves_its_verdict_in_view() -> None:
    # the tooltip sits where the panel's message is: after a click the message is what counts
    scene = PlayScene(open_game(None, "openwg"), (1200, 760))
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    rect = next(r for r, n in scene.panel.buttons if n == "stop")
    move = pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0))
    scene.handle_event(move)
    assert scene.panel.tip_off is None
    click_button(scene, "stop")
    assert scene.panel.tip_off == "stop"
    scene.draw(pygame.Surface((1200, 760)))
    nudge = (rect.centerx + 6, rect.centery)        # moved on it: not come under the pointer
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=nudge, rel=(6, 0),
                                          buttons=(0, 0, 0)))
    assert scene.panel.tip_off == "stop"
    tip = pygame.Surface((1200, 760))
    scene.panel.tip_off = None
    scene.draw(tip)
    scene.panel.tip_off = "stop"
    clear = pygame.Surface((1200, 760))
    scene.draw(clear)
    below = pygame.Rect(scene.panel.rect.left + 8, rect.bottom + 4, 200, 24)
    assert any(tip.get_at(p) == (255, 255, 225, 255) for p in
               [(x, below.centery) for x in range(below.left + 2, below.right, 4)])
    assert not any(clear.get_at(p) == (255, 255, 225, 255) for p in
                   [(x, below.centery) for x in range(below.left + 2, below.right, 4)])
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(rect.left - 40, rect.top),
                                          rel=(0, 0), buttons=(0, 0, 0)))
    assert scene.panel.tip_off is None       # off the button: its tooltip shows again later


def test_a_button_come_under_the_pointer_shows_no_tooltip_until_the_pointer_moves() -> None:
    """aos4 opens on the first-turn decision: go-first clicked, the hero phase's end-phase
    button comes where it was, under the pointer. Its tooltip would cover the message that says
    what the click did (the start phase passed by itself, and why): none until the pointer
    moves on it."""
    scene = PlayScene(open_game(None, "aos4"), (1200, 760))
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    rect = next(r for r, n in scene.panel.buttons if n == "go-first")
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0),
                                          buttons=(0, 0, 0)))
    scene.draw(surf)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    assert scene.state.actions[-1].type == "go-first"
    for _ in range(5):
        scene.update(0.016)
    scene.draw(surf)
    under = scene.panel.button_at(rect.center)
    assert under is not None and under != "go-first"
    assert scene.panel.guard.unmoved(under)
    tip = pygame.Rect(scene.panel.rect.left + 8, max(r.bottom for r, _ in scene.panel.buttons)
                      + 6, 200, 12)
    yellow = (255, 255, 225, 255)

    def tooltip_shown() -> bool:
        return any(surf.get_at((x, y)) == yellow for x in range(tip.left + 2, tip.right, 4)
                   for y in range(tip.top, tip.bottom, 3))

    assert not tooltip_shown()
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(rect.centerx + 8,
                                                                   rect.centery),
                                          rel=(8, 0), buttons=(0, 0, 0)))
    scene.draw(surf)
    assert tooltip_shown()


def test_ctrl_o_asks_before_discarding_the_game(tmp_path) -> None:
    opened = open_game(None, "aos4")
    to_phase(opened.state, "movement")
    scene = PlayScene(opened, (1200, 760), save_path=str(tmp_path / "game.jsonl"))
    scene.save()
    saved = len(scene.state.actions)
    assert scene.apply(Action("end-phase"))
    played = len(scene.state.actions)
    scene.handle_event(key(pygame.K_o, pygame.KMOD_CTRL))
    assert scene.confirm is not None and "1 unsaved" in scene.panel.message
    assert len(scene.state.actions) == played                   # nothing discarded yet
    scene.handle_event(key(pygame.K_n))
    assert scene.confirm is None and len(scene.state.actions) == played
    scene.handle_event(key(pygame.K_o, pygame.KMOD_CTRL))
    scene.handle_event(key(pygame.K_y))
    assert len(scene.state.actions) == saved                    # the saved game, loaded
    scene.handle_event(key(pygame.K_o, pygame.KMOD_CTRL))      # nothing to lose: no question
    assert scene.confirm is None


def test_editing_the_map_asks_when_the_game_has_unsaved_actions() -> None:
    opened = open_game(None, "aos4")
    scene = PlayScene(opened, (1200, 760))
    scene.handle_event(key(pygame.K_e))
    assert scene.editor is not None                              # nothing played: no question
    scene.handle_event(key(pygame.K_e))
    assert scene.apply(Action("go-first", side="red"))
    scene.handle_event(key(pygame.K_e))
    assert scene.editor is None and scene.confirm is not None
    scene.handle_event(key(pygame.K_y))
    assert scene.editor is not None


def test_the_chosen_ability_is_cleared_when_the_turn_passes() -> None:
    opened = open_game(None, "aos4")
    to_phase(opened.state, "movement")
    scene = PlayScene(opened, (1200, 760))
    click_button(scene, "run")
    assert scene.drag.wanted == "run" and scene.panel.chosen == "run"
    for _ in range(4):
        if scene.state.phase != "movement":
            break
        assert scene.apply(Action("end-phase"))
    assert scene.state.phase != "movement"
    assert scene.drag.wanted is None and scene.panel.chosen is None


def test_buttons_do_not_move_up_when_the_text_above_gets_shorter() -> None:
    opened = open_game(None, "aos4")
    scene = PlayScene(opened, (1200, 760))
    surf = pygame.Surface((1200, 760))
    scene.panel.network = "seat red; connected; " * 6          # wraps to two lines
    scene.panel.draw(surf, scene.state)
    first = [r.topleft for r, _ in scene.panel.buttons]
    scene.panel.network = ""
    scene.panel.draw(surf, scene.state)
    assert [r.topleft for r, _ in scene.panel.buttons] == first


def test_an_ability_button_asks_for_its_fighter() -> None:
    opened = open_game(None, "warband")
    st = opened.state
    for _ in range(4):
        if "rush" in st.available():
            break
        passing = next(a for a in st.available() if live.needs_nothing(st, a))
        st.apply(Action(passing))
    if "rush" not in st.available():
        pytest.skip("no rush offered in the demo's first activation")
    scene = PlayScene(opened, (1200, 760))
    before = len(st.actions)
    click_button(scene, "rush")
    assert len(scene.state.actions) == before                  # nothing applied yet
    assert scene.picking == ("rush", None) and "click" in scene.panel.message
    assert scene.panel.chosen == "rush"
    side = st.acting_side
    u = next(i for i, spec in enumerate(st.scene.units) if spec.side == side
             and not st.check(Action("rush", unit=spec.id)))
    m = st.models_of(u)[0]
    pos = scene.table.view.px(float(st.table.x[m]), float(st.table.y[m]))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                          pos=(round(pos[0]), round(pos[1]))))
    assert scene.state.actions[-1] == Action("rush", unit=st.scene.units[u].id)
    assert scene.picking is None and scene.panel.chosen is None   # used: not still lit


def test_hover_draws_a_buttons_tooltip_in_a_screenshot(tmp_path) -> None:
    from battlefield.errors import UsageError
    from battlefield.view.launch import play

    scene = play(None, "openwg", screenshot=str(tmp_path / "tip.png"), phase="movement",
                 size=(1200, 760), hover="stop")
    assert (tmp_path / "tip.png").stat().st_size > 0
    assert scene.panel.button_at(scene.panel.hover) == "stop"
    with pytest.raises(UsageError, match="--hover nosuch: no such button now"):
        play(None, "openwg", screenshot=str(tmp_path / "x.png"), size=(1200, 760),
             hover="nosuch")


def test_aim_shows_the_verdict_on_the_target_under_the_cursor_in_a_screenshot(tmp_path) -> None:
    """--aim: the engine's check of that very shot, its distance, sight and odds, before the
    click - and an illegal one says why."""
    from battlefield.errors import BattlefieldError
    from battlefield.view.launch import play

    scene = play(None, None, screenshot=str(tmp_path / "aim.png"), phase="shooting",
                 size=(1200, 760), aim=("shoot", "red-archers", "blue-drake"))
    assert (tmp_path / "aim.png").stat().st_size > 0
    said = scene.panel.message
    assert said.startswith("shoot red-archers -> blue-drake: ") and "legal; expected damage" in said
    far = play(None, None, screenshot=str(tmp_path / "far.png"), phase="shooting",
               size=(1200, 760), aim=("shoot", "red-archers", "blue-riders"))
    assert "illegal: " in far.panel.message
    with pytest.raises(BattlefieldError, match="no unit 'nobody'"):
        play(None, None, screenshot=str(tmp_path / "x.png"), size=(1200, 760),
             aim=("shoot", "red-archers", "nobody"))


def test_who_goes_first_is_a_choice_between_the_sides() -> None:
    # warband's `first` (fields ["side?"]): one button for each side, not one that picks itself
    scene = PlayScene(open_game(None, "warband"), (1200, 760))
    click_button(scene, "initiative")
    st = scene.state
    assert st.phase == "first"
    chooser = st.acting_side
    other = next(s for s in st.sides if s != chooser)
    scene.draw(pygame.Surface((1200, 760)))
    assert [n for _, n in scene.panel.buttons] == [f"first {s}" for s in st.sides]
    assert "first" in button_tip(st, f"first {other}", scene.panel.answers)
    click_button(scene, f"first {other}")
    assert scene.state.actions[-1] == Action("first", side=other)
    assert scene.state.phase == "combat" and scene.state.acting_side == other


def test_a_button_no_unit_may_use_now_is_drawn_pale() -> None:
    opened = open_game(None, "warband")
    to_phase(opened.state, "combat")
    scene = PlayScene(opened, (1200, 760))
    st = scene.state
    surf = pygame.Surface((1200, 760))
    scene.draw(surf)
    idle = scene.panel.idle(st)
    assert {"command", "rampage"} <= idle          # red holds one [double]: no triple, no quad
    assert "move" not in idle and "rush" not in idle
    rects = dict((n, r) for r, n in scene.panel.buttons)
    pale, plain = surf.get_at(rects["rampage"].move(3, 3).topleft), \
        surf.get_at(rects["move"].move(3, 3).topleft)
    assert pale != plain
    click_button(scene, "rampage")           # still a button: a fighter clicked hears why not
    assert scene.picking == ("rampage", None)
