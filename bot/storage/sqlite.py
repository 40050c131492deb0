"""The embedded backend: one SQLite file, WAL, foreign keys, migrations by ``user_version``.

One connection serves every game (aiosqlite runs it on one thread), so a lock keeps one
transaction at a time on it; ``BEGIN IMMEDIATE`` takes the file's write lock at once, so
another process on the same file waits (``busy_timeout``) instead of failing mid-transaction.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import SQLITE, Connection, Row, StoreError, migrations

log = logging.getLogger(__name__)

PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    # FULL: a commit is on disk before we answer the player, even across a power cut.
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)

FileId = tuple[int, int]
"""``(device, inode)``: which file a path named when we opened it."""


def _file_id(path: str) -> FileId | None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return (info.st_dev, info.st_ino)


def sqlite_path(target: str | Path) -> str:
    """The file a target names: a path, ``sqlite:///relative`` or ``sqlite:////absolute``."""
    name = str(target)
    if name.startswith("sqlite://"):
        name = name.removeprefix("sqlite://").removeprefix("/")
    return name if name == ":memory:" else os.path.abspath(os.path.expanduser(name))


class _Connection:
    """The shared connection, seen from inside a transaction."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self._db.execute(sql, params)
        count = cur.rowcount
        await cur.close()
        return count

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await (await self._db.executemany(sql, rows)).close()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())


class SqliteDatabase:
    """A SQLite file (or ``:memory:``) opened, checked and watched."""

    dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self.connection = connection
        self.name = path
        # One connection is shared by every game: without this lock two games'
        # transactions could interleave and a statement of one would land in
        # (or be rolled back with) the other's transaction.
        self._lock = asyncio.Lock()
        self._files: dict[str, FileId | None] = {}
        self.fault: str | None = None
        """Why the store stopped taking writes (its file was deleted or replaced), or ``None``."""

    def _error(self, exc: BaseException) -> StoreError:
        return StoreError(f"The database at {self.name} failed: {exc}")

    @classmethod
    async def open(cls, target: str | Path) -> SqliteDatabase:
        """Open (creating if needed) and check the file; refuses a damaged one (``StoreError``)."""
        name = sqlite_path(target)
        try:
            if name != ":memory:":
                created = not os.path.exists(name)
                Path(name).parent.mkdir(parents=True, exist_ok=True)
                # Probe synchronously first: a failed aiosqlite connect leaves its
                # worker thread to be stopped after the event loop may be gone.
                sqlite3.connect(name).close()
                if created:
                    log.warning("no database at %s: created a new, empty one", name)
            connection = aiosqlite.connect(name, isolation_level=None)
            # A daemon worker: a process that forgets to close the store can still exit.
            # Nothing is lost by that: every commit is on disk before it is acknowledged.
            worker: threading.Thread = connection._thread  # aiosqlite 0.22 (pinned) keeps its worker here
            worker.daemon = True
            db = await connection
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"Cannot open the database at {name}: {exc}") from None
        database = cls(db, name)
        try:
            problems = [str(row[0]) for row in await database.fetch("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(
                    f"The database at {name} is damaged ({'; '.join(problems[:3])}); "
                    "restore it from a backup or move it away to start afresh."
                )
            for pragma in PRAGMAS:
                await database.fetch(pragma)
        except BaseException:
            await db.close()
            raise
        database._watch_files()
        return database

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            self._check_files()
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
            except (sqlite3.Error, OSError) as exc:
                raise self._error(exc) from exc
            try:
                yield _Connection(self.connection)
                await self.connection.execute("COMMIT")
            except BaseException as exc:
                try:
                    if self.connection.in_transaction:
                        await self.connection.execute("ROLLBACK")
                except (sqlite3.Error, OSError) as rollback:
                    log.error("rollback failed on %s: %s", self.name, rollback)
                if isinstance(exc, (sqlite3.Error, OSError)):
                    raise self._error(exc) from exc
                raise
            # A commit into a file that was deleted or replaced meanwhile is lost at the next start.
            self._check_files()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            try:
                async with self.connection.execute(sql, params) as cur:
                    return list(await cur.fetchall())
            except (sqlite3.Error, OSError) as exc:
                raise self._error(exc) from exc

    async def schema_version(self) -> int:
        rows = await self.fetch("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def migrate(self) -> None:
        current = await self.schema_version()
        scripts = migrations(SQLITE)
        newest = scripts[-1][0] if scripts else 0
        if current > newest:
            raise StoreError(
                f"The database at {self.name} was written by a newer version (schema {current}); upgrade the bot."
            )
        async with self._lock:
            for number, script in scripts:
                if number > current:
                    try:
                        await self.connection.executescript(
                            f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;"
                        )
                    except (sqlite3.Error, OSError) as exc:
                        if self.connection.in_transaction:
                            await self.connection.execute("ROLLBACK")
                        raise self._error(exc) from exc

    # -- the file under us -----------------------------------------------------------------------

    def _watch_files(self) -> None:
        """Remember which files the database and its write-ahead log are, to notice a swap."""
        if self.name == ":memory:":
            return
        for name in (self.name, self.name + "-wal"):
            self._files[name] = _file_id(name)

    def _check_files(self) -> None:
        """Refuse writes once the file we opened is gone or another one stands at its path.

        SQLite keeps writing to a deleted file through its open handle: every move
        would be acknowledged and then lost at the next start.  A ``stat`` per write
        is microseconds; the periodic :meth:`health` check covers quiet times.
        """
        if self.fault is None:
            for name, expected in self._files.items():
                if expected is None:
                    continue
                found = _file_id(name)
                if found != expected:
                    what = "was deleted" if found is None else "was replaced by another file"
                    self.fault = f"{name} {what} while the bot was running; restart the bot"
                    log.error("database fault: %s. Moves are refused until a restart.", self.fault)
                    break
        if self.fault is not None:
            raise StoreError(f"The database cannot be written: {self.fault}")

    def health(self) -> str | None:
        try:
            self._check_files()
        except StoreError:
            return self.fault
        return None

    async def close(self) -> None:
        await self.connection.close()
