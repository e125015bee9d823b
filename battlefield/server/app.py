"""`battlefield serve`: one asyncio process (aiohttp) holding the games, HTTP for making and
listing them and their logs, one WebSocket per client for playing and watching.

Routes: POST /games, GET /games, GET /games/ID (a browser: its live page), GET /games/ID/log,
GET / and GET /games/ID/versions (server/pages.py), the WebSocket /games/ID/play?seat=TOKEN
(no seat: a spectator) whose address is also the seat's play page for a browser
(server/play_page.py), and the boards (server/boards.py). Each game's messages are produced in
the order its actions were accepted; every client has its own queue, written by its own task, so
a slow client never holds up a game. Previews and offers (server/preview.py) run on worker
threads; a computer seat (client/computer.py, handed to the Server by `serve`) acts through the
same checks as any seat."""

from __future__ import annotations

import asyncio
import secrets
import signal
import sys
import time
from pathlib import Path
from typing import Any

import yaml
from aiohttp import WSMsgType, web

from battlefield.errors import BattlefieldError, InputError, UsageError
from battlefield.paths import find_map, map_names
from battlefield.rules import boundary, registry
from battlefield.rules.actions import Action
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.rulesets import BOARD_ID
from battlefield.scene.load import load_scene, load_scene_text
from battlefield.server import messages
from battlefield.server.boards import Boards
from battlefield.server.computer import Computers, SeatFactory
from battlefield.server.games import LiveGame, Record, Refused, replayed
from battlefield.server.imports import Imports
from battlefield.server.messages import Act, FrameError, Offers, Preview, Resume
from battlefield.server.pages import Pages, wants_html
from battlefield.server.play_page import PlayPages, join_links
from battlefield.server.preview import Previews, engine_lock
from battlefield.server.store import Store

# aiohttp closes the connection on a frame past max_msg_size; below it a frame past
# messages.MAX_FRAME is answered with an error and the connection goes on.
WS_HARD_LIMIT = 8 * 1024 * 1024
OUTBOX_LIMIT = 20000                # messages queued for one client before it is dropped
HEARTBEAT = 30.0


def scene_source(arg: str) -> tuple[str, str]:
    """(scene text, name) of POST /games's "scene": a bundled scene's name (a map without
    units gets the ruleset's demo armies, as simulate --map does) or a scene file's text."""
    if "\n" not in arg and ":" not in arg:
        name = arg.strip()
        path = find_map(name)
        if path is None:
            raise InputError(name, "", None, "no such scene file",
                             "a scene file, or a bundled scene: " + ", ".join(map_names()))
        scene = load_scene(path)
        if scene.ruleset.id == BOARD_ID:
            raise UsageError(f"{name} is a plain board (no ruleset: key): a game needs a "
                             f"scene with a ruleset and units")
        if scene.units:
            return path.read_text(encoding="utf-8"), scene.name or path.stem
        return battle_scene(scene.ruleset.id, name)
    _no_files(arg)
    return arg, "<scene>"


def _no_files(text: str) -> None:
    """A scene sent to the server may take a bundled map (`map: NAME`) but no file of the
    server's: a path there would be read from the server's disk."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return                                # the loader says what is wrong, with its line
    ref = data.get("map") if isinstance(data, dict) else None
    if ref is None:
        return
    if (not isinstance(ref, str) or any(c in ref for c in "/\\") or ref.startswith(".")
            or find_map(ref) is None):
        raise InputError("<scene>", "map", None, f"no bundled map {ref!r} (a game on a server "
                         f"reads no files)", "a bundled map: " + ", ".join(map_names()))


def new_game(arg: str, seed: int | None) -> tuple[str, str, str, int, list[str]]:
    """(ruleset, scene text, name, seed, sides) of a new game; BattlefieldError with the line
    the command line prints when the scene cannot be played."""
    text, name = scene_source(arg)
    scene = load_scene_text(text, name)
    if scene.ruleset.id == BOARD_ID:
        raise UsageError(f"{name} is a plain board (no ruleset: key): a game needs a scene "
                         f"with a ruleset and units")
    if not scene.units:
        raise InputError(name, "units", None, "a game needs units", "units for two sides")
    ruleset = registry.get(scene.ruleset.id)
    registry.checked(scene, battle=True)     # as validate: units without their stats refused
    seed = secrets.randbits(63) if seed is None else seed
    Game(ruleset, scene, seed).new_state(keep_undo=False)
    return scene.ruleset.id, text, name, seed, list(scene.sides)


class Client:
    """One WebSocket: its seat (None: a spectator) and its outgoing queue."""

    def __init__(self, ws: web.WebSocketResponse, seat: str | None) -> None:
        self.ws, self.seat = ws, seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._write())

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.queue.qsize() > OUTBOX_LIMIT:
            self.queue.put_nowait(None)           # too far behind: closed, it may resume
            return
        self.queue.put_nowait(msg if isinstance(msg, str) else messages.dumps(msg))

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None or self.ws.closed:
                break
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                break
        if not self.ws.closed:
            await self.ws.close()

    async def finish(self) -> None:
        self.queue.put_nowait(None)
        await asyncio.gather(self.task, return_exceptions=True)


class Server:
    """The games, live ones in memory (rebuilt from the database when first asked for)."""

    def __init__(self, db: str | Path, public_url: str | None = None,
                 catalogues: list[str] | None = None, computer: SeatFactory | None = None
                 ) -> None:
        self.store = Store(db)
        self.public_url = public_url                    # serve --public-url: the join links'
        self.games: dict[str, LiveGame] = {}
        self.loading: dict[str, asyncio.Future[LiveGame]] = {}
        self.logs: dict[str, str] = {}                  # finished games' logs, once asked for
        self.clients: set[Client] = set()
        self.pages = Pages(self)                        # the browser's pages (server/pages.py)
        self.play_pages = PlayPages(self)               # each seat's play page
        self.previews = Previews()                      # live checks and offers for seats
        self.computers = Computers(self.store.db, computer)    # the computer's seats
        self.boards = Boards(self.store.db, scene_source)
        self.imports = Imports(catalogues)              # army lists made scenes
        self.tasks: set[asyncio.Task[Any]] = set()

    async def game(self, game_id: str) -> LiveGame | None:
        """The live game, rebuilt from the database when it is not in memory (after a
        restart, or a finished game nobody watched for a while): its actions are replayed on
        a worker thread, so the other games go on meanwhile."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        loading = self.loading.get(game_id)
        if loading is None:
            stored = self.store.load(game_id)
            if stored is None:
                return None
            loading = asyncio.ensure_future(asyncio.to_thread(
                replayed, stored.id, stored.ruleset, stored.scene_text, stored.scene_name,
                stored.seed, stored.seats, stored.actions))
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
        self.computers.attach(game, self.accept)
        return game

    def idle(self, game: LiveGame) -> None:
        """A finished game that nobody is connected to leaves memory (its log stays cached)."""
        if game.over and not game.clients and game.log_text is not None:
            self.games.pop(game.id, None)
            self.logs[game.id] = game.log_text

    def app(self) -> web.Application:
        app = web.Application(client_max_size=messages.MAX_BODY + 1024)
        app.add_routes([web.post("/games", self.create), web.get("/games", self.listing),
                        web.get("/games/{id}", self.watch),
                        web.get("/games/{id}/log", self.log),
                        web.get("/games/{id}/play", self.play),
                        web.get("/", self.pages.index),
                        web.get("/games/{id}/versions", self.pages.versions),
                        web.post("/imports", self.imports.post),
                        *self.boards.routes()])
        app.on_shutdown.append(self.shutdown)
        return app

    async def shutdown(self, app: web.Application) -> None:
        await self.computers.stop()
        for c in list(self.clients):
            await c.ws.close(code=1001, message=b"server shutting down")

    # --- HTTP --------------------------------------------------------------------------------
    async def create(self, request: web.Request) -> web.Response:
        try:
            body = await request.read()
            arg, seed = messages.read_new_game(body)
            ruleset, text, name, seed, sides = await asyncio.to_thread(new_game, arg, seed)
            computer = read_computer(body, sides)
            if computer is not None and self.computers.seat is None:
                raise FrameError("computer: this server plays no seat itself (started without "
                                 "a computer player)")
        except (FrameError, BattlefieldError) as exc:
            return _error(400, str(exc))
        game_id = _new_id(self.store)
        seats = LiveGame.new_seats(sides)
        game = await asyncio.to_thread(LiveGame, game_id, ruleset, text, name, seed, seats)
        self.store.create(game_id, ruleset, text, name, seed, seats, time.time())
        if computer is not None:
            self.computers.add(game_id, computer)
        self.games[game_id] = game
        self.computers.attach(game, self.accept)
        out = {"game": game_id, "ruleset": ruleset, "seats": seats,
               "watch": f"/games/{game_id}",
               "join": join_links(request, self.public_url, game_id, seats, computer)}
        if computer is not None:
            out["computer"] = computer
        return web.json_response(out, status=201)

    async def listing(self, request: web.Request) -> web.Response:
        games = self.store.listing()
        for g in games:                          # live games know better than the database
            live = self.games.get(g["id"])
            if live is not None:
                g["version"], g["over"] = live.version, live.over
        return web.json_response({"games": games})

    async def watch(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self.play(request)
        game = await self.game(request.match_info["id"])
        if game is None:
            return _error(404, f"no game {request.match_info['id']}")
        if wants_html(request):                         # a browser: the live page
            return await self.pages.page(game)
        return web.json_response({
            "game": game.id, "ruleset": game.ruleset, "version": game.version,
            "over": game.over, "sides": list(game.seats), "seed_sha256": game.seed_sha256,
            "play": f"/games/{game.id}/play", "log": f"/games/{game.id}/log"},
            headers={"Vary": "Accept"})               # a browser gets the page instead

    async def log(self, request: web.Request) -> web.Response:
        text = self.logs.get(request.match_info["id"])
        if text is None:
            game = await self.game(request.match_info["id"])
            if game is None:
                return _error(404, f"no game {request.match_info['id']}")
            if not game.over:
                return _error(409, f"game {game.id} is not over (version {game.version}): its "
                                   f"log is given at the end")
            if game.log_text is None:
                game.log_text = await asyncio.to_thread(game.log)
            text = game.log_text
            self.idle(game)
        return web.Response(text=text, content_type="application/x-ndjson")

    # --- the WebSocket -----------------------------------------------------------------------
    async def play(self, request: web.Request) -> web.StreamResponse:
        game = await self.game(request.match_info["id"])
        if game is None:
            return _error(404, f"no game {request.match_info['id']}")
        if request.headers.get("Upgrade", "").lower() != "websocket" and wants_html(request):
            return await self.play_pages.page(request, game)    # a browser: the play page
        token = request.query.get("seat") or None      # ?seat= with nothing: a spectator
        seat = None
        if token is not None:
            seat = game.tokens.get(token)
            if seat is None:
                return _error(403, "no such seat in this game (the seat token is wrong)")
        ws = web.WebSocketResponse(max_msg_size=WS_HARD_LIMIT, heartbeat=HEARTBEAT)
        await ws.prepare(request)
        client = Client(ws, seat)
        self.clients.add(client)
        game.clients.add(client)
        try:
            hello, after = game.hello(seat)
            client.send(hello)
            for record in after:
                client.send(record.message(seat))
            if game.over:
                client.send(game.over_message())
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    self.frame(game, client, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    client.send(messages.error("binary frames are not read: send JSON text"))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            game.clients.discard(client)
            self.clients.discard(client)
            await client.finish()
            self.idle(game)
        return ws

    def frame(self, game: LiveGame, client: Client, data: str) -> None:
        """One frame from a client: answered, and any event broadcast, before the next."""
        try:
            msg = messages.read_frame(data)
        except FrameError as exc:
            client.send(messages.error(str(exc)))
            return
        if isinstance(msg, (Preview, Offers)):          # answered off the event loop
            self.spawn(self.answer(game, client, msg))
            return
        if isinstance(msg, Resume):
            if msg.since > game.version:      # a version it cannot have seen: not "in step"
                client.send(messages.error(messages.resume_past(msg.since, game.version)))
                return
            for record in game.records[msg.since:]:
                client.send(record.message(client.seat))
            if game.over:
                client.send(game.over_message())
            return
        self.act(game, client, msg)

    async def answer(self, game: LiveGame, client: Client, msg: Preview | Offers) -> None:
        """A preview or the seat's offers (server/preview.py), to that client alone."""
        try:
            if isinstance(msg, Preview):
                out = await self.previews.preview(game, client.seat, msg)
            else:
                out = await self.previews.offers(game, client.seat)
        except Exception as exc:          # the engine failed on it: said, the game goes on
            print(f"game {game.id}: a {type(msg).__name__.lower()} failed: "
                  f"{type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            out = messages.error(f"the engine could not answer this ({type(exc).__name__}: "
                                 f"{exc})")
            if isinstance(msg, Preview):
                out["id"] = msg.id
        client.send(out)

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def accept(self, game: LiveGame, side: str, action: Action, key: str) -> bool:
        """An action of a seat the server plays itself (a computer seat): checked, stored and
        told to everyone as any seat's act is; False when it is refused."""
        def persist(version: int, side: str, key: str, action: dict[str, Any],
                    over: bool) -> None:
            self.store.add_action(game.id, version, side, key, action, over)

        try:
            with engine_lock(game):
                record = game.act(side, action, key, persist)
        except Refused as exc:
            print(f"game {game.id}: the computer's {action!r} was refused: {exc}",
                  file=sys.stderr, flush=True)
            return False
        except Exception as exc:
            print(f"game {game.id}: {action!r} failed: {type(exc).__name__}: {exc}",
                  file=sys.stderr, flush=True)
            return False
        self.broadcast(game, record)
        if game.over:
            over = messages.dumps(game.over_message())
            for c in game.clients:
                c.send(over)
        return True

    def act(self, game: LiveGame, client: Client, msg: Act) -> None:
        if client.seat is None:
            client.send(messages.refused(msg.id, [{
                "code": "not_your_seat",
                "message": "a spectator holds no seat: join with ?seat=TOKEN to play"}]))
            return
        done = game.answered(client.seat, msg.key)
        if done is not None:                      # a resend: the same event, not applied again
            client.send(done.message(client.seat))
            return

        def persist(version: int, side: str, key: str, action: dict[str, Any],
                    over: bool) -> None:
            self.store.add_action(game.id, version, side, key, action, over)

        action = boundary.read(msg.raw, game.state.scene)
        if isinstance(action, boundary.Refused):  # a field not of its type: as try says ILLEGAL
            client.send(messages.refused(msg.id, [v.to_dict() for v in action.violations]))
            return
        try:
            with engine_lock(game):
                record = game.act(client.seat, action, msg.key, persist)
        except Refused as exc:
            client.send(messages.refused(msg.id, exc.violations))
            return
        except Exception as exc:          # the engine failed on this action: the game is as before
            print(f"game {game.id}: {action!r} failed: {type(exc).__name__}: {exc}",
                  file=sys.stderr, flush=True)
            client.send(messages.refused(msg.id, [{
                "code": "engine_error",
                "message": f"the engine could not carry this action out "
                           f"({type(exc).__name__}: {exc})"}]))
            return
        self.broadcast(game, record)
        if game.over:
            over = messages.dumps(game.over_message())
            for c in game.clients:
                c.send(over)

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


def _error(status: int, line: str) -> web.Response:
    return web.json_response({"error": " ".join(line.split())}, status=status)


def _new_id(store: Store) -> str:
    while True:
        game_id = secrets.token_hex(6)
        if store.load(game_id) is None:
            return game_id


async def serve(host: str, port: int, db: str | Path, public_url: str | None = None,
                catalogues: list[str] | None = None, computer: SeatFactory | None = None
                ) -> None:
    """Run until SIGINT or SIGTERM; the first line on standard output says where (the
    signals are taken before it is printed: a stop right after it is still a clean one).
    `computer`: the seat the server plays games' computer sides with (`battlefield serve`
    gives client/computer.ComputerSeat)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):   # not the main thread (tests in-process)
            pass
    server = Server(db, public_url, catalogues, computer)
    runner = web.AppRunner(server.app(), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        server.store.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound = runner.addresses[0]
    shown = f"[{bound[0]}]" if ":" in str(bound[0]) else bound[0]
    print(f"serving on http://{shown}:{bound[1]}", flush=True)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        server.store.close()
        print("stopped", file=sys.stderr, flush=True)

