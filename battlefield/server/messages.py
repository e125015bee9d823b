"""The server's input boundary: every WebSocket frame and HTTP body from outside becomes a
checked message here (its size, its JSON, its types, finite numbers of a sane size, the
action read by Action.from_dict) or a one-line error for the sender. Past this module the
server trusts its values. The messages the server writes are built here too, so the protocol
is in one place (README "Play over the network" lists every one with an example)."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

from battlefield.rules.actions import Action

MAX_FRAME = 64 * 1024            # bytes in one WebSocket frame (larger: an error message)
MAX_BODY = 2 * 1024 * 1024       # bytes in a POST /games body (a scene's text)
MAX_DEPTH = 32                   # nesting of JSON arrays and objects
MAX_NUMBER = 1e12                # |number| anywhere in a message (inches, ids, versions)
MAX_ID = 128                     # characters of a client's act id
MAX_SEED = 2 ** 64 - 1

CLIENT_TYPES = ("act", "resume")


class FrameError(ValueError):
    """A frame or body that cannot be used: one line saying what was expected."""


@dataclass(frozen=True)
class Act:
    """`{"type": "act", "id": CLIENT_ID, "action": ACTION}`."""

    id: str | int
    action: Action
    raw: dict[str, Any]          # the action as sent (answered back in a refusal)

    @property
    def key(self) -> str:
        """The id as the server stores it (a number and its text are different ids)."""
        return json.dumps(self.id)


@dataclass(frozen=True)
class Resume:
    """`{"type": "resume", "since": N}`."""

    since: int


def _loads(text: str | bytes, what: str) -> Any:
    def constant(name: str) -> Any:
        raise FrameError(f"{what}: {name} is not a number JSON allows")

    try:
        value = json.loads(text, parse_constant=constant)
    except FrameError:
        raise
    except RecursionError:
        raise FrameError(f"{what}: nested too deeply (at most {MAX_DEPTH} levels)") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        msg = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8 text"
        raise FrameError(f"{what}: not JSON ({msg})") from None
    _check_values(value, what, 0)
    return value


def _check_values(value: Any, what: str, depth: int) -> None:
    """Nesting depth, and every number finite and of a sane size."""
    if depth > MAX_DEPTH:
        raise FrameError(f"{what}: nested too deeply (at most {MAX_DEPTH} levels)")
    if isinstance(value, dict):
        for v in value.values():
            _check_values(v, what, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_values(v, what, depth + 1)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            raise FrameError(f"{what}: {value} is not a finite number")
        if abs(value) > MAX_NUMBER:
            raise FrameError(f"{what}: {value} is out of range (at most {MAX_NUMBER:g})")


def read_frame(data: str | bytes) -> Act | Resume:
    """A client's WebSocket frame as a message, or FrameError with one line."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > MAX_FRAME:
        raise FrameError(f"frame of {size} bytes is too large (at most {MAX_FRAME})")
    msg = _loads(data, "frame")
    if not isinstance(msg, dict):
        raise FrameError(f"frame: expected a JSON object with a \"type\" "
                         f"({' or '.join(CLIENT_TYPES)}), not {type(msg).__name__}")
    kind = msg.get("type")
    if kind == "act":
        for key in ("id", "action"):
            if key not in msg:
                raise FrameError(f"act: missing \"{key}\" (expected {{\"type\": \"act\", "
                                 f"\"id\": ID, \"action\": {{...}}}})")
        cid = msg["id"]
        if isinstance(cid, bool) or not isinstance(cid, (str, int)) or (
                isinstance(cid, str) and not 0 < len(cid) <= MAX_ID):
            raise FrameError(f"act: \"id\" must be a whole number or text of 1 to {MAX_ID} "
                             f"characters, not {json.dumps(cid)[:40]}")
        raw = msg["action"]
        if not isinstance(raw, dict):
            raise FrameError(f"act {json.dumps(cid)}: \"action\" must be a JSON object as "
                             f"`battlefield try --action` takes")
        try:
            action = Action.from_dict(raw)
        except Exception as exc:     # ActionFormatError, and whatever a reader may raise
            raise FrameError(f"act {json.dumps(cid)}: the action cannot be read: "
                             f"{_one_line(str(exc))}") from None
        return Act(cid, action, raw)
    if kind == "resume":
        since = msg.get("since")
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise FrameError("resume: \"since\" must be a version, a whole number 0 or more "
                             "(expected {\"type\": \"resume\", \"since\": N})")
        return Resume(since)
    if kind is None:
        raise FrameError(f"frame: missing \"type\" (one of {', '.join(CLIENT_TYPES)})")
    raise FrameError(f"frame: unknown type {json.dumps(kind)[:40]} "
                     f"(one of {', '.join(CLIENT_TYPES)})")


def read_new_game(body: bytes) -> tuple[str, int | None]:
    """POST /games: (the scene's name or text, the seed or None)."""
    if len(body) > MAX_BODY:
        raise FrameError(f"body of {len(body)} bytes is too large (at most {MAX_BODY})")
    data = _loads(body, "body") if body.strip() else None
    if not isinstance(data, dict) or "scene" not in data:
        raise FrameError("body: expected {\"scene\": NAME_OR_YAML, \"seed\": N} "
                         "(seed optional)")
    scene, seed = data["scene"], data.get("seed")
    if not isinstance(scene, str) or not scene.strip():
        raise FrameError("scene: expected a bundled scene's name or a scene file's text")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                             or not 0 <= seed <= MAX_SEED):
        raise FrameError(f"seed: expected a whole number 0 .. 2**64 - 1, not {seed!r}")
    return scene, seed


def read_server(data: str | bytes) -> dict[str, Any]:
    """A server's frame, for the clients (bot, window): a JSON object with a type."""
    msg = _loads(data, "server frame")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise FrameError("server frame: expected a JSON object with a \"type\"")
    return msg


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- what the server writes ----------------------------------------------------------------------
def seed_sha256(seed: int) -> str:
    """The SHA-256 of the seed written in decimal: said at the start, checked at the end."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": _one_line(message)}


def refused(cid: str | int, violations: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "refused", "id": cid, "violations": violations}


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))
