"""The deployment phase on the play page, in a real headless Chromium over a real socket: the
deploying seat's page lists its units in reserve (offers' "reserve", server/reserve_offers.py);
a unit pressed in the list and dragged onto the table is checked by a preview as it goes
(#preview data-legal), a drop outside the territory keeps it in reserve, a drop inside sends
the deploy, after which the unit stands on both pages; the other seat's page lists nothing."""

from __future__ import annotations

import asyncio

import pytest

from battlefield.page.browser import INSTALL, find_chromium
from battlefield.server.reserve_offers import reserve_offers

from ._devtools import Chromium
from ._serve import reserve_battle
from .test_play_page import screen, version

pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason=f"no headless browser on this machine: {INSTALL}")


def test_the_offers_give_the_block_and_footprints_of_each_unit_in_reserve():
    from battlefield.rules import registry
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    state = Game(registry.find("aos4"), load_scene_text(reserve_battle())).new_state()
    side = state.acting_side
    got = reserve_offers(state, side)
    mine = [u.id for u in state.scene.units if u.side == side]
    assert [e["unit"] for e in got] == mine
    for e in got:
        spec = state.scene.units[state.scene.unit_index(e["unit"])]
        assert len(e["block"]) == len(e["feet"]) == len(spec.models)
        # each footprint surrounds its place, as wide as its base
        for (x, y), foot, m in zip(e["block"], e["feet"], spec.models, strict=True):
            far = max(((px - x) ** 2 + (py - y) ** 2) ** 0.5 for px, py in foot)
            assert far == pytest.approx(max(m.base.a, m.base.b), abs=1e-3)
    other = next(s for s in state.sides if s != side)
    assert reserve_offers(state, other) == []


async def _drag_from_list(page, unit: str, to: tuple[float, float]) -> dict:
    row = await page.eval(f"(() => {{ const r = document.querySelector("
                          f"'[data-reserve-unit=\"{unit}\"]').getBoundingClientRect(); "
                          f"return [r.left + r.width / 2, r.top + r.height / 2]; }})()")
    x1, y1 = await screen(page, *to)
    await page.mouse("down", *row)
    for k in range(1, 7):
        await page.mouse("move", row[0] + (x1 - row[0]) * k / 6, row[1] + (y1 - row[1]) * k / 6)
    await page.until("document.getElementById('preview').dataset.state === 'checked'")
    await asyncio.sleep(0.3)        # the last move's preview
    await page.until("document.getElementById('preview').dataset.state === 'checked'")
    said = await page.eval("Object.assign({text: document.getElementById('preview')"
                           ".textContent}, document.getElementById('preview').dataset)")
    await page.mouse("up", x1, y1)
    return said


def test_a_unit_is_dragged_from_the_reserve_list_and_set_up(server):
    game = server.new_game(reserve_battle(), 7)
    gid = game["game"]
    seen: dict = {}

    async def run() -> None:
        async with Chromium((1600, 1000)) as chromium:
            red = await chromium.open(game["join"]["red"])
            blue = await chromium.open(game["join"]["blue"])
            await red.until("battlefield.play.offers() && battlefield.play.offers().acting === "
                            "'red' && document.querySelectorAll('[data-reserve-unit]').length > 0")
            await blue.until("battlefield.play.offers() && battlefield.play.offers().acting "
                             "=== 'red'")
            seen["blue_rows"] = await blue.eval(
                "document.querySelectorAll('[data-reserve-unit]').length")
            units = await red.eval("Array.from(document.querySelectorAll("
                                   "'[data-reserve-unit]')).map(b => b.dataset.reserveUnit)")
            seen["units"] = units
            unit = units[0]
            before = version(server, gid)
            # the middle of the table: outside red's territory - refused, kept in reserve
            seen["outside"] = await _drag_from_list(red, unit, (30, 22))
            await red.until("document.getElementById('message').textContent"
                            ".startsWith('kept in reserve')")
            seen["unchanged"] = version(server, gid) == before
            # well inside red's territory (y 0..12 on this table)
            await red.until("document.querySelectorAll('[data-reserve-unit]').length > 0")
            seen["inside"] = await _drag_from_list(red, unit, (20, 5))
            deadline = asyncio.get_running_loop().time() + 60
            while version(server, gid) == before:
                assert asyncio.get_running_loop().time() < deadline, "the deploy was not sent"
                await asyncio.sleep(0.1)
            for page in (red, blue):        # the unit stands on both pages
                await page.until(f"!!document.querySelector('[data-unit=\"{unit}\"]"
                                 f"[data-model]:not([data-slain])')")
            seen["listed_after"] = await red.eval(
                f"!!document.querySelector('[data-reserve-unit=\"{unit}\"]')")

    asyncio.run(run())
    assert seen["blue_rows"] == 0
    assert seen["units"] and all(u.startswith("red-") for u in seen["units"])
    assert seen["outside"]["legal"] == "false" and "outside_territory" in seen["outside"]["codes"]
    assert seen["unchanged"]
    assert seen["inside"]["legal"] == "true", seen["inside"]
    assert not seen["listed_after"]
    status, log = server.request("GET", f"/games/{gid}")
    assert status == 200
