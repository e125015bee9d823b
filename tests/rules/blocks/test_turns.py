"""The blocks turn played with fixed dice: command points, orders and direct control, charges
that end flush on the target's side, attacks (close, ranged, the arc and range rules), the
pre-combat rout check with free attacks and rout movement, routing off the table, rallying,
and the simultaneous strike-back."""

from __future__ import annotations

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.blocks import RULESET
from battlefield.rules.blocks.data import game as blocks_data
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

from ._scene import block, scene


def game(text: str, dice=()) -> State:
    return Game(RULESET, load_scene_text(text), 1).new_state(fixed_dice=list(dice))


def act(state: State, **a) -> list[dict]:
    return state.apply(Action.from_dict(a))


def codes(state: State, **a) -> list[str]:
    return [v.code for v in state.check(Action.from_dict(a))]


def pose(state: State, uid: str) -> tuple[float, float, float]:
    m = int(state.models_of(state.unit_index(uid))[0])
    t = state.table
    return float(t.x[m]), float(t.y[m]), float(t.facing[m])


def test_command_points_by_turn():
    """Red brought 1500 points (3 a turn), blue 500 (1). Round 1: red, first, gets 0 and starts
    in the Combat phase; blue gets half its 1, rounded up; round 2 red gets 3."""
    s = game(scene(block("red-1", "red", 5, 5, 90), block("red-2", "red", 15, 5, 90),
                   block("red-3", "red", 25, 5, 90), block("blue-1", "blue", 25, 28, 270)))
    assert (s.active, s.phase, s.sides["red"]["command"]) == ("red", "combat", 0)
    assert codes(s, type="order", unit="red-1", order="advance") == ["wrong_phase"]
    act(s, type="end-phase")
    act(s, type="end-phase")                       # blue strikes back: nothing
    assert (s.active, s.phase, s.sides["blue"]["command"]) == ("blue", "command", 1)
    act(s, type="order", unit="blue-1", order="hold")
    assert codes(s, type="direct", unit="blue-1") == ["no_command_points"]
    for _ in range(3):
        act(s, type="end-phase")
    assert (s.round, s.active, s.sides["red"]["command"]) == (2, "red", 3)


ROUND2 = {"round": 2, "active": "red"}


def test_advance_stops_at_contact_and_engages():
    s = game(scene(block("red-a", "red", 20, 10, 90, order="advance"),
                   block("blue-d", "blue", 20, 13.5, 270), state=ROUND2))
    events = act(s, type="end-phase")
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["distance"] == pytest.approx(1.5, abs=1e-6)     # 4" allowed, 1.5" to contact
    assert moved["stopped_by"] == ["blue-d"]
    assert pose(s, "red-a")[:2] == pytest.approx((20, 11.5), abs=1e-6)


def test_a_charge_ends_flush_on_the_side_facing_the_charger():
    """blue-d faces north at (20, 16); red-c at (10, 16) is on its left (west) side: the charge
    ends at (17, 16) facing east, 7" of its 8" Move."""
    s = game(scene(block("red-c", "red", 10, 16, 0, order={"charge": "blue-d"},
                         stats={"move": 8}),
                   block("blue-d", "blue", 20, 16, 90), state=ROUND2))
    events = act(s, type="end-phase")
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["distance"] == pytest.approx(7, abs=1e-6)
    assert pose(s, "red-c") == pytest.approx((17, 16, 0), abs=1e-6)
    assert codes(s, type="attack", unit="red-c", target="blue-d") == []


def test_direct_control_moves_up_to_move_and_turns():
    s = game(scene(block("red-a", "red", 20, 10, 90), block("blue-d", "blue", 20, 15, 270),
                   state=ROUND2))
    assert codes(s, type="move", unit="red-a", path=[[20, 12]]) == ["not_directed"]
    act(s, type="direct", unit="red-a")
    assert s.sides["red"]["command"] == 0           # 500 points: 1 point, spent
    assert codes(s, type="move", unit="red-a", path=[[25, 10]]) == ["move_too_far"]
    assert codes(s, type="move", unit="red-a", path=[[23, 11]], facing=45) == []
    # Into blue-d (its front edge at y = 14): the block stops touching it, unturned.
    events = act(s, type="move", unit="red-a", path=[[20, 13.6]], facing=45)
    assert events[0]["stopped_by"] == ["blue-d"]
    assert pose(s, "red-a") == pytest.approx((20, 13, 90), abs=1e-6)
    assert codes(s, type="move", unit="red-a", path=[[22, 11]]) == ["already_moved"]


def test_shooting_needs_the_arc_range_and_no_engagement():
    shooter = {"range": 10, "dice": 2}
    text = scene(block("red-s", "red", 20, 5, 90, stats=shooter),
                 block("blue-near", "blue", 20, 12, 270),      # 5" ahead (front edges 6, 11)
                 block("blue-far", "blue", 35, 25, 270),
                 block("blue-side", "blue", 30, 5, 90),        # beside: out of the arc
                 state={**ROUND2, "phase": "combat"})
    s = game(text)
    assert codes(s, type="attack", unit="red-s", target="blue-near") == []
    assert codes(s, type="attack", unit="red-s", target="blue-side") == ["not_in_arc"]
    far = s.check(Action.from_dict({"type": "attack", "unit": "red-s", "target": "blue-far"}))
    assert [v.code for v in far] == ["out_of_range"] and dict(far[0].numbers)["range"] == 10


def test_a_new_engaged_side_forces_a_rout_check_then_free_attacks_and_a_rout():
    """red-u (facing north at (20, 16)) is engaged on its front by blue-f as the turn starts;
    blue-c charges its left. Rout check 6+6+6 = 18 > 10 fails: red-u turns about (engaged,
    not on its rear), suffers free attacks - blue-f, now on its rear, hits with both dice and
    damages with both; blue-c misses - and routs 4" south, out of contact."""
    text = scene(block("red-u", "red", 20, 16, 90),
                 block("blue-f", "blue", 20, 18, 270),
                 block("blue-c", "blue", 10, 16, 0, order={"charge": "red-u"},
                       stats={"move": 8}),
                 state={"round": 2, "active": "blue"})
    s = game(text, dice=[6, 6, 6, 1, 1, 1, 1, 6, 6])
    events = act(s, type="end-phase")
    check = next(e for e in events if e["type"] == "courage")
    assert check["unit"] == "red-u" and check["passed"] is False
    routs = next(e for e in events if e["type"] == "routs")
    assert routs["facing"] == pytest.approx(270)
    attacks = [e for e in events if e["type"] == "attack"]
    assert [(a["unit"], a["side"], a["hit_on"], a["damage"]) for a in attacks] == [
        ("blue-f", "rear", 5, 2), ("blue-c", "right", 4, 0)]
    assert int(s.units[s.unit_index("red-u")].damage[0]) == 2
    rout = [e for e in events if e["type"] == "moved" and e["unit"] == "red-u"]
    assert rout and rout[0]["distance"] == pytest.approx(4)
    assert pose(s, "red-u")[:2] == pytest.approx((20, 12), abs=1e-6)
    assert "routing" in s.units[s.unit_index("red-u")].flags


def test_a_routing_block_at_its_edge_leaves_and_one_rallied_stays():
    text = scene(block("red-r", "red", 20, 1, 270, routing=True),
                 block("red-q", "red", 30, 1, 270, routing=True),
                 block("blue-x", "blue", 20, 28, 270), state=ROUND2)
    s = game(text)
    act(s, type="rally", unit="red-q")
    events = act(s, type="end-phase")
    gone = [e for e in events if e["type"] == "removed"]
    assert [e["unit"] for e in gone] == ["red-r"] and "south" in gone[0]["why"]
    assert not s.units[s.unit_index("red-q")].flags & {"routing"}
    assert s.sides["blue"]["destroyed"] == 500


def test_combat_is_simultaneous():
    """red-a destroys blue-d (one box) in the Combat phase; blue-d still strikes back, and is
    removed only after."""
    text = scene(block("red-a", "red", 20, 18, 270),
                 block("blue-d", "blue", 20, 16, 90, bar=[1, 0, 0]),
                 state={**ROUND2, "phase": "combat"})
    s = game(text, dice=[1, 6, 1, 1, 6, 1])
    events = act(s, type="attack", unit="red-a", target="blue-d")
    assert any(e.get("destroyed") for e in events if e["type"] == "damage")
    act(s, type="end-phase")
    assert s.acting_side == "blue"
    events = act(s, type="attack", unit="blue-d", target="red-a")
    strike = next(e for e in events if e["type"] == "attack")
    assert strike["damage"] == 1
    assert strike["modifiers"] == []          # the key is there with nothing to list
    events = act(s, type="end-phase")
    assert [e["unit"] for e in events if e["type"] == "removed"] == ["blue-d"]
    assert s.over and s.result().winner == "red"


def test_cards_on_an_attack_one_per_player():
    """red-a attacks with no card; blue answers with Shield wall (+1 Defence); red may then
    answer with Fury (+1 Offence): 7 + 1 - (4 + 1) = 3, damage 5 - 3 = 2."""
    text = scene(block("red-a", "red", 20, 18, 270), block("blue-d", "blue", 20, 16, 90),
                 state={**ROUND2, "phase": "combat",
                        "cards": {"red": ["fury", "keen-edges"], "blue": ["shield-wall"]}})
    s = game(text)
    events = act(s, type="attack", unit="red-a", target="blue-d")
    assert events[-1]["type"] == "decision" and events[-1]["kind"] == "blue-card"
    assert s.acting_side == "blue" and s.available() == ["card", "decline"]
    assert codes(s, type="card", side="blue", card="fury") == ["not_a_choice"]
    act(s, type="card", side="blue", card="shield-wall")
    assert s.pending[0].kind == "red-card" and s.acting_side == "red"
    events = act(s, type="card", side="red", card="fury")
    attack = next(e for e in events if e["type"] == "attack")
    assert (attack["hit_on"], attack["damage_on"]) == (3, 2)
    assert s.sides["blue"]["cards"] == [] and s.sides["red"]["cards"] == ["keen-edges"]
    assert not s.pending and s.acting_side == "red"


def test_a_red_card_on_the_attack_leaves_the_attacker_no_answer():
    text = scene(block("red-a", "red", 20, 18, 270), block("blue-d", "blue", 20, 16, 90),
                 state={**ROUND2, "phase": "combat",
                        "cards": {"red": ["fury", "keen-edges"], "blue": ["braced"]}})
    s = game(text)
    act(s, type="attack", unit="red-a", target="blue-d", card="keen-edges")
    events = act(s, type="decline", side="blue")
    attack = next(e for e in events if e["type"] == "attack")
    assert (attack["hit_on"], attack["damage_on"]) == (3, 3)      # power 5 + 1 - 3
    assert s.sides["red"]["cards"] == ["fury"] and not s.pending


def test_losing_the_last_yellow_box_to_free_attacks_means_a_second_rout_check():
    """As above, but red-u's bar is [1, 1, 3]: blue-f's 2 damage takes its last yellow box, so
    it takes a second rout check; 6+6+6 fails and it is destroyed (no rout move)."""
    text = scene(block("red-u", "red", 20, 16, 90, bar=[1, 1, 3]),
                 block("blue-f", "blue", 20, 18, 270),
                 block("blue-c", "blue", 10, 16, 0, order={"charge": "red-u"},
                       stats={"move": 8}),
                 state={"round": 2, "active": "blue"})
    s = game(text, dice=[6, 6, 6, 1, 1, 1, 1, 6, 6, 6, 6, 6])
    events = act(s, type="end-phase")
    checks = [(e["why"], e["passed"]) for e in events if e["type"] == "courage"]
    assert checks == [("rout check (engaged on another side)", False),
                      ("second rout check", False)]
    removed = [e for e in events if e["type"] == "removed"]
    assert [(e["unit"], e["why"]) for e in removed] == [("red-u",
                                                          "failed its second rout check")]
    assert not [e for e in events if e["type"] == "moved" and e["unit"] == "red-u"]
    assert s.sides["blue"]["destroyed"] == 500


def test_a_routing_block_stopped_by_a_friend_moves_through_it_next_time():
    """red-r routs south from (20, 12) and touches red-f (at (20, 9)): it stops. Next turn it
    moves through red-f (trampled: it may not move, and takes a rout check) and on past it."""
    text = scene(block("red-r", "red", 20, 12, 270, routing=True),
                 block("red-f", "red", 20, 9, 90),
                 block("blue-x", "blue", 40, 28, 270), state=ROUND2)
    s = game(text, dice=[1, 1, 1])
    events = act(s, type="end-phase")
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["stopped_by"] == ["red-f"] and moved["distance"] == pytest.approx(1)
    for _ in range(5):                           # to red's next Movement & Command phase
        act(s, type="end-phase")
    assert (s.round, s.active, s.phase) == (3, "red", "command")
    events = act(s, type="end-phase")
    assert [e["unit"] for e in events if e["type"] == "trampled"] == ["red-f"]
    moved = next(e for e in events if e["type"] == "moved" and e["unit"] == "red-r")
    assert moved["distance"] == pytest.approx(4)
    assert pose(s, "red-r")[:2] == pytest.approx((20, 7), abs=1e-6)
    check = next(e for e in events if e["type"] == "courage")
    assert check["unit"] == "red-f" and "routing unit" in check["why"]


def test_try_ends_the_movement_phase_before_an_attack():
    from ._scene import attempt

    text = scene(block("red-a", "red", 20, 10, 90, order="advance"),
                 block("blue-d", "blue", 20, 13.5, 270))
    state, results = attempt(text, {"type": "direct", "unit": "red-a"},
                             {"type": "attack", "unit": "red-a", "target": "blue-d"})
    assert [r["legal"] for r in results] == [True, False]      # directed: it did not move
    assert results[1]["violations"][0]["code"] == "no_range"
    state, results = attempt(text, {"type": "draw-card"},
                             {"type": "attack", "unit": "red-a", "target": "blue-d"})
    assert [r["legal"] for r in results] == [True, True]        # it advanced into contact
    assert state.phase == "combat"


def test_a_rallied_block_stays_rallied_in_a_written_position():
    import yaml

    from battlefield.rules.trial import scene_after

    text = scene(block("red-q", "red", 30, 12, 270, routing=True),
                 block("blue-x", "blue", 20, 28, 270), state=ROUND2)
    s = game(text)
    act(s, type="rally", unit="red-q")
    again = game(yaml.safe_dump(scene_after(s), sort_keys=False))
    assert "routing" not in again.units[0].flags
    assert again.fingerprint() == s.fingerprint()


def test_card_is_offered_only_with_a_green_card_in_hand():
    """available() offers `card` in the Movement & Command phase only while the side holds a
    green card to play (with an empty hand it was offered, and the window waited for an
    end-phase click though nothing could be played)."""
    s = game(scene(block("red-1", "red", 5, 5, 90), block("blue-1", "blue", 25, 28, 270),
                   state=ROUND2), dice=[1] * 40)
    assert s.phase == "command" and not s.sides["red"]["cards"]
    assert "card" not in s.available() and "draw-card" in s.available()
    act(s, type="draw-card")
    assert s.sides["red"]["cards"] == ["fury"]          # a red card: played on an attack
    assert "card" not in s.available()
    green = next(c.id for c in blocks_data(s).cards if c.colour == "green")
    s.sides["red"]["cards"].append(green)
    assert "card" in s.available()
