"""The one object callers hold: a database, opened and checked, and its small stores.

The queries live in the small stores, one per seam (:mod:`bot.storage.games`,
:mod:`~bot.storage.log`, :mod:`~bot.storage.waits`, :mod:`~bot.storage.messages`,
:mod:`~bot.storage.reach`, :mod:`~bot.storage.players`, :mod:`~bot.storage.servers`), all on the
same :class:`~bot.storage.base.Database`, so a write that spans their tables (a move: the game,
the log, the waits) is still one transaction.  What belongs to the database as a whole stays
here: opening and closing it, its health, its schema version, its ``meta`` notes.  The SQL is the
part SQLite and PostgreSQL share; a backend (:mod:`bot.storage.base`) only runs it.
"""

from __future__ import annotations

import os
from pathlib import Path

from bot.core.shards import Shards
from bot.core.urls import is_postgres_url
from bot.storage.base import Database, StoreError
from bot.storage.games import GameStore
from bot.storage.log import LogStore
from bot.storage.messages import MessageStore
from bot.storage.players import PlayerStore
from bot.storage.ratings import RatingStore
from bot.storage.reach import ReachStore
from bot.storage.servers import ServerStore
from bot.storage.sql import Part
from bot.storage.waits import NEXT_DUE_SQL, WaitStore

__all__ = ["NEXT_DUE_SQL", "Store"]


class Store(Part):
    """One database (:class:`bot.storage.base.Database`) and its small stores: ``store.games``,
    ``store.log``, ``store.waits``, ``store.messages``, ``store.reach``, ``store.players``,
    ``store.servers`` and ``store.ratings`` are the only code that speaks SQL, besides the database-wide notes here."""

    def __init__(self, db: Database, shards: Shards | None = None) -> None:
        super().__init__(db, shards)
        self.name = db.name
        """What messages call the database: a file's path, or a server's URL without its password."""
        self.games = GameStore(db, shards)
        self.log = LogStore(db, shards)
        self.waits = WaitStore(db, shards)
        self.messages = MessageStore(db, shards)
        self.reach = ReachStore(db, shards)
        self.players = PlayerStore(db, shards)
        self.servers = ServerStore(db, shards)
        self.ratings = RatingStore(db, shards)

    @classmethod
    async def open(cls, target: str | Path, *, shards: Shards | None = None, pool_size: int = 10) -> Store:
        """Open (creating if needed), check, migrate, and prove the database writable.

        ``target`` is a path (or ``sqlite:///path``) for the embedded SQLite file, or a
        ``postgresql://`` URL (with ``pool_size`` connections).  Refuses (``StoreError`` naming the database and the problem)
        a file that fails SQLite's ``quick_check``, one that cannot be written, a server that
        cannot be reached, or a schema a newer version of the bot wrote.
        """
        from bot.storage.postgres import PostgresDatabase
        from bot.storage.sqlite import SqliteDatabase

        db: Database
        if is_postgres_url(target):
            db = await PostgresDatabase.open(str(target), pool_size=pool_size)
        else:
            db = await SqliteDatabase.open(target)
        store = cls(db, shards)
        try:
            await db.migrate()
            # A real write: SQLite opens a file it may not write read-only without a word.
            async with db.transaction() as con:
                await con.execute(
                    "INSERT INTO meta (key, value) VALUES ('opened', ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (str(os.getpid()),),
                )
        except StoreError as exc:
            await db.close()
            if exc.__cause__ is None:
                raise  # already says what is wrong (from a newer version)
            raise StoreError(f"Cannot use the database at {db.name}: {exc.__cause__}") from None
        return store

    async def close(self) -> None:
        await self._db.close()

    @property
    def database(self) -> Database:
        """The backend itself, for this package's bulk tools (:mod:`bot.storage.transfer` copies
        every table row by row, which no query of the host's needs)."""
        return self._db

    def health(self) -> str | None:
        """``None`` while the database can be written, else the problem (cheap: no query)."""
        return self._db.health()

    def held(self, game_id: int) -> str | None:
        """Why moves on this game are refused until an operator acts (acknowledged moves of it were
        lost with a deleted WAL, see :mod:`bot.storage.sqlite`), else ``None``."""
        held: dict[int, str] = getattr(self._db, "held", {})
        return held.get(game_id, held.get(0))

    async def rescue(self) -> None:
        """After a file fault: keep what was acknowledged, or name what is lost (SQLite only)."""
        rescue = getattr(self._db, "rescue", None)
        if rescue is not None:
            await rescue()

    async def integrity(self) -> str | None:
        """SQLite's ``quick_check`` off the start-up path (``None``: sound, or not SQLite)."""
        check = getattr(self._db, "integrity", None)
        return None if check is None else await check()

    @property
    def fault(self) -> str | None:
        """Why the store stopped taking writes, or ``None``."""
        return self._db.health()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    async def reclaim(self) -> None:
        """Give the space of pruned rows back to the file system (or to PostgreSQL's free space)."""
        await self._db.reclaim()

    # -- what processes report about themselves -------------------------------------------------------

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def fetch_meta(self, prefix: str) -> dict[str, str]:
        """``meta`` rows whose key starts with ``prefix`` (each process's Discord figures)."""
        rows = await self._fetch(
            "SELECT key, value FROM meta WHERE key LIKE ? ORDER BY key", (prefix.replace("%", "") + "%",)
        )
        return {str(r[0]): str(r[1]) for r in rows}
