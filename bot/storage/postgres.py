"""The shared backend: PostgreSQL through an asyncpg pool, for several bot processes at once.

Every process has its own pool on one database.  What keeps them from stepping on each other
is in the statements, not in this module: a move's ``UPDATE ... WHERE version = ?`` takes the
game's row lock, so a second writer on the same version waits for the first to commit and
then changes nothing (the store raises ``VersionConflict``); a read that decides a write takes
its row with ``FOR UPDATE`` (:data:`bot.storage.base.POSTGRES`); due deadlines are claimed
``FOR UPDATE SKIP LOCKED``.  Migrations run under an advisory lock, so processes starting
together migrate once.

The store's SQL uses ``?`` placeholders; each statement is rewritten once to ``$1, $2, ...``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.core.urls import public_url
from bot.storage.base import POSTGRES, CommitUnknown, Connection, Row, StoreError, migrations

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x67616D65686F7374  # "gamehost": the advisory lock key start-up migrates under
SCHEMA_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, asyncio.TimeoutError)
"""What a broken server, network or statement raises: turned into ``StoreError``."""

_PLACEHOLDER = re.compile(r"\?")


def numbered(sql: str, cache: dict[str, str] = {}) -> str:  # noqa: B006 - the cache is meant to be shared
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (the store's SQL never has a ``?`` elsewhere)."""
    found = cache.get(sql)
    if found is None:
        counter = iter(range(1, 10_000))
        found = cache[sql] = _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)
    return found


def _count(status: str) -> int:
    """Rows changed, from asyncpg's status line (``UPDATE 1``, ``INSERT 0 1``, ``DELETE 3``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _Connection:
    def __init__(self, connection: asyncpg.Connection) -> None:
        self._con = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._con.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(row) for row in rows]
        if batch:
            await self._con.executemany(numbered(sql), batch)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in await self._con.fetch(numbered(sql), *params)]


class PostgresDatabase:
    """A pool of connections to one PostgreSQL database."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.name = public_url(url)
        self.fault: str | None = None

    def _error(self, exc: BaseException) -> StoreError:
        return StoreError(f"The database at {self.name} failed: {exc}")

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, command_timeout=30)
        except (*FAILURES, ValueError) as exc:
            raise StoreError(f"Cannot open the database at {public_url(url)}: {exc}") from None
        return cls(pool, url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        try:
            async with self.pool.acquire() as con:
                work = con.transaction()
                await work.start()
                try:
                    yield _Connection(con)
                except BaseException:
                    with contextlib.suppress(*FAILURES):
                        await work.rollback()
                    raise
                try:
                    await work.commit()
                except FAILURES as exc:
                    # The server may have committed and the connection died before it said so.
                    raise CommitUnknown(f"The database at {self.name} failed to commit: {exc}") from exc
        except CommitUnknown:
            raise
        except FAILURES as exc:
            raise self._error(exc) from exc

    async def fetch_fresh(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Another connection of the pool (a broken one is not given back to it)."""
        return await self.fetch(sql, params)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return [tuple(r) for r in await self.pool.fetch(numbered(sql), *params)]
        except FAILURES as exc:
            raise self._error(exc) from exc

    async def schema_version(self) -> int:
        try:
            async with self.pool.acquire() as con:
                await con.execute(SCHEMA_TABLE)
                found = await con.fetchval("SELECT MAX(version) FROM schema_version")
        except FAILURES as exc:
            raise self._error(exc) from exc
        return int(found or 0)

    async def migrate(self) -> None:
        scripts = migrations(POSTGRES)
        newest = scripts[-1][0] if scripts else 0
        try:
            async with self.pool.acquire() as con, con.transaction():
                await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await con.execute(SCHEMA_TABLE)
                current = int(await con.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
                if current > newest:
                    raise StoreError(
                        f"The database at {self.name} was written by a newer version (schema {current});"
                        " upgrade the bot."
                    )
                for number, script in scripts:
                    if number > current:
                        await con.execute(script)
                        await con.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                        log.info("database %s: schema %d", self.name, number)
        except FAILURES as exc:
            raise self._error(exc) from exc

    def health(self) -> str | None:
        if self.pool.is_closing():
            return "the connection pool is closed"
        return None

    async def reclaim(self) -> None:
        """``VACUUM (ANALYZE)`` the tables ``prune`` deletes from: their dead rows become free
        space for new ones (no table lock, unlike ``VACUUM FULL``), and the planner's counts
        follow.  It cannot run inside a transaction, so it takes a connection of its own."""
        try:
            async with self.pool.acquire() as con:
                await con.execute("VACUUM (ANALYZE) games, seats, actions, messages, undo_requests")
        except FAILURES as exc:
            raise self._error(exc) from exc

    async def close(self) -> None:
        await self.pool.close()
