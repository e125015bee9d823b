"""The server's pages for people with a browser: `GET /` lists the games, `GET /games/ID`
(asked for as text/html) is the game's live page, and `GET /games/ID/versions?since=N` gives
the page the viewer's versions it does not have yet.

The live page is the replay page of battlefield/page/replay.py (the same SVG, the same viewer
script) with the versions so far written into it and battlefield/server/static/live.js, which
joins the game's WebSocket as a spectator (`/games/ID/play`, no seat): each `event` (and the
`over`) tells it a new version exists, and it fetches the versions since the last it has and
hands them to `viewer.addVersion`. The WebSocket protocol is unchanged.

The versions are built by the server, lazily, for the games someone watches in a browser: a
Book per game keeps its own copy of the game (the same scene and seed, the same actions
applied, each roll checked against the rolls the live game made) and page.replay.Versions of
it. A spectator sees only what the protocol shows a spectator: while a secret answer is
outstanding the versions from it on are held back (they would show its value), and appear
when the batch is revealed. No version, page or listing holds the seed before the game is over.
"""

from __future__ import annotations

import asyncio
import json
import sys
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

from aiohttp import web

from battlefield.inputs import plain_whole
from battlefield.page.html import static_text
from battlefield.page.replay import Versions, game_page
from battlefield.rules.actions import Action
from battlefield.rules.log import new_game
from battlefield.rules.state import State
from battlefield.server.games import LiveGame, Record
from battlefield.server.imports import form_html, form_script

if TYPE_CHECKING:
    from battlefield.server.app import Server


def live_script() -> str:
    """The live page's script (battlefield/server/static/live.js), written inline."""
    return resources.files("battlefield.server").joinpath("static", "live.js").read_text(
        "utf-8")


def wants_html(request: web.Request) -> bool:
    """A browser: text/html is asked for, at least as much as JSON. A client that asks for
    application/json, or says nothing, or takes anything (curl's */*) gets JSON."""
    ranks: dict[str, float] = {}
    for part in request.headers.get("Accept", "").split(","):
        kind, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for p in params:
            if p.startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        if kind:
            ranks[kind.lower()] = max(q, ranks.get(kind.lower(), 0.0))
    html = max(ranks.get("text/html", 0.0), ranks.get("application/xhtml+xml", 0.0))
    json_q = ranks.get("application/json", ranks.get("application/*", ranks.get("*/*", 0.0)))
    return html > 0 and html >= json_q


def public(game: LiveGame) -> int:
    """The last version a spectator may see whole: the one before an outstanding secret
    answer, else the game's version."""
    return game.clear[0] if game.clear is not None else game.version


class Book:
    """The viewer's versions of one game (page.replay.Versions), from the server's own copy."""

    def __init__(self, game: LiveGame) -> None:
        copy = new_game(game.ruleset, game.seed, game.scene_text, game.scene_name)
        self.scene = copy.scene
        state = copy.new_state(keep_undo=False)
        self.state: State | None = state
        self.maker = Versions(state)
        self.versions: list[dict[str, Any]] = [
            self.maker.version(state, 0, None, list(state.events))]
        self.lock = asyncio.Lock()

    def advance(self, records: list[Record], upto: int) -> None:
        """Versions up to `upto` (after that many of `records`)."""
        while len(self.versions) <= upto:
            n = len(self.versions)
            record = records[n - 1]
            state = self.state
            if state is None:
                raise RuntimeError(f"version {n}: the game's book is closed (it was over)")
            start, rolls = len(state.events), len(state.dice.log)
            state.apply(Action.from_dict(record.action))
            made = [r.to_dict() for r in state.dice.log[rolls:]]
            if json.dumps(made, sort_keys=True) != json.dumps(record.dice, sort_keys=True):
                raise RuntimeError(f"version {n}: the page's copy rolled differently from "
                                   f"the game")
            new = state.events[start:]
            self.versions.append(self.maker.version(state, n, new[0], new[1:]))


class Pages:
    """The routes of the pages (server/app.py adds them to its own)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.books: dict[str, Book] = {}

    async def book(self, game: LiveGame) -> tuple[Book, int]:
        """The game's book with every version a spectator may see, and how many that is."""
        upto = public(game)
        try:
            book = self.books.get(game.id)
            if book is None:
                book = self.books[game.id] = await asyncio.to_thread(Book, game)
            async with book.lock:
                if len(book.versions) <= upto:
                    await asyncio.to_thread(book.advance, list(game.records), upto)
        except Exception as exc:        # the engine failed on the copy: said in one line
            self.books.pop(game.id, None)
            line = f"game {game.id}: its page cannot be built: {type(exc).__name__}: {exc}"
            print(line, file=sys.stderr, flush=True)
            raise web.HTTPInternalServerError(text=json.dumps({"error": " ".join(
                line.split())}), content_type="application/json") from None
        async with book.lock:
            if game.over and book.state is not None and len(book.versions) > game.version:
                book.state = None           # every version is in: the copy is not needed
        return book, upto + 1



    async def page(self, game: LiveGame) -> web.Response:
        """The live page: the table at the versions so far, the live script after them."""
        book, shown = await self.book(game)
        name = book.scene.name or game.scene_name
        title = f"{name}: {game.ruleset} game {game.id}"
        sub = (f"game {game.id} · {game.version} actions · "
               + ("over" if game.over else "live, watched as a spectator"))
        extra: dict[str, Any] = {
            "game": game.id, "ruleset": game.ruleset, "seed_sha256": game.seed_sha256,
            "live": {"play": f"/games/{game.id}/play",
                     "versions": f"/games/{game.id}/versions", "over": game.over}}
        if game.over:
            extra["seed"] = game.seed
        text = game_page(book.scene, book.versions[:shown], title, sub, extra,
                         scripts=(live_script(),))
        return web.Response(text=text, content_type="text/html", charset="utf-8",
                            headers={"Vary": "Accept", "Cache-Control": "no-store"})

    async def versions(self, request: web.Request) -> web.Response:
        """GET /games/ID/versions?since=N: the versions from N on that a spectator may see."""
        game_id = request.match_info["id"]
        since = plain_whole(request.query.get("since", "0"))
        if since is None:
            return _error(400, "since: expected a version, a whole number 0 or more "
                               "(/games/ID/versions?since=N)")
        game = await self.server.game(game_id)
        if game is None:
            return _error(404, f"no game {game_id}")
        book, shown = await self.book(game)
        out = {"game": game.id, "version": game.version, "shown": shown - 1,
               "over": game.over, "versions": book.versions[since:shown]}
        return web.json_response(out, headers={"Cache-Control": "no-store"})

    async def index(self, request: web.Request) -> web.Response:
        """GET /: the server's games, each a link to its page."""
        games = self.server.store.listing()
        rows = []
        for g in games:
            live = self.server.games.get(g["id"])
            if live is not None:
                g["version"], g["over"] = live.version, live.over
            gid = escape(g["id"])
            rows.append(f'<tr data-game="{gid}"><td><a href="/games/{gid}">{gid}</a></td>'
                        f'<td>{escape(g["ruleset"])}</td><td class="n">{g["version"]}</td>'
                        f'<td>{"over" if g["over"] else "playing"}</td></tr>')
        table = ("<table class=\"games\"><thead><tr><th>game</th><th>ruleset</th>"
                 "<th>actions</th><th></th></tr></thead><tbody>" + "".join(rows)
                 + "</tbody></table>") if rows else "<p>No games yet.</p>"
        text = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<title>battlefield games</title>"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                f"<style>{static_text('page.css')}{INDEX_CSS}</style></head><body><main>"
                "<header><h1>Games on this server</h1><p class=\"sub\">Make a game and send "
                "its link, or open one to watch it live and step through it; set up a "
                "<a href=\"/board\">board</a> to argue a ruling (README: Play over the "
                "network).</p></header>"
                f"{form_html()}<h2>Games</h2>{table}</main>"
                f"<script>{form_script()}</script></body></html>\n")
        return web.Response(text=text, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})


INDEX_CSS = """
.new-game fieldset { border: 1px solid var(--line); margin: 6px 0; }
.new-game label { display: block; margin: 4px 0; }
.new-game .links li { margin: 3px 0; }
.new-game .links a, .new-game [data-join] { font-family: monospace; overflow-wrap: anywhere; }
.new-game button { font: inherit; padding: 4px 12px; min-height: 34px; }
table.games { border-collapse: collapse; margin-top: 12px; }
table.games th, table.games td { padding: 4px 14px 4px 0; text-align: left;
  border-bottom: 1px solid var(--line); }
table.games td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.games a { color: var(--accent); font-family: monospace; font-size: 15px; }
"""


def _error(status: int, line: str) -> web.Response:
    return web.json_response({"error": " ".join(line.split())}, status=status)
