"""The server's save file: one SQLite database (the standard library's sqlite3, WAL) with each
game's scene text, seed and seat tokens and every accepted action in order. An action is
committed here before any client hears of it; a server started again on the same file rebuilds
each game by replaying its actions (the log is the save file)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.errors import UsageError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    scene_text TEXT NOT NULL,
    scene_name TEXT NOT NULL,
    seed TEXT NOT NULL,                -- decimal: up to 2**64 - 1 does not fit SQLite's integer
    created REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id),
    side TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    PRIMARY KEY (game, side)
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL,          -- 1 for the first accepted action
    side TEXT NOT NULL,                -- the seat that sent it
    client_id TEXT NOT NULL,           -- the act's id as JSON (a resend is answered, not applied)
    action TEXT NOT NULL,              -- Action.to_dict() as JSON
    PRIMARY KEY (game, version)
);
"""


@dataclass
class StoredGame:
    id: str
    ruleset: str
    scene_text: str
    scene_name: str
    seed: int
    seats: dict[str, str]                          # side -> token
    actions: list[tuple[str, str, dict[str, Any]]]  # (side, client id, action dict) in order
    over: bool


class Store:
    """The database of games; every write is committed before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            # The server is one asyncio thread: the connection is used from it alone.
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives the process being killed (the OS has it);
            # a power cut may lose the last commits but never corrupts the file.
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise UsageError(f"--db {self.path}: not a games database that can be opened "
                             f"({exc})") from None

    def close(self) -> None:
        self.db.close()

    def create(self, game_id: str, ruleset: str, scene_text: str, scene_name: str, seed: int,
               seats: dict[str, str], created: float) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO games (id, ruleset, scene_text, scene_name, seed, "
                            "created) VALUES (?, ?, ?, ?, ?, ?)",
                            (game_id, ruleset, scene_text, scene_name, str(seed), created))
            self.db.executemany("INSERT INTO seats (game, side, token) VALUES (?, ?, ?)",
                                [(game_id, side, token) for side, token in seats.items()])

    def add_action(self, game_id: str, version: int, side: str, client_key: str,
                   action: dict[str, Any], over: bool) -> None:
        """Record accepted action number `version` (and whether the game is now over)."""
        with self._transaction():
            self.db.execute("INSERT INTO actions (game, version, side, client_id, action) "
                            "VALUES (?, ?, ?, ?, ?)",
                            (game_id, version, side, client_key,
                             json.dumps(action, separators=(",", ":"))))
            if over:
                self.db.execute("UPDATE games SET over = 1 WHERE id = ?", (game_id,))

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    def ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY created, id")]

    def listing(self) -> list[dict[str, Any]]:
        """Every game: id, ruleset, version, over (GET /games)."""
        rows = self.db.execute(
            "SELECT g.id, g.ruleset, g.over, (SELECT COUNT(*) FROM actions a WHERE a.game = "
            "g.id) FROM games g ORDER BY g.created, g.id")
        return [{"id": i, "ruleset": r, "version": int(n), "over": bool(o)}
                for i, r, o, n in rows]

    def load(self, game_id: str) -> StoredGame | None:
        row = self.db.execute("SELECT ruleset, scene_text, scene_name, seed, over FROM games "
                              "WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        seats = dict(self.db.execute("SELECT side, token FROM seats WHERE game = ? "
                                     "ORDER BY rowid", (game_id,)))
        actions = [(side, cid, json.loads(a)) for side, cid, a in self.db.execute(
            "SELECT side, client_id, action FROM actions WHERE game = ? ORDER BY version",
            (game_id,))]
        return StoredGame(game_id, row[0], row[1], row[2], int(row[3]), seats, actions,
                          bool(row[4]))


class _Transaction:
    """BEGIN ... COMMIT (ROLLBACK on an error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
