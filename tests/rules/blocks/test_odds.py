"""`odds --attack` and `odds --courage` for blocks, worked out by hand: each attack die damages
with P(hit) x P(damage) (each a die <= the difference, 1 always, 6 never), so the damage of n
dice is binomial; a courage check is 3D6 <= Courage."""

from __future__ import annotations

import json
from math import comb

import pytest

from battlefield.cli.main import main

from ._scene import block, scene


def odds(tmp_path, capsys, text: str, *args: str) -> dict:
    path = tmp_path / "scene.yaml"
    path.write_text(text)
    assert main(["odds", str(path), *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def binomial(n: int, p: float) -> dict[str, float]:
    return {str(k): comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


def engaged(attacker: dict, defender: dict, side: str = "front") -> str:
    """red-a flush on blue-d's `side` (blue-d at (20, 16) facing north, 4" x 2")."""
    x, y, f = {"front": (20, 18, 270), "left": (17, 16, 0), "rear": (20, 14, 90)}[side]
    return scene(block("red-a", "red", x, y, f, stats=attacker),
                 block("blue-d", "blue", 20, 16, 90, stats=defender))


ATTACKS = [
    # offence 7 - defence 4 = 3: hit on 1-3 (1/2); power 5 - toughness 3 = 2: damage 1-2 (1/3).
    ("plain", {"dice": 2}, {}, "front", 2, 1 / 2 * 1 / 3),
    # 0 difference: only 1s hit; a huge power: every hit but a 6 damages.
    ("only ones hit", {"dice": 3, "offence": 4, "power": 20}, {}, "front", 3, 1 / 6 * 5 / 6),
    # 6s always miss however good the odds.
    ("sixes miss", {"dice": 2, "offence": 20, "power": 20}, {}, "front", 2, 5 / 6 * 5 / 6),
    # On the flank +1 Offence: 8 - 4 = 4 (4/6).
    ("flank", {"dice": 2}, {}, "left", 2, 4 / 6 * 1 / 3),
    # On the rear +2 Offence: 9 - 4 = 5 (5/6).
    ("rear", {"dice": 2}, {}, "rear", 2, 5 / 6 * 1 / 3),
]


@pytest.mark.parametrize("name, att, dfn, side, n, p", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_attack_odds(tmp_path, capsys, name, att, dfn, side, n, p):
    d = odds(tmp_path, capsys, engaged(att, dfn, side), "--attack", "red-a", "blue-d")
    assert d["kind"] == "close" and d["side"] == side
    want = binomial(n, p)
    assert d["distribution"] == pytest.approx({k: round(v, 6) for k, v in want.items()},
                                              abs=1e-6)
    assert d["expected_damage"] == pytest.approx(n * p, abs=1e-6)


@pytest.mark.parametrize(("target", "said"), [
    (-1, "a 1 (target -1)"), (1, "a 1 (target 1)"), (2, "2 or less"), (4, "4 or less"),
    (5, "5 or less"), (8, "5 or less (target 8)")])
def test_what_a_die_needs_reads_as_the_table_plays_it(target, said):
    # a 1 always succeeds and a 6 never does: never "-1 or less", nor "8 or less"
    from battlefield.rules.blocks.attacks import needed

    assert needed(target) == said


def test_the_odds_text_says_what_the_dice_need(tmp_path, capsys):
    text = engaged({"dice": 3, "offence": 4, "power": 20}, {})
    path = tmp_path / "scene.yaml"
    path.write_text(text)
    assert main(["odds", str(path), "--attack", "red-a", "blue-d"]) == 0
    assert "hit on a 1 (target 0), damage on 5 or less (target 17)" in capsys.readouterr().out


def test_damage_is_capped_at_the_boxes_left(tmp_path, capsys):
    text = scene(block("red-a", "red", 20, 18, 270, stats={"dice": 2}),
                 block("blue-d", "blue", 20, 16, 90, bar=[1, 0, 0]))
    d = odds(tmp_path, capsys, text, "--attack", "red-a", "blue-d")
    assert d["distribution"] == pytest.approx({"0": 25 / 36, "1": 11 / 36}, abs=1e-6)


def test_a_failed_fear_check_counts(tmp_path, capsys):
    """afraid: -1 die, -1 Offence, -1 Defence this turn (written as a position's unit flag)."""
    text = engaged({"dice": 3}, {})
    text = text.replace("units:\n", "state:\n  clock: {round: 2, turn: 1, first: red, active: "
                        "red, phase: combat, over: false}\n  units:\n    red-a: {flags: "
                        "[afraid]}\nunits:\n", 1)
    d = odds(tmp_path, capsys, text, "--attack", "red-a", "blue-d")
    assert d["dice"] == 2 and d["hit_on"] == 2          # 6 - 4
    assert d["expected_damage"] == pytest.approx(2 * (2 / 6) * (1 / 3), abs=1e-6)


COURAGE = [
    ("courage 10", 10, (), 108 / 216),
    ("courage 12", 12, (), 160 / 216),
    ("courage 3", 3, (), 1 / 216),
    # Engaged on front and left: -1 for the second side, 11 -> 10.
    ("two sides", 11, ("front", "left"), 108 / 216),
]


@pytest.mark.parametrize("name, value, sides, p", COURAGE, ids=[c[0] for c in COURAGE])
def test_courage_odds(tmp_path, capsys, name, value, sides, p):
    foes = []
    where = {"front": (20, 18, 270), "left": (17, 16, 0)}
    for k, s in enumerate(sides):
        x, y, f = where[s]
        foes.append(block(f"blue-{k}", "blue", x, y, f))
    text = scene(block("red-u", "red", 20, 16, 90, stats={"courage": value}), *foes,
                 block("blue-far", "blue", 40, 28, 270))
    d = odds(tmp_path, capsys, text, "--courage", "red-u")
    assert d["probability"] == pytest.approx(round(p, 6), abs=1e-6)
