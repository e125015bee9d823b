"""The window's first seconds: the board at once, the game ready behind it.

numba costs a second to import and its kernels tens of seconds to compile on a first launch,
so the window does not wait for them: `Launch`, the first scene on the stack, draws the battle's
board, terrain, objectives and models from the scene alone (loaded with the plain-Python
distances of battlefield.geometry.jit, no numba imported) and says "preparing sight and
reach..." in the panel, while a thread compiles the kernels (or loads them from numba's cache)
by running what the window runs first - the rulings on the board, a drag of the acting side's
units, a few of the computer player's moves on a copy of the game - and then opens the game.
Once it is ready the play scene takes Launch's place; until then nothing can be dragged, so no
drag ever waits for a kernel and no ruling is shown that the engine has not made.

Imports here stay clear of numba (tests/view/test_launch.py checks it)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pygame

from battlefield import palette as pal
from battlefield.errors import UsageError
from battlefield.geometry import jit
from battlefield.scene.model import Scene
from battlefield.view.drawing import font
from battlefield.view.layers import Style
from battlefield.view.overlays import draw_scene
from battlefield.view.transform import ViewTransform
from battlefield.view.warm import warm_up

PREPARING = "preparing sight and reach..."
PANEL_W = 340                  # as view.panels.WIDTH (not imported: it pulls in the rules)


def fit_view(scene: Scene, rect: pygame.Rect) -> ViewTransform:
    """The whole board in `rect` with room for the rulers (as TableView.fit_view)."""
    # here, not at the top: the first frame draws before numba is imported
    from battlefield.view.picture import margins

    scale = ViewTransform.fit(scene.width, scene.depth, tuple(rect.inflate(-40, -40))).scale
    left, top, right, bottom = margins(Style.for_scene(scene, None, scale), scene)
    inner = (rect.x + left, rect.y + top, rect.width - left - right,
             rect.height - top - bottom)
    return ViewTransform.fit(scene.width, scene.depth, inner)


class Launch:
    """The board while the game is prepared; `replace` is the scene that takes its place."""

    def __init__(self, scene: Scene, name: str, size: tuple[int, int],
                 prepare: Callable[[], Any], ready: Callable[[Any, tuple[int, int]], Any]
                 ) -> None:
        self.scene, self.name = scene, name
        self.size = size
        self.prepare, self.ready = prepare, ready
        self.replace: Any = None
        self.started = time.perf_counter()
        self.drawn = False
        self.thread: threading.Thread | None = None
        self.result: Any = None
        self.error: BaseException | None = None
        self.done_at: float | None = None
        self.message = ""
        self._board: tuple[tuple, pygame.Surface] | None = None

    # --- the thread ---------------------------------------------------------------------------
    def start(self) -> None:
        """Prepare the game in a thread (started once the first frame is on the screen)."""
        self.thread = threading.Thread(target=self._run, name="battlefield-prepare",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.result = self.prepare()
        except BaseException as exc:          # raised again in the main thread (update)
            self.error = exc
        self.done_at = time.perf_counter()

    @property
    def preparing(self) -> str:
        """The panel's line: what is being prepared and for how long so far."""
        return f"{PREPARING} {int(time.perf_counter() - self.started)} s"

    # --- the scene ----------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> bool:
        if e.type == pygame.VIDEORESIZE:
            self.size = (max(e.w, PANEL_W + 200), max(e.h, 300))
            return True
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            self.message = ("the rulings are not ready yet: units can be moved once sight and "
                            "reach are prepared")
            return True
        return False

    def update(self, dt: float) -> None:
        if self.thread is None:
            if self.drawn:
                self.start()
            return
        if self.error is not None:
            raise self.error
        if self.done_at is not None and self.replace is None:
            self.replace = self.ready(self.result, self.size)

    def shown(self) -> tuple:
        """What the scene shows that changes by itself: the seconds counted, the message."""
        return (int(time.perf_counter() - self.started), self.message, self.size)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = self.size
        table = pygame.Rect(0, 0, w - PANEL_W, h)
        key = (self.size,)
        if self._board is None or self._board[0] != key:
            board = pygame.Surface(table.size)
            board.fill(pal.PAPER)
            draw_scene(board, fit_view(self.scene, pygame.Rect(0, 0, *table.size)), self.scene)
            self._board = (key, board)
        surface.blit(self._board[1], table.topleft)
        panel = pygame.Rect(table.right, 0, PANEL_W, h)
        pygame.draw.rect(surface, (236, 236, 230), panel)
        pygame.draw.line(surface, pal.BORDER, panel.topleft, panel.bottomleft, 2)
        x, y = panel.left + 12, panel.top + 10
        big, small = font(20), font(16)
        surface.blit(big.render(self.name, True, pal.INK), (x, y))
        y += 30
        surface.blit(small.render(f"{self.scene.ruleset.name or self.scene.ruleset.id}: "
                                  f"{', '.join(self.scene.sides)}", True, pal.INK), (x, y))
        y += 30
        surface.blit(big.render(self.preparing, True, pal.VERMILLION), (x, y))
        y += 26
        for line in ("the board is drawn; the rulings, dragging and",
                     "the computer start once the kernels are ready",
                     "(a first launch compiles them once)", "", self.message):
            surface.blit(small.render(line, True, pal.INK_SOFT), (x, y))
            y += 18
        self.drawn = True


def window(scene_arg: str | None, ruleset: str | None, seed: int,
           size: tuple[int, int] | None, setup: Any, frames: Any = None) -> Any:
    """Open the window: the battle's board at once, the game in its place once the kernels
    are ready. Bad input is refused before the window opens (one line, as everywhere).
    `size` None: what fits the desktop (view.stack.window_size)."""
    # here, not at the top: the first frame draws before numba is imported
    from battlefield.scene.load import load_scene_text
    from battlefield.view.opening import battle_text
    from battlefield.view.stack import App, window_size

    jit.defer()                    # the first frame's distances in plain Python, no numba
    rid, text, name = battle_text(scene_arg, ruleset)
    scene = load_scene_text(text, name)
    setup.check(scene)
    try:
        pygame.display.init()
    except pygame.error as exc:       # no video driver SDL can use here (a wrong SDL_VIDEODRIVER)
        driver = os.environ.get("SDL_VIDEODRIVER")
        chose = f" (SDL_VIDEODRIVER={driver!r})" if driver is not None else ""
        raise UsageError(f"no window can open here{chose}: {exc}; draw the table to a picture "
                         "with --screenshot FILE.png instead") from None
    pygame.font.init()
    size = window_size(size)

    def prepare() -> Any:
        # here, not at the top: the first frame draws before numba is imported
        from battlefield.view import app

        opened: list[Any] = []

        def warm() -> None:
            o = app.open_text(rid, text, name, seed)
            app.before_play(setup, o.state)
            warm_up(o.state, computer=bool(setup.computer))
            opened.append(o)

        jit.compile_kernels(warm)
        return opened[0]

    def ready(opened: Any, now: tuple[int, int]) -> Any:
        # here, not at the top: the first frame draws before numba is imported
        from battlefield.view import app

        return app.table_scene(setup, opened, now)

    launch = Launch(scene, name, size, prepare, ready)
    app = App(launch, size)
    try:
        app.run(frames)
    finally:
        pygame.quit()
    return app.stack[-1]


def play(scene_arg: str | None = None, ruleset: str | None = None, seed: int = 1,
         computer: tuple[str, ...] = (), screenshot: str | None = None,
         drag: str | None = None, to: tuple[float, float] | None = None,
         target: str | None = None, phase: str | None = None, measure: tuple[str, str] | None
         = None, size: tuple[int, int] | None = None, save_path: str = "battlefield-game.jsonl",
         heat: bool = False, edit: str | None = None, load: str | None = None,
         ability: str | None = None, facing: float | None = None,
         auto_pass: bool = True, hover: str | None = None,
         aim: tuple[str, str, str] | None = None, clicks: tuple[str, ...] = (),
         zoom: float | None = None, keys: tuple[str, ...] = ()) -> Any:
    """Open the window (view.launch: the board at once, the game once ready) or, with
    `screenshot`, draw the first frame to a PNG and return. `drag UNIT to X,Y [target]` shows
    the live-check overlay mid-drag; `phase` passes until it; `heat` shows the sight heat map;
    `edit` opens the map editor (with that piece selected); `load` continues a saved action
    log; `ability` is the dragged unit's (as its button); `facing` turns the dragged unit;
    `auto_pass` off: every step is the player's, even one with nothing to do but pass;
    `hover`: a screenshot with the cursor over that button (its tooltip); `aim` (ability,
    unit, target): the cursor over the target while the ability picks it; `clicks`: those
    panel buttons clicked before the screenshot, then `keys` pressed; `zoom`: it zoomed in
    about the board. `size` None: the window that fits the desktop, a screenshot
    1600x1000."""
    # here, not at the top: the first frame draws before numba is imported
    from battlefield.view.opening import Setup

    setup = Setup(computer, save_path, phase, load, measure, drag, to, target, ability, facing,
                  heat, edit, auto_pass, hover, aim, clicks, zoom, keys)
    if not screenshot:
        return window(scene_arg, ruleset, seed, size, setup)
    # here, not at the top: the first frame draws before numba is imported
    from battlefield.view.screenshot import screenshot_of
    from battlefield.view.stack import SIZE

    return screenshot_of(scene_arg, ruleset, seed, size or SIZE, setup, screenshot)


__all__ = ["Launch", "PREPARING", "fit_view", "play", "warm_up", "window"]


def first_frame(scene_arg: str | None, path: str, size: tuple[int, int] = (1600, 1000)) -> None:
    """The window's first frame (the board, the game being prepared) drawn to a PNG, headless:
    `python -m battlefield.view.launch [SCENE] PNG`."""
    # here, not at the top: the first frame draws before numba is imported
    from battlefield.scene.load import load_scene_text
    from battlefield.view.opening import battle_text
    from battlefield.view.picture import save_image

    jit.defer()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    rid, text, name = battle_text(scene_arg)
    launch = Launch(load_scene_text(text, name), name, size, lambda: None, lambda r, s: None)
    surface = pygame.Surface(size)
    launch.draw(surface)
    save_image(surface, path)


if __name__ == "__main__":
    import sys

    *scene, out = sys.argv[1:] or ["battlefield-launch.png"]
    first_frame(scene[0] if scene else None, out)
    print(f"wrote {out}")
