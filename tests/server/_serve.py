"""Helpers for the server tests: a real `battlefield serve` on loopback (a subprocess on a free
port, a database in a temporary folder), and the short battles the server tests play: every
playable ruleset's demo battle, most from a late round (a whole battle in about a second)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from battlefield.rules import registry
from battlefield.rules.deploy import battle_scene

PLAYABLE = [n for n in registry.playable() if registry.get(n).spec.demo]
# Seconds after which a test that waits for the server takes it as hung: a guard against
# hanging the suite, never a measure (a loaded machine is slow, not hung; timings belong in
# benchmarks/).
HANG = 600.0


# The round a demo battle starts from in these tests (the whole battle otherwise).
FROM_ROUND = {"aos4": 3, "blocks": 5, "warband": 3, "openwg": 4}


def short_battle(ruleset: str) -> str:
    """The ruleset's demo battle as scene text, from a late round (FROM_ROUND)."""
    text, _ = battle_scene(ruleset, None)
    if ruleset in FROM_ROUND and "\nstate:" not in text:
        text = text.replace("\nunits:", f"\nstate: {{round: {FROM_ROUND[ruleset]}}}\nunits:", 1)
    return text


# The tests' server takes many games and frames from one address (127.0.0.1) in a few seconds:
# its rate limits are wide (tests/server/test_attacks.py tries the real ones).
WIDE = ("--games-per-minute", "100000", "--frames-per-second", "100000",
        "--engine-share", "1000", "--connections-per-address", "1000")


class Served:
    """`battlefield serve --port 0` as a subprocess: its address, started again at will."""

    def __init__(self, db: Path, *args: str, options: tuple[str, ...] = WIDE,
                 cwd: Path | None = None) -> None:
        self.db = db
        self.args = args                  # more of `serve`'s options (--catalogues DIR ...)
        self.port = 0
        self.options = options
        self.cwd = cwd
        self.proc: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        # Its log to a file (a pipe nobody reads could fill and stop it).
        with open(self.errors, "a", encoding="utf-8") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "battlefield", "serve", "--port", str(self.port),
                 "--db", str(self.db), *self.options, *self.args], stdout=subprocess.PIPE,
                stderr=err, text=True, env=env, cwd=self.cwd)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("serving on http://127.0.0.1:"), line + self.log()
        self.port = int(line.strip().rsplit(":", 1)[1])

    @property
    def errors(self) -> Path:
        return self.db.with_suffix(".log")

    def log(self) -> str:
        """What the server wrote to its standard error so far."""
        return self.errors.read_text(encoding="utf-8") if self.errors.exists() else ""

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game: str, token: str | None = None) -> str:
        return (f"ws://127.0.0.1:{self.port}/games/{game}/play"
                + (f"?seat={token}" if token else ""))

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=HANG)

    def stop(self) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=HANG)

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.http + path, data=data, method=method)
        try:
            with urllib.request.urlopen(req, timeout=HANG) as r:
                status, raw, kind = r.status, r.read(), r.headers.get_content_type()
        except urllib.error.HTTPError as e:
            status, raw, kind = e.code, e.read(), e.headers.get_content_type()
        return status, (json.loads(raw) if kind == "application/json" else raw.decode())

    def new_game(self, scene: str, seed: int | None = None) -> dict[str, Any]:
        """A new game, made from the tests' own address: a server started with a tight rate of
        new games (test_attacks) answers 429 with the seconds to wait once a module's tests
        have made that many, and this waits them, as a well-behaved client does."""
        body = {"scene": scene, **({"seed": seed} if seed is not None else {})}
        end = time.monotonic() + HANG
        while True:
            status, game = self.request("POST", "/games", body)
            if status != 429 or time.monotonic() > end:
                break
            time.sleep(float(game["retry_after"]))
        assert status == 201, game
        return game


def reserve_battle(round_: int | None = None) -> str:
    """aos4's demo battle with every unit in reserve (no model placed), from battle round
    `round_` when given."""
    import yaml

    text, _ = battle_scene("aos4", None)
    data = yaml.safe_load(text)
    for u in data["units"]:
        u["reserve"] = True
        u["models"] = [{k: v for k, v in m.items() if k not in ("at", "facing", "z")}
                       for m in u["models"]]
    if round_ is not None:
        data["state"] = {"round": round_}
    return yaml.safe_dump(data, sort_keys=False)
