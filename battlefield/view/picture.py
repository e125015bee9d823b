"""`battlefield render`: the scene drawn from above, to a PNG - the picture a player posts to
settle an argument. Board with rulers, terrain, objectives, true-size bases, the referee's
rulings, an optional measurement, and a caption bar underneath.

Headless: only pygame.font is initialised and the drawing goes onto a plain Surface; no
display is asked for, so importing this module changes nothing for a window opened later (it
once set SDL's dummy video driver, and `play --join`, which imports it, opened no window).
"""

from __future__ import annotations

import io
import math
import os
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from battlefield import palette as pal  # noqa: E402
from battlefield.errors import UsageError
from battlefield.files import write_bytes
from battlefield.rules import registry
from battlefield.rules.outcome import unit_wounds
from battlefield.rules.position import is_position
from battlefield.rules.standing import referee, scene_now
from battlefield.rules.state import Game
from battlefield.scene.model import Scene  # noqa: E402
from battlefield.view.damage_marks import Loss
from battlefield.view.drawing import font  # noqa: E402
from battlefield.view.layers import Style  # noqa: E402
from battlefield.view.legend import draw_legend, legend_height  # noqa: E402
from battlefield.view.overlays import draw_scene  # noqa: E402
from battlefield.view.transform import ViewTransform  # noqa: E402

PAD = 14               # paper around the board on the top and right


def margins(style: Style, scene: Scene) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) pixels around the board; the rulers go left and bottom."""
    f = font(style.small_size)
    tick = max(3.0, style.scale * 0.2)
    left = f.size(str(math.floor(scene.depth)))[0] + math.ceil(tick * 2) + 14
    bottom = f.get_linesize() + math.ceil(tick * 2) + 10
    return max(left, PAD), PAD, PAD, bottom


class Picture:
    """Where everything goes in the picture: the view transform, the board and legend rects."""

    def __init__(self, scene: Scene, report: dict | None, measure: dict | None,
                 px_per_inch: float, marks: tuple = ()) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.wounds, self.lost = None, ()
        standing = position_now(scene)
        if standing is not None:        # a whole position: its damage, its slain marked
            scene, self.wounds, self.lost, fresh = standing
            report = fresh if report is not None else None
        scene = scene.set_up()           # units in reserve: not on the table yet
        self.scene, self.report, self.measure = scene, report, measure
        self.marks = marks
        self.damage = (any(d for each in (self.wounds or {}).values() for d, _ in each),
                       bool(self.lost))
        self.style = Style.for_scene(scene, report, px_per_inch)
        left, top, right, bottom = margins(self.style, scene)
        board_w = round(scene.width * px_per_inch)
        board_h = round(scene.depth * px_per_inch)
        self.width = left + board_w + right
        self.view = ViewTransform.for_board(scene.width, scene.depth, px_per_inch, left, top)
        self.board = pygame.Rect(left, top, board_w, board_h)
        legend_top = top + board_h + bottom
        self.legend = pygame.Rect(0, legend_top, self.width,
                                  legend_height(scene, report, measure, self.style, self.width,
                                                self.damage))
        self.height = legend_top + self.legend.h

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def draw(self, surface: pygame.Surface | None = None) -> pygame.Surface:
        surface = surface or pygame.Surface(self.size)
        surface.fill(pal.PAPER)
        draw_scene(surface, self.view, self.scene, self.report, self.measure, self.style,
                   marks=self.marks, wounds=self.wounds, lost=self.lost)
        draw_legend(surface, self.legend, self.scene, self.report, self.measure, self.style,
                    self.damage)
        return surface


def position_now(scene: Scene) -> tuple[Scene, dict, tuple, dict] | None:
    """A scene whose `state:` is a whole position (as `try --out` and Ctrl+P write it), as it
    stands: (the scene without its slain models, the damage on each model left, where the slain
    stood, the rulings of what stands); None for any other scene or a ruleset not playable."""
    start = scene.extra.get("state")
    ruleset = registry.find(scene.ruleset.id)
    if not isinstance(start, dict) or not is_position(start) or ruleset is None:
        return None
    state = Game(ruleset, scene).new_state()
    t = state.table
    lost = []
    for u, spec in enumerate(scene.units):
        first = scene.model_offsets()[u]
        for k, alive in enumerate(state.units[u].alive):
            if not alive:
                m = first + k
                lost.append(Loss(float(t.x[m]), float(t.y[m]), float(t.reach[m]), spec.side))
    now = scene_now(state)
    report = registry.with_ruleset_check(now, referee(state, scene=now).check_report())
    return now, unit_wounds(state), tuple(lost), report


def scene_picture(scene: Scene, report: dict | None = None, measure: dict | None = None,
                  px_per_inch: float = 20, marks: tuple = ()) -> pygame.Surface:
    """The picture as a Surface (no display needed); `marks`: what the ruleset draws."""
    return Picture(scene, report, measure, px_per_inch, tuple(marks)).draw()


MAX_SIDE_PX = 16_000            # pixels a side of a picture pygame draws safely
MAX_PIXELS = 100_000_000       # and in all


def render_scene(scene: Scene, report: dict, out_path: str, measure: dict | None = None,
                 px_per_inch: float = 20, marks: tuple = ()) -> None:
    """Draw `scene` from above with the rulings of `report` (battlefield check) and optionally a
    `measure` result (battlefield measure), and save it as a PNG at out_path."""
    if px_per_inch <= 0:
        raise ValueError(f"px_per_inch must be positive, not {px_per_inch}")
    w, h = round(scene.width * px_per_inch), round(scene.depth * px_per_inch)
    if max(w, h) > MAX_SIDE_PX or w * h > MAX_PIXELS:
        most = min(MAX_SIDE_PX / max(scene.width, scene.depth),
                   (MAX_PIXELS / (scene.width * scene.depth)) ** 0.5)
        raise UsageError(f"the picture of a {scene.width:g}\" x {scene.depth:g}\" board at "
                         f"{px_per_inch:g} px per inch would be {w:,} x {h:,} px, more than "
                         f"can be drawn: give --scale {most:.3g} or less")
    surface = scene_picture(scene, report, measure, px_per_inch, marks)
    save_image(surface, out_path)


def save_image(surface: pygame.Surface, path: str | os.PathLike) -> None:
    """The picture saved whole (encoded in memory, then written atomically: a full disk leaves
    the old file as it was); the file's suffix picks the format (.png by default)."""
    buf = io.BytesIO()
    name = Path(path).name if Path(path).suffix else f"{Path(path).name}.png"
    pygame.image.save(surface, buf, name)
    write_bytes(path, buf.getvalue())


__all__ = ["render_scene", "scene_picture", "Picture", "margins", "save_image"]
