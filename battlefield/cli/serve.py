"""`battlefield serve`: the game server (battlefield/server), HTTP and WebSocket in one process."""

from __future__ import annotations

import argparse

from battlefield.errors import UsageError

EPILOG = """\
routes:
  POST /games {"scene": NAME_OR_YAML, "seed": N}   -> 201 {game, ruleset, seats, watch}
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
    p.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    import asyncio

    from battlefield.server.app import serve

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is 0 to 65535 (0: any free one)")
    try:
        asyncio.run(serve(args.host, args.port, args.db))
    except KeyboardInterrupt:
        pass
    return 0
