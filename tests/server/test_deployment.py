"""The server plays deployment like every other phase: two bots, each its own seat over a real
socket, set their units in reserve up turn about, then play the battle; the log replays and is
the game `simulate` plays from the same scene and seed."""

from __future__ import annotations

import yaml

from battlefield.cli.main import main

from ._serve import reserve_battle as _reserve_battle
from .test_serve import SEED, _bots, _simulated


def reserve_battle() -> str:
    """aos4's demo battle with every unit in reserve (no model placed), from battle round 4."""
    return _reserve_battle(4)


def test_two_bots_deploy_through_the_server_and_play_on(server, tmp_path, capsys):
    text = reserve_battle()
    game = server.new_game(text, SEED)
    overs = _bots(server, game)
    assert overs[0] == overs[1] and overs[0]["seed_verified"]
    status, text_log = server.request("GET", f"/games/{game['game']}/log")
    assert status == 200
    lines = [yaml.safe_load(x) for x in text_log.splitlines()[1:]]
    deploys = [x["action"] for x in lines if (x.get("action") or {}).get("type") == "deploy"]
    units = len(yaml.safe_load(text)["units"])
    assert len(deploys) == units                       # every unit set up by its own side
    sides = [d["unit"].split("-")[0] for d in deploys]
    assert sides[:2] == ["red", "blue"]                # turn about, red beginning
    path = tmp_path / "served.jsonl"
    path.write_text(text_log)
    assert main(["replay", str(path)]) == 0
    assert "every state identical" in capsys.readouterr().out
    assert text_log == _simulated("aos4", text, SEED, tmp_path)


def test_the_reserve_list_shows_only_in_the_joined_window_whose_side_deploys(server):
    """play --join: the seat whose deployment turn it is gets the reserve list to drag from;
    the other seat's window (and a spectator's) does not (the server would refuse the drop)."""
    import pygame

    from battlefield.view.joined import open_joined

    game = server.new_game(reserve_battle(), SEED)
    pygame.display.init()
    pygame.font.init()
    windows = {s: open_joined(server.ws(game["game"], game["seats"][s]), (1200, 800))
               for s in ("red", "blue")}
    watcher = open_joined(server.ws(game["game"]), (1200, 800))
    try:
        red, blue = windows["red"], windows["blue"]
        assert red.state.phase == "deployment" and red.state.acting_side == "red"
        assert red.setup.active() and red.setup.rows()
        assert not blue.setup.active() and not watcher.setup.active()
        blue.draw(pygame.Surface((1200, 800)))
    finally:
        for w in (*windows.values(), watcher):
            w.close()


def test_two_bots_set_their_faction_terrain_up_first_through_the_server(server, tmp_path,
                                                                        capsys):
    """Each side's faction terrain waiting (side, reserve: true): the bots set it up first, the
    side that begins deployment first, then deploy their units and play on; the log replays."""
    from battlefield.paths import find_map

    data = yaml.safe_load(reserve_battle())
    square = [[0, 0], [3, 0], [3, 3], [0, 3]]
    board = yaml.safe_load(find_map(data["map"]).read_text())     # the map's pieces kept
    data["terrain"] = list(board.get("terrain") or []) + [
        {"id": f"{s}-shrine", "side": s, "reserve": True, "outline": square, "height": 3,
         "kind": "obstacle"} for s in ("red", "blue")]
    text = yaml.safe_dump(data, sort_keys=False)
    game = server.new_game(text, SEED)
    overs = _bots(server, game)
    assert overs[0] == overs[1] and overs[0]["seed_verified"]
    status, text_log = server.request("GET", f"/games/{game['game']}/log")
    assert status == 200
    lines = [yaml.safe_load(x) for x in text_log.splitlines()[1:]]
    kinds = [x["action"]["type"] for x in lines if x.get("action")]
    assert kinds[:2] == ["deploy-faction-terrain"] * 2 and kinds[2] == "deploy"
    firsts = [x["action"]["terrain"] for x in lines[:2]]
    assert firsts == ["red-shrine", "blue-shrine"]
    path = tmp_path / "served.jsonl"
    path.write_text(text_log)
    assert main(["replay", str(path)]) == 0
    assert "every state identical" in capsys.readouterr().out
