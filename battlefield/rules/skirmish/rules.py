"""The skirmish rules on the engine: every action checked (whose turn, commands left, the unit,
its own rule) and then resolved with logged dice.

Actions (JSON): {"type": "move", "unit", "path" | "paths", "jump"?}, {"type": "skirmish", "unit",
"target", "advantage"?}, {"type": "bombard", "unit", "at": [x, y]}, {"type": "fortify"},
{"type": "end-turn"}; and {"type": "retreat", "unit", "from"}, the retreat a defender may order
after an attack. In a game a retreat is only ever the answer to the decision an attack asks;
`battlefield try` also takes it on its own (it is no command): try_advance then asks the
retreating side that decision, as if the attack by `from` were made. Move, skirmish and bombard
are commands: two a turn; the same unit given the same command twice in a turn is overextended
the second time.

Answers to the decisions a skirmish raises (skirmishes.py): {"type": "commit", "side", "tokens"}
(secret, both sides), {"type": "retreat", "side", "unit", "from"} or {"type": "decline", "side"}.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from battlefield.geometry.paths import Terrain
from battlefield.rules import boundary, decisions
from battlefield.rules.actions import Action, Violation
from battlefield.rules.decisions import DECLINE, Decision
from battlefield.rules.handlers import handles
from battlefield.rules.moves import find_unit
from battlefield.rules.result import Result
from battlefield.rules.rounds import other
from battlefield.rules.ruleset import Parameter, Ruleset
from battlefield.rules.search import health_left
from battlefield.rules.skirmish import (
    attacks,
    bombardment,
    movement,
    package,
    potshots,
    skirmishes,
    turns,
)
from battlefield.rules.skirmish.bombardment import distance_to
from battlefield.rules.skirmish.data import EPS, GameData, bombards, game, load
from battlefield.rules.skirmish.movement import v
from battlefield.rules.state import State

Event = dict[str, Any]
COMMANDS = ("move", "skirmish", "bombard")
ANSWERS = ("commit", DECLINE)        # only answers to a pending decision


MORALE_WEIGHT = 0.4          # the strong level's value: a token's lead ...
MODELS_WEIGHT = 1.5          # ... and the share of the models left ahead


class Skirmish(Ruleset):
    """skirmish: commands two a turn, morale, pot shots and bombardment (the game hooks here),
    plus what package.py answers for the tools."""

    id = "skirmish"
    clock_sides = ("first",)
    odds = package.ODDS
    window = package.SkirmishWindow()
    parameters = (Parameter("rounds", "rounds", "battle rounds", least=1),
                  Parameter("morale_tokens", "morale_tokens", "each side's morale tokens",
                            least=1))

    def load(self) -> GameData:
        return load(self.folder)

    # --- the engine's questions ---------------------------------------------------------------
    setup = staticmethod(turns.begin)

    def acting_side(self, state: State) -> str:
        return state.clock["active"]

    def standing(self, state: State) -> list[str]:
        return [s for s in state.sides
                if any(len(state.models_of(u)) for u, spec in enumerate(state.scene.units)
                       if spec.side == s)]

    def over(self, state: State) -> bool:
        if state.clock.get("over"):
            return True
        if any(d["morale"] <= 0 for d in state.sides.values()):
            return True
        return len(self.standing(state)) < len(state.sides)

    def result(self, state: State) -> Result:
        morale = turns.morale_of(state)
        standing = self.standing(state)
        broken = [s for s, n in morale.items() if n <= 0]
        if len(standing) == 1:
            winner, how = standing[0], "the other army was destroyed"
        elif len(standing) == 0:
            winner, how = None, "both armies were destroyed"
        elif broken:
            winner = next(s for s in state.sides if s not in broken)
            how = "the other side ran out of morale tokens"
        else:
            best = max(morale.values())
            top = [s for s, n in morale.items() if n == best]
            winner, how = ((top[0], "more morale tokens") if len(top) == 1
                           else (None, "draw: equal morale tokens"))
        return Result(winner, how, "morale", {"morale": morale}, state.clock["round"],
                      {"objectives": turns.controlled(state)})

    def value(self, state: State, side: str) -> float | None:
        """The strong level's measure of a position it played out (rules/search.py): the
        result once over; else the morale lead - the score itself: a token is 1/12 of a side's
        start, where the engine's share of the scores weighs it as 1/25 - with the share of the
        models left ahead behind it."""
        if self.over(state):
            winner = self.result(state).winner
            return 1.0 if winner == side else 0.5 if winner is None else 0.0
        morale = turns.morale_of(state)
        lead = morale[side] - max(n for s, n in morale.items() if s != side)
        health = health_left(state)
        ahead = health[side] - max(h for s, h in health.items() if s != side)
        return 0.5 + 0.5 * math.tanh(MORALE_WEIGHT * lead + MODELS_WEIGHT * ahead)

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        out = ["end-turn"]
        c = state.clock
        if c["commands"] == 0 and not c["fortified"] and self._ahead(state)[0] > 0:
            out.append("fortify")
        if self._commands_left(state) is None:
            out.extend(COMMANDS)
        return out

    # --- check --------------------------------------------------------------------------------
    def check(self, state: State, action: Action) -> list[Violation]:
        if state.pending:       # an answer that is not a choice: the rule and numbers, if any
            return skirmishes.check_answer(state, action)
        if action.type in ANSWERS or action.type == "retreat":
            return [v("no_decision", f"{action.type} answers a decision a skirmish asks (morale "
                                     f"cards, a retreat); none is asked now")]
        sugar = [k for k in skirmishes.SHORTHAND if action.type == "skirmish"
                 and action.option(k) is not None]
        if sugar:
            return [v("sides_decision", f"\"{sugar[0]}\" is decided by each side when the "
                                        f"skirmish asks ({{\"type\": \"commit\", \"side\", "
                                        f"\"tokens\"}}, {{\"type\": \"retreat\", \"side\", "
                                        f"\"unit\", \"from\"}} or {{\"type\": \"decline\", "
                                        f"\"side\"}}); try also takes it on the skirmish")]
        if bad := self.not_your_turn(state, action):
            return bad
        return super().check(state, action)

    def _commands_left(self, state: State) -> Violation | None:
        c = state.clock
        if c["fortified"]:
            return v("turn_over", f"{c['active']} fortified its position: its turn is over")
        n = game(state).commands_per_turn
        if c["commands"] >= n:
            return v("no_commands_left", f"{c['active']} has commanded its {n} actions this "
                                         f"turn", commands=c["commands"], allowed=n)
        return None

    def _unit(self, state: State, action: Action, own: bool = True
              ) -> tuple[int, Violation | None]:
        u, problem = find_unit(state, action)
        if problem:
            return u, problem
        if own and state.side_of(u) != state.clock["active"]:
            return u, v("not_yours", f"{action.unit} is {state.side_of(u)}'s; it is "
                                     f"{state.clock['active']}'s turn")
        return u, None

    def _command(self, state: State, action: Action) -> tuple[int, list[Violation]]:
        problem = self._commands_left(state)
        if problem:
            return -1, [problem]
        u, problem = self._unit(state, action)
        return u, [problem] if problem else []

    def overextended(self, state: State, u: int, kind: str) -> bool:
        """The same unit given the same command a second time this turn."""
        return f"did-{kind}" in state.units[u].flags

    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        """The longest move unit u may make now (half Speed when overextended)."""
        if ability != "move":
            return None
        return movement.allowance(state, u, self.overextended(state, u, "move"))

    def move_cost(self, state: State, u: int, m: int, path) -> tuple[float, float]:
        """(inches model m spends along path, of which climbing), as a move's check counts."""
        c = movement.climb(state, movement.terrain(state, m), path)
        return movement.spent(c, self.move_allowance(state, u, "move")), c.up

    def move_ground(self, state: State, u: int, m: int, box: tuple[float, float, float, float]
                    ) -> tuple[list, Terrain | None]:
        """What model m moves round (impassable terrain only) and what it climbs."""
        return movement.impassable(state.table, m), movement.terrain(state, m)

    @handles("end-turn")
    def check_end_turn(self, state: State, action: Action) -> list[Violation]:
        return []

    @check_end_turn.resolver
    def end_turn(self, state: State, action: Action) -> list[Event]:
        return self._after(state, turns.end_turn(state))

    def _ahead(self, state: State) -> tuple[int, dict[str, int]]:
        held = turns.controlled(state)
        side = state.clock["active"]
        return held[side] - held[other(state, side)], held

    @handles("fortify")
    def check_fortify(self, state: State, action: Action) -> list[Violation]:
        c = state.clock
        if c["fortified"]:
            return [v("turn_over", f"{c['active']} has fortified this turn")]
        if c["commands"]:
            return [v("commanding", f"{c['active']} is commanding its forces this turn: it "
                                    f"cannot also fortify")]
        diff, held = self._ahead(state)
        side = c["active"]
        if diff <= 0:
            foe = other(state, side)
            return [v("not_ahead", f"{side} controls {held[side]} objectives, {foe} "
                                   f"{held[foe]}: fortifying needs more",
                      mine=held[side], theirs=held[foe])]
        return []

    @check_fortify.resolver
    def fortify(self, state: State, action: Action) -> list[Event]:
        diff, held = self._ahead(state)
        side = state.clock["active"]
        foe = other(state, side)
        lost = min(diff, state.sides[foe]["morale"])
        state.sides[foe]["morale"] -= lost
        state.clock["fortified"] = True
        return self._after(state, [{"type": "fortify", "side": side, "objectives": held,
                                    "lost": {foe: lost}, "morale": turns.morale_of(state)}])

    @handles("move")
    def check_move(self, state: State, action: Action) -> list[Violation]:
        u, out = self._command(state, action)
        if out:
            return out
        moves = movement.planned(state, u, action)
        if isinstance(moves, Violation):
            return [moves]
        allowed = movement.allowance(state, u, self.overextended(state, u, "move"))
        return movement.check(state, u, moves, allowed, bool(action.option("jump"))).problems

    @check_move.resolver
    def move(self, state: State, action: Action) -> list[Event]:
        u, over = self._commanded(state, action)
        spec = state.scene.units[u]
        moves = movement.planned(state, u, action)
        checked = movement.check(state, u, moves, movement.allowance(state, u, over),
                                 bool(action.option("jump")))
        trigs = potshots.triggers(state, u, moves, over)
        state.table = checked.after
        lead = movement.leader(state, u)
        events: list[Event] = [{"type": "moved", "unit": spec.id,
                                "to": [round(float(state.table.x[lead]), 6),
                                       round(float(state.table.y[lead]), 6)],
                                "distance": round(checked.longest, 6), "overextended": over,
                                **({"triggered": [t.to_dict(state) for t in trigs]}
                                   if trigs else {})}]
        events.extend(bombardment.remove(state, u, "moved"))
        events.extend(potshots.take(state, u, trigs))
        events.extend(attacks.dangerous(state, u, [m for m in checked.risky
                                                   if state.table.unit[m] >= 0]))
        return self._after(state, events)

    @handles("skirmish")
    def check_skirmish(self, state: State, action: Action) -> list[Violation]:
        u, out = self._command(state, action)
        if out:
            return out
        return skirmishes.check(state, u, action)

    @check_skirmish.resolver
    def skirmish(self, state: State, action: Action) -> list[Event]:
        u, over = self._commanded(state, action)
        return self._after(state, skirmishes.resolve(state, u, action, over))

    def _at(self, action: Action) -> tuple[float, float] | None:
        at = action.option("at")
        if (not isinstance(at, tuple) or len(at) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in at)):
            return None
        return float(at[0]), float(at[1])

    @handles("bombard")
    def check_bombard(self, state: State, action: Action) -> list[Violation]:
        u, out = self._command(state, action)
        if out:
            return out
        if not bombards(state, u):
            return [v("no_bombardment", f"{action.unit} has no Bombardment (keywords "
                                        f"{', '.join(game(state).bombard_keywords)})")]
        at = self._at(action)
        if at is None:
            return [v("no_point", "bombard needs \"at\": [x, y], where the token goes",
                      choose="at")]
        t = state.table
        if not (0 <= at[0] <= t.width and 0 <= at[1] <= t.depth):
            return [v("off_board", f"({at[0]:g}, {at[1]:g}) is off the board")]
        d = distance_to(state, u, at)
        far = game(state).bombard_farther_than
        if d <= far + EPS:
            return [v("too_close", f"the token must go more than {far:g}\" from "
                                   f"{action.unit}; ({at[0]:g}, {at[1]:g}) is {d:.2f}\"",
                      distance=d, needed=far)]
        return []

    @check_bombard.resolver
    def bombard(self, state: State, action: Action) -> list[Event]:
        u, _ = self._commanded(state, action)
        return self._after(state, bombardment.place(state, u, self._at(action)))

    @handles("retreat")
    def check_retreat(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._unit(state, action, own=False)
        if problem:
            return [problem]
        src = action.option("from")
        if not isinstance(src, str):
            return [v("no_attacker", "retreat needs \"from\": the attacking unit's id")]
        try:
            w = state.unit_index(src)
        except KeyError:
            return [v("unknown_unit", f"no unit '{src}'")]
        if state.side_of(w) == state.side_of(u):
            return [v("friendly_attacker", f"{src} is not an enemy of {action.unit}")]
        if not len(state.models_of(w)):
            return [v("destroyed", f"{src} has been destroyed")]
        if movement.retreat_plan(state, u, w) is None:
            return [v("retreat_blocked", f"{action.unit} cannot retreat 5\" away from {src}: "
                                         f"no clear line within 90 degrees of directly away "
                                         f"(terrain, the board edge or models at the end)")]
        return []

    # no resolver: a retreat is only ever an answer (resume carries it out); check refuses one
    # given on its own, try stages it as the answer to the decision it would be (try_advance)

    def _commanded(self, state: State, action: Action) -> tuple[int, bool]:
        """A command given: (its unit, whether it is overextended), counted and flagged."""
        u = state.unit_index(action.unit)
        over = self.overextended(state, u, action.type)
        state.clock["commands"] += 1
        state.units[u].flags.add(f"did-{action.type}")
        return u, over

    # --- decisions ----------------------------------------------------------------------------
    def resume(self, state: State, suspended: dict[str, Any],
               answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        """The skirmish that waited for morale cards or a retreat (try's retreat on its own:
        that retreat alone)."""
        if suspended.get("staged") == "retreat":
            ((_, a),) = answers
            events = [] if a.type == DECLINE else attacks.retreat(
                state, state.unit_index(a.unit), state.unit_index(a.option("from")))
            return self._after(state, events)
        return self._after(state, skirmishes.resume(state, suspended, answers))

    def try_advance(self, state: State, action: Action) -> list[Violation]:
        """try's retreat on its own: the retreating side is asked the decision an attack by
        `from` would ask (the retreat or decline), which the retreat then answers."""
        if action.type != "retreat" or state.pending or self.over(state):
            return []
        if bad := (boundary.declared(state, action, self.doc(state, "retreat"),
                                     self.when(state, "retreat"))
                   or self.handler("retreat").check(state, action)):
            return bad
        u = state.unit_index(action.unit)
        side, src = state.side_of(u), str(action.option("from"))
        if action.side not in (None, side):
            return [v("not_yours", f"{action.unit} is {side}'s, not {action.side}'s")]
        go = Action("retreat", unit=action.unit, side=side, options=(("from", src),))
        decisions.ask(state, [Decision(side, "retreat", (go, Action(DECLINE, side=side)),
                                       about=(("from", src), ("unit", str(action.unit))))],
                      {"staged": "retreat"})
        return []

    def shorthand(self, state: State, action: Action
                  ) -> tuple[Action, dict[str, Any], list[Violation]]:
        """try's "commit" and "retreat" written on a skirmish: split off and checked."""
        if action.type != "skirmish" or not any(action.option(k) is not None
                                                for k in skirmishes.SHORTHAND):
            return action, {}, []
        given, bad = skirmishes.shorthand(state, action)
        plain = replace(action, options=tuple(o for o in action.options
                                              if o[0] not in skirmishes.SHORTHAND))
        return plain, given, bad

    def shorthand_answer(self, state: State, decision: Decision, given: dict[str, Any]
                         ) -> Action:
        return skirmishes.shorthand_answer(state, decision, given)

    def _after(self, state: State, events: list[Event]) -> list[Event]:
        """Objective control after every action; the end of the battle when it has come."""
        if state.clock["over"]:
            return events
        state.objectives = turns.control(state)
        if self.over(state):
            events.append({"type": "battle-over", "round": state.clock["round"],
                           **self.result(state)})
        return events

    # --- beyond the game: the computer player, the window (package.py) ------------------------
    player = staticmethod(package.player)

    health = staticmethod(package.health)

    effect = staticmethod(package.effect)


RULESET = Skirmish()
