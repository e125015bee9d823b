"""A mistyped name and the valid name closest to it: every "no such unit / scene / map /
ruleset / command" message says `did you mean NAME?` with the closest valid name right after
those words, after the list of valid ones (which the message keeps as it was)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# How alike (difflib's ratio, 0..1, case ignored) a valid name must be to be offered: a typo,
# a letter missing or doubled, a suffix left off ("aos" for aos4, "red-blade" for red-blades),
# not any name at all.
ALIKE = 0.5


def closest(name: str, valid: Iterable[str]) -> str | None:
    """The valid name most like `name` (a prefix or the same name in another case first), or
    None when none is alike enough (ALIKE) or `name` is itself valid."""
    names = [str(v) for v in valid]
    if not name or name in names:
        return None
    low = name.lower()
    same = [v for v in names if v.lower() == low]
    if same:
        return same[0]
    best, score = None, ALIKE
    for v in names:
        r = difflib.SequenceMatcher(None, low, v.lower()).ratio()
        if v.lower().startswith(low) or low.startswith(v.lower()):
            r = max(r, ALIKE + 1e-9)      # a name cut short or run on is always offered
        if r > score:
            best, score = v, r
    return best


def did_you_mean(name: str, valid: Iterable[str]) -> str:
    """'did you mean NAME?' for the closest valid name, or '' when there is none."""
    near = closest(name, valid)
    return f"did you mean {near}?" if near else ""


def after(name: str, valid: Iterable[str], sep: str = "; ") -> str:
    """`sep` + 'did you mean NAME?', or '': to follow a message that says `name` is unknown."""
    said = did_you_mean(name, valid)
    return sep + said if said else ""


def model_names(units: Iterable[tuple[str, int]]) -> list[str]:
    """Every model's name 'UNIT/N' of (unit id, model count) pairs: a model id's candidates."""
    return [f"{uid}/{k}" for uid, n in units for k in range(1, n + 1)]


__all__ = ["closest", "did_you_mean", "after", "model_names", "ALIKE"]
