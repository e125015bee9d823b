"""The blocks rules on the engine: every action checked (whose phase, command points, the unit,
its own rule, with the numbers) and then resolved with logged dice.

Actions (JSON): {"type": "order", "unit", "order"}, {"type": "direct", "unit"}, {"type":
"move", "unit", "path", "facing"?} (a unit under direct control), {"type": "rally", "unit"},
{"type": "draw-card"}, {"type": "card", "card", "unit"?} (a green card), {"type": "special"},
{"type": "attack", "unit", "target", "card"?} (a red card on the attack), {"type": "end-phase"}.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.rules import chance, decisions
from battlefield.rules.actions import Action, Violation
from battlefield.rules.blocks import attacks, movement, package, turns
from battlefield.rules.blocks import marks as drawn
from battlefield.rules.blocks.data import (
    GameData,
    check_scene,
    game,
    load,
    order_of,
    order_text,
)
from battlefield.rules.blocks.turns import PHASES
from battlefield.rules.chance import Throw
from battlefield.rules.decisions import DECLINE, Decision
from battlefield.rules.handlers import handles
from battlefield.rules.moves import check_move, find_unit, v
from battlefield.rules.result import Result, decide
from battlefield.rules.rounds import other
from battlefield.rules.ruleset import Parameter, Ruleset
from battlefield.rules.state import State

Event = dict[str, Any]
COSTS = {"order": 1, "direct": 1, "rally": 1, "draw-card": 1, "special": 1}
COMMAND = ("order", "direct", "move", "rally", "draw-card", "card", "special")


class Blocks(Ruleset):
    """blocks: standing orders, cards, courage and routing (the game hooks here), plus what
    package.py (odds, check, try) and marks.py (what the table shows) answer for the tools."""

    id = "blocks"
    turn_word = "to act"
    phases = PHASES
    clock_sides = ("first",)
    odds = package.ODDS
    window = drawn.BlocksWindow()
    parameters = (Parameter("rounds", "rounds", "battle rounds", least=1),)

    def load(self) -> GameData:
        return load(self.folder)

    # --- the engine's questions ---------------------------------------------------------------
    def setup(self, state: State) -> list[Event]:
        check_scene(state.scene)
        return turns.begin(state)

    def acting_side(self, state: State) -> str:
        c = state.clock
        return other(state, c["active"]) if c["phase"] == "strike-back" else c["active"]

    def standing(self, state: State) -> list[str]:
        return [s for s in state.sides
                if any(turns.alive(state, u) for u, spec in enumerate(state.scene.units)
                       if spec.side == s)]

    def over(self, state: State) -> bool:
        """After the last round, or when a side has no blocks left (a scene of one side - for
        rulings on it - is over from the start)."""
        return (bool(state.clock.get("over")) or len(state.sides) < 2
                or len(self.standing(state)) < len(state.sides))

    def result(self, state: State) -> Result:
        pts = {s: state.sides[s]["destroyed"] for s in state.sides}
        winner, how = decide(self.standing(state), pts,
                             alone="the other army was destroyed or fled",
                             none="both armies were destroyed",
                             more="more enemy points destroyed",
                             equal="draw: equal points destroyed")
        return Result(winner, how, "points_destroyed", {"points_destroyed": pts},
                      state.clock["round"])

    def available(self, state: State) -> list[str]:
        if self.over(state):
            return []
        phase = state.clock["phase"]
        if phase == "command":
            hand = state.sides[self.acting_side(state)]["cards"]
            green = any(c.id in hand and c.colour == "green" for c in game(state).cards)
            return ["end-phase", *(a for a in COMMAND if a != "card" or green)]
        return ["end-phase", "attack"]

    def move_allowance(self, state: State, u: int, ability: str) -> float | None:
        return turns.move_allowance(state, u) if ability == "move" else None

    def move_cost(self, state: State, u: int, m: int, path: np.ndarray) -> tuple[float, float]:
        return float(np.hypot(*np.diff(path, axis=0).T).sum()), 0.0

    def move_ground(self, state: State, u: int, m: int, box: tuple[float, float, float, float]
                    ) -> tuple[list[Any], Any]:
        t = state.table
        b = float(t.b[m])
        return [t.layout.polygons[k].buffer(b) for k in t.layout.pieces_with("impassable")], None

    # --- check --------------------------------------------------------------------------------
    def check(self, state: State, action: Action) -> list[Violation]:
        if state.pending:              # an answer that is not one of the choices
            d = state.pending[0]
            return [v("not_a_choice", f"{d.side} answers {d.kind} with one of: "
                                      + ", ".join(d.label(c) for c in d.choices))]
        if bad := self.not_your_turn(state, action):
            return bad
        acting = self.acting_side(state)
        cost = COSTS.get(action.type, 0)
        have = state.sides[acting]["command"]
        if cost > have:
            return [v("no_command_points", f"{action.type} costs {cost} command point; "
                                           f"{acting} has {have}", cost=cost, have=have)]
        return super().check(state, action)

    def _own(self, state: State, action: Action) -> tuple[int, Violation | None]:
        u, problem = find_unit(state, action)
        if problem:
            return u, problem
        side = self.acting_side(state)
        if state.side_of(u) != side:
            return u, v("not_yours", f"{action.unit} is {state.side_of(u)}'s; {side} is "
                                     f"acting")
        return u, None

    @handles("end-phase")
    def check_end_phase(self, state: State, action: Action) -> list[Violation]:
        return []

    @handles("order")
    def check_order(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._own(state, action)
        if problem:
            return [problem]
        if "routing" in state.units[u].flags:
            return [v("routing", f"{action.unit} is routing: rally it first")]
        order = order_of(action.option("order"))
        if order is None:
            return [v("bad_order", f"{action.option('order')!r} is not an order (hold, "
                                   f"advance, withdraw, {{charge: UNIT}}, {{march: [x, y]}})",
                      choose="order" if action.option("order") is None else None)]
        if order["order"] == "charge":
            try:
                w = state.unit_index(order["target"])
            except KeyError:
                return [v("unknown_unit", f"no unit '{order['target']}' to charge")]
            if state.side_of(w) == state.side_of(u) or not turns.alive(state, w):
                return [v("not_an_enemy", f"{order['target']} is not an enemy on the table")]
        if order["order"] == "march":
            x, y = order["to"]
            if not (0 <= x <= state.table.width and 0 <= y <= state.table.depth):
                return [v("off_board", f"({x:g}, {y:g}) is off the board")]
        return []

    @handles("direct")
    def check_direct(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._own(state, action)
        if problem:
            return [problem]
        flags = state.units[u].flags
        if "routing" in flags:
            return [v("routing", f"{action.unit} is routing: rally it first")]
        if "directed" in flags:
            return [v("already_directed", f"{action.unit} is under direct control already")]
        if "moved" in flags:
            return [v("already_moved", f"{action.unit} has moved this turn")]
        return []

    @handles("move")
    def check_move(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._own(state, action)
        if problem:
            return [problem]
        flags = state.units[u].flags
        if "directed" not in flags:
            return [v("not_directed", f"{action.unit} moves by its orders ("
                                      f"{order_text(state.extra['orders'].get(action.unit))}); "
                                      f"take direct control first (direct, 1 command point)")]
        if "moved" in flags:
            return [v("already_moved", f"{action.unit} has moved this turn")]
        if "trampled" in flags:
            return [v("trampled", f"{action.unit} had a routing unit move through it: it may "
                                  f"not move this turn")]
        return self._path_problems(state, u, action)

    def _path_problems(self, state: State, u: int, action: Action) -> list[Violation]:
        """The one move check (rules.moves.check_move) of its length on the flat; where the
        block ends is not checked there - a block that meets something on the way stops,
        touching it - but its centre's end must be on the table."""
        if not action.path:
            return [v("no_path", "move needs a \"path\" (where the block's centre goes)",
                      choose="path")]
        checked = check_move(state, u, action, turns.move_allowance(state, u), ends=False)
        if checked.problems:
            return checked.problems
        t = state.table
        x, y = action.path[-1]
        if not (0 <= x <= t.width and 0 <= y <= t.depth):
            return [v("off_board", f"({x:g}, {y:g}) is off the board")]
        return []

    @handles("rally")
    def check_rally(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._own(state, action)
        if problem:
            return [problem]
        flags = state.units[u].flags
        if "routing" not in flags:
            return [v("not_routing", f"{action.unit} is not routing")]
        if "moved" in flags:
            return [v("already_moved", f"{action.unit} has moved: rally before it moves")]
        return []

    @handles("draw-card")
    def check_draw_card(self, state: State, action: Action) -> list[Violation]:
        return [] if game(state).cards else [v("no_cards", "the deck has no cards")]

    @handles("special")
    def check_special(self, state: State, action: Action) -> list[Violation]:
        side = self.acting_side(state)
        if state.sides[side]["rally_cry"]:
            return [v("special_used", f"{side} has used its rally cry this turn")]
        return []

    def _card(self, state: State, action: Action, colour: str) -> Violation | None:
        cid = action.option("card")
        card = game(state).card(str(cid)) if cid is not None else None
        side = self.acting_side(state)
        if card is None:
            return v("unknown_card", f"no card {cid!r} (cards: "
                                     f"{', '.join(c.id for c in game(state).cards)})",
                     choose="card" if cid is None else None)
        if cid not in state.sides[side]["cards"]:
            return v("not_in_hand", f"{side} holds no {cid} card (hand: "
                                    f"{', '.join(state.sides[side]['cards']) or 'empty'})")
        if card.colour != colour:
            return v("wrong_colour", f"{card.name} is a {card.colour} card; a {colour} card "
                                     f"is played here")
        return None

    @handles("card")
    def check_card(self, state: State, action: Action) -> list[Violation]:
        bad = self._card(state, action, "green")
        if bad:
            return [bad]
        u, problem = self._own(state, action)
        return [problem] if problem else []

    @handles("attack")
    def check_attack(self, state: State, action: Action) -> list[Violation]:
        u, problem = self._own(state, action)
        if problem:
            return [problem]
        if action.option("card") is not None:
            bad = self._card(state, action, "red")
            if bad:
                return [bad]
        if not isinstance(action.target, str):
            return [v("no_target", "attack needs a \"target\": an enemy unit's id",
                      choose="target")]
        try:
            w = state.unit_index(action.target)
        except KeyError:
            return [v("unknown_unit", f"no unit '{action.target}'")]
        kind, why = attacks.attack_kind(state, u, w, state.clock["phase"] == "strike-back")
        return [why] if why else []

    # --- resolve ------------------------------------------------------------------------------
    def resolve(self, state: State, action: Action) -> list[Event]:
        side = self.acting_side(state)
        state.sides[side]["command"] -= COSTS.get(action.type, 0)
        events = self.handler(action.type).resolve(state, action)
        return self._ended(state, events)

    def _ended(self, state: State, events: list[Event]) -> list[Event]:
        """The battle's end, when this action brought it."""
        if not state.clock["over"] and self.over(state):
            state.clock["over"] = True
        if state.clock["over"]:
            events.append({"type": "battle-over", "round": state.clock["round"],
                           **self.result(state)})
        return events

    @check_order.resolver
    def order(self, state: State, action: Action) -> list[Event]:
        order = order_of(action.option("order"))
        state.extra["orders"][action.unit] = order
        return [{"type": "order", "unit": action.unit, "order": order_text(order)}]

    @check_direct.resolver
    def direct(self, state: State, action: Action) -> list[Event]:
        state.units[state.unit_index(action.unit)].flags.add("directed")
        return [{"type": "direct", "unit": action.unit}]

    @check_move.resolver
    def move(self, state: State, action: Action) -> list[Event]:
        u = state.unit_index(action.unit)
        trip, _ = movement.trip(state, u, action)
        turns.place(state, u, trip)
        state.units[u].flags.add("moved")
        return [turns.moved_event(state, u, "direct control", trip)]

    @check_rally.resolver
    def rally(self, state: State, action: Action) -> list[Event]:
        us = state.units[state.unit_index(action.unit)]
        us.flags.discard("routing")
        us.flags.add("moved")
        return [{"type": "rallied", "unit": action.unit}]

    @check_draw_card.resolver
    def draw_card(self, state: State, action: Action) -> list[Event]:
        cards = game(state).cards
        side = self.acting_side(state)
        k = chance.play(_draw(len(cards), side), state.dice)
        card = cards[k - 1]
        state.sides[side]["cards"] = [*state.sides[side]["cards"], card.id]
        return [{"type": "card-drawn", "side": side, "card": card.id}]

    @check_card.resolver
    def card(self, state: State, action: Action) -> list[Event]:
        side = self.acting_side(state)
        card = game(state).card(str(action.option("card")))
        hand = list(state.sides[side]["cards"])
        hand.remove(card.id)
        state.sides[side]["cards"] = hand
        us = state.units[state.unit_index(action.unit)]
        for k, x in card.effect:
            us.counters[f"card-{k}"] = us.counters.get(f"card-{k}", 0) + x
        return [{"type": "card", "side": side, "card": card.id, "unit": action.unit,
                 "effect": dict(card.effect)}]

    @check_special.resolver
    def special(self, state: State, action: Action) -> list[Event]:
        side = self.acting_side(state)
        state.sides[side]["rally_cry"] = True
        return [{"type": "special", "side": side, "ability": "rally cry",
                 "courage": game(state).special_courage}]

    @check_attack.resolver
    def attack(self, state: State, action: Action) -> list[Event]:
        u, w = state.unit_index(action.unit), state.unit_index(action.target)
        kind, _ = attacks.attack_kind(state, u, w, state.clock["phase"] == "strike-back")
        red = None
        if action.option("card") is not None:
            side = self.acting_side(state)
            red = game(state).card(str(action.option("card")))
            hand = list(state.sides[side]["cards"])
            hand.remove(red.id)
            state.sides[side]["cards"] = hand
        state.units[u].flags.add("attacked")
        info = {"unit": action.unit, "target": action.target, "kind": kind,
                "red": red.id if red else None, "blue": None}
        defender = state.side_of(w)
        blues = list(dict.fromkeys(c for c in state.sides[defender]["cards"]
                                   if _colour(state, c) == "blue"))
        if blues:                      # the defender may answer with a blue card
            return decisions.ask(state, [_card_decision(defender, "blue-card", blues, info)],
                                 {"attack": info, "step": "blue"})
        return self._strike(state, info)

    def _strike(self, state: State, info: dict[str, Any]) -> list[Event]:
        u, w = state.unit_index(info["unit"]), state.unit_index(info["target"])
        g = game(state)
        red = g.card(info["red"]) if info["red"] else None
        blue = g.card(info["blue"]) if info["blue"] else None
        return turns.attack(state, u, w, info["kind"],
                             f"{info['unit']} attacks {info['target']}", red, blue)

    def resume(self, state: State, suspended: dict[str, Any],
               answers: tuple[tuple[Decision, Action], ...]) -> list[Event]:
        """An attack that waited for the defender's blue card, then for the attacker's red
        answer to it (seed: one card per player per attack)."""
        info = dict(suspended["attack"])
        step = suspended["step"]
        decision, given = answers[-1]
        played = given.option("card") if given.type == "card" else None
        events: list[Event] = []
        if played:
            hand = list(state.sides[decision.side]["cards"])
            hand.remove(played)
            state.sides[decision.side]["cards"] = hand
            info[step] = played
            events.append({"type": "card", "side": decision.side, "card": played,
                           "effect": dict(game(state).card(played).effect)})
        attacker = state.side_of(state.unit_index(info["unit"]))
        reds = list(dict.fromkeys(c for c in state.sides[attacker]["cards"]
                                  if _colour(state, c) == "red"))
        if step == "blue" and played and not info["red"] and reds:
            return events + decisions.ask(
                state, [_card_decision(attacker, "red-card", reds, info)],
                {"attack": info, "step": "red"})
        events.extend(self._strike(state, info))
        return self._ended(state, events)

    def shorthand_answer(self, state: State, decision: Decision, given: dict[str, Any]
                         ) -> Action:
        """try's default answer to a card decision: no card."""
        return decision.choices[-1]

    @check_end_phase.resolver
    def end_phase(self, state: State, action: Action) -> list[Event]:
        c = state.clock
        events: list[Event] = [{"type": "end-phase", "phase": c["phase"],
                                "side": self.acting_side(state)}]
        if c["phase"] == "command":
            side = c["active"]
            for u, spec in enumerate(state.scene.units):
                if spec.side != side or not turns.alive(state, u):
                    continue
                flags = state.units[u].flags
                if "moved" in flags or "directed" in flags or "trampled" in flags:
                    continue
                if "routing" in flags:
                    events.extend(turns.rout(state, u, "rout"))
                else:
                    events.extend(turns.by_order(state, u))
            state.sides[side]["command"] = 0             # unspent points are lost
            events.extend(turns.pre_combat(state))
            c["phase"] = "combat"
        elif c["phase"] == "combat":
            c["phase"] = "strike-back"
        else:
            events.extend(turns.remove_destroyed(state, "destroyed in combat"))
            events.extend(turns.post_combat(state))
            if not self.over(state):
                events.extend(turns.end_turn(state))
        return events

    # --- beyond the game: the computer player, odds, check, try, the table (package.py) -----------
    player = staticmethod(package.player)

    check_scene = staticmethod(check_scene)

    check_additions = package.check_additions

    try_start = staticmethod(package.try_start)

    try_advance = staticmethod(package.try_advance)

    health = staticmethod(package.health)

    effect = staticmethod(package.effect)


def _colour(state: State, cid: str) -> str | None:
    card = game(state).card(cid)
    return card.colour if card else None


def _card_decision(side: str, kind: str, cards: list[str], info: dict[str, Any]) -> Decision:
    """A side's choice of a card on an attack (or none: `decline`, listed last)."""
    return Decision(side, kind, (*(Action("card", side=side, options=(("card", c),))
                                   for c in cards), Action(DECLINE, side=side)),
                    about=(("attacker", info["unit"]), ("target", info["target"])))


def _draw(n: int, side: str):
    k = yield Throw(f"D{n}", f"{side} draws a command card")
    return k


RULESET = Blocks()
