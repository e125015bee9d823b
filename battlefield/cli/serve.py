"""`battlefield serve`: the game server (battlefield/server), HTTP and WebSocket in one process."""

from __future__ import annotations

import argparse
from dataclasses import replace
from urllib.parse import urlsplit

from battlefield.errors import UsageError
from battlefield.server.limits import Limits

EPILOG = """\
routes:
  POST /games {"scene": NAME_OR_YAML, "seed": N, "computer": SIDE}
                                                   -> 201 {game, ruleset, seats, seeded,
                                                      watch, join}
  GET  /games/ID/play?seat=TOKEN (a browser)       the seat's play page (its join link)
  GET  /board?scene=NAME, GET /board/ID            a board to arrange and share
  POST /boards {"scene": NAME_OR_YAML}             -> 201 {board, url}
  POST /imports (multipart: roster FILE, side red|blue, into SCENE_TEXT)
                                                   -> {scene, warnings, units}: an army list
                                                      (New Recruit .json/.ros/.rosz, BattleScribe
                                                      .ros/.rosz, told by its content) made a
                                                      scene, as `army import --deploy` does
  GET  /games?page=N                               -> {"games": [{id, ruleset, version, over}],
                                                      "page", "pages", "total", "next"}
  GET  /games/ID                                   -> the game as JSON; in a browser its
                                                      live page
  GET  /games/ID/versions?since=N                  -> the versions a spectator may see
  GET  /games/ID/log                               -> the log (409 until the game is over)
  GET  /                                           -> a page listing the games
  ws://HOST:PORT/games/ID/play?seat=TOKEN          a seat (no seat: a spectator)

examples:
  battlefield serve --port 8765 --db games.sqlite
  curl -d '{"scene": "demo-skirmish", "seed": 3}' http://127.0.0.1:8765/games
  curl -F roster=@my-list.json -F side=red http://127.0.0.1:8765/imports
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
                   help="the SQLite file the games are kept in (default games.sqlite, made "
                        "readable by its owner only)")
    d = Limits()
    g = p.add_argument_group("limits (README: Play over the network, limits)")
    g.add_argument("--idle-timeout", type=float, default=d.idle_s, metavar="S",
                   help=f"seconds a connection may send nothing, or half a request, before it "
                        f"is closed; WebSocket pings every S*2/3 (default {d.idle_s:g})")
    g.add_argument("--games-per-minute", type=float, default=d.creates_per_minute,
                   metavar="N", help=f"new games per client address a minute, {d.creates_burst}"
                                     f" at once (default {d.creates_per_minute:g})")
    g.add_argument("--frames-per-second", type=float, default=d.frames_per_second,
                   metavar="N", help=f"WebSocket frames per client address a second, "
                                     f"{d.frames_burst} at once (default "
                                     f"{d.frames_per_second:g})")
    g.add_argument("--engine-share", type=float, default=d.engine_share, metavar="F",
                   help=f"seconds of engine work a second per client address (default "
                        f"{d.engine_share:g})")
    g.add_argument("--previews-per-second", type=float, default=d.previews_per_second,
                   metavar="N", help=f"a seat's live checks of a drag a second, as many at once "
                                     f"(default {d.previews_per_second:g})")
    g.add_argument("--connections-per-address", type=int, default=d.connections_per_address,
                   metavar="N", help=f"open connections per client address (default "
                                     f"{d.connections_per_address})")
    g.add_argument("--proxy", action="append", default=[], metavar="ADDRESS",
                   help="the address of a reverse proxy in front (repeat for several): its "
                        "connections are not limited per address, and the client of each "
                        "request is the address the proxy adds to X-Forwarded-For")
    p.add_argument("--public-url", metavar="URL",
                   help="the address players reach this server at, for the join links "
                        "(https://games.example.org behind a proxy; default: the address each "
                        "request came to)")
    p.add_argument("--catalogues", metavar="DIR", action="append",
                   help="the BSData catalogues army lists uploaded (the front page, POST "
                        "/imports) are read with (default: the cache `battlefield army "
                        "catalogues update` fills)")
    p.set_defaults(run=run_serve)


def limits_of(args: argparse.Namespace) -> Limits:
    """The server's limits from the command line (each a positive number)."""
    for flag, value in (("--idle-timeout", args.idle_timeout),
                        ("--games-per-minute", args.games_per_minute),
                        ("--frames-per-second", args.frames_per_second),
                        ("--engine-share", args.engine_share),
                        ("--previews-per-second", args.previews_per_second),
                        ("--connections-per-address", args.connections_per_address)):
        if not (0 < value < 1e9):
            raise UsageError(f"{flag} {value:g}: expected a number more than 0")
    d = Limits()
    return replace(d, idle_s=args.idle_timeout, ping_s=args.idle_timeout * 2 / 3,
                   creates_per_minute=args.games_per_minute,
                   creates_burst=max(1, min(d.creates_burst, int(args.games_per_minute))),
                   frames_per_second=args.frames_per_second,
                   frames_burst=max(1, int(args.frames_per_second * 4)),
                   engine_share=args.engine_share,
                   engine_burst_s=max(d.engine_burst_s, args.engine_share * 20),
                   previews_per_second=args.previews_per_second,
                   connections_per_address=args.connections_per_address,
                   proxies=tuple(args.proxy))


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
        asyncio.run(serve(args.host, args.port, args.db, limits_of(args), public,
                          args.catalogues, ComputerSeat))
    except KeyboardInterrupt:
        pass
    return 0
