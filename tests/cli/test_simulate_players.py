"""`simulate --players / --level / --no-mirror`: a match between levels reported with wins,
draws and losses and their 95% intervals; mirror matches on a map with each zone's win rate,
the first player's and the navigation check; bad options one line, exit 2."""

from __future__ import annotations

import json

import pytest

from battlefield.cli.main import main


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_a_match_between_players(capsys):
    d = _json(capsys, ["simulate", "--ruleset", "skirmish", "--games", "2", "--workers", "1",
                       "--players", "red=normal,blue=pass", "--json"])
    assert d["players"] == {"red": "normal", "blue": "pass"} and d["games"] == 2
    for side in ("red", "blue"):
        assert d["wins"][side] + d["draws"] + d["losses"][side] == 2
        for key in ("win_rate", "loss_rate", "match_score"):
            lo, hi = d[f"{key}_95"][side]
            assert 0 <= lo <= d[key][side] <= hi <= 1
    assert d["uses"]["red"] and set(d["uses"]["blue"]) <= {"end-turn", "decline", "commit",
                                                           "retreat"}
    assert d["power"]["note"].startswith("2 battles cannot detect a 10-point bias")


def test_mirror_matches_on_a_map(capsys):
    d = _json(capsys, ["simulate", "--ruleset", "skirmish", "--map", "skirmish", "--games", "2",
                       "--workers", "1", "--json"])
    assert d["mirror"] is True
    assert set(d["zone_win_rates"]) == {"red", "blue"}
    assert 0 <= d["first_player_win_rate"] <= 1
    assert set(d["navigation"]) == {"red", "blue"}
    for nav in d["navigation"].values():
        assert 0 <= nav["never_left_zone"] <= 1 and 0 <= nav["never_reached_objective"] <= 1


def test_one_battle_at_a_level(capsys):
    d = _json(capsys, ["simulate", "--ruleset", "skirmish", "--level", "easy", "--json"])
    assert d["players"] == {"red": "easy", "blue": "easy"} and d["winner"] in ("red", "blue",
                                                                               None)


@pytest.mark.parametrize(("argv", "words"), [
    (["--level", "hard"], "--level: no player 'hard'"),
    (["--level", "random"], "--level: no player 'random'"),
    (["--players", "red=clever"], "--players: no player 'clever'"),
    (["--players", "green=easy"], "--players: no side 'green'"),
    (["--no-mirror"], "--no-mirror goes with --map"),
])
def test_bad_options_are_one_line(capsys, argv, words):
    assert main(["simulate", "--ruleset", "skirmish", *argv]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and words in err


@pytest.mark.parametrize("argv", [
    ["play", "--computer", "blue", "--level", "hard", "--screenshot", "x.png"],
    ["bot", "ws://127.0.0.1:9/games/x/play?seat=t", "--level", "hard"],
])
def test_play_and_bot_take_a_level_and_refuse_a_bad_one(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--level: no player 'hard'" in err
