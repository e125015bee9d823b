"""The side panel: the turn and phase bar (round, active side, acting side, CP and VP), the
abilities legal now as buttons (State.available) - or, while a decision is pending, who decides
what and its choices as buttons - the last message and the dice log; and the help overlay
listing every shortcut."""

from __future__ import annotations

from typing import Any

import pygame

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.view import palette as pal
from battlefield.view.drawing import font
from battlefield.view.editor_marks import SHORTCUTS as EDIT_KEYS

WIDTH = 340
SHORTCUTS = (
    ("left drag", "move a unit (Shift: one model) for the ability chosen"),
    ("drop", "apply through the engine; illegal snaps back"),
    ("buttons", "choose the ability; end-phase / end-turn pass; answer a decision"),
    ("click, click", "targeted ability: your unit, then the enemy"),
    ("right drag / arrows", "pan"),
    ("wheel / + -", "zoom"),
    ("F", "fit the board"),
    ("M", "measure tool: click two models"),
    ("V", "sight heat map of the layout on / off"),
    ("E", "map editor on / off (its keys show in the panel)"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Ctrl+S / Ctrl+O", "save / load the action log"),
    ("Ctrl+P", "save the position (a scene file that goes on from here)"),
    ("F12", "screenshot"),
    ("Esc", "put back / leave a tool"),
    ("H", "this help"),
)


class Panel:
    """The right-hand panel: phase bar, ability buttons, message, dice log."""

    def __init__(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        self.buttons: list[tuple[pygame.Rect, str]] = []
        self.message = "H: help"
        self.chosen: str | None = None
        self.answers: dict[str, Action] = {}     # button label -> the answer it gives

    def button_at(self, pos: tuple[int, int]) -> str | None:
        for r, name in self.buttons:
            if r.collidepoint(pos):
                return name
        return None

    def draw(self, surface: pygame.Surface, state: State) -> None:
        r = self.rect
        pygame.draw.rect(surface, (236, 236, 230), r)
        pygame.draw.line(surface, pal.BORDER, r.topleft, r.bottomleft, 2)
        x, y = r.left + 12, r.top + 10
        big, small = font(20), font(16)
        title = (f"round {state.round}  {state.active}'s turn"
                 + (f"  {state.phase} phase" if state.phase else ""))
        surface.blit(big.render(title, True, pal.INK), (x, y))
        y += 26
        surface.blit(small.render(f"acting: {state.acting_side}", True, pal.INK), (x, y))
        y += 20
        named = state.scene.ruleset.resources     # what ruleset.yaml says each side has
        for side, res in state.sides.items():
            bits = ([f"{name} {_shown(res[k])}" for k, name in named if k in res] if named else
                    [f"{k.upper()} {v}" for k, v in res.items() if isinstance(v, (int, float))])
            text = f"{side}: " + "; ".join(bits)
            for line in _wrap(text, small, r.width - 24)[:3]:   # wrapped, not cut off
                surface.blit(small.render(line, True, pal.INK), (x, y))
                y += 18
        if state.over:
            surface.blit(big.render(f"battle over: {state.result().winner or 'a draw'}", True,
                                    pal.VERMILLION), (x, y))
            y += 24
        y += 6
        self.buttons = []
        self.answers = {}
        names = state.available()
        if state.pending:
            y = self._decision(surface, state, x, y)
            d = state.pending[0]
            self.answers = {d.label(c): c for c in d.choices}
            names = list(self.answers)
        bx = x
        for name in names:
            w = small.size(name)[0] + 14
            if bx + w > r.right - 8:
                bx, y = x, y + 28
            b = pygame.Rect(bx, y, w, 24)
            on = name == self.chosen
            pygame.draw.rect(surface, pal.SKY if on else (255, 255, 255), b, border_radius=4)
            pygame.draw.rect(surface, pal.INK_SOFT, b, 1, border_radius=4)
            surface.blit(small.render(name, True, pal.INK), (bx + 7, y + 4))
            self.buttons.append((b, name))
            bx += w + 6
        y += 36
        y = self._unit_notes(surface, state, x, y)
        for line in _wrap(self.message, small, r.width - 24)[:5]:
            surface.blit(small.render(line, True, pal.VERMILLION if "snapped" in self.message
                                      or "illegal" in self.message else pal.INK), (x, y))
            y += 18
        y += 8
        surface.blit(big.render("dice", True, pal.INK), (x, y))
        y += 24
        # The newest roll first; a long one wraps (its further lines indented) rather than
        # being cut, as long as there is room.
        room = max(0, (r.bottom - y - 10) // 17)
        for roll in reversed(state.dice.log[-room:] if room else []):
            lines = _wrap(f"{roll.shown}  {roll.purpose}", small, r.width - 36)
            for k, line in enumerate(lines[:room]):
                surface.blit(small.render(line, True, pal.INK_SOFT), (x + (12 if k else 0), y))
                y += 17
            room -= len(lines[:room])
            if room <= 0:
                break


    def _unit_notes(self, surface: pygame.Surface, state: State, x: int, y: int) -> int:
        """What the ruleset says about units now (RulesetPackage.unit_notes), one line each."""
        notes = registry.get(state.rules.id).unit_notes
        small = font(16)
        colours = pal.side_colours(state.sides)
        for u, text in sorted((notes(state) if notes else {}).items())[:8]:
            colour = pal.darker(colours[state.scene.units[u].side], 0.5)
            surface.blit(small.render(f"{state.scene.units[u].id}: {text}"[:52], True, colour),
                         (x, y))
            y += 18
        return y + 6

    def _decision(self, surface: pygame.Surface, state: State, x: int, y: int) -> int:
        """The pending decision: who decides what (secret or not), what it is about."""
        d = state.pending[0]
        big, small = font(20), font(16)
        others = len(state.pending) - 1
        about = ", ".join(f"{k} {val}" for k, val in d.about)
        lines = _wrap(about + (f"; then {others} more" if others else ""), small,
                      self.rect.width - 30)[:3]
        box = pygame.Rect(x - 6, y - 2, self.rect.width - 12, 30 + 18 * len(lines))
        pygame.draw.rect(surface, (255, 246, 214), box, border_radius=4)
        pygame.draw.rect(surface, pal.VERMILLION, box, 1, border_radius=4)
        head = f"{d.side} decides: {d.kind}" + ("  (secret)" if d.secret else "")
        surface.blit(big.render(head, True, pal.INK), (x, y))
        for k, line in enumerate(lines):
            surface.blit(small.render(line, True, pal.INK_SOFT), (x, y + 24 + 18 * k))
        return box.bottom + 8

    def draw_editor(self, surface: pygame.Surface, editor: Any) -> None:
        """Edit mode: what is selected, the editor's keys, the last message."""
        r = self.rect
        self.buttons = []
        pygame.draw.rect(surface, (236, 236, 230), r)
        pygame.draw.line(surface, pal.BORDER, r.topleft, r.bottomleft, 2)
        x, y = r.left + 12, r.top + 10
        big, small = font(20), font(16)
        surface.blit(big.render("edit mode (E leaves)", True, pal.INK), (x, y))
        y += 30
        for line in _wrap(editor.describe() or "nothing selected", small, r.width - 24)[:3]:
            surface.blit(small.render(line, True, pal.INK), (x, y))
            y += 18
        y += 8
        for key, what in EDIT_KEYS:
            surface.blit(small.render(key, True, pal.BLUE), (x, y))
            surface.blit(small.render(what, True, pal.INK), (x + 120, y))
            y += 18
        y += 8
        for line in _wrap(self.message, small, r.width - 24)[:6]:
            bad = "refused" in self.message
            surface.blit(small.render(line, True, pal.VERMILLION if bad else pal.INK), (x, y))
            y += 18


def _shown(value: object) -> str:
    """A resource as people read it: a list as its items ("[double] 4, [quad] 5"; "-" empty)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def _wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    out, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if f.size(trial)[0] > width and line:
            out.append(line)
            line = word
        else:
            line = trial
    if line:
        out.append(line)
    return out


class HelpOverlay:
    """Every shortcut, over the table; any key or click closes it."""

    done = False

    def handle_event(self, e: pygame.event.Event) -> bool:
        if e.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.done = True
            return True
        return False

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 140))
        surface.blit(shade, (0, 0))
        f, g = font(20), font(26)
        box = pygame.Rect(0, 0, 640, 60 + 28 * len(SHORTCUTS))
        box.center = (w // 2, h // 2)
        pygame.draw.rect(surface, pal.PAPER, box, border_radius=8)
        pygame.draw.rect(surface, pal.INK, box, 2, border_radius=8)
        surface.blit(g.render("battlefield play: shortcuts", True, pal.INK),
                     (box.left + 20, box.top + 14))
        y = box.top + 52
        for key, what in SHORTCUTS:
            surface.blit(f.render(key, True, pal.BLUE), (box.left + 20, y))
            surface.blit(f.render(what, True, pal.INK), (box.left + 220, y))
            y += 28
