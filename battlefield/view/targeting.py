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

    say: Callable[[str], None]
    apply: Callable[..., bool]

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
        shift-click lists one more target of an attack whose attacks may be split."""
        hit = live.unit_at(self.state, *self.table.table_at(pos))
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
