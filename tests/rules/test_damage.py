"""Damage on a unit's models (rules/damage.py), by hand: a pool that spills over (aos4) and
packets that do not (skirmish's damage per hit)."""

import numpy as np

from battlefield.rules.damage import fill, fill_each


def test_a_pool_spills_over_to_the_next_model():
    damage = np.array([0, 1, 0])
    out = fill(damage, 3, [1, 0, 2], [6], spill=True)
    # Model 1 takes 2 (falls), model 0 takes 3 (falls), model 2 takes the last 1.
    assert damage.tolist() == [3, 3, 1] and out.dealt == 6 and out.slain == [1, 0]
    assert out.last == 2


def test_packets_do_not_spill():
    damage = np.array([0, 0])
    out = fill(damage, 2, [0, 1], [3, 3], spill=False)
    # Each hit of 3 fills a 2-wound model: 1 point of each hit is lost.
    assert damage.tolist() == [2, 2] and out.dealt == 4 and out.slain == [0, 1]


def test_dealing_stops_when_every_model_has_fallen():
    damage = np.array([0])
    out = fill(damage, 1, [0], [1, 1, 1], spill=False)
    assert out.dealt == 1 and out.slain == [0]


def test_fill_each_gives_what_fill_gives_for_every_number_of_packets():
    start = np.array([1, 0, 2, 0])
    order, packets = [2, 0, 1, 3], [2, 1, 3, 2, 2, 1, 2]
    for spill in (False, True):
        each = [(f.dealt, list(f.slain), f.last)
                for f in fill_each(start.copy(), 3, order, packets, spill)]
        for k, got in enumerate(each, start=1):
            f = fill(start.copy(), 3, order, packets[:k], spill)
            assert got == (f.dealt, f.slain, f.last)
        # It stops once every model has fallen: more packets change nothing.
        whole = fill(start.copy(), 3, order, packets, spill)
        assert each[-1] == (whole.dealt, whole.slain, whole.last)


def test_no_packets_deal_nothing():
    damage = np.array([1, 0])
    out = fill(damage, 2, [0, 1], [], spill=True)
    assert (out.dealt, out.slain, out.last) == (0, [], None) and damage.tolist() == [1, 0]


def test_a_packet_that_fills_its_model_is_lost_past_it_without_spill():
    damage = np.array([0, 0])
    out = fill(damage, 2, [0, 1], [3], spill=False)
    assert damage.tolist() == [2, 0] and out.dealt == 2 and out.slain == [0] and out.last == 0


def test_a_pool_that_just_fills_a_model_leaves_the_next_untouched():
    damage = np.array([0, 0])
    out = fill(damage, 2, [0, 1], [2], spill=True)
    assert damage.tolist() == [2, 0] and out.slain == [0] and out.last == 0


def test_fill_each_stops_at_the_packet_that_slays_the_last_model():
    damage = np.array([0])
    steps = list(fill_each(damage, 1, [0], [1, 1, 1], spill=False))
    assert len(steps) == 1 and steps[0].slain == [0]


def test_deal_fills_and_slays_in_both_numberings():
    from battlefield.rules import registry
    from battlefield.rules.damage import deal
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    scene = load_scene_text("""\
ruleset: skirmish
board: {width: 20, depth: 20}
units:
- {id: a, side: red, models: [{base: 25, at: [2, 2]}]}
- {id: b, side: blue, models: [{base: 25, at: [8, 8]}, {base: 25, at: [10, 8]},
                               {base: 25, at: [12, 8]}]}
""")
    state = Game(registry.get("skirmish"), scene, 1).new_state()
    # b's models are table 1, 2, 3 (a is 0); 2 points each: 5 points slay the first two
    # models b lists in its order (its third, then its first) and put 1 on its second
    dealt = deal(state, 1, [5], 2, order=[2, 0, 1])
    assert (dealt.dealt, dealt.slain, dealt.slain_in_unit) == (5, [3, 1], [2, 0])
    assert list(state.models_of(1)) == [2] and list(state.units[1].damage) == [2, 1, 2]


def test_dice_total_is_the_number_and_the_roll_is_logged():
    from battlefield.rules.dice import Dice

    dice = Dice.seeded(0, fixed=[3, 4])
    assert dice.total("2D6+1", "a test") == 8
    assert dice.log[-1].values == (3, 4) and dice.log[-1].purpose == "a test"
