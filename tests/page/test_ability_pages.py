"""Warscroll abilities on the game pages (no browser): a version says the acting side's
abilities whose timing is now when they change (each with its whole text, for the hover), a
unit's passive abilities ride on its hover data, adjustments and declared abilities are worded
in the log; a scene without abilities says none."""

from __future__ import annotations

from pathlib import Path

from battlefield.page.replay import game_versions, meta, replay_html
from battlefield.rules import log
from battlefield.rules.actions import Action
from battlefield.rules.state import Game

SCENE = (Path(__file__).parents[1] / "rules" / "aos4" / "stampede.yaml").read_text(
    encoding="utf-8")


def saved_game(tmp_path) -> log.SavedGame:
    """Red passes to its charge phase, declares Unstoppable Stampede, proposes 1 mortal damage that
    blue accepts, then 2 that blue refuses."""
    state = Game(log.rules_for("aos4"), log.new_game("aos4", 1, SCENE).scene, 1).new_state()
    while state.clock["phase"] != "charge":
        state.apply(Action("end-phase"))
    state.apply(Action("ability", "red", options=(("ability", "Unstoppable Stampede"),)))
    for answer, amount in (("accept", 1), ("refuse", 2)):
        state.apply(Action("adjust", "blue", side="red", options=(
            ("kind", "mortal"), ("amount", amount), ("reason", "Unstoppable Stampede"),
            ("ability", "Unstoppable Stampede"), ("source", "red"))))
        state.apply(Action(answer, side="blue"))
    path = tmp_path / "game.jsonl"
    log.write(path, state, SCENE)
    return log.read(path)


def test_versions_show_the_abilities_now_and_the_log_words_the_adjustments(tmp_path):
    saved = saved_game(tmp_path)
    scene, versions = game_versions(saved)
    said = [v for v in versions if "abilities" in v]
    assert said and said[0]["abilities"][0]["name"] == "Unstoppable Stampede"
    assert said[0]["clock"]["phase"] == "charge"
    assert "Declare: If this unit charged" in said[0]["abilities"][0]["text"]
    assert all(v["abilities"] == [] for v in said[1:])       # gone when the phase ends
    words = [line for v in versions for line in v.get("events", []) + v.get("outcome", [])]
    text = "\n".join(words)
    assert "red declares Unstoppable Stampede (by hand): If this unit charged" in text
    assert "red proposes by hand: mortal 1 on blue (Unstoppable Stampede, from red)" in text
    assert "adjusted by hand: mortal 1 on blue (Unstoppable Stampede, from red)" in text
    assert "red proposes by hand: mortal 2 on blue (Unstoppable Stampede, from red)" in text
    assert "blue: 1 damage, mortal damage (adjusted: Unstoppable Stampede)" in text
    assert "refused by blue" in text
    units = meta(scene, {})["units"]
    assert units["red"]["passive"] == ["Stubborn (passive)\nEffect: Add 1 to save rolls for "
                                       "this unit."]
    assert "passive" not in units["blue"]
    html = replay_html(saved)
    assert 'id="abilities"' in html


def test_a_scene_without_abilities_says_none(skirmish_log):
    _, versions = game_versions(log.read(skirmish_log))
    assert not any("abilities" in v for v in versions)
