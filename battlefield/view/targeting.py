"""Picking an ability's target with the cursor in the window (PlayScene's part): the preview
of the enemy under the cursor before the click (view/aim.py), the click on your unit and then
on the target, and an attack at several targets (view/volley.py: shift-click lists one more,
a fight dropped with Shift held waits for more)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from battlefield.depiction import live
from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.view.aim import aim_text
from battlefield.view.volley import Aiming


class Targeting:
    """The target picking of the play scene (mixed into PlayScene, whose fields it uses)."""

    state: State
    table: Any
    panel: Any
    picking: tuple[str, str | None] | None
    volley: Aiming | None
    aim_cache: dict[Any, str]
    choosing: str | None
    choice_cache: tuple[Any, dict[str, list[tuple[str, Action]]]]

    say: Callable[[str], None]
    apply: Callable[..., bool]

    def choices(self) -> dict[str, list[tuple[str, Action]]]:
        """The ruleset's choice buttons now (Window.choice_buttons: aos4's magical-intervention
        in the enemy hero phase), asked once per position."""
        st = self.state
        key = (id(st), len(st.actions), len(st.events), len(st.pending), st.acting_side)
        if self.choice_cache[0] != key:
            self.choice_cache = (key, st.rules.window.choice_buttons(st))
        return self.choice_cache[1]

    def extra_labels(self) -> list[str]:
        """The panel's buttons past the ability buttons: the attack in hand's, else an opened
        choice button's choices, else the choice buttons."""
        if self.volley is not None:
            return self.volley.labels(self.state)
        got = self.choices()
        if self.choosing in got:
            return [label for label, _ in got[self.choosing]]
        return list(got)

    def press_extra(self, name: str) -> bool:
        """One of those buttons clicked: the attack's (send it, or aim a weapon), a choice
        button (its choices replace it), or a choice (its action given)."""
        if self.volley is not None and name in self.volley.labels(self.state):
            sent = self.volley.press(self.state, name)
            if sent is not None:
                self.volley = self.picking = self.panel.chosen = None
                self.apply(sent)
            else:
                self.say(self.volley.text(self.state))
            return True
        got = self.choices()
        if self.choosing in got:
            action = dict(got[self.choosing]).get(name)
            if action is not None:
                self.choosing = None
                self.apply(action)
                return True
        if name in got:
            self.choosing = name
            self.say(f"{name}: click what it is used on ({len(got[name])} choices; Esc: cancel)")
            return True
        return False

    def aim(self, pos: tuple[int, int]) -> None:
        """While a target is picked: range, sight, legality and odds for the enemy unit under
        the cursor (view/aim.py), said in the panel before the click."""
        if not self.table.rect.collidepoint(pos):
            return
        hit = live.unit_at(self.state, *self.table.table_at(pos), slack=0.3)
        ability, unit = self.picking
        if hit is None or self.state.side_of(hit[0]) == self.state.side_of(
                self.state.scene.unit_index(unit)):
            self.say(f"{ability} {unit}: click the target")
            return
        if self.volley is not None:
            self.say(self.volley.text(self.state, self.state.scene.units[hit[0]].id))
            return
        self.say(aim_text(self.state, ability, unit, hit[0], self.aim_cache))

    def hold_attack(self, action: Action) -> bool:
        """A drop with Shift held whose attack may be split (a fight at the enemy dropped on):
        held, for more targets to be listed before it is sent (view/volley.py)."""
        if not action.targets or not Aiming.splits(self.state, action):
            return False
        self.volley = Aiming(action)
        self.picking = (action.type, action.unit)
        self.say(self.volley.text(self.state))
        return True

    def aim_more(self, uid: str, shift: bool) -> bool:
        """A click on an enemy while the attack's targets are listed, or a shift-click that
        starts the list: shift toggles it in the list; a plain click adds it and sends."""
        ability, unit = self.picking
        if self.volley is None:
            first = Action(ability, unit, target=uid)
            if not Aiming.splits(self.state, first):
                return False                    # the ruleset aims it at one target
            self.volley = Aiming(Action(ability, unit))
        if not shift:
            self.volley.add(uid)
            action = self.volley.action(self.state)
            self.volley = self.picking = self.panel.chosen = None
            self.apply(action)
            return True
        self.volley.toggle(uid)
        self.say(self.volley.text(self.state))
        return True

    def pick(self, pos, shift: bool = False) -> bool:
        """Targeted abilities: first click your unit, then (when it needs one) the target;
        shift-click lists one more target of an attack whose attacks may be split. A click
        between a unit's bases is on the unit, as a drag's press is (view.drag)."""
        x, y = self.table.table_at(pos)
        hit = live.unit_at(self.state, x, y) or live.unit_between(self.state, x, y)
        if hit is None:
            return False
        ability, unit = self.picking
        uid = self.state.scene.units[hit[0]].id
        if unit is None:
            action = Action(ability, uid)
            bad = self.state.check(action)
            if any(v.choose == "target" for v in bad):     # Ruleset.check: no target given
                self.picking = (ability, uid)
                self.say(f"{ability} {uid}: click the target")
                return True
            self.picking = self.panel.chosen = None      # used: no longer the chosen one
            self.apply(action)
            return True
        enemy = self.state.side_of(hit[0]) != self.state.side_of(
            self.state.scene.unit_index(unit))
        if enemy and (shift or self.volley is not None) and self.aim_more(uid, shift):
            return True
        self.picking = self.panel.chosen = None
        self.apply(Action(ability, unit, target=uid))
        return True


    def draw_targets(self, surface: Any) -> None:
        """The targets listed so far, ringed, each numbered in the order it was listed."""
        if self.volley is None:
            return
        # here, not at the top: the tests of the texts need no pygame drawing
        import pygame

        from battlefield import palette as pal
        from battlefield.view.drawing import font

        st, view = self.state, self.table.view
        for k, tid in enumerate(self.volley.targets):
            t = st.table
            for m in st.models_of(st.scene.unit_index(tid)):
                x, y = view.px(float(t.x[m]), float(t.y[m]))
                r = view.length(float(max(t.a[m], t.b[m]))) + 4
                pygame.draw.circle(surface, pal.VERMILLION, (round(x), round(y)), round(r), 3)
            m = st.models_of(st.scene.unit_index(tid))[0]
            x, y = view.px(float(t.x[m]), float(t.y[m]))
            surface.blit(font(16).render(f"target {k + 1}", True, pal.VERMILLION),
                         (round(x) - 20, round(y) + view.length(float(t.b[m])) + 6))
