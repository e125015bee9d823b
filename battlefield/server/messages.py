"""The server's input boundary: every WebSocket frame and HTTP body from outside is read by
the one boundary for outside data (battlefield.inputs.loads: its size, its nesting, JSON) and
its envelope checked here (the type, an act's id, a resume's version) or it is an `error` for
the sender. The action inside an act is the engine's to read: rules.boundary.read makes it an
Action or refuses it with `bad_field` violations naming the field (a NaN, a huge number, a
wrong type), which the server sends as `refused`, as `try --action` prints ILLEGAL. The
messages the server writes are built here too, so the protocol is in one place (README "Play
over the network" lists every one with an example)."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

from battlefield import inputs
from battlefield.errors import UsageError
from battlefield.inputs import HugeNumber, shown
from battlefield.rules.dice import seed_text

MAX_FRAME = 64 * 1024            # bytes in one WebSocket frame (larger: an error message)
MAX_BODY = 2 * 1024 * 1024       # bytes in a POST /games body (a scene's text)
MAX_ID = 128                     # characters of a client's act id
MAX_SEED = 2 ** 64 - 1

CLIENT_TYPES = ("act", "resume", "preview", "offers", "retract")


class FrameError(ValueError):
    """A frame or body that cannot be used: one line saying what was expected."""


@dataclass(frozen=True)
class Act:
    """`{"type": "act", "id": CLIENT_ID, "action": ACTION}`: the action as sent, for
    rules.boundary.read to make an Action of against the game's scene."""

    id: str | int
    raw: Any

    @property
    def key(self) -> str:
        """The id as the server stores it (a number and its text are different ids)."""
        return json.dumps(self.id)


@dataclass(frozen=True)
class Resume:
    """`{"type": "resume", "since": N}`."""

    since: int


@dataclass(frozen=True)
class Preview:
    """`{"type": "preview", "id": X, "action": ACTION}`: what the action would be, asked of
    the engine without doing it (server/preview.py); the action is read as an act's is.
    `"rest": false` (optional): a unit on the move, its costly rulings left for at rest."""

    id: str | int
    raw: Any
    rest: bool = True


@dataclass(frozen=True)
class Offers:
    """`{"type": "offers"}`: what this seat may do now, for the play page (server/offers.py)."""


@dataclass(frozen=True)
class Retract:
    """`{"type": "retract", "id": X, "version": V}`: the seat takes back its own actions after
    version V (optional: its last action), back to - never past - the last one the other side
    answered (server/games.LiveGame.retract says what may be taken back)."""

    id: str | int
    version: int | None = None


def _loads(data: str | bytes, what: str, limit: int | None) -> Any:
    """JSON from outside through the one boundary: FrameError with its line when it is too
    long, nested too deep or not JSON (non-finite numbers are read, for the fields' checks)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise FrameError(f"{what}: not JSON (not UTF-8 text)") from None
    try:
        return inputs.loads(data, what, limit)
    except UsageError as exc:
        raise FrameError(str(exc)) from None


def read_frame(data: str | bytes) -> Act | Resume | Preview | Offers | Retract:
    """A client's WebSocket frame as a message, or FrameError with one line. The action of an
    act is not read here: a bad field of it is the engine's refusal, not a frame error."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > MAX_FRAME:
        raise FrameError(f"frame of {size} bytes is too large (at most {MAX_FRAME})")
    msg = _loads(data, "frame", None)
    if not isinstance(msg, dict):
        raise FrameError(f"frame: expected a JSON object with a \"type\" "
                         f"({' or '.join(CLIENT_TYPES)}), not {type(msg).__name__}")
    kind = msg.get("type")
    if kind in ("act", "preview"):
        for key in ("id", "action"):
            if key not in msg:
                raise FrameError(f"{kind}: missing \"{key}\" (expected {{\"type\": "
                                 f"\"{kind}\", \"id\": ID, \"action\": {{...}}}})")
        cid = msg["id"]
        if isinstance(cid, bool) or not isinstance(cid, (str, int)) or (
                isinstance(cid, str) and not 0 < len(cid) <= MAX_ID):
            raise FrameError(f"{kind}: \"id\" must be a whole number or text of 1 to {MAX_ID} "
                             f"characters, not {_quoted(cid)}")
        if kind == "act":
            return Act(cid, msg["action"])
        return Preview(cid, msg["action"], msg.get("rest") is not False)
    if kind == "offers":
        return Offers()
    if kind == "retract":
        cid, version = msg.get("id"), msg.get("version")
        if isinstance(cid, bool) or not isinstance(cid, (str, int)) or (
                isinstance(cid, str) and not 0 < len(cid) <= MAX_ID):
            raise FrameError(f"retract: \"id\" must be a whole number or text of 1 to {MAX_ID} "
                             f"characters, not {_quoted(cid)} (expected {{\"type\": "
                             f"\"retract\", \"id\": ID, \"version\": V}})")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)
                                    or version < 0):
            raise FrameError("retract: \"version\" must be a version, a whole number 0 or "
                             "more (the game as it was after that action)")
        return Retract(cid, version)
    if kind == "resume":
        since = msg.get("since")
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise FrameError("resume: \"since\" must be a version, a whole number 0 or more "
                             "(expected {\"type\": \"resume\", \"since\": N})")
        return Resume(since)
    if kind is None:
        raise FrameError(f"frame: missing \"type\" (one of {', '.join(CLIENT_TYPES)})")
    raise FrameError(f"frame: unknown type {_quoted(kind)} (one of {', '.join(CLIENT_TYPES)})")


def read_body(body: bytes) -> Any:
    """An HTTP body from outside as JSON (None when empty), or FrameError with one line."""
    if len(body) > MAX_BODY:
        raise FrameError(f"body of {len(body)} bytes is too large (at most {MAX_BODY})")
    return _loads(body, "body", None) if body.strip() else None


def read_new_game(body: bytes) -> tuple[str, int | None]:
    """POST /games: (the scene's name or text, the seed the creator chose or None)."""
    if len(body) > MAX_BODY:
        raise FrameError(f"body of {len(body)} bytes is too large (at most {MAX_BODY})")
    data = _loads(body, "body", None) if body.strip() else None
    if not isinstance(data, dict) or "scene" not in data:
        raise FrameError("body: expected {\"scene\": NAME_OR_YAML, \"seed\": N} "
                         "(seed optional)")
    scene, seed = data["scene"], data.get("seed")
    if not isinstance(scene, str) or not scene.strip():
        raise FrameError("scene: expected a bundled scene's name or a scene file's text")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                             or not 0 <= seed <= MAX_SEED):
        raise FrameError(f"seed: expected a whole number 0 .. 2**64 - 1, not {shown(seed, 40)}")
    return scene, seed


def read_server(data: str | bytes) -> dict[str, Any]:
    """A server's frame, for the clients (bot, window): a JSON object with a type, every
    number in it finite (any size: a server's hello holds a whole position)."""
    msg = _loads(data, "server frame", None)
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise FrameError("server frame: expected a JSON object with a \"type\"")
    if not _finite(msg):
        raise FrameError("server frame: a number in it is not finite")
    return msg


def resume_past(since: int, version: int) -> str:
    """The error for a resume since a version the game has not reached."""
    return (f"resume: since {shown(since, 40)} is past this game's version {version} (a "
            f"client has seen at most the game's version: resume since {version} or less)")


def _finite(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return not isinstance(value, HugeNumber)


def _quoted(value: Any) -> str:
    """A value of a frame quoted in an error: as JSON when it is plain, cut to 40 characters."""
    try:
        return inputs.dumps(value)[:40]
    except (TypeError, ValueError):
        return shown(value, 40)


def quoted(value: Any) -> str:
    """A value from outside as an error line quotes it (JSON when plain, 40 characters)."""
    return _quoted(value)


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- what the server writes ----------------------------------------------------------------------
def seed_sha256(seed: int | str) -> str:
    """The SHA-256 of the seed's text (a number in decimal, a string as it is): said at the
    start, checked at the end."""
    return hashlib.sha256(seed_text(seed).encode("utf-8")).hexdigest()


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": _one_line(message)}


def refused(cid: str | int, violations: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "refused", "id": cid, "violations": violations}


def slow_down(message: str, seconds: int, cid: str | int | None = None) -> dict[str, Any]:
    """An error for a frame the server did not read for the rate (limits.py): what was
    asked too often, `retry_after` the whole seconds to wait, and an act's `id` (that act was
    not taken: it is sent again after the wait, as HTTP's 429 and Retry-After say)."""
    msg = {**error(message), "retry_after": seconds}
    if cid is not None:
        msg["id"] = cid
    return msg


def dumps(msg: dict[str, Any]) -> str:
    """A message as strict JSON (a NaN or infinity is an error here, never sent)."""
    return inputs.dumps(msg, separators=(",", ":"))
