"""`battlefield serve`: one asyncio process (aiohttp) holding the games, HTTP for making and
listing them and their logs, one WebSocket per client for playing and watching (its seats'
frames and the computer seats' acts: server/seats.py).

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

from aiohttp import web

from battlefield.errors import BattlefieldError, InputError, UsageError
from battlefield.inputs import plain_whole, shown
from battlefield.names import after
from battlefield.paths import find_map, map_names
from battlefield.rules import registry
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.rulesets import BOARD_ID
from battlefield.scene.load import load_scene, load_scene_text
from battlefield.server import messages, replies
from battlefield.server.boards import Boards
from battlefield.server.computer import Computers, SeatFactory
from battlefield.server.connections import CountedSite, more_files, quiet_client_errors
from battlefield.server.games import LiveGame, replayed
from battlefield.server.imports import Imports
from battlefield.server.limits import (
    Buckets,
    Limits,
    Penalties,
    client_address,
    retry_after,
)
from battlefield.server.messages import FrameError
from battlefield.server.outbox import Client
from battlefield.server.pages import Pages, security_headers, wants_html
from battlefield.server.play_page import PlayPages, join_links
from battlefield.server.preview import Previews
from battlefield.server.seats import Seats
from battlefield.server.store import Store
from battlefield.server.worker import Engine
from battlefield.yamlsource import load_yaml


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


class Server(Seats):
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
            response = replies.error(500, "the server failed on this request (logged there)")
        security_headers(response)
        return response

    # --- HTTP --------------------------------------------------------------------------------
    async def create(self, request: web.Request) -> web.Response:
        address = self.address(request)
        wait = max(self.creates.take(address), self.engine.wait(address))
        if wait > 0:
            return replies.too_many(f"too many new games from {address}: try again later", wait)
        try:
            async with asyncio.timeout(self.limits.idle_s):
                body = await request.read()
        except TimeoutError:
            return replies.error(408, f"the body did not arrive within {self.limits.idle_s:g} s")
        except web.HTTPRequestEntityTooLarge:
            return replies.error(400, f"body too large (at most {messages.MAX_BODY} bytes)")
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
            return replies.error(400, str(exc))
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
            return replies.error(400, "page: expected a page number, 1 or more (?page=N)")
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
                return replies.error(404, f"no game {shown(game_id, 40)}")
            return await self.pages.page(game, self.address(request))
        live = self.games.get(game_id)                  # else the database says it all
        about = ({"ruleset": live.ruleset, "version": live.version, "over": live.over,
                  "sides": list(live.seats), "seed": live.seed, "seeded": live.seeded}
                 if live is not None else await asyncio.to_thread(self.store.summary, game_id))
        if about is None:
            return replies.error(404, f"no game {shown(game_id, 40)}")
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
                return replies.error(404, f"no game {shown(game_id, 40)}")
            if not game.over:
                return replies.error(409, f"game {game.id} is not over (version "
                                          f"{game.version}): its log is given at the end")
            if game.log_text is None:
                game.log_text = await self.engine.run(game.id, self.address(request), game.log)
            text = game.log_text
            self.keep_log(game.id, text)
            self.idle(game)
        return web.Response(text=text, content_type="application/x-ndjson")


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
