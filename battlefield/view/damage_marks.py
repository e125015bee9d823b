"""Damage on the table: a bar on each damaged model (health left over health, green to red) and
a mark where a model was taken off this phase (a cross in its side's colour inside the outline of
its base), so a loss - a warband fighter slain by the computer - leaves a trace. The window and
`render` draw these from outcome.unit_wounds / outcome.losses."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from battlefield import palette as pal
from battlefield.scene.model import Scene
from battlefield.view.drawing import dashed, thick_line
from battlefield.view.transform import ViewTransform

Wounds = dict[str, list[tuple[int, int]]]      # unit id -> (damage, health) per drawn model


@dataclass(frozen=True)
class Loss:
    """A model taken off: where it stood (inches), its base's reach, its side."""

    x: float
    y: float
    reach: float
    side: str


def wounds_left(each: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """(health left, health) of a unit's drawn models when any is damaged, else None."""
    if not any(d for d, _ in each):
        return None
    return sum(max(0, h - d) for d, h in each), sum(h for _, h in each)


def draw_wound_bars(surface: pygame.Surface, view: ViewTransform, scene: Scene,
                    colour_of, wounds: Wounds, line: float) -> list[pygame.Rect]:
    """A bar across the bottom of each damaged model's base: its health left in green (amber
    at half, vermillion below a third), the damage taken in grey, ticks between points when
    they are few enough to count. Returns the bars' rectangles (labels keep off them)."""
    out = []
    for u in scene.units:
        each = wounds.get(u.id)
        if not each or len(each) != len(u.models):
            continue
        for m, (dmg, health) in zip(u.models, each, strict=True):
            if dmg <= 0 or health <= 0:
                continue
            cx, cy = view.px(m.x, m.y)
            half = max(7.0, view.length(min(m.base.a, m.base.b)) * 0.85)
            h = max(5.0, min(9.0, view.scale * 0.22))
            bar = pygame.Rect(round(cx - half), round(cy + view.length(m.base.b) * 0.55 - h / 2),
                              round(2 * half), round(h))
            left = max(0, health - dmg) / health
            ink = pal.GREEN if left > 0.5 else (pal.ORANGE if left > 1 / 3 else pal.VERMILLION)
            pygame.draw.rect(surface, (90, 90, 90), bar)
            full = bar.copy()
            full.width = round(bar.width * left)
            pygame.draw.rect(surface, ink, full)
            if health <= 12 and bar.width / health >= 4:
                for k in range(1, health):
                    x = bar.left + bar.width * k / health
                    pygame.draw.line(surface, (40, 40, 40), (x, bar.top), (x, bar.bottom - 1))
            pygame.draw.rect(surface, pal.HALO, bar.inflate(2, 2), 1)
            pygame.draw.rect(surface, pal.INK, bar, max(1, round(line * 0.8)))
            out.append(bar)
    return out


def draw_losses(surface: pygame.Surface, view: ViewTransform, lost: Sequence[Loss],
                colour_of, line: float) -> None:
    """Where models were taken off this phase: the base's outline dashed and a cross."""
    for k in lost:
        c = view.px(k.x, k.y)
        r = max(5.0, view.length(k.reach))
        ink = colour_of(k.side)
        n = 24
        ring = [(c[0] + r * math.cos(2 * math.pi * i / n), c[1] + r * math.sin(2 * math.pi * i / n))
                for i in range(n)]
        dashed(surface, ink, ring, True, dash=4, gap=3, width=max(1.5, line * 1.2))
        d = r * 0.6
        w = max(2.0, line * 2.2)
        for p, q in (((c[0] - d, c[1] - d), (c[0] + d, c[1] + d)),
                     ((c[0] - d, c[1] + d), (c[0] + d, c[1] - d))):
            thick_line(surface, pal.HALO, p, q, w + 2)
            thick_line(surface, ink, p, q, w)


__all__ = ["Loss", "Wounds", "draw_wound_bars", "draw_losses", "wounds_left"]
