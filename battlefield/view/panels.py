"""The side panel: the turn and phase bar (round, active side, acting side, CP and VP), the
abilities legal now as buttons (State.available) - or, while a decision is pending, who decides
what and its choices as buttons - the last message and the dice log; and the help overlay
listing every shortcut."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from battlefield import palette as pal
from battlefield.page.words import action_title
from battlefield.rules import outcome
from battlefield.rules.actions import Action
from battlefield.rules.choices import open_choices, passes
from battlefield.rules.event_words import about_words
from battlefield.rules.state import State
from battlefield.view.drawing import font
from battlefield.view.editor_marks import SHORTCUTS as EDIT_KEYS
from battlefield.view.guard import ButtonGuard, game_version

WIDTH = 340
NOW_LINES = 3                # the lines kept for "what now" under the phase bar, at least
NOW_MOST = 6                 # ... and at most (a longer one ends in "..." after a word)
SHORTCUTS = (
    ("left drag", "move a unit (Shift: one model) for the ability chosen"),
    ("drop", "apply it; illegal snaps back; a charge a hair off snaps legal"),
    ("buttons", "choose the ability; end-phase / end-turn pass; answer a decision"),
    ("click, click", "targeted ability: your unit, then the enemy"),
    ("Shift+click enemy", "shoot / fight at several: list a further target (again: off); "
                          "a fight dropped with Shift waits for more"),
    ("right drag / arrows", "pan"),
    ("right click a unit", "its menu: declare its abilities, adjust by hand (others consent)"),
    ("wheel / + -", "zoom"),
    ("F", "fit the board"),
    ("A", "auto-pass on / off (steps with nothing to do but pass pass by themselves)"),
    ("any key / click", "during a computer move: show it at its end"),
    ("M", "measure tool: click two models"),
    ("V", "sight heat map of the layout on / off"),
    ("E", "map editor on / off (its keys show in the panel)"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Ctrl+S / Ctrl+O", "save / load the action log (asks before losing moves)"),
    ("Ctrl+P", "save the position (a scene file that goes on from here)"),
    ("panel wheel, PgUp PgDn", "scroll the game log (Home: the newest)"),
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
        self.extra: list[str] = []     # an attack's own buttons while aimed (view/volley.py)
        self.network = ""                        # joined to a server: seat, connection, turn
        self.watching = False                    # a spectator's window: nothing to press
        self.computer: set[str] = set()          # the sides the computer plays
        self.scroll = 0                          # log lines scrolled back from the newest
        self._entries: tuple[tuple[int, int, int], list[outcome.Entry]] | None = None
        self.hover: tuple[int, int] | None = None   # the cursor over the panel (tooltips)
        self.tip_off: str | None = None   # the button just clicked: no tooltip over its verdict
        self.by_itself: dict[int, str | None] = {}   # action number -> phase: auto-pass took it
        self.open_now: list[str] | None = None   # the scene's open_choices of the state drawn
        self.buttons_top = 0         # the button row never moves up under the cursor
        self.back_top = 0            # nor the take-back button's row
        self._top_key: tuple[Any, ...] = ()
        self.guard = ButtonGuard()   # a button that appears under the pointer waits a moment
        self.now_line = ""           # where the game is and what the step expects (rules.guide)
        self.take_back: str | None = None   # the button that takes back a spending choice

    def handle_event(self, e: pygame.event.Event) -> bool:
        """The game log scrolls: the wheel over the panel, Page Up / Page Down, Home. The
        cursor's place is kept for the buttons' tooltips."""
        if e.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            self.guard.pointer_at(e.pos)
        if e.type == pygame.MOUSEMOTION:
            self.hover = e.pos if self.rect.collidepoint(e.pos) else None
            if self.tip_off is not None and self.button_at(e.pos) != self.tip_off:
                self.tip_off = None           # off the clicked button: tooltips again
        if e.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.scroll = max(0, self.scroll + 3 * e.y)
            return True
        if e.type == pygame.KEYDOWN and e.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN,
                                                  pygame.K_HOME):
            step = {pygame.K_PAGEUP: 10, pygame.K_PAGEDOWN: -10}.get(e.key)
            self.scroll = 0 if step is None else max(0, self.scroll + step)
            return True
        return False

    def entries(self, state: State) -> list[outcome.Entry]:
        """The game log worded (outcome.game_log), kept while the state's events stay."""
        key = (id(state), len(state.events), id(state.events[-1]) if state.events else 0)
        if self._entries is None or self._entries[0] != key:
            self._entries = (key, outcome.game_log(state))
        return self._entries[1]

    def now_lines(self, small: pygame.font.Font) -> list[str]:
        """The "what now" line wrapped on words to the panel's width: NOW_MOST lines at most,
        the last cut after a word."""
        width = self.rect.width - 24
        lines = _wrap(self.now_line, small, width)
        if len(lines) > NOW_MOST:
            lines = lines[:NOW_MOST - 1] + [_cut(" ".join(lines[NOW_MOST - 1:]), small, width)]
        return lines

    def _computer(self, surface: pygame.Surface, state: State, x: int, y: int) -> int:
        """What the computer did this phase, one line an action (its outcome beside it)."""
        done = outcome.phase_actions(state, self.computer)
        if not done:
            return y
        small = font(16)
        sides = ", ".join(sorted({e.side for e in done if e.side}))
        surface.blit(font(18).render(f"computer ({sides}) this phase:", True, pal.INK), (x, y))
        y += 20
        for en in done[-6:]:
            # what the computer itself did; an answer that let the other side's action
            # resolve is its answer alone (the outcome is that action's, in the game log)
            text = en.own if en.credit != en.side else (
                en.action + (f": {en.lines[0]}" if en.lines else ""))
            for k, line in enumerate(_wrap(text, small, self.rect.width - 36)[:2]):
                surface.blit(small.render(line, True, pal.INK_SOFT), (x + (12 if k else 4), y))
                y += 17
        return y + 8

    def log_lines(self, state: State, most: int = 200) -> list[tuple[str, pal.RGB, int]]:
        """The game log's lines, the newest action first (text, ink, indent): each action
        (a pass says its phase; one auto-pass took says so), what came of it, its dice."""
        small = font(16)
        width = self.rect.width
        colours = pal.side_colours(state.sides)
        lines: list[tuple[str, pal.RGB, int]] = []
        for n, en in reversed(list(enumerate(self.entries(state)))):
            # in the colour of the side whose action the outcome is (rules.outcome: an answer
            # that let the other side's attack resolve is that attack)
            ink = pal.darker(colours.get(en.credit, pal.INK), 0.5) if en.credit else pal.INK
            # a move with the distance its unit went, as the replay page words it
            said = action_title(en.action, en.shown, en.caused)
            if en.side and said.split(" ")[0] in outcome.PASSES:
                said = f"{en.side} {said}"          # whose pass
            if n in self.by_itself:
                phase = self.by_itself[n]
                said += (f" by itself ({phase} phase: nothing to decide)" if phase else
                         " by itself (nothing to decide)")
            elif en.action in outcome.PASSES and len(en.phase) > 2 and en.phase[2]:
                said += f" ({en.phase[2]} phase)"       # which of the many end-phases
            for k, line in enumerate(_wrap(said, small, width - 30)):
                lines.append((line, ink, 8 if k else 0))
            for text in en.lines:
                for k, line in enumerate(_wrap(text, small, width - 44)):
                    lines.append((line, pal.INK, 22 if k else 12))
            if en.rolls:
                for k, line in enumerate(_wrap("dice: " + "; ".join(en.rolls), small,
                                               width - 44)):
                    lines.append((line, pal.INK_SOFT, 22 if k else 12))
            if len(lines) > most:
                break
        return lines

    def _log(self, surface: pygame.Surface, state: State, x: int, y: int) -> None:
        """The game's actions, the newest first (log_lines); scrolled back by `scroll`
        lines."""
        r = self.rect
        small = font(16)
        head = "game log" + (f"  (scrolled back {self.scroll})" if self.scroll else
                             "  (wheel / PgUp PgDn)")
        surface.blit(font(20).render(head, True, pal.INK), (x, y))
        y += 24
        lines = self.log_lines(state, self.scroll + 200)
        self.scroll = min(self.scroll, max(0, len(lines) - 1))
        room = max(0, (r.bottom - y - 6) // 17)
        for text, ink, indent in lines[self.scroll:self.scroll + room]:
            surface.blit(small.render(text, True, ink), (x + indent, y))
            y += 17

    def idle(self, state: State) -> frozenset[str]:
        """The buttons drawn pale: action types `available` offers that no unit of the acting
        side may take now (rules.choices; a click on one still says why), from `open_now`, the
        open choices the scene keeps while the game stands still (computed here without it)."""
        if state.pending or state.over:
            return frozenset()
        open_now = self.open_now if self.open_now is not None else open_choices(state)
        passing = passes(state)
        return frozenset(a for a in state.available() if a not in passing and a not in open_now)

    def computer_acting(self, state: State) -> str | None:
        """The computer side acting now (the first pending decision's, else the side whose
        turn it is to act), or None: the human's turn, a decision the human must answer, a
        game over, or a spectator's window."""
        side = state.acting_side
        return side if side in self.computer and not state.over and not self.watching else None

    def computers(self, state: State, action: Action) -> bool:
        """Whether `action` is a computer side's to send now (Ruleset.sender): its button
        is not the human's (a click on it would be refused)."""
        return state.sender(action) in self.computer

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
                 + (f"  {state.phase} phase" if state.phase else "")
                 if state.active is not None else f"round {state.round}  before its first turn")
        surface.blit(big.render(title, True, pal.INK), (x, y))
        y += 26
        surface.blit(small.render(f"acting: {state.acting_side}", True, pal.INK), (x, y))
        y += 20
        # where the game is and what the step expects (rules.guide), in a box of its own
        # height always, so the buttons below never move when it changes
        lines = self.now_lines(small)
        for k, line in enumerate(lines):
            surface.blit(small.render(line, True, pal.darker(pal.BLUE, 0.7)), (x, y + 18 * k))
        y += 18 * max(NOW_LINES, len(lines)) + 2
        if self.network:
            for line in _wrap(self.network, small, r.width - 24)[:2]:
                surface.blit(small.render(line, True, pal.VERMILLION if "reconnecting" in line
                                          or "failed" in line else pal.INK), (x, y))
                y += 18
        named = state.scene.ruleset.resources     # what ruleset.yaml says each side has
        for side, res in state.sides.items():
            bits = ([f"{name} {_shown(res[k])}" for k, name in named if k in res] if named else
                    [f"{k.upper()} {v}" for k, v in res.items() if isinstance(v, (int, float))])
            if not bits:                              # a ruleset whose sides keep nothing
                continue
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
        names = []
        playing = self.computer_acting(state)
        for name in (() if self.watching else state.available()):
            if picks_a_side(state, name):       # warband's first: who goes first
                for side in state.sides:
                    if not (playing and self.computers(state, Action(name, side=side))):
                        self.answers[f"{name} {side}"] = Action(name, side=side)
                        names.append(f"{name} {side}")
            elif not (playing and self.computers(state, Action(name))):
                names.append(name)
        if state.pending:
            y = self._decision(surface, state, x, y)
            d = state.pending[0]
            self.answers = ({} if self.watching or playing else
                            {d.label(c): c for c in d.choices})
            names = list(self.answers)
        # The buttons stay where they were when the text above them gets shorter (a resource
        # line that wrapped, a decision box that went): they only ever move down.
        key = (self.rect.size, id(state.game))      # a new window size or game: measured anew
        if key != self._top_key:
            self._top_key, self.buttons_top, self.back_top = key, 0, 0
        self.buttons_top = y = max(y, self.buttons_top)
        bx = x
        idle = self.idle(state)
        if playing and not names:
            # the computer's side acts and asks the human nothing: no button to press, only
            # the line that says so where the buttons stand (a decision put to the human
            # makes the human's side the acting one, and its answers are buttons again)
            said = f"the computer is playing {playing}: no buttons until it is done"
            lines = _wrap(said, small, r.width - 24)[:2]
            for k, line in enumerate(lines):
                surface.blit(small.render(line, True, pal.INK_SOFT), (x, y + 4 + 18 * k))
            # the lines' room; the take-back row (the human's own) under them
            y += 18 * (len(lines) - 1) + (28 if self.take_back else 0)
        names = [*names, *([] if playing else self.extra)]
        if self.take_back:
            names = [*names, self.take_back]
        for name in names:
            w = small.size(name)[0] + 14
            if name == self.take_back:
                # a row of its own that never moves up (a shorter row of choices above it
                # would carry it up under the pointer)
                self.back_top = y = max(y + 28 if bx > x else y, self.back_top)
                bx = x
            elif bx + w > r.right - 8:
                bx, y = x, y + 28
            b = pygame.Rect(bx, y, w, 24)
            on = name == self.chosen
            back = pal.SKY if on else (244, 244, 240) if name in idle else (255, 255, 255)
            if name == self.take_back:
                back = (255, 236, 214)           # taking back: apart from the choices
            pygame.draw.rect(surface, back, b, border_radius=4)
            pygame.draw.rect(surface, pal.INK_SOFT, b, 1, border_radius=4)
            surface.blit(small.render(name, True, pal.INK_SOFT if name in idle else pal.INK),
                         (bx + 7, y + 4))
            self.buttons.append((b, name))
            bx += w + 6
        self.guard.drawn(self.buttons, version=game_version(state))
        y += 36
        y = self._unit_notes(surface, state, x, y)
        for line in _wrap(self.message, small, r.width - 24)[:5]:
            surface.blit(small.render(line, True, pal.VERMILLION if "snapped" in self.message
                                      or "illegal" in self.message else pal.INK), (x, y))
            y += 18
        y += 8
        if self.computer:
            y = self._computer(surface, state, x, y)
        self._log(surface, state, x, y)
        self._tooltip(surface, state)

    def _tooltip(self, surface: pygame.Surface, state: State) -> None:
        """Under the button the cursor is on: what choosing it costs or means, from the
        ruleset's data (its vocabulary's `explain:`, else `does:`)."""
        name = self.button_at(self.hover) if self.hover is not None else None
        if name is not None and (name == self.tip_off or self.guard.unmoved(name)):
            # clicked, or come under the pointer by itself (the next phase's button where the
            # clicked one was): the message it would cover says what came of the click
            return
        text = button_tip(state, name, self.answers) if name is not None else ""
        if name is not None and name == self.take_back:
            text = (f"{name}: undo that choice and what followed by itself; you may until "
                    "your next action")
        if not text:
            return
        small = font(16)
        below = max(r.bottom for r, _ in self.buttons)       # under every row of buttons
        lines = _wrap(text, small, self.rect.width - 40)[:4]
        box = pygame.Rect(self.rect.left + 8, below + 4, self.rect.width - 16,
                          10 + 18 * len(lines))
        pygame.draw.rect(surface, (255, 255, 225), box, border_radius=4)
        pygame.draw.rect(surface, pal.INK_SOFT, box, 1, border_radius=4)
        for k, line in enumerate(lines):
            surface.blit(small.render(line, True, pal.INK), (box.left + 8, box.top + 5 + 18 * k))

    def _unit_notes(self, surface: pygame.Surface, state: State, x: int, y: int) -> int:
        """What the ruleset says about units now (Ruleset.unit_notes), one line each."""
        small = font(16)
        colours = pal.side_colours(state.sides)
        for u, text in sorted(state.rules.window.unit_notes(state).items())[:8]:
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
        about = about_words(dict(d.about)) if d.about else ""
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


def picks_a_side(state: State, ability: str) -> bool:
    """Whether the action's one field is a side to choose (warband's `first`: who activates
    first, fields ["side?"]): a button for each side, so the choice is the player's."""
    return any(a.id == ability and [f.rstrip("?") for f in a.fields] == ["side"]
               for a in state.scene.ruleset.actions)


def button_tip(state: State, name: str, answers: dict[str, Action] | None = None) -> str:
    """A button's one-line explanation from the ruleset's vocabulary: the action it gives (a
    decision's answer, "commit 3", is the action it stands for)."""
    kind = answers[name].type if answers and name in answers else name
    doc = next((a for a in state.scene.ruleset.actions if a.id == kind), None)
    return f"{name}: {doc.tip}" if doc is not None else ""


def _shown(value: object) -> str:
    """A resource as people read it: a list as its items ("[double] 4, [quad] 5"; "-" empty)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def _cut(text: str, f: pygame.font.Font, width: int) -> str:
    """The text cut to `width` with '...' when it is longer: after a whole word (a word
    longer than the width alone is cut within)."""
    if f.size(text)[0] <= width:
        return text
    words = text.split()
    while len(words) > 1 and f.size(" ".join(words) + "...")[0] > width:
        words.pop()
    text = " ".join(words)
    while text and f.size(text + "...")[0] > width:
        text = text[:-1]
    return text.rstrip(" ,;:-") + "..."


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
    """Every shortcut and what each of the ruleset's buttons costs or means (its vocabulary's
    `explain:` lines), over the table; any key or click closes it."""

    done = False

    def __init__(self, actions: Sequence[Any] = ()) -> None:
        self.tips = [(a.id, a.explain) for a in actions if getattr(a, "explain", "")]

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
        f, g, small = font(20), font(26), font(16)
        tips = [(name, _wrap(text, small, 560)) for name, text in self.tips]
        extra = (40 + sum(18 * len(lines) + 4 for _, lines in tips)) if tips else 0
        box = pygame.Rect(0, 0, 820, min(h - 10, 60 + 28 * len(SHORTCUTS) + extra))
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
        if tips:
            y += 8
            surface.blit(f.render("the buttons: what each costs or means", True, pal.INK),
                         (box.left + 20, y))
            y += 30
            for name, lines in tips:
                if y + 18 * len(lines) > box.bottom:
                    break
                surface.blit(small.render(name, True, pal.BLUE), (box.left + 20, y))
                for line in lines:
                    surface.blit(small.render(line, True, pal.INK), (box.left + 220, y))
                    y += 18
                y += 4
