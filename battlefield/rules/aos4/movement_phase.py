"""aos4 movement-phase abilities: normal move, run (At the Double), retreat, redeploy. A Move
that is dice (`move: 2D6`, as army import keeps a random Move) is checked against the most it
can roll and rolled (a logged `move roll`) when the unit moves; a roll that falls short leaves
the unit where it stood. A Move that is a number plays as it always has: no roll."""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.geometry.paths import Terrain
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, movement, rolls
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.movement import v
from battlefield.rules.chance import Throw, play, roll
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]


class Moving:
    """Checks and effects of the movement-phase abilities (mixed into the aos4 Rules)."""

    # --- movement phase -------------------------------------------------------------------------
    def _move_check(self, state, u, action, allowed, kind) -> list[Violation]:
        moves = movement.planned(state, u, action)
        if isinstance(moves, Violation):
            return [moves]
        fly = state.scene.units[u].has("FLY")
        out, after = movement.check_paths(state, u, moves, allowed, fly)
        if out:
            return out
        rng = state.game.scene.ruleset.combat_range
        foes = state.enemies(u)
        if kind in ("normal", "run"):
            if fly:
                ref = Referee(state.scene, after)
                if any(ref.in_combat(u, w) for w in foes):
                    out.append(v("ends_in_combat", "a flying unit cannot end a move in combat"))
            else:
                out.extend(movement.into_combat(state, u, moves, rng))
        elif kind in ("retreat", "redeploy"):
            if state.enemies_within(u, rng + movement.EPS, table=after, models=moves.models):
                out.append(v("ends_in_combat_range", f"the unit ends within {rng:g}\" of an "
                                                     f"enemy model"))
        return out

    def _in_combat(self, state: State, u: int) -> bool:
        return bool(Referee(state.scene, state.table).combat[u])

    def _move(self, state, u, action, allowed=None) -> list[Event]:
        moves = movement.planned(state, u, action)
        state.table = moves.placed(state.table)
        names = state.scene.model_names
        return [{"type": "moved", "unit": state.scene.units[u].id,
                 "models": [names[m] for m in moves.models]}]

    def _check_normal_move(self, state, a, u, action):
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat: it can only retreat")]
        return self._move_check(state, u, action, self._move_stat(state, u), "normal")

    def _do_normal_move(self, state, a, u, action):
        state.units[u].flags.add("moved")
        rolled = self._move_rolled(state, u)
        if rolled is None:
            return self._move(state, u, action)
        return self._dice_move(state, u, action, rolled, "normal-move")

    def _move_stat(self, state: State, u: int) -> float:
        """The unit's Move; a dice Move counts the most it can roll (what a check allows)."""
        move = state.scene.units[u].stats.get("move")
        if rolls.is_dice(move):
            return float(rolls.most(str(move)))
        return float(allocation.stat(state, u, "move", 0) or 0)

    def _move_rolled(self, state: State, u: int) -> tuple[float, Event] | None:
        """A dice Move rolled with the game's dice (the roll logged), and its event; None for a
        Move that is a number."""
        move = state.scene.units[u].stats.get("move")
        if not rolls.is_dice(move):
            return None
        unit = state.scene.units[u].id
        got = play(rolls.move_roll(unit, str(move)), state.dice)
        return float(got), {"type": "move-roll", "unit": unit, "move": str(move), "roll": got}

    def _dice_move(self, state, u, action, rolled: tuple[float, Event], kind: str
                   ) -> list[Event]:
        """The move of a unit whose Move was rolled: made when the roll reaches every model's
        path, else the unit stays where it stood."""
        allowed, event = rolled
        unit = state.scene.units[u]
        moves = movement.planned(state, u, action)
        problems, after = movement.check_paths(state, u, moves, allowed, unit.has("FLY"))
        if problems:
            return [event, {"type": "move-short", "unit": unit.id, "ability": kind,
                            "reason": problems[0].message}]
        state.table = after
        return [event, {"type": "moved", "unit": unit.id}]

    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        """The longest move `ability` can give unit u (before any roll), as its check counts."""
        move = self._move_stat(state, u)
        rules = book(state)
        return {"normal-move": move, "retreat": move, "run": move + rules.run_most,
                "redeploy": rules.redeploy_most, "charge": float(rules.max_charge),
                "fight": rules.core.combat.pile_in}.get(ability)

    def move_cost(self, state: State, u: int, m: int, path: np.ndarray
                  ) -> tuple[float, float]:
        """(inches model m of unit u spends along path, of which climbing), as its check
        counts (FLY: no climbing)."""
        return movement.used(book(state), state.table, m, path,
                             state.scene.units[u].has("FLY"))

    def move_ground(self, state: State, u: int, m: int, box: tuple[float, float, float, float]
                    ) -> tuple[list, Terrain | None]:
        """What model m of unit u moves round near `box` (other units' models, impassable
        terrain; grown by its clearance) and what it climbs; FLY: nothing and nothing."""
        if state.scene.units[u].has("FLY"):
            return [], None
        return (movement.obstacles(state, u, m, box)[0],
                movement.terrain_for(book(state), state.table, m))

    def _check_run(self, state, a, u, action):
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat: it can only retreat")]
        return self._move_check(state, u, action, self.move_allowance(state, u, "run"), "run")

    def _do_run(self, state, a, u, action):
        unit = state.scene.units[u]
        double = "at-the-double" in self._option_commands(action)
        rolled = self._move_rolled(state, u)
        run = play(rolls.run_roll(book(state).core.movement, unit.id, double), state.dice)
        allowed = (rolled[0] if rolled else self._move_stat(state, u)) + run
        events: list[Event] = [*([rolled[1]] if rolled else []),
                               {"type": "run", "unit": unit.id, "roll": run,
                                "allowed": allowed}]
        state.units[u].flags.update({"moved", "ran"})
        moves = movement.planned(state, u, action)
        _, after = movement.check_paths(state, u, moves, None, unit.has("FLY"))
        problems, _ = movement.check_paths(state, u, moves, allowed, unit.has("FLY"))
        if problems:
            events.append({"type": "run-short", "unit": unit.id,
                           "reason": problems[0].message})
            return events
        state.table = after
        return [*events, {"type": "moved", "unit": unit.id}]

    def _option_commands(self, action: Action) -> list[str]:
        names = action.option("command")
        return [names] if isinstance(names, str) else list(names or [])

    def _check_retreat(self, state, a, u, action):
        if not self._in_combat(state, u):
            return [v("not_in_combat", f"{action.unit} is not in combat: it cannot retreat")]
        return self._move_check(state, u, action, self._move_stat(state, u), "retreat")

    def _do_retreat(self, state, a, u, action):
        events = allocation.mortal(state, u, book(state).core.movement.retreat_mortal,
                                  f"retreat {action.unit}")
        state.units[u].flags.update({"moved", "retreated"})
        if not len(state.models_of(u)):
            return events
        rolled = self._move_rolled(state, u)
        if rolled is not None:
            return [*events, *self._dice_move(state, u, action, rolled, "retreat")]
        moves = movement.planned(state, u, action)
        problems, after = movement.check_paths(state, u, moves, None,
                                               state.scene.units[u].has("FLY"))
        if problems:          # casualties broke the planned formation: the unit stays put
            return [*events, {"type": "retreat-blocked", "reason": problems[0].message}]
        state.table = after
        return [*events, {"type": "moved", "unit": action.unit}]

    def _check_redeploy(self, state, a, u, action):
        if self._in_combat(state, u):
            return [v("in_combat", f"{action.unit} is in combat")]
        return self._move_check(state, u, action, book(state).redeploy_most, "redeploy")

    def _do_redeploy(self, state, a, u, action):
        far = roll(Throw(book(state).core.movement.redeploy_roll, f"redeploy {action.unit}"),
                   state.dice)
        moves = movement.planned(state, u, action)
        problems, after = movement.check_paths(state, u, moves, far,
                                               state.scene.units[u].has("FLY"))
        if problems:
            return [{"type": "redeploy-short", "unit": action.unit, "roll": far,
                     "reason": problems[0].message}]
        state.table = after
        return [{"type": "moved", "unit": action.unit, "roll": far}]
