"""What the small stores share: one database, the shards filter, and the SQL fragments several
of them splice into their queries.

Each small store (:mod:`bot.storage.games`, :mod:`~bot.storage.log`, :mod:`~bot.storage.waits`,
:mod:`~bot.storage.messages`, :mod:`~bot.storage.reach`, :mod:`~bot.storage.players`,
:mod:`~bot.storage.servers`) is a :class:`Part` of one :class:`bot.storage.store.Store`: they hold
the same :class:`~bot.storage.base.Database`, so a write that spans their tables is still one
transaction on one connection (the owner of the write calls the others' module-level helpers
with that connection).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.core.shards import Shards
from bot.storage.base import Connection, Database, Dialect, Row
from bot.storage.codes import ENDED_STATUSES, OPEN_STATUSES, STARTED_STATUSES, sql_list

OPEN = sql_list(OPEN_STATUSES)
ENDED = sql_list(ENDED_STATUSES)
STARTED = sql_list(STARTED_STATUSES)
"""The status groups as SQL ``IN`` lists, written into the query text as before (not bound), so
each query keeps its one plan."""

NOT_PARKED = "NOT EXISTS (SELECT 1 FROM reach r WHERE r.game_id = g.id AND r.parked IS NOT NULL)"
"""A condition on a game ``g``: it is not parked (the sweep, the bots and the archiver pass parked tables by)."""


def hours(value: Any) -> int | None:
    return None if value is None else int(value)


class Part:
    """One small store: the shared database, and the servers whose background work is ours."""

    def __init__(self, db: Database, shards: Shards | None = None) -> None:
        self._db = db
        self.shards = shards
        """The servers whose background work this process does (``None``: all).  Only the
        queries that look for work are limited by it (games to resume, bots to move, deadlines
        due); a game asked for by id is always found, whichever process asks."""

    @property
    def dialect(self) -> Dialect:
        return self._db.dialect

    def _mine(self, guild_column: str) -> str:
        return "1 = 1" if self.shards is None else self.shards.sql(guild_column)

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self._db.transaction()

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._db.transaction() as db:
            return await db.execute(sql, params)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._db.fetch(sql, params)
