"""Whole battles between computer players: the loop that asks the acting side's player for an
action and applies it until the battle is over."""

from __future__ import annotations

from collections.abc import Callable

from battlefield.errors import BattlefieldError
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.state import Game, State

MAX_ACTIONS = 5000


def player_for(ruleset: str):
    """The ruleset's computer player (a new one: players may remember what they tried)."""
    return registry.get(ruleset).player()


def play(game: Game, players: dict[str, object] | None = None,
         on_action: Callable[[State, Action], None] | None = None,
         limit: int = MAX_ACTIONS, keep_undo: bool = False) -> State:
    """Play the battle to its end; every side without a given player gets the computer's.
    The state keeps no undo history unless asked (keep_undo=True)."""
    state = game.new_state(keep_undo=keep_undo)
    players = dict(players or {})
    for side in state.sides:
        players.setdefault(side, game.rules.player())
    for _ in range(limit):
        if state.over:
            return state
        action = players[state.acting_side].choose(state)
        # A player's choice is usually the action it last checked here: not checked again.
        state.apply(action, checked=True)
        if on_action:
            on_action(state, action)
    raise BattlefieldError(f"the battle did not end within {limit} actions")
