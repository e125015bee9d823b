"""A computer player for aos4: rules-competent heuristics, every choice checked by the engine.

Deployment: each unit in reserve as a block as near the middle as there is room, melee units
in front (deployer.py). Hero phase: rally a badly hurt unit. Movement: each unit heads for the
nearest objective its side does not hold (else the nearest enemy), as far as a legal move takes
it, running when it has no ranged weapons and is far away. Shooting: at the target with the
highest expected damage (a unit in combat with its Shoot in Combat weapons). Charge: when the
odds are good (re-rolling with Forward to Victory when command points allow), declared first,
the move after the roll (the shortest legal charge it reaches, else decline). Combat: fight
with every eligible unit, at the enemy it hurts most.
Decisions (asked of this side by the engine): All-out Defence for the targeted unit when it
saves at least a point of damage on average, else decline; Unbind always (it costs nothing),
with the WIZARD that has the most unbinds left, the nearest on a tie; the first turn of a battle
round always taken; a reaction to its own unit's fight always declared, on the first unit it
may pick (a free fight now, and what the reaction gives it).
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import numpy as np

from battlefield.rules import adjust
from battlefield.rules.actions import Action
from battlefield.rules.aos4 import abilities_play, movement, rolls, spellbook
from battlefield.rules.aos4.charge import charge_odds
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.deployer import deploy_actions
from battlefield.rules.aos4.magic import can_unbind
from battlefield.rules.aos4.movement import EPS
from battlefield.rules.aos4.odds import attack_odds
from battlefield.rules.aos4.rolls import charge_chance
from battlefield.rules.aos4.weapons import weapons_of
from battlefield.rules.decisions import DECLINE, Decision
from battlefield.rules.moves import Moves, leader
from battlefield.rules.standing import referee
from battlefield.rules.state import State
from battlefield.rules.steps import heading, places
from battlefield.rulings import Referee

END = Action("end-phase")
CHARGE_ODDS = 0.45
DEFENCE_SAVES = 1.0          # All-out Defence when it saves this much damage on average
ANGLES = (0.0, 25.0, -25.0, 50.0, -50.0, 80.0, -80.0)
FRACTIONS = (0.98, 0.7, 0.45, 0.2)
KEEP_OFF = 3.6               # stay this far from enemies on a normal move (combat range 3")


class Aos4Player:
    """Chooses the next action for the acting side."""

    def __init__(self) -> None:
        self._tried: set[tuple] = set()

    def choose(self, state: State) -> Action:
        if state.pending:
            return self.decide(state, state.pending[0])
        c = state.clock
        key = (c["round"], c["turn"], c["phase"], c["acting"])
        for action in abilities_play.offers(state):     # its units' own, when played
            tag = (key, action)
            if tag not in self._tried:
                self._tried.add(tag)
                if not state.check(action):
                    return action
        offers = self.offers.get(c["phase"])
        if offers is not None:
            for action in offers(self, state):
                tag = (key, action)
                if tag in self._tried:
                    continue
                self._tried.add(tag)          # refused or taken: not offered again this phase
                if not _refused(state, action) and not state.check(action):
                    return action
        return END

    def candidates(self, state: State, limit: int) -> list[Action]:
        """What the strong level weighs (rules/search.py): this player's choice first, then
        the next legal actions it would offer were that one refused (another unit's shot, a
        command, a spell first) and ending the phase; a pending decision: its other
        choices. Nothing is marked tried here: `chosen` marks what the search took."""
        if state.pending:
            d = state.pending[0]
            first = self.decide(state, d)
            return [first, *[c for c in d.choices if c != first]][:max(1, limit)]
        clone = copy.copy(self)
        clone._tried = set(self._tried)
        out: list[Action] = []
        while len(out) < max(1, limit - 1):
            a = clone.choose(state)
            if a in out or a == END:
                break
            out.append(a)
        if not out or (END not in out and not state.check(END)):
            out.append(END)
        return out

    def chosen(self, state: State, action: Action) -> None:
        """The search took `action`: not offered again this phase (as `choose` marks what it
        returns)."""
        c = state.clock
        self._tried.add(((c["round"], c["turn"], c["phase"], c["acting"]), action))

    def decide(self, state: State, d: Decision) -> Action:
        """This side's answer to a pending decision (always one of its choices)."""
        if d.kind == adjust.ADJUST:
            return abilities_play.answer(state, d)
        if d.kind == abilities_play.REACTION:      # a free fight now, and what it gives
            return d.choices[0]
        if d.kind == "charge-move":
            return self._charge_move(state, d)
        if d.kind == "run-move":
            return self._run_move(state, d)
        if d.kind in ("unbind", "first-turn"):
            return self._unbind(state, d) if d.kind == "unbind" else d.choices[0]
        decline = next(c for c in d.choices if c.type == DECLINE)
        if d.kind != "all-out-defence":
            return decline
        ref = referee(state)
        u = state.unit_index(d.get("attacker"))
        best, most = decline, DEFENCE_SAVES
        for c in d.choices:
            if c.type == DECLINE:
                continue
            w = state.unit_index(c.unit)
            saved = (_odds(ref, u, w).expected_damage
                     - _odds(ref, u, w, all_out_defence=True).expected_damage)
            if saved >= most:
                best, most = c, saved
        return best

    def _unbind(self, state: State, d: Decision) -> Action:
        """The WIZARD with the most unbinds left this phase (the choices come nearest first)."""
        def left(c: Action) -> int:
            w = state.unit_index(c.unit)
            return can_unbind(state, w) - int(state.units[w].counters.get("unbinds_this_phase",
                                                                           0))

        wizards = [c for c in d.choices if c.type != DECLINE]
        return max(wizards, key=left) if wizards else d.choices[-1]

    # --- phases --------------------------------------------------------------------------------
    def _hero(self, state: State):
        side = state.clock["acting"]
        if state.clock["active"] != side:
            return
        yield from self._magic(state)
        if state.sides[side]["cp"] < 2:
            return
        ref = referee(state)
        for u in self._mine(state):
            us = state.units[u]
            lost = int((~us.alive).sum()) + int(us.damage.sum() > 0)
            if lost and not ref.combat[u] and len(state.models_of(u)) <= 0.7 * len(us.alive):
                yield Action("rally", unit=state.scene.units[u].id)

    def _magic(self, state: State):
        """Damage the nearest enemy in range first; otherwise help a friend; priests bank
        ritual points when nothing is worth chanting."""
        for u in self._mine(state):
            spec = state.scene.units[u]
            foes = sorted(state.enemies(u), key=lambda w: state.table.unit_distance(u, w))
            friends = [w for w in self._mine(state) if w != u]
            for item in [*spellbook.of(spec, "spells"), *spellbook.of(spec, "prayers")]:
                kind = next(iter(item["effect"]))
                if kind == "mortal":
                    for w in foes:
                        yield Action(item["id"], unit=spec.id, target=state.scene.units[w].id)
                elif kind == "heal":
                    hurt = [w for w in [u, *friends] if state.units[w].damage.any()]
                    for w in hurt:
                        yield Action(item["id"], unit=spec.id, target=state.scene.units[w].id)
                else:
                    ref = referee(state)
                    for w in [w for w in friends if ref.combat[w]] or friends[:1]:
                        yield Action(item["id"], unit=spec.id, target=state.scene.units[w].id)
            if spec.has("PRIEST"):
                yield Action("sacred-rites", unit=spec.id)

    def _movement(self, state: State):
        if state.clock["active"] != state.clock["acting"]:
            return
        ref = referee(state)
        for u in self._mine(state):
            if ref.combat[u] or book(state).used_core(state.units[u].phase_used):
                continue                  # the Rule of One refuses any move of this unit now
            spec = state.scene.units[u]
            goal = self._goal(state, u)
            if goal is None:
                continue
            move = self._planned_move(spec.stats.get("move"))
            leader = self._leader(state, u)
            lx, ly = float(state.table.x[leader]), float(state.table.y[leader])
            dist = math.hypot(goal[0] - lx, goal[1] - ly)
            if dist < 1.0 or move <= 0:
                continue
            shooter = bool(weapons_of(state.scene, u, melee=False))
            kinds = ["normal-move"] if shooter or dist <= move + 1 else ["run", "normal-move"]
            for kind in kinds:
                reach = move + (3.5 if kind == "run" else 0.0)
                allowed = state.rules.move_allowance(state, u, kind)
                paths = self._paths(state, u, kind, goal, reach, allowed)
                if kind == "run":
                    # declared in the seed's order when a run is worth it: the roll first,
                    # then the move (decide: _run_move)
                    if any(not _refused(state, a) and not state.check(a) for a in paths):
                        yield Action("run", unit=spec.id)
                    continue
                yield from paths

    def _paths(self, state: State, u: int, kind: str, goal: tuple[float, float],
               reach: float, allowed: float | None) -> Iterator[Action]:
        """Unit u's moves of `kind` towards `goal`, up to `reach` (as fractions of it, fanned
        out), never ending near an enemy nor longer than `allowed`."""
        spec = state.scene.units[u]
        leader = self._leader(state, u)
        lx, ly = float(state.table.x[leader]), float(state.table.y[leader])
        dist = math.hypot(goal[0] - lx, goal[1] - ly)
        foes = np.array([m for w in state.enemies(u) for m in state.models_of(w)],
                        dtype=np.int64)
        lengths = [s for s in (min(reach * f, max(0.0, dist - 1.0)) for f in FRACTIONS)
                   if s > 0.05]
        for end in places((lx, ly), heading((lx, ly), goal), lengths, ANGLES):
            if self._near_enemy(state, u, foes, end, lx, ly):
                continue
            # A path too long (climbing) is refused by the check before anything else:
            # found here, without the rest of the check.
            action = Action(kind, unit=spec.id, path=((lx, ly), end))
            moves = movement.planned(state, u, action)
            if isinstance(moves, Moves) and allowed is not None and \
                    movement.too_far(state, u, moves, allowed):
                continue
            yield action

    def _run_move(self, state: State, d: Decision) -> Action:
        """The move after the run roll: the first legal run towards the unit's goal that what
        was rolled reaches (this player's way, then fanned out at shorter lengths and angles);
        else decline (it stays)."""
        u, allowed = state.unit_index(str(d.get("unit"))), float(d.get("allowed") or 0)
        goal = self._goal(state, u)
        if goal is None:
            return next(c for c in d.choices if c.type == DECLINE)
        for action in itertools.chain(self._run_paths(state, u, goal, allowed),
                                      self._paths(state, u, "run", goal, allowed, allowed)):
            if not _refused(state, action) and not state.check(action):
                return action
        return next(c for c in d.choices if c.type == DECLINE)

    def _run_paths(self, state: State, u: int, goal: tuple[float, float], allowed: float
                   ) -> Iterator[Action]:
        return self._paths(state, u, "run", goal, allowed, allowed)

    @staticmethod
    def _planned_move(move: Any) -> float:
        """How far a move is planned: the Move, or for a dice Move the distance it reaches two
        times in three."""
        if rolls.is_dice(move):
            return float(rolls.likely_move(str(move)))
        return float(move or 0)

    def _shooting(self, state: State):
        side = state.clock["acting"]
        if state.clock["active"] != side:
            return
        ref = referee(state)
        for u in self._mine(state):
            if book(state).used_core(state.units[u].phase_used):
                continue                  # shot already: the Rule of One refuses another
            spec = state.scene.units[u]
            ranged = weapons_of(state.scene, u, melee=False)
            if ref.combat[u]:               # in combat: only Shoot in Combat weapons shoot
                ranged = [w for w in ranged if w.shoots_in_combat]
            if not ranged or state.units[u].flags & {"ran", "retreated"}:
                continue
            best = self._best_target(state, ref, u, state.enemies(u), melee=False)
            if best is not None:
                yield Action("shoot", unit=spec.id, target=state.scene.units[best].id)

    def _charge(self, state: State):
        side = state.clock["acting"]
        if state.clock["active"] != side:
            return
        ref = referee(state)
        for u in self._mine(state):
            spec = state.scene.units[u]
            if ref.combat[u] or state.units[u].flags & {"ran", "retreated"}:
                continue
            if not weapons_of(state.scene, u, melee=True):
                continue
            options = []
            reroll = state.sides[side]["cp"] >= 1
            rules = book(state)
            longest = _longest_charge(rules.core.charge.roll, reroll)
            for w in state.enemies(u):
                # A charge moves at least the gap less the reach: when even that is longer
                # than a charge worth declaring, no path search can find one.
                if state.table.unit_distance(u, w) - rules.core.charge.reach > longest + EPS:
                    continue
                odds = charge_odds(rules, ref, u, w, within=longest)
                if odds.needed is None:
                    continue
                p = odds.probability_reroll if reroll else odds.probability
                if p >= CHARGE_ODDS:
                    options.append((p, w, odds))
            for _p, w, odds in sorted(options, key=lambda o: -o[0]):
                # declared, in the seed's order, when the unit can make that charge (its path
                # legal for the longest roll): the roll first, then the move (decide)
                path = self._unit_path(state, u, odds)
                if state.check(Action("charge", unit=spec.id, target=state.scene.units[w].id,
                                      path=tuple(path))):
                    continue
                extra = ({"command": "forward-to-victory"}
                         if state.sides[side]["cp"] >= 1 and odds.probability < 0.9 else {})
                yield Action.from_dict({"type": "charge", "unit": spec.id,
                                        "target": state.scene.units[w].id, **extra})

    def _charge_move(self, state: State, d: Decision) -> Action:
        """The move after the charge roll: the shortest legal charge the roll reaches, at the
        declared target first, then the nearest enemy; else decline (the charge fails)."""
        uid = str(d.get("unit"))
        u, rolled = state.unit_index(uid), float(d.get("roll") or 0)
        ref = referee(state)
        named = [state.unit_index(t) for t in str(d.get("target") or "").split(", ") if t]
        near = sorted(state.enemies(u), key=lambda w: state.table.unit_distance(u, w))
        kind = next(iter(d.open), "charge")
        for w in [*named, *(w for w in near if w not in named)]:
            odds = charge_odds(book(state), ref, u, w, within=rolled)
            if odds.needed is None or odds.needed > rolled + EPS:
                continue
            action = Action.from_dict({"type": kind, "unit": uid,
                                       "target": state.scene.units[w].id,
                                       "path": [list(pt) for pt in
                                                self._unit_path(state, u, odds)]})
            if not state.check(action):
                return action
        return next(c for c in d.choices if c.type == DECLINE)

    def _combat(self, state: State):
        ref = referee(state)
        for u in self._mine(state):
            if not (ref.combat[u] or "charged" in state.units[u].flags):
                continue
            if book(state).used_core(state.units[u].phase_used):
                continue                  # fought already: the Rule of One refuses another
            foes = sorted(ref.combat[u])
            best = self._best_target(state, ref, u, foes, melee=True) if foes else None
            if best is None and foes:
                best = foes[0]          # it must pick a target, even one it cannot hurt
            spec = state.scene.units[u]
            if best is None:
                yield Action("fight", unit=spec.id)
            else:
                yield Action("fight", unit=spec.id, target=state.scene.units[best].id)

    # what this player offers in each phase (start and end: nothing but ending it)
    def _deployment(self, state: State) -> Iterator[Action]:
        yield from deploy_actions(state)

    offers: ClassVar[dict[str, Callable[[Aos4Player, State], Iterator[Action]]]] = {
        "deployment": _deployment, "hero": _hero, "movement": _movement,
        "shooting": _shooting, "charge": _charge, "combat": _combat}

    # --- helpers ---------------------------------------------------------------------------------
    def _mine(self, state: State) -> list[int]:
        side = state.clock["acting"]
        return [u for u, s in enumerate(state.scene.units)
                if s.side == side and len(state.models_of(u))]

    def _leader(self, state: State, u: int) -> int:
        return leader(state, u)

    def _goal(self, state: State, u: int) -> tuple[float, float] | None:
        side = state.scene.units[u].side
        leader = self._leader(state, u)
        here = (state.table.x[leader], state.table.y[leader])
        objs = [(o.x, o.y) for o in state.scene.objectives
                if state.objectives.get(o.id) != side]
        if objs:
            return min(objs, key=lambda p: math.dist(p, here))
        foes = state.enemies(u)
        if not foes:
            return None
        pts = [(float(state.table.x[m]), float(state.table.y[m]))
               for w in foes for m in state.models_of(w)]
        return min(pts, key=lambda p: math.dist(p, here))

    def _near_enemy(self, state: State, u: int, foes: np.ndarray, end, lx, ly) -> bool:
        """Unit u moved so its leader goes from (lx, ly) to `end` comes within KEEP_OFF of one
        of the enemy models `foes`."""
        t = state.table
        if not len(foes):
            return False
        dx, dy = end[0] - lx, end[1] - ly
        mine = state.models_of(u)
        xs = t.x[mine] + dx
        ys = t.y[mine] + dy
        fx, fy = t.x[foes], t.y[foes]
        d = np.hypot(xs[:, None] - fx[None, :], ys[:, None] - fy[None, :])
        d -= t.reach[mine][:, None] + t.reach[foes][None, :]
        return bool(d.min() < KEEP_OFF)

    def _best_target(self, state, ref, u, candidates, melee: bool) -> int | None:
        best, score = None, 0.0
        for w in candidates:
            o = _odds(ref, u, w, shooting=not melee)
            if (o.kind == "combat") != melee or o.reason:
                continue
            if o.expected_damage > score:
                best, score = w, o.expected_damage
        return best

    def _unit_path(self, state: State, u: int, odds) -> list[tuple[float, float]]:
        """The unit's leader path that moves every model along the charging model's route."""
        m = odds.model
        leader = self._leader(state, u)
        dx = state.table.x[leader] - state.table.x[m]
        dy = state.table.y[leader] - state.table.y[m]
        return [(float(x + dx), float(y + dy)) for x, y in odds.path]


def _refused(state: State, action: Action) -> bool:
    """A move with its path that the engine's check would refuse whatever else holds, found
    without the whole check: a model ending half on a tall piece (movement.straddles). A
    player tries many paths and most that fail end so; True only when the check refuses."""
    if action.type not in ("normal-move", "run") or not action.path or action.unit is None:
        return False
    moves = movement.planned(state, state.unit_index(action.unit), action)
    return isinstance(moves, Moves) and movement.straddles(state, moves)


def _longest_charge(dice: str, reroll: bool) -> float:
    """The longest charge whose odds reach CHARGE_ODDS (longer ones are never declared)."""
    return float(max((n for n in range(0, 13) if charge_chance(dice, n, reroll) >= CHARGE_ODDS),
                     default=0))


def _odds(ref: Referee, u: int, w: int, all_out_defence: bool = False,
          shooting: bool = False):
    """attack_odds, once per table (they depend on the scene and where the models stand
    only): the player asks again for every action it picks in a phase. Read, never changed."""
    scene = ref.scene
    return ref.table.memo(("aos4-player-attack-odds", id(scene), u, w, all_out_defence,
                           shooting),
                          lambda: (scene, attack_odds(ref, u, w,
                                                      all_out_defence=all_out_defence,
                                                      shooting=shooting)))[1]
