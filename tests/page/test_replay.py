"""A game's versions for the page (no browser): version N is the engine's game after N actions,
with only the models that changed; the page holds them all; `replay --html` writes it and says
what is wrong in one line."""

from __future__ import annotations

import json
import re

import pytest

from battlefield.page.replay import game_versions, replay_html
from battlefield.rules import log

from .conftest import run_cli


@pytest.fixture(scope="module")
def saved(skirmish_log):
    return log.read(skirmish_log)


@pytest.fixture(scope="module")
def versions(saved):
    return game_versions(saved)


def test_every_version_is_the_engines_state_after_that_many_actions(saved, versions):
    scene, vs = versions
    assert len(vs) == len(saved.actions) + 1 and [v["v"] for v in vs] == list(range(len(vs)))
    assert len(vs[0]["models"]) == len(scene.model_names)        # the start: every model
    state = log.new_game(saved.ruleset, saved.seed, saved.scene_text).new_state()
    places: dict[str, list | None] = {}
    for n, v in enumerate(vs):
        if n:
            state.apply(saved.actions[n - 1])
        places.update(v["models"])
        t = state.table
        for i, name in enumerate(scene.model_names):
            want = None if t.unit[i] < 0 else [t.x[i], t.y[i], t.facing[i], t.z[i]]
            got = places[name]
            assert (got is None) == (want is None), (n, name)
            if want is not None:
                assert got == pytest.approx(want, abs=1e-4), (n, name)
        assert v["objectives"] == {o.id: state.objectives.get(o.id) for o in scene.objectives}
        assert v["clock"]["round"] == state.round and v["clock"]["over"] == state.over
    assert any(len(v["models"]) < len(scene.model_names) for v in vs[1:])   # only changes
    assert vs[-1]["result"].startswith(f"Battle over: {state.result().winner} wins")
    assert all("result" not in v for v in vs[:-1])


def test_an_action_comes_with_its_dice_and_events(versions):
    _, vs = versions
    rolled = [v for v in vs if v.get("rolls")]
    assert rolled and all(re.match(r"\d*D\d+ \[", r) for v in rolled for r in v["rolls"])
    # the title in the window's words, with the distance moved, never the point reached
    moved = next(v for v in vs if re.match(r'\S+ move, [\d.]+"$', v.get("action", "")))
    unit = moved["action"].split()[0]
    said = moved["outcome"] + moved["events"]
    assert any(e.startswith(f"{unit} moves ") for e in said), said      # in words
    for v in vs:
        for text in v.get("outcome", []) + v.get("events", []):
            assert "=" not in text and "{'" not in text and "False" not in text, text


def test_an_answer_is_credited_to_the_action_it_lets_resolve(versions):
    """The last morale card of a skirmish lets the skirmish resolve: the version says the
    skirmish (and the card), credited to the side that declared it."""
    _, vs = versions
    credited = [v for v in vs if v.get("credit") and v["credit"] != v["by"]]
    assert credited
    for v in credited:
        assert re.match(r"\S+ skirmish -> \S+ \(", v["action"]), v["action"]


def test_an_action_says_what_came_of_it_before_its_dice(saved, versions):
    """'outcome' is the window's own wording (rules/outcome.py) of the version's events: an
    action after which fewer models stand names the models slain (or removed), before any dice."""
    _, vs = versions
    state = log.new_game(saved.ruleset, saved.seed, saved.scene_text).new_state()

    def standing() -> int:
        return sum(int(sum(u.alive)) for u in state.units)

    losses = 0
    for n, v in enumerate(vs[1:], 1):
        before = standing()
        state.apply(saved.actions[n - 1])
        assert isinstance(v["outcome"], list) and all(isinstance(x, str) for x in v["outcome"])
        if standing() < before:
            losses += 1
            assert any("slain" in x or "removed" in x for x in v["outcome"]), (n, v["outcome"])
    assert losses, "the fixture game slays no model: pick one that does"


def test_the_page_holds_every_version_and_nothing_from_the_network(saved):
    page = replay_html(saved, "game.jsonl")
    data = json.loads(re.search(r'<script type="application/json" id="battlefield-data">'
                                r"(.*?)</script>", page, re.S).group(1))
    assert len(data["versions"]) == len(saved.actions) + 1
    assert data["names"] == log.new_game(saved.ruleset, saved.seed,
                                         saved.scene_text).scene.model_names
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)


def test_replay_html_writes_the_page_and_json_says_so(skirmish_log, tmp_path, capsys):
    out = tmp_path / "game.html"
    assert run_cli("replay", str(skirmish_log), "--html", str(out), "--json") == 0
    assert json.loads(capsys.readouterr().out)["html"] == str(out)
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_replay_html_into_a_missing_folder_or_from_a_bad_log_is_one_line(skirmish_log,
                                                                          tmp_path, capsys):
    assert run_cli("replay", str(skirmish_log), "--html", str(tmp_path / "no" / "g.html")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "does not exist" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"battlefield": 1, "ruleset": "skirmish"}\n')
    assert run_cli("replay", str(bad), "--html", str(tmp_path / "g.html")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.jsonl" in err
    assert not (tmp_path / "g.html").exists()
