"""An attack aimed at several targets in the window (shoot, fight: the ruleset says which,
Window.volley). Shift-click on an enemy while a shot's target is picked (or a fight dropped with
Shift held) lists it, a second shift-click takes it off; a plain click on an enemy adds it and
sends the attack. While targets are listed the panel has a button that sends the attack and one
per weapon that reaches more than one of them: a click sends all that weapon's attacks at the
next target in turn ("WEAPON: all at TARGET"), past the last back to "shared" (dealt as play
deals them, the engine's default). The action sent is the one `battlefield try` takes: a list
of targets and, when a weapon was aimed, its "split". No pygame: the tests read the text."""

from __future__ import annotations

from dataclasses import replace

from battlefield.depiction import live
from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.rules.window import Volley

SHARED = "shared"


class Aiming:
    """The attack in hand: the action as picked (its unit, a fight's pile-in), the targets
    listed so far and where each aimed weapon's attacks go."""

    def __init__(self, base: Action) -> None:
        self.base = base
        self.targets: list[str] = list(base.targets)
        self.aims: dict[str, str] = {}           # weapon -> the target all its attacks go at

    @staticmethod
    def splits(state: State, action: Action) -> bool:
        """Whether the ruleset lets this ability's attacks be split between targets."""
        return state.rules.window.volley(state, action, {}) is not None

    def with_targets(self, targets: list[str]) -> Action:
        return replace(self.base, target=tuple(targets) if len(targets) > 1 else
                       (targets[0] if targets else None))

    def volley(self, state: State, targets: list[str] | None = None) -> Volley | None:
        return state.rules.window.volley(state, self.with_targets(
            self.targets if targets is None else targets), self.aims)

    def action(self, state: State) -> Action:
        """The action the send button (or the last plain click) gives."""
        v = self.volley(state)
        return v.action if v is not None else self.with_targets(self.targets)

    def toggle(self, tid: str) -> None:
        if tid in self.targets:
            self.targets.remove(tid)
            self.aims = {w: t for w, t in self.aims.items() if t != tid}
        else:
            self.targets.append(tid)

    def add(self, tid: str) -> None:
        if tid not in self.targets:
            self.targets.append(tid)

    def send_label(self) -> str:
        return f"{self.base.type} at {len(self.targets)} targets"

    def labels(self, state: State) -> list[str]:
        """The panel's buttons while targets are listed: send, then a button per weapon."""
        v = self.volley(state)
        out = [self.send_label()]
        for name, reach in v.weapons if v is not None else []:
            out.append(f"{name}: all at {self.aims[name]}" if self.aims.get(name) in reach
                       else f"{name}: {SHARED}")
        return out

    def press(self, state: State, label: str) -> Action | None:
        """A click on one of its buttons: the action to send (the send button), or None when a
        weapon's aim moved on to the next target it reaches (or back to shared)."""
        if label == self.send_label():
            return self.action(state)
        v = self.volley(state)
        for name, reach in v.weapons if v is not None else []:
            if label.startswith(f"{name}: "):
                now = self.aims.get(name)
                nxt = reach.index(now) + 1 if now in reach else 0
                if nxt < len(reach):
                    self.aims[name] = reach[nxt]
                else:
                    self.aims.pop(name, None)
        return None

    def text(self, state: State, hovered: str | None = None) -> str:
        """What sending would be - the engine's verdict on that very action and each target's
        attacks and odds - with `hovered` listed too when it is not yet (what its click adds)."""
        targets = self.targets + ([hovered] if hovered and hovered not in self.targets else [])
        v = self.volley(state, targets)
        action = v.action if v is not None else self.with_targets(targets)
        bad = state.check(action)
        head = f"{self.base.type} {self.base.unit} -> {' + '.join(targets) or '?'}: "
        head += "illegal: " + "; ".join(live.reasons(bad)) if bad else "legal"
        lines = [head, *(v.lines if v is not None and not bad else [])]
        lines.append(f"shift-click: +/- target; click: {self.base.type}; weapon buttons: where "
                     "its attacks go; Esc: cancel")
        return "; ".join(lines)
