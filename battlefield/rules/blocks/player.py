"""The blocks computer player. normal: in the Movement & Command phase it rallies routing blocks,
then spends its command points on orders one at a time, each the best of the new orders its
free blocks could be given (a charge on one of the TRIED nearest enemies whose way gets the
block on, advancing, holding; a shooter with a target holds) judged by playing the Movement
phase out ahead on a copy of the state, every block moved by its orders as the engine will move
it (`_forecast`: in scene order, each stopping where it first touches another block or
terrain), and valuing where they end (`_placed`: the close attacks they will have, flank and
rear counted, less half what the enemy strikes back with, less NEAR an inch from the enemy); a
block gets one order a phase, and none when no new order beats the standing ones by GAIN. What
is left goes on the rally cry when a block is engaged, then a command card. In the last round,
ahead on points destroyed, its free blocks hold (a fresh engagement can only cost the lead). In
combat every block attacks the target it expects to damage most, with a red card on the first
attack it can. easy (BlocksEasy), the first player: every idle block charges the nearest enemy.

Judging each block's charge alone left blocks jammed: a block stops where it first touches a
friend, the charge route the engine finds round blocks and terrain changes as they move (a
block chased its target round the mere, back and forth, for four turns), and the points went
on re-aiming blocks already on their way: 8-12% of its battles against a random player were
draws or losses.
"""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action
from battlefield.rules.blocks import attacks, movement, turns
from battlefield.rules.blocks.data import game, order_of, stat
from battlefield.rules.chance import mean
from battlefield.rules.state import State

TRIED = 3           # the nearest enemies a block's charge on is played out
MOVES = 1.0         # inches a block must get on its way for its order to count as moving
GAIN = 0.05         # how much better placed a new order must leave the blocks to spend a point
NEAR = 0.05         # the worth of an inch nearer the enemy, against a box of damage expected
BACK = 0.5          # the weight of the damage the enemy is expected to strike back with
JAM = 0.3           # the cost of a block left touching a friend out of combat (it stops at once)


class BlocksPlayer:
    """The normal level (see above); BlocksEasy is the first player."""

    level = "normal"
    spread = True           # orders chosen by playing the Movement phase out ahead
    def choose(self, state: State) -> Action:
        if state.pending:              # a card on an attack: the first card it may play
            return state.pending[0].choices[0]
        for action in self._wanted(state):
            if not state.check(action):
                return action
        return Action("end-phase")

    def candidates(self, state: State, limit: int) -> list[Action]:
        """What the strong level weighs (rules/search.py): the first legal actions this
        player wants, its choice first, then ending the phase; a pending decision: its
        choices."""
        if state.pending:
            return list(state.pending[0].choices[:max(1, limit)])
        out: list[Action] = []
        for action in self._wanted(state):
            if len(out) >= max(1, limit - 1):
                break
            if action not in out and not state.check(action):
                out.append(action)
        end = Action("end-phase")
        if not out or not state.check(end):
            out.append(end)
        return out

    def _wanted(self, state: State):
        side = state.acting_side
        own = [u for u, s in enumerate(state.scene.units)
               if s.side == side and turns.alive(state, u)]
        if state.clock["phase"] == "command":
            yield from self._command(state, side, own)
        else:
            yield from self._combat(state, side, own)

    def _command(self, state: State, side: str, own: list[int]):
        cp = state.sides[side]["command"]
        if cp <= 0:
            return
        for u in own:
            if "routing" in state.units[u].flags and "moved" not in state.units[u].flags:
                yield Action("rally", state.scene.units[u].id)
        if self.spread:
            yield from self._orders(state, side, own)
        else:
            yield from self._first_orders(state, own)
        if any(attacks.engaged_with(state, u) for u in own):
            yield Action("special")
        if not state.sides[side]["cards"]:
            yield Action("draw-card")
        for cid in state.sides[side]["cards"]:
            card = game(state).card(cid)
            if card is None or card.colour != "green":
                continue
            for u in own:
                if "moved" not in state.units[u].flags:
                    yield Action("card", state.scene.units[u].id, options=(("card", cid),))
                    break

    def _first_orders(self, state: State, own: list[int]):
        """The easy level's orders, in scene order: every idle block charges the nearest
        enemy (a shooter with an enemy in range, or a target for a shot, holds)."""
        t = state.table
        for u in own:
            foes = state.enemies(u)
            if state.units[u].flags & {"routing", "moved"} or attacks.engaged_with(state, u) \
                    or not foes:
                continue
            near = min(foes, key=lambda w: (t.unit_distance(u, w), w))
            rng = stat(state, u, "range")
            if rng > 0 and (any(attacks.attack_kind(state, u, w, False)[0] == "ranged"
                                for w in foes) or t.unit_distance(u, near) <= rng):
                want: Any = "hold"
            else:
                want = (("charge", state.scene.units[near].id),)
            if want != _plain(state.extra["orders"].get(state.scene.units[u].id)):
                yield Action("order", state.scene.units[u].id, options=(("order", want),))

    def _orders(self, state: State, side: str, own: list[int]):
        """The normal level's next order: of every new order a free block could be given (a
        charge on one of the TRIED nearest enemies whose way gets it on, advancing, holding),
        the one whose Movement phase, played out ahead as the engine will move every block
        (in scene order, each stopping where it touches another), leaves the side's blocks
        best placed - the close attacks they will have (flank and rear counted, the
        enemy's back at them BACK) and how near they stand to the enemy; none when no new
        order beats the standing ones by GAIN. One order a block a phase."""
        if _keep_lead(state, side):
            for u in own:
                flags = state.units[u].flags
                have = state.extra["orders"].get(state.scene.units[u].id)
                if not (flags & {"routing", "moved"} or attacks.engaged_with(state, u)) \
                        and _plain(have) != "hold":
                    yield Action("order", state.scene.units[u].id, options=(("order", "hold"),))
            return
        done = _ordered(state)
        before: dict[int, State] = {}
        base = _placed(_forecast(state, side, keep=before), side)
        best, most = None, GAIN
        for u in own:
            uid = state.scene.units[u].id
            if state.units[u].flags & {"routing", "moved", "directed", "trampled"} \
                    or uid in done or attacks.engaged_with(state, u):
                continue
            have = _plain(state.extra["orders"].get(uid))
            for want in self._options(state, u):
                if want == have:
                    continue
                gain = _placed(_forecast(before[u], side, (uid, want), u), side) - base
                if gain > most:
                    best, most = Action("order", uid, options=(("order", want),)), gain
        if best is not None:
            yield best

    def _options(self, state: State, u: int) -> list[Any]:
        """The orders worth playing out for unit u: hold for a shooter with a target; else a
        charge on each of the TRIED nearest enemies that makes contact or gets MOVES nearer
        on its own, advancing, holding, and withdrawing for a block touching a friend."""
        foes = state.enemies(u)
        if not foes:
            return []
        t = state.table
        near = sorted(foes, key=lambda w: (t.unit_distance(u, w), w))
        rng = stat(state, u, "range")
        if rng > 0 and (t.unit_distance(u, near[0]) <= rng or any(
                attacks.attack_kind(state, u, w, False)[0] == "ranged" for w in foes)):
            return ["hold"]
        move = turns.move_allowance(state, u)
        out: list[Any] = []
        for w in near[:TRIED]:
            wid = state.scene.units[w].id
            trip = turns.charge(state, u, wid, move)
            if _reaches(trip, wid, move) or _gain(state, u, trip, w) >= MOVES:
                out.append((("charge", wid),))
        away = ["withdraw"] if _touching_friend(state, u) else []
        return [*out, "advance", "hold", *away]

    def _combat(self, state: State, side: str, own: list[int]):
        strike_back = state.clock["phase"] == "strike-back"
        reds = [c for c in state.sides[side]["cards"]
                if (g := game(state).card(c)) is not None and g.colour == "red"]
        for u in own:
            best, score = None, -1.0
            for w in state.enemies(u):
                kind, why = attacks.attack_kind(state, u, w, strike_back)
                if why:
                    continue
                att = attacks.numbers(state, u, w, kind)
                expected = float(mean(attacks.damage_distribution(att)))
                if expected > score:
                    best, score = w, expected
            if best is None:
                continue
            uid, wid = state.scene.units[u].id, state.scene.units[best].id
            if reds and not strike_back:
                yield Action("attack", uid, target=wid, options=(("card", reds[0]),))
            yield Action("attack", uid, target=wid)


def _reaches(trip: movement.Travel | None, target: str, move: float) -> bool:
    """Whether a charge's move ends in contact with its target: stopped by it, or the whole
    way gone (flush on its side) within the Move."""
    if trip is None or len(trip.poses) < 2:
        return False
    return target in trip.stopped_by or (not trip.stopped_by and trip.distance < move - 1e-6)


def _gain(state: State, u: int, trip: movement.Travel | None, w: int) -> float:
    """How much nearer enemy w unit u's block is after `trip` (edge to edge; 0: it stays)."""
    if trip is None or len(trip.poses) < 2:
        return 0.0
    _, a, b = movement.block(state, u)
    x, y, f = movement.pose(state, u)
    there = attacks.footprint(state, w)
    return float(movement.rect(x, y, f, a, b).distance(there)
                 - movement.rect(*trip.end, a, b).distance(there))


def _forecast(state: State, side: str, order: tuple[str, Any] | None = None, first: int = 0,
              keep: dict[int, State] | None = None) -> State:
    """A copy of the state with `side`'s blocks moved as the end of its Movement & Command
    phase will move them (rules.end_phase: by their orders, routing ones routing; no dice),
    with `order` ((unit id, order as an action gives it)) standing first; from the unit
    index `first` on (the blocks before it moved already). `keep`: filled with a copy of the
    state before each block moves - a forecast with one order changed starts from there."""
    w = state.snapshot()
    w.keep_undo = False
    if order is not None:
        w.extra = {**w.extra, "orders": {**w.extra["orders"], order[0]: order_of(order[1])}}
    for u in range(first, len(w.scene.units)):
        if w.scene.units[u].side != side or not turns.alive(w, u):
            continue
        flags = w.units[u].flags
        if flags & {"moved", "directed", "trampled"}:
            continue
        if keep is not None:
            keep[u] = w.snapshot()
        if "routing" in flags:
            turns.rout(w, u, "rout")
        else:
            turns.by_order(w, u)
    return w


def _placed(w: State, side: str) -> float:
    """How well `side`'s blocks stand for the coming Combat phase: the close attacks they
    will make (boxes expected, less BACK of what the enemy strikes back with) less NEAR an
    inch between each block and its nearest enemy."""
    total = 0.0
    t = w.table
    for u, spec in enumerate(w.scene.units):
        if spec.side != side or not turns.alive(w, u) or "routing" in w.units[u].flags:
            continue
        foes = w.enemies(u)
        if not foes:
            continue
        total -= NEAR * min(t.unit_distance(u, e) for e in foes)
        engaged = attacks.engaged_with(w, u)
        if not engaged and _touching_friend(w, u):
            total -= JAM
        for e in engaged:
            total += float(mean(attacks.damage_distribution(attacks.numbers(w, u, e, "close"))))
            total -= BACK * float(mean(attacks.damage_distribution(
                attacks.numbers(w, e, u, "close"))))
    return total


def _touching_friend(state: State, u: int) -> bool:
    """Whether unit u's block touches a friend's (the next move by its orders stops at once
    unless it goes away from it)."""
    here = attacks.footprint(state, u)
    side = state.scene.units[u].side
    return any(v != u and spec.side == side and turns.alive(state, v)
               and here.distance(attacks.footprint(state, v)) <= 1e-3
               for v, spec in enumerate(state.scene.units))


def _ordered(state: State) -> set[str]:
    """The units given an order in this phase so far (one each: a point is not spent twice)."""
    out: set[str] = set()
    for e in reversed(state.events):
        if e.get("type") in ("turn", "end-phase"):
            break
        if e.get("type") == "order":
            out.add(e["unit"])
    return out


def _keep_lead(state: State, side: str) -> bool:
    """The last round and `side` ahead on points destroyed: it holds what it has."""
    if state.round < game(state).rounds:
        return False
    mine = state.sides[side]["destroyed"]
    return all(mine > state.sides[s]["destroyed"] for s in state.sides if s != side)


def _plain(order):
    """A state's order in the form an action writes it."""
    if order is None:
        return None
    if order["order"] == "charge":
        return (("charge", order["target"]),)
    if order["order"] == "march":
        return (("march", tuple(order["to"])),)
    return order["order"]


class BlocksEasy(BlocksPlayer):
    """The easy level, the first blocks player: every idle block charges the nearest enemy."""

    level = "easy"
    spread = False
