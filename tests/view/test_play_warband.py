"""A warband round in the window (synthetic events, dummy video driver): red, a person, rolls
the initiative and chooses who goes first with buttons, drags a fighter with its Move, ends
activations with wait (a button, then the fighter), answers reactions and passes; blue is the
computer. The round ends and the next one's initiative comes up."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules.warband.turns import left  # noqa: E402
from battlefield.view.app import PlayScene, open_game  # noqa: E402

SIZE = (1200, 760)


@pytest.fixture()
def scene():
    pygame.display.init()
    pygame.font.init()
    scene = PlayScene(open_game("demo-warband"), SIZE, computer=("blue",))
    scene.glide_s = 0.0                # each update one action (no glide)
    yield scene
    pygame.display.quit()


def px(scene: PlayScene, x: float, y: float) -> tuple[int, int]:
    p = scene.table.view.px(x, y)
    return round(p[0]), round(p[1])


def click(scene: PlayScene, name: str) -> None:
    scene.draw(pygame.Surface(SIZE))
    rect = next(r for r, label in scene.panel.buttons if label == name)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))


def click_table(scene: PlayScene, x: float, y: float) -> None:
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=px(scene, x, y)))


def drag(scene: PlayScene, start: tuple[float, float], end: tuple[float, float]) -> None:
    a, b = px(scene, *start), px(scene, *end)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=a))
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=b,
                                          rel=(b[0] - a[0], b[1] - a[1]), buttons=(1, 0, 0)))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=b))


def test_a_round_in_the_window(scene: PlayScene) -> None:
    st = scene.state
    click(scene, "initiative")
    st = scene.state
    assert st.clock["phase"] == "first" and st.sides["red"]["rolled"]
    for _ in range(20):                      # blue may hold the initiative: the computer chooses
        if scene.state.clock["phase"] == "combat":
            break
        if scene.state.acting_side == "red":
            click(scene, "first red")
        else:
            scene.update(0.016)
    dragged = False
    for _ in range(400):
        st = scene.state
        if st.round > 1:
            break
        if st.acting_side == "blue":
            scene.update(0.016)
            continue
        if st.pending:
            click(scene, "no-reaction")
            continue
        if st.available() == ["pass"]:
            click(scene, "pass")
            continue
        uid = st.clock["activating"] or st.scene.units[left(st, "red")[0]].id
        u = st.unit_index(uid)
        m = int(st.models_of(u)[0])
        x, y = float(st.table.x[m]), float(st.table.y[m])
        if not dragged:
            n = len(st.actions)
            drag(scene, (x, y), (x + 1.5, y))
            assert scene.state.actions[n].type == "move"
            dragged = True
            continue
        click(scene, "wait")
        click_table(scene, x, y)
    st = scene.state
    assert st.round == 2 and st.clock["phase"] == "initiative"
    assert any(a.type == "wait" for a in st.actions)
    scene.draw(pygame.Surface(SIZE))
    assert [label for _, label in scene.panel.buttons] == ["initiative"]


def test_a_loaded_game_on_another_board_is_shown_whole(tmp_path) -> None:
    """The window opened on aos4's 60" x 44" demo loads a warband log (30" x 22"): the new
    board fills the table as a fresh window would show it (it was drawn at the old scale, in a
    corner)."""
    from battlefield.cli.main import main

    saved = tmp_path / "warband.yaml"
    assert main(["simulate", "--ruleset", "warband", "--seed", "2", "--log", str(saved)]) == 0
    pygame.display.init()
    pygame.font.init()
    try:
        aos4 = PlayScene(open_game("demo"), SIZE)
        aos4.load(str(saved))
        fresh = PlayScene(open_game("demo-warband"), SIZE)
        assert aos4.state.scene.width == 30
        assert aos4.table.view == fresh.table.view
        # the dice panel shows a warband initiative roll as its dice, not as their sum
        rolls = [r for r in aos4.state.dice.log if r.purpose.startswith("initiative: ")]
        assert rolls and not rolls[0].summed and "=" not in rolls[0].shown
    finally:
        pygame.display.quit()


def test_objective_labels_are_drawn_once_while_a_fighter_is_in_the_hand(scene):
    """The drag labels each objective with who would hold it after the drop; the layer under
    it then leaves out its own label of the objective (both were drawn, one over the other)."""

    def objective_labels() -> list[str]:
        return [s["a"]["data-label-objective"] for s in scene.table.depiction.layers["labels"]
                if "data-label-objective" in s.get("a", {})]

    scene.table.units_layer()
    assert len(objective_labels()) == len(scene.state.scene.objectives)
    scene.table.units_layer(hidden=0)
    assert objective_labels() == []
