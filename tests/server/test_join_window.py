"""`battlefield play --join`: the window as a client of a real server on loopback. It joins a
seat, shows the other side's actions as they arrive (a bot plays red), sends its own legal
actions (an illegal one is not sent), follows the game to its end, and draws its first frame
to a PNG from the command line; a drop is sent and comes back as the event; when the server is
killed the window says it is reconnecting, joins again by itself and plays on."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time

import pygame
import pytest

from battlefield.client.bot import run_bot
from battlefield.rules import registry
from battlefield.rules.actions import Action


@pytest.fixture
def red_bot(server):
    game = server.new_game("demo-skirmish", 4)
    done: dict = {}

    def run():
        done["over"] = asyncio.run(run_bot(server.ws(game["game"], game["seats"]["red"]),
                                           say=lambda line: None))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield game, done
    thread.join(timeout=60)


def test_the_joined_window_plays_a_seat_to_the_end(server, red_bot):
    from battlefield.view.joined import open_joined

    game, done = red_bot
    pygame.display.init()
    pygame.font.init()
    scene = open_joined(server.ws(game["game"], game["seats"]["blue"]), (1200, 800))
    try:
        assert scene.seat.seat == "blue" and "you: blue" in scene.status_line()
        player = registry.get("skirmish").player()
        tried_illegal = False
        end = time.monotonic() + 90
        while scene.seat.over is None and time.monotonic() < end:
            scene.update(0.01)
            if scene.seat.ready():
                assert "your decision" in scene.status_line()
                if not tried_illegal:
                    assert not scene.apply(Action("move", "red-spears", path=((1, 1), (2, 2))))
                    assert scene.seat.unanswered is None          # nothing was sent
                    tried_illegal = True
                assert scene.apply(player.choose(scene.state))
                assert "waiting for the server" in scene.status_line()
            time.sleep(0.005)
        assert scene.seat.over is not None and tried_illegal
        assert "game over" in scene.status_line()
        assert scene.state.over and scene.state.dice.log            # the server's dice
        surf = pygame.Surface((1200, 800))
        scene.draw(surf)
    finally:
        scene.close()
    deadline = time.monotonic() + 30
    while not done and time.monotonic() < deadline:
        time.sleep(0.05)
    red = done["over"]
    assert red["version"] == scene.seat.over["version"] == scene.seat.mirror.version


def test_play_join_draws_a_screenshot(server, tmp_path):
    game = server.new_game("demo-openwg", 1)
    png = tmp_path / "joined.png"
    out = subprocess.run([sys.executable, "-m", "battlefield", "play", "--join",
                          server.ws(game["game"], game["seats"]["red"]), "--screenshot",
                          str(png), "--size", "1000x700"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    shot = pygame.image.load(str(png))
    assert shot.get_size() == (1000, 700)
    bad = subprocess.run([sys.executable, "-m", "battlefield", "play", "demo", "--join",
                          server.ws(game["game"])], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "leave out a scene" in bad.stderr


def test_a_drop_in_the_joined_window_is_sent_and_comes_back_as_the_event(server):
    from battlefield.view.held import hold
    from battlefield.view.joined import open_joined

    game = server.new_game("demo-skirmish", 8)
    pygame.display.init()
    pygame.font.init()
    scene = open_joined(server.ws(game["game"], game["seats"]["red"]), (1200, 800))
    try:
        assert scene.seat.ready()
        t = scene.state.table
        u = scene.state.unit_index("red-spears")
        lead = scene.state.table.unit_models[u][0]
        start = (float(t.x[lead]), float(t.y[lead]))
        hold(scene, "red-spears", (start[0], start[1] + 2.0))   # two inches forward
        assert scene.drag.ruling is not None and scene.drag.ruling.legal
        pos = scene.table.view.px(start[0], start[1] + 2.0)
        scene.drag.grab[:] = 0.0
        scene.drag.drop((round(pos[0]), round(pos[1])))
        assert scene.seat.unanswered is not None                # sent, not applied here
        assert scene.seat.mirror.version == 0
        end = time.monotonic() + 30
        while scene.seat.mirror.version < 1 and time.monotonic() < end:
            scene.update(0.01)
            time.sleep(0.01)
        assert scene.seat.mirror.version == 1 and scene.seat.unanswered is None
        moved = scene.state.table
        assert abs(float(moved.y[lead]) - start[1] - 2.0) < 0.2
    finally:
        scene.close()


def test_the_joined_window_says_it_is_reconnecting_and_carries_on(tmp_path):
    from battlefield.view.joined import open_joined

    from ._serve import Served

    served = Served(tmp_path / "games.sqlite")
    try:
        game = served.new_game("demo-skirmish", 2)
        pygame.display.init()
        pygame.font.init()
        scene = open_joined(served.ws(game["game"], game["seats"]["red"]), (1200, 800))
        player = registry.get("skirmish").player()

        def step_until(ok, seconds: float = 60) -> None:
            end = time.monotonic() + seconds
            while not ok() and time.monotonic() < end:
                scene.update(0.01)
                time.sleep(0.01)
            assert ok()

        try:
            step_until(scene.seat.ready)
            assert scene.apply(player.choose(scene.state))
            step_until(lambda: scene.seat.mirror.version == 1)
            served.kill()
            step_until(lambda: scene.seat.status == "reconnecting")
            assert "reconnecting" in scene.status_line()
            scene.draw(pygame.Surface((1200, 800)))
            served.start()                       # the same port and database
            step_until(lambda: scene.seat.status == "connected")
            assert scene.seat.mirror.version == 1
            step_until(scene.seat.ready)
            assert scene.apply(player.choose(scene.state))
            step_until(lambda: scene.seat.mirror.version == 2)
        finally:
            scene.close()
    finally:
        served.stop()
