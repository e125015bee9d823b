"""A computer player for skirmish: rules-competent heuristics, every choice checked by the engine.

Turn: fortify whenever its side controls more objectives (the opponent loses the difference);
otherwise command up to two actions, each the best of:
- a skirmish with the enemy unit in range and sight that it hurts most for the least harm back
  (expected models slain, weighted up for units standing on objectives), never overextended;
- a move towards the nearest objective its side does not control (units on one they control stay),
  the furthest a legal move takes it that triggers no pot shots (never overextended);
- a bombardment token on the enemy unit its other units are most likely to attack.
Decisions (the engine asks them of this side, rules/decisions.py): the morale card of a
skirmish comes from the same policy for both sides, worked out without the other side's number -
nothing unless the skirmish matters (a unit on an objective, a big exchange), then 1 or 2
tokens, never leaving fewer than a reserve. A defender retreats when it cannot strike back and
holds no objective; the commanded unit never retreats.
"""

from __future__ import annotations

import math

import numpy as np

from battlefield.geometry.objectives import models_in_zone
from battlefield.rules.actions import Action
from battlefield.rules.decisions import Decision
from battlefield.rules.moves import Moves
from battlefield.rules.rounds import other
from battlefield.rules.skirmish import attacks, bombardment, movement, potshots
from battlefield.rules.skirmish.data import bombards, game, is_melee, leader, stat
from battlefield.rules.skirmish.odds import expected_slain
from battlefield.rules.state import State
from battlefield.rules.steps import heading, places
from battlefield.rulings import Referee

END = Action("end-turn")
FORTIFY = Action("fortify")
RESERVE = 7                  # never commit below this many tokens
SKIRMISH_MIN = 0.35          # the least expected gain (models) worth a command
FRACTIONS = (1.0, 0.75, 0.5, 0.25)
ANGLES = (0.0, 20.0, -20.0, 45.0, -45.0, 70.0, -70.0)
ON_OBJECTIVE = 1.5           # a model there counts this much more in an exchange


class SkirmishPlayer:
    """Chooses the next action for the side whose turn it is."""

    def choose(self, state: State) -> Action:
        if state.pending:
            return self.decide(state, state.pending[0])
        c = state.clock
        if c["commands"] == 0 and not c["fortified"] and not state.check(FORTIFY):
            return FORTIFY
        if c["fortified"] or c["commands"] >= game(state).commands_per_turn:
            return END
        skirmish = self._best_skirmish(state)
        bomb = self._bombard(state)
        plans = self._move_plans(state)
        # The best of skirmish, move and bombardment that is legal (ties: in that order). A move
        # is worth at most its best plan's value: options sure to rank above any move are tried
        # before working one out (the costly part), in the order the full ranking gives them.
        top = plans[0][0] if plans else None
        known = [(o, first) for o, first in ((skirmish, True), (bomb, False)) if o is not None]
        legal: dict[Action, bool] = {}        # checked in this choice (the state unchanged)

        def ok(action: Action) -> bool:
            if action not in legal:
                legal[action] = not state.check(action)
            return legal[action]

        for (score, action), first in sorted(known, key=lambda k: -k[0][0]):
            if top is not None and not (score >= top if first else score > top):
                break
            if ok(action):
                return action
        move = self._best_move(state, plans)
        if move is not None:
            legal[move[1]] = True             # _move_toward checked it
        options = [o for o in (skirmish, move, bomb) if o is not None]
        for _, action in sorted(options, key=lambda o: -o[0]):
            if ok(action):
                return action
        return END

    def candidates(self, state: State, limit: int) -> list[Action]:
        """What the strong level weighs (rules/search.py): this player's choice first, then
        the other choices of a pending decision (how many tokens to commit, whether to
        retreat), else the best of each kind - a skirmish (the two best), a move, a
        bombardment, fortifying, ending the turn."""
        first = self.choose(state)
        if state.pending:
            d = state.pending[0]
            return [first, *[c for c in d.choices if c != first]][:max(1, limit)]
        c = state.clock
        others: list[Action] = []
        if not c["fortified"] and c["commands"] < game(state).commands_per_turn:
            others += [a for _, a in self._skirmishes(state)[:2]]
            plans = self._move_plans(state)
            for o in (self._best_move(state, plans), self._bombard(state)):
                if o is not None:
                    others.append(o[1])
            if c["commands"] == 0:
                others.append(FORTIFY)
        others.append(END)
        out = [first]
        for a in others:
            if len(out) >= limit:
                break
            if a not in out and not state.check(a):
                out.append(a)
        return out

    # --- skirmishes ---------------------------------------------------------------------------
    def _skirmishes(self, state: State) -> list[tuple[float, Action]]:
        """Every skirmish its units may start, with its expected exchange, the best first."""
        side = state.clock["active"]
        ref = Referee(state.scene, state.table)
        out = []
        for u in self._units(state, side):
            if "did-skirmish" in state.units[u].flags or not attacks.may_attack(state, u):
                continue
            for w in self._units(state, other(state, side)):
                if not attacks.in_range(state, u, w) or attacks.sight(state, u, w, ref) == "none":
                    continue
                out.append((self._exchange(state, ref, u, w),
                            Action("skirmish", unit=state.scene.units[u].id,
                                   target=state.scene.units[w].id)))
        return sorted(out, key=lambda o: -o[0])

    def _best_skirmish(self, state: State) -> tuple[float, Action] | None:
        """The best skirmish (_skirmishes' first) when its exchange is worth it."""
        best = next(iter(self._skirmishes(state)), None)
        if best is None or best[0] < SKIRMISH_MIN:
            return None
        return 2.0 + best[0], best[1]

    # --- decisions ----------------------------------------------------------------------------
    def decide(self, state: State, d: Decision) -> Action:
        """This side's answer to a pending decision (always one of its choices)."""
        pick: Action | None = None
        if d.kind == "commit":
            u, w = state.unit_index(d.get("unit")), state.unit_index(d.get("target"))
            gain = self._exchange(state, Referee(state.scene, state.table), u, w)
            n = commitment(state, d.side, u, w, gain)
            pick = Action("commit", side=d.side, options=(("tokens", n),))
        elif d.kind == "retreat":
            w, u = state.unit_index(d.get("unit")), state.unit_index(d.get("from"))
            if state.side_of(w) != state.clock["active"] and \
                    self._defender_retreats(state, Referee(state.scene, state.table), u, w):
                pick = d.choices[0]
        return pick if pick in d.choices else d.choices[-1]

    def _exchange(self, state: State, ref: Referee, u: int, w: int) -> float:
        """Expected models slain minus models lost, weighted by what stands on objectives."""
        dealt = expected_slain(state, u, w, cover_bonus=_partial(state, ref, u, w))
        back = 0.0
        if attacks.may_attack(state, w) and attacks.in_range(state, w, u) and \
                attacks.sight(state, w, u, ref) != "none":
            back = expected_slain(state, w, u, cover_bonus=_partial(state, ref, w, u))
            if stat(state, u, "initiative") > stat(state, w, "initiative"):
                left = max(0.0, 1 - dealt / max(1, len(state.models_of(w))))
                back *= left
        elif is_melee(state, w) and attacks.distance(state, w, u) <= stat(state, w, "speed") + 1:
            back = expected_slain(state, w, u) * 0.7
        return dealt * _weight(state, w) - back * _weight(state, u)

    def _defender_retreats(self, state: State, ref: Referee, u: int, w: int) -> bool:
        strikes_back = attacks.in_range(state, w, u) and attacks.sight(state, w, u, ref) != "none"
        return not strikes_back and not is_melee(state, w) and not _on_objective(state, w)

    # --- moves --------------------------------------------------------------------------------
    def _move_plans(self, state: State) -> list[tuple[float, int, tuple[float, float]]]:
        """(value, unit, goal) of each unit that may move towards a goal, the best first."""
        side = state.clock["active"]
        held = state.objectives
        plans = []
        for u in self._units(state, side):
            if "did-move" in state.units[u].flags:
                continue
            goal, value = self._goal(state, u, side, held)
            if goal is not None:
                plans.append((value, u, goal))
        return sorted(plans, key=lambda p: -p[0])

    def _best_move(self, state: State, plans: list[tuple[float, int, tuple[float, float]]]
                   ) -> tuple[float, Action] | None:
        """The first plan (the best first) that a legal move without pot shots serves."""
        for value, u, goal in plans:
            action = self._move_toward(state, u, goal)
            if action is not None:
                return value, action
        return None

    def _goal(self, state: State, u: int, side: str, held: dict[str, str | None]
              ) -> tuple[tuple[float, float] | None, float]:
        t = state.table
        i = leader(state, u)
        here = (float(t.x[i]), float(t.y[i]))
        for o in state.scene.objectives:
            on = _in_zone(t, o.x, o.y, state.scene.ruleset.objectives.range)
            if on[t.unit_models[u]].any() and held.get(o.id) in (side, None):
                return None, 0.0                  # holding or contesting: stay
        if not is_melee(state, u) and stat(state, u, "range") >= 8:
            ref = Referee(state.scene, t)
            if any(attacks.in_range(state, u, w) and attacks.sight(state, u, w, ref) != "none"
                   for w in self._units(state, other(state, side))):
                return None, 0.0                  # shooters with targets stay and shoot
        wanted = [o for o in state.scene.objectives if held.get(o.id) != side]
        if wanted:
            o = min(wanted, key=lambda o: (math.dist((o.x, o.y), here)
                                           + (4 if o.extra.get("home") else 0), o.id))
            d = math.dist((o.x, o.y), here)
            value = 1.5 + 3.0 / (1.0 + d / 6)
            return (o.x, o.y), value
        foes = self._units(state, other(state, side))
        if not foes:
            return None, 0.0
        w = min(foes, key=lambda w: math.dist(here, (t.x[leader(state, w)],
                                                     t.y[leader(state, w)])))
        return (float(t.x[leader(state, w)]), float(t.y[leader(state, w)])), 1.0

    def _move_toward(self, state: State, u: int, goal: tuple[float, float]) -> Action | None:
        t = state.table
        i = leader(state, u)
        start = (float(t.x[i]), float(t.y[i]))
        dist = math.dist(start, goal)
        stop = 1.0                                # end the leader this far short of the goal
        if dist <= stop + 0.2:
            return None
        speed = stat(state, u, "speed")
        spec = state.scene.units[u]
        allowed = movement.allowance(state, u, state.rules.overextended(state, u, "move"))
        lengths = [s for s in (min(speed * f, dist - stop) for f in FRACTIONS) if s >= 0.3]
        for x, y in places(start, heading(start, goal), lengths, ANGLES):
            action = Action("move", unit=spec.id, path=(start, (round(x, 4), round(y, 4))))
            moves = movement.planned(state, u, action)
            # A path too long (climbing) is the check's first refusal: found without it.
            if (isinstance(moves, Moves) and movement.too_far(state, u, moves, allowed)) \
                    or state.check(action):
                continue
            if potshots.triggers(state, u, moves, False):
                continue
            return action
        return None

    # --- bombardment --------------------------------------------------------------------------
    def _bombard(self, state: State) -> tuple[float, Action] | None:
        side = state.clock["active"]
        foes = self._units(state, other(state, side))
        mine = self._units(state, side)
        for u in mine:
            if not bombards(state, u) or "did-bombard" in state.units[u].flags:
                continue
            best = None
            for w in foes:
                j = leader(state, w)
                at = (round(float(state.table.x[j]), 4), round(float(state.table.y[j]), 4))
                if bombardment.distance_to(state, u, at) <= game(state).bombard_farther_than + 0.01:
                    continue
                score = sum(1 for f in mine if f != u and attacks.in_range(state, f, w))
                score += 1 if _on_objective(state, w) else 0
                if best is None or score > best[0]:
                    best = (score, at)
            if best is None:
                continue
            now = bombardment.token_of(state, u)
            if now is not None and math.dist(now, best[1]) < 3:
                continue
            return 0.5 + 0.3 * best[0], Action.from_dict({"type": "bombard",
                                                          "unit": state.scene.units[u].id,
                                                          "at": list(best[1])})
        return None

    # --- helpers ------------------------------------------------------------------------------
    def _units(self, state: State, side: str) -> list[int]:
        return [u for u, s in enumerate(state.scene.units)
                if s.side == side and len(state.models_of(u))]


def _in_zone(t, x: float, y: float, zone: float) -> np.ndarray:
    """models_in_zone, once per table and objective (the player asks it for every unit).
    Read, never changed."""
    def make() -> np.ndarray:
        inside = models_in_zone(t, x, y, zone)
        inside.setflags(write=False)
        return inside

    return t.memo(("skirmish-in-zone", x, y, zone), make)


def _partial(state: State, ref: Referee, u: int, w: int) -> int:
    return game(state).partial_sight_cover if attacks.sight(state, u, w, ref) == "partial" else 0


def _on_objective(state: State, u: int) -> bool:
    t = state.table
    rng = state.scene.ruleset.objectives.range
    return any(_in_zone(t, o.x, o.y, rng)[t.unit_models[u]].any()
               for o in state.scene.objectives)


def _weight(state: State, u: int) -> float:
    return ON_OBJECTIVE if _on_objective(state, u) else 1.0


def commitment(state: State, side: str, u: int, w: int, stake: float) -> int:
    """How many tokens `side` commits to the skirmish of u against w, without knowing the other
    side's number. Tokens are the score, so only a skirmish that can change who holds an
    objective (a unit on a field objective or on the enemy's home one) or a big exchange is worth
    1 or 2; never leaving fewer than RESERVE tokens nor going more than one behind the enemy."""
    tokens = state.sides[side]["morale"]
    theirs = state.sides[other(state, side)]["morale"]
    matters = sum([_contests(state, u), _contests(state, w), abs(stake) >= 1.5])
    want = (0, 0, 1, 2)[matters]
    cap = min(tokens - RESERVE, tokens - theirs + 1, tokens - 1)
    cards = [c for c in game(state).morale_cards if c <= min(want, cap)]
    return max(cards) if cards else 0


def _contests(state: State, u: int) -> bool:
    """u stands on an objective whose control it can change: a field objective or the enemy's
    home objective (its own home objective stays its side's even at 0-0)."""
    t = state.table
    rng = state.scene.ruleset.objectives.range
    side = state.scene.units[u].side
    return any(_in_zone(t, o.x, o.y, rng)[t.unit_models[u]].any()
               for o in state.scene.objectives if o.extra.get("home") != side)


__all__ = ["SkirmishPlayer", "commitment", "expected_slain"]
