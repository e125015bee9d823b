"""One self-contained HTML page: the stylesheet and the viewer script shipped in
battlefield/page/static are written inline and the page's data is a JSON <script>, so the file
opens anywhere without a network or a server. The live page of the game server serves the same
static files and feeds the same viewer."""

from __future__ import annotations

import json
from html import escape
from importlib import resources
from typing import Any

STATIC = ("page.css", "depict.js", "viewer.js")


def static_text(name: str) -> str:
    """A file of battlefield/page/static (the page's stylesheet or script)."""
    return resources.files("battlefield.page").joinpath("static", name).read_text("utf-8")


def json_script(element_id: str, data: Any) -> str:
    """Data for the page's script, safe inside <script> (no '<' can end it early). Data is
    never run, so a Content-Security-Policy needs no nonce on it."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _nonce(nonce: str | None) -> str:
    return f' nonce="{escape(nonce)}"' if nonce else ""


def document(title: str, body: str, data: Any, kind: str, scripts: tuple[str, ...] = (),
             body_class: str | None = None, nonce: str | None = None) -> str:
    """The whole page: `body` inside, `data` as JSON, the viewer started for `kind`
    ("ruling" or "replay"), then `scripts` (inline, e.g. the server's live page script);
    `body_class`: the body's classes (the kind by default; the play page adds its own).
    `nonce`: on every inline script and style, for a Content-Security-Policy that runs only
    those (the game server's pages)."""
    n = _nonce(nonce)
    return ("<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="generator" content="battlefield">'
            f"<style{n}>{static_text('page.css')}</style></head>"
            f'<body class="{escape(body_class or kind)}">{body}'
            f'{json_script("battlefield-data", data)}'
            f"<script{n}>{static_text('depict.js')}</script>"
            f"<script{n}>{static_text('viewer.js')}</script>"
            f"<script{n}>Battlefield.start({json.dumps(kind)});</script>"
            + "".join(f"<script{n}>{s}</script>" for s in scripts) + "</body></html>\n")

