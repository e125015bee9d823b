"""The server's one-line HTTP refusals, the same everywhere: `{"error": LINE}` with its status,
and 429 Too Many Requests with the seconds to wait (`retry_after` in the body, Retry-After in
the header) - answered, or raised from deep in a handler."""

from __future__ import annotations

from aiohttp import web

from battlefield.server import messages
from battlefield.server.limits import retry_after


def error(status: int, line: str) -> web.Response:
    """`{"error": LINE}` with `status`, the line on one line."""
    return web.json_response({"error": " ".join(line.split())}, status=status)


def too_many(line: str, seconds: float) -> web.Response:
    """429 with Retry-After: `line (in N s)`."""
    wait = retry_after(seconds)
    return web.json_response({"error": f"{line} (in {wait} s)", "retry_after": wait},
                             status=429, headers={"Retry-After": str(wait)})


def too_many_raised(line: str, seconds: float) -> web.HTTPTooManyRequests:
    """The same 429, as an exception to raise from deep in a handler."""
    wait = retry_after(seconds)
    return web.HTTPTooManyRequests(
        text=messages.dumps({"error": f"{line} (in {wait} s)", "retry_after": wait}),
        content_type="application/json", headers={"Retry-After": str(wait)})
