"""`battlefield play` on bad arguments: one line naming what is wrong, exit status 2."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402

from battlefield.cli.main import main  # noqa: E402


@pytest.mark.parametrize(("args", "said"), [
    (["--drag", "nosuchunit"], "no such unit"),
    (["--phase", "movement", "--drag", "red-lancers/9"], "has models 1 to 5"),
    (["--drag", "red-lancers"], "cannot be moved now"),
    (["--phase", "nosuch"], "no such phase"),
    (["demo-skirmish", "--phase", "movement"], "has no phases"),
    (["--computer", "green"], "no such side"),
    (["--size", "300x200"], "at least"),
    (["--phase", "movement", "--drag", "red-lancers", "--target", "nobody"], "no such unit"),
    (["--edit", "nope"], "no such terrain piece"),
    (["--ruleset", "nosuch"], "unknown ruleset 'nosuch' (playable: aos4"),
    (["--load", "no-such-game.jsonl"], "no such file"),
    (["--load", "/dev/zero"], "--load /dev/zero: is not a regular file (a device or a pipe)"),
    (["--click", "nosuch"], "--click nosuch: no such button now (buttons: end-phase"),
    (["--zoom", "0.5"], "--zoom 0.5: from 1"),
    (["--key", "nokey"], "--key nokey: no key 'nokey'"),
    (["--phase", "movement", "--drag", "red-lancers/9999999999999999999999999999999999"],
     "has models 1 to 5"),
    # read by the engine's boundary as the point and facing they stand for (nan,1 was a
    # ValueError traceback, 1e999 an OverflowError; --facing nan was taken)
    (["--phase", "movement", "--drag", "red-lancers", "--to", "nan,1"], "not a finite number"),
    (["--phase", "movement", "--drag", "red-lancers", "--to", "1e300,1"], "off any table"),
    (["--phase", "movement", "--drag", "red-lancers", "--to", "12,12", "--facing", "nan"],
     "--facing nan is not a finite number"),
])
def test_bad_arguments(args, said, tmp_path, capsys) -> None:
    code = main(["play", *args, "--screenshot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_without_a_display_play_says_so_in_one_line(monkeypatch, capsys) -> None:
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no display found" in err and "--screenshot" in err


def test_a_video_driver_sdl_cannot_use_is_one_line() -> None:
    """SDL_VIDEODRIVER naming no driver SDL has: one line and exit 2, not pygame's traceback
    (its own process: a display already open in this one would not be opened again)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SDL_VIDEODRIVER": "nosuchdriver", "DISPLAY": ":0"}
    out = subprocess.run([sys.executable, "-m", "battlefield", "play"], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 2, out.stderr
    err = [line for line in out.stderr.strip().splitlines() if not line.startswith("first launch")]
    assert len(err) == 1 and "no window can open here (SDL_VIDEODRIVER='nosuchdriver')" in err[0]
    assert "--screenshot" in err[0] and "Traceback" not in out.stderr


def test_screenshot_into_a_missing_folder(tmp_path, capsys) -> None:
    assert main(["play", "--screenshot", str(tmp_path / "no" / "x.png")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_load_shows_a_saved_game_where_it_stands(tmp_path, capsys) -> None:
    from battlefield.rules import log
    from battlefield.rules.battle import player_for
    from battlefield.rules.deploy import battle_scene
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    text, name = battle_scene("skirmish", None)
    state = Game(log.rules_for("skirmish"), load_scene_text(text, name), 1).new_state()
    player = player_for("skirmish")
    while not state.pending:                         # up to the first skirmish's morale cards
        state.apply(player.choose(state))
    log.write(tmp_path / "game.jsonl", state, text)
    shot = tmp_path / "x.png"
    assert main(["play", "--load", str(tmp_path / "game.jsonl"), "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 0


@pytest.mark.parametrize("args", [["--hover", "stop"], ["--click", "rush"], ["--zoom", "2"],
                                  ["--key", "e"], ["--aim", "shoot", "red-archers", "blue-drake"]])
def test_a_screenshot_only_option_without_screenshot_is_refused(args, capsys) -> None:
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "only with --screenshot" in err and args[0] in err


def test_click_and_phase_reach_warbands_combat(tmp_path) -> None:
    # --phase passes warband's first (the initiative side itself); --click rush asks its fighter
    from battlefield.view.launch import play

    scene = play("demo-warband", None, screenshot=str(tmp_path / "rush.png"), phase="combat",
                 size=(1200, 760), clicks=("rush",))
    assert scene.state.phase == "combat" and scene.picking == ("rush", None)
    assert scene.panel.chosen == "rush" and "click your unit" in scene.panel.message
    assert (tmp_path / "rush.png").stat().st_size > 0


def test_zoom_draws_the_board_zoomed_in(tmp_path) -> None:
    from battlefield.view.launch import play

    scene = play(None, None, screenshot=str(tmp_path / "zoom.png"), size=(1200, 760), zoom=3.0)
    table = scene.table
    assert table.view != table.fit_view()
    assert abs(table.view.scale / table.fit_view().scale - 3.0) < 1e-6


def test_key_presses_a_key_before_the_screenshot(tmp_path, capsys) -> None:
    # E with the computer's turn (and a pass by itself) unsaved: the window asks first
    from battlefield.view.launch import play

    scene = play(None, None, computer=("blue",), screenshot=str(tmp_path / "ask.png"),
                 size=(1200, 760), keys=("e",))
    assert scene.confirm is not None and scene.editor is None
    assert "unsaved actions of this one are lost. Y: yes, N: keep" in scene.panel.message
    assert main(["play", "--key", "meta+o", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "'meta' is not ctrl, shift or alt" in capsys.readouterr().err
