"""The server's frames read through the one boundary (battlefield.inputs): what is an `error`
(not a message at all), what is left for the engine to refuse (the action of an act), and
what the server writes (strict JSON) and its clients read (any size of number JSON allows)."""

from __future__ import annotations

import math

import pytest

from battlefield.rules import boundary
from battlefield.scene.load import load_scene
from battlefield.server import messages
from battlefield.server.messages import Act, FrameError, Resume, read_frame


@pytest.mark.parametrize("frame, words", [
    ("not json", "not JSON"),
    ("[" * 40 + "]" * 40, "nested more than 32"),
    ('{"type": "act", "id": 1' + "0" * 40 + ', "action": {}}', "<a number of 41 digits>"),
    ('{"type": "act", "id": NaN, "action": {}}', "nan"),
    ('{"type": "resume", "since": 1e999}', "since"),
    ('{"type": "resume", "since": 1' + "0" * 40 + "}", "since"),
    ('{"type": [NaN]}', "unknown type"),
    (b"\xff\xfe", "not UTF-8"),
    ('{"type": "resume", "since": 0, "since": 9}', "key 'since' is given twice"),
    ('{"type": "act", "id": 1, "action": {"type": "stop", "type": "move"}}',
     "key 'type' is given twice"),
])
def test_a_frame_that_is_not_a_message_is_one_line(frame, words):
    with pytest.raises(FrameError) as exc:
        read_frame(frame)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_the_action_of_an_act_is_the_engines_to_refuse():
    act = read_frame('{"type": "act", "id": 7, "action": {"type": "normal-move", '
                     '"unit": "red-lancers", "path": [[1, NaN], [2, 1e13]]}}')
    assert isinstance(act, Act) and act.id == 7 and math.isnan(act.raw["path"][0][1])
    refused = boundary.read(act.raw, load_scene("maps/demo.yaml"))
    assert isinstance(refused, boundary.Refused)
    (v,) = refused.violations
    assert (v.code, v.field) == ("bad_field", "path[0][1]")


def test_a_resume_reads_its_version_and_nothing_else():
    assert read_frame('{"type": "resume", "since": 0, "action": 1000000000001.0, '
                      '"x": NaN}') == Resume(0)
    assert read_frame('{"type": "resume", "since": 123456789012345}') == \
        Resume(123456789012345)


def test_seeds_of_64_bits_are_read_both_ways():
    assert messages.read_new_game(b'{"scene": "demo", "seed": 18446744073709551615}') == \
        ("demo", 2 ** 64 - 1)
    over = messages.dumps({"type": "over", "version": 3, "seed": 2 ** 63 - 1})
    assert messages.read_server(over)["seed"] == 2 ** 63 - 1
    with pytest.raises(FrameError, match="not finite"):
        messages.read_server('{"type": "event", "events": [{"distance": NaN}]}')


def test_what_the_server_writes_is_strict_json():
    with pytest.raises(ValueError):
        messages.dumps({"type": "event", "events": [{"distance": math.inf}]})
