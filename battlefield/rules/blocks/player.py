"""The blocks computer player: in the Movement & Command phase it rallies routing blocks, sends
idle blocks to charge the nearest enemy that fewer than MOBBED of its blocks already charge
(shooters hold while an enemy is in range; a block keeps a charge it already has on a target
not over-charged, so command points are not spent re-aiming it; each charge is pre-checked
with the rules' own move - a block whose way is blocked at once, by a friend it touches, tries
the next enemy, then advancing), spends what is left on the
rally cry when a block is engaged, then a command card; in the last round, ahead on points
destroyed, its free blocks hold instead of charging (a fresh engagement can only cost the lead).
In combat every block attacks the target it expects to damage most, with a red card on the
first attack it can.

Charging the nearest enemy every time sent whole armies at one block: the later blocks queued
behind the first, turned aside on its slot and came in one at a time (a third of its battles
against a random player were draws or losses)."""

from __future__ import annotations

from collections import Counter

from battlefield.rules.actions import Action
from battlefield.rules.blocks import attacks, movement, turns
from battlefield.rules.blocks.data import game, stat
from battlefield.rules.chance import mean
from battlefield.rules.state import State

MOBBED = 2          # blocks of a side charging one enemy before the next goes elsewhere
TRIED = 3           # enemies whose charge is pre-checked for a way before advancing instead
MOVES = 1.0         # inches a block must get on its way for its order to count as moving


class BlocksPlayer:
    """The normal level (see above); BlocksEasy is the first player."""

    level = "normal"
    spread = True           # charges spread and pre-checked, the lead held in the last round
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
        orders = state.extra["orders"]
        for u in own:
            if "routing" in state.units[u].flags and "moved" not in state.units[u].flags:
                yield Action("rally", state.scene.units[u].id)
        aims = _aims(state, own)
        keep = self.spread and _keep_lead(state, side)
        for u in own:
            flags = state.units[u].flags
            if flags & {"routing", "moved"} or attacks.engaged_with(state, u):
                continue
            have = orders.get(state.scene.units[u].id)
            others = Counter(w for v, w in aims.items() if v != u)
            want = "hold" if keep else self._order(state, u, others, have)
            aims.pop(u, None)
            if isinstance(want, tuple):
                aims[u] = state.unit_index(dict(want)["charge"])
            if want is not None and want != _plain(have):
                yield Action("order", state.scene.units[u].id, options=(("order", want),))
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

    def _order(self, state: State, u: int, charging: Counter[int] | None = None,
               have=None):
        """The standing order unit u should have: hold for a shooter with a target, else a
        charge - the one it has while fewer than MOBBED other blocks charge its target, else
        on the nearest enemy that fewer than MOBBED others charge (the nearest when all are)
        whose way is not blocked at once, else advancing. `charging`: the other blocks'
        charges, per enemy."""
        foes = state.enemies(u)
        if not foes:
            return None
        t = state.table
        near = min(foes, key=lambda w: (t.unit_distance(u, w), w))
        rng = stat(state, u, "range")
        if rng > 0 and any(attacks.attack_kind(state, u, w, False)[0] == "ranged" for w in foes):
            return "hold"
        if rng > 0 and t.unit_distance(u, near) <= rng:
            return "hold"
        if not self.spread:
            return (("charge", state.scene.units[near].id),)
        charging = charging or Counter()
        wanted: list = []
        if have is not None and have["order"] == "charge":
            try:
                w = state.unit_index(have["target"])
            except KeyError:
                w = -1
            if w in foes and charging[w] < MOBBED:
                wanted.append(w)
        free = [w for w in foes if charging[w] < MOBBED] or foes
        wanted += [w for w in sorted(free, key=lambda w: (t.unit_distance(u, w), w))
                   if w not in wanted][:TRIED]
        # the first charge whose way is not blocked at once (a block touching a friend
        # stops where it stands), else advancing, else the first
        for w in wanted:
            if _goes(turns.charge(state, u, state.scene.units[w].id,
                                  turns.move_allowance(state, u))):
                return (("charge", state.scene.units[w].id),)
        if _goes(movement.straight(state, u, turns.move_allowance(state, u))):
            return "advance"
        return (("charge", state.scene.units[wanted[0]].id),)

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


def _goes(trip: movement.Travel | None) -> bool:
    """Whether an order's move gets the block on its way (not stopped where it stands)."""
    return trip is not None and trip.distance >= MOVES


def _aims(state: State, own: list[int]) -> dict[int, int]:
    """The enemy each of these blocks stands ordered to charge (unit indexes)."""
    out: dict[int, int] = {}
    for u in own:
        order = state.extra["orders"].get(state.scene.units[u].id)
        if order and order["order"] == "charge":
            try:
                out[u] = state.unit_index(order["target"])
            except KeyError:
                continue
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
