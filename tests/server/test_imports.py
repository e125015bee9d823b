"""POST /imports over a real socket (battlefield/server/imports.py): an army list is told by its
content, not its name - New Recruit's JSON export imports to the very scene its .ros does, under
any name, and so does a .ros named .json - and a file that is no army list, or one that cannot
be read, is one line of 400 naming the file as it was uploaded, after which the server still
makes games and imports lists."""

from __future__ import annotations

import asyncio
import io
import zipfile
from pathlib import Path

import aiohttp
import pytest
import yaml

from ._lists import as_json
from ._serve import Served

ROSTER = Path(__file__).parents[1] / "army" / "data" / "stormcast.ros"


def post(served: Served, name: str, data: bytes, side: str = "red",
         **fields: str) -> tuple[int, dict]:
    async def run() -> tuple[int, dict]:
        form = aiohttp.FormData()
        form.add_field("roster", data, filename=name)
        form.add_field("side", side)
        for key, value in fields.items():
            form.add_field(key, value)
        async with aiohttp.ClientSession() as s, s.post(served.http + "/imports",
                                                        data=form) as r:
            return r.status, await r.json()
    return asyncio.run(run())


@pytest.fixture(scope="module")
def served(tmp_path_factory, bsdata):
    s = Served(tmp_path_factory.mktemp("imports") / "games.sqlite", "--catalogues", str(bsdata))
    yield s
    s.stop()


def test_a_new_recruit_json_imports_as_its_ros_whatever_its_name(served):
    ros = ROSTER.read_bytes()
    status, want = post(served, "stormcast.ros", ros)
    assert status == 200, want
    assert want["units"] and want["scene"].startswith("# ")
    for name, data in (("stormcast.json", as_json(ros)),        # New Recruit's JSON
                       ("my list", as_json(ros)),               # named anyhow
                       ("stormcast.json", ros),                 # a .ros named .json
                       ("stormcast.rosz", ros)):                # ... or named .rosz
        status, got = post(served, name, data)
        assert status == 200, (name, got)
        assert got["units"] == want["units"]
        assert got["scene"].split("\n", 1)[1] == want["scene"].split("\n", 1)[1]  # past the header


def test_what_is_no_army_list_is_one_line_and_the_server_serves_on(served):
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("notes.txt", "no roster here")
    for name, data, said in (
            ("battle.yaml", b"ruleset: aos4\n", "battle.yaml is not an army list"),
            ("list.json", b'{"roster": {', "list.json: malformed JSON"),
            ("list.json", b'{"roster": [1, 2]}', "list.json: the JSON is not one roster"),
            ("list.json", b'{"catalogue": {"name": "x"}}', "not a <roster>"),
            ("list.ros", b"<not a roster", "list.ros:1: malformed XML"),
            ("list.rosz", zipped.getvalue(), "list.rosz: the zip holds 0 .ros/.cat/.gst files"),
            ("../../etc/passwd", b"<roster/>", "passwd")):
        status, out = post(served, name, data)
        assert status == 400, (name, out)
        assert said in out["error"] and "\n" not in out["error"], out
        assert "battlefield-import-" not in out["error"]     # the server's folder is not shown
    status, out = post(served, "list.ros", b"<roster/>", "green")
    assert status == 400 and "side: expected red or blue" in out["error"]
    status, _ = served.request("POST", "/games", {"scene": "demo-skirmish"})
    assert status == 201
    status, out = post(served, "stormcast.json", as_json(ROSTER.read_bytes()))
    assert status == 200 and out["units"]


def test_reserve_on_leaves_every_unit_to_the_deployment_phase(served):
    """`reserve=on` (the form's "set up by hand" box): the scene `army import --reserve` writes,
    every unit in reserve; the game made from two such lists begins with deployment, red to set
    a unit up. Anything but on/off is one line of 400."""
    ros = ROSTER.read_bytes()
    status, red = post(served, "stormcast.json", as_json(ros), reserve="on")
    assert status == 200, red
    status, both = post(served, "stormcast.ros", ros, "blue", reserve="on", into=red["scene"])
    assert status == 200, both
    units = yaml.safe_load(both["scene"])["units"]
    assert {u["side"] for u in units} == {"red", "blue"}
    assert all(u.get("reserve") and not any("at" in m for m in u["models"]) for u in units)
    game = served.new_game(both["scene"])

    async def hello() -> dict:
        async with aiohttp.ClientSession() as s, s.ws_connect(
                served.ws(game["game"], game["seats"]["red"])) as ws:
            return await ws.receive_json()
    state = asyncio.run(hello())["position"]["state"]
    assert state["phase"] == "deployment", state
    status, placed = post(served, "stormcast.ros", ros, reserve="off")
    assert status == 200 and not any(u.get("reserve") for u in yaml.safe_load(
        placed["scene"])["units"])
    status, out = post(served, "stormcast.ros", ros, reserve="maybe")
    assert status == 400 and "reserve: expected on or off" in out["error"]
