"""A client's first connection that cannot be made is said at once, with the reason: the
window's `play --join` and `battlefield bot` alike (a later drop is tried again: test_serve)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from battlefield.cli.main import main
from battlefield.client.link import GaveUp, Link


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refused_first_connection_gives_up_at_once() -> None:
    link = Link(f"ws://127.0.0.1:{_closed_port()}/games/g/play?seat=s", patience=3600)

    async def first() -> None:
        async for _ in link:
            pytest.fail("no message from a server that is not there")

    with pytest.raises(GaveUp, match=r"cannot connect \(connection refused\)"):
        asyncio.run(first())


@pytest.mark.parametrize("argv", [
    ["bot", "URL", "--patience", "86400"],
    ["play", "--join", "URL", "--screenshot", "joined.png"],
])
def test_the_commands_say_a_refused_connection_in_one_line(argv: list[str], tmp_path,
                                                           monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    url = f"ws://127.0.0.1:{_closed_port()}/games/g/play?seat=s"
    assert main([url if a == "URL" else a for a in argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "cannot connect (connection refused)" in err and url in err, err
    assert not (tmp_path / "joined.png").exists()
