"""The one class a ruleset subclasses: every question the engine, the computer battles, the play
window and the commands ask of a ruleset, with its default and when it is asked.

A ruleset is this class plus its data (rulesets/NAME/: ruleset.yaml and its own files). The
engine asks the hooks under "the game" (setup, check, resolve ... result) of `State`; the others
have defaults that say "nothing to add", so a small ruleset writes the game hooks (and
`player` for computer battles) and is playable by every command. Subclass, set `id`, make one
instance and register it (a package `battlefield.rules.NAME` that defines `RULESET`,
`registry.register(instance)`, or the entry-point group `battlefield.rulesets`).
tests/rules/homebrew is a whole ruleset written against this class alone.

The small records the hooks answer with (odds questions, drag notes, marks ...) are defined
here too, so that a ruleset imports one module to plug in. What the hooks work with is the
engine's core, and nothing else needs reading:

- `State` (rules/state.py): `scene` (units, sides, objectives, model_names, the scene's
  `state:` key), `table` (geometry.table.Table: where each model stands; `moved`, `distances`),
  `units[u]` (alive, damage per model, flags, counters), `sides` (each side's resources, named
  by ruleset.yaml `resources:`), `clock` (`round`, `active`, `phase` - read by the commands and
  the window - and the ruleset's own keys), `objectives` (id -> the side holding it), `extra`
  (anything else it keeps), `dice` (`state.dice.roll("D6", "what it is for")`: seeded, logged),
  and `unit_index`, `side_of`, `models_of`, `slay`, `enemies`, `friends`, `enemies_within`.
- rules/state.py `scene_start`, `start_round`, `start_per_side`: `setup` reads the scene's
  `state:` key with them (a bad value is one line naming the file and key, never a traceback).
- rules/moves.py: `v(code, message, units=, models=, **numbers)` builds a violation, `about`
  names the models it is about, `find_unit` the acting unit, `planned` an action's `path` as
  each model's path, `end_problems` where a move may not end (off the board, in impassable
  terrain, on another model).
- rules/damage.py `fill` (damage on models, each up to its health); rules/chance.py (a dice
  procedure written once, rolled in play and enumerated for exact odds); rules/decisions.py
  `ask` (a choice the other side makes mid-action, carried on by `resume`); rules/result.py
  `Result(winner, by, score, scores, round)`.
- The events `resolve` returns are the ruleset's own dicts; the game log and the window word
  the common ones for any ruleset (rules/outcome.py): {"type": "damage", "unit", "amount"},
  {"type": "slain" | "removed", "unit", "models": [UNIT/N ...]}, {"type": "destroyed",
  "unit"}, {"type": "healed", "unit", "points"}, a type ending in "-failed" with a "reason",
  and the clock's {"type": "turn" | "phase" | "battle-round", "round", "active", "phase"}.
  Its own events it words with the `effect` hook.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from battlefield.errors import UsageError
from battlefield.names import after
from battlefield.rules.actions import Action, Violation
from battlefield.rules.decisions import Decision
from battlefield.rules.result import Result
from battlefield.rulesets import RulesetData, load_ruleset
from battlefield.scene.model import Scene

if TYPE_CHECKING:
    from battlefield.rules.state import State

Event = dict[str, Any]
Answer = dict[str, Any]


class Player(Protocol):
    """A computer player: the next action for the side whose decision it is."""

    def choose(self, state: State) -> Action: ...


@dataclass(frozen=True)
class OddsQuestion:
    """One question `battlefield odds` can ask of a scene: `--FLAG ARG ...`.

    `answer(ruleset, scene, args, options)` returns the JSON answer; `text(answer)` the lines a
    person reads. `options` are the odds command's other flags (weapon, modifiers) by name."""

    flag: str                                  # "attack" -> --attack
    args: tuple[str, ...]                      # metavars: ("A", "B")
    help: str
    answer: Callable[[Ruleset, Scene, Sequence[str], dict[str, Any]], Answer]
    text: Callable[[Answer], str]
    json_keys: str = ""                        # for --help: what the JSON holds
    options: tuple[str, ...] = ()              # the odds flags it reads ("weapon", "slain")


@dataclass
class Ring:
    """A unit the drop would trigger or affect, ringed on the table with the reason."""

    unit: int
    reason: str


@dataclass
class Ghost:
    """Where a unit's models would stand after the drop (a retreat, a push ...)."""

    unit: int
    at: np.ndarray                             # (n, 2) per model still on the table
    reason: str = ""


@dataclass
class Mark:
    """Something a ruleset draws on the table, in inches: an `arrow` (an order), a `path` (a
    rout route), an `edge` (an engaged side) or an `outline` (a front arc), with a label and
    the side whose colour it takes (None: ink)."""

    kind: str
    points: np.ndarray                         # (n, 2)
    label: str = ""
    side: str | None = None
    unit: int | None = None                    # the unit it belongs to (hidden while dragged)


@dataclass
class DragNotes:
    """What a ruleset adds to the drag overlay, as data the view draws: caption lines, odds
    against the enemy under the cursor, units ringed with their reasons, ghosts."""

    lines: list[str] = field(default_factory=list)
    odds: Any = None
    rings: list[Ring] = field(default_factory=list)
    ghosts: list[Ghost] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)


@dataclass
class DragContext:
    """One place of a dragged unit: its action, the table with it dropped there, the enemy
    under the cursor, whether the cursor rests (`rests`: the rulings that cost more than a
    frame are asked, such as sight with its blockers), and a cache that lives as long as the
    pick-up (odds that do not depend on the drop)."""

    state: State
    unit: int
    ability: str
    action: Action
    moved: Any                                 # geometry.table.Table with the unit dropped
    target: int | None
    rests: bool
    cache: dict[Any, Any]


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
    type (unknown_action) before asking `check`. Empty: `check` refuses unknown types itself
    (aos4's spells and warband's fighter abilities are types only a unit has)."""

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

    @property
    def spec(self) -> RulesetData:
        """Its data: rulesets/ID/ruleset.yaml as read and checked (vocabulary, demo, ranges)."""
        return load_ruleset(self.id)

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

    @abstractmethod
    def check(self, state: State, action: Action) -> list[Violation]:
        """When an action is checked (State.check, and before State.apply): why it is illegal
        now, empty when it is legal. Changes nothing. State.check has already refused it when
        the battle is over or its type is not one of `actions`; while decisions are pending it
        is asked only about an action that addresses one (rules.decisions.check). Build each
        violation with rules.moves.v, naming the units and models it is about (`about`), so the
        window marks them without reading the message; an action that needs a "target" and has
        none is refused with the code `no_target` (the window then asks for a click on one)."""

    @abstractmethod
    def resolve(self, state: State, action: Action) -> list[Event]:
        """When a legal action is applied: change the state, roll dice (state.dice), return
        the events. May ask the other side decisions (rules.decisions.ask)."""

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

    @abstractmethod
    def over(self, state: State) -> bool:
        """After every action and before every choice: whether the battle has ended."""

    @abstractmethod
    def result(self, state: State) -> Result:
        """Once the battle is over: who won, how, and the scores."""

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

    # --- the play window and render ---------------------------------------------------------------
    def drag_abilities(self, state: State, u: int, offered: list[str]) -> list[str]:
        """When unit u is picked up: which of the abilities offered (the vocabulary's drag
        actions, in order) a drag stands for, first the one used. Default: all, in order."""
        return offered

    def drag_notes(self, ctx: DragContext) -> DragNotes:
        """While a unit is dragged, at each place: what the overlay adds (odds, rings,
        ghosts). Default: nothing."""
        return DragNotes()

    def drop_pose(self, state: State, u: int, action: Action) -> tuple[Any, Any] | None:
        """While unit u is dragged: where its moving models would really end, (x, y) rows and
        facings, when that is not where the path puts them (blocks: a move stops touching what
        it meets), so the drag's rulings are the result's; asked of legal actions only. Default:
        None (where dropped)."""
        return None

    def drop_in_place(self, state: State, u: int, ability: str, target: int | None
                      ) -> Action | str:
        """When a picked-up unit u is dropped where it stood (a click: nothing moved), on the
        enemy unit `target` or on none: the action the click stands for, or why the unit is
        put back. Default: "put back"."""
        return "put back"

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

    def unit_notes(self, state: State) -> dict[int, str]:
        """When the window's panel is drawn: a line per unit the ruleset has something to say
        about now (openwg: the wounds pooled on it). Default: none."""
        return {}

    def marks(self, state: State) -> list[Mark]:
        """When the table is drawn (window and render), and when a position is restored: what
        the ruleset draws for this state (orders, routes, engaged sides). Default: nothing."""
        return []

    def health(self, state: State, u: int) -> list[int] | None:
        """When the window's panel, its damage marks, `render` or the game log show damage
        (rules.outcome): each model's health in unit u, the points of damage that slay it, in
        the unit's order. Default: None, the ruleset counts no health."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ruleset {self.id!r}>"
