"""A real headless browser to look at the pages: Debian's `chromium` run once per question,
dumping the DOM after the page's scripts ran, or taking a screenshot. Used by the page tests and
benchmarks/page.py (the figures measured inside the browser)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL = "apt-get install -y chromium (Debian), or put chromium on PATH (BATTLEFIELD_CHROMIUM)"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps", "--disable-extensions", "--mute-audio",
         "--hide-scrollbars")


class BrowserError(RuntimeError):
    """Chromium failed or is not installed."""


def find_chromium() -> str | None:
    """The browser to run: $BATTLEFIELD_CHROMIUM, else the first of NAMES on PATH."""
    given = os.environ.get("BATTLEFIELD_CHROMIUM")
    if given:
        return given if Path(given).exists() or shutil.which(given) else None
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def url_of(path: str | Path, fragment: str = "") -> str:
    """A file's file:// URL with an optional #fragment (e.g. 'v=3')."""
    url = Path(path).resolve().as_uri()
    return url + (f"#{fragment}" if fragment else "")


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    exe = find_chromium()
    if exe is None:
        raise BrowserError(f"no headless browser found: {INSTALL}")
    with tempfile.TemporaryDirectory(prefix="battlefield-chromium-") as profile:
        cmd = [exe, *FLAGS, f"--user-data-dir={profile}", *args]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                 stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise BrowserError(f"chromium did not finish within {timeout:g} s") from None
    if out.returncode != 0:
        tail = "\n".join(out.stderr.strip().splitlines()[-5:])
        raise BrowserError(f"chromium exited with status {out.returncode}: {tail}")
    return out


def dump_dom(url: str, budget_ms: int = 0, size: tuple[int, int] = (1400, 1000),
             timeout: float = 120) -> str:
    """The page's DOM as serialised once it has loaded and its scripts have run."""
    args = [f"--window-size={size[0]},{size[1]}"]
    if budget_ms:
        args.append(f"--virtual-time-budget={budget_ms}")
    return _run([*args, "--dump-dom", url], timeout).stdout


def screenshot(url: str, out: str | Path, size: tuple[int, int] = (1400, 1000),
               budget_ms: int = 2000, timeout: float = 120) -> Path:
    """A PNG of the page at `size` pixels."""
    out = Path(out).resolve()
    _run([f"--window-size={size[0]},{size[1]}", f"--virtual-time-budget={budget_ms}",
          f"--screenshot={out}", url], timeout)
    if not out.exists():
        raise BrowserError(f"chromium wrote no screenshot to {out}")
    return out
