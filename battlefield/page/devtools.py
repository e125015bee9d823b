"""A real headless chromium driven over the DevTools protocol (a WebSocket, with aiohttp's
client): open a page, then ask it questions while it runs, press the mouse and touch it. For
the live and play pages, which keep their WebSocket open and so never "finish" the way
--dump-dom needs; the server tests and benchmarks/browser.py drive the browser with it."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import shutil
import subprocess
import tempfile
from typing import Any

import aiohttp

from battlefield.page.browser import FLAGS, INSTALL, BrowserError, find_chromium


class Chromium:
    """`async with Chromium() as c: page = await c.open(url); await page.eval("1 + 1")`."""

    def __init__(self, size: tuple[int, int] = (1400, 1000), mobile: bool = False) -> None:
        self.size = size
        self.mobile = mobile             # a phone: touch events, its own viewport
        self.front: Page | None = None   # the tab in front (the last opened or brought)
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}

    async def __aenter__(self) -> Chromium:
        exe = find_chromium()
        if exe is None:
            raise BrowserError(f"no headless browser found: {INSTALL}")
        self.profile = tempfile.TemporaryDirectory(prefix="battlefield-devtools-")
        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={self.profile.name}",
             f"--window-size={self.size[0]},{self.size[1]}", "--remote-debugging-port=0",
             "about:blank"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        url = None
        for _ in range(200):
            line = await asyncio.to_thread(self.proc.stderr.readline)
            if not line:
                break
            if "DevTools listening on " in line:
                url = line.split("DevTools listening on ", 1)[1].strip()
                break
        assert url, "chromium did not say where its DevTools listen"
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(url, max_msg_size=0)
        self.reader = asyncio.ensure_future(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.reader.cancel()
        await self.ws.close()
        await self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for _ in range(40):      # its helper processes may write the profile a moment longer
            try:
                self.profile.cleanup()
                return
            except OSError:
                await asyncio.sleep(0.25)
        shutil.rmtree(self.profile.name, ignore_errors=True)

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            fut = self.waiting.pop(data.get("id", -1), None)
            if fut is not None and not fut.done():
                fut.set_result(data)

    async def call(self, method: str, params: dict[str, Any] | None = None,
                   session: str | None = None) -> dict[str, Any]:
        n = next(self.ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[n] = fut
        msg: dict[str, Any] = {"id": n, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        await self.ws.send_str(json.dumps(msg))
        out = await asyncio.wait_for(fut, 600)
        assert "error" not in out, out["error"]
        return out["result"]

    async def open(self, url: str, before: str | None = None) -> Page:
        """A new tab at `url`; `before`: a script run in it before the page's own."""
        target = await self.call("Target.createTarget", {"url": "about:blank"})
        attached = await self.call("Target.attachToTarget",
                                   {"targetId": target["targetId"], "flatten": True})
        page = Page(self, attached["sessionId"])
        self.front = page
        if before is not None:
            await page.call("Page.enable")
            await page.call("Page.addScriptToEvaluateOnNewDocument", {"source": before})
        await page.call("Emulation.setDeviceMetricsOverride", {
            "width": self.size[0], "height": self.size[1], "deviceScaleFactor": 1,
            "mobile": self.mobile})
        if self.mobile:
            await page.call("Emulation.setTouchEmulationEnabled",
                            {"enabled": True, "maxTouchPoints": 5})
        await page.call("Page.navigate", {"url": url})
        return page


class Page:
    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser, self.session = browser, session

    async def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.browser.call(method, params, self.session)

    async def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-able)."""
        out = await self.call("Runtime.evaluate", {"expression": expression,
                                                   "returnByValue": True})
        assert "exceptionDetails" not in out, out["exceptionDetails"]
        return out["result"].get("value")

    async def until(self, expression: str, timeout: float = 600) -> Any:
        """Wait until the expression is truthy (its value); AssertionError at the timeout."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            try:
                value = await self.eval(expression)
            except AssertionError:
                value = None                # the page is still loading its script
            if value:
                return value
            assert loop.time() < end, f"the page never had {expression}"
            await asyncio.sleep(0.1)

    async def front(self) -> None:
        """This tab in front (a tab behind another draws no frames, and input to it waits)."""
        if self.browser.front is not self:
            await self.call("Page.bringToFront")
            self.browser.front = self

    async def mouse(self, kind: str, x: float, y: float, shift: bool = False) -> None:
        """A mouse event at page pixel (x, y): pressed, moved or released, left button."""
        await self.front()
        await self.call("Input.dispatchMouseEvent", {
            "type": {"down": "mousePressed", "move": "mouseMoved", "up": "mouseReleased"}[kind],
            "x": x, "y": y, "button": "left", "buttons": 0 if kind == "up" else 1,
            "clickCount": 1, "modifiers": 8 if shift else 0})

    async def touch(self, kind: str, x: float, y: float) -> None:
        """A one-finger touch at page pixel (x, y): start, move or end."""
        await self.front()
        await self.call("Input.dispatchTouchEvent", {
            "type": {"down": "touchStart", "move": "touchMove", "up": "touchEnd"}[kind],
            "touchPoints": [] if kind == "up" else [{"x": x, "y": y}]})

    async def screenshot(self) -> bytes:
        out = await self.call("Page.captureScreenshot", {"format": "png"})
        return base64.b64decode(out["data"])
