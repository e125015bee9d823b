"""The new-game form of the server's front page (`GET /`): a bundled scene, or a file of the
player's - a scene, or an army list exported from New Recruit (.json, .ros, .rosz) or
BattleScribe (.ros, .rosz) - against a friend or the computer; it ends with the links to send
(battlefield/server/static/new_game.js makes the game with `POST /games` and shows its `join`
links). An army list is made a scene by `POST /imports` (multipart: `roster`, the file; `side`,
red or blue; `into`, optional, a scene's text to add the army to; `reserve`, optional, `on`:
every unit left in reserve for the deployment phase, as `army import --reserve`), the very
import `battlefield army import --deploy` (or `--reserve`) does, with the server's catalogues
(`serve --catalogues DIR`, else the cache `battlefield army catalogues update` fills). The file
is told by its content, not its name (a zip, New Recruit's JSON, or XML:
army.xmlfile.roster_kind); anything else, or a list that cannot be read, is one line of 400.
Under the server's limits as a posted game is: the import is the engine's work charged to the
address, `into` is read as a posted scene (within the limits, its `map:` a bundled map only) and
so is the scene made."""

from __future__ import annotations

import re
import tempfile
from html import escape
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from battlefield.army.writer import import_army
from battlefield.army.xmlfile import roster_kind
from battlefield.errors import BattlefieldError, UsageError
from battlefield.paths import map_names
from battlefield.scene.load import load_scene_text
from battlefield.server import messages, replies
from battlefield.server.limits import retry_after
from battlefield.yamlsource import load_yaml

if TYPE_CHECKING:
    from battlefield.server.app import Server

LISTS = "a New Recruit .json, or a .ros or .rosz from New Recruit or BattleScribe"
SIDES = ("red", "blue")
FLAGS = {"on": True, "1": True, "true": True, "yes": True,
         "off": False, "0": False, "false": False, "no": False}


def form_script() -> str:
    return resources.files("battlefield.server").joinpath("static", "new_game.js").read_text(
        "utf-8")


def form_html() -> str:
    """The new-game form (its script, new_game.js, is put after it on the page)."""
    names = [n for n in map_names() if n.startswith("demo")] + \
        [n for n in map_names() if not n.startswith("demo")]
    options = "".join(f'<option value="{escape(n)}">{escape(n)}</option>' for n in names)
    return f"""<section class="new-game" id="new-game"><h2>New game</h2>
<form id="new-game-form">
<fieldset><legend>The table</legend>
<label><input type="radio" name="source" value="bundled" checked> a bundled scene
<select name="scene" id="scene-name">{options}</select></label>
<label><input type="radio" name="source" value="file"> a file of yours: a scene (.yaml) or an
army list (.json, .ros, .rosz from New Recruit; .ros, .rosz from BattleScribe)
<input type="file" name="file" id="scene-file" accept=".yaml,.yml,.json,.ros,.rosz"></label>
<label class="second">the other army list (blue), for two lists
<input type="file" name="second" id="second-file" accept=".json,.ros,.rosz"></label>
<label class="second"><input type="checkbox" name="reserve" id="reserve"> army lists: set up
by hand in the deployment phase (every unit starts in reserve)</label>
</fieldset>
<fieldset><legend>The opponent</legend>
<label><input type="radio" name="opponent" value="friend" checked> a friend (a link to send)
</label>
<label><input type="radio" name="opponent" value="computer"> the computer, playing
<select name="computer" id="computer-side"><option>blue</option><option>red</option></select>
</label>
</fieldset>
<label>seed (optional) <input type="number" name="seed" id="seed" min="0"></label>
<button type="submit" id="make-game">make the game</button>
</form>
<div id="new-game-result" class="links" aria-live="polite"></div></section>"""


class Imports:
    """POST /imports: an army list made a scene for a new game."""

    def __init__(self, server: Server, catalogues: list[str] | None = None) -> None:
        self.server = server
        self.catalogues = catalogues

    async def post(self, request: web.Request) -> web.Response:
        address = self.server.address(request)
        wait = self.server.engine.wait(address)
        if wait > 0:
            seconds = retry_after(wait)
            return web.json_response(
                {"error": f"{address} asked the engine for more work than its share lately "
                          f"(in {seconds} s)", "retry_after": seconds},
                status=429, headers={"Retry-After": str(seconds)})
        if (request.content_length or 0) > messages.MAX_BODY:
            return replies.error(400, f"the upload is larger than {messages.MAX_BODY} bytes")
        try:
            form = await request.post()
        except ValueError as exc:
            return replies.error(400, f"expected a form (multipart) with a roster file: {exc}")
        roster = form.get("roster")
        if not isinstance(roster, web.FileField):
            return replies.error(400, f"roster: expected an army list file ({LISTS})")
        side = str(form.get("side") or "red")
        if side not in SIDES:
            return replies.error(400, f"side: expected red or blue, not {messages.quoted(side)}")
        into = form.get("into")
        if into is not None and not isinstance(into, str):
            return replies.error(400, "into: expected a scene's text")
        reserve = str(form.get("reserve") or "off").lower()
        if reserve not in FLAGS:
            return replies.error(400, "reserve: expected on or off, not "
                                      f"{messages.quoted(reserve)}")
        data = roster.file.read(messages.MAX_BODY + 1)
        if len(data) > messages.MAX_BODY:
            return replies.error(400, f"roster: larger than {messages.MAX_BODY} bytes")
        kind = roster_kind(data)
        name = file_name(roster.filename, kind or ".ros")
        if kind is None:
            return replies.error(400, f"roster: {name} is not an army list ({LISTS}, told by its "
                               f"content); a scene file is given to POST /games as it is")
        try:
            out = await self.server.engine.run(None, address, self.scene_of, name, data, side,
                                               into, FLAGS[reserve])
        except BattlefieldError as exc:
            return replies.error(400, str(exc))
        return web.json_response(out)

    def scene_of(self, name: str, data: bytes, side: str, into: str | None,
                 reserve: bool = False) -> dict[str, Any]:
        """The scene `army import --deploy` (`--reserve`) writes for this list (added to
        `into`)."""
        if into:
            self.posted(into, "into")
        with tempfile.TemporaryDirectory(prefix="battlefield-import-") as tmp:
            try:
                return self.imported(Path(tmp), name, data, side, into, reserve)
            except BattlefieldError as exc:     # named as the player named the file
                raise UsageError(str(exc).replace(f"{tmp}/list/", "").replace(f"{tmp}/", "")
                                 ) from None

    def imported(self, tmp: Path, name: str, data: bytes, side: str,
                 into: str | None, reserve: bool = False) -> dict[str, Any]:
        """The import in the folder `tmp`: the list as `list/NAME`, `into` as into.yaml."""
        (tmp / "list").mkdir()
        roster = tmp / "list" / name
        roster.write_bytes(data)
        into_path = None
        if into:
            into_path = tmp / "into.yaml"
            into_path.write_text(into, encoding="utf-8")
        imported = import_army(roster, tmp / "battle.yaml", side, None if into_path is None
                               else str(into_path), self.catalogues, deploy=not reserve,
                               reserve=reserve)
        self.posted(imported.text, name)          # it reads back as a posted scene
        return {"scene": imported.text, "warnings": list(imported.warnings),
                "units": [u["id"] for u in imported.units]}

    def posted(self, text: str, name: str) -> None:
        """`text` read as a posted game's scene is: UsageError past the server's limits."""
        limits = self.server.limits
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limits.scene_bytes:
            raise UsageError(f"{name}: the scene is {size:,} bytes, more than the server's "
                             f"{limits.scene_bytes:,}")
        data, _ = load_yaml(name, text)
        if problem := limits.data_problem(data):
            raise UsageError(f"{name}: {problem}")
        scene = load_scene_text(text, name, files=False)
        if problem := limits.scene_problem(scene, size):
            raise UsageError(f"{name}: {problem}")


def file_name(given: str | None, kind: str) -> str:
    """The uploaded file's name as the import is given it (and its messages name it): its last
    part, in plain characters; `list` and the suffix its content says when nothing is left."""
    name = re.sub(r"[^\w.+() -]", "_", Path(given or "").name)[-120:].strip()
    if not name.strip("."):
        return f"list{kind}"
    # The import unzips a file whose name ends in z: one that is no zip says what it is.
    return f"{name}{kind}" if name.lower().endswith("z") and kind != ".rosz" else name


__all__ = ["Imports", "form_html", "form_script"]
