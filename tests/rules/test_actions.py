"""Actions round-trip through their dict form and read back clearly."""

import pytest

from battlefield.rules.actions import Action, ActionFormatError


@pytest.mark.parametrize("data", [
    {"type": "charge", "unit": "red-2", "target": "blue-1", "path": [[10, 4], [14.5, 9]]},
    {"type": "normal-move", "unit": "r", "paths": {"1": [[1, 2]], "2": [[3, 4], [5, 6]]}},
    {"type": "shoot", "unit": "r", "target": ["a", "b"], "weapon": "bows", "reroll": True},
    {"type": "skirmish", "unit": "r", "target": "b", "commit": {"red": 2, "blue": 0}},
    {"type": "end-phase", "side": "red"},
    {"type": "move", "unit": "r", "path": [[1, 2], [3, 4]], "facing": 90},
])
def test_round_trip(data):
    a = Action.from_dict(data)
    assert Action.from_dict(a.to_dict()) == a
    assert hash(a) == hash(Action.from_dict(a.to_dict()))


def test_repr_reads_like_the_call():
    a = Action.from_dict({"type": "charge", "unit": "red-2", "target": "blue-1",
                          "path": [[10, 4], [14.5, 9]]})
    assert repr(a) == ("Action('charge', unit='red-2', target='blue-1', "
                       "path=((10.0, 4.0), (14.5, 9.0)))")


@pytest.mark.parametrize(("data", "words"), [
    ({"unit": "x"}, "needs a \"type\""),
    ([1, 2], "JSON object"),
    ({"type": "move", "path": [[1]]}, "not an [x, y] point"),
    ({"type": "move", "path": []}, "list of [x, y] points"),
    ({"type": "move", "paths": {"0": [[1, 2]]}}, "not a model number"),
    ({"type": "move", "paths": [[1, 2]]}, "map model numbers"),
    ({"type": "move", "path": [[1, 2]], "facing": "north"}, "must be degrees"),
])
def test_bad_actions(data, words):
    with pytest.raises(ActionFormatError, match=words.replace("[", r"\[")):
        Action.from_dict(data)


def test_a_facing_is_degrees_from_0_to_360():
    a = Action.from_dict({"type": "move", "unit": "r", "path": [[1, 2]], "facing": -90})
    assert a.facing == 270.0 and a.to_dict()["facing"] == 270.0
    assert eval(repr(a), {"Action": Action}) == a
