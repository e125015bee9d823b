"""Warscroll abilities in the play window: beside the panel, a card for each ability of the
acting side's units whose timing falls in the phase now (the ruleset's Window.cards), the one
under the cursor with its whole text; the passive abilities of the unit under the cursor; and
a small menu on a unit (a right click without dragging: Window.unit_menu) that declares its
abilities and proposes adjustments by hand, which the other side accepts or refuses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from battlefield import palette as pal
from battlefield.depiction import live
from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.rules.window import Card
from battlefield.view.drawing import font

WIDTH = 250                 # the card column, at the table's right edge
MOST = 8                    # cards listed (the rest counted)
CLICK = 4                   # a right press and release this close is a click, not a pan


class AbilityCards:
    """The card column and the unit menu; `apply` carries out a chosen action (the scene's:
    a hot-seat game applies it, a joined one sends it)."""

    def __init__(self, table_rect: pygame.Rect, apply: Callable[[Action], bool]) -> None:
        self.table_rect = pygame.Rect(table_rect)
        self.apply = apply
        self.hover: tuple[int, int] | None = None
        self.cards: list[tuple[pygame.Rect, Card]] = []
        self.menu: tuple[pygame.Rect, list[tuple[pygame.Rect, str, Action]]] | None = None
        self._press: tuple[int, int] | None = None

    # --- events -----------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event, state: State, table_at: Callable) -> bool:
        """A click in the menu chooses; a right click on a unit opens its menu; a click on a
        card declares its ability."""
        if e.type == pygame.MOUSEMOTION:
            self.hover = e.pos
            return False
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 3:
            self._press = e.pos
            return False
        if e.type == pygame.MOUSEBUTTONUP and e.button == 3 and self._press is not None:
            near = max(abs(e.pos[0] - self._press[0]), abs(e.pos[1] - self._press[1])) <= CLICK
            self._press = None
            if near and self.table_rect.collidepoint(e.pos):
                self.open(state, e.pos, table_at)
            return False           # the table hears the release too: its pan ends
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            if self.menu is not None:
                box, items = self.menu
                self.menu = None
                for r, _, action in items:
                    if r.collidepoint(e.pos):
                        self.apply(action)
                        return True
                return box.collidepoint(e.pos)
            for r, c in self.cards:
                if r.collidepoint(e.pos) and c.kind != "passive":
                    self.apply(Action("ability", c.unit, options=(("ability", c.name),)))
                    return True
        if e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE and self.menu is not None:
            self.menu = None
            return True
        return False

    def open(self, state: State, pos: tuple[int, int], table_at: Callable) -> bool:
        """The menu of the unit under `pos`, if it has anything to offer."""
        hit = live.unit_at(state, *table_at(pos))
        if hit is None:
            return False
        items = state.rules.window.unit_menu(state, hit[0])
        if not items:
            return False
        small = font(16)
        title = state.scene.units[hit[0]].id
        w = max(small.size(label)[0] for label, _ in [*items, (title, None)]) + 20
        h = 22 * len(items) + 26
        x = min(pos[0], self.table_rect.right - w - 4)
        y = min(pos[1], self.table_rect.bottom - h - 4)
        box = pygame.Rect(x, y, w, h)
        rows = [(pygame.Rect(x + 2, y + 24 + 22 * k, w - 4, 22), label, action)
                for k, (label, action) in enumerate(items)]
        self.menu = (box, rows)
        self._title = title
        return True

    # --- drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, state: State, table_at: Callable) -> None:
        small, tiny = font(16), font(14)
        cards = state.rules.window.cards(state)
        hovered = self._unit_under(state, table_at)
        if hovered is not None:
            cards = cards + state.rules.window.passive_cards(state, hovered)
        self.cards = []
        x = self.table_rect.right - WIDTH - 6
        y = self.table_rect.top + 8
        if cards:
            head = f"abilities now ({state.phase or 'any'} phase)"
            _label(surface, head, x, y, small, pal.INK)
            y += 20
        for c in cards[:MOST]:
            lines = _wrap(c.line, tiny, WIDTH - 12)[:2]
            r = pygame.Rect(x, y, WIDTH, 8 + 15 * (len(lines) + 1))
            pygame.draw.rect(surface, (255, 252, 235) if c.kind != "passive" else (240, 244, 250),
                             r, border_radius=4)
            pygame.draw.rect(surface, pal.INK_SOFT, r, 1, border_radius=4)
            tag = _cut(f"{c.kind}" + (" (played)" if c.played else "") + f" - {c.unit}",
                       tiny, WIDTH - 12)
            surface.blit(tiny.render(tag, True, pal.INK_SOFT), (x + 6, y + 3))
            for k, line in enumerate(lines):
                surface.blit(tiny.render(line, True, pal.INK), (x + 6, y + 18 + 15 * k))
            self.cards.append((r, c))
            y = r.bottom + 4
        if len(cards) > MOST:
            _label(surface, f"... and {len(cards) - MOST} more", x, y, tiny, pal.INK_SOFT)
        self._tooltip(surface)
        self._menu(surface)

    def _unit_under(self, state: State, table_at: Callable) -> int | None:
        if self.hover is None or not self.table_rect.collidepoint(self.hover):
            return None
        hit = live.unit_at(state, *table_at(self.hover))
        return None if hit is None else hit[0]

    def _tooltip(self, surface: pygame.Surface) -> None:
        """The whole text of the card under the cursor."""
        if self.hover is None or self.menu is not None:
            return
        card = next((c for r, c in self.cards if r.collidepoint(self.hover)), None)
        if card is None:
            return
        tiny = font(14)
        width = min(420, self.table_rect.width - WIDTH - 30)
        lines = [ln for part in card.text.split("\n") for ln in _wrap(part, tiny, width - 12)]
        box = pygame.Rect(self.table_rect.right - WIDTH - width - 14, self.hover[1],
                          width, 8 + 15 * len(lines))
        box.bottom = min(box.bottom, self.table_rect.bottom - 4)
        pygame.draw.rect(surface, (255, 255, 225), box, border_radius=4)
        pygame.draw.rect(surface, pal.INK_SOFT, box, 1, border_radius=4)
        for k, line in enumerate(lines):
            surface.blit(tiny.render(line, True, pal.INK), (box.left + 6, box.top + 4 + 15 * k))

    def _menu(self, surface: pygame.Surface) -> None:
        if self.menu is None:
            return
        box, rows = self.menu
        small = font(16)
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=4)
        pygame.draw.rect(surface, pal.INK, box, 1, border_radius=4)
        surface.blit(small.render(getattr(self, "_title", ""), True, pal.INK_SOFT),
                     (box.left + 8, box.top + 4))
        for r, label, _ in rows:
            if self.hover is not None and r.collidepoint(self.hover):
                pygame.draw.rect(surface, pal.SKY, r)
            surface.blit(small.render(label, True, pal.INK), (r.left + 6, r.top + 3))


def _label(surface: pygame.Surface, text: str, x: int, y: int, f: Any, colour: Any) -> None:
    surface.blit(f.render(text, True, colour), (x, y))


def _cut(text: str, f: pygame.font.Font, width: int) -> str:
    while text and f.size(text)[0] > width:
        text = text[:-2] + "…"
    return text


def _wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    words, lines, line = str(text).split(), [], ""
    for w in words:
        trial = f"{line} {w}".strip()
        if f.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = w
    if line:
        lines.append(line)
    return lines
