"""`battlefield bot URL`: the ruleset's computer player as a remote seat. It keeps a Mirror of
the game from what the server sends, chooses with the ruleset's player when the decision is its
seat's, and sends the choice as an `act`. When the connection drops it joins again (Link's
back-off), asks for what it missed with `resume` and sends its unanswered act again (the server
answers a resent id with the same event, never applying it twice).

The computer players choose from the position alone; `--seed` seeds what a player may draw at
random (none of the bundled ones do) and the back-off's jitter, so two seeded bots play the same
game every time."""

from __future__ import annotations

import hashlib
import inspect
import random
import sys
from collections.abc import Callable
from typing import Any

from battlefield.errors import BattlefieldError
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.server.link import PATIENCE, Link
from battlefield.server.mirror import Mirror, OutOfStep

MAX_REFUSED = 20         # refusals in a row before the bot stops (its player is wrong)


class BotFailed(BattlefieldError):
    """The bot cannot go on (the server gone for good, a player the engine keeps refusing)."""


def _player(ruleset: str, seed: int) -> Any:
    make = registry.get(ruleset).player
    try:
        takes_seed = "seed" in inspect.signature(make).parameters
    except (TypeError, ValueError):
        takes_seed = False
    player = make(seed=seed) if takes_seed else make()
    if hasattr(player, "rng"):
        player.rng = random.Random(seed)
    return player


async def run_bot(url: str, seed: int = 0, patience: float = PATIENCE,
                  say: Callable[[str], None] | None = None,
                  listen: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play the seat of `url` to the end of the game; returns the `over` message. `say` gets
    the lines worth telling (stderr by default), `listen` every message as it arrives."""
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    link = Link(url, patience, seed)
    mirror: Mirror | None = None
    player: Any = None
    unanswered: dict[str, Any] | None = None      # the act sent and not answered yet
    count, refused_in_a_row = 0, 0
    async for msg in link:
        if listen is not None:
            listen(msg)
        kind = msg["type"]
        if kind == "hello":
            if msg["seat"] is None:
                raise BotFailed(f"{url}: no seat in this address (a bot plays a seat: "
                                f"?seat=TOKEN)")
            if mirror is None or mirror.game_id != msg["game"]:
                mirror = Mirror(msg)
                player = player or _player(mirror.ruleset, seed)
            else:
                mirror.heard(int(msg["version"]))
                if mirror.version < int(msg["version"]):
                    link.send({"type": "resume", "since": mirror.version})
            if unanswered is not None:
                link.send(unanswered)             # the same id: applied at most once
        elif kind == "event" and mirror is not None:
            if unanswered is not None and msg.get("id") == unanswered["id"]:
                unanswered, refused_in_a_row = None, 0
            try:
                mirror.receive(msg)
            except OutOfStep as exc:
                say(f"bot: out of step with the server ({exc}): joining again")
                mirror = None
                link.restart()
                continue
        elif kind == "refused":
            if unanswered is not None and msg.get("id") == unanswered["id"]:
                unanswered = None
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
            if mirror is not None:
                mirror.over = msg
                seed_ok = (hashlib.sha256(str(msg.get("seed")).encode()).hexdigest()
                           == mirror.seed_sha256)
                msg = {**msg, "seed_verified": seed_ok}
            return msg
        elif kind == "error":
            say(f"bot: the server says: {msg.get('message')}")
        elif kind == "status" and msg.get("status") == "reconnecting":
            say("bot: connection lost, joining again")
        if mirror is not None and unanswered is None and mirror.my_turn():
            action: Action = player.choose(mirror.state)
            count += 1
            unanswered = {"type": "act", "id": f"{mirror.seat}-{mirror.version}-{count}",
                          "action": action.to_dict()}
            link.send(unanswered)
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
