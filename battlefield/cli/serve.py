"""`battlefield serve`: the game server (battlefield/server), HTTP and WebSocket in one process."""

from __future__ import annotations

import argparse
from urllib.parse import urlsplit

from battlefield.errors import UsageError

EPILOG = """\
routes:
  POST /games {"scene": NAME_OR_YAML, "seed": N, "computer": SIDE}
                                                   -> 201 {game, ruleset, seats, watch, join}
  GET  /games/ID/play?seat=TOKEN (a browser)       the seat's play page (its join link)
  GET  /board?scene=NAME, GET /board/ID            a board to arrange and share
  POST /boards {"scene": NAME_OR_YAML}             -> 201 {board, url}
  GET  /games                                      -> {"games": [{id, ruleset, version, over}]}
  GET  /games/ID                                   -> the game as JSON; in a browser its
                                                      live page
  GET  /games/ID/versions?since=N                  -> the versions a spectator may see
  GET  /games/ID/log                               -> the log (409 until the game is over)
  GET  /                                           -> a page listing the games
  ws://HOST:PORT/games/ID/play?seat=TOKEN          a seat (no seat: a spectator)

examples:
  battlefield serve --port 8765 --db games.sqlite
  curl -d '{"scene": "demo-skirmish", "seed": 3}' http://127.0.0.1:8765/games
  battlefield bot 'ws://127.0.0.1:8765/games/ID/play?seat=TOKEN'"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="run a game server: two players (or a player and the computer) across a network",
        description="Run the game server: it makes games of a scene, gives each side a secret "
                    "seat token, checks every action with the rules engine, rolls the dice, "
                    "stores every accepted action in an SQLite file before telling anyone, and "
                    "sends each player and spectator what they may see. Its first line is "
                    "`serving on http://HOST:PORT`; Ctrl+C or SIGTERM stop it.",
        epilog=EPILOG)
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for every network)")
    p.add_argument("--port", type=int, default=8765,
                   help="port (default 8765; 0 picks a free one, shown on the first line)")
    p.add_argument("--db", default="games.sqlite",
                   help="the SQLite file the games are kept in (default games.sqlite)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address players reach this server at, for the join links "
                        "(https://games.example.org behind a proxy; default: the address each "
                        "request came to)")
    p.add_argument("--catalogues", metavar="DIR", action="append",
                   help="the BSData catalogues army lists uploaded on the front page are read "
                        "with (default: the cache `battlefield army catalogues update` fills)")
    p.set_defaults(run=run_serve)


def public_url(text: str | None) -> str | None:
    """--public-url as the join links start: http(s)://HOST[:PORT][/PREFIX], no query."""
    if text is None:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(f"--public-url {text}: expected http://HOST:PORT or https://HOST "
                         "(the address players open, as a proxy in front of this server "
                         "serves it)")
    return text.rstrip("/")


def run_serve(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    import asyncio

    from battlefield.client.computer import ComputerSeat
    from battlefield.server.app import serve

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is 0 to 65535 (0: any free one)")
    public = public_url(args.public_url)
    try:
        asyncio.run(serve(args.host, args.port, args.db, public, args.catalogues,
                          ComputerSeat))
    except KeyboardInterrupt:
        pass
    return 0
