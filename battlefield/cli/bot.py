"""`battlefield bot URL`: the ruleset's computer player plays a seat of a server's game."""

from __future__ import annotations

import argparse

from battlefield.cli.common import emit_json
from battlefield.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bot", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="the computer player as a remote seat of a `battlefield serve` game",
        description="Join a game as the seat the URL's token holds and let the ruleset's "
                    "computer player choose every action of that side. A server that cannot be "
                    "reached at the start is said at once (exit 2). When the connection "
                    "drops it joins again with back-off (for at least a minute), resumes where "
                    "it was and resends its unanswered action. It exits 0 when the game is "
                    "over, printing the result.",
        epilog="examples:\n"
               "  battlefield bot 'ws://127.0.0.1:8765/games/ID/play?seat=TOKEN'\n"
               "  battlefield bot 'ws://127.0.0.1:8765/games/ID/play?seat=TOKEN' --seed 3 --json")
    p.add_argument("url", help="ws://HOST:PORT/games/ID/play?seat=TOKEN (from POST /games)")
    p.add_argument("--seed", type=int, default=0,
                   help="the bot's own seed (its back-off jitter and any random choice; "
                        "default 0)")
    p.add_argument("--patience", type=float, default=120.0,
                   help="seconds to keep trying to reach the server again after the connection "
                        "dropped (default 120, at least 60, at most a year)")
    p.add_argument("--level", default="normal", metavar="LEVEL",
                   help="the computer player's level: easy, normal (default) or strong")
    p.add_argument("--json", action="store_true", help="print the `over` message as JSON")
    p.set_defaults(run=run_bot)


def run_bot(args: argparse.Namespace) -> int:
    # here, not at the top: start-up time of the CLI
    import asyncio

    from battlefield.client.bot import BotFailed, result_line
    from battlefield.client.bot import run_bot as play
    from battlefield.client.link import GaveUp, check_url
    from battlefield.rules.players import check_kind

    check_kind(args.level)
    check_url(args.url)
    if not 60 <= args.patience <= 86400 * 365:       # also refuses nan (never given up)
        raise UsageError(f"--patience {args.patience:g}: 60 seconds or more (at most a year)")
    try:
        over = asyncio.run(play(args.url, args.seed, args.patience, level=args.level))
    except GaveUp as exc:
        raise BotFailed(str(exc)) from None
    if args.json:
        emit_json(over)
    else:
        print(result_line(over))
    return 0
