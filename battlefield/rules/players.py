"""The computer players by level, for every ruleset: `easy`, `normal` and `strong` (the
ruleset's own player and the search over it), and the two yardsticks their strength is
measured against: `random` (a uniform legal player over the ruleset's vocabulary: a type the
side may use now, then its fields, each draw kept only when State.check accepts it) and
`pass` (passes whenever the engine lets it).

A player's choices are a function of the position, its level and its seed: whatever a player
draws comes from a generator seeded by its seed and the number of actions taken so far, never
from the game's dice."""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping

from battlefield.errors import BattlefieldError, UsageError
from battlefield.names import after
from battlefield.rules import sampling
from battlefield.rules.actions import Action
from battlefield.rules.choices import passes
from battlefield.rules.decisions import DECLINE
from battlefield.rules.ruleset import Player, Ruleset
from battlefield.rules.search import SearchPlayer, mix
from battlefield.rules.state import State

LEVELS = ("easy", "normal", "strong")          # --level
KINDS = (*LEVELS, "random", "pass")            # --players SIDE=KIND
DEFAULT = "normal"


def side_seed(seed: int, sides: list[str], side: str) -> int:
    """The seed of one side's player in a battle played with `seed`."""
    return mix(seed, 1 + sides.index(side))


def check_kind(kind: str, what: str = "--level") -> str:
    """`kind` if it is a level (or, for --players, random or pass); else a one-line error."""
    valid = LEVELS if what == "--level" else KINDS
    if kind not in valid:
        raise UsageError(f"{what}: no player '{kind}' (valid: {', '.join(valid)})"
                         f"{after(kind, valid)}")
    return kind


def parse_players(text: str, sides: list[str], partial: bool = False) -> dict[str, str]:
    """`red=strong,blue=random` as {side: kind}; each side named once (every side, unless
    `partial`), each kind valid."""
    out: dict[str, str] = {}
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        side, eq, kind = part.partition("=")
        side, kind = side.strip(), kind.strip()
        if not eq or not side or not kind:
            raise UsageError(f"--players {text}: write SIDE=LEVEL for each side, e.g. "
                             f"{','.join(f'{s}=normal' for s in sides)}")
        if side not in sides:
            raise UsageError(f"--players: no side '{side}' (sides: {', '.join(sides)})")
        if side in out:
            raise UsageError(f"--players: {side} is given twice")
        out[side] = check_kind(kind, "--players")
    missing = [s for s in sides if s not in out]
    if missing and not partial:
        raise UsageError(f"--players: no player for {', '.join(missing)} (give every side, "
                         f"e.g. {','.join(f'{s}=normal' for s in sides)})")
    return out


def make(rules: Ruleset, kind: str = DEFAULT, seed: int = 0) -> Player:
    """A new player of this kind for a side of a battle in `rules` (players may remember
    what they tried, so each side and each battle gets its own)."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "pass":
        return PassPlayer(seed)
    if kind == "strong":
        return SearchPlayer(rules, lambda s: _own(rules, "normal"), seed)
    check_kind(kind)
    return _own(rules, kind)


def _own(rules: Ruleset, level: str) -> Player:
    """The ruleset's player at `level`; a ruleset whose `player` takes no level (written
    before levels were) plays every level with its one player."""
    try:
        takes_level = "level" in inspect.signature(rules.player).parameters
    except (TypeError, ValueError):
        takes_level = False
    return rules.player(level) if takes_level else rules.player()


def for_battle(rules: Ruleset, sides: list[str], seed: int,
               kinds: Mapping[str, str] | None = None) -> dict[str, Player]:
    """Each side's player for a battle played with `seed` (`kinds`: {side: kind}, normal
    for a side left out)."""
    kinds = kinds or {}
    return {s: make(rules, kinds.get(s, DEFAULT), side_seed(seed, sides, s)) for s in sides}


class RandomPlayer:
    """A uniform legal player: a type the acting side may use now, drawn uniformly, then its
    fields (rules.sampling); a pending decision gets one of its choices. The yardstick of
    `benchmarks/strength.py`: any sensible player beats it."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def rng(self, state: State) -> random.Random:
        """This choice's generator: the seed and the number of actions taken so far."""
        return random.Random(mix(self.seed, len(state.actions)))

    def choose(self, state: State) -> Action:
        rng = self.rng(state)
        action = sampling.random_legal(state, rng)
        if action is not None:
            return action
        return _pass_or_fail(state)


class PassPlayer(RandomPlayer):
    """Passes whenever the engine lets it (a decision: declines, else its first choice); when
    it may not pass (warband's initiative roll), a random legal action."""

    level = "pass"

    def choose(self, state: State) -> Action:
        if state.pending:
            d = state.pending[0]
            return next((c for c in d.choices if c.type == DECLINE), d.choices[0])
        for kind in state.available():
            if kind in passes(state):
                action = Action(kind)
                if not state.check(action):
                    return action
        return super().choose(state)


def _pass_or_fail(state: State) -> Action:
    for kind in state.available():
        if kind in passes(state):
            action = Action(kind)
            if not state.check(action):
                return action
    raise BattlefieldError(f"no legal action found for {state.acting_side} (round "
                           f"{state.round}, {state.phase or 'turn'})")


__all__ = ["DEFAULT", "KINDS", "LEVELS", "PassPlayer", "RandomPlayer", "check_kind", "for_battle",
           "make", "mix", "parse_players", "side_seed"]
