"""A game's seats and spectators over its WebSocket (`/games/ID/play?seat=TOKEN`), and the
computer seats' acts: the hello and the events since, then one frame at a time - an act checked,
applied, stored and told to everyone; a preview or the seat's offers answered to that client
alone; a retract; a resume - each under the address's rate and engine share. The Server
(server/app.py) is a Seats: these are its methods, kept here so that each file reads as one
part of the server."""

from __future__ import annotations

import sys
import time
import traceback
from typing import Any

from aiohttp import WSMsgType, web

from battlefield.inputs import shown
from battlefield.rules import boundary
from battlefield.rules.actions import Action
from battlefield.rules.choices import choice_words
from battlefield.server import messages, replies
from battlefield.server.games import LiveGame, Record, Refused
from battlefield.server.limits import retry_after
from battlefield.server.messages import Act, FrameError, Offers, Preview, Resume, Retract
from battlefield.server.outbox import Client
from battlefield.server.pages import wants_html

# aiohttp closes the connection on a frame past max_msg_size; below it a frame past
# messages.MAX_FRAME is answered with an error and the connection goes on.
WS_HARD_LIMIT = 256 * 1024
COMPUTER = "computer"      # the address a computer seat's engine work is charged to
ENGINE_ERROR = ("the engine could not carry this action out (a fault of the server, logged "
                "there); the game is as it was")


class Seats:
    """The Server's WebSocket and computer-seat methods (a mixin: `self` is the Server)."""

    async def play(self, request: web.Request) -> web.StreamResponse:
        address = self.address(request)
        wait = self.frames.take(address)
        if wait > 0:
            return replies.too_many(f"too many requests from {address}: try again later", wait)
        game = await self.game(request.match_info["id"], address)
        if game is None:
            return replies.error(404, f"no game {shown(request.match_info['id'], 40)}")
        if request.headers.get("Upgrade", "").lower() != "websocket" and wants_html(request):
            return await self.play_pages.page(request, game, address)  # a browser: its page
        token = request.query.get("seat") or None      # ?seat= with nothing: a spectator
        seat = None
        if token is not None:
            seat = game.tokens.get(token)
            if seat is None:
                return replies.error(403, "no such seat in this game (the seat token is wrong)")
        ws = web.WebSocketResponse(max_msg_size=WS_HARD_LIMIT, heartbeat=self.limits.ping_s)
        await ws.prepare(request)
        client = Client(ws, seat, request.transport, self.limits.outbox_bytes)
        self.clients.add(client)
        try:
            async with self.engine.game_lock(game.id):
                # No event of this game is broadcast meanwhile: the hello, the events after
                # its position, then every event as it comes.
                hello, since, upto = await self.engine.run(None, address, game.hello_text,
                                                           seat)
                client.send(hello)
                client.backlog(game, since, upto)
                if game.over:
                    client.send(game.over_message())
                game.clients.add(client)
                game.touched = time.monotonic()
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self.frame(game, client, msg.data, address)
                elif msg.type == WSMsgType.BINARY:
                    client.send(messages.error("binary frames are not read: send JSON text"))
                elif msg.type == WSMsgType.ERROR:
                    break
                if client.dropped:
                    break
        finally:
            game.clients.discard(client)
            self.clients.discard(client)
            await client.finish()
            game.touched = time.monotonic()
            self.idle(game)
        return ws

    async def frame(self, game: LiveGame, client: Any, data: str, address: str = "?"
                    ) -> None:
        """One frame from a client: answered, and any event broadcast, before the next. Past
        its address's rate a frame is not read: the first so, and every act (to be sent again),
        answered with the wait; a client that goes on sending past the rate for a whole burst
        more is disconnected (what it costs to read and refuse is the server's)."""
        wait = self.frames.take(address)
        if wait > 0:
            client.ignored += 1
            if client.ignored > self.limits.frames_burst:
                self.penalties.punish(address)     # its next connections closed at once
                client.drop()
                return
            cid = _act_id(data)
            if client.ignored == 1 or cid is not None:
                client.send(messages.slow_down(f"too many frames from {address}: not read",
                                               retry_after(wait), cid))
            return
        client.ignored = 0
        try:
            msg = messages.read_frame(data)
        except FrameError as exc:
            client.send(messages.error(str(exc)))
            return
        if isinstance(msg, Resume):
            if msg.since > game.version:      # a version it cannot have seen: not "in step"
                client.send(messages.error(messages.resume_past(msg.since, game.version)))
                return
            client.backlog(game, msg.since, game.version)
            if game.over:
                client.send(game.over_message())
            return
        if isinstance(msg, (Preview, Offers)):          # the engine's work, on a copy
            await self.answer(game, client, msg, address)
            return
        if isinstance(msg, Retract):
            await self.retract(game, client, msg, address)
            return
        await self.act(game, client, msg, address)

    @staticmethod
    def spectator(client: Any, cid: str | int | None) -> bool:
        """A client holding no seat asked to act: refused `not_your_seat` (True), or not."""
        if client.seat is not None:
            return False
        client.send(messages.refused(cid, [{
            "code": "not_your_seat",
            "message": "a spectator holds no seat: join with ?seat=TOKEN to play"}]))
        return True

    def over_share(self, client: Any, address: str, what: str, cid: str | int | None) -> bool:
        """Past `address`'s engine share: the client told `slow_down` - `what` was not done -
        with when to try again (True), or not."""
        wait = self.engine.wait(address)
        if wait <= 0:
            return False
        client.send(messages.slow_down(f"{address} asked the engine for more work than its "
                                       f"share lately: {what}", retry_after(wait), cid))
        return True

    async def retract(self, game: LiveGame, client: Any, msg: Retract, address: str) -> None:
        """A seat takes its own last actions back (LiveGame.retract): everyone is told
        `retracted` (the sender's copy with its id) and then a fresh hello, the game as it now
        stands; refused as an act is when it may not."""
        if self.spectator(client, msg.id):
            return
        if self.over_share(client, address, "nothing was taken back", msg.id):
            return
        async with self.engine.game_lock(game.id):
            to = game.version - 1 if msg.version is None else msg.version
            before = game.version
            try:
                await self.engine.run(None, address, game.retract, client.seat, to,
                                      lambda v: self.store.cut(game.id, v))
            except Refused as exc:
                client.send(messages.refused(msg.id, exc.violations))
                return
            except Exception:
                print(f"game {game.id}: a retract to {to} by {client.seat} failed:\n"
                      f"{traceback.format_exc()}", file=sys.stderr, flush=True)
                client.send(messages.refused(msg.id, [{"code": "engine_error",
                                                       "message": ENGINE_ERROR}]))
                return
            self.pages.forget(game.id)
            self.previews.forget(game.id)
            told = {"type": "retracted", "version": to, "from": before, "by": client.seat}
            for c in list(game.clients):
                c.send({**told, "id": msg.id} if c is client else told)
                hello, since, upto = await self.engine.run(None, address, game.hello_text,
                                                           c.seat)
                c.send(hello)
                c.backlog(game, since, upto)
            self.computers.forget(game.id)
            self.computers.attach(game)

    async def answer(self, game: LiveGame, client: Any, msg: Preview | Offers,
                     address: str) -> None:
        """A preview or the seat's offers (server/preview.py), to that client alone: past the
        address's engine share a `slow_down` error (with the preview's id) instead."""
        if self.over_share(client, address, f"this {type(msg).__name__.lower()} was not "
                           f"answered", msg.id if isinstance(msg, Preview) else None):
            return
        try:
            if isinstance(msg, Preview):
                out = await self.previews.preview(game, client.seat, msg, address)
            else:
                out = await self.previews.offers(game, client.seat, address)
                back = game.retractable(client.seat) if client.seat is not None else None
                if back is not None:
                    done = Action.from_dict(game.records[-1].action)
                    out["retract"] = {"version": back, "what": choice_words(done)}
        except Exception:                 # the engine failed on it: said, the game goes on
            print(f"game {game.id}: a {type(msg).__name__.lower()} failed:\n"
                  f"{traceback.format_exc()}", file=sys.stderr, flush=True)
            out = messages.error("the engine could not answer this (a fault of the server, "
                                 "logged there)")
            if isinstance(msg, Preview):
                out["id"] = msg.id
        client.send(out)

    async def hello(self, game: LiveGame, side: str) -> tuple[dict[str, Any], list[Record]]:
        """A computer seat's hello and the records after it, in the game's turn (no event
        is broadcast meanwhile)."""
        async with self.engine.game_lock(game.id):
            return await self.engine.run(None, COMPUTER, game.hello, side)

    async def think(self, fn: Any, *args: Any) -> Any:
        """A computer seat's choice, on the engine's threads (charged to "computer")."""
        return await self.engine.run(None, COMPUTER, fn, *args)

    async def accept(self, game: LiveGame, side: str, action: Action, key: str) -> bool:
        """An action of a seat the server plays itself (a computer seat): checked, stored and
        told to everyone as any seat's act is; False when it is refused."""
        def apply() -> Record:
            def persist(version: int, side: str, key: str, action: dict[str, Any],
                        over: bool) -> None:
                self.store.add_action(game.id, version, side, key, action, over)

            record = game.act(side, action, key, persist)
            if game.over:
                game.over_message()
            return record

        async with self.engine.game_lock(game.id):
            game.touched = time.monotonic()
            try:
                record = await self.engine.run(None, COMPUTER, apply)
            except Refused as exc:
                print(f"game {game.id}: the computer's {action!r} was refused: {exc}",
                      file=sys.stderr, flush=True)
                return False
            except Exception:
                print(f"game {game.id}: the computer's {action!r} failed:\n"
                      f"{traceback.format_exc()}", file=sys.stderr, flush=True)
                return False
            self.broadcast(game, record)
            if game.over:
                over = messages.dumps(game.over_message())
                for c in game.clients:
                    c.send(over)
        return True

    async def act(self, game: LiveGame, client: Any, msg: Act, address: str = "?") -> None:
        if self.spectator(client, msg.id):
            return
        if problem := self.limits.action_problem(msg.raw):
            client.send(messages.refused(msg.id, [{"code": "over_limit", "message": problem}]))
            return
        if self.over_share(client, address, "this act was not taken", msg.id):
            return
        async with self.engine.game_lock(game.id):
            game.touched = time.monotonic()
            done = game.answered(client.seat, msg.key)
            if done is not None:                  # a resend: the same event, not applied again
                client.send(done.message(client.seat))
                return
            try:
                record = await self.engine.run(None, address, self._apply, game, client.seat,
                                               msg)
            except Refused as exc:
                client.send(messages.refused(msg.id, exc.violations))
                return
            except Exception:             # the engine failed on this action: the game is as before
                print(f"game {game.id}: {shown(msg.raw, 300)} from {client.seat} failed:\n"
                      f"{traceback.format_exc()}", file=sys.stderr, flush=True)
                client.send(messages.refused(msg.id, [{"code": "engine_error",
                                                       "message": ENGINE_ERROR}]))
                return
            self.broadcast(game, record)
            if game.over:
                over = messages.dumps(game.over_message())
                for c in game.clients:
                    c.send(over)

    def _apply(self, game: LiveGame, seat: str, msg: Act) -> Record:
        """On a worker thread: the act read against the game's scene, checked, applied and
        stored (Refused: what the seat is told)."""
        action = boundary.read(msg.raw, game.state.scene)
        if isinstance(action, boundary.Refused):  # a field not of its type: as try says ILLEGAL
            raise Refused([v.to_dict() for v in action.violations])

        def persist(version: int, side: str, key: str, action: dict[str, Any],
                    over: bool) -> None:
            self.store.add_action(game.id, version, side, key, action, over)

        record = game.act(seat, action, msg.key, persist)
        if game.over:
            game.over_message()                   # the result, worked out here
        return record

    def broadcast(self, game: LiveGame, record: Record) -> None:
        """The event to every client of the game: the sender's copy with its id, one shared
        text for the others (a secret answer without its value)."""
        others: str | None = None
        for c in game.clients:
            if c.seat == record.by:
                c.send(record.message(c.seat))
            else:
                others = others or messages.dumps(record.message(None))
                c.send(others)
        self.computers.heard(game, record)


def _act_id(data: str) -> str | int | None:
    """The id of an act not read for the rate, when it is plain to see in a short frame (the
    act is sent again after the wait)."""
    if len(data) > 4096:
        return None
    try:
        msg = messages.read_frame(data)
    except FrameError:
        return None
    return msg.id if isinstance(msg, Act) else None
