"""The play page: `GET /games/ID/play?seat=TOKEN` asked for by a browser (Accept: text/html) -
the address of the seat's WebSocket is also its page. It is the game's live page (the same SVG,
the same viewer and versions, server/pages.py) joined with the seat, plus play
(battlefield/server/static/play.js): dragging, live checks from the server's `preview`, the
seat's actions as buttons from its `offers`.

Also the join links POST /games answers with: for each seat the address of its play page,
`http(s)://HOST:PORT/games/ID/play?seat=TOKEN`, HOST:PORT being the server's public address
(`serve --public-url`, for a server behind a proxy) or the one the request came to."""

from __future__ import annotations

from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from aiohttp import web

from battlefield.page.replay import game_page
from battlefield.server.games import LiveGame
from battlefield.server.pages import live_script, new_nonce, security_headers

if TYPE_CHECKING:
    from battlefield.server.app import Server

PANEL = """<section class="seat"><div id="you"></div><div id="turn"></div></section>
<div id="preview" class="preview" hidden data-legal="" data-codes="" aria-live="polite"></div>
<div id="message" class="message" aria-live="polite"></div>
<div id="actions" class="actions"></div><div id="forms" class="forms"></div>
"""


def play_script() -> str:
    """The play page's script (battlefield/server/static/play.js), written inline."""
    return resources.files("battlefield.server").joinpath("static", "play.js").read_text(
        "utf-8")


def base_url(request: web.Request, public: str | None) -> str:
    """The address people reach this server at: --public-url, else the request's own."""
    if public:
        return public.rstrip("/")
    return f"{request.scheme}://{request.host}"


def join_links(request: web.Request, public: str | None, game_id: str,
               seats: dict[str, str], computer: str | None = None) -> dict[str, str]:
    """{SIDE: URL} of every seat a person plays (the computer's seat has no link)."""
    base = base_url(request, public)
    return {side: f"{base}/games/{game_id}/play?seat={quote(token, safe='')}"
            for side, token in seats.items() if side != computer}


class PlayPages:
    """The play page of each seat (server/app.py routes GET /games/ID/play here for a
    browser)."""

    def __init__(self, server: Server) -> None:
        self.server = server

    async def page(self, request: web.Request, game: LiveGame, address: str = "?"
                   ) -> web.StreamResponse:
        token = request.query.get("seat") or None
        seat = game.tokens.get(token) if token is not None else None
        if token is not None and seat is None:
            raise web.HTTPForbidden(text="no such seat in this game (the seat token is wrong)")
        book, shown = await self.server.pages.book(game, address)
        name = book.scene.name or game.scene_name
        title = (f"{name}: you play {seat}" if seat else f"{name}: watching") + \
            f" ({game.ruleset} game {game.id})"
        computer = self.server.computers.side(game.id)
        against = f" against the computer ({computer})" if computer and computer != seat else ""
        dice = ("seeded by its creator: its dice could be foreseen (practice)" if game.seeded
                else "dice from a secret seed, shown at the end")
        sub = (f"game {game.id} · " + (f"you play {seat}{against}" if seat else
                                        "watching as a spectator")
               + f" · drag your units, the server checks every move · {dice}")
        play_url = f"/games/{game.id}/play" + (f"?seat={quote(token, safe='')}" if token else "")
        extra: dict[str, Any] = {
            "game": game.id, "ruleset": game.ruleset, "seed_sha256": game.seed_sha256,
            "seeded": game.seeded,
            "live": {"play": play_url, "versions": f"/games/{game.id}/versions",
                     "over": game.over},
            "play": {"seat": seat, "computer": computer}}
        if game.over:
            extra["seed"] = game.seed
        nonce = new_nonce()
        text = game_page(book.scene, book.versions[:shown], title, sub, extra,
                         scripts=(live_script(), play_script()), play=PANEL,
                         kind="replay play", nonce=nonce)
        response = web.Response(text=text, content_type="text/html", charset="utf-8",
                                headers={"Vary": "Accept", "Cache-Control": "no-store"})
        security_headers(response, nonce)           # the CSP with this page's nonce
        return response


def links_html(links: dict[str, str], watch: str, computer: str | None = None) -> str:
    """The links to send (the new-game form's answer is made by its script; this is the same
    list for a page written by the server)."""
    rows = [f'<li><a href="{escape(url)}" data-join="{escape(side)}">{escape(side)}</a></li>'
            for side, url in links.items()]
    if computer:
        rows.append(f"<li>{escape(computer)}: the computer</li>")
    return (f'<ul class="links">{"".join(rows)}</ul><p><a href="{escape(watch)}">watch</a></p>')


__all__ = ["PlayPages", "base_url", "join_links", "play_script", "PANEL"]
