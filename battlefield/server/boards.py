"""The board: a table anyone can arrange without a game, and share by a link. `GET
/board?scene=NAME` (or a scene uploaded on `GET /board`) opens a bundled scene's table; its
models and units are dragged freely (battlefield/server/static/board.js) and the rulings of
`battlefield check` - distances, combat, coherency, sight, objective control, and `measure`
between any two models - are worked out by the server for the position shown (`POST
/board/rulings`) and drawn from the depiction (battlefield/depiction), as every page draws.
Share stores the position: `POST /boards` with `{"scene": NAME_OR_YAML}` (a scene with its
`state:` or without; the page adds `"moves"`, where it moved models to, or starts from `"board":
ID`) answers 201 `{"board": ID, "url": "/board/ID"}`; `GET /board/ID` is that position's page,
`/board/ID.svg` its picture, `/board/ID.yaml` its scene. Boards are kept in the games' database
and never change: moving a shared board's models and sharing again makes a new board.

Under the server's limits as a game is (server/limits.py): a posted scene within its bytes,
models and terrain corners and read without any file of the server (a `map:` is a bundled
map), a new board counted as a new game for the address's rate, and every ruling, page and
picture the engine's work on its threads (server/worker.py), charged to the address."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

import yaml
from aiohttp import web

from battlefield.depiction.legend import ruling_lines
from battlefield.depiction.palette import full_palette
from battlefield.depiction.table import Rulings, depict, pieces_of_scene, side_colours
from battlefield.errors import BattlefieldError
from battlefield.inputs import plain_whole
from battlefield.page.html import document
from battlefield.page.legend import heading_html, legend_html
from battlefield.page.svg import Picture
from battlefield.paths import map_names
from battlefield.rules.standing import scene_referee
from battlefield.scene.load import load_scene_text
from battlefield.scene.model import Scene
from battlefield.server import messages, replies
from battlefield.server.limits import Buckets
from battlefield.server.pages import new_nonce, security_headers
from battlefield.yamlsource import load_yaml

if TYPE_CHECKING:
    from battlefield.server.app import Server

SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    id TEXT PRIMARY KEY,
    scene_text TEXT NOT NULL,
    name TEXT NOT NULL,
    created REAL NOT NULL
);
"""
OVERLAY = ("objectives", "combat", "marks", "rulings", "measurement", "labels")
KEPT = 32                       # base scenes kept loaded
RULINGS_RATE = 20.0             # rulings a second one address may ask for
MAX_MOVES = 2000


class BoardError(ValueError):
    """A request about a board that cannot be answered: one line, a 400."""


def board_script() -> str:
    return resources.files("battlefield.server").joinpath("static", "board.js").read_text(
        "utf-8")


class Boards:
    """The boards of a server (server/app.py adds `routes`)."""

    def __init__(self, server: Server, scene_source: Callable[[str], tuple[str, str]]
                 ) -> None:
        self.server = server
        self.store = server.store
        with self.store.lock:
            self.store.db.executescript(SCHEMA)
        self.scene_source = scene_source
        self.kept: OrderedDict[tuple[str, str], tuple[str, str, Scene]] = OrderedDict()
        self.buckets = Buckets(RULINGS_RATE, RULINGS_RATE)   # rulings per address

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/board", self.start), web.post("/boards", self.create),
                web.post("/board/rulings", self.rulings),
                web.get(r"/board/{id:[0-9a-f]+}.svg", self.svg),
                web.get(r"/board/{id:[0-9a-f]+}.yaml", self.yaml),
                web.get(r"/board/{id:[0-9a-f]+}", self.page)]

    # --- the scenes -------------------------------------------------------------------------
    def stored(self, board_id: str) -> tuple[str, str] | None:
        with self.store.lock:
            row = self.store.db.execute("SELECT scene_text, name FROM boards WHERE id = ?",
                                        (board_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def base(self, spec: dict[str, Any]) -> tuple[str, str, Scene]:
        """(scene text, name, scene) of what a request starts from: {"board": ID} or
        {"scene": NAME_OR_YAML}; BoardError (a 400) or web.HTTPNotFound."""
        if "board" in spec:
            bid = spec["board"]
            if not isinstance(bid, str):
                raise BoardError("board: expected a board's id")
            key = ("board", bid)
        elif "scene" in spec:
            arg = spec["scene"]
            if not isinstance(arg, str) or not arg.strip():
                raise BoardError("scene: expected a bundled scene's name or a scene file's text")
            key = ("scene", arg)
        else:
            raise BoardError('expected {"scene": NAME_OR_YAML} or {"board": ID}')
        kept = self.kept.get(key)
        if kept is not None:
            self.kept.move_to_end(key)
            return kept
        if key[0] == "board":
            found = self.stored(key[1])
            if found is None:
                raise web.HTTPNotFound(text=messages.dumps({"error": f"no board {key[1]}"}),
                                       content_type="application/json")
            text, name = found
        else:
            try:
                text, name = self.scene_source(key[1])
            except BattlefieldError as exc:
                raise BoardError(str(exc)) from None
        scene = self.read(text, name)
        self.kept[key] = (text, name, scene)
        if len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return text, name, scene

    def read(self, text: str, name: str) -> Scene:
        """A scene's text read as a posted game's is: within the server's limits, no file of
        the server read (BoardError: the line to answer)."""
        limits = self.server.limits
        size = len(text.encode("utf-8", "surrogatepass"))
        try:
            if size > limits.scene_bytes:
                raise BoardError(f"the scene is {size:,} bytes, more than the server's "
                                 f"{limits.scene_bytes:,}")
            data, _ = load_yaml(name, text)       # counted before the scene is built
            if problem := limits.data_problem(data):
                raise BoardError(problem)
            scene = load_scene_text(text, name, files=False)
            if problem := limits.scene_problem(scene, size):
                raise BoardError(problem)
        except BattlefieldError as exc:
            raise BoardError(str(exc)) from None
        return scene

    async def _engine(self, address: str, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) on the engine's threads, charged to `address`; 429 past its share."""
        wait = self.server.engine.wait(address)
        if wait > 0:
            raise replies.too_many_raised(f"{address} asked the engine for more work than its "
                                          f"share lately", wait)
        return await self.server.engine.run(None, address, fn, *args)

    # --- HTTP ----------------------------------------------------------------------------------
    async def create(self, request: web.Request) -> web.Response:
        """POST /boards: the position stored for good; 201 {"board": ID, "url": "/board/ID"}.
        Counted as a new game for the address's rate."""
        address = self.server.address(request)
        wait = self.server.creates.take(address)
        if wait > 0:
            return replies.too_many(f"too many new games and boards from {address}: try again "
                             f"later", wait)
        try:
            spec = _read(await request.read())
            text, name = await self._engine(address, self.shared, spec)
        except (BoardError, messages.FrameError, BattlefieldError) as exc:
            return replies.error(400, str(exc))
        board_id = await asyncio.to_thread(self._insert, text, name)
        return web.json_response({"board": board_id, "url": f"/board/{board_id}"}, status=201)

    def shared(self, spec: dict[str, Any]) -> tuple[str, str]:
        """(text, name) of the position a share stores (it reads back, within the limits)."""
        text, name, scene = self.base(spec)
        moves = moves_of(spec.get("moves"), scene)
        if moves:
            text = moved_text(text, scene, moves)
            self.read(text, name)
        return text, name

    def _insert(self, text: str, name: str) -> str:
        with self.store.lock:
            while True:
                board_id = secrets.token_hex(6)
                if self.store.db.execute("SELECT 1 FROM boards WHERE id = ?",
                                         (board_id,)).fetchone() is None:
                    break
            self.store.db.execute("INSERT INTO boards (id, scene_text, name, created) "
                                  "VALUES (?, ?, ?, ?)", (board_id, text, name, time.time()))
        return board_id

    async def rulings(self, request: web.Request) -> web.Response:
        """POST /board/rulings {"board": ID | "scene": NAME, "moves": {...}, "measure": [A, B]}:
        the rulings of that position and the depiction of the table with them."""
        address = self.server.address(request)
        wait = self.buckets.take(address)
        if wait > 0:
            return replies.too_many(f"more than {RULINGS_RATE:g} rulings a second from {address}",
                             wait)
        try:
            spec = _read(await request.read())
            out = await self._engine(address, self.ruled, spec)
        except (BoardError, messages.FrameError, BattlefieldError) as exc:
            return replies.error(400, str(exc))
        return web.json_response(out, headers={"Cache-Control": "no-store"})

    def ruled(self, spec: dict[str, Any]) -> dict[str, Any]:
        _, _, scene = self.base(spec)
        moves = moves_of(spec.get("moves"), scene)
        measure = measure_of(spec.get("measure"), scene)
        return board_rulings(scene, moves, measure)

    async def start(self, request: web.Request) -> web.Response:
        """GET /board: a bundled scene's board (?scene=NAME), or the list of them and a form
        to upload one."""
        name = request.query.get("scene")
        nonce = new_nonce()
        if not name:
            return _html(pick_page(nonce=nonce), nonce)
        address = self.server.address(request)
        try:
            text, title, scene = await self._engine(address, self.base, {"scene": name})
        except BoardError as exc:
            return _html(pick_page(str(exc), nonce), nonce, status=400)
        return _html(await self._engine(address, board_page, scene, {"scene": name}, title,
                                        None, nonce), nonce)

    async def page(self, request: web.Request) -> web.Response:
        bid = request.match_info["id"]
        address = self.server.address(request)
        nonce = new_nonce()
        text, name, scene = await self._engine(address, self.base, {"board": bid})
        return _html(await self._engine(address, board_page, scene, {"board": bid}, name, bid,
                                        nonce), nonce)

    async def svg(self, request: web.Request) -> web.Response:
        address = self.server.address(request)
        _, _, scene = await self._engine(address, self.base, {"board": request.match_info["id"]})
        text = await self._engine(address, board_svg, scene)
        return web.Response(text=text, content_type="image/svg+xml", charset="utf-8")

    async def yaml(self, request: web.Request) -> web.Response:
        text, _, _ = await self._engine(self.server.address(request), self.base,
                                        {"board": request.match_info["id"]})
        return web.Response(text=text, content_type="application/yaml", charset="utf-8")


# --- positions --------------------------------------------------------------------------------
def _read(body: bytes) -> dict[str, Any]:
    data = messages.read_body(body)
    if not isinstance(data, dict):
        raise BoardError('body: expected {"scene": NAME_OR_YAML} or {"board": ID}, with '
                         '"moves" optional')
    return data


def moves_of(raw: Any, scene: Scene) -> dict[tuple[int, int], tuple[float, float]]:
    """{"UNIT/N": [x, y]} read against the scene: (unit index, model index) -> where, each on
    the board; BoardError naming the first that is not."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise BoardError('moves: expected {"UNIT/N": [x, y], ...}')
    if len(raw) > MAX_MOVES:
        raise BoardError(f"moves: {len(raw)} models, more than the {MAX_MOVES} a board takes")
    index = {u.id: k for k, u in enumerate(scene.units)}
    out = {}
    for name, at in raw.items():
        uid, _, n = str(name).rpartition("/")
        k = plain_whole(n)
        if uid not in index or k is None or not 1 <= k <= len(scene.units[index[uid]].models):
            raise BoardError(f"moves: no model {name!r} on this board (UNIT/N, N from 1)")
        if (not isinstance(at, list) or len(at) != 2 or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)
                for v in at)):
            raise BoardError(f"moves: {name}: expected [x, y] in inches")
        x, y = float(at[0]), float(at[1])
        if not (0 <= x <= scene.width and 0 <= y <= scene.depth):
            raise BoardError(f"moves: {name} at ({x:g}, {y:g}) is off the {scene.width:g}\" x "
                             f"{scene.depth:g}\" board")
        out[(index[uid], k - 1)] = (round(x, 4), round(y, 4))
    return out


def measure_of(raw: Any, scene: Scene) -> tuple[str, str] | None:
    if raw is None:
        return None
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(v, str) for v in raw)):
        raise BoardError('measure: expected ["UNIT/N", "UNIT/N"] (or unit ids)')
    return raw[0], raw[1]


def moved(scene: Scene, moves: dict[tuple[int, int], tuple[float, float]]) -> Scene:
    """The scene with those models moved."""
    if not moves:
        return scene
    units = list(scene.units)
    for (u, k), (x, y) in moves.items():
        models = list(units[u].models)
        models[k] = replace(models[k], x=x, y=y)
        units[u] = replace(units[u], models=models)
    return replace(scene, units=units)


def moved_text(text: str, scene: Scene, moves: dict[tuple[int, int], tuple[float, float]]
               ) -> str:
    """The scene file's text with the moved models' `at:` changed (everything else as it
    was read: a `state:`, a `map:` it names)."""
    data = yaml.safe_load(text)
    for (u, k), (x, y) in moves.items():
        data["units"][u]["models"][k]["at"] = [x, y]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def board_rulings(scene: Scene, moves: dict[tuple[int, int], tuple[float, float]],
                  measure: tuple[str, str] | None) -> dict[str, Any]:
    """The rulings of the position and the depiction of the table with them."""
    now = moved(scene, moves)
    referee = scene_referee(now)
    report = referee.check_report()
    m = referee.measure_report(*measure) if measure else None
    colours = side_colours(now, report)
    dep = depict(now, pieces_of_scene(now), Rulings.of_report(report), m, colours=colours)
    return {"overlay": {k: dep.layers[k] for k in OVERLAY}, "lines": ruling_lines(report),
            "measure": m, "palette": full_palette(colours) | dep.palette()}


def board_svg(scene: Scene) -> str:
    report = scene_referee(scene).check_report()
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + Picture(scene, report).svg("board") + "\n"


BOARD_PANEL = """<aside class="panel board-panel">
<div class="tools"><button type="button" id="share">share this position</button>
<button type="button" id="measure" aria-pressed="false">measure two models</button>
<button type="button" id="reset">back to the start</button></div>
<p id="share-link" class="share" hidden></p>
<p id="board-state" class="hint"></p>
<h2>Rulings</h2><div id="board-rulings" class="rulings"></div>
<p id="measured" class="measure-caption"></p>
<p class="hint">Drag a unit (Shift: one model) anywhere; the server rules the position as
<code>battlefield check</code> does. Measure: click two models.</p>
</aside>"""


def board_page(scene: Scene, base: dict[str, str], title: str, board_id: str | None = None,
               nonce: str | None = None) -> str:
    """The board's page: the table as it stands with its rulings, the panel, the script."""
    report = scene_referee(scene).check_report()
    picture = Picture(scene, report)
    svg = picture.svg("board", standalone=False, nonce=nonce)
    lines = "".join(f"<p>{escape(line)}</p>" for line in ruling_lines(report))
    panel = BOARD_PANEL.replace('<div id="board-rulings" class="rulings"></div>',
                                f'<div id="board-rulings" class="rulings">{lines}</div>')
    sub = f"board {board_id} (shared: moving it makes a new one)" if board_id else \
        "a board: arrange it, then share the link"
    body = (f'<main><div class="board-col"><header>{heading_html(scene)}'
            f'<p class="sub">{escape(sub)}</p></header>'
            f'<div class="table-wrap">{svg}</div>'
            f"{legend_html(scene, report, None, picture.colours)}</div>"
            f"{panel}"
            "</main>")
    data = {"kind": "board", "base": base, "board": board_id, "depth": scene.depth,
            "width": scene.width,
            "names": list(scene.model_names),
            "palette": full_palette(picture.colours) | picture.depiction().palette(),
            "units": {u.id: {"name": u.name or u.id, "side": u.side, "models": len(u.models)}
                      for u in scene.units}}
    return document(f"{title}: board", body, data, "ruling", (board_script(),),
                    "replay board", nonce)


def pick_page(problem: str = "", nonce: str | None = None) -> str:
    """GET /board without a scene: the bundled scenes to open, and an upload."""
    links = "".join(f'<li><a href="/board?scene={escape(n)}">{escape(n)}</a></li>'
                    for n in map_names())
    bad = f'<p class="bad">{escape(problem)}</p>' if problem else ""
    body = ("<main><header><h1>Set up a board</h1><p class=\"sub\">A table anyone can "
            "arrange and share by a link, with the referee's rulings.</p></header>"
            f"{bad}<h2>A bundled scene</h2><ul class=\"scenes\">{links}</ul>"
            "<h2>Or a scene file of yours</h2><p><input type=\"file\" id=\"upload\" "
            "accept=\".yaml,.yml,text/yaml\"></p><p id=\"upload-state\"></p></main>")
    return document("battlefield board", body, {"kind": "pick"}, "ruling", (board_script(),),
                    "pick", nonce)


def _html(text: str, nonce: str, status: int = 200) -> web.Response:
    """A page under the Content-Security-Policy that runs its own scripts (those with
    `nonce`)."""
    response = web.Response(text=text, status=status, content_type="text/html",
                            charset="utf-8", headers={"Cache-Control": "no-store"})
    security_headers(response, nonce)
    return response


__all__ = ["Boards", "board_rulings", "moves_of", "moved_text", "BoardError"]
