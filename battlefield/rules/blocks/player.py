"""The blocks computer player: in the Movement & Command phase it rallies routing blocks, sends
idle blocks to charge the nearest enemy (shooters hold while an enemy is in range), spends what
is left on the rally cry when a block is engaged, then a command card; in combat every block
attacks the target it expects to damage most, with a red card on the first attack it can."""

from __future__ import annotations

from battlefield.rules.actions import Action
from battlefield.rules.blocks import attacks, turns
from battlefield.rules.blocks.data import game, stat
from battlefield.rules.chance import mean
from battlefield.rules.state import State


class BlocksPlayer:
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
        for u in own:
            flags = state.units[u].flags
            if flags & {"routing", "moved"} or attacks.engaged_with(state, u):
                continue
            want = self._order(state, u)
            have = orders.get(state.scene.units[u].id)
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

    def _order(self, state: State, u: int):
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
        return (("charge", state.scene.units[near].id),)

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


def _plain(order):
    """A state's order in the form an action writes it."""
    if order is None:
        return None
    if order["order"] == "charge":
        return (("charge", order["target"]),)
    if order["order"] == "march":
        return (("march", tuple(order["to"])),)
    return order["order"]
