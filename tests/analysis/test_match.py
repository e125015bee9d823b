"""What a run of battles says (analysis/match.py): per side wins, draws and losses with Wilson
intervals and the match score, the zones' and the first player's win rates, the abilities used
per battle, and the note when the battles are too few to see a 10-point bias."""

from __future__ import annotations

import pytest

from battlefield.analysis.match import battles_needed, detectable, power, summarise, wilson


def _r(i, winner, first="red", zones=None, uses=None):
    return {"index": i, "seed": i, "winner": winner, "score": "victory_points",
            "victory_points": {"red": 1, "blue": 1}, "first": first,
            "zones": zones or {"red": "red", "blue": "blue"},
            "uses": uses or {"red": {"shoot": 2}, "blue": {}}}


SWAP = {"red": "blue", "blue": "red"}

CASES = [
    # (results, {key: expected})
    ([_r(0, "red"), _r(1, "red", zones=SWAP), _r(2, None), _r(3, "blue", zones=SWAP)],
     {"wins": {"red": 2, "blue": 1}, "draws": 1, "losses": {"red": 1, "blue": 2},
      "match_score": {"red": 0.625, "blue": 0.375},
      # red won from zone red, then from zone blue; blue won standing in zone red
      "zone_win_rates": {"blue": 0.25, "red": 0.5},
      "first_player_win_rate": 0.5}),
    ([_r(0, "blue", first="blue"), _r(1, "blue", first="blue")],
     {"wins": {"red": 0, "blue": 2}, "losses": {"red": 2, "blue": 0},
      "first_player_win_rate": 1.0, "zone_win_rates": {"blue": 1.0, "red": 0.0}}),
]


@pytest.mark.parametrize(("results", "expected"), CASES)
def test_summaries(results, expected):
    s = summarise(results, ["red", "blue"])
    for key, value in expected.items():
        assert s[key] == value, key
    for side in ("red", "blue"):
        for rate in ("win_rate", "loss_rate", "match_score"):
            lo, hi = s[f"{rate}_95"][side]
            assert lo <= s[rate][side] <= hi


def test_uses_are_per_battle():
    s = summarise([_r(0, "red"), _r(1, "red", uses={"red": {"shoot": 4, "run": 1}})],
                  ["red", "blue"])
    assert s["uses"]["red"] == {"shoot": 3.0, "run": 0.5} and s["uses"]["blue"] == {}


def test_wilson_with_halves():
    """A match score counts a draw as half a win: 2.5 of 5 is as even as 5 of 10, wider."""
    lo, hi = wilson(2.5, 5)
    assert lo + hi == pytest.approx(1.0)
    assert wilson(2, 5)[0] < lo < wilson(3, 5)[0] and lo < wilson(5, 10)[0]


@pytest.mark.parametrize(("n", "noted"), [(8, True), (100, True), (196, True), (197, False),
                                          (1000, False)])
def test_the_power_note(n, noted):
    p = power(n)
    assert ("note" in p) is noted
    assert p["battles_for_10_points"] == battles_needed() == 197
    if noted:
        assert p["note"].startswith(f"{n} battles cannot detect a 10-point bias")
    assert detectable(n) == pytest.approx(p["detectable_bias"], abs=1e-4)
