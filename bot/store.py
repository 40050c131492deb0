"""SQLite persistence: one file, WAL, foreign keys, migrations by ``user_version``.

Every accepted action is written together with the new snapshot and version
in one transaction, so what a player has been shown is always on disk, and
the log alone (with the seed) can rebuild any game.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from rules.core import Action

log = logging.getLogger(__name__)

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
    # 3: when the game last changed *publicly*, for "last move" in /game list; the log's
    # newest entry may be a hidden stow, whose moment must not show.  Older games start
    # with none (their log cannot tell which moves were public).  And a small key-value
    # table, which also gives start-up a real row to write when it proves the file writable.
    """
    ALTER TABLE games ADD COLUMN public_at REAL;
    CREATE INDEX games_by_status ON games (status, updated_at);
    CREATE TABLE meta (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    );
    """,
    # 4: one live board per table (issue 8).  A table message records the public version
    # its turn began at (its event lines are the public moves after it, so they can be
    # rebuilt after a restart) and whom it pinged (a repost for the same players pings
    # nobody).  A rematch remembers the game it repeats, so a second click finds it.
    """
    ALTER TABLE messages ADD COLUMN since INTEGER;
    ALTER TABLE messages ADD COLUMN pinged TEXT;
    ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);
    """,
    # 5: slow games (issue 12).  Time is kept in rows, so a restart neither loses nor repeats
    # it: ``waits`` holds every seat a game waits on, since when, and its next reminder and
    # timeout (NULL: none), indexed so the scheduler asks for the next one without a scan.
    # A table's own clocks (NULL: the server's default; 0: off), players' preferences (how to
    # be reminded, away until when), servers' defaults, how each logged move was made (a
    # timeout's default move) and whether an undo took it back, how long its player had been
    # waited on (stats), each seat's final place, and an undo waiting for consent.
    """
    ALTER TABLE games ADD COLUMN remind_hours INTEGER;
    ALTER TABLE games ADD COLUMN timer_hours INTEGER;
    CREATE TABLE waits (
        game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        since        REAL    NOT NULL,
        remind_due   REAL,
        reminders    INTEGER NOT NULL DEFAULT 0,
        timeout_due  REAL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX waits_by_remind_due ON waits (remind_due) WHERE remind_due IS NOT NULL;
    CREATE INDEX waits_by_timeout_due ON waits (timeout_due) WHERE timeout_due IS NOT NULL;
    CREATE TABLE players (
        user_id     INTEGER PRIMARY KEY,
        notify      TEXT    NOT NULL DEFAULT 'thread' CHECK (notify IN ('thread', 'dm', 'none')),
        away_until  REAL
    );
    CREATE TABLE guilds (
        guild_id        INTEGER PRIMARY KEY,
        remind_hours    INTEGER,
        timer_hours     INTEGER,
        channel_id      INTEGER,
        opener_role_id  INTEGER
    );
    ALTER TABLE actions ADD COLUMN how TEXT NOT NULL DEFAULT 'player' CHECK (how IN ('player', 'timeout'));
    ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE actions ADD COLUMN waited REAL;
    ALTER TABLE seats ADD COLUMN rank INTEGER;
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE undo_requests (
        game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        version   INTEGER NOT NULL,
        seat      INTEGER NOT NULL,
        accepted  TEXT    NOT NULL DEFAULT '[]',
        asked_at  REAL    NOT NULL
    );
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
    """The database cannot be used; the message names the path and the cause.

    Raised for every SQLite or file-system failure (disk full, read-only file,
    I/O error, the file deleted under us), always after the transaction was rolled
    back: whoever catches it may tell the player that nothing was saved.
    """


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
    public_at: float | None
    """When others last saw the game change (``None`` before the first public move was stored)."""

    @property
    def table_channel_id(self) -> int | None:
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class MessageRow:
    message_id: int
    channel_id: int
    kind: str
    version: int
    since: int | None = None
    """The public version this table message's turn began at (its lines are the moves after it)."""
    pinged: frozenset[int] | None = None
    """The seats this message mentioned when it was posted (``None``: not recorded)."""


_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, game, options, seed, status, version, snapshot, host_id, "
    "language, reason, created_at, updated_at, public_version, public_at"
)


def _game(row: Sequence[Any]) -> GameRow:
    values = list(row)
    values[5] = json.loads(values[5])
    return GameRow(*values)


FileId = tuple[int, int]
"""``(device, inode)``: which file a path named when we opened it."""


def _message(row: Sequence[Any]) -> MessageRow:
    pinged = None if row[5] is None else frozenset(int(s) for s in json.loads(row[5]))
    return MessageRow(
        int(row[0]), int(row[1]), str(row[2]), int(row[3]), None if row[4] is None else int(row[4]), pinged
    )


def _file_id(path: str) -> FileId | None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return (info.st_dev, info.st_ino)


class Store:
    """The only code that speaks SQL.  One connection; aiosqlite serialises its calls."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        # One connection is shared by every game: without this lock two games'
        # transactions could interleave and a statement of one would land in
        # (or be rolled back with) the other's transaction.
        self._lock = asyncio.Lock()
        self._files: dict[str, FileId | None] = {}
        self.fault: str | None = None
        """Why the store stopped taking writes (its file was deleted or replaced), or ``None``."""

    def _error(self, exc: BaseException) -> StoreError:
        return StoreError(f"The database at {self.path} failed: {exc}")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            self._check_files()
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except (sqlite3.Error, OSError) as exc:
                raise self._error(exc) from exc
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException as exc:
                try:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                except (sqlite3.Error, OSError) as rollback:
                    log.error("rollback failed on %s: %s", self.path, rollback)
                if isinstance(exc, (sqlite3.Error, OSError)):
                    raise self._error(exc) from exc
                raise
            # A commit into a file that was deleted or replaced meanwhile is lost at the next start.
            self._check_files()

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        async with self._transaction() as db:
            await (await db.execute(sql, params)).close()

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            try:
                async with self._db.execute(sql, params) as cur:
                    return list(await cur.fetchall())
            except (sqlite3.Error, OSError) as exc:
                raise self._error(exc) from exc

    # -- the file under us -----------------------------------------------------------------------

    def _watch_files(self) -> None:
        """Remember which files the database and its write-ahead log are, to notice a swap."""
        if self.path == ":memory:":
            return
        for name in (self.path, self.path + "-wal"):
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
        """``None`` when the database file is still the one we opened, else the problem."""
        try:
            self._check_files()
        except StoreError:
            return self.fault
        return None

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed), check, migrate, and prove the file is writable.

        Refuses (``StoreError`` naming the path and the problem) a file that fails
        ``PRAGMA quick_check``, that is read-only, or that a newer version wrote.
        """
        name = str(path)
        if name != ":memory:":
            name = os.path.abspath(name)
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
        store = cls(db, name)
        try:
            problems = [str(row[0]) for row in await store._fetch("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(
                    f"The database at {name} is damaged ({'; '.join(problems[:3])}); "
                    "restore it from a backup or move it away to start afresh."
                )
            for pragma in PRAGMAS:
                await store._fetch(pragma)
            await store._migrate()
            # A real write: SQLite opens a file it may not write read-only without a word.
            await db.execute("BEGIN IMMEDIATE")
            await db.execute(
                "INSERT INTO meta (key, value) VALUES ('opened', ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(os.getpid()),),
            )
            await db.execute("COMMIT")
        except StoreError as exc:
            await db.close()
            if exc.__cause__ is None:
                raise  # already says what is wrong (damaged, or from a newer version)
            raise StoreError(f"Cannot use the database at {name}: {exc.__cause__}") from None
        except (sqlite3.Error, OSError) as exc:
            await db.close()
            raise StoreError(f"Cannot use the database at {name}: {exc}") from None
        store._watch_files()
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
        rematch_of: int | None = None,
    ) -> int:
        """A lobby with its host already seated (``rematch_of``: the finished game it repeats)."""
        async with self._transaction() as db:
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, game, options, host_id, language, created_at,"
                " updated_at, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    game,
                    json.dumps(options, sort_keys=True),
                    host_id,
                    language,
                    now,
                    now,
                    rematch_of,
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

    async def rematch(self, game_id: int) -> GameRow | None:
        """The newest table opened as a rematch of ``game_id`` that is still open or running."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE rematch_of = ? AND status IN ('lobby', 'active')"
            " ORDER BY id DESC LIMIT 1",
            (game_id,),
        )
        return _game(rows[0]) if rows else None

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
                " updated_at = ?, public_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (seed, snapshot, now, now, game_id),
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
            # public_at moves only with the public version (the right-hand side reads the old row).
            cur = await db.execute(
                "UPDATE games SET version = ?, snapshot = ?, status = ?, public_version = ?, updated_at = ?,"
                " public_at = CASE WHEN public_version = ? THEN public_at ELSE ? END"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (
                    new_version,
                    snapshot,
                    status,
                    public_version,
                    now,
                    public_version,
                    now,
                    game_id,
                    expected_version,
                ),
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

    # -- messages --------------------------------------------------------------------------------

    async def add_message(
        self,
        game_id: int,
        channel_id: int,
        message_id: int,
        kind: str,
        version: int,
        *,
        since: int | None = None,
        pinged: Iterable[int] | None = None,
    ) -> None:
        await self._write(
            "INSERT OR REPLACE INTO messages (message_id, game_id, channel_id, kind, version, live, since, pinged)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
            (
                message_id,
                game_id,
                channel_id,
                kind,
                version,
                since,
                None if pinged is None else json.dumps(sorted(pinged)),
            ),
        )

    async def live_messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]:
        sql = (
            "SELECT message_id, channel_id, kind, version, since, pinged FROM messages"
            " WHERE game_id = ? AND live = 1"
        )
        params: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        rows = await self._fetch(sql + " ORDER BY message_id", params)
        return [_message(r) for r in rows]

    async def last_message(self, game_id: int, kind: str) -> MessageRow | None:
        """The newest message of this kind, live or retired (whom did the last table ping?)."""
        rows = await self._fetch(
            "SELECT message_id, channel_id, kind, version, since, pinged FROM messages"
            " WHERE game_id = ? AND kind = ? ORDER BY message_id DESC LIMIT 1",
            (game_id, kind),
        )
        return _message(rows[0]) if rows else None

    async def games_behind_their_table(self) -> list[int]:
        """Active games whose newest live table message was drawn for an older public version,
        or that still show an older table beside it (one whose folding failed)."""
        rows = await self._fetch(
            "SELECT g.id FROM games g WHERE g.status = 'active' AND (g.public_version != COALESCE("
            " (SELECT m.version FROM messages m WHERE m.game_id = g.id AND m.kind = 'table' AND m.live = 1"
            "  ORDER BY m.message_id DESC LIMIT 1), -1)"
            " OR (SELECT COUNT(*) FROM messages m WHERE m.game_id = g.id AND m.kind = 'table' AND m.live = 1) > 1)"
            " ORDER BY g.id"
        )
        return [int(r[0]) for r in rows]

    async def has_message(self, game_id: int, kind: str) -> bool:
        """Whether this game ever had a message of this kind (live or retired)."""
        rows = await self._fetch(
            "SELECT 1 FROM messages WHERE game_id = ? AND kind = ? LIMIT 1", (game_id, kind)
        )
        return bool(rows)

    async def games_missing_final(self, *, ended_since: float) -> list[int]:
        """Games ended since ``ended_since`` that had a table but whose closing message was never posted.

        Bounded by time so the minutely sweep does not rescan every game that ever ended.
        """
        rows = await self._fetch(
            "SELECT g.id FROM games g WHERE g.status IN ('finished', 'abandoned') AND g.updated_at >= ?"
            " AND EXISTS (SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = 'table')"
            " AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = 'final')"
            " ORDER BY g.id",
            (ended_since,),
        )
        return [int(r[0]) for r in rows]

    async def retire_message(self, message_id: int) -> None:
        await self._write("UPDATE messages SET live = 0 WHERE message_id = ?", (message_id,))

    async def update_message_version(
        self, message_id: int, version: int, *, pinged: Iterable[int] | None = None
    ) -> None:
        """A table message edited in place: the version it shows (and who has been told to play)."""
        if pinged is None:
            await self._write("UPDATE messages SET version = ? WHERE message_id = ?", (version, message_id))
            return
        await self._write(
            "UPDATE messages SET version = ?, pinged = ? WHERE message_id = ?",
            (version, json.dumps(sorted(pinged)), message_id),
        )
