"""Game and State: the generic half of the engine, shared by every ruleset.

A Game is a ruleset + a scene + a seed. A State is one moment of a game: where every model
stands, which are alive and how damaged, each unit's flags for the turn, each side's resources
(command points, victory points, morale tokens ...), the clock (round, active side, phase), the
dice and the actions taken so far. Rulesets subclass `battlefield.rules.ruleset.Ruleset` and
never touch the log, the snapshots or the dice state directly: `State.apply` checks,
snapshots, resolves and records.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from battlefield.errors import InputError
from battlefield.geometry.table import Table
from battlefield.rules import boundary, decisions, position
from battlefield.rules.actions import Action, IllegalAction, Violation
from battlefield.rules.decisions import Decision
from battlefield.rules.dice import Dice
from battlefield.rules.result import Result
from battlefield.rules.ruleset import Ruleset
from battlefield.rules.snapshots import (
    HISTORY,
    NOT_COPIED,
    SHARED,
    copied_attributes,
    copy_rule,
    immutable,
)
from battlefield.scene.model import Scene

Event = dict[str, Any]

# A Table never changes once made (moving or removing models gives a new one, and its arrays
# are read-only), so snapshots share it; the dice copy their own generator state and log.
immutable(Table)
copy_rule(Dice, Dice.copy)


def scene_start(state: State, keys: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    """The scene's `state:` key (where a battle starts: round, active side, ...) checked
    against the ruleset's `keys`, and the side that starts (its first side by default)."""
    sides = state.scene.sides
    raw = state.scene.extra.get("state")
    if raw is not None and not isinstance(raw, dict):
        raise start_error(state, (), f"{raw!r} is not a mapping",
                          f"{{{', '.join(f'{k}: ...' for k in keys)}}}")
    start = dict(raw or {})
    unknown = [k for k in start if k not in keys and k not in position.POSITION_KEYS]
    if unknown:
        raise start_error(state, (unknown[0],), "unknown key",
                          f"{', '.join(keys)}, or a whole position: "
                          f"{', '.join(position.POSITION_KEYS)}")
    partial = [k for k in start if k not in keys and k != "clock"]
    if partial and "clock" not in start:
        # A whole position's key without its clock would be read as a round's start and the
        # key left out without a word: refused instead.
        raise start_error(state, (partial[0],), f"{partial[0]!r} belongs to a whole position, "
                          f"which needs its 'clock' too (as try --out writes it)",
                          f"a battle's start: {', '.join(keys)}")
    active = start.get("active", sides[0])
    if active not in sides:
        raise start_error(state, ("active",), f"no side {active!r}", f"one of {', '.join(sides)}")
    return start, active


def start_error(state: State, path: tuple[str | int, ...], message: str,
                expected: str | None = None) -> InputError:
    """A bad value under the scene's `state:` key: its file, key path and line."""
    return state.scene.error(("state", *path), message, expected)


def start_round(state: State, start: dict[str, Any], rounds: int) -> int:
    """The scene's state.round: a whole number 1..rounds (1 when it is not given)."""
    rnd = start.get("round", 1)
    if not isinstance(rnd, int) or isinstance(rnd, bool) or not 1 <= rnd <= rounds:
        raise start_error(state, ("round",), f"{rnd!r} is not a round",
                          f"a whole number 1..{rounds}")
    return rnd


def start_per_side(state: State, start: dict[str, Any], key: str, what: str) -> dict[str, int]:
    """The scene's state.KEY: {side: a whole number of `what`, 0 or more} for some sides."""
    given = start.get(key) or {}
    sides = state.scene.sides
    if not isinstance(given, dict):
        raise start_error(state, (key,), f"expected {what} for each side",
                          f"{{{', '.join(f'{s}: N' for s in sides)}}}")
    for side, n in given.items():
        if side not in sides:
            raise start_error(state, (key, side), f"no side {side!r}",
                              f"one of {', '.join(sides)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise start_error(state, (key, side), f"{n!r} is not a number of {what}",
                              "a whole number, 0 or more")
    return dict(given)


@dataclass
class UnitState:
    """A unit's changing state: which models are alive, damage on each, flags for the turn."""

    alive: np.ndarray
    damage: np.ndarray
    flags: set[str] = field(default_factory=set)       # cleared at the start of each turn
    phase_used: set[str] = field(default_factory=set)  # ability ids used this phase
    counters: dict[str, float] = field(default_factory=dict)

    @property
    def models_alive(self) -> int:
        return int(self.alive.sum())

    @property
    def destroyed(self) -> bool:
        return not self.alive.any()


@dataclass
class Game:
    """A ruleset, a scene, a seed and the game's parameters (the numbers of the ruleset's book
    it sets: {"rounds": 3}, Ruleset.parameters): `rules` is then the ruleset's variant."""

    rules: Ruleset
    scene: Scene
    seed: int = 0
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.params:
            self.rules = self.rules.variant(self.params)
        self.params = dict(self.rules.params)

    def new_state(self, fixed_dice: Iterable[int] = (), keep_undo: bool = True) -> State:
        """The state before the first action. keep_undo=False: apply keeps no undo history
        (computer battles that never step back)."""
        state = State(self, self.scene.table(), Dice.seeded(self.seed, fixed_dice),
                      keep_undo=keep_undo)
        state.sides = {s: {} for s in self.scene.sides}     # setup fills their resources
        state.units = [UnitState(np.ones(len(u.models), dtype=bool),
                                 np.zeros(len(u.models), dtype=np.int64)) for u in self.scene.units]
        state.events.extend(self.rules.setup(state))
        start = self.scene.extra.get("state") or {}
        if position.is_position(start):
            position.restore(state, start)
            position.probe(state)
        return state


@dataclass
class State:
    """One moment of a game. Snapshots (undo, redo, a failed apply) copy each attribute by the
    rules of battlefield.rules.snapshots: a new field needs metadata only when its type's rule
    does not fit (the game is shared, the history lists copied but not their entries)."""

    game: Game = field(metadata=SHARED)
    table: Table
    dice: Dice
    units: list[UnitState] = field(default_factory=list)
    sides: dict[str, dict[str, Any]] = field(default_factory=dict)  # side -> resources
    clock: dict[str, Any] = field(default_factory=dict)             # round, active, phase ...
    objectives: dict[str, str | None] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)             # ruleset-specific
    pending: tuple[Decision, ...] = ()       # decisions awaited (rules/decisions.py)
    answers: tuple[tuple[Decision, Action], ...] = ()   # given so far, secret ones too
    suspended: dict[str, Any] | None = None  # what the ruleset resumes once all are answered
    actions: list[Action] = field(default_factory=list, metadata=HISTORY)
    events: list[Event] = field(default_factory=list, metadata=HISTORY)
    keep_undo: bool = field(default=True, repr=False)   # False: apply keeps no snapshots
    _undo: list[State] = field(default_factory=list, repr=False, metadata=NOT_COPIED)
    _redo: list[State] = field(default_factory=list, repr=False, metadata=NOT_COPIED)
    # The action the last check found legal, while nothing has been applied or restored since.
    _checked: Action | None = field(default=None, repr=False, compare=False,
                                    metadata=NOT_COPIED)

    # --- the rules -------------------------------------------------------------------------
    @property
    def rules(self) -> Ruleset:
        return self.game.rules

    @property
    def scene(self) -> Scene:
        return self.game.scene

    def check(self, action: Action) -> list[Violation]:
        """Why `action` is illegal here (empty: legal). Never changes the state. While
        decisions are pending only their answers are legal; once the battle is over nothing
        is, nor a type the ruleset does not play (Ruleset.actions); the ruleset checks the
        rest. First of all, every field must be of its declared type (rules.boundary); then
        the type one the ruleset plays (Ruleset.unknown), each key one its vocabulary entry
        declares and the phase one it is used in (rules.boundary.declared)."""
        if bad := boundary.check(self, action):    # fields of their declared types, first
            self._checked = None
            return bad
        if self.pending:
            violations = decisions.check(self, action)
        elif self.over:
            violations = [Violation("battle_over", "the battle is over")]
        else:
            violations = (self.rules.unknown(self, action)
                          or boundary.declared(self, action, self.rules.doc(self, action.type),
                                               self.rules.when(self, action.type))
                          or self.rules.check(self, action))
        self._checked = None if violations else action
        return violations

    def apply(self, action: Action, checked: bool = False) -> list[Event]:
        """Check, then carry out `action`; returns its events. Illegal -> IllegalAction and the
        state is exactly as before. checked=True: the caller has just had check() pass this
        very action object on this state (a computer player's choice), so the check is not
        repeated - only when it was the last action checked and nothing was applied or
        restored since; otherwise it is checked as usual."""
        if not (checked and self._checked is action):
            violations = self.check(action)
            if violations:
                raise IllegalAction(action, violations)
        self._checked = None
        # Without undo (a computer battle) nothing is kept to go back to: a ruleset error in
        # resolve then leaves the state part-way, for the caller to discard.
        before = self.snapshot() if self.keep_undo else None
        start = len(self.dice.log)
        shown = decisions.shown(self, action)
        try:
            events = (decisions.answer(self, action) if self.pending
                      else self.rules.resolve(self, action))
        except Exception:
            if before is not None:
                self.restore(before)
            raise
        rolls = [r.to_dict() for r in self.dice.log[start:]]
        self.actions.append(action)
        record = {"type": "action", "action": shown, "rolls": rolls}
        self.events.append(record)
        self.events.extend(events)
        if before is not None:
            self._undo.append(before)
            self._redo.clear()
        return events

    def available(self) -> list[str]:
        """The action types the acting side may use now: a pending decision's answers first."""
        if self.pending:
            return self.pending[0].answers
        return self.rules.available(self)

    @property
    def acting_side(self) -> str:
        """The side of the first pending decision, else the side whose turn it is to act."""
        if self.pending:
            return self.pending[0].side
        return self.rules.acting_side(self)

    # --- the clock every ruleset keeps (its own counters live beside these keys) ----------------
    @property
    def round(self) -> int:
        """The battle round (1-based)."""
        return int(self.clock.get("round") or 0)

    @property
    def phase(self) -> str | None:
        """The phase of the turn, or None in a ruleset without phases."""
        return self.clock.get("phase")

    @property
    def active(self) -> str | None:
        """The side whose turn it is (not always the one acting: see acting_side)."""
        return self.clock.get("active")

    @property
    def over(self) -> bool:
        return self.rules.over(self)

    def result(self) -> Result:
        return self.rules.result(self)

    # --- snapshots -------------------------------------------------------------------------
    def snapshot(self) -> State:
        """A copy of everything that changes, sharing what cannot (the game, the table), with
        empty undo and redo stacks."""
        new = object.__new__(type(self))
        new.__dict__.update(copied_attributes(self))
        new._undo, new._redo = [], []
        new._checked = None
        return new

    def restore(self, other: State) -> None:
        """Become a copy of snapshot `other` (which stays usable); the undo and redo stacks
        are kept."""
        self.__dict__.update(copied_attributes(other))
        self._checked = None

    def undo(self) -> bool:
        """Back to the state before the last action; False when there is none."""
        return self._step(self._undo, self._redo)

    def redo(self) -> bool:
        """Forward again to the state an undo left; False when there is none."""
        return self._step(self._redo, self._undo)

    def _step(self, source: list[State], dest: list[State]) -> bool:
        if not source:
            return False
        now = self.snapshot()
        self.restore(source.pop())
        dest.append(now)
        return True

    # --- helpers for rulesets --------------------------------------------------------------
    def unit_index(self, unit_id: str) -> int:
        return self.scene.unit_index(unit_id)

    def models_of(self, u: int) -> np.ndarray:
        """Table indices of unit u's models still on the table."""
        return self.table.unit_models[u]

    def slay(self, u: int, models: Iterable[int]) -> None:
        """Take models of unit u off the table: `models` are table indices (models_of's),
        not the unit's own 0-based ones (damage.fill's; damage.deal fills and slays)."""
        models = [int(m) for m in models]
        first = self.scene.model_offsets()[u]
        for m in models:
            self.units[u].alive[m - first] = False
        self.table = self.table.removed(np.asarray(models, dtype=np.int64))

    def side_of(self, u: int) -> str:
        return self.scene.units[u].side

    def enemies(self, u: int) -> list[int]:
        """The units of the other sides with models still on the table, in scene order."""
        side = self.scene.units[u].side
        return [w for w, spec in enumerate(self.scene.units)
                if spec.side != side and len(self.models_of(w))]

    def friends(self, u: int) -> list[int]:
        """The other units of unit u's side with models still on the table, in scene order."""
        side = self.scene.units[u].side
        return [w for w, spec in enumerate(self.scene.units)
                if spec.side == side and w != u and len(self.models_of(w))]

    def enemies_within(self, u: int, reach: float, three_d: bool = False,
                       table: Table | None = None, models: np.ndarray | None = None
                       ) -> list[tuple[int, float]]:
        """The enemy units with a model within `reach` of a model of unit u (base edge to base
        edge; horizontal, or in 3-D at the bases' elevations), each with that closest distance,
        in scene order: the one measure of "within X of an enemy". `table`: another layout of
        the same models (a move tried out) instead of the state's; `models`: only these of
        u's models (the ones a move moved)."""
        t = self.table if table is None else table
        mine = t.unit_models[u] if models is None else models
        if not len(mine):
            return []
        measure = t.distances_3d if three_d else t.distances
        side = self.scene.units[u].side
        out = []
        for w, spec in enumerate(self.scene.units):
            theirs = t.unit_models[w]
            if spec.side == side or not len(theirs):
                continue
            d = float(measure(mine, theirs).min())
            if d <= reach:
                out.append((w, d))
        return out

    def fingerprint(self) -> str:
        """A digest of everything that makes up this state, for bit-for-bit replay checks."""
        t = self.table
        h = hashlib.sha256()
        for arr in (t.x, t.y, t.facing, t.z):
            h.update(np.ascontiguousarray(arr).tobytes())
        for us in self.units:
            h.update(us.alive.tobytes())
            h.update(us.damage.tobytes())
            h.update(json.dumps([sorted(us.flags), sorted(us.phase_used),
                                 sorted(us.counters.items())]).encode())
        h.update(json.dumps([self.sides, self.clock, self.objectives, self.dice.state,
                             decisions.fingerprint(self)], sort_keys=True, default=str).encode())
        return h.hexdigest()
