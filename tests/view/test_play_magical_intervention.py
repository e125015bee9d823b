"""Magical Intervention in the window and on the play page: in the enemy hero phase the side
acting then (which may pay its command point) has a magical-intervention button; clicked, its
choices - each spell or prayer a unit may cast or chant with it, at each target - replace it,
and a choice gives that very action with "command": "magical-intervention". In a side's own
hero phase there is none (it casts without it)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from battlefield.rules.actions import Action  # noqa: E402
from battlefield.server.offers import offers  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402

SIZE = (1200, 760)
MI = "magical-intervention"


def enemy_hero_phase():
    opened = open_game(None)
    to_phase(opened.state, "hero")                 # red's hero phase: red acts first
    assert opened.state.acting_side == "red"
    return opened


def names(scene: PlayScene) -> list[str]:
    scene.draw(pygame.Surface(SIZE))
    return [n for _, n in scene.panel.buttons]


def test_the_button_in_the_enemy_hero_phase_gives_a_spell_with_the_command(display) -> None:
    opened = enemy_hero_phase()
    scene = PlayScene(opened, SIZE)
    st = scene.state
    assert MI not in names(scene)                  # red's own hero phase: cast without it
    st.apply(Action("end-phase"))                  # blue acts in red's hero phase
    assert st.acting_side == "blue" and st.active == "red"
    assert MI in names(scene)
    assert "click magical-intervention" in scene.panel.now_line
    scene.button(MI)
    shown = names(scene)
    assert MI not in shown and "blue-cantor: sacred-rites" in shown
    assert "blue-seer: tidewall -> blue-riders" in shown
    cp = st.sides["blue"]["cp"]
    before = len(st.actions)
    scene.button("blue-cantor: sacred-rites")
    assert st.actions[before] == Action("sacred-rites", "blue-cantor",
                                        options=(("command", MI),))
    assert st.sides["blue"]["cp"] == cp - 1        # Magical Intervention: 1 command point
    # used this phase ("each command once per phase"): no button now
    assert MI not in names(scene)


def test_the_play_page_offers_a_button_per_choice(display) -> None:
    opened = enemy_hero_phase()
    st = opened.state
    assert not [b for b in offers(st, "red", 1)["buttons"] if b["label"].startswith(MI)]
    st.apply(Action("end-phase"))
    got = {b["label"]: b["action"] for b in offers(st, "blue", 1)["buttons"]
           if b["label"].startswith(MI)}
    assert got[f"{MI}: blue-cantor: sacred-rites"] == {
        "type": "sacred-rites", "unit": "blue-cantor", "command": MI}
    assert got[f"{MI}: blue-seer: tidewall -> blue-riders"] == {
        "type": "tidewall", "unit": "blue-seer", "target": "blue-riders", "command": MI}
    for action in got.values():
        assert not st.check(Action.from_dict(action))
    st.sides["blue"]["cp"] = 0                     # cannot pay: no button
    assert not [b for b in offers(st, "blue", 1)["buttons"] if b["label"].startswith(MI)]
