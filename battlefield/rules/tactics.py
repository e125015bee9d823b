"""The frame of the normal level's players: a player that lists what it could do now - for each
action type the acting side may use, the candidates its entry names, each with a score - and
takes the best that State.check accepts; a decision another side's action asked is answered by
the entry for its kind. A ruleset's normal player is this frame and its entries, so a new
action type or a new decision (aos4's unbind, a priority roll's choice, an attack split) is one
entry more, not a rewrite:

    class Aos4Normal(Tactician):
        def entries(self): return {"shoot": self.shots, "normal-move": self.moves, ...}
        def answers(self): return {"all-out-defence": self.defend, ...}

Scores are the entry's own measure of what an action is worth to its side (expected damage,
objectives' control, the odds of a charge): the frame only sorts them, and a pass scores
`pass_score` (0 by default: anything worth more than nothing is done first). The frame checks
candidates best first and stops at the first legal one, so an entry may be generous.

`candidates(state, limit)` gives the best `limit` legal ones, the choice first: what the strong
level's search weighs (rules/search.py). What a player works out once per phase (each unit's
plan, exact odds per target) it keeps with `remember`, forgotten when the phase changes."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, TypeVar

from battlefield.rules.actions import Action
from battlefield.rules.choices import passes
from battlefield.rules.decisions import DECLINE, Decision
from battlefield.rules.sampling import random_legal
from battlefield.rules.state import State

T = TypeVar("T")
Scored = tuple[float, Action]
Entry = Callable[[State], Iterable[Scored]]
Answer = Callable[[State, Decision], Action]


class Tactician:
    """A player made of entries: see the module."""

    level = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._moment: Hashable = None
        self._kept: dict[Hashable, Any] = {}

    # --- what a ruleset's player writes --------------------------------------------------------
    def entries(self) -> Mapping[str, Entry]:
        """{action type: its candidates now, each (score, action)}."""
        return {}

    def answers(self) -> Mapping[str, Answer]:
        """{decision kind: this side's answer (one of the decision's choices)}."""
        return {}

    def other(self, state: State, kind: str) -> Iterable[Scored]:
        """The candidates of a type `entries` does not name (aos4's spells, warband's
        fighters' own abilities: types that depend on the unit). Default: none."""
        return ()

    def kinds(self, state: State) -> list[str]:
        """The action types to weigh now. Default: those the acting side may use
        (State.available)."""
        return list(state.available())

    def pass_score(self, state: State) -> float:
        """What passing is worth now, against the entries' scores."""
        return 0.0

    def moment(self, state: State) -> Hashable:
        """What `remember` keeps things for: the round, the active side and the phase (a
        ruleset whose turns have more to them says so)."""
        c = state.clock
        return (c.get("round"), c.get("turn"), c.get("active"), c.get("phase"),
                c.get("acting"))

    # --- the frame -------------------------------------------------------------------------------
    def choose(self, state: State) -> Action:
        return self.candidates(state, 1)[0]

    def candidates(self, state: State, limit: int) -> list[Action]:
        """The best `limit` legal actions now, best first (a pending decision: this side's
        answer first, then its other choices)."""
        if state.pending:
            d = state.pending[0]
            first = self.answer(state, d)
            return [first, *[c for c in d.choices if c != first]][:max(1, limit)]
        scored: list[Scored] = []
        table = self.entries()
        passing = passes(state)
        for kind in self.kinds(state):
            if kind in passing:
                scored.append((self.pass_score(state), Action(kind)))
            elif kind in table:
                scored.extend(table[kind](state))
            else:
                scored.extend(self.other(state, kind))
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        out: list[Action] = []
        refused = self.remember(state, "refused", set)
        for i in order:
            action = scored[i][1]
            if action in out or action in refused:
                continue
            if state.check(action):
                # refused now: not checked again this moment (what another unit's action
                # frees up is offered again as a new candidate, or next moment)
                refused.add(action)
                continue
            out.append(action)
            if len(out) >= limit:
                break
        return out or [self.fallback(state)]

    def answer(self, state: State, d: Decision) -> Action:
        """This side's answer to decision `d`: its entry's, else declining (else the first
        choice)."""
        entry = self.answers().get(d.kind)
        if entry is not None:
            chosen = entry(state, d)
            found = d.matches(chosen)
            if found is not None:
                return found
        return next((c for c in d.choices if c.type == DECLINE), d.choices[0])

    def fallback(self, state: State) -> Action:
        """When no candidate is legal: the pass, else any legal action the engine finds."""
        for kind in state.available():
            if kind in passes(state) and not state.check(Action(kind)):
                return Action(kind)
        found = random_legal(state, random.Random(self.seed + len(state.actions)))
        if found is None:
            raise RuntimeError(f"no legal action for {state.acting_side}")
        return found

    def remember(self, state: State, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, kept until the moment (see `moment`) changes."""
        now = self.moment(state)
        if now != self._moment:
            self._moment, self._kept = now, {}
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]


def mine(state: State, side: str | None = None) -> list[int]:
    """The units of `side` (default: the acting side) with models on the table."""
    side = side or state.acting_side
    return [u for u, s in enumerate(state.scene.units) if s.side == side
            and len(state.models_of(u))]


def theirs(state: State, side: str | None = None) -> list[int]:
    """The units of the other sides with models on the table."""
    side = side or state.acting_side
    return [u for u, s in enumerate(state.scene.units) if s.side != side
            and len(state.models_of(u))]


__all__ = ["Answer", "Entry", "Scored", "Tactician", "mine", "theirs"]
