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
import secrets
import sys
from collections import OrderedDict
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

from aiohttp import web

from battlefield.inputs import plain_whole
from battlefield.page.html import static_text
from battlefield.page.replay import Versions, game_page
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text
from battlefield.server import replies
from battlefield.server.games import LiveGame, Record
from battlefield.server.imports import form_html, form_script

if TYPE_CHECKING:
    from battlefield.server.app import Server


def security_headers(response: web.StreamResponse, nonce: str | None = None) -> None:
    """On every response `X-Content-Type-Options: nosniff`; on a page a Content-Security-Policy
    that runs only the page's own inline script and style (those carrying `nonce`), talks only
    to this server (the live page's WebSocket and versions) and is framed by no one."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    if "Content-Security-Policy" in response.headers and nonce is None:
        return                                 # the page's own, with its nonce
    if response.content_type == "text/html" or nonce is not None:
        own = f"'nonce-{nonce}'" if nonce else "'none'"
        response.headers["Content-Security-Policy"] = (
            f"default-src 'none'; script-src {own}; style-src {own}; img-src data:; "
            f"connect-src 'self'; base-uri 'none'; form-action 'none'; "
            f"frame-ancestors 'none'")
        response.headers["Referrer-Policy"] = "no-referrer"


def new_nonce() -> str:
    return secrets.token_urlsafe(18)


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
        scene = load_scene_text(game.scene_text, game.scene_name, files=False)
        copy = Game(registry.get(game.ruleset), scene, game.seed)
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
        self.books: OrderedDict[str, Book] = OrderedDict()     # the most recently asked

    def forget(self, game_id: str) -> None:
        """The game left memory: its book too."""
        self.books.pop(game_id, None)

    async def book(self, game: LiveGame, address: str = "?") -> tuple[Book, int]:
        """The game's book with every version a spectator may see, and how many that is
        (made on the engine's worker threads; `limits.books` books are kept)."""
        upto = public(game)
        engine = self.server.engine
        try:
            book = self.books.get(game.id)
            if book is None:
                book = await engine.run(None, address, Book, game)
                book = self.books.setdefault(game.id, book)
            self.books.move_to_end(game.id)
            while len(self.books) > self.server.limits.books:
                self.books.popitem(last=False)
            async with book.lock:
                if len(book.versions) <= upto:
                    await engine.run(None, address, book.advance, list(game.records), upto)
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



    async def page(self, game: LiveGame, address: str = "?") -> web.Response:
        """The live page: the table at the versions so far, the live script after them."""
        book, shown = await self.book(game, address)
        name = book.scene.name or game.scene_name
        title = f"{name}: {game.ruleset} game {game.id}"
        dice = ("seeded by its creator: its dice could be foreseen (practice)" if game.seeded
                else f"dice from a secret seed, SHA-256 {game.seed_sha256[:16]}…, shown at "
                     f"the end")
        sub = (f"game {game.id} · {game.version} actions · "
               + ("over" if game.over else "live, watched as a spectator") + f" · {dice}")
        extra: dict[str, Any] = {
            "game": game.id, "ruleset": game.ruleset, "seed_sha256": game.seed_sha256,
            "seeded": game.seeded,
            "live": {"play": f"/games/{game.id}/play",
                     "versions": f"/games/{game.id}/versions", "over": game.over}}
        if game.over:
            extra["seed"] = game.seed
        nonce = new_nonce()
        text = game_page(book.scene, book.versions[:shown], title, sub, extra,
                         scripts=(live_script(),), nonce=nonce)
        response = web.Response(text=text, content_type="text/html", charset="utf-8",
                                headers={"Vary": "Accept", "Cache-Control": "no-store"})
        security_headers(response, nonce)
        return response

    async def versions(self, request: web.Request) -> web.Response:
        """GET /games/ID/versions?since=N: the versions from N on that a spectator may see."""
        game_id = request.match_info["id"]
        since = plain_whole(request.query.get("since", "0"))
        if since is None:
            return replies.error(400, "since: expected a version, a whole number 0 or more "
                               "(/games/ID/versions?since=N)")
        address = self.server.address(request)
        game = await self.server.game(game_id, address)
        if game is None:
            return replies.error(404, f"no game {game_id[:40]}")
        book, shown = await self.book(game, address)
        out = {"game": game.id, "version": game.version, "shown": shown - 1,
               "over": game.over, "versions": book.versions[since:shown]}
        return web.json_response(out, headers={"Cache-Control": "no-store"})

    async def index(self, request: web.Request) -> web.Response:
        """GET /?page=N: the server's games, the newest first, a page at a time, each a link
        to its page."""
        page = self.server.page_asked(request)
        if isinstance(page, web.Response):
            return page
        games, total, pages = await self.server.page_of_games(page)
        rows = []
        for g in games:
            gid = escape(g["id"])
            rows.append(f'<tr data-game="{gid}"><td><a href="/games/{gid}">{gid}</a></td>'
                        f'<td>{escape(g["ruleset"])}</td><td class="n">{g["version"]}</td>'
                        f'<td>{"over" if g["over"] else "playing"}</td></tr>')
        table = ("<table class=\"games\"><thead><tr><th>game</th><th>ruleset</th>"
                 "<th>actions</th><th></th></tr></thead><tbody>" + "".join(rows)
                 + "</tbody></table>") if rows else "<p>No games yet.</p>"
        links = [f'<a rel="prev" href="/?page={page - 1}">newer</a>'] if page > 1 else []
        links += [f'<a rel="next" href="/?page={page + 1}">older</a>'] if page < pages else []
        nav = (f'<nav class="pages" data-page="{page}" data-pages="{pages}">page {page} of '
               f'{pages} ({total} game{"" if total == 1 else "s"}) {" · ".join(links)}</nav>')
        nonce = new_nonce()
        text = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<title>battlefield games</title>"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                f"<style nonce=\"{nonce}\">{static_text('page.css')}{INDEX_CSS}</style>"
                "</head><body><main>"
                "<header><h1>Games on this server</h1><p class=\"sub\">Make a game and send "
                "its link, or open one to watch it live and step through it; set up a "
                "<a href=\"/board\">board</a> to argue a ruling (README: Play over the "
                "network).</p></header>"
                f"{form_html()}<h2>Games</h2>{table}{nav}</main>"
                f"<script nonce=\"{nonce}\">{form_script()}</script></body></html>\n")
        response = web.Response(text=text, content_type="text/html", charset="utf-8",
                                headers={"Cache-Control": "no-store"})
        security_headers(response, nonce)
        return response


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
nav.pages { margin-top: 12px; }
nav.pages a { color: var(--accent); margin-left: 8px; }
"""


