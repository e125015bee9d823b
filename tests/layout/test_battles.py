"""--battles: the demo armies fight on a table from both ends, on simulate's machinery."""

import yaml

from battlefield.layout.battles import play_both_ways, swapped
from battlefield.paths import find_map


def test_the_zones_swap():
    text = find_map("warband").read_text()
    before, after = yaml.safe_load(text), yaml.safe_load(swapped(text))
    assert after["deployment"]["red"] == before["deployment"]["blue"]
    assert after["deployment"]["blue"] == before["deployment"]["red"]
    assert after["terrain"] == before["terrain"]


def test_battles_from_both_ends_report_win_rates_with_intervals():
    out = play_both_ways(find_map("warband"), "warband", 2, 5, workers=1)
    assert out["games"] == 2 and [d["games"] for d in out["deployments"]] == [1, 1]
    assert [d["deployment"] for d in out["deployments"]] == ["as written", "swapped"]
    assert sum(out["wins"].values()) + out["draws"] == 2
    for side in ("red", "blue"):
        lo, hi = out["win_rate_95"][side]
        assert 0 <= lo <= out["win_rate"][side] <= hi <= 1
