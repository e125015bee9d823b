"""aos4's normal player spends command points where the easy one does not: All-out Attack on
attacks worth it and At the Double on long runs, every such action accepted by the engine
(rules/aos4/normal.py)."""

from __future__ import annotations

from collections import Counter

from battlefield.rules import registry
from battlefield.rules.aos4.commands import given
from battlefield.rules.battle import play
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text


def _commands(level: str) -> Counter[str]:
    text, name = battle_scene("aos4", None)
    game = Game(registry.get("aos4"), load_scene_text(text, name), 2)
    seen: Counter[str] = Counter()

    def looked(state, action) -> None:
        assert not state.check(action)
        seen.update(given(action))

    play(game, kinds={s: level for s in game.scene.sides}, on_choice=looked)
    return seen


def test_normal_gives_the_commands_easy_never_does():
    normal, easy = _commands("normal"), _commands("easy")
    assert normal["all-out-attack"] > 0 and normal["at-the-double"] > 0
    assert easy["all-out-attack"] == easy["at-the-double"] == 0
