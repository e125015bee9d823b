"""The blocks computer player's Movement & Command orders: a charge that makes contact this
turn first, one order a block a phase, the Movement phase played out ahead on a copy (the
state unchanged), a charge blocked at once by a friend given up for one that moves, and the
lead held in the last round."""

from __future__ import annotations

from battlefield.rules.actions import Action
from battlefield.rules.blocks import RULESET, turns
from battlefield.rules.blocks.player import BlocksPlayer, _forecast
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

from ._scene import block, scene


def game(text: str) -> State:
    return Game(RULESET, load_scene_text(text), 1).new_state()


def orders(state: State) -> list[Action]:
    """The orders the player gives in this Movement & Command phase, each applied."""
    player = BlocksPlayer()
    given = []
    for _ in range(20):
        action = player.choose(state)
        if action.type != "order":
            return given
        given.append(action)
        state.apply(action)
    raise AssertionError("the player never ended its orders")


def test_a_charge_that_makes_contact_this_turn_is_ordered_first():
    """One command point: red-far's charge would only bring it nearer, red-near's makes
    contact this turn (3" from blue-a, Move 4): red-near is the one ordered."""
    text = scene(block("red-far", "red", 8, 4, 90, order="hold"),
                 block("red-near", "red", 30, 20, 90, order="hold"),
                 block("blue-a", "blue", 30, 26, 270), block("blue-b", "blue", 8, 28, 270),
                 state={"round": 2, "active": "red", "command": {"red": 1}})
    given = orders(game(text))
    assert [(a.unit, dict(a.options)["order"]) for a in given] == [
        ("red-near", (("charge", "blue-a"),))]


def test_a_block_gets_one_order_a_phase_and_the_look_ahead_changes_nothing():
    text = scene(*(block(f"red-{k}", "red", 8 + 8 * k, 6, 90) for k in range(4)),
                 block("blue-a", "blue", 24, 26, 270), block("blue-b", "blue", 40, 26, 270),
                 state={"round": 2, "active": "red", "command": {"red": 4}})
    s = game(text)
    where, flags = list(s.table.x), [set(u.flags) for u in s.units]
    forecast = _forecast(s, "red", ("red-0", (("charge", "blue-a"),)))
    assert list(s.table.x) == where and [set(u.flags) for u in s.units] == flags
    assert s.extra["orders"]["red-0"] is None           # the order played out is not given
    assert forecast.table.y[0] > s.table.y[0]          # in the copy, red-0 went on
    given = orders(s)
    assert given and len({a.unit for a in given}) == len(given)


def test_a_charge_blocked_at_once_by_a_friend_goes_elsewhere():
    """red-back stands right behind red-front, whose block is in the way of a charge on
    blue-a (a block touching another stops at once, whichever way it slides): it charges
    blue-b, behind it, whose way is clear."""
    text = scene(block("red-front", "red", 24, 10, 90, order={"charge": "blue-a"}),
                 block("red-back", "red", 24, 8, 90),
                 block("blue-a", "blue", 24, 26, 270), block("blue-b", "blue", 24, 2, 90),
                 state={"round": 2, "active": "red", "command": {"red": 1}})
    s = game(text)
    back = s.unit_index("red-back")
    blocked = turns.charge(s, back, "blue-a", turns.move_allowance(s, back))
    assert blocked.distance < 1.0                # the nearest charge goes nowhere
    given = [a for a in orders(s) if a.unit == "red-back"]
    assert given and dict(given[0].options)["order"] == (("charge", "blue-b"),)
    events = s.apply(Action("end-phase"))
    moved = [e for e in events if e["type"] == "moved" and e["unit"] == "red-back"]
    assert moved and moved[0]["distance"] >= 1.0


def test_ahead_in_the_last_round_its_free_blocks_hold():
    last = {"round": 6, "active": "red", "command": {"red": 2}}
    text = scene(block("red-1", "red", 12, 6, 90, order={"charge": "blue-a"}),
                 block("red-2", "red", 30, 6, 90, order={"charge": "blue-a"}),
                 block("blue-a", "blue", 24, 26, 270), state=last)
    s = game(text)
    s.sides["red"]["destroyed"] = 150            # red destroyed a block earlier
    given = orders(s)
    assert {a.unit for a in given} == {"red-1", "red-2"}
    assert all(dict(a.options)["order"] == "hold" for a in given)
