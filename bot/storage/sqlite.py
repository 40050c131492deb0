"""The embedded backend: one SQLite file, WAL, foreign keys, migrations by ``user_version``.

One connection serves every game (aiosqlite runs it on one thread), so a lock keeps one
transaction at a time on it; ``BEGIN IMMEDIATE`` takes the file's write lock at once, so
another process on the same file waits (``busy_timeout``) instead of failing mid-transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import SQLITE, CommitUnknown, Connection, Row, StoreError, migrations

log = logging.getLogger(__name__)

PRAGMAS = (
    # First, so that a new file gets it before any table exists (later it changes nothing
    # until a VACUUM: ``reclaim`` converts an older file once).  Freed pages can then be given
    # back to the file system a few at a time, without rewriting the whole file (issue 25).
    "PRAGMA auto_vacuum = INCREMENTAL",
    "PRAGMA journal_mode = WAL",
    # FULL: a commit is on disk before we answer the player, even across a power cut.
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)

FileId = tuple[int, int]
"""``(device, inode)``: which file a path named when we opened it."""


MARKER = ".created"
"""Appended to the database's path: a small file that says a database was created there.

How a restart tells "no database yet" from "the database vanished": SQLite leaves its ``-wal``
and ``-shm`` beside a file only while (or after a crash while) it is open, so they are no
proof; this marker is written on every open and stays when the database itself is deleted or
moved away.  ``python -m bot run`` refuses to start over an empty file while it is there
(:func:`vanished`); ``run --new-database`` (or deleting the marker) says that is meant."""


LOST = ".lost"
"""Appended to the database's path: the games whose acknowledged moves a deleted WAL took away
(JSON ``{game: {"on_disk": v, "acknowledged": w}}``), written when that is noticed."""


def _read_lost(name: str) -> dict[int, str]:
    """The games :data:`LOST` names, each with what it lost in words (empty without the file)."""
    if name == ":memory:":
        return {}
    try:
        found = json.loads(Path(name + LOST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.error("%s cannot be read (%s): every game is held until it is fixed", name + LOST, exc)
        return {0: str(exc)}
    held = {
        int(game): f"version {v['acknowledged']} acknowledged, {v['on_disk']} on disk"
        for game, v in found.items()
    }
    if held:
        log.error("moves refused until an operator acts (%s): %s", name + LOST, held)
    return held


def _mark(name: str) -> None:
    """Leave :data:`MARKER` beside the database (once): later starts know a database was here."""
    marker = name + MARKER
    if not os.path.exists(marker):
        try:
            Path(marker).write_text(f"{name}\n", encoding="utf-8")
        except OSError as exc:
            log.warning("could not write %s (%s): a vanished database would not be noticed", marker, exc)


DEFINITE = frozenset(
    {sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_IOERR_WRITE}
)
"""COMMIT failures that prove nothing landed: a full disk or a refused write stops SQLite before
the WAL's commit frame, a deferred constraint before any write.
Any other (an fsync's ``SQLITE_IOERR_FSYNC`` above all) may follow a complete commit frame."""


def _refused_whole(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and (code in DEFINITE or code & 0xFF in DEFINITE)


def _file_id(path: str) -> FileId | None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return (info.st_dev, info.st_ino)


def vanished(target: str | Path) -> str | None:
    """Why an existing database is expected at ``target`` though none is there, else ``None``."""
    name = sqlite_path(target)
    if name == ":memory:" or os.path.exists(name):
        return None
    clues = [name + suffix for suffix in (MARKER, "-wal", "-shm") if os.path.exists(name + suffix)]
    if not clues:
        return None
    rescued = sorted(p.name for p in Path(name).parent.glob(Path(name).name + ".rescued*"))
    restore = (
        f"move {rescued[-1]} (saved when it vanished) back to {name}"
        if rescued
        else "restore it (from a backup)"
    )
    return (
        f"The database at {name} is missing, but {', '.join(clues)} show that one was there: "
        f"it was deleted or moved. To keep its tables, {restore}; or start with "
        "`python -m bot run --new-database` to begin again with no tables."
    )


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
        self._swapped: str | None = None
        self._rescued = False
        self._lost = False
        self.held: dict[int, str] = _read_lost(path)
        """Games with acknowledged moves a deleted WAL took away (:data:`LOST`), and what was lost:
        their moves are refused until an operator has looked (``run --accept-lost``)."""

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
            _mark(name)
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
            # No quick_check here: it reads every page (1.2 s at 100,000 games) and start-up must
            # not grow with the file.  It runs after ready, in the background (:meth:`integrity`),
            # and in ``python -m bot health``; a file that is not a database fails right here.
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
            await self._check_or_rescue()
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
            except (sqlite3.Error, OSError) as exc:
                raise self._error(exc) from exc
            try:
                yield _Connection(self.connection)
            except BaseException as exc:
                try:
                    if self.connection.in_transaction:
                        await self.connection.execute("ROLLBACK")
                except (sqlite3.Error, OSError) as rollback:
                    log.error("rollback failed on %s: %s", self.name, rollback)
                if isinstance(exc, (sqlite3.Error, OSError)):
                    raise self._error(exc) from exc
                raise
            try:
                await self.connection.execute("COMMIT")
            except (sqlite3.Error, OSError) as exc:
                # An error from COMMIT (an fsync's EIO, say) does not tell whether the WAL
                # frames landed: a restart may find them.  The writer settles it by reading.
                try:
                    if self.connection.in_transaction:
                        await self.connection.execute("ROLLBACK")
                except (sqlite3.Error, OSError) as rollback:
                    log.error("rollback failed on %s: %s", self.name, rollback)
                if _refused_whole(exc):
                    raise self._error(exc) from exc
                raise CommitUnknown(f"The database at {self.name} failed to commit: {exc}") from exc
            # A commit into a file that was deleted or replaced meanwhile is lost at the next start:
            # this check comes before the caller can acknowledge anything.
            await self._check_or_rescue()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            try:
                async with self.connection.execute(sql, params) as cur:
                    return list(await cur.fetchall())
            except (sqlite3.Error, OSError) as exc:
                raise self._error(exc) from exc

    async def fetch_fresh(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read on a new connection to the file, never one that would create it.

        After a failed commit the shared connection's own view is no proof: this one reads what
        is in the file and its WAL, as another process (or the next start) would.
        """
        if self.name == ":memory:":
            return await self.fetch(sql, params)
        self._check_files()

        def read() -> list[Row]:
            con = sqlite3.connect(f"file:{self.name}?mode=rw", uri=True, timeout=5.0)
            try:
                return list(con.execute(sql, params).fetchall())
            finally:
                con.close()

        try:
            return await asyncio.to_thread(read)
        except (sqlite3.Error, OSError) as exc:
            raise self._error(exc) from exc

    async def integrity(self) -> str | None:
        """``PRAGMA quick_check`` on a connection of its own (off the shared one, whose lock every
        click needs): ``None`` when the file is sound, else SQLite's first complaints.  A damaged
        file stops taking writes (:attr:`fault`), so nothing more is written into it."""
        if self.name == ":memory:":
            return None
        problems = [str(row[0]) for row in await self.fetch_fresh("PRAGMA quick_check")]
        if problems == ["ok"]:
            return None
        found = "; ".join(problems[:3])
        if self.fault is None:
            self.fault = (
                f"{self.name} is damaged ({found}); restore it from a backup or move it away to start afresh"
            )
            log.error("database fault: %s. Moves are refused.", self.fault)
        return found

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
                found = _file_id(name)
                if expected is None:
                    # The WAL appears with the first write after open: watch it from then on.
                    self._files[name] = found
                    continue
                if found != expected:
                    what = "was deleted" if found is None else "was replaced by another file"
                    self._swapped = name
                    self.fault = f"{name} {what} while the bot was running; restart the bot"
                    log.error("database fault: %s. Moves are refused until a restart.", self.fault)
                    break
        if self.fault is not None:
            raise StoreError(f"The database cannot be written: {self.fault}")

    async def _check_or_rescue(self) -> None:
        """:meth:`_check_files`, and on a fault :meth:`_rescue` first; the lock is held."""
        try:
            self._check_files()
        except StoreError:
            await self._rescue()
            raise

    async def rescue(self) -> None:
        """Save what can be saved once a file was deleted or replaced (the minutely check calls it)."""
        if self.fault is not None and not self._rescued:
            async with self._lock:
                await self._rescue()

    async def _rescue(self) -> None:
        """Once, after a file was swapped: keep every acknowledged move, or say loudly which are lost.

        The open connection still holds the old files.  The WAL deleted: a TRUNCATE checkpoint
        copies its commits into the database file, which is still the one at the path; what the
        file alone then holds (read ``immutable``, as the next start would) is compared with what
        was acknowledged, and any game behind is named in an ERROR and in :data:`LOST`, so the
        next start refuses its moves.  The database deleted: the connection's whole view is
        copied to ``<path>.rescued`` with SQLite's backup, and the ERROR says how to restore it.
        """
        if self._rescued or self._swapped is None:
            return
        self._rescued = True
        if self._swapped == self.name:
            copy = self.name + ".rescued"
            if os.path.exists(copy):
                copy = f"{copy}-{int(time.time())}"
            try:
                target = sqlite3.connect(copy, check_same_thread=False)
                try:
                    await self.connection.backup(target)
                finally:
                    target.close()
            except (sqlite3.Error, OSError) as exc:
                log.error("database fault: %s; copying what was acknowledged failed too: %s", self.fault, exc)
                return
            log.error(
                "database fault: %s was deleted or replaced while the bot ran; everything it had "
                "acknowledged is copied to %s. Stop the bot, move that copy to %s, and start it again.",
                self.name,
                copy,
                self.name,
            )
            return
        lost = await self._save_wal()
        if lost is None:
            return
        if not lost:
            log.error(
                "database fault: %s; every acknowledged move was copied into %s, nothing is lost. "
                "Moves are refused until a restart.",
                self.fault,
                self.name,
            )
            return
        log.error(
            "database fault: %s; ACKNOWLEDGED MOVES ARE LOST: %s. Their moves stay refused after a "
            "restart until an operator has looked (%s lists them; start with --accept-lost).",
            self.fault,
            ", ".join(
                f"game {g} (version {a} acknowledged, {k} on disk)" for g, (k, a) in sorted(lost.items())
            ),
            self.name + LOST,
        )

    async def _save_wal(self) -> dict[int, tuple[int, int]] | None:
        """Copy the deleted WAL's commits into the file (a TRUNCATE checkpoint through our handle),
        then compare what the file alone holds (read ``immutable``, as the next start will) with
        what was acknowledged: ``{game: (on disk, acknowledged)}`` for every game behind, also
        written to :data:`LOST` (removed when none is).  ``None`` when even that failed."""
        try:
            acknowledged = await self._versions(self.connection)
            await (await self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")).close()

            def on_disk() -> dict[int, int]:
                con = sqlite3.connect(f"file:{self.name}?immutable=1", uri=True)
                try:
                    return {int(r[0]): int(r[1]) for r in con.execute("SELECT id, version FROM games")}
                finally:
                    con.close()

            try:
                kept = await asyncio.to_thread(on_disk)
            except sqlite3.DatabaseError as exc:
                # The file alone does not even read: every game counts as lost (0 on disk).
                log.error("database fault: %s; %s alone cannot be read: %s", self.fault, self.name, exc)
                kept = {}
            lost = {
                game: (kept.get(game, 0), version)
                for game, version in acknowledged.items()
                if kept.get(game, 0) < version
            }
            record = Path(self.name + LOST)
            if lost:
                record.write_text(
                    json.dumps(
                        {str(g): {"on_disk": k, "acknowledged": a} for g, (k, a) in sorted(lost.items())}
                    ),
                    encoding="utf-8",
                )
            elif record.exists():
                record.unlink()
        except (sqlite3.Error, OSError) as exc:
            log.error("database fault: %s; saving what was acknowledged failed too: %s", self.fault, exc)
            return None
        self._lost = bool(lost)
        return lost

    @staticmethod
    async def _versions(connection: aiosqlite.Connection) -> dict[int, int]:
        async with connection.execute("SELECT id, version FROM games") as cur:
            return {int(r[0]): int(r[1]) for r in await cur.fetchall()}

    def health(self) -> str | None:
        try:
            self._check_files()
        except StoreError:
            return self.fault
        return None

    async def reclaim(self) -> None:
        """Shrink the file after rows were deleted.

        A file made before ``auto_vacuum = INCREMENTAL`` (schema 8 and older) is converted by one
        full ``VACUUM``: it rewrites the file (it needs about the file's size again on disk, and
        holds the write lock meanwhile, so other writers wait up to ``busy_timeout``).  From then
        on ``incremental_vacuum`` only moves and frees the pages that deletions emptied.  The
        write-ahead log is checkpointed and truncated last, or it would keep the freed space.
        """
        async with self._lock:
            self._check_files()
            try:
                async with self.connection.execute("PRAGMA auto_vacuum") as cur:
                    row = await cur.fetchone()
                if row is None or int(row[0]) != 2:
                    await self.connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
                    await self.connection.execute("VACUUM")
                else:
                    # executescript steps the statement to the end; a plain execute steps it once,
                    # and each step of incremental_vacuum frees a single page.
                    await self.connection.executescript("PRAGMA incremental_vacuum;")
                async with self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur:
                    await cur.fetchall()
            except (sqlite3.Error, OSError) as exc:
                raise self._error(exc) from exc

    async def close(self) -> None:
        if self._lost:
            # Whatever pinned the WAL may be gone now: one more try, so a clean stop after a
            # deleted WAL holds back no table that in fact lost nothing.
            lost = await self._save_wal()
            if lost == {}:
                log.error("%s: every acknowledged move is in the file after all; no table is held", self.name)
        await self.connection.close()
