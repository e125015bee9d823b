"""The one class a ruleset subclasses: every question the engine, the computer battles, the play
window and the commands ask of a ruleset, with its default and when it is asked.

A ruleset is this class plus its data (rulesets/NAME/: ruleset.yaml and its own files). The
engine asks the hooks under "the game" (setup, check, resolve ... result) of `State`; the others
have defaults that say "nothing to add", so a small ruleset writes the game hooks (and
`player` for computer battles) and is playable by every command. Subclass, set `id`, make one
instance and register it (a package `battlefield.rules.NAME` that defines `RULESET`,
`registry.register(instance)`, or the entry-point group `battlefield.rulesets`).
tests/rules/homebrew is a whole ruleset written against this class alone.

The window's hooks are its own protocol (rules/window.py: `Window`, set as `window =`), the
odds questions their own records (rules/questions.py); the handlers of each action type are
registered with `@handles` (rules/handlers.py). battlefield/rules/README.md is the guide; what
the hooks work with is the engine's core, and nothing else needs reading:

- `State` (rules/state.py): `scene` (units, sides, objectives, model_names, the scene's
  `state:` key), `table` (geometry.table.Table: where each model stands; `moved`, `distances`),
  `units[u]` (alive, damage per model, flags, counters), `sides` (each side's resources, named
  by ruleset.yaml `resources:`, made empty before `setup`), `clock` (`round`, `active`, `phase`
  - read by the commands and the window - and the ruleset's own keys), `objectives` (id -> the
  side holding it), `extra` (anything else it keeps), `dice` (`state.dice.total("D6", "what it
  is for")`: seeded, logged), `rules` (this ruleset, its numbers in `state.rules.book`), and
  `unit_index`, `side_of`, `models_of`, `slay`, `enemies`, `friends`, `enemies_within`.
- rules/state.py `scene_start`, `start_round`, `start_per_side`: `setup` reads the scene's
  `state:` key with them (a bad value is one line naming the file and key, never a traceback).
- rules/moves.py: `v(code, message, units=, models=, choose=, **numbers)` builds a violation,
  `about` names the models it is about, `find_unit` the acting unit, `planned` an action's
  `path` as each model's path, `check_move` the one move check (allowance, cost, straight lines,
  what a path crosses, where no model may end, the enemy ranges a move may not pass through or
  end in: `Keep`, `Arrive`, `closer`).
- rules/damage.py `deal` (damage on a unit's models, the slain taken off the table);
  rules/chance.py (a dice procedure written once, rolled in play and enumerated for exact
  odds); rules/decisions.py `ask` (a choice the other side makes mid-action, carried on by
  `resume`); rules/result.py `Result(winner, by, score, scores, round)`.
- The events `resolve` returns are the ruleset's own dicts; the game log and the window word
  the common ones for any ruleset (rules/outcome.py): {"type": "damage", "unit", "amount"},
  {"type": "slain" | "removed", "unit", "models": [UNIT/N ...]}, {"type": "destroyed",
  "unit"}, {"type": "healed", "unit", "points"}, any event that says what failed and why in
  its "failed" field ("charge failed", "run short: ..."), and the clock's {"type": "turn" |
  "phase" | "battle-round", "round", "active", "phase"}.
  Its own events it words with the `effect` hook.
"""

from __future__ import annotations

import copy
import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from battlefield.errors import UsageError
from battlefield.names import after
from battlefield.paths import ruleset_dir
from battlefield.rules import decisions
from battlefield.rules.actions import Action, Violation
from battlefield.rules.coverage import Row as CoverageRow
from battlefield.rules.coverage import read_rows
from battlefield.rules.decisions import Decision
from battlefield.rules.handlers import Handler, collect
from battlefield.rules.result import Result
from battlefield.rules.window import Window
from battlefield.rulesets import ActionDoc, RulesetData, load_ruleset
from battlefield.scene.model import Scene

if TYPE_CHECKING:
    from battlefield.rules.questions import OddsQuestion
    from battlefield.rules.state import State
    from battlefield.rulings import TerrainCombat

Event = dict[str, Any]
Answer = dict[str, Any]


class Player(Protocol):
    """A computer player: the next action for the side whose decision it is."""

    def choose(self, state: State) -> Action: ...


@dataclass(frozen=True)
class Parameter:
    """A number of the ruleset's data a game may set (`Game(ruleset, scene, seed, {"rounds":
    3})`): its name, where it is in the ruleset's `book` (attribute names, dotted) and what it
    is, for people."""

    name: str
    path: str
    help: str = ""
    least: float | None = None                  # the smallest value it may take


@dataclass
class Effect:
    """What one event of an action did, as the game log, the window's panel and a replay page
    word it (rules/outcome.py): to one unit (damage, models slain or removed, wounds pooled,
    notes, hit by an attack), a line for the sides (morale spent), and the dice in a line
    (the outcome's "who at whom, " is put before it)."""

    unit: str | None = None
    damage: int = 0
    slain: list[str] = field(default_factory=list)     # model names (UNIT/N)
    removed: list[str] = field(default_factory=list)
    removed_why: str | None = None                      # None: as it was
    pooled: int = 0                                     # wounds waiting on the unit
    notes: list[str] = field(default_factory=list)
    hit: bool = False
    sides: str | None = None
    dice: str | None = None


@dataclass
class CheckAdditions:
    """What a ruleset adds to `battlefield check`: keys per ordered pair of units (a, b) and
    per unit, merged into the report's `pairs` and `units`."""

    pairs: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    units: dict[str, dict[str, Any]] = field(default_factory=dict)


def first_side(scene: Scene, actions: Sequence[Action]) -> str:
    """The side of the first action that names one (its side, or its unit's): whose moment
    `battlefield try` starts at; the scene's first side without one."""
    for a in actions:
        if a.side:
            return a.side
        if a.unit:
            for spec in scene.units:
                if spec.id == a.unit:
                    return spec.side
    return scene.sides[0]


class Ruleset(ABC):
    """A ruleset: the hooks every part of the program asks it. Those marked abstract must be
    written; every other one has a default that adds nothing. Hooks never touch the log, the
    snapshots or the dice state directly: `State.apply` checks, snapshots, resolves and
    records."""

    # --- what it is -------------------------------------------------------------------------
    id: str
    """Its name: the folder of its data (rulesets/ID), the scene's `ruleset:` key."""

    data: Path | None = None
    """Where its data lives when it is not a bundled rulesets/ID (a ruleset installed as its
    own distribution): registering the ruleset adds the folder."""

    phases: tuple[str, ...] = ()
    """The phases of a turn, in order (empty: sides take turns without phases). A position's
    clock phase must be one of them; the play window's --phase names one."""

    actions: tuple[str, ...] = ()
    """The action types it plays, as its refusal lists them: State.check refuses any other
    type (unknown_action, `unknown`) before asking `check`. Empty: the ids of its vocabulary
    (ruleset.yaml `actions:`)."""

    odds: tuple[OddsQuestion, ...] = ()
    """The questions `battlefield odds` asks of a scene in this ruleset (--attack, --charge
    ...)."""

    turn_word: str = "turn"
    """The acting side's moment as `not_your_turn` names it: "it is red's turn, not blue's"
    (openwg: "action", blocks: "to act")."""

    clock_sides: tuple[str, ...] = ()
    """The keys of its clock, besides `active` and `acting`, that hold a side (aos4's `first`
    and `underdog`, warband's `initiative`): a position's must name one of the scene's sides."""

    clock_side_lists: tuple[str, ...] = ()
    """The keys of its clock that hold a list of sides (openwg's `stopped`), checked the same
    way."""

    parameters: tuple[Parameter, ...] = ()
    """The numbers of its `book` a game may set (Game's `params`): `rounds` ..."""

    params: Mapping[str, Any] = MappingProxyType({})
    """The parameters this instance plays with (a variant's; empty: as its files say)."""

    def __init__(self, book: Any = None) -> None:
        """`book`: the ruleset's own data as `load` reads it, given instead (a test's
        numbers); None: read from its folder the first time it is asked."""
        self._book = book

    @property
    def spec(self) -> RulesetData:
        """Its data: rulesets/ID/ruleset.yaml as read and checked (vocabulary, demo, ranges)."""
        return load_ruleset(self.id)

    @property
    def folder(self) -> Path:
        """The folder of its data: `data` for a ruleset installed apart, else rulesets/ID."""
        return Path(self.data) if self.data is not None else ruleset_dir(self.id)

    @property
    def book(self) -> Any:
        """Its own rules as data (what `load` reads from its folder: rounds, distances, dice,
        tables), read once for this instance; every rule reads its numbers here (a variant or
        a subclass changes them; two variants play side by side)."""
        book = self.__dict__.get("_book")
        if book is None:
            book = self._book = self.load()
        return book

    @property
    def coverage(self) -> tuple[CoverageRow, ...]:
        """What it makes of each ability and rule section of its seed: the rows of its
        folder's coverage/*.yaml (rules/coverage.py), read once; empty when it has none."""
        rows = self.__dict__.get("_coverage")
        if rows is None:
            rows = self._coverage = read_rows(self.folder / "coverage")
        return rows

    def load(self) -> Any:
        """Its own data files read and checked (rules.datafile.read), from `folder`. Default:
        None, a ruleset whose every number is in ruleset.yaml (`spec`) or its code."""
        return None

    def variant(self, params: Mapping[str, Any]) -> Ruleset:
        """A copy of this ruleset whose `book` has the `parameters` named in `params` set (a
        shorter battle: {"rounds": 3}); this one is unchanged. An unknown name, or a value
        not of the kind the book holds, is a UsageError naming it."""
        known = {p.name: p for p in self.parameters}
        book = self.book
        for name, value in params.items():
            p = known.get(name)
            if p is None:
                takes = ", ".join(known) or "none"
                raise UsageError(f"{self.id} has no parameter {name!r} (it takes: {takes})")
            what = f"{self.id} parameter {name}"
            if p.least is not None and isinstance(value, (int, float)) and value < p.least:
                raise UsageError(f"{what}: {value!r} is less than {p.least:g}")
            book = _replaced(book, p.path.split("."), value, what)
        new = copy.copy(self)
        new._book = book
        new.params = MappingProxyType({**self.params, **params})
        return new

    def question(self, flag: str) -> OddsQuestion | None:
        """The odds question asked by `--FLAG`, or None."""
        return next((q for q in self.odds if q.flag == flag), None)

    def provides(self, hook: str) -> bool:
        """Whether this ruleset writes its own `hook` rather than taking the default (a command
        lists the rulesets that answer it, e.g. `points`)."""
        return getattr(type(self), hook) is not getattr(Ruleset, hook)

    # --- the common refusals: the same code and words in every ruleset -------------------------
    def unknown_action(self, kind: str, valid: Sequence[str], what: str = "action",
                       tail: str = "") -> list[Violation]:
        """`unknown_action`: no `what` (action, ability ...) of type `kind`; `valid` lists the
        types there are (State.check asks it with `actions`; a ruleset whose types depend on
        the unit, as aos4's spells, asks it from `check`), `tail` adds to that list."""
        return [Violation("unknown_action", f"no {what} '{kind}' (valid: {', '.join(valid)}"
                                            f"{tail}){after(kind, valid)}")]

    def not_your_turn(self, state: State, action: Action) -> list[Violation]:
        """`not_your_turn` when the action names a `side` that is not the acting side
        (`acting_side`), else nothing. Each ruleset asks it where its check has it (after the
        refusals that come first in that ruleset), with the words of `turn_word`."""
        acting = self.acting_side(state)
        if action.side is None or action.side == acting:
            return []
        return [Violation("not_your_turn", f"it is {acting}'s {self.turn_word}, not "
                                           f"{action.side}'s")]

    # --- the game: asked by State ---------------------------------------------------------------
    @abstractmethod
    def setup(self, state: State) -> list[Event]:
        """When a game's first state is made: fill the clock (round, active side, phase),
        the sides' resources and objective control from the scene (its `state:` start keys,
        read with rules.state.scene_start and start_round) and return the opening events. A
        whole position in `state:` is restored after it, over what setup filled."""

    def check(self, state: State, action: Action) -> list[Violation]:
        """When an action is checked (State.check, and before State.apply): why it is illegal
        now, empty when it is legal. Changes nothing. State.check has already refused it when
        the battle is over, its type is unknown (`unknown`), a key is not one its vocabulary
        entry declares or it is not used in this phase (ruleset.yaml `fields:`, `phases:`;
        rules.boundary.declared); while decisions are pending it is asked only about an
        action that addresses one (rules.decisions.check). Build each violation with
        rules.moves.v, naming the units and models it is about (`about`), so the window marks
        them without reading the message; a field still to choose (no "target" yet, no path)
        is said with `choose=` (the window then asks for it). Default: the check of the
        action's handler (`@handles`)."""
        found = self.handler(action.type)
        if found is None:
            return self.unknown_action(action.type, list(self.handlers))
        return found.check(state, action)

    def resolve(self, state: State, action: Action) -> list[Event]:
        """When a legal action is applied: change the state, roll dice (state.dice), return
        the events. May ask the other side decisions (rules.decisions.ask). Default: the
        resolve of the action's handler."""
        found = self.handler(action.type)
        if found is None or found.resolve is None:
            raise NotImplementedError(f"{self.id} has no resolve for {action.type!r}")
        return found.resolve(state, action)

    handlers: dict[str, Handler] = {}
    """The action types this class plays and their handlers (`@handles`), its bases'
    included: filled when the class is made."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers = collect(cls)

    def handler(self, kind: str) -> Handler | None:
        """The check and resolve of action type `kind`, bound to this ruleset, or None."""
        found = type(self).handlers.get(kind)
        return found.on(self) if found is not None else None

    def unknown(self, state: State, action: Action) -> list[Violation]:
        """When State.check meets an action: `unknown_action` when there is no action of its
        type. Default: a type not one of `actions` (or, when that is empty, of the vocabulary
        in ruleset.yaml), unless the vocabulary has `unlisted_actions` (aos4's spells, warband's
        fighters' own abilities: types that depend on the unit, which their check refuses)."""
        spec = self.vocabulary(state)
        known = self.actions or (tuple(a.id for a in spec.actions) if spec else ())
        if known and action.type not in known and (spec is None
                                                   or spec.unlisted_actions is None):
            return self.unknown_action(action.type, known)
        return []

    def when(self, state: State, kind: str) -> tuple[str, ...]:
        """When State.check meets an action of type `kind`: the phases it is used in
        ("movement", "your movement", "enemy movement"; empty: any). Default: its vocabulary
        entry's `phases:` (ruleset.yaml); aos4 reads them from its abilities file."""
        doc = self.doc(state, kind)
        return doc.phases if doc is not None else ()

    def doc(self, state: State, kind: str) -> ActionDoc | None:
        """The vocabulary entry of action type `kind`: its own, else (for a ruleset that lists
        no `actions` of its own) `unlisted_actions`."""
        spec = self.vocabulary(state)
        if spec is None:
            return None
        return next((a for a in spec.actions if a.id == kind),
                    None if self.actions else spec.unlisted_actions)

    def vocabulary(self, state: State) -> RulesetData | None:
        """Its ruleset.yaml as the game's scene was read with it (None: the scene is another
        ruleset's, as a test's ruleset plays one)."""
        spec = state.scene.ruleset
        return spec if spec.id == self.id else None

    @abstractmethod
    def available(self, state: State) -> list[str]:
        """When a player, the window or a position check asks: the action types the acting
        side may use now (empty once the battle is over)."""

    def resume(self, state: State, suspended: dict[str, Any],
               answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        """When every decision an action asked (rules.decisions.ask) is answered: carry the
        action on from `suspended` with the answers. Default: this ruleset asks none."""
        raise NotImplementedError(f"{self.id} asks no decisions, so none is resumed")

    @abstractmethod
    def acting_side(self, state: State) -> str:
        """Whenever the engine asks whose decision it is (no decision pending): the side that
        acts now."""

    def sender(self, state: State, action: Action) -> str:
        """Whenever a seat's action arrives (the server, the window, `try`): the side that may
        send `action` now - the side of the pending decision it answers, else the acting side.
        Not the side the action names: an action for another side's unit, or naming a side,
        is still the sender's to send and the engine's to refuse. Override where the rules
        give an action to a side this does not find (warband's `first`: the initiative
        holder's choice whatever side it names)."""
        if state.pending:
            d = decisions.addressed(state, action)
            if d is not None:
                return d.side
        return state.acting_side

    @abstractmethod
    def over(self, state: State) -> bool:
        """After every action and before every choice: whether the battle has ended."""

    @abstractmethod
    def result(self, state: State) -> Result:
        """Once the battle is over: who won, how, and the scores."""

    def combat_links(self, state: State) -> tuple[TerrainCombat, ...]:
        """The combats through terrain pieces the game has made so far (rulings.TerrainCombat:
        aos4's charges onto terrain), which every "in combat" ruling counts
        (rules.standing.referee). Default: none."""
        return ()

    # --- moving: asked by rules.moves (paths, the window's drag and its routing) ------------------
    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        """When a move of unit u by `ability` is planned or routed: the longest it can be now.
        Default: None, no ability is a move."""
        return None

    def move_cost(self, state: State, u: int, m: int, path: np.ndarray
                  ) -> tuple[float, float]:
        """When a path of model m of unit u is measured: (inches it spends along `path`, of
        which climbing). Default: the path's length on the flat, nothing climbed."""
        return float(np.hypot(*np.diff(np.asarray(path, dtype=float), axis=0).T).sum()), 0.0

    def move_ground(self, state: State, u: int, m: int, box: tuple[float, float, float, float]
                    ) -> tuple[list[Any], Any]:
        """When a route for model m is sought near `box`: the polygons its centre may not
        enter (grown by its clearance) and the geometry.paths.Terrain it climbs (None: nothing
        is climbed). Default: nothing is in the way."""
        return [], None

    # --- computer battles ------------------------------------------------------------------------
    def player(self, level: str = "normal") -> Player:
        """When a computer side is needed (simulate, the window's computer side, the
        conformance suite): a new computer player (players may remember what they tried) at
        `level`: "easy" (the simplest), "normal" (the default) - "strong" is the engine's
        search over "normal" (rules/players.py). Default: none, said as an error (a ruleset
        that only referees)."""
        raise UsageError(f"the {self.id} ruleset has no computer player")

    def value(self, state: State, side: str) -> float | None:
        """When the strong level's search values a position it has played out: how good it is
        for `side`, 0 (lost) .. 1 (won). Default: None, the engine's measure (rules/search.py:
        the result once over, else the deciding score and the health left on the table)."""
        return None

    def field_values(self, state: State, kind: str, name: str, unit: int | None
                     ) -> Sequence[Any]:
        """When the random legal player or a search draws an action of type `kind`: the
        values its own field `name` (a text, a mapping: a command, an order, a spell) may take
        now for unit `unit` (None: the action names none). Default: none named, so the
        engine draws from the field's type, else uses the vocabulary's example."""
        return ()

    # --- the play window: its own hooks (rules/window.py) ---------------------------------------
    window: Window = Window()
    """What the play window, render and the replay page ask beyond the game (drag abilities,
    drag notes, drops, unit notes, marks): an instance of the ruleset's Window subclass.
    Default: the Window of no additions."""

    # --- battlefield try ---------------------------------------------------------------------
    def try_start(self, scene: Scene, actions: list[Action]) -> dict[str, Any]:
        """When `try` starts from a scene: the `state:` defaults for these actions (whose turn,
        which phase ...). Default: the turn of the side of the first action's unit."""
        return {"active": first_side(scene, actions)}

    def try_advance(self, state: State, action: Action) -> list[Violation]:
        """Before `try` checks each action: bring the state to the moment the action belongs
        to (aos4: the phase of its ability), or say why it cannot. Default: actions are played
        where the state stands."""
        return []

    def shorthand(self, state: State, action: Action
                  ) -> tuple[Action, dict[str, Any], list[Violation]]:
        """When `try` reads an action with answers written on it (aos4's "all_out_defence":
        true): (the action without them, the answers, why they are wrong). Default: none."""
        return action, {}, []

    def shorthand_answer(self, state: State, decision: Decision, given: dict[str, Any]
                         ) -> Action | None:
        """When `try` finds a decision pending that its next action does not answer: the
        answer from `given` (the shorthand), or this ruleset's default answer without it.
        Default: None, the decision waits for an action."""
        return None

    def check_position(self, state: State) -> None:  # noqa: B027 - a default that does nothing
        """When a whole position (a scene's `state:`, as try --out writes it) has been restored
        and its values found of the kinds the ruleset's start holds: check, field by field,
        what that cannot show - the text and the range of the ruleset's own values (warband's
        ability dice) - raising rules.state.start_error at the key path. Default: nothing
        more to check."""

    # --- the commands ---------------------------------------------------------------------------
    def check_scene(self, scene: Scene) -> None:  # noqa: B027 - a default that does nothing
        """When any command reads a scene of this ruleset: check the keys the ruleset adds
        (raise InputError at the key path). Default: the loader's checks suffice."""

    def given_stats(self, scene: Scene, u: int) -> Mapping[str, Any]:
        """Unit u's characteristics as the scene gives them, for `unit_needs:` (every command
        that plays checks them). Default: its `stats:`."""
        return scene.units[u].stats

    def check_additions(self, scene: Scene) -> CheckAdditions:
        """When `battlefield check` reports on a scene: the ruleset's own rulings per pair of
        units and per unit. Default: none."""
        return CheckAdditions()

    def points(self, scene: Scene) -> Answer | None:
        """When `battlefield points` asks: what the scene's armies cost ({"units": {ID:
        {"points", "stats"}}, "sides": {SIDE: points}}). Default: None, no points."""
        return None

    def effect(self, event: Event) -> Effect | None:
        """When an action's events are worded (the game log, the window's panel, a replay
        page: rules/outcome.py): what one of this ruleset's own events did. Default: None, the
        common words of the events at the top of this module (damage, slain, removed ...)."""
        return None

    def futile(self, state: State, action: Action) -> bool:
        """When the play window asks whether the acting side has anything to decide
        (rules/choices.usable): whether `action`, which `check` allows now, can change nothing
        on the table (aos4: a rally of a unit with no damage and no model slain). A step whose
        only legal actions are futile passes by itself. Default: False, every legal action is
        a choice."""
        return False

    def health(self, state: State, u: int) -> list[int] | None:
        """When the window's panel, its damage marks, `render` or the game log show damage
        (rules.outcome): each model's health in unit u, the points of damage that slay it, in
        the unit's order. Default: None, the ruleset counts no health."""
        return None

    def __repr__(self) -> str:
        made = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"<{type(self).__name__} ruleset {self.id!r}{made}>"


def _replaced(book: Any, path: list[str], value: Any, what: str) -> Any:
    """`book` (nested frozen dataclasses) with the attribute at `path` set to `value`, of the
    kind it holds (a whole number stays one)."""
    if len(path) > 1:
        inner = _replaced(getattr(book, path[0]), path[1:], value, what)
        return dataclasses.replace(book, **{path[0]: inner})
    old = getattr(book, path[0])
    kind = type(old)
    if isinstance(value, bool) != isinstance(old, bool) or not isinstance(value, (kind, int)) \
            or (kind is int and not isinstance(value, int)):
        raise UsageError(f"{what}: {value!r} is not {kind.__name__} (as {old!r})")
    return dataclasses.replace(book, **{path[0]: kind(value)})
