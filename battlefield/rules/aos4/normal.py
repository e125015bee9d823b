"""aos4's normal computer player: the easy player (rules/aos4/player.py) with the table and the
command points put to use.

- Movement goes along the unit's route round the terrain (rules/routes.py: through the gap of
  a wall, round impassable pieces, climbing priced as the engine prices it) to its goal,
  before the easy player's straight-line fan; a unit far from its goal runs At the Double
  when its side has command points to spare.
- Shooting and combat: All-out Attack (+1 to hit) on an attack expected to do at least
  AOA_DAMAGE, while the side keeps KEEP_CP for re-rolled charges and All-out Defence.
- Every action it proposes is checked by the engine first, as the easy player's are.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import ClassVar

import numpy as np

from battlefield.rules import routes
from battlefield.rules.actions import Action
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.player import Aos4Player, _odds, _refused
from battlefield.rules.aos4.weapons import weapons_of
from battlefield.rules.standing import referee
from battlefield.rules.state import State
from battlefield.rulings import Referee

AOA_DAMAGE = 2.0            # expected damage that is worth a command point's +1 to hit
KEEP_CP = 1                 # command points kept back (re-rolls, All-out Defence)
STOP = 1.0                  # inches short of the goal a route ends


class Aos4Normal(Aos4Player):
    """See the module."""

    level = "normal"

    def _movement(self, state: State) -> Iterator[Action]:
        if state.clock["active"] != state.clock["acting"]:
            return
        ref = referee(state)
        cp = state.sides[state.clock["acting"]]["cp"]
        for u in self._mine(state):
            if ref.combat[u] or book(state).used_core(state.units[u].phase_used):
                continue
            goal = self._goal(state, u)
            if goal is None:
                continue
            lead = self._leader(state, u)
            lx, ly = float(state.table.x[lead]), float(state.table.y[lead])
            move = self._planned_move(state.scene.units[u].stats.get("move"))
            if math.hypot(goal[0] - lx, goal[1] - ly) < STOP or move <= 0:
                continue
            foes = np.array([m for w in state.enemies(u) for m in state.models_of(w)],
                            dtype=np.int64)
            far = routes.length(routes.route(state, u, goal)) > move + STOP
            shooter = bool(weapons_of(state.scene, u, melee=False))
            kinds = ["run", "normal-move"] if far and not shooter else ["normal-move"]
            for kind in kinds:
                allowed = state.rules.move_allowance(state, u, kind)
                if kind == "run":
                    allowed = move + 3.5 if allowed is None else min(allowed, move + 3.5)
                paths = (a for a in routes.toward(state, u, kind, goal, allowance=allowed,
                                                  stop=STOP)
                         if not self._near_enemy(state, u, foes, a.path[-1], lx, ly))
                if kind == "run":
                    # declared in the seed's order when a run is worth it (At the Double
                    # when command points allow): the roll first, then the move (_run_move)
                    if any(not _refused(state, a) and not state.check(a) for a in paths):
                        uid = state.scene.units[u].id
                        if cp > KEEP_CP + 1:
                            yield Action("run", unit=uid, options=(("command", "at-the-double"),))
                        yield Action("run", unit=uid)
                    continue
                yield from paths
        yield from super()._movement(state)

    def _run_paths(self, state: State, u: int, goal: tuple[float, float], allowed: float
                   ) -> Iterator[Action]:
        """Along the route round the terrain, as far as what was rolled reaches."""
        lead = self._leader(state, u)
        lx, ly = float(state.table.x[lead]), float(state.table.y[lead])
        foes = np.array([m for w in state.enemies(u) for m in state.models_of(w)],
                        dtype=np.int64)
        for action in routes.toward(state, u, "run", goal, allowance=allowed, stop=STOP):
            if not self._near_enemy(state, u, foes, action.path[-1], lx, ly):
                yield action

    def _shooting(self, state: State) -> Iterator[Action]:
        yield from self._all_out(state, super()._shooting(state))

    def _combat(self, state: State) -> Iterator[Action]:
        yield from self._all_out(state, super()._combat(state))

    def _all_out(self, state: State, actions: Iterator[Action]) -> Iterator[Action]:
        """Each attack with All-out Attack first when it is worth a command point, then as
        the easy player gives it."""
        ref = referee(state)
        for action in actions:
            if action.target is not None and self._worth(state, ref, action):
                yield Action.from_dict({**action.to_dict(), "command": "all-out-attack"})
            yield action

    def _worth(self, state: State, ref: Referee, action: Action) -> bool:
        if state.sides[state.clock["acting"]]["cp"] <= KEEP_CP:
            return False
        u, w = state.unit_index(action.unit), state.unit_index(action.target)
        o = _odds(ref, u, w)
        return not o.reason and o.expected_damage >= AOA_DAMAGE

    offers: ClassVar[dict[str, Callable[[Aos4Player, State], Iterator[Action]]]] = {
        **Aos4Player.offers, "movement": _movement, "shooting": _shooting, "combat": _combat}
