"""The measure tool: click two models and see the ruling of `battlefield measure` drawn."""

from __future__ import annotations

import pygame

from battlefield.depiction import live
from battlefield.rules.standing import referee, scene_now
from battlefield.view.layers import Style
from battlefield.view.overlays import draw_measurement
from battlefield.view.table_view import TableView


class MeasureTool:
    def __init__(self, table: TableView, say) -> None:
        self.table = table
        self.say = say
        self.first: str | None = None
        self.result: dict | None = None

    def name_at(self, pos) -> str | None:
        st = self.table.state
        hit = live.unit_at(st, *self.table.table_at(pos))
        return None if hit is None else st.scene.model_names[hit[1]]

    def handle_event(self, e: pygame.event.Event) -> bool:
        if e.type != pygame.MOUSEBUTTONDOWN or e.button != 1:
            return False
        name = self.name_at(e.pos)
        if name is None:
            return False
        if self.first is None or self.result is not None:
            self.first, self.result = name, None
            self.say(f"measure from {name}: click another model")
            return True
        if name == self.first:
            return True
        st = self.table.state
        self.result = referee(st).measure_report(self.first, name)
        m = self.result
        self.say(f"{self.first} -> {name}: {m['distance']:.2f}\" (3-D {m['distance_3d']:.2f}\"), "
                 f"visible {m['visible']}"
                 + (f", blocked by {', '.join(m['blocked_by'])}" if m["blocked_by"] else ""))
        return True

    def draw(self, surface: pygame.Surface) -> None:
        if self.result is None:
            return
        tv = self.table
        scene = scene_now(tv.state, keep_slain=True)
        clip = surface.get_clip()
        surface.set_clip(tv.rect)
        draw_measurement(surface, tv.view, scene, Style.for_scene(scene, None, tv.view.scale),
                         self.result)
        surface.set_clip(clip)
