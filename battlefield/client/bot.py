"""`battlefield bot URL`: the ruleset's computer player as a remote seat. It keeps a Mirror of
the game from what the server sends, chooses with the ruleset's player when the decision is its
seat's, and sends the choice as an `act`. When the connection drops it joins again (Link's
back-off), asks for what it missed with `resume` and sends its unanswered act again (the server
answers a resent id with the same event, never applying it twice).

The computer players choose from the position alone; `--seed` seeds what a player may draw at
random (the strong level's rollouts) and the back-off's jitter, so two seeded bots play the
same game every time; `--level` chooses the player (rules/players.py)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from battlefield.client.link import PATIENCE, Link
from battlefield.client.seat import Seat
from battlefield.errors import BattlefieldError
from battlefield.rules import players, registry
from battlefield.rules.actions import Action

MAX_REFUSED = 20         # refusals in a row before the bot stops (its player is wrong)


class BotFailed(BattlefieldError):
    """The bot cannot go on (the server gone for good, a player the engine keeps refusing)."""


def _player(ruleset: str, seed: int, level: str = players.DEFAULT) -> Any:
    """The ruleset's player at `level`, seeded with the bot's seed (what it draws)."""
    return players.make(registry.get(ruleset), level, seed)


async def run_bot(url: str, seed: int = 0, patience: float = PATIENCE,
                  say: Callable[[str], None] | None = None,
                  listen: Callable[[dict[str, Any]], None] | None = None,
                  level: str = players.DEFAULT) -> dict[str, Any]:
    """Play the seat of `url` to the end of the game at `level`; returns the `over` message.
    `say` gets the lines worth telling (stderr by default), `listen` every message as it
    arrives."""
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    link = Link(url, patience, seed)
    seat = Seat(link.send)
    player: Any = None
    refused_in_a_row = 0
    async for msg in link:
        if listen is not None:
            listen(msg)
        kind = msg["type"]
        seat.receive(msg)
        if kind == "hello" and msg["seat"] is None:
            link.close()
            raise BotFailed(f"{url}: no seat in this address (a bot plays a seat: "
                            f"?seat=TOKEN)")
        if seat.out_of_step is not None:
            say(f"bot: out of step with the server ({seat.out_of_step}): joining again")
            seat.out_of_step = None
            link.restart()
            continue
        if kind == "event" and seat.unanswered is None:
            refused_in_a_row = 0
        elif kind == "refused" and seat.refused is msg:
            refused_in_a_row += 1
            why = "; ".join(f"{v.get('code')}: {v.get('message')}"
                            for v in msg.get("violations", []))
            say(f"bot: the server refused {msg.get('id')}: {why}")
            if refused_in_a_row >= MAX_REFUSED:
                link.close()
                raise BotFailed(f"the server refused {MAX_REFUSED} actions in a row "
                                f"(last: {why})")
        elif kind == "over":
            link.close()
            assert seat.over is not None
            return seat.over
        elif kind == "error":
            say(f"bot: the server says: {msg.get('message')}")
            if seat.wait is not None:         # our act was not read for the rate: again
                await asyncio.sleep(seat.wait)
                seat.resend()
        elif kind == "status" and msg.get("status") == "reconnecting":
            say("bot: connection lost, joining again")
        seat.take_applied()
        if seat.ready():
            assert seat.mirror is not None
            player = player or _player(seat.mirror.ruleset, seed, level)
            action: Action = player.choose(seat.mirror.state)
            seat.act(action)
    raise BotFailed("the connection closed before the game was over")


def result_line(over: dict[str, Any]) -> str:
    """The end of the game in one line: who won, by what, the scores, the seed."""
    r = over.get("result", {})
    who = f"{r.get('winner')} wins ({r.get('by')})" if r.get("winner") else "a draw"
    score = r.get("score")
    tally = ", ".join(f"{s} {v}" for s, v in (r.get(score) or {}).items()) if score else ""
    seed = f"seed {over.get('seed')}" + (" (matches the seed_sha256 said at the start)"
                                         if over.get("seed_verified") else "")
    return (f"game over after {over.get('version')} actions: {who}"
            + (f"; {score}: {tally}" if tally else "") + f"; {seed}")
