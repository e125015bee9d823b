"""Property: whatever a client sends, the server's message handler answers every frame with an
`event`, a `refused` or an `error` (a well-formed `resume`: the events missed, none when none
were; an error when it is since a version the game has not reached), keeps serving, and a
`refused` or an `error` leaves the game exactly as it was (its version, its log and the state's
fingerprint). Which one is decided here apart from the server, as README "Play over the network"
says: a frame that is not a message (not JSON, nested too deep, no known type, an act without a
usable id or an action) is an `error`; an act from a seat is never an `error` - its action is
the engine's to take or refuse, and one holding a number that is not finite or too big for any
field is `refused` with `bad_field` violations only. Frames are generated for every playable
ruleset: text that is not JSON, JSON of every shape, and `act` frames whose actions are of every
type the ruleset's vocabulary declares, with real and made-up ids and hostile values (non-finite
numbers, huge ones, the boundary's own limits and one past them, wrong types, deep nesting). The
examples are the same alone and in the whole suite (derandomize, no database; tests/conftest.py
keeps Hypothesis from mixing in constants of whichever modules happen to be imported)."""

from __future__ import annotations

import asyncio
import json
import math
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlefield.errors import UsageError
from battlefield.inputs import MAX_COORD, MAX_DIGITS, MAX_NUMBER, HugeNumber, loads
from battlefield.rules import registry
from battlefield.scene.load import load_scene_text
from battlefield.server.app import Server
from battlefield.server.games import LiveGame
from battlefield.server.limits import Limits

from ._serve import PLAYABLE, short_battle

EXAMPLES = int(os.environ.get("BATTLEFIELD_PROPERTY_EXAMPLES", "40"))


class Listener:
    """A client as the handler sees it: a seat and the messages sent to it."""

    def __init__(self, seat: str | None) -> None:
        self.seat = seat
        self.ignored = 0
        self.sent: list[dict[str, Any]] = []

    def send(self, msg: dict[str, Any] | str) -> None:
        self.sent.append(json.loads(msg) if isinstance(msg, str) else msg)

    def backlog(self, game: LiveGame, since: int, upto: int) -> None:
        for record in game.records[since:upto]:
            self.send(record.message(self.seat))


HOSTILE_NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**30, 10**30),
    st.sampled_from([0, -1, 1e308, -1e308, 10**400, MAX_COORD, MAX_COORD + 1e-6, MAX_NUMBER,
                     MAX_NUMBER + 1, 1e12 + 1, 10 ** MAX_DIGITS - 1, 10 ** MAX_DIGITS]))
SCALARS = st.one_of(st.none(), st.booleans(), HOSTILE_NUMBERS, st.text(max_size=12))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def _actions(ruleset: str, ids: list[str], sides: list[str]) -> st.SearchStrategy[dict]:
    """Action dictionaries of every type the ruleset declares, fields real or hostile."""
    types = sorted(a.id for a in registry.get(ruleset).spec.actions) or ["end-phase"]
    point = st.tuples(HOSTILE_NUMBERS, HOSTILE_NUMBERS).map(list)
    fair = st.tuples(st.floats(0, 60), st.floats(0, 44)).map(list)
    path = st.lists(st.one_of(fair, point, JSON), min_size=0, max_size=4)
    field = st.fixed_dictionaries({}, optional={
        "unit": st.one_of(st.sampled_from(ids), st.text(max_size=6), JSON),
        "target": st.one_of(st.sampled_from(ids), JSON),
        "side": st.one_of(st.sampled_from(sides), JSON),
        "path": st.one_of(path, JSON),
        "facing": st.one_of(HOSTILE_NUMBERS, JSON),
        "weapon": st.one_of(st.text(max_size=8), JSON),
        "paths": st.dictionaries(st.sampled_from(["1", "2", "x"]), path, max_size=2),
    })
    return st.tuples(st.sampled_from(types + ["nonsense"]), field).map(
        lambda tf: {"type": tf[0], **tf[1]})


def _frames(ruleset: str, ids: list[str], sides: list[str]) -> st.SearchStrategy[str]:
    act = st.tuples(st.one_of(st.integers(0, 10**6), st.text(min_size=1, max_size=8), JSON),
                    _actions(ruleset, ids, sides)).map(
        lambda ia: json.dumps({"type": "act", "id": ia[0], "action": ia[1]}))
    other = st.one_of(
        st.text(max_size=40),                                          # not JSON, mostly
        JSON.map(json.dumps),                                          # any JSON at all
        st.fixed_dictionaries({"type": st.sampled_from(["act", "resume", "hello", "x"])},
                              optional={"since": JSON, "id": JSON, "action": JSON}
                              ).map(json.dumps),
        st.integers(1, 6000).map(lambda n: "[" * n + "]" * n),         # deep nesting
    )
    return st.one_of(act, act, other)


def _read(frame: str) -> Any:
    """The frame as JSON the way the boundary reads outside text, or UsageError."""
    return loads(frame, "frame")


def _resume(frame: str) -> dict[str, Any] | None:
    """The frame as a well-formed resume, else None."""
    try:
        msg = _read(frame)
    except UsageError:
        return None
    since = msg.get("since") if isinstance(msg, dict) and msg.get("type") == "resume" else None
    ok = isinstance(since, int) and not isinstance(since, bool) and since >= 0
    return msg if ok else None


def _act(frame: str) -> dict[str, Any] | None:
    """The frame as a well-formed act (an id of whole number or 1..128 characters of text, and
    an action of any shape), else None."""
    try:
        msg = _read(frame)
    except UsageError:
        return None
    if not (isinstance(msg, dict) and msg.get("type") == "act" and "action" in msg):
        return None
    cid = msg.get("id")
    ok = (isinstance(cid, int) and not isinstance(cid, bool)) or (
        isinstance(cid, str) and 0 < len(cid) <= 128)
    return msg if ok else None


def _hostile(value: Any) -> bool:
    """A number anywhere in `value` that no field of any action may hold."""
    if isinstance(value, dict):
        return any(_hostile(v) for v in value.values())
    if isinstance(value, list):
        return any(_hostile(v) for v in value)
    if isinstance(value, float):
        return not math.isfinite(value)
    return isinstance(value, HugeNumber)


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_every_frame_is_answered_and_only_an_event_changes_the_game(ruleset, tmp_path):
    text = short_battle(ruleset)
    scene = load_scene_text(text, "t")
    sides = list(scene.sides)
    ids = [u.id for u in scene.units]
    # The handler itself, without the rate limits (tests/server/test_attacks.py has those).
    server = Server(tmp_path / "games.sqlite", Limits(frames_burst=10**9, engine_burst_s=1e9))
    loop = asyncio.new_event_loop()
    seats = LiveGame.new_seats(sides)
    server.store.create("g1", ruleset, text, "t", 7, seats, 0.0)
    game = LiveGame("g1", ruleset, text, "t", 7, seats)
    server.games["g1"] = game

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(frame=_frames(ruleset, ids, sides), seat=st.sampled_from([*sides, None]))
    def one(frame: str, seat: str | None) -> None:
        client = Listener(seat)
        version, before = game.version, game.state.fingerprint()
        act = _act(frame)
        resend = act is not None and seat is not None and game.answered(
            seat, json.dumps(act["id"])) is not None
        game.clients.add(client)          # as a connected client: events are broadcast to it
        try:
            loop.run_until_complete(server.frame(game, client, frame))
        finally:
            game.clients.discard(client)
        kinds = [m["type"] for m in client.sent]
        if _resume(frame):               # what was missed since N (nothing, when nothing was)
            since = _resume(frame)["since"]     # past the game's version: an error, not "in step"
            assert kinds == (["event"] * (version - since) if since <= version else ["error"])
            assert game.version == version and game.state.fingerprint() == before
            return
        assert client.sent, f"no answer to {frame[:80]!r}"
        assert kinds[0] in ("event", "refused", "error"), kinds
        if act is None:
            assert kinds == ["error"], (frame[:200], client.sent)
        else:
            assert kinds[0] in ("event", "refused"), (frame[:200], client.sent)
            if seat is not None and not resend and _hostile(act["action"]):
                assert kinds == ["refused"], (frame[:200], client.sent)
                assert {v["code"] for v in client.sent[0]["violations"]} == {"bad_field"}
                assert all("field" in v for v in client.sent[0]["violations"])
        if kinds[0] != "event":
            assert len(client.sent) == 1 and game.version == version
            assert game.state.fingerprint() == before
            answer = client.sent[0]
            if kinds[0] == "refused":
                assert answer["violations"] and all(
                    v["code"] and v["message"] for v in answer["violations"])
            else:
                assert answer["message"] and "\n" not in answer["message"]
        else:                            # applied, or a resent act answered with its event
            assert kinds in (["event"], ["event", "over"])
            assert game.version == version + 1 or (
                client.sent[0]["version"] <= version and game.state.fingerprint() == before)

    try:
        one()
    finally:
        server.engine.close()
        server.store.close()
        loop.close()
