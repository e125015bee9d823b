"""Whole battles between computer players: the loop that asks the acting side's player for an
action and applies it until the battle is over."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from battlefield.errors import BattlefieldError
from battlefield.rules import players as levels
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.ruleset import Player
from battlefield.rules.state import Game, State

MAX_ACTIONS = 5000


def player_for(ruleset: str, level: str = levels.DEFAULT, seed: int = 0) -> Player:
    """The ruleset's computer player at `level` (a new one: players may remember what they
    tried); `seed` seeds what it draws (random, strong)."""
    return levels.make(registry.get(ruleset), level, seed)


def play(game: Game, players: Mapping[str, Player] | None = None,
         on_action: Callable[[State, Action], None] | None = None,
         limit: int = MAX_ACTIONS, keep_undo: bool = False,
         kinds: Mapping[str, str] | None = None,
         on_choice: Callable[[State, Action], None] | None = None) -> State:
    """Play the battle to its end; every side without a given player gets the computer's at
    its level in `kinds` ({side: level}; normal when left out), seeded from the game's seed.
    `on_choice` sees each action before it is applied (the state as the player saw it),
    `on_action` after. The state keeps no undo history unless asked (keep_undo=True)."""
    state = game.new_state(keep_undo=keep_undo)
    chosen = dict(players or {})
    sides = list(game.scene.sides)
    for side in sides:
        if side not in chosen:
            chosen[side] = levels.make(game.rules, (kinds or {}).get(side, levels.DEFAULT),
                                       levels.side_seed(game.seed, sides, side))
    for _ in range(limit):
        if state.over:
            return state
        action = chosen[state.acting_side].choose(state)
        if on_choice:
            on_choice(state, action)
        # A player's choice is usually the action it last checked here: not checked again.
        state.apply(action, checked=True)
        if on_action:
            on_action(state, action)
    raise BattlefieldError(f"the battle did not end within {limit} actions")
