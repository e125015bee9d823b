"""`battlefield play --join`: the window as a client of a real server on loopback. It joins a
seat, shows the other side's actions as they arrive (a bot plays red), sends its own legal
actions (an illegal one is not sent), follows the game to its end, and draws its first frame
to a PNG from the command line; a drop is sent and comes back as the event; when the server is
killed the window says it is reconnecting, joins again by itself and plays on."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pygame
import pytest

from battlefield.client.bot import run_bot
from battlefield.rules import registry
from battlefield.rules.actions import Action

from ._serve import HANG


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
    thread.join(timeout=HANG)


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
        end = time.monotonic() + HANG
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
    deadline = time.monotonic() + HANG
    while not done and time.monotonic() < deadline:
        time.sleep(0.05)
    red = done["over"]
    assert red["version"] == scene.seat.over["version"] == scene.seat.mirror.version


def test_play_join_draws_a_screenshot(server, tmp_path):
    game = server.new_game("demo-openwg", 1)
    png = tmp_path / "joined.png"
    out = subprocess.run([sys.executable, "-m", "battlefield", "play", "--join",
                          server.ws(game["game"], game["seats"]["red"]), "--screenshot",
                          str(png), "--size", "1000x700"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    shot = pygame.image.load(str(png))
    assert shot.get_size() == (1000, 700)
    bad = subprocess.run([sys.executable, "-m", "battlefield", "play", "demo", "--join",
                          server.ws(game["game"])], capture_output=True, text=True)
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
        end = time.monotonic() + HANG
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

        def step_until(ok, seconds: float = HANG) -> None:
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


# --- under a real X display (Xvfb) ------------------------------------------------------------
X_TOOLS = ("Xvfb", "xwininfo", "import")
needs_x = pytest.mark.skipif(
    any(shutil.which(t) is None for t in X_TOOLS),
    reason="no Xvfb, xwininfo or ImageMagick's import here (Debian: apt-get install xvfb "
           "x11-utils imagemagick; .ci/run installs them)")


class Display:
    """An X server of its own (Xvfb -displayfd: it says which display it took)."""

    def __init__(self, size: tuple[int, int] = (1400, 900)) -> None:
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size[0]}x{size[1]}x24",
             "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        assert number, "Xvfb said no display"
        self.name = f":{number}"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER",
                                                               "WAYLAND_DISPLAY")}
        return {**env, "DISPLAY": self.name}

    def window(self, title: str, proc: subprocess.Popen, seconds: float = 120) -> str:
        """The id of the window called `title`, once it is there."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else proc.returncode
            tree = subprocess.run(["xwininfo", "-root", "-tree"], env=self.env(),
                                  capture_output=True, text=True).stdout
            for line in tree.splitlines():          # 0x200008 "battlefield play": (...)
                if f'"{title}"' in line:
                    return line.split()[0]
            time.sleep(0.2)
        raise AssertionError(f"no window {title!r} on {self.name}")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


@needs_x
def test_play_join_opens_its_window_on_a_real_display_and_draws_the_board(server, tmp_path):
    """The join link a browser opens, given to `play --join` under Xvfb: the X window is there
    and its picture is the board (the table's cloth), not black; no SDL driver is named."""
    game = server.new_game("demo-skirmish", 7)
    display = Display()
    proc = None
    try:
        proc = subprocess.Popen([sys.executable, "-m", "battlefield", "play", "--join",
                                 game["join"]["red"], "--size", "1200x800"],
                                env=display.env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        window = display.window("battlefield play", proc)
        shot = tmp_path / "window.png"
        board = (238, 238, 228)                 # palette.BOARD: the cloth between the models
        end = time.monotonic() + 120
        seen = 0
        while time.monotonic() < end:           # until the first frame is on the screen
            subprocess.run(["import", "-window", window, str(shot)], env=display.env(),
                           check=True, capture_output=True)
            img = pygame.image.load(str(shot))
            w, h = img.get_size()
            pixels = [img.get_at((x, y))[:3] for x in range(0, w, 7) for y in range(0, h, 7)]
            seen = sum(1 for c in pixels if all(abs(a - b) <= 3 for a, b in zip(c, board,
                                                                                 strict=True)))
            if seen > len(pixels) / 5:
                break
            time.sleep(0.2)
        assert (w, h) == (1200, 800)
        assert seen > len(pixels) / 5, "the window is not the board (black, or not drawn)"
        assert len({c for c in pixels}) > 20            # not one flat colour
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
        display.close()


def test_an_idle_joined_window_shows_a_dropped_connection_within_seconds(tmp_path):
    """The server stops answering (its process stopped, so no close is ever said): a joined
    window with nothing to do notices within a few seconds (its pings go unanswered) and
    redraws by itself to say it is reconnecting (the main loop draws what changed: the
    status line is part of what the window shows)."""
    from battlefield.view.frames import look
    from battlefield.view.joined import open_joined

    from ._serve import Served

    served = Served(tmp_path / "games.sqlite")
    stopped = False
    try:
        game = served.new_game("demo-skirmish", 2)
        pygame.display.init()
        pygame.font.init()
        scene = open_joined(served.ws(game["game"], game["seats"]["blue"]), (1000, 700))
        try:
            scene.update(0.01)
            before = look(scene)
            assert "connected" in scene.status_line()
            served.proc.send_signal(signal.SIGSTOP)          # silent: no close, no FIN
            stopped = True
            end = time.monotonic() + 30
            while scene.seat.status != "reconnecting" and time.monotonic() < end:
                scene.update(0.01)
                time.sleep(0.05)
            assert scene.seat.status == "reconnecting"
            assert "reconnecting" in scene.status_line() and look(scene) != before
        finally:
            scene.close()
    finally:
        if stopped:
            served.proc.send_signal(signal.SIGCONT)
        served.stop()


def test_a_spectators_window_offers_no_buttons(server):
    from battlefield.view.joined import open_joined

    game = server.new_game("demo-skirmish", 3)
    pygame.display.init()
    pygame.font.init()
    scene = open_joined(server.ws(game["game"]), (1200, 800))
    try:
        scene.draw(pygame.Surface((1200, 800)))
        assert scene.seat.seat is None and scene.panel.buttons == []
        player = open_joined(server.ws(game["game"], game["seats"]["red"]), (1200, 800))
        try:
            player.draw(pygame.Surface((1200, 800)))
            assert player.panel.buttons                   # a seat has its buttons
        finally:
            player.close()
    finally:
        scene.close()
