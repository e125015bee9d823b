"""The strong level: Monte Carlo rollouts over the engine. At each decision the normal player
names its candidates (`candidates(state, limit)`: its choice first, then what else it would
consider now - another unit's action, another target, a move, the pass; a pending decision's
other choices); each candidate is played out in sampled worlds - the state copied, its dice
reseeded from the searcher's own generator (never the real dice), any secret answer of another
side taken back and answered again by the rollout's players (never read) - with normal players
on every side for a bounded number of actions, and the world valued from the searcher's side.
Every candidate is first played in SCREEN worlds beside the normal choice (the same worlds, so
that each world's difference is the candidates' and not the dice's); the one with the largest
mean gain there, if any is ahead, is then played in the rest of the ROLLOUTS worlds with the
normal choice, and replaces it only when its mean gain over all of them is at least MARGIN and
clears SURE standard errors: with a few worlds and several candidates, a looser test (one
standard error, every candidate in every world) switched on noise about one decision in three
and left the strong level no better than the normal one. A player that names no candidates is
weighed against the pass (or a decision's other choices). When the search takes an action, the
normal player's `chosen(state, action)` hears of it (aos4's does not offer it again this
phase).

A rollout plays at least LEAST actions after the candidate and then on to the end of the
battle round it has reached (at most DEPTH actions), so that the position is valued where every
side has answered what the candidate started - a horizon cut in the middle of a round values a
charge before the enemy strikes back.

Bounded by work, not by time: at most SCREEN worlds for each candidate and ROLLOUTS for the
normal choice and the leading one, DEPTH actions per rollout, CANDIDATES candidates per
decision. Same position, same seed: same choice.

A position is valued by the ruleset's `value` hook when it has one; otherwise by the deciding
score (Result.points) and the health left on the table, each as a share between the sides, and
by the result itself once the battle is over."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from battlefield.rules.actions import Action
from battlefield.rules.choices import passes
from battlefield.rules.dice import Dice
from battlefield.rules.ruleset import Player, Ruleset
from battlefield.rules.state import State

ROLLOUTS = 12               # sampled worlds for the normal choice and the leading candidate
SCREEN = 4                  # sampled worlds every candidate is first played in
LEAST = 12                  # actions a rollout plays at least, then on to the round's end
DEPTH = 48                  # actions a rollout plays at most
CANDIDATES = 4              # candidates weighed per decision
MARGIN = 0.02               # how much better than the normal choice another must be
SURE = 2.0                  # standard errors its mean gain must clear
SCORE_WEIGHT = 2.0          # the deciding score's share against ...
_MASK = (1 << 64) - 1
HEALTH_WEIGHT = 3.0         # ... the health left on the table's, in the value


class SearchPlayer:
    """The strong level: the normal player's candidates weighed by rollouts (see above)."""

    level = "strong"

    def __init__(self, rules: Ruleset, normal: Callable[[int], Player], seed: int = 0,
                 rollouts: int | None = None, depth: int | None = None,
                 candidates: int | None = None, least: int | None = None) -> None:
        self.rules = rules
        self.normal = normal                     # a normal player of this ruleset, by seed
        self.seed = seed
        self.rollouts = ROLLOUTS if rollouts is None else rollouts
        self.depth = DEPTH if depth is None else depth
        self.least = LEAST if least is None else least
        self.candidates = CANDIDATES if candidates is None else candidates
        self.base = normal(seed)
        self.searched = 0                       # decisions weighed (for the benchmarks)

    def choose(self, state: State) -> Action:
        options = self.options(state)
        if len(options) < 2:
            return options[0]
        self.searched += 1
        side = state.acting_side
        rng = random.Random(mix(self.seed, len(state.actions), 0x5EA2C4))
        worlds = [rng.getrandbits(63) for _ in range(max(1, self.rollouts))]
        first = worlds[:min(SCREEN, len(worlds))]
        base = [self.rollout(state, side, options[0], w) for w in first]
        diffs = {i: [self.rollout(state, side, options[i], w) - base[k]
                     for k, w in enumerate(first)] for i in range(1, len(options))}
        lead = max(diffs, key=lambda i: (_spread(diffs[i])[0], -i))
        best = 0
        if _spread(diffs[lead])[0] > 0:
            for w in worlds[len(first):]:
                diffs[lead].append(self.rollout(state, side, options[lead], w)
                                   - self.rollout(state, side, options[0], w))
            m, se = _spread(diffs[lead])
            if m >= MARGIN and m - SURE * se > 0:
                best = lead
        chosen = options[best]
        told = getattr(self.base, "chosen", None)
        if told is not None:
            told(state, chosen)
        # the choice is applied on the real state next: checked here, as a player's is
        state.check(chosen)
        return chosen

    def options(self, state: State) -> list[Action]:
        """The candidates: the normal player's (its `candidates` when it names them, else its
        choice and the pass), legal, without repeats, the normal choice first."""
        named = getattr(self.base, "candidates", None)
        found: list[Action] = list(named(state, self.candidates)) if named else []
        if not found:
            found = [self.base.choose(state)]
            if state.pending:
                found += list(state.pending[0].choices)
            else:
                for kind in state.available():
                    if kind in passes(state):
                        found.append(Action(kind))
        out: list[Action] = []
        for a in found:
            if a not in out and not state.check(a):
                out.append(a)
            if len(out) >= self.candidates:
                break
        return out or [self.base.choose(state)]

    def rollout(self, state: State, side: str, action: Action, world: int) -> float:
        """The value for `side` of playing `action` in one sampled world."""
        return value(self.played(state, side, action, world), side)

    def played(self, state: State, side: str, action: Action, world: int) -> State:
        """One sampled world of `side` after `action` and, with normal players on every
        side, at least `least` actions more, then on to the end of the round reached (at most
        `depth`)."""
        w = sampled(state, side, world)
        w.apply(action)
        sides = list(state.scene.sides)
        players: dict[str, Player] = {s: self.normal(mix(world, k + 1))
                                      for k, s in enumerate(sides)}
        least = min(self.least, self.depth)
        upto = None
        for n in range(self.depth):
            if w.over:
                break
            if n == least:
                upto = w.round
            elif upto is not None and w.round != upto:
                break
            w.apply(players[w.acting_side].choose(w), checked=True)
        return w


def _spread(d: list[float]) -> tuple[float, float]:
    """(mean, standard error) of paired differences."""
    n = len(d)
    m = sum(d) / n
    var = sum((x - m) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


def mix(*values: int) -> int:
    """A well-mixed 63-bit number from whole numbers (splitmix64 of each in turn): the seeds
    of players and of sampled worlds."""
    z = 0x9E3779B97F4A7C15
    for v in values:
        z = (z ^ (int(v) & _MASK)) & _MASK
        z = (z + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
    return z & 0x7FFFFFFFFFFFFFFF


def sampled(state: State, side: str, world: int) -> State:
    """A copy of the state as `side` may know it, in a world of its own: the dice reseeded
    (no fixed values, no log), every secret answer of another side taken back (its decision
    pending again), no undo history."""
    w = state.snapshot()
    w.keep_undo = False
    w.dice = Dice.seeded(world)
    hidden = [(d, a) for d, a in w.answers if d.secret and d.side != side]
    if hidden:
        w.answers = tuple((d, a) for d, a in w.answers if (d, a) not in hidden)
        w.pending = tuple(d for d, _ in hidden) + tuple(w.pending)
    return w


def value(state: State, side: str) -> float:
    """How good the position is for `side`, 0 (lost) .. 1 (won): the ruleset's own `value`
    when it gives one, else the result once over, else the deciding score and the health left,
    each as the share of `side` against its enemies."""
    own = state.rules.value(state, side)
    if own is not None:
        return float(own)
    result = state.result()
    if state.over:
        return 1.0 if result.winner == side else 0.5 if result.winner is None else 0.0
    points = result.points
    mine = float(points.get(side, 0.0))
    theirs = max((float(v) for s, v in points.items() if s != side), default=0.0)
    score = (mine - theirs) / (abs(mine) + abs(theirs) + 1.0)
    health = health_left(state)
    h_mine = health.get(side, 0.0)
    h_theirs = max((v for s, v in health.items() if s != side), default=0.0)
    x = SCORE_WEIGHT * score + HEALTH_WEIGHT * (h_mine - h_theirs)
    return 0.5 + 0.5 * math.tanh(x)


def health_left(state: State) -> dict[str, float]:
    """Each side's health left on the table, as a share of its health at the start (models
    counted when the ruleset counts no health)."""
    left: dict[str, float] = {}
    full: dict[str, float] = {}
    for u, spec in enumerate(state.scene.units):
        us = state.units[u]
        each: Any = state.rules.health(state, u) or [1] * len(us.alive)
        whole = [float(h) for h in each]
        full[spec.side] = full.get(spec.side, 0.0) + sum(whole)
        now = sum(max(0.0, h - float(d)) for h, d, a in zip(whole, us.damage, us.alive,
                                                            strict=False) if a)
        left[spec.side] = left.get(spec.side, 0.0) + now
    return {s: left[s] / full[s] if full[s] else 0.0 for s in full}


__all__ = ["SearchPlayer", "health_left", "mix", "sampled", "value"]
