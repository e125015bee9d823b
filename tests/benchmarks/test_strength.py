"""benchmarks/strength.py as a smoke test: a match of each kind on one ruleset, its figures and
README's tables made from them. Strength is never asserted here (the benchmark measures it)."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import strength  # noqa: E402


def test_every_figure_is_made_and_tabled(monkeypatch):
    from battlefield.rules import search

    monkeypatch.setattr(search, "ROLLOUTS", 1)       # a smoke test: the least search there is
    monkeypatch.setattr(search, "DEPTH", 4)
    out = strength.run(["skirmish"], games=1, strong_games=1, workers=1)
    row = out["rulesets"]["skirmish"]
    for key in ("normal_vs_random", "easy_vs_random", "strong_vs_normal"):
        m = row[key]
        assert m["games"] == 2 and set(m["per_side"]) == {"red", "blue"}
        assert m["wins"] + m["draws"] + m["losses"] == 2
        lo, hi = m["score_95"]
        assert 0 <= lo <= m["score"] <= hi <= 1
        assert all(k not in m["uses"] for k in ("end-turn", "decline", "commit"))
    assert set(out["targets_met"]) == {"skirmish.normal_vs_random_min",
                                       "skirmish.strong_vs_normal_score"}
    table = strength.markdown(out)
    assert "| skirmish |" in table and "| skirmish | strong |" in table


def test_runs_written_apart_are_tabled_together(tmp_path, monkeypatch):
    from battlefield.rules import search

    monkeypatch.setattr(search, "ROLLOUTS", 1)
    monkeypatch.setattr(search, "DEPTH", 4)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    strength.run(["skirmish"], games=1, strong_games=0, workers=1, easy=False, out_path=str(a))
    strength.run(["openwg"], games=1, strong_games=0, workers=1, easy=False, out_path=str(b))
    out = strength.merged([str(a), str(b)])
    assert set(out["rulesets"]) == {"skirmish", "openwg"}
    assert "easy_vs_random" not in out["rulesets"]["openwg"]
    table = strength.markdown(out)
    assert "| skirmish |" in table and "| openwg |" in table


def test_a_match_keeps_its_figures_after_each_few_battles(monkeypatch):
    monkeypatch.setattr(strength, "CHUNK", 1)
    kept: list[dict] = []
    out = strength.match("skirmish", "normal", "random", 2, 1, kept.append)
    assert [k["games"] for k in kept] == [2, 4] and kept[-1] == out
    assert [k["per_side"]["red"]["games"] for k in kept] == [1, 2]


def test_a_rulesets_matches_from_two_runs_are_tabled_together(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    played = {"games": 2, "score": 0.5, "min_side_win_rate": 1.0}
    a.write_text(json.dumps({"rulesets": {"skirmish": {"normal_vs_random": played}}}))
    b.write_text(json.dumps({"rulesets": {"skirmish": {"strong_vs_normal": played}}}))
    out = strength.merged([str(a), str(b)])
    assert set(out["rulesets"]["skirmish"]) == {"normal_vs_random", "strong_vs_normal"}
    assert out["targets_met"] == {"skirmish.normal_vs_random_min": True,
                                  "skirmish.strong_vs_normal_score": False}
