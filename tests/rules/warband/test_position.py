"""A warband position's dice are checked field by field: ability dice that are no combination
("[bogus] 6", a score of 99, a number, null) are refused by validate and try in one line naming
the key, never a crash in try or a server's game, and never played."""

from __future__ import annotations

import pytest
import yaml

from battlefield.cli.main import main
from battlefield.errors import InputError
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.rules.trial import scene_after
from battlefield.scene.load import load_scene_text


def _position(**red) -> str:
    """The demo battle after the first initiative roll, red's dice replaced by `red`."""
    text, name = battle_scene("warband", None)
    state = Game(registry.get("warband"), load_scene_text(text, name), 3).new_state()
    state.apply(Action("initiative"))
    doc = scene_after(state)
    doc["state"]["sides"]["red"].update(red)
    return yaml.safe_dump(doc, sort_keys=False)


@pytest.mark.parametrize("dice, why", [
    ([1], "1 is not an ability die"), ([None], "None is not an ability die"),
    (["x"], "'x' is not an ability die"), (["[bogus] 6"], "is not an ability die"),
    (["[quad] 99"], "is not an ability die"), (["[double] 0"], "is not an ability die")])
def test_ability_dice_that_are_no_combination_are_refused_at_their_key(dice, why, tmp_path,
                                                                       capsys):
    text = _position(ability_dice=dice)
    with pytest.raises(InputError) as err:
        Game(registry.get("warband"), load_scene_text(text, "p.yaml"), 3).new_state()
    line = str(err.value)
    assert "\n" not in line and "state.sides.red.ability_dice[0]" in line and why in line
    path = tmp_path / "p.yaml"
    path.write_text(text)
    assert main(["validate", str(path)]) == 2
    assert main(["try", str(path), "--action", '{"type": "pass"}']) == 2
    err_text = capsys.readouterr().err
    assert "Traceback" not in err_text and "ability_dice" in err_text


@pytest.mark.parametrize("field, value", [("rolled", [7, 1]), ("rolled", [1] * 7),
                                          ("singles", -1), ("singles", 9)])
def test_the_roll_and_the_reaction_dice_are_checked_too(field, value):
    with pytest.raises(InputError, match=f"state.sides.red.{field}"):
        Game(registry.get("warband"), load_scene_text(_position(**{field: value}), "p.yaml"),
             3).new_state()


def test_a_position_with_real_ability_dice_is_played_on():
    text = _position(ability_dice=["[double] 6", "[quad] 2"])
    state = Game(registry.get("warband"), load_scene_text(text, "p.yaml"), 3).new_state()
    assert state.sides["red"]["ability_dice"] == ["[double] 6", "[quad] 2"]
    players = {side: registry.get("warband").player() for side in state.sides}
    for _ in range(10):
        state.apply(players[state.acting_side].choose(state))
