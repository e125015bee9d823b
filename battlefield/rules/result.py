"""How a battle ended, the same for every ruleset: the winner (None: a draw), why, and the
scores by name (aos4: victory_points; skirmish: morale), with the one that decides named.

A Result reads as a mapping too (its JSON form), so `--json` output, saved logs and Monte Carlo
summaries take it as they are: {"winner", "by", "score", "scores", SCORE: {side: n}, "round",
and the ruleset's details}."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Result(Mapping):
    winner: str | None
    by: str
    score: str                                   # the deciding score's name
    scores: dict[str, dict[str, float]]          # score name -> side -> value
    round: int
    details: dict[str, Any] = field(default_factory=dict)   # e.g. objectives held at the end

    def __post_init__(self) -> None:
        if self.score not in self.scores:
            raise ValueError(f"the deciding score {self.score!r} is not among the scores "
                             f"({', '.join(self.scores)})")

    @property
    def points(self) -> dict[str, float]:
        """Each side's deciding score."""
        return self.scores[self.score]

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "by": self.by, "score": self.score,
                "scores": {k: dict(v) for k, v in self.scores.items()},
                **{k: dict(v) for k, v in self.scores.items()},
                "round": self.round, **self.details}

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())


def label(score: str) -> str:
    """A score's name for people: victory_points -> victory points."""
    return score.replace("_", " ")


def decide(standing: list[str], score: Mapping[str, float], *, alone: str, none: str,
           more: str, equal: str) -> tuple[str | None, str]:
    """(winner, why) of a battle won by being the last side on the table, else by the most of
    `score` (equal: a draw); the four texts say why in the ruleset's words."""
    if len(standing) == 1:
        return standing[0], alone
    if not standing:
        return None, none
    best = max(score.values())
    top = [s for s, n in score.items() if n == best]
    return (top[0], more) if len(top) == 1 else (None, equal)

