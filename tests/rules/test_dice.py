"""Dice: seeded, logged with their purpose, fixed values first, stable across runs."""

import pytest

from battlefield.rules.dice import Dice, DiceError, parse, seed_text


def test_same_seed_same_rolls():
    a, b = Dice.seeded(7), Dice.seeded(7)
    assert [a.roll("2D6", "x").values for _ in range(50)] == \
        [b.roll("2D6", "x").values for _ in range(50)]


def test_known_sequence_never_changes():
    # Saved games replay only if the generator never changes: pin its first rolls.
    d = Dice.seeded(42)
    assert [d.roll("D6", "pin").values[0] for _ in range(10)] == \
        [2, 2, 1, 1, 5, 1, 2, 3, 2, 3]


def test_a_secret_seed_keys_its_own_stream_and_replays_bit_for_bit():
    """A seed that is text, or a number past 64 bits (a server's secret seed), keys a
    SHA-256 stream: the same seed the same rolls, another seed other rolls, a 64-bit number
    the splitmix64 rolls it always had; the generator's position is a count of draws."""
    secret = "b1451b850ff1ebc3588bfeb7868d24f9f8a979a44c5382e0931be934daf1ed3f"
    rolls = [Dice.seeded(secret).roll("10D6", "x").values for _ in range(2)]
    assert rolls[0] == rolls[1]
    other = Dice.seeded(secret[:-1] + "e").roll("10D6", "x").values
    assert other != rolls[0]
    d = Dice.seeded(secret)
    d.roll("3D6", "x")
    assert d.key is not None and d.state == 3                # three draws
    copy = d.copy()
    assert copy.roll("4D6", "y").values == d.roll("4D6", "y").values
    big = 2 ** 64
    assert Dice.seeded(big).key == b"18446744073709551616"
    assert Dice.seeded(2 ** 64 - 1).key is None and Dice.seeded(-1).key is None
    counts = [0] * 6
    keyed = Dice.seeded(secret)
    for _ in range(6000):
        counts[keyed.die(6)[0] - 1] += 1
    assert all(850 < c < 1150 for c in counts)


def test_a_seeds_text_is_what_its_hash_is_of():
    assert seed_text(12) == "12" and seed_text("abc") == "abc" and seed_text(2 ** 70) == str(
        2 ** 70)


def test_fixed_dice_come_first_and_are_marked():
    d = Dice.seeded(1, [6, 6])
    r = d.roll("2D6", "charge roll")
    assert r.values == (6, 6) and r.fixed and r.total == 12
    assert d.log[-1].purpose == "charge roll"
    assert not d.roll("D6", "next").fixed


def test_fixed_die_out_of_range():
    with pytest.raises(DiceError, match="cannot come up on a D3"):
        Dice.seeded(1, [5]).roll("D3", "mortal damage")


def test_parse():
    assert parse("2D6") == (2, 6, 0)
    assert parse("D3+1") == (1, 3, 1)
    assert parse("d6-1") == (1, 6, -1)
    assert parse(4) == (0, 1, 4)
    with pytest.raises(DiceError):
        parse("two dice")


def test_uniform_enough():
    d = Dice.seeded(3)
    counts = [0] * 6
    for _ in range(6000):
        counts[d.die(6)[0] - 1] += 1
    assert all(850 < c < 1150 for c in counts)


def test_a_die_that_cannot_come_up_is_one_line_for_the_command_line():
    """try --dice 6 where a D3 is rolled: a DiceError is a BattlefieldError (one line, exit 2),
    and still a ValueError for code."""
    from battlefield.errors import BattlefieldError
    from battlefield.rules.dice import DiceError

    assert issubclass(DiceError, BattlefieldError) and issubclass(DiceError, ValueError)


@pytest.mark.parametrize("text", ["4,,6", "4,", "+4", "\u0664", "4.0", "9" * 5000])
def test_try_dice_are_plain_digits_between_commas(text):
    """--dice read each item with int(): an Arabic-Indic 4 was a 4, "4,,6" lost its gap and
    5,000 digits were quoted whole."""
    from battlefield.errors import UsageError
    from battlefield.rules.trial import parse_dice

    with pytest.raises(UsageError, match="expected numbers separated by commas") as exc:
        parse_dice(text)
    assert len(str(exc.value)) < 200
    assert parse_dice(" 4, 4 ,6") == [4, 4, 6]
