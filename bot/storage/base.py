"""What a database backend gives the store: transactions, queries, a schema version, its health.

The small stores of :class:`bot.storage.store.Store` hold every query the host makes, written
once in the SQL that SQLite and PostgreSQL share (``?`` placeholders, ``ON CONFLICT``,
``RETURNING``); a backend (:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`) only runs it.  So the two backends
cannot drift apart in what they store or how a move is guarded: the same statement, the same
version check, in the same transaction.  The few places the dialects differ are named here
(:class:`Dialect`), not spread through the queries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

Row = Sequence[Any]


class StoreError(Exception):
    """The database cannot be used; the message names the database and the cause.

    Raised for every database or file-system failure (disk full, read-only file, I/O error,
    the file deleted under us, the server gone), always after the transaction was rolled
    back: whoever catches it may tell the player that nothing was saved.
    """


class CommitUnknown(StoreError):
    """The COMMIT itself (or the sync under it) failed: the transaction may be on disk or not.

    Unlike every other :class:`StoreError`, nothing may be told to a player yet: SQLite can
    report an I/O error on the WAL's fsync after the frames were written, and a restart then
    finds the move; a server can commit and lose the connection before saying so.  Whoever
    wrote the transaction asks the database what it holds (:meth:`Database.fetch_fresh`).
    """


class Unconfirmed(StoreError):
    """A commit failed ambiguously and the database could not be read to settle it.

    The only answer that is not a guess: "could not confirm; the board will show it", the
    cached game is dropped and the board is redrawn from what the database holds once it reads.
    """


class VersionConflict(Exception):
    """Another action was committed first; the caller's view of the game is stale."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """Where SQLite's SQL and PostgreSQL's part ways, as fragments the store's queries splice in."""

    name: str
    least: str
    """The two-argument minimum: SQLite's scalar ``MIN``, PostgreSQL's ``LEAST``."""
    lock: str
    """Appended to a read inside a transaction that decides a write: PostgreSQL locks the row
    (``FOR UPDATE``) so a writer in another process waits; SQLite's transactions already
    hold the whole file."""
    skip_locked: str
    """Appended to a claim of a due deadline: another process's claim in flight is skipped,
    never waited for (``FOR UPDATE SKIP LOCKED``)."""
    sync_ids: str
    """After games were written with ids of their own (a copy, :mod:`bot.storage.transfer`): moves
    the generator of ``games.id`` past the largest one, so the next table gets a new id.  Empty
    for SQLite, whose ``INTEGER PRIMARY KEY`` always takes the largest id plus one."""


SQLITE = Dialect("sqlite", least="MIN", lock="", skip_locked="", sync_ids="")
POSTGRES = Dialect(
    "postgres",
    least="LEAST",
    lock=" FOR UPDATE",
    skip_locked=" FOR UPDATE SKIP LOCKED",
    sync_ids="SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games HAVING MAX(id) IS NOT NULL",
)


class Connection(Protocol):
    """One connection inside one transaction."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


class Database(Protocol):
    """A backend: the store's only way to its data."""

    dialect: Dialect
    name: str
    """What messages call it: a file's path, or a server's URL without its password."""

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """Everything done inside commits together or not at all (``StoreError`` on failure)."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read outside any transaction (one consistent snapshot per statement)."""
        ...

    async def schema_version(self) -> int: ...

    async def migrate(self) -> None:
        """Apply the numbered migrations this database has not had yet (``StoreError`` when a
        newer version of the bot wrote it)."""
        ...

    async def fetch_fresh(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read that trusts no state of a connection that just failed: SQLite opens a new
        connection to the file, PostgreSQL takes another from its pool.  ``StoreError`` when the
        database cannot be read at all."""
        ...

    def health(self) -> str | None:
        """``None`` while the database can be written, else what went wrong (no I/O: cheap)."""
        ...

    async def reclaim(self) -> None:
        """Give the space of deleted rows back (after ``prune``): SQLite's incremental vacuum,
        PostgreSQL's ``VACUUM``."""
        ...

    async def close(self) -> None: ...


def migrations(dialect: Dialect) -> list[tuple[int, str]]:
    """The numbered scripts of ``migrations/<dialect>/``, in order: ``(number, sql)``.

    Both folders share the numbering: schema *n* means the same tables and columns in either.
    """
    folder = resources.files("bot.storage").joinpath("migrations", dialect.name)
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)
