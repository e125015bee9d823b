"""The pages opened in a real headless browser (chromium): the HTML ruling of the demo scene
shows an element for every model at the scene's centres (as `measure` places them), the
objectives with their controllers and the hover data; a game page at #v=0 shows the start and at
a later version a moved unit at the engine's new places, with the clock, dice and events of that
action and the result at the end; a screenshot is not blank. Skipped, saying why, only where no
browser is installed."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import numpy as np
import pygame
import pytest

from battlefield.cli.common import open_scene
from battlefield.page.browser import dump_dom, screenshot, url_of
from battlefield.rules import log
from battlefield.rulings import Referee

from .conftest import Dom, run_cli


@pytest.fixture(scope="module")
def ruling_page(tmp_path_factory, browser) -> tuple[Path, Dom]:
    out = tmp_path_factory.mktemp("ruling") / "ruling.html"
    assert run_cli("render", "demo", "-o", str(out), "--measure", "red-archers",
                   "blue-drake") == 0
    return out, Dom(dump_dom(url_of(out)))


def test_the_ruling_shows_every_model_at_its_scene_centre(ruling_page):
    _, dom = ruling_page
    scene = open_scene("demo")
    models = dom.with_attr("data-model")
    assert len(models) == sum(len(u.models) for u in scene.units)
    for u in scene.units:
        for k, m in enumerate(u.models):
            a = models[f"{u.id}/{k + 1}"]
            assert (a["data-unit"], a["data-side"]) == (u.id, u.side)
            assert (float(a["data-x"]), float(a["data-y"])) == (pytest.approx(m.x, abs=1e-4),
                                                                pytest.approx(m.y, abs=1e-4))


def test_the_centres_agree_with_measure(ruling_page):
    """measure between two single round models: the closest points lie on the line of their
    centres, one radius from each: the page's centres put them there."""
    _, dom = ruling_page
    scene = open_scene("demo")
    models = dom.with_attr("data-model")
    m = Referee(scene).measure_report("red-pyromancer/1", "blue-seer/1")
    a, b = models["red-pyromancer/1"], models["blue-seer/1"]
    ca = np.array([float(a["data-x"]), float(a["data-y"])])
    cb = np.array([float(b["data-x"]), float(b["data-y"])])
    u = (cb - ca) / np.linalg.norm(cb - ca)
    r = 40 / 25.4 / 2
    assert np.allclose(ca + u * r, m["points"]["a"][:2], atol=1e-3)
    assert np.allclose(cb - u * r, m["points"]["b"][:2], atol=1e-3)
    assert float(a["data-y"]) < float(b["data-y"])   # blue's seer is up the table


def test_the_ruling_page_has_its_name_legend_objectives_and_hover_data(ruling_page):
    path, dom = ruling_page
    text = path.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)   # nothing fetched
    assert "<script>" in text and "<style>" in text
    held = {k: v["data-controlled-by"] for k, v in dom.with_attr("data-objective").items()}
    report = Referee(open_scene("demo")).check_report()
    assert held == {k: o["controlled_by"] or "" for k, o in report["objectives"].items()}
    data = json.loads(dom.text("battlefield-data"))
    assert data["target"] == "blue-drake"
    assert data["distances"]["red-archers/8"] == pytest.approx(10.30, abs=0.01)
    assert data["units"]["red-archers"]["profile"].startswith("Cinder Bows: move 5")
    page = " ".join(dom.texts.get("board", [])) + text
    assert "Demo battle" in page and "Age of Sigmar" in page
    assert 'red-archers -> blue-drake: 10.30" (3-D 10.60"), visible: full' in unescape(text)


@pytest.fixture(scope="module")
def game(skirmish_log, tmp_path_factory, browser):
    out = tmp_path_factory.mktemp("page") / "game.html"
    assert run_cli("replay", str(skirmish_log), "--html", str(out)) == 0
    return skirmish_log, out


def _engine_after(saved, n: int):
    """The engine's state after the first n actions of the saved game."""
    state = log.new_game(saved.ruleset, saved.seed, saved.scene_text).new_state()
    for a in saved.actions[:n]:
        state.apply(a)
    return state


def test_the_game_page_opens_at_the_start_and_at_a_later_version(game):
    path, page = game
    saved = log.read(path)
    n = next(i for i, a in enumerate(saved.actions, 1) if a.type == "move")
    unit = saved.actions[n - 1].unit
    before, after = _engine_after(saved, 0), _engine_after(saved, n)
    names = before.scene.model_names
    first = Dom(dump_dom(url_of(page, "v=0")))
    later = Dom(dump_dom(url_of(page, f"v={n}")))
    moved = 0
    for i, name in enumerate(names):
        if not name.startswith(unit + "/"):
            continue
        at0, atn = first.with_attr("data-model")[name], later.with_attr("data-model")[name]
        assert float(at0["data-x"]) == pytest.approx(before.table.x[i], abs=1e-3)
        assert float(at0["data-y"]) == pytest.approx(before.table.y[i], abs=1e-3)
        assert float(atn["data-x"]) == pytest.approx(after.table.x[i], abs=1e-3)
        assert float(atn["data-y"]) == pytest.approx(after.table.y[i], abs=1e-3)
        moved += (before.table.x[i], before.table.y[i]) != (after.table.x[i], after.table.y[i])
    assert moved                                      # the unit did move
    assert later.text("version") == f"{n} / {len(saved.actions)}"
    assert re.match(rf'{n}\. {unit} move, [\d.]+"', later.text("now")), later.text("now")
    assert f"round {after.round}" in later.text("clock")
    assert "wins" not in later.text("result")


def test_the_last_version_shows_the_result_and_slain_models_are_hidden(game):
    path, page = game
    saved = log.read(path)
    end = _engine_after(saved, len(saved.actions))
    dom = Dom(dump_dom(url_of(page, f"v={len(saved.actions)}")))
    result = end.result()
    assert dom.text("result").startswith(f"Battle over: {result.winner} wins")
    models = dom.with_attr("data-model")
    for i, name in enumerate(end.scene.model_names):
        off = end.table.unit[i] < 0
        assert (models[name].get("display") == "none") == off
    held = {k: v["data-controlled-by"] for k, v in dom.with_attr("data-objective").items()}
    assert held == {k: v or "" for k, v in end.objectives.items()}


def test_a_version_past_the_end_shows_the_end(game):
    path, page = game
    saved = log.read(path)
    dom = Dom(dump_dom(url_of(page, "v=9999")))
    assert dom.text("version") == f"{len(saved.actions)} / {len(saved.actions)}"


def test_a_screenshot_of_each_page_is_not_blank(game, ruling_page, tmp_path):
    for url, name in ((url_of(game[1], "v=5"), "game.png"), (url_of(ruling_page[0]), "r.png")):
        shot = pygame.image.load(str(screenshot(url, tmp_path / name, size=(1200, 900))))
        assert shot.get_size() == (1200, 900)
        px = pygame.surfarray.array3d(shot).reshape(-1, 3)
        colours = np.unique(px // 8, axis=0)
        assert len(colours) > 60
        # the sides' colours show where the models stand
        red = np.all(np.abs(px.astype(int) - (0xD5, 0x5E, 0x00)) < 12, axis=1).sum()
        blue = np.all(np.abs(px.astype(int) - (0x00, 0x72, 0xB2)) < 12, axis=1).sum()
        assert red > 200 and blue > 200, (name, red, blue)


def _with_script(page: Path, out: Path, script: str) -> Path:
    """A copy of the page that runs `script` once the page's own scripts have run (a user's
    hover or click, dispatched as the browser's own events)."""
    out.write_text(page.read_text().replace("</body>", f"<script>{script}</script></body>"))
    return out


def test_hovering_a_model_shows_its_unit_profile_and_distance(ruling_page, tmp_path):
    page = _with_script(ruling_page[0], tmp_path / "hover.html", """
        var m = document.querySelector('[data-model="red-archers/8"] .base');
        var r = m.getBoundingClientRect();
        m.dispatchEvent(new MouseEvent('mousemove', {bubbles: true, clientX: r.x + r.width / 2,
                                                     clientY: r.y + r.height / 2}));""")
    dom = Dom(dump_dom(url_of(page)))
    tip = dom.text("tip")
    assert "hidden" not in dom.with_attr("id")["tip"]
    assert tip.startswith("red-archers/8 red-archers (Cinder Bows), red")
    assert "Cinder Bows: move 5, health 1, save 5, control 1" in tip
    assert 'to blue-drake: 10.30"' in tip


def test_the_step_buttons_and_the_slider_move_through_the_versions(game, tmp_path):
    page = _with_script(game[1], tmp_path / "steps.html", """
        var seen = [];
        function at() { return document.getElementById('version').textContent; }
        document.querySelector('[data-step="+1"]').click(); seen.push(at());
        document.querySelector('[data-step="+1"]').click(); seen.push(at());
        document.querySelector('[data-step="-1"]').click(); seen.push(at());
        document.querySelector('[data-step="last"]').click(); seen.push(at());
        var s = document.getElementById('slider'); s.value = '7';
        s.dispatchEvent(new Event('input')); seen.push(at());
        var out = document.createElement('pre'); out.id = 'seen';
        out.textContent = seen.join('|'); document.body.appendChild(out);""")
    saved = log.read(game[0])
    n = len(saved.actions)
    dom = Dom(dump_dom(url_of(page, "v=3")))
    assert dom.text("seen") == f"4 / {n}|5 / {n}|4 / {n}|{n} / {n}|7 / {n}"
    shown = [int(a["data-v"]) for t, a in dom.elements if t == "li" and "data-v" in a
             and "hidden" not in a]
    assert shown == list(range(7, -1, -1))       # newest first, the current one on top
    after = _engine_after(saved, 7)
    for i, name in enumerate(after.scene.model_names):
        a = dom.with_attr("data-model")[name]
        if after.table.unit[i] >= 0:
            assert float(a["data-x"]) == pytest.approx(after.table.x[i], abs=1e-3)
            assert float(a["data-y"]) == pytest.approx(after.table.y[i], abs=1e-3)


def test_a_page_fed_versions_one_by_one_follows_the_game(skirmish_log, tmp_path, browser):
    """What a live page does: the page starts with version 0 only and the versions arrive
    through viewer.addVersion; the page follows the newest one."""
    from battlefield.page.replay import game_page, game_versions

    saved = log.read(skirmish_log)
    scene, versions = game_versions(saved)
    n = next(i for i, a in enumerate(saved.actions, 1) if a.type == "move") + 2
    page = tmp_path / "live.html"
    page.write_text(game_page(scene, versions[:1], "live").replace("</body>", (
        "<script>var later = " + json.dumps(versions[1:n + 1]) + ";"
        "later.forEach(function (v) { battlefield.viewer.addVersion(v); });</script></body>")))
    dom = Dom(dump_dom(url_of(page)))
    assert dom.text("version") == f"{n} / {n}"
    after = _engine_after(saved, n)
    models = dom.with_attr("data-model")
    for i, name in enumerate(scene.model_names):
        if after.table.unit[i] >= 0:
            assert float(models[name]["data-x"]) == pytest.approx(after.table.x[i], abs=1e-3)
            assert float(models[name]["data-y"]) == pytest.approx(after.table.y[i], abs=1e-3)
        else:
            assert models[name]["display"] == "none"
    # the log lists the newest action first, as the window's does (live and play pages too)
    shown = [int(a["data-v"]) for t, a in dom.elements if t == "li" and "data-v" in a
             and "hidden" not in a]
    assert shown == list(range(n, -1, -1))


def test_a_game_page_draws_the_rulesets_marks_of_each_version(tmp_path, browser):
    """blocks draws orders, routes and front arcs (window.Mark): the page draws those of
    the version it shows."""
    from battlefield.rules.battle import player_for
    from battlefield.rules.deploy import battle_scene
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    text, name = battle_scene("blocks", None)
    state = Game(log.rules_for("blocks"), load_scene_text(text, name), 1).new_state()
    players = {side: player_for("blocks") for side in state.sides}
    for _ in range(3):
        state.apply(players[state.acting_side].choose(state))
    game = tmp_path / "blocks.jsonl"
    log.write(game, state, text)
    page = tmp_path / "blocks.html"
    assert run_cli("replay", str(game), "--html", str(page)) == 0
    for n in (0, 3):
        after = _engine_after(log.read(game), n)
        want = after.rules.window.marks(after)
        assert want
        dom = Dom(dump_dom(url_of(page, f"v={n}")))
        drawn = [a for _, a in dom.elements if "data-mark" in a]
        assert sorted((a["data-mark"], a.get("data-label", "")) for a in drawn) == sorted(
            (m.kind, m.label) for m in want)


def test_before_the_first_turn_the_clock_says_who_decides(tmp_path, browser):
    """aos4's first turn is decided by red before anybody is active: 'round 1 · red decides
    who goes first', never '?'s turn'."""
    from battlefield.page.replay import Versions, game_page
    from battlefield.rules.deploy import battle_scene

    text, name = battle_scene("aos4", None)
    game = log.new_game("aos4", 1, text, name)
    state = game.new_state()
    assert state.pending and state.active is None      # the first-turn decision, nobody active
    page = tmp_path / "first.html"
    page.write_text(game_page(game.scene, [Versions(state).version(state, 0, None, [])], "f"))
    said = Dom(dump_dom(url_of(page))).text("clock")
    assert said == f"round 1 · {state.pending[0].side} decides who goes first", said


def test_terrain_set_up_during_the_game_appears_without_a_reload(tmp_path, browser):
    """aos4's faction terrain set up in deployment (deploy-faction-terrain): a page fed the
    versions as they happen (the live and play pages) draws the piece at once, and stepping
    back before it takes it away again."""
    import yaml

    from battlefield.page.replay import Versions, game_page
    from battlefield.paths import find_map
    from battlefield.rules.deploy import battle_scene

    data = yaml.safe_load(battle_scene("aos4", None)[0])
    for u in data["units"]:
        u["reserve"] = True
        u["models"] = [{k: v for k, v in m.items() if k not in ("at", "facing", "z")}
                       for m in u["models"]]
    board = yaml.safe_load(find_map(data["map"]).read_text())
    data["terrain"] = list(board.get("terrain") or []) + [
        {"id": f"{s}-shrine", "side": s, "reserve": True, "height": 3, "kind": "obstacle",
         "outline": [[0, 0], [3, 0], [3, 3], [0, 3]]} for s in ("red", "blue")]
    game = log.new_game("aos4", 1, yaml.safe_dump(data, sort_keys=False), "shrines")
    state = game.new_state()
    maker = Versions(state)
    versions = [maker.version(state, 0, None, [])]
    players = {s: state.rules.player() for s in state.sides}
    while len(versions) < 4:
        start = len(state.events)
        state.apply(players[state.acting_side].choose(state))
        new = state.events[start:]
        versions.append(maker.version(state, len(versions), new[0], new[1:]))
    assert {t.id for t in state.scene.terrain} >= {"red-shrine", "blue-shrine"}
    page = tmp_path / "live.html"
    page.write_text(game_page(game.scene, versions[:1], "live").replace("</body>", (
        "<script>var later = " + json.dumps(versions[1:]) + ";"
        "later.forEach(function (v) { battlefield.viewer.addVersion(v); });"
        "var seen = [0, 1, 2, 3].map(function (n) { battlefield.panel.go(n, true);"
        " return ['red-shrine', 'blue-shrine'].filter(function (t) {"
        " return document.querySelector('[data-terrain=\"' + t + '\"]'); }).join('+'); });"
        "var out = document.createElement('pre'); out.id = 'seen';"
        "out.textContent = seen.join('|'); document.body.appendChild(out);</script></body>")))
    dom = Dom(dump_dom(url_of(page)))
    assert dom.text("seen") == "|red-shrine|red-shrine+blue-shrine|red-shrine+blue-shrine"
    shrine = dom.with_attr("data-terrain")["red-shrine"]       # last shown: version 3
    assert shrine["data-kind"] == "obstacle"
