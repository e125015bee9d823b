"""`battlefield serve`: one asyncio process (aiohttp) holding the games, HTTP for making and
listing them and their logs, one WebSocket per client for playing and watching.

Routes: POST /games, GET /games, GET /games/ID (a browser: its live page), GET /games/ID/log,
GET / and GET /games/ID/versions (server/pages.py), the WebSocket /games/ID/play?seat=TOKEN
(no seat: a spectator) whose address is also the seat's play page for a browser
(server/play_page.py), POST /imports (army lists made a scene) and the boards
(server/boards.py).

The event loop only reads, writes and decides; the engine's work (reading a posted scene,
checking and applying an act, a hello's position, a replay, a log, a page) runs on worker
threads (server/worker.py), one game's work in the order it was asked, the least busy client
first. What any one client may ask is bounded (server/limits.py: rates per address, the size
of a scene and of an action, queued bytes, connections); a refusal is one line (400, or 429
with Retry-After for the rate), never a traceback. Each game's messages are produced in the
order its actions were accepted; every client has its own queue, written by its own task, so a
slow client never holds up a game, and one too far behind is disconnected (it may resume).
A seat's previews and offers (server/preview.py) are the engine's work too, charged to its
address; a computer seat (client/computer.py, handed to the Server by `serve`) thinks on the
engine's threads as the address "computer" and acts through the same checks as any seat."""

from __future__ import annotations

import asyncio
import secrets
import signal
import sys
import time
import traceback
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from battlefield.errors import BattlefieldError, InputError, UsageError
from battlefield.inputs import plain_whole, shown
from battlefield.names import after
from battlefield.paths import find_map, map_names
from battlefield.rules import boundary, registry
from battlefield.rules.actions import Action
from battlefield.rules.choices import choice_words
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.rulesets import BOARD_ID
from battlefield.scene.load import load_scene, load_scene_text
from battlefield.server import messages
from battlefield.server.boards import Boards
from battlefield.server.computer import Computers, SeatFactory
from battlefield.server.connections import CountedSite, more_files, quiet_client_errors
from battlefield.server.games import LiveGame, Record, Refused, replayed
from battlefield.server.imports import Imports
from battlefield.server.limits import (
    Buckets,
    Limits,
    Penalties,
    client_address,
    retry_after,
)
from battlefield.server.messages import Act, FrameError, Offers, Preview, Resume, Retract
from battlefield.server.outbox import Client
from battlefield.server.pages import Pages, security_headers, wants_html
from battlefield.server.play_page import PlayPages, join_links
from battlefield.server.preview import Previews
from battlefield.server.store import Store
from battlefield.server.worker import Engine
from battlefield.yamlsource import load_yaml

# aiohttp closes the connection on a frame past max_msg_size; below it a frame past
# messages.MAX_FRAME is answered with an error and the connection goes on.
WS_HARD_LIMIT = 256 * 1024
COMPUTER = "computer"      # the address a computer seat's engine work is charged to
ENGINE_ERROR = ("the engine could not carry this action out (a fault of the server, logged "
                "there); the game is as it was")


def scene_source(arg: str) -> tuple[str, str]:
    """(scene text, name) of POST /games's "scene": a bundled scene's name (a map without
    units gets the ruleset's demo armies, as simulate --map does) or a scene file's text."""
    if "\n" not in arg and ":" not in arg:
        name = arg.strip()
        path = find_map(name)
        if path is None:
            raise InputError(name if len(name) <= 80 else name[:77] + "...", "", None,
                             "no such scene file" + after(name, map_names()),
                             "a scene file, or a bundled scene: " + ", ".join(map_names()))
        scene = load_scene(path)
        if scene.ruleset.id == BOARD_ID:
            raise UsageError(f"{name} is a plain board (no ruleset: key): a game needs a "
                             f"scene with a ruleset and units")
        if scene.units:
            return path.read_text(encoding="utf-8"), scene.name or path.stem
        return battle_scene(scene.ruleset.id, name)
    return arg, "<scene>"


def new_game(arg: str, seed: int | str | None, limits: Limits | None = None
             ) -> tuple[str, str, str, int | str, list[str], bool]:
    """(ruleset, scene text, name, seed, sides, seeded) of a new game: a chosen seed is kept
    (seeded: its dice can be foreseen), none gets a secret one of 256 bits. BattlefieldError
    with the line the command line prints when the scene cannot be played or is past the
    server's limits. A `map:` in the text is a bundled map: no file of the server is read."""
    limits = limits or Limits()
    text, name = scene_source(arg)
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.scene_bytes:
        raise UsageError(f"the scene is {size:,} bytes, more than the server's "
                         f"{limits.scene_bytes:,}")
    data, _ = load_yaml(name, text)       # counted before the scene is built: that costs
    if problem := limits.data_problem(data):
        raise UsageError(problem)
    scene = load_scene_text(text, name, files=False)
    if scene.ruleset.id == BOARD_ID:
        raise UsageError(f"{name} is a plain board (no ruleset: key): a game needs a scene "
                         f"with a ruleset and units")
    if not scene.units:
        raise InputError(name, "units", None, "a game needs units", "units for two sides")
    if problem := limits.scene_problem(scene, size):
        raise UsageError(problem)
    ruleset = registry.get(scene.ruleset.id)
    registry.checked(scene, battle=True)     # as validate: units without their stats refused
    seeded = seed is not None
    seed = LiveGame.fresh_seed() if seed is None else seed
    Game(ruleset, scene, seed).new_state(keep_undo=False)
    return scene.ruleset.id, text, name, seed, list(scene.sides), seeded


def made_game(game_id: str, arg: str, seed: int | str | None, limits: Limits) -> LiveGame:
    """The new game itself (on a worker thread: reading a scene is the engine's work)."""
    ruleset, text, name, seed, sides, seeded = new_game(arg, seed, limits)
    return LiveGame(game_id, ruleset, text, name, seed, LiveGame.new_seats(sides), seeded)


class Server:
    """The games, live ones in memory (rebuilt from the database when asked for, and leaving
    memory when finished or idle with nobody connected)."""

    def __init__(self, db: str | Path, limits: Limits | None = None,
                 public_url: str | None = None, catalogues: list[str] | None = None,
                 computer: SeatFactory | None = None) -> None:
        self.limits = limits = limits or Limits()
        self.public_url = public_url                    # serve --public-url: the join links'
        self.store = Store(db)
        self.engine = Engine(Buckets(limits.engine_share, limits.engine_burst_s))
        self.creates = Buckets(limits.creates_per_minute / 60.0, limits.creates_burst)
        self.frames = Buckets(limits.frames_per_second, limits.frames_burst)
        self.penalties = Penalties(limits.penalty_s)
        self.games: dict[str, LiveGame] = {}
        self.loading: dict[str, asyncio.Future[LiveGame]] = {}
        self.logs: OrderedDict[str, str] = OrderedDict()   # finished games' logs, lately asked
        self.clients: set[Client] = set()
        self.pages = Pages(self)                        # the browser's pages (server/pages.py)
        self.play_pages = PlayPages(self)               # each seat's play page
        self.previews = Previews(self.engine, limits.previews_per_second)   # seats' checks
        self.computers = Computers(self.store, computer, self)      # its seats
        self.boards = Boards(self, scene_source)
        self.imports = Imports(self, catalogues)              # army lists made scenes
        self.sweeper: asyncio.Task[None] | None = None

    async def game(self, game_id: str, address: str = "?") -> LiveGame | None:
        """The live game, rebuilt from the database when it is not in memory (after a
        restart, or a game that left memory): its actions are replayed on a worker thread,
        so the other games go on meanwhile."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        loading = self.loading.get(game_id)
        if loading is None:
            stored = await asyncio.to_thread(self.store.load, game_id)
            if stored is None:
                return None
            game = self.games.get(game_id)          # made while the database was read
            if game is not None:
                return game
            loading = self.loading.get(game_id)
            if loading is None:
                wait = self.engine.wait(address)      # a replay is engine work: the share
                if wait > 0:
                    raise web.HTTPTooManyRequests(
                        text=messages.dumps({"error": f"{address} asked the engine for more "
                                                      f"work than its share lately",
                                             "retry_after": retry_after(wait)}),
                        content_type="application/json",
                        headers={"Retry-After": str(retry_after(wait))})
                loading = asyncio.ensure_future(self.engine.run(
                    game_id, address, replayed, stored.id, stored.ruleset, stored.scene_text,
                    stored.scene_name, stored.seed, stored.seats, stored.actions,
                    stored.seeded))
                self.loading[game_id] = loading
        try:
            game = await asyncio.shield(loading)
        except Exception as exc:           # a stored game this engine no longer replays
            line = f"game {game_id} cannot be rebuilt: {type(exc).__name__}: {exc}"
            print(line, file=sys.stderr, flush=True)
            raise web.HTTPInternalServerError(text=messages.dumps({"error": " ".join(
                line.split())}), content_type="application/json") from None
        finally:
            self.loading.pop(game_id, None)
        game = self.games.setdefault(game_id, game)
        self.computers.attach(game)
        return game

    def address(self, request: web.Request) -> str:
        """The client's address, for its limits (behind a --proxy, the one the proxy saw)."""
        return client_address(request.remote, request.headers.get("X-Forwarded-For"),
                              self.limits.proxies)

    def idle(self, game: LiveGame) -> None:
        """A finished game that nobody is connected to leaves memory (its log is kept a
        while when it was made)."""
        if game.over and not game.clients and not self.engine.busy(game.id):
            self._forget(game)

    def _forget(self, game: LiveGame) -> None:
        if self.games.get(game.id) is game:
            del self.games[game.id]
        self.pages.forget(game.id)
        self.previews.forget(game.id)
        self.computers.forget(game.id)
        if game.log_text is not None:
            self.keep_log(game.id, game.log_text)

    def keep_log(self, game_id: str, text: str) -> None:
        self.logs[game_id] = text
        self.logs.move_to_end(game_id)
        while len(self.logs) > self.limits.books:
            self.logs.popitem(last=False)

    async def sweep(self) -> None:
        """Every few seconds: games nobody is connected to and nobody acted in for
        `idle_game_s` leave memory (the database keeps them)."""
        while True:
            await asyncio.sleep(min(5.0, self.limits.idle_game_s / 2))
            now = time.monotonic()
            for game in list(self.games.values()):
                if (not game.clients and not self.engine.busy(game.id)
                        and (game.over or now - game.touched > self.limits.idle_game_s)):
                    self._forget(game)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=messages.MAX_BODY + 1024,
                              middlewares=[self.guard])
        app.add_routes([web.post("/games", self.create), web.get("/games", self.listing),
                        web.get("/games/{id}", self.watch),
                        web.get("/games/{id}/log", self.log),
                        web.get("/games/{id}/play", self.play),
                        web.get("/", self.pages.index),
                        web.get("/games/{id}/versions", self.pages.versions),
                        web.post("/imports", self.imports.post),
                        *self.boards.routes()])
        app.on_startup.append(self.startup)
        app.on_shutdown.append(self.shutdown)
        return app

    async def startup(self, app: web.Application) -> None:
        self.sweeper = asyncio.get_running_loop().create_task(self.sweep())

    async def shutdown(self, app: web.Application) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        await self.computers.stop()
        for c in list(self.clients):
            await c.ws.close(code=1001, message=b"server shutting down")
        self.engine.close()

    @web.middleware
    async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every response: the security headers (pages.security_headers); a fault of the
        server is a generic 500 line, its traceback in the server's log; a client that went
        away mid-request is no fault (nothing logged: a flood of them must not fill the log)."""
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            security_headers(exc)
            raise
        except ConnectionError:   # the client went away (a WebSocket upgrade it reset):
            return web.Response(status=400, text="the client went away")   # nobody reads it
        except Exception:
            print(f"{request.method} {request.path_qs[:200]} failed:\n{traceback.format_exc()}",
                  file=sys.stderr, flush=True)
            response = _error(500, "the server failed on this request (logged there)")
        security_headers(response)
        return response

    # --- HTTP --------------------------------------------------------------------------------
    async def create(self, request: web.Request) -> web.Response:
        address = self.address(request)
        wait = max(self.creates.take(address), self.engine.wait(address))
        if wait > 0:
            return _slow_down(f"too many new games from {address}: try again later", wait)
        try:
            async with asyncio.timeout(self.limits.idle_s):
                body = await request.read()
        except TimeoutError:
            return _error(408, f"the body did not arrive within {self.limits.idle_s:g} s")
        except web.HTTPRequestEntityTooLarge:
            return _error(400, f"body too large (at most {messages.MAX_BODY} bytes)")
        try:
            arg, seed = messages.read_new_game(body)
            game_id = await asyncio.to_thread(_new_id, self.store)
            game = await self.engine.run(None, address, made_game, game_id, arg, seed,
                                         self.limits)
            computer = read_computer(body, list(game.seats))
            if computer is not None and self.computers.seat is None:
                raise FrameError("computer: this server plays no seat itself (started without "
                                 "a computer player)")
        except (FrameError, BattlefieldError) as exc:
            return _error(400, str(exc))
        await asyncio.to_thread(self.store.create, game_id, game.ruleset, game.scene_text,
                                game.scene_name, game.seed, game.seats, time.time(),
                                game.seeded)
        if computer is not None:
            await asyncio.to_thread(self.computers.add, game_id, computer)
        self.games[game_id] = game
        self.computers.attach(game)
        out = {"game": game_id, "ruleset": game.ruleset, "seats": game.seats,
               "seeded": game.seeded, "watch": f"/games/{game_id}",
               "join": join_links(request, self.public_url, game_id, game.seats, computer)}
        if computer is not None:
            out["computer"] = computer
        return web.json_response(out, status=201)

    async def listing(self, request: web.Request) -> web.Response:
        """GET /games?page=N: a page of games, the newest first."""
        page = self.page_asked(request)
        if isinstance(page, web.Response):
            return page
        games, total, pages = await self.page_of_games(page)
        return web.json_response({
            "games": games, "page": page, "pages": pages, "total": total,
            "next": f"/games?page={page + 1}" if page < pages else None})

    def page_asked(self, request: web.Request) -> int | web.Response:
        """The ?page=N of a listing (1 when not given), or the 400 for a bad one."""
        page = plain_whole(request.query.get("page", "1"))
        if page is None or page < 1 or page > 10**9:
            return _error(400, "page: expected a page number, 1 or more (?page=N)")
        return page

    async def page_of_games(self, page: int) -> tuple[list[dict[str, Any]], int, int]:
        """(the games of listing page `page`, how many games there are, how many pages)."""
        size = self.limits.page_size
        total = await asyncio.to_thread(self.store.count)
        games = await asyncio.to_thread(self.store.listing, (page - 1) * size, size)
        for g in games:                          # live games know better than the database
            live = self.games.get(g["id"])
            if live is not None:
                g["version"], g["over"] = live.version, live.over
        return games, total, max(1, -(-total // size))

    async def watch(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self.play(request)
        game_id = request.match_info["id"]
        if wants_html(request):                         # a browser: the live page
            game = await self.game(game_id, self.address(request))
            if game is None:
                return _error(404, f"no game {shown(game_id, 40)}")
            return await self.pages.page(game, self.address(request))
        live = self.games.get(game_id)                  # else the database says it all
        about = ({"ruleset": live.ruleset, "version": live.version, "over": live.over,
                  "sides": list(live.seats), "seed": live.seed, "seeded": live.seeded}
                 if live is not None else await asyncio.to_thread(self.store.summary, game_id))
        if about is None:
            return _error(404, f"no game {shown(game_id, 40)}")
        return web.json_response({
            "game": game_id, "ruleset": about["ruleset"], "version": about["version"],
            "over": about["over"], "sides": about["sides"],
            "seed_sha256": messages.seed_sha256(about["seed"]), "seeded": about["seeded"],
            "play": f"/games/{game_id}/play", "log": f"/games/{game_id}/log"},
            headers={"Vary": "Accept"})               # a browser gets the page instead

    async def log(self, request: web.Request) -> web.Response:
        game_id = request.match_info["id"]
        text = self.logs.get(game_id)
        if text is None:
            game = await self.game(game_id, self.address(request))
            if game is None:
                return _error(404, f"no game {shown(game_id, 40)}")
            if not game.over:
                return _error(409, f"game {game.id} is not over (version {game.version}): its "
                                   f"log is given at the end")
            if game.log_text is None:
                game.log_text = await self.engine.run(game.id, self.address(request), game.log)
            text = game.log_text
            self.keep_log(game.id, text)
            self.idle(game)
        return web.Response(text=text, content_type="application/x-ndjson")

    # --- the WebSocket -----------------------------------------------------------------------
    async def play(self, request: web.Request) -> web.StreamResponse:
        address = self.address(request)
        wait = self.frames.take(address)
        if wait > 0:
            return _slow_down(f"too many requests from {address}: try again later", wait)
        game = await self.game(request.match_info["id"], address)
        if game is None:
            return _error(404, f"no game {shown(request.match_info['id'], 40)}")
        if request.headers.get("Upgrade", "").lower() != "websocket" and wants_html(request):
            return await self.play_pages.page(request, game, address)  # a browser: its page
        token = request.query.get("seat") or None      # ?seat= with nothing: a spectator
        seat = None
        if token is not None:
            seat = game.tokens.get(token)
            if seat is None:
                return _error(403, "no such seat in this game (the seat token is wrong)")
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


def read_computer(body: bytes, sides: list[str]) -> str | None:
    """POST /games's "computer": the side the server plays with the ruleset's computer
    player (None: two people play); FrameError naming the sides when it is none of them."""
    data = messages.read_body(body)
    side = data.get("computer") if isinstance(data, dict) else None
    if side is None:
        return None
    if not isinstance(side, str) or side not in sides:
        raise FrameError(f"computer: expected one of the scene's sides ({', '.join(sides)}), "
                         f"not {messages.quoted(side)}")
    return side


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


def _error(status: int, line: str) -> web.Response:
    return web.json_response({"error": " ".join(line.split())}, status=status)


def _slow_down(line: str, seconds: float) -> web.Response:
    """429 Too Many Requests, with the seconds to wait in Retry-After."""
    wait = retry_after(seconds)
    return web.json_response({"error": f"{line} (in {wait} s)", "retry_after": wait},
                             status=429, headers={"Retry-After": str(wait)})


def _new_id(store: Store) -> str:
    while True:
        game_id = secrets.token_hex(6)
        if not store.exists(game_id):
            return game_id


async def serve(host: str, port: int, db: str | Path, limits: Limits | None = None,
                public_url: str | None = None, catalogues: list[str] | None = None,
                computer: SeatFactory | None = None) -> None:
    """Run until SIGINT or SIGTERM; the first line on standard output says where (the
    signals are taken before it is printed: a stop right after it is still a clean one).
    `computer`: the seat the server plays games' computer sides with (`battlefield serve`
    gives client/computer.ComputerSeat)."""
    limits = limits or Limits()
    files = more_files()
    # Never more connections than files to hold them (and the database's, the logs'): past the
    # limit a connection is closed at once, not an accept failing again and again.
    limits = replace(limits, connections=max(16, min(limits.connections, files - 64)))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):   # not the main thread (tests in-process)
            pass
    quiet_client_errors()
    # The engine's threads hold the GIL in turns of this many seconds: short ones, so that the
    # event loop reads, writes and hands out work while they compute (the default is 5 ms).
    sys.setswitchinterval(0.001)
    server = Server(db, limits, public_url, catalogues, computer)
    runner = web.AppRunner(server.app(), handle_signals=False, access_log=None,
                           keepalive_timeout=limits.idle_s, shutdown_timeout=5.0)
    await runner.setup()
    site = CountedSite(runner, host, port, limits, server.penalties)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        server.store.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound = runner.addresses[0]
    shown_host = f"[{bound[0]}]" if ":" in str(bound[0]) else bound[0]
    print(f"serving on http://{shown_host}:{bound[1]}", flush=True)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        server.store.close()
        print("stopped", file=sys.stderr, flush=True)
