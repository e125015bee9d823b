"""The server's save file: one SQLite database (the standard library's sqlite3, WAL) with each
game's scene text, seed and seat tokens and every accepted action in order. An action is
committed here before any client hears of it; a server started again on the same file rebuilds
each game by replaying its actions (the log is the save file). The file holds seat tokens and
the secret seeds of unfinished games: it is created readable by its owner only (and so are
SQLite's -wal and -shm files beside it). The engine's worker threads and the event loop share
the one connection, one statement or transaction at a time (a lock)."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.errors import UsageError
from battlefield.rules.dice import seed_text

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    scene_text TEXT NOT NULL,
    scene_name TEXT NOT NULL,
    seed TEXT NOT NULL,                -- its text: a number in decimal, or the text itself
    created REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    seeded INTEGER NOT NULL DEFAULT 1  -- 1: the creator chose the seed (its dice foreseeable)
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
    seed: int | str
    seats: dict[str, str]                          # side -> token
    actions: list[tuple[str, str, dict[str, Any]]]  # (side, client id, action dict) in order
    over: bool
    seeded: bool = True


def stored_seed(text: str) -> int | str:
    """The seed kept as text: a number when it is one in plain decimal (a chosen seed text is
    never all digits: messages.read_new_game), else the text."""
    if text.isascii() and text.isdigit() and str(int(text)) == text:
        return int(text)
    return text


class Store:
    """The database of games; every write is committed before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.lock = threading.RLock()
        try:
            _owner_only(self.path)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives the process being killed (the OS has it);
            # a power cut may lose the last commits but never corrupts the file.
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(games)")}
            if "seeded" not in columns:        # a database from before the column
                self.db.execute("ALTER TABLE games ADD COLUMN seeded INTEGER NOT NULL "
                                "DEFAULT 1")
            self.db.execute("CREATE INDEX IF NOT EXISTS games_created ON games (created, id)")
            for extra in ("-wal", "-shm"):
                _owner_only(self.path + extra, create=False)
        except sqlite3.Error as exc:
            raise UsageError(f"--db {self.path}: not a games database that can be opened "
                             f"({exc})") from None
        except OSError as exc:
            raise UsageError(f"--db {self.path}: cannot be made ({exc.strerror})") from None

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def create(self, game_id: str, ruleset: str, scene_text: str, scene_name: str,
               seed: int | str, seats: dict[str, str], created: float,
               seeded: bool = True) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO games (id, ruleset, scene_text, scene_name, seed, "
                            "created, seeded) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (game_id, ruleset, scene_text, scene_name, seed_text(seed),
                             created, int(seeded)))
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

    def cut(self, game_id: str, version: int) -> None:
        """The actions after `version` taken back (a seat's retract, server/games.py)."""
        with self._transaction():
            self.db.execute("DELETE FROM actions WHERE game = ? AND version > ?",
                            (game_id, version))
            self.db.execute("UPDATE games SET over = 0 WHERE id = ?", (game_id,))

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db, self.lock)

    def ids(self) -> list[str]:
        with self.lock:
            return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY created, id")]

    def exists(self, game_id: str) -> bool:
        with self.lock:
            return self.db.execute("SELECT 1 FROM games WHERE id = ?",
                                   (game_id,)).fetchone() is not None

    def count(self) -> int:
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def listing(self, offset: int = 0, limit: int = -1) -> list[dict[str, Any]]:
        """Games, the newest first, from the `offset`th on (at most `limit`; -1: all): id,
        ruleset, version, over (GET /games and GET /, a page at a time)."""
        with self.lock:
            rows = self.db.execute(
                "SELECT g.id, g.ruleset, g.over, (SELECT COUNT(*) FROM actions a WHERE a.game "
                "= g.id) FROM games g ORDER BY g.created DESC, g.id DESC LIMIT ? OFFSET ?",
                (limit, offset)).fetchall()
        return [{"id": i, "ruleset": r, "version": int(n), "over": bool(o)}
                for i, r, o, n in rows]

    def summary(self, game_id: str) -> dict[str, Any] | None:
        """What GET /games/ID says of a game, without its actions: ruleset, version, over,
        sides, seed and seeded (None: no such game)."""
        with self.lock:
            row = self.db.execute("SELECT ruleset, seed, over, seeded, (SELECT COUNT(*) FROM "
                                  "actions a WHERE a.game = g.id) FROM games g WHERE id = ?",
                                  (game_id,)).fetchone()
            if row is None:
                return None
            sides = [r[0] for r in self.db.execute("SELECT side FROM seats WHERE game = ? "
                                                   "ORDER BY rowid", (game_id,))]
        return {"ruleset": row[0], "seed": stored_seed(row[1]), "over": bool(row[2]),
                "seeded": bool(row[3]), "version": int(row[4]), "sides": sides}

    def load(self, game_id: str) -> StoredGame | None:
        with self.lock:
            return self._load(game_id)

    def _load(self, game_id: str) -> StoredGame | None:
        row = self.db.execute("SELECT ruleset, scene_text, scene_name, seed, over, seeded "
                              "FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        seats = dict(self.db.execute("SELECT side, token FROM seats WHERE game = ? "
                                     "ORDER BY rowid", (game_id,)))
        actions = [(side, cid, json.loads(a)) for side, cid, a in self.db.execute(
            "SELECT side, client_id, action FROM actions WHERE game = ? ORDER BY version",
            (game_id,))]
        return StoredGame(game_id, row[0], row[1], row[2], stored_seed(row[3]), seats,
                          actions, bool(row[4]), bool(row[5]))


def _owner_only(path: str, create: bool = True) -> None:
    """Make `path` readable and writable by its owner only: created so when it is not there
    (create=True), its mode narrowed when it is."""
    if path == ":memory:" or path.startswith("file:"):
        return
    if create and not os.path.exists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600))
    try:
        if os.stat(path).st_mode & 0o077:
            os.chmod(path, 0o600)
    except FileNotFoundError:
        pass


class _Transaction:
    """BEGIN ... COMMIT (ROLLBACK on an error) on an autocommit connection, holding the
    store's lock throughout."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self.db, self.lock = db, lock

    def __enter__(self) -> None:
        self.lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.lock.release()
            raise

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        try:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.lock.release()
