"""Chance nodes: one procedure, played with the game's dice and enumerated exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battlefield.rules.chance import Pool, Throw, follow, leaves, outcomes, play, together
from battlefield.rules.dice import Dice


def four_up(r: int) -> int:
    return 1 if r >= 4 else 0


def test_throw_lists_its_outcomes():
    assert Throw("2D6", "x").outcomes()[7] == Fraction(6, 36)
    assert Throw("D3+1", "x").outcomes() == {2: Fraction(1, 3), 3: Fraction(1, 3),
                                             4: Fraction(1, 3)}
    assert Throw("3", "x").outcomes() == {3: 1}


def test_pool_outcomes_are_its_faces_grouped():
    pool = Pool(3, four_up, "x")
    grouped: dict[int, Fraction] = {}
    for values, p in pool.faces():
        grouped[pool.read(values)] = grouped.get(pool.read(values), Fraction(0)) + p
    assert pool.outcomes() == grouped
    assert pool.outcomes()[3] == Fraction(1, 8)


def test_play_logs_each_roll_and_nothing_for_no_dice():
    def proc():
        a = yield Throw("D6", "first")
        b = yield Throw("2", "fixed")
        c = yield Pool(0, four_up, "none")
        return a + b + c

    dice = Dice.seeded(1, [5])
    assert play(proc(), dice) == 7
    assert [(r.dice, r.purpose) for r in dice.log] == [("D6", "first")]


def test_together_rolls_a_step_as_one_roll_and_deals_it_out():
    def one(k: int):
        hits = yield Pool(k, four_up, "hit rolls", step=0)
        dmg = 0
        for _ in range(hits):
            dmg += yield Throw("D3", "damage", step=1)
        return dmg

    dice = Dice.seeded(1, [4, 1, 6, 2, 3])      # pool of 1 + 2: [4] and [1, 6]; then D3s 2, 3
    assert play(together([one(1), one(2)]), dice) == [2, 3]
    assert [(r.dice, r.values, r.purpose) for r in dice.log] == [
        ("3D6", (4, 1, 6), "hit rolls"), ("D3", (2,), "damage"), ("D3", (3,), "damage")]


def test_outcomes_agree_with_every_leaf():
    def proc():
        n = yield Throw("D3", "n")
        return (yield Pool(n, four_up, "x"))

    exact = outcomes(proc)
    brute: dict[int, Fraction] = {}
    for _, p, result in leaves(proc):
        brute[result] = brute.get(result, Fraction(0)) + p
    assert exact == brute and sum(exact.values()) == 1
    assert exact[0] == Fraction(1, 3) * (Fraction(1, 2) + Fraction(1, 4) + Fraction(1, 8))


def test_follow_reaches_the_leaf_of_given_dice():
    def proc():
        n = yield Throw("D3", "n")
        return (yield Pool(n, four_up, "x"))

    assert follow(proc, [2, 4, 3]) == (1, 3)
    with pytest.raises(ValueError):
        follow(proc, [3, 6])


def test_a_roll_read_die_by_die_is_shown_without_a_sum():
    # A Throw read as its total shows "= total"; a Pool (each die scored) or a Throw read
    # another way shows its dice only: their sum would mean nothing to a player.
    def proc():
        a = yield Throw("2D6", "charge")
        b = yield Pool(3, four_up, "hits")
        c = yield Throw("2D6", "doubles", lambda vs: vs[0] == vs[1])
        return a, b, c

    dice = Dice.seeded(1, [3, 4, 1, 4, 6, 2, 2])
    assert play(proc(), dice) == (7, 2, True)
    assert [r.shown for r in dice.log] == ["2D6 [3, 4] = 7", "3D6 [1, 4, 6]", "2D6 [2, 2]"]
    assert [r.to_dict()["summed"] for r in dice.log] == [True, False, False]


def test_mean_of_a_distribution():
    from battlefield.rules.chance import mean

    assert mean({1: Fraction(1, 2), 3: Fraction(1, 2)}) == 2
    assert mean({0: Fraction(1, 3), 6: Fraction(2, 3)}) == 4
    assert mean({}) == 0


def test_outcomes_grouped_by_a_key():
    def proc():
        return (yield Throw("D6", "x"))

    assert outcomes(proc, key=lambda r: r % 2) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert outcomes(proc, key=lambda r: r >= 5) == {False: Fraction(2, 3), True: Fraction(1, 3)}


def test_leaves_pass_over_a_pool_of_no_dice():
    def proc():
        a = yield Pool(0, four_up, "none")
        b = yield Throw("D2", "x")
        return a + b

    found = sorted((values, p, result) for values, p, result in leaves(proc))
    assert found == [((1,), Fraction(1, 2), 1), ((2,), Fraction(1, 2), 2)]


def test_follow_says_how_many_values_it_was_short_of():
    def proc():
        a = yield Throw("D6", "x")
        b = yield Throw("D6", "y")
        return a + b

    with pytest.raises(ValueError, match="needs more than the 1 values given"):
        follow(proc, [3])


def test_together_refuses_pools_of_different_dice_at_one_step():
    def a():
        return (yield Pool(1, four_up, "hit"))

    def b():
        return (yield Pool(1, four_up, "wound"))

    with pytest.raises(ValueError, match=r"pools of step 0 differ: \[\('1D6', 'hit'\), "
                                         r"\('1D6', 'wound'\)\]"):
        outcomes(lambda: together([a(), b()]))
