"""`battlefield play`: the window. A stack of scenes, each with handle_event / update(dt) /
draw(surface); the top one gets the events, all are drawn bottom up. PlayScene is the game at
the table: the board (TableView), the drag tool, the measure tool, the side panel, hot-seat or
against the computer player, undo/redo, save/load of the action log, F12 screenshots."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame
import yaml

from battlefield import palette as pal
from battlefield.depiction import live
from battlefield.errors import InputError
from battlefield.files import write_text
from battlefield.page.words import action_title
from battlefield.rules import event_words, log, outcome, players, registry
from battlefield.rules.actions import Action, IllegalAction
from battlefield.rules.choices import open_choices
from battlefield.rules.deploy import DEPLOY, TERRAIN
from battlefield.rules.guide import nothing_to_decide, what_now
from battlefield.rules.standing import referee, scene_now
from battlefield.rules.state import Game, State
from battlefield.rules.trial import scene_after
from battlefield.scene.load import load_scene_text
from battlefield.scene.mapfile import scene_yaml
from battlefield.scene.model import Scene
from battlefield.view import auto
from battlefield.view.ability_cards import AbilityCards
from battlefield.view.drag import DragTool, base_points
from battlefield.view.editor import Editor
from battlefield.view.guard import TakeBack, choice_words, game_version, spends
from battlefield.view.held import hold
from battlefield.view.measure_tool import MeasureTool
from battlefield.view.opening import Setup, battle_text, to_phase
from battlefield.view.panels import WIDTH, HelpOverlay, Panel
from battlefield.view.setting_up import SetUpTool
from battlefield.view.stack import SIZE, App  # noqa: F401  (App: as before, from here)
from battlefield.view.table_view import TableView
from battlefield.view.targeting import Targeting


@dataclass
class Opened:
    """A game ready to play: its state, the scene text it came from (for saving), its name."""

    state: State
    scene_text: str
    name: str
    extra: dict[str, Any] = field(default_factory=dict)


def open_game(scene_arg: str | None, ruleset: str | None = None, seed: int = 1) -> Opened:
    """The battle (battle_text) as a new game."""
    if ruleset is not None:
        registry.get(ruleset)          # names the playable rulesets when it is not one
    return open_text(*battle_text(scene_arg, ruleset), seed)


def open_text(ruleset: str, text: str, name: str, seed: int = 1) -> Opened:
    """A battle's scene text as a new game, checked as `validate` checks it."""
    registry.get(ruleset)
    scene = registry.checked(load_scene_text(text, name), battle=True)
    return Opened(Game(log.rules_for(ruleset), scene, seed).new_state(), text, name)


class PlayScene(Targeting):
    """The game at the table."""

    def __init__(self, opened: Opened, size: tuple[int, int] = SIZE,
                 computer: tuple[str, ...] = (), save_path: str = "battlefield-game.jsonl"
                 ) -> None:
        self.opened = opened
        w, h = size
        self.table = TableView(opened.state, pygame.Rect(0, 0, w - WIDTH, h))
        self.panel = Panel(pygame.Rect(w - WIDTH, 0, WIDTH, h))
        self.panel.computer = set(computer)
        self.cards = AbilityCards(self.table.rect, self.apply)     # abilities now, unit menu
        self.drag = DragTool(self.table, self.applied, self.say)
        self.drag.not_yours = self.not_yours
        self.drag.hold = self.hold_attack
        self.volley = None             # an attack at several targets (view/targeting.py)
        self.choosing: str | None = None          # a choice button opened (view/targeting.py)
        self.choice_cache: tuple[Any, dict] = (None, {})
        self.setup = SetUpTool(self.table, self.apply, self.say,      # deployment: the reserve
                               mine=lambda side: side not in self.computer)
        self.measure = MeasureTool(self.table, self.say)
        self.measuring = False
        self.picking: tuple[str, str | None] | None = None     # (ability, unit) being targeted
        self.computer = set(computer)
        self.players: dict[str, Any] = {}
        self.level = "normal"          # the computer players' level (play --level)
        self.save_path = save_path
        self.push: Any = None          # a scene to push onto the stack (the app takes it)
        self.shots = 0
        self.editor: Editor | None = None
        self.edited = False
        self.auto_pass = True          # a step with nothing to decide passes by itself
        self.glide: auto.Glide | None = None       # a computer move on its way
        self.glide_s = auto.MOVE_S     # how long a computer move takes on the screen (0: none)
        self._forced: tuple[tuple, Action | None] | None = None
        self._open: tuple[tuple, list[str]] | None = None
        self.saved_actions = len(opened.state.actions)   # the game as opened, saved or loaded
        self.confirm: tuple[str, Any] | None = None      # (question, what Y does): asked first
        self.chosen_at: tuple[Any, ...] | None = None     # the turn an ability was chosen in
        self.aim_cache: dict[Any, str] = {}              # target previews (view/aim.py)
        self.take_back: TakeBack | None = None   # the player's spending choice, undoable
        self.by_itself = False         # the actions applied now are the computer's or auto-pass's
        self.news = False              # the message holds an outcome (a pass by itself keeps it)
        self.passed = False            # ... or says a step passed by itself (the next replaces it)
        self._now: tuple[tuple, str] | None = None

    @property
    def state(self) -> State:
        return self.table.state

    def say(self, text: str) -> None:
        self.panel.message = text
        self.news = self.passed = False

    def applied(self, rolls: list, text: str) -> None:
        """An action went through: the models layer is redrawn, the log scrolls to the newest
        entry, and the message is the newest action worded and credited to the side that
        caused its outcome (outcome.news). The player's own spending choice may be taken back
        until their next action (view.guard)."""
        self.table.changed()
        self.panel.scroll = 0
        if self.chosen_at is not None and self.chosen_at != self.turn():
            # the turn (or phase) passed: the ability chosen for it is no longer meant
            self.drag.wanted = self.panel.chosen = self.chosen_at = None
            self.picking = None
        if not self.by_itself:
            done = self.state.actions[-1]
            self.take_back = (TakeBack(len(self.state.actions) - 1, choice_words(done))
                              if spends(self.state, done) else None)
        newest = self.panel.entries(self.state)[-1]
        # the action as the game log words it: a move with the distance its unit went
        what = action_title(newest.action, newest.shown, newest.caused)
        said = outcome.headline(outcome.last_events(self.state), self.state)
        if self.by_itself and said == "done" and self.news:
            return       # a pass that followed by itself leaves the news in view (what now
            #              says where the game is)
        if newest.credit != newest.side:   # an answer that let the other side's action resolve
            what = newest.action
        elif said == "done" and self.state.pending and event_words.declaration(
                self.state.actions[-1].to_dict(), outcome.last_events(self.state)):
            # a move declared, the roll first: what happened, and who decides its move now
            d = self.state.pending[0]
            what, said = newest.action, f"{d.side} decides {d.kind}"
        elif newest.action in outcome.PASSES and newest.side:   # whose pass, of which phase
            what = f"{newest.side} {newest.action}" + (
                f" ({newest.phase[2]} phase)" if len(newest.phase) > 2 and newest.phase[2]
                else "")
        self.say(f"{what}: {said}")
        self.news = said != "done"

    def take_back_now(self) -> None:
        """The take-back button: the game as it was before the spending choice."""
        tb, self.take_back = self.take_back, None
        if tb is None:
            return
        while len(self.state.actions) > tb.before and self.state.undo():
            pass
        self.panel.by_itself = {k: p for k, p in self.panel.by_itself.items() if k < tb.before}
        self.glide = None
        self.table.changed()
        self.say(f"took back {tb.what}: choose again")

    def now_line(self) -> str:
        """Where the game is and what the step expects (rules.guide), once per state."""
        st = self.state
        key = (id(st), len(st.actions), len(st.pending), self.table.version)
        if self._now is None or self._now[0] != key:
            said = what_now(st, self.open_now())
            if st.acting_side in self.computer and not st.over:     # nothing for the human
                said = (f"the computer is playing {st.acting_side}"
                        + (f" in {st.active}'s {st.phase} phase" if st.phase else
                           f" in {st.active}'s turn" if st.active else "")
                        + ": wait for it (any key or click shows its move at its end)")
            self._now = (key, said)
        return self._now[1]

    def not_yours(self, action: Action) -> str | None:
        """Why the player may not send `action`: the engine gives it to a computer side
        (State.sender), else None."""
        sender = self.state.sender(action)
        if sender in self.computer:
            return f"{action.type} is {sender}'s to send, and the computer plays {sender}"
        return None

    def apply(self, action: Action, computer: bool = False) -> bool:
        """The player's action (computer=True: a computer side's own choice)."""
        refused = None if computer else self.not_yours(action)
        if refused is not None:
            self.say("illegal: " + refused)
            return False
        before = len(self.state.dice.log)
        places = auto.positions(self.state)
        try:
            events = self.state.apply(action)
        except IllegalAction as exc:
            self.say("illegal: " + "; ".join(live.reasons(exc.violations)))
            return False
        if self.glide_s > 0 and action.type != DEPLOY:   # the computer's units glide, anyone's act
            self.glide = auto.Glide.of(self.state, action, places, self.glide_s, events, None
                                       if computer else self.computer) or self.glide
        what = f"{action.type}" + (f" {action.unit}" if action.unit else "")
        what += f" -> {action.target}" if action.target else ""
        self.applied(self.state.dice.log[before:], f"{what}: {live.outcome(events)}")
        return True

    def turn(self) -> tuple[Any, ...]:
        """Whose turn and which phase it is (an ability chosen lasts as long as this)."""
        st = self.state
        return st.round, st.active, st.phase

    def unsaved(self) -> int:
        """Actions played since the game was opened, saved or loaded (lost if discarded)."""
        return max(0, len(self.state.actions) - self.saved_actions)

    def ask(self, question: str, then: Any) -> None:
        """Ask before discarding: Y does `then`, N (or Escape) keeps the game."""
        self.confirm = (question, then)
        self.say(f"{question} Y: yes, N: keep this game")

    def answer(self, e: pygame.event.Event) -> bool:
        """A key while a question is asked: Y goes on, N / Escape / anything else keeps."""
        if e.type not in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            return False
        question, then = self.confirm
        self.confirm = None
        if e.type == pygame.KEYDOWN and e.key == pygame.K_y:
            then()
        else:
            self.say("kept the game in progress")
        return True

    # --- edit mode ----------------------------------------------------------------------------
    def toggle_edit(self) -> None:
        """E: the map editor on or off. The first edit starts a new game on the edited map,
        with the models where they stood; leaving without an edit keeps the game."""
        if self.editor is not None:
            self.editor = None
            self.say("edit mode off" + (": a new game on the edited map" if self.edited else ""))
            return
        self.drag.cancel("")
        self.measuring, self.picking, self.edited = False, None, False
        self.editor = Editor(self.table, self.say, self.rebuild)
        self.editor.scene = scene_now(self.state)
        self.say("edit mode: click a piece; keys in the tool strip; E leaves, Ctrl+S saves")

    def rebuild(self, scene: Scene) -> str | None:
        """A new game on an edited scene, when the loader accepts the scene (else why not)."""
        text = scene_yaml(scene)
        try:
            checked = load_scene_text(text, self.opened.name)
        except InputError as exc:
            return str(exc)
        state = Game(log.rules_for(checked.ruleset.id), checked, self.state.game.seed).new_state()
        resized = (checked.width, checked.depth) != (self.state.scene.width,
                                                     self.state.scene.depth)
        self.opened = Opened(state, text, self.opened.name)
        self.table.state = state
        self.panel.by_itself.clear()
        if resized:
            self.table.fit()               # the whole new board in view
        self.table.changed()
        self.edited = True
        self.saved_actions = len(state.actions)
        return None

    def resize(self, size: tuple[int, int]) -> None:
        """Lay the table and the panel out again in a window of a new size."""
        w, h = max(size[0], WIDTH + 200), max(size[1], 300)
        self.table.resize(pygame.Rect(0, 0, w - WIDTH, h))
        self.panel.rect = pygame.Rect(w - WIDTH, 0, WIDTH, h)
        self.cards.table_rect = pygame.Rect(0, 0, w - WIDTH, h)

    # --- events -------------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> bool:
        if e.type == pygame.VIDEORESIZE:
            self.resize((e.w, e.h))
            return True
        if self.confirm is not None:
            return self.answer(e)
        if self.editor is None and self.glide is None and self.setup.handle_event(e):
            return True
        if e.type == pygame.KEYDOWN and e.key == pygame.K_e and not self.drag.pickup:
            if self.editor is None and self.unsaved():
                self.ask(f"Edit the map? The first edit starts a new game: the "
                         f"{self.unsaved()} unsaved actions of this one are lost.",
                         self.toggle_edit)
                return True
            self.toggle_edit()
            return True
        if e.type == pygame.KEYDOWN and e.key == pygame.K_v:
            self.table.heat = not self.table.heat
            self.say("sight heat map: what share of the board a model at each point sees"
                     if self.table.heat else "sight heat map off")
            return True
        if self.glide is not None and e.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.glide.finish()        # a key or a click: the computer's move at its end
            return True
        help_or_shot = e.type == pygame.KEYDOWN and e.key in (pygame.K_h, pygame.K_F12)
        if self.editor is not None and not help_or_shot:
            return self.editor.handle_event(e) or self.table.handle_event(e)
        if e.type == pygame.KEYDOWN:
            ctrl = e.mod & pygame.KMOD_CTRL if hasattr(e, "mod") else 0
            if ctrl and e.key == pygame.K_z:
                self.undo()
                return True
            if ctrl and e.key == pygame.K_y:
                self.redo()
                return True
            if ctrl and e.key == pygame.K_s:
                self.save()
                return True
            if ctrl and e.key == pygame.K_o:
                if self.unsaved() and Path(self.save_path).exists():
                    self.ask(f"Load {self.save_path}? The {self.unsaved()} unsaved actions of "
                             f"this game are lost.", lambda: self.load(self.save_path))
                    return True
                self.load(self.save_path)
                return True
            if ctrl and e.key == pygame.K_p:
                self.save_position()
                return True
            if e.key == pygame.K_h:
                self.push = HelpOverlay(self.state.scene.ruleset.actions)
                return True
            if e.key == pygame.K_F12:
                self.screenshot()
                return True
            if e.key == pygame.K_a and not self.drag.pickup:
                self.auto_pass = not self.auto_pass
                self.say("auto-pass on: a step with nothing to do but pass passes by itself"
                         if self.auto_pass else "auto-pass off: every step waits for you")
                return True
            if e.key == pygame.K_m:
                self.measuring = not self.measuring
                self.measure.first = self.measure.result = None
                self.say("measure: click two models" if self.measuring else "measure off")
                return True
            if e.key == pygame.K_ESCAPE and (self.measuring or self.picking or self.choosing):
                self.measuring, self.picking, self.volley = False, None, None
                self.choosing = None
                self.say("")
                return True
        if e.type == pygame.MOUSEMOTION and self.picking is not None and self.picking[1]:
            self.aim(e.pos)         # the target under the cursor, before the click
        if self.cards.handle_event(e, self.state, self.table.table_at):
            return True
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            name = self.panel.button_at(e.pos)
            self.panel.guard.pointer_at(e.pos)
            version = game_version(self.state)
            if name is not None and self.panel.guard.blocks(name, version=version):
                self.say(f"the game moved on under {name}: look, then click again"
                         if self.panel.guard.stale(version) else
                         f"{name} has just appeared under the pointer: move the pointer and "
                         "click again to choose it")
                return True
            if name is not None:
                self.panel.tip_off = name
                self.button(name)
                return True
            if self.picking is not None:
                return self.pick(e.pos, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                                 or bool(getattr(e, "shift", False)))
            if self.measuring:
                return self.measure.handle_event(e)
        if self.panel.handle_event(e):
            return True
        if self.drag.handle_event(e):
            return True
        return self.table.handle_event(e)

    def button(self, name: str) -> None:
        if self.take_back is not None and name == self.take_back.label:
            self.take_back_now()
            return
        if self.press_extra(name):      # an attack's own buttons, a choice button's choices
            return
        if name in self.panel.answers:               # a pending decision's answer
            self.picking = None
            self.apply(self.panel.answers[name])
            return
        if live.needs_nothing(self.state, name):
            self.apply(Action(name))
            return
        if name == DEPLOY:
            self.say(f"{name}: drag a unit from the reserve list onto the table")
            return
        if name == TERRAIN:
            self.say(f"{name}: drag a piece from the faction terrain list onto the table")
            return
        self.chosen_at = self.turn()
        if name in live.drag_abilities(self.state):
            self.drag.wanted = self.panel.chosen = name
            self.say(f"{name}: drag a unit")
            return
        self.panel.chosen = name
        self.picking = (name, None)
        self.say(f"{name}: click your unit")

    # --- the game -----------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back the player's last action, and with it what followed by itself (the
        computer's actions, the passes auto-pass gave)."""
        self.take_back = None
        if self.state.undo():
            while ((self.computer and self.state.acting_side in self.computer)
                   or self.forced() is not None) and self.state.undo():
                pass
            done = len(self.state.actions)
            self.panel.by_itself = {k: p for k, p in self.panel.by_itself.items() if k < done}
            self.glide = None
            self.table.changed()
            self.say("undone")
        else:
            self.say("nothing to undo")

    def redo(self) -> None:
        if self.state.redo():
            self.table.changed()
            self.say("redone")
        else:
            self.say("nothing to redo")

    def save(self, path: str | None = None) -> str:
        path = path or self.save_path
        log.write(path, self.state, self.opened.scene_text)
        self.saved_actions = len(self.state.actions)
        self.say(f"saved {len(self.state.actions)} actions to {path}")
        return path

    def save_position(self, path: str | None = None) -> str:
        """The game as it stands, a scene file with the whole position in its `state:` key
        (as `battlefield try --out` writes it): `battlefield play FILE` goes on from there."""


        path = path or str(Path(self.save_path).with_suffix("")) + "-position.yaml"

        write_text(path, yaml.safe_dump(scene_after(self.state), sort_keys=False, width=100))
        self.say(f"saved the position to {path}")
        return path

    def load(self, path: str) -> None:
        if not Path(path).exists():
            self.say(f"no saved game at {path}")
            return
        saved = log.read(path)
        state, _ = log.replay(saved)
        self.opened = Opened(state, saved.scene_text, saved.scene_name)
        self.table.state = state
        self.panel.by_itself.clear()
        self.table.fit()                   # its board, which may not be the one shown before
        self.table.changed()
        self.saved_actions = len(state.actions)
        self.say(f"loaded {path}: {len(state.actions)} actions")

    def draw_glide(self, surface: pygame.Surface) -> None:
        """The table with the gliding models left out, and their bases where they are now."""
        g, tv, t = self.glide, self.table, self.state.table
        surface.blit(tv.units_layer(hidden=g.units), tv.rect.topleft)
        clip = surface.get_clip()
        surface.set_clip(tv.rect)
        for models, where in g.placed(g.fraction()):
            colour = tv.style.side(self.state.side_of(int(t.unit[models[0]])))
            for m, (x, y) in zip(models, where, strict=True):
                pts = base_points(tv.view, t, int(m), float(x), float(y))
                pygame.draw.polygon(surface, colour, pts)
                pygame.draw.polygon(surface, pal.darker(colour, 0.6), pts, 2)
        surface.set_clip(clip)

    def screenshot(self) -> str:
        self.shots += 1
        path = f"battlefield-{self.shots:03d}.png"
        surf = pygame.Surface((self.table.rect.width + self.panel.rect.width,
                               self.table.rect.height))
        self.draw(surf)
        # here, not at the top: the headless picture module sets SDL's dummy driver on import
        from battlefield.view.picture import save_image

        save_image(surf, path)
        self.say(f"screenshot {path}")
        return path

    def forced(self) -> Action | None:
        """The step the acting (human) side would click though it decides nothing (auto.forced)
        while auto-pass is on; None otherwise. Kept while the game stands still."""
        st = self.state
        if not self.auto_pass or st.acting_side in self.computer:
            return None
        key = (id(st), len(st.actions), len(st.pending), self.table.version)
        if self._forced is None or self._forced[0] != key:
            self._forced = (key, auto.forced(st, self.open_now()))
        return self._forced[1]

    def open_now(self) -> list[str]:
        """What the acting side may choose now besides its pass (rules.choices.open_choices:
        a State.check for each unit and target, aos4's charges a path search): asked once per
        state of the game, for both the auto-pass and the panel's pale buttons."""
        st = self.state
        key = (id(st), len(st.actions), len(st.pending), self.table.version)
        if self._open is None or self._open[0] != key:
            self._open = (key, open_choices(st) if not (st.pending or st.over) else [])
        return self._open[1]

    @property
    def animating(self) -> bool:
        """Something goes on by itself (view.frames draws at the frame rate): a computer move
        on its way, or a step to pass by itself."""
        return self.glide is not None or (self.editor is None and self.drag.pickup is None
                                          and self.forced() is not None)

    def update(self, dt: float) -> None:
        """The computer's actions one after another, each move shown gliding along its path;
        the human side's steps with nothing to decide passed by themselves."""
        self.drag.update(dt)
        if self.glide is not None:
            if not self.glide.done:
                return
            self.glide = None
            self.table.changed()
        st = self.state
        if st.over or self.drag.pickup is not None or self.editor is not None \
                or self.setup.held is not None:
            return
        side = st.acting_side
        if side in self.computer:
            if side not in self.players:
                self.players[side] = players.make(
                    st.rules, self.level, players.side_seed(st.game.seed, st.scene.sides, side))
            player = self.players[side]
            action = player.choose(st)
            self.by_itself = True
            try:
                self.apply(action, computer=True)     # its moves glide (apply)
            finally:
                self.by_itself = False
            return
        step = self.forced()
        if step is not None:
            phase = st.phase
            where = f"{side}'s {phase} phase" if phase else f"{side}'s turn"
            why = nothing_to_decide(st) if step.type in auto.passes(st) else ""
            self.by_itself = True
            try:
                applied = self.apply(step)
            finally:
                self.by_itself = False
            if applied and self.news and not self.passed:
                self.panel.by_itself[len(st.actions) - 1] = phase     # the log says so
            elif applied:
                self.panel.by_itself[len(st.actions) - 1] = phase
                self.say(f"{where} passed by itself: nothing to decide"
                         + (f" ({why})" if why else "") + "; A turns auto-pass off"
                         if step.type in auto.passes(st) else
                         f"{side}: {step.type} by itself (nothing else to decide)")
                self.news = self.passed = True   # why it passed: kept by the computer's
                #                                   pass that follows, replaced by the next
            else:
                self._forced = (self._forced[0], None)    # refused: leave it to the player

    def draw(self, surface: pygame.Surface) -> None:
        if self.glide is not None:
            self.draw_glide(surface)
        else:
            self.drag.draw(surface)
        if self.editor is None:
            self.setup.draw(surface)
        if self.measuring:
            self.measure.draw(surface)
        self.draw_targets(surface)
        if self.editor is not None:
            clip = surface.get_clip()
            surface.set_clip(self.table.rect)
            self.editor.draw(surface)
            surface.set_clip(clip)
            self.panel.draw_editor(surface, self.editor)
            return
        self.panel.open_now = self.open_now()
        self.panel.now_line = self.now_line()
        self.panel.take_back = self.take_back.label if self.take_back is not None else None
        self.panel.extra = [] if self.panel.watching else self.extra_labels()
        self.panel.draw(surface, self.state)
        self.cards.draw(surface, self.state, self.table.table_at)


def before_play(setup: Setup, state: State) -> None:
    """What is done to the new game before the table shows it: passing to the phase."""
    if setup.phase:
        to_phase(state, setup.phase)


def table_scene(setup: Setup, opened: Opened, size: tuple[int, int]) -> PlayScene:
    """The play scene for the opened game, set up as asked."""
    scene = PlayScene(opened, size, setup.computer, setup.save_path)
    scene.level = setup.level
    scene.auto_pass = setup.auto_pass
    if setup.load:
        scene.load(setup.load)
    if setup.measure:
        scene.measuring = True
        scene.measure.first = setup.measure[0]
        st = scene.state

        scene.measure.result = referee(st).measure_report(*setup.measure)
    if setup.drag:
        scene.drag.wanted = setup.ability     # as if chosen with the phase bar's button
        hold(scene, setup.drag, setup.to, setup.target, setup.facing)
    scene.table.heat = setup.heat
    if setup.edit is not None:
        scene.toggle_edit()
        if setup.edit:
            scene.editor.selected = ("piece", setup.edit)
    return scene
