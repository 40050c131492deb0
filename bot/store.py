"""SQLite persistence: one file, WAL, foreign keys, migrations by ``user_version``.

Every accepted action is written together with the new snapshot and version
in one transaction, so what a player has been shown is always on disk, and
the log alone (with the seed) can rebuild any game.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from rules.core import Action

MIGRATIONS: tuple[str, ...] = (
    # 1: the initial schema.
    """
    CREATE TABLE games (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER,
        channel_id   INTEGER,
        thread_id    INTEGER,
        game         TEXT    NOT NULL,
        options      TEXT    NOT NULL DEFAULT '{}',
        seed         INTEGER,
        status       TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'broken')),
        version      INTEGER NOT NULL DEFAULT 0,
        snapshot     TEXT,
        host_id      INTEGER NOT NULL,
        language     TEXT    NOT NULL DEFAULT 'en',
        reason       TEXT,
        created_at   REAL    NOT NULL,
        updated_at   REAL    NOT NULL
    );
    CREATE INDEX games_by_guild ON games (guild_id, status);
    CREATE TABLE seats (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE TABLE actions (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        user_id  INTEGER,
        action   TEXT    NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    CREATE TABLE messages (
        message_id  INTEGER PRIMARY KEY,
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        channel_id  INTEGER NOT NULL,
        kind        TEXT    NOT NULL CHECK (kind IN ('lobby', 'table', 'final')),
        version     INTEGER NOT NULL,
        live        INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX messages_live ON messages (game_id, live);
    """,
    # 2: the public version, drawn into custom_ids instead of the log length, so that a
    # private action (a hidden stow) does not show up as a change of every button's id.
    """
    ALTER TABLE games ADD COLUMN public_version INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET public_version = version;
    """,
)


PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    # FULL: a commit is on disk before we answer the player, even across a power cut.
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)


class StoreError(Exception):
    """The database cannot be used; the message names the path and the cause."""


class VersionConflict(Exception):
    """Another action was committed first; the caller's view of the game is stale."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    game: str
    options: dict[str, Any]
    seed: int | None
    status: str
    version: int
    snapshot: str | None
    host_id: int
    language: str
    reason: str | None
    created_at: float
    updated_at: float
    public_version: int

    @property
    def table_channel_id(self) -> int | None:
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class MessageRow:
    message_id: int
    channel_id: int
    kind: str
    version: int


_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, game, options, seed, status, version, snapshot, host_id, "
    "language, reason, created_at, updated_at, public_version"
)


def _game(row: Sequence[Any]) -> GameRow:
    values = list(row)
    values[5] = json.loads(values[5])
    return GameRow(*values)


class Store:
    """The only code that speaks SQL.  One connection; aiosqlite serialises its calls."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        # One connection is shared by every game: without this lock two games'
        # transactions could interleave and a statement of one would land in
        # (or be rolled back with) the other's transaction.
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        async with self._lock:
            await (await self._db.execute(sql, params)).close()

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock, self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed), migrate, and prove the file is writable."""
        name = str(path)
        try:
            if name != ":memory:":
                Path(name).parent.mkdir(parents=True, exist_ok=True)
                # Probe synchronously first: a failed aiosqlite connect leaves its
                # worker thread to be stopped after the event loop may be gone.
                sqlite3.connect(name).close()
            connection = aiosqlite.connect(name, isolation_level=None)
            # A daemon worker: a process that forgets to close the store can still exit.
            # Nothing is lost by that: every commit is on disk before it is acknowledged.
            worker: threading.Thread = connection._thread  # aiosqlite 0.22 (pinned) keeps its worker here
            worker.daemon = True
            db = await connection
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"Cannot open the database at {name}: {exc}") from None
        store = cls(db, name)
        try:
            for pragma in PRAGMAS:
                await store._fetch(pragma)
            await store._migrate()
            await db.execute("BEGIN IMMEDIATE")
            await db.execute("COMMIT")
        except sqlite3.Error as exc:
            await db.close()
            raise StoreError(f"Cannot use the database at {name}: {exc}") from None
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        rows = await self._fetch("PRAGMA user_version")
        row = rows[0] if rows else None
        current = int(row[0]) if row else 0
        if current > len(MIGRATIONS):
            raise StoreError(
                f"The database at {self.path} was written by a newer version (schema {current}); upgrade the bot."
            )
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            await self._db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")

    async def schema_version(self) -> int:
        rows = await self._fetch("PRAGMA user_version")
        row = rows[0] if rows else None
        return int(row[0]) if row else 0

    # -- games -----------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game: str,
        options: dict[str, Any],
        host_id: int,
        host_name: str,
        guild_id: int | None,
        channel_id: int | None,
        language: str,
        now: float,
    ) -> int:
        """A lobby with its host already seated."""
        async with self._transaction() as db:
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, game, options, host_id, language, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    game,
                    json.dumps(options, sort_keys=True),
                    host_id,
                    language,
                    now,
                    now,
                ),
            )
            game_id = int(cur.lastrowid or 0)
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, host_id, host_name),
            )
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        row = rows[0] if rows else None
        return _game(row) if row else None

    async def games(self, *, guild_id: int | None = None, statuses: Sequence[str] = ()) -> list[GameRow]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if statuses:
            where.append(f"status IN ({', '.join('?' for _ in statuses)})")
            params.extend(statuses)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id"
        rows = await self._fetch(sql, params)
        return [_game(row) for row in rows]

    async def games_in_channel(self, channel_id: int, statuses: Sequence[str]) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE (thread_id = ? OR channel_id = ?) AND status IN ({marks})"
            " ORDER BY id",
            (channel_id, channel_id, *statuses),
        )
        return [_game(row) for row in rows]

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self._write("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def set_status(self, game_id: int, status: str, *, reason: str | None, now: float) -> None:
        await self._write(
            "UPDATE games SET status = ?, reason = ?, updated_at = ? WHERE id = ?",
            (status, reason, now, game_id),
        )

    async def start(
        self, game_id: int, *, seats: Sequence[SeatRow], seed: int, snapshot: str, now: float
    ) -> None:
        """Fix the seating order and the seed; the lobby becomes a game at version 0."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.name) for s in seats],
            )
            cur = await db.execute(
                "UPDATE games SET status = 'active', seed = ?, snapshot = ?, version = 0, public_version = 0,"
                " updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (seed, snapshot, now, game_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict("the lobby was already started or closed")

    # -- seats -----------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetch(
            "SELECT seat, user_id, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def add_seat(self, game_id: int, user_id: int, name: str) -> None:
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name) VALUES"
            " (?, (SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?), ?, ?)",
            (game_id, game_id, user_id, name),
        )

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        await self._write("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))

    # -- actions ---------------------------------------------------------------------------------

    async def record_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        user_id: int | None,
        action: Action,
        snapshot: str,
        status: str,
        public_version: int,
        now: float,
    ) -> int:
        """Append to the log and move the snapshot forward, atomically.

        The ``version = ?`` guard makes a second writer with a stale view
        fail instead of overwriting: it gets :class:`VersionConflict`.
        """
        new_version = expected_version + 1
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET version = ?, snapshot = ?, status = ?, public_version = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, snapshot, status, public_version, now, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            await db.execute(
                "INSERT INTO actions (game_id, version, seat, user_id, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, user_id, json.dumps(action.to_json()), now),
            )
        return new_version

    async def actions(self, game_id: int) -> list[tuple[int, int, Action]]:
        """``(version, seat, action)`` in order."""
        rows = await self._fetch(
            "SELECT version, seat, action FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
        )
        return [(int(r[0]), int(r[1]), Action.from_json(json.loads(r[2]))) for r in rows]

    async def last_action_at(self, game_id: int) -> float | None:
        rows = await self._fetch("SELECT MAX(at) FROM actions WHERE game_id = ?", (game_id,))
        row = rows[0] if rows else None
        return float(row[0]) if row and row[0] is not None else None

    # -- messages --------------------------------------------------------------------------------

    async def add_message(
        self, game_id: int, channel_id: int, message_id: int, kind: str, version: int
    ) -> None:
        await self._write(
            "INSERT OR REPLACE INTO messages (message_id, game_id, channel_id, kind, version, live)"
            " VALUES (?, ?, ?, ?, ?, 1)",
            (message_id, game_id, channel_id, kind, version),
        )

    async def live_messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]:
        sql = "SELECT message_id, channel_id, kind, version FROM messages WHERE game_id = ? AND live = 1"
        params: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        rows = await self._fetch(sql + " ORDER BY message_id", params)
        return [MessageRow(int(r[0]), int(r[1]), str(r[2]), int(r[3])) for r in rows]

    async def games_behind_their_table(self) -> list[int]:
        """Active games whose newest live table message was drawn for an older public version."""
        rows = await self._fetch(
            "SELECT g.id FROM games g WHERE g.status = 'active' AND g.public_version != COALESCE("
            " (SELECT m.version FROM messages m WHERE m.game_id = g.id AND m.kind = 'table' AND m.live = 1"
            "  ORDER BY m.message_id DESC LIMIT 1), -1) ORDER BY g.id"
        )
        return [int(r[0]) for r in rows]

    async def retire_message(self, message_id: int) -> None:
        await self._write("UPDATE messages SET live = 0 WHERE message_id = ?", (message_id,))

    async def update_message_version(self, message_id: int, version: int) -> None:
        await self._write("UPDATE messages SET version = ? WHERE message_id = ?", (version, message_id))
