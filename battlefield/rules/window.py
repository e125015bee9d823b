"""What the play window asks a ruleset beyond the game, as its own protocol: which ability a
drag stands for, what the drag overlay adds at each place (caption lines, odds, units ringed,
ghosts, marks), where a dropped unit really ends, what a click on a unit stands for, a line per
unit for the panel, and what the ruleset draws on the table (render and the replay page draw
it too). The records these hooks answer with are here, as data the view draws.

A ruleset's `window` (Ruleset.window) is an instance of a Window subclass written beside its
rules (its package.py); every hook has a default that adds nothing, so a ruleset with nothing
to add keeps the plain Window."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from battlefield.rules.actions import Action

if TYPE_CHECKING:
    from battlefield.rules.state import State


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
class Volley:
    """An attack aimed at several targets, as the window shows it before it is sent: the
    action (its targets, and the `split` the player's weapon choices make), each weapon the
    player may send at one target with the targets it reaches, and a line per target (its
    attacks and odds)."""

    action: Action
    weapons: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


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


@dataclass(frozen=True)
class Card:
    """An ability as the window and the pages show it on its unit: the unit's id, the name,
    its kind and timing, a line to list it by and the whole text (on hover)."""

    unit: str
    name: str
    kind: str
    timing: str | None
    line: str
    text: str
    played: bool = False                       # the engine plays it (else: by hand)


class Window:
    """The window's hooks of a ruleset (its protocol), each with its default and when it is
    asked."""

    def provides(self, hook: str) -> bool:
        """Whether this window writes its own `hook` rather than taking the default (render
        draws marks only of a ruleset that has them)."""
        return getattr(type(self), hook) is not getattr(Window, hook)

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

    def in_place_words(self, state: State, action: Action) -> str:
        """A click's action (drop_in_place) as a button's label says it: what the click does.
        Default: the ability done where the unit stands ('fight red at blue where it
        stands')."""
        at = f" at {', '.join(action.targets)}" if action.targets else ""
        return f"{action.type} {action.unit}{at} where it stands"

    def aim_options(self, state: State, ability: str) -> dict[str, Any]:
        """While `ability` picks its target under the cursor: the options of the ruleset's
        attack odds question that make it ask about that very attack (aos4: a shot at a unit
        in combat is a shooting attack). Default: none."""
        return {}

    def volley(self, state: State, action: Action, aims: dict[str, str]) -> Volley | None:
        """An attack (the unit's action, its `target` a list) whose attacks may be split
        between several targets: the action with the split that `aims` (weapon name -> the
        target all its attacks go at; a weapon left out: dealt as play deals it) makes, and
        what each target gets. None: this ruleset aims the ability at one target. Default:
        None."""
        return None

    def choice_buttons(self, state: State) -> dict[str, list[tuple[str, Action]]]:
        """Buttons of what `available` does not list as an action of its own, each standing
        for the whole actions it may give now, with their labels (aos4: magical-intervention
        in the enemy hero phase, each spell or prayer it may be used on). Default: none."""
        return {}

    def unit_notes(self, state: State) -> dict[int, str]:
        """When the window's panel is drawn: a line per unit the ruleset has something to say
        about now (openwg: the wounds pooled on it). Default: none."""
        return {}

    def cards(self, state: State) -> list[Card]:
        """When the window and the pages are drawn: the abilities of the acting side's units
        whose timing falls now (a card each, on its unit). Default: none."""
        return []

    def passive_cards(self, state: State, u: int) -> list[Card]:
        """When the cursor is on unit u: its passive abilities (always on). Default: none."""
        return []

    def unit_menu(self, state: State, u: int) -> list[tuple[str, Action]]:
        """A right click on unit u: what the menu offers, (label, action) - a unit's abilities
        to declare, adjustments by hand. Default: nothing."""
        return []

    def marks(self, state: State) -> list[Mark]:
        """When the table is drawn (window and render), and when a position is restored: what
        the ruleset draws for this state (orders, routes, engaged sides). Default: nothing."""
        return []

    def set_up_area(self, state: State, side: str) -> SetUpArea:
        """When a unit in reserve is dragged onto the table in the deployment phase: where the
        side sets units up. Default: its territory (the scene's deployment zone), no line."""
        pts = state.scene.deployment.get(side)
        return SetUpArea(np.asarray(pts, dtype=float) if pts else None)


@dataclass
class SetUpArea:
    """Where a side sets its units up, as the window shows it while one is dragged from the
    reserve list: its territory, and the lines units stay behind (each an outline, inches:
    aos4's 9" round enemy territory) with what they are."""

    territory: np.ndarray | None
    keep_out: list[np.ndarray] = field(default_factory=list)
    label: str = ""


__all__ = ["Card", "DragContext", "DragNotes", "Ghost", "Mark", "Ring", "SetUpArea", "Window"]
