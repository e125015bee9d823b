"""An attack at several targets in the window (view/volley.py): shift-click lists a further
target, the panel previews each target's attacks and odds, a weapon's button sends all its
attacks at one target, and the action sent is the one `battlefield try` takes (a target list
and its "split"), played as previewed."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402

SCENE = str(Path(__file__).with_name("volley.yaml"))
SIZE = (1200, 760)


def click(scene: PlayScene, pos: tuple[int, int], shift: bool = False) -> None:
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos,
                                          shift=shift))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos,
                                          shift=shift))
    scene.draw(pygame.Surface(SIZE))


def press(scene: PlayScene, name: str) -> None:
    assert name in [n for _, n in scene.panel.buttons], [n for _, n in scene.panel.buttons]
    scene.button(name)
    scene.draw(pygame.Surface(SIZE))


def px(scene: PlayScene, uid: str) -> tuple[int, int]:
    st = scene.state
    m = st.models_of(st.scene.unit_index(uid))[0]
    p = scene.table.view.px(float(st.table.x[m]), float(st.table.y[m]))
    return round(p[0]), round(p[1])


def attacks_of(events: list[dict]) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for e in events:
        if e.get("type") == "attack":
            key = (e["target"], e["weapon"])
            out[key] = out.get(key, 0) + e["attacks"]
    return out


def test_shift_click_lists_targets_and_the_weapon_buttons_make_the_split(display) -> None:
    opened = open_game(SCENE)
    to_phase(opened.state, "shooting")
    scene = PlayScene(opened, SIZE)
    st = scene.state
    scene.draw(pygame.Surface(SIZE))
    press(scene, "shoot")
    click(scene, px(scene, "red-archers"))
    assert scene.picking == ("shoot", "red-archers")
    click(scene, px(scene, "blue-a"), shift=True)
    click(scene, px(scene, "blue-b"), shift=True)
    assert scene.volley is not None and scene.volley.targets == ["blue-a", "blue-b"]
    said = scene.panel.message
    # The engine's default: each model's attacks dealt in turn (model 1's Longbow a, b; its
    # Javelins a; model 2's Longbow b, a; its Javelins b).
    assert said.startswith("shoot red-archers -> blue-a + blue-b: legal"), said
    assert "blue-a: Longbow 2 attacks, Javelins 1 attack" in said
    assert "blue-b: Longbow 2 attacks, Javelins 1 attack" in said
    assert [n for _, n in scene.panel.buttons][-3:] == [
        "shoot at 2 targets", "Longbow: shared", "Javelins: shared"]
    press(scene, "Longbow: shared")
    assert "Longbow: all at blue-a" in [n for _, n in scene.panel.buttons]
    press(scene, "Longbow: all at blue-a")
    assert "Longbow: all at blue-b" in [n for _, n in scene.panel.buttons]
    said = scene.panel.message
    # Longbow Hit 4+ Wound 4+ Rend 1 against Save 6: no save, 1/4 a damage; Javelins Hit 3+
    # Wound 3+ Save 6: 2/3 * 2/3 * 5/6 = 10/27. At blue-b (two 1-wound models): 4 Longbow
    # attacks and 1 Javelin: P(0) = (3/4)^4 * 17/27 = 0.19922, P(1) = 4 * 1/4 * (3/4)^3 * 17/27
    # + (3/4)^4 * 10/27 = 0.38281; expected damage P(>=1) + P(>=2) = 0.80078 + 0.41797 = 1.22.
    assert "blue-b: Longbow 4 attacks, Javelins 1 attack; expected damage 1.22" in said, said
    assert "blue-a: Javelins 1 attack" in said
    sent = scene.volley.action(st)
    assert sent == Action.from_dict({
        "type": "shoot", "unit": "red-archers", "target": ["blue-a", "blue-b"],
        "split": {"blue-b": [{"model": 1, "weapon": "Longbow"},
                             {"model": 2, "weapon": "Longbow"}]}})
    before = len(st.actions)
    press(scene, "shoot at 2 targets")
    assert scene.volley is None and scene.picking is None
    assert st.actions[before] == sent
    # the attack waits on the defender's All-out Defence (declined) before its dice: played as
    # the preview said
    done = st.apply(next(c for c in st.pending[0].choices if c.type == "decline"))
    assert attacks_of(done) == {("blue-b", "Longbow"): 4, ("blue-a", "Javelins"): 1,
                                ("blue-b", "Javelins"): 1}


def test_a_second_shift_click_takes_a_target_off_and_a_plain_click_sends(display) -> None:
    opened = open_game(SCENE)
    to_phase(opened.state, "shooting")
    scene = PlayScene(opened, SIZE)
    st = scene.state
    scene.draw(pygame.Surface(SIZE))
    press(scene, "shoot")
    click(scene, px(scene, "red-archers"))
    click(scene, px(scene, "blue-a"), shift=True)
    click(scene, px(scene, "blue-b"), shift=True)
    click(scene, px(scene, "blue-a"), shift=True)
    assert scene.volley.targets == ["blue-b"]
    before = len(st.actions)
    click(scene, px(scene, "blue-a"))
    assert st.actions[before] == Action("shoot", "red-archers", target=("blue-b", "blue-a"))


def test_a_fight_dropped_with_shift_waits_for_a_further_target(display) -> None:
    opened = open_game(SCENE)
    to_phase(opened.state, "combat")
    scene = PlayScene(opened, SIZE)
    st = scene.state
    scene.draw(pygame.Surface(SIZE))
    click(scene, px(scene, "red-blades"), shift=True)     # fight where it stands, held
    assert scene.volley is not None, scene.panel.message
    first = scene.volley.targets[0]
    other = ({"blue-c", "blue-d"} - {first}).pop()
    assert scene.panel.message.startswith(f"fight red-blades -> {first}: legal")
    before = len(st.actions)
    click(scene, px(scene, other))
    assert st.actions[before] == Action("fight", "red-blades", target=(first, other))
