"""The closest valid name to a mistyped one (battlefield.names): what "did you mean" offers."""

from __future__ import annotations

import pytest

from battlefield.names import after, closest, did_you_mean, model_names

UNITS = ["red-archers", "red-blades", "red-wyrm", "blue-drake", "blue-riders"]


@pytest.mark.parametrize(("typed", "valid", "offered"), [
    ("red-blade", UNITS, "red-blades"),          # a letter left off
    ("red-bladez", UNITS, "red-blades"),         # a letter wrong
    ("RED-WYRM", UNITS, "red-wyrm"),             # another case
    ("blue-drak", UNITS, "blue-drake"),
    ("aos", ["aos4", "blocks", "openwg", "skirmish", "warband"], "aos4"),   # cut short
    ("checks", ["check", "measure", "render", "try"], "check"),             # run on
    ("demoo", ["aos4", "demo", "demo-blocks", "demo-openwg"], "demo"),
    ("red-archers/30", model_names([("red-archers", 8)]), "red-archers/3"),
    ("red-archer/3", model_names([("red-archers", 8), ("red-blades", 5)]), "red-archers/3"),
    ("zzzzzz", UNITS, None),                     # nothing alike: nothing offered
    ("red-blades", UNITS, None),                 # valid: nothing to offer
    ("", UNITS, None),
])
def test_the_closest_valid_name_is_offered(typed: str, valid: list[str],
                                           offered: str | None) -> None:
    assert closest(typed, valid) == offered
    assert did_you_mean(typed, valid) == (f"did you mean {offered}?" if offered else "")
    assert after(typed, valid) == (f"; did you mean {offered}?" if offered else "")


def test_model_names_are_unit_slash_number() -> None:
    assert model_names([("a", 2), ("b", 1)]) == ["a/1", "a/2", "b/1"]
