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
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
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
    # 6: bot players (issue 14).  A seat a bot fills says how well it plays; people's seats are
    # NULL.  A bot's user id is negative (no Discord user has one), unique within its game.
    """
    ALTER TABLE seats ADD COLUMN bot TEXT CHECK (bot IN ('easy', 'normal'));
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
    bot: str | None = None
    """``"easy"`` or ``"normal"`` for a seat a bot plays; ``None`` for a person."""


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


# -- waits and deadlines: plain data ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WaitRow:
    """One seat a game waits on, since when, and its next reminder and timeout (``None``: none)."""

    game_id: int
    seat: int
    since: float
    remind_due: float | None
    reminders: int
    """Reminders already sent for this wait."""
    timeout_due: float | None


@dataclass(frozen=True, slots=True)
class Deadlines:
    remind_due: float | None
    timeout_due: float | None


@dataclass(frozen=True, slots=True)
class WaitChanges:
    """What one committed change does to a game's waits; every seat it does not name loses its row.

    Written in the transaction of the change itself, so no move is ever on disk without the
    deadlines it implies (nor deadlines without their move).
    """

    since: float
    """The moment of the change: a restarted wait is waited on from here."""
    restart: Mapping[int, Deadlines] = field(default_factory=dict)
    """Seats whose wait starts (again) now: ``since`` is now and no reminder was sent yet."""
    keep: frozenset[int] = frozenset()
    """Seats whose row stays exactly as it is."""
    redue: Mapping[int, Deadlines] = field(default_factory=dict)
    """Seats whose deadlines move while their wait goes on (``since`` and the count are kept)."""
    due_now: frozenset[int] = frozenset()
    """Seats still waited on after their own default move: their timeout is due again at once,
    so a default made of several steps is played to its end (and resumed after a crash)."""


@dataclass(frozen=True, slots=True)
class WaitContext:
    """What the deadlines of a game's waits depend on, read inside the writing transaction."""

    remind_hours: int | None
    """The table's own reminder interval (``None``: the server's; 0: off)."""
    timer_hours: int | None
    server_remind_hours: int | None
    server_timer_hours: int | None
    away: Mapping[int, float]
    """Seats whose player is away, and until when (only those still away at the change)."""
    waits: Mapping[int, WaitRow]
    """The game's waits before the change."""


WaitPlanner = Callable[[WaitContext], WaitChanges]
"""Turns a :class:`WaitContext` into the changes to write; called inside the transaction."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    user_id: int
    notify: str
    """How reminders reach this player: ``thread``, ``dm`` or ``none``."""
    away_until: float | None


@dataclass(frozen=True, slots=True)
class TableClocks:
    """A table's reminder and timer intervals in hours, its own and its server's (``None``: unset)."""

    remind_hours: int | None
    timer_hours: int | None
    server_remind_hours: int | None
    server_timer_hours: int | None


_WAIT_COLUMNS = "game_id, seat, since, remind_due, reminders, timeout_due"

NEXT_DUE_SQL = (
    "SELECT (SELECT MIN(remind_due) FROM waits WHERE remind_due IS NOT NULL),"
    " (SELECT MIN(timeout_due) FROM waits WHERE timeout_due IS NOT NULL)"
)
"""The next deadline: each half is the first entry of its partial index (the benchmark shows the plan)."""


def _wait(row: Sequence[Any]) -> WaitRow:
    return WaitRow(
        int(row[0]),
        int(row[1]),
        float(row[2]),
        None if row[3] is None else float(row[3]),
        int(row[4]),
        None if row[5] is None else float(row[5]),
    )


def _hours(value: Any) -> int | None:
    return None if value is None else int(value)


# -- undo, tables of a player, settings, stats: plain data ----------------------------------------


UNDONE = 1
"""``actions.undone`` of a move its player took back."""
UNDONE_WITH = 2
"""``actions.undone`` of a hidden move made after a move that was taken back, which no longer fitted
without it and was taken back with it (see :meth:`Store.record_undo`)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of a game's action log, kept whether it stands or was taken back."""

    version: int
    seat: int
    user_id: int | None
    action: Action
    at: float
    how: str
    """``player``, or ``timeout`` for a default move the turn timer made."""
    undone: int
    """0: it stands; :data:`UNDONE` or :data:`UNDONE_WITH`: taken back (replays skip it)."""
    waited: float | None
    """Seconds its player had been waited on when it was made (``None``: not recorded)."""


def standing_log(entries: Sequence[LogEntry]) -> tuple[list[tuple[int, Action]], list[int]]:
    """The moves that stand, ``(seat, action)`` in order, and where undos moved the public version.

    Every replay skips what was taken back; a replay that numbers public versions (the table's
    lines, Catch me up, a form's "then", the torture checks) adds, before each standing move,
    the public versions undos used up there: two for each move its player took back (its own
    public change and the undo's), none for a hidden move taken back with it.  The second list
    has one entry per standing move plus one for after the last.
    """
    log: list[tuple[int, Action]] = []
    bumps: list[int] = []
    pending = 0
    for entry in entries:
        if entry.undone == UNDONE:
            pending += 2
        elif not entry.undone:
            log.append((entry.seat, entry.action))
            bumps.append(pending)
            pending = 0
    bumps.append(pending)
    return log, bumps


@dataclass(frozen=True, slots=True)
class UndoRequest:
    """A player asked to take back their last move and waits for the others' consent."""

    game_id: int
    version: int
    """The public version it was asked at: any public change since cancels it."""
    seat: int
    accepted: frozenset[int]
    """Seats that have accepted so far."""
    asked_at: float


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices from ``/game settings``; ``None`` everywhere means "not set".

    ``remind_hours`` / ``timer_hours``: the defaults of new tables (``None``: the bot's own
    defaults; 0: off).  ``channel_id``: the text or forum channel where ``/game new`` opens tables
    (``None``: where the command is typed).  ``opener_role_id``: only members with this role (or
    Manage Server) may open tables (``None``: anyone).
    """

    guild_id: int
    remind_hours: int | None = None
    timer_hours: int | None = None
    channel_id: int | None = None
    opener_role_id: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's figures over finished games (abandoned and broken ones do not count)."""

    played: int
    won: int
    answered: int
    """Moves they made themselves (not taken back) whose waiting time is known."""
    waited: float | None
    """Their average time to move, in seconds, over those (``None``: none known)."""
    timeouts: int
    """Moves the turn timer made for them."""


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a server's leaderboard."""

    user_id: int
    name: str
    played: int
    won: int


_LOG_COLUMNS = "version, seat, user_id, action, at, how, undone, waited"


def _log_entry(row: Sequence[Any]) -> LogEntry:
    return LogEntry(
        int(row[0]),
        int(row[1]),
        None if row[2] is None else int(row[2]),
        Action.from_json(json.loads(row[3])),
        float(row[4]),
        str(row[5]),
        int(row[6]),
        None if row[7] is None else float(row[7]),
    )


def _undo_request(row: Sequence[Any]) -> UndoRequest:
    return UndoRequest(
        int(row[0]), int(row[1]), int(row[2]), frozenset(int(s) for s in json.loads(row[3])), float(row[4])
    )


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
        remind_hours: int | None = None,
        timer_hours: int | None = None,
    ) -> int:
        """A lobby with its host already seated (``rematch_of``: the finished game it repeats).

        ``remind_hours``/``timer_hours``: the table's own clocks (``None``: the server's
        defaults; a rematch keeps the clocks of the game it repeats)."""
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
            if remind_hours is not None or timer_hours is not None or rematch_of is not None:
                await db.execute(
                    "UPDATE games SET remind_hours = COALESCE(?, (SELECT remind_hours FROM games WHERE id = ?)),"
                    " timer_hours = COALESCE(?, (SELECT timer_hours FROM games WHERE id = ?)) WHERE id = ?",
                    (remind_hours, rematch_of, timer_hours, rematch_of, game_id),
                )
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
        """A game that ends here (abandoned, broken) stops waiting on anyone in the same transaction."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET status = ?, reason = ?, updated_at = ? WHERE id = ?",
                (status, reason, now, game_id),
            )
            if status not in ("lobby", "active"):
                await db.execute("DELETE FROM waits WHERE game_id = ?", (game_id,))

    async def start(
        self,
        game_id: int,
        *,
        seats: Sequence[SeatRow],
        seed: int,
        snapshot: str,
        now: float,
        waits: WaitPlanner | None = None,
    ) -> None:
        """Fix the seating order and the seed; the lobby becomes a game at version 0, with its
        first waits (``waits``) in the same transaction."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, bot) VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.name, s.bot) for s in seats],
            )
            cur = await db.execute(
                "UPDATE games SET status = 'active', seed = ?, snapshot = ?, version = 0, public_version = 0,"
                " updated_at = ?, public_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (seed, snapshot, now, now, game_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict("the lobby was already started or closed")
            if waits is not None:
                await self._apply_waits(db, game_id, waits(await self._wait_context(db, game_id, now)))

    # -- seats -----------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetch(
            "SELECT seat, user_id, name, bot FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow(int(r[0]), int(r[1]), str(r[2]), None if r[3] is None else str(r[3])) for r in rows]

    async def add_seat(self, game_id: int, user_id: int, name: str, bot: str | None = None) -> None:
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name, bot) VALUES"
            " (?, (SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?), ?, ?, ?)",
            (game_id, game_id, user_id, name, bot),
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
        how: str = "player",
        waits: WaitPlanner | None = None,
    ) -> int:
        """Append to the log and move the snapshot forward, atomically.

        The ``version = ?`` guard makes a second writer with a stale view
        fail instead of overwriting: it gets :class:`VersionConflict`.
        ``how`` is ``timeout`` for a default move the turn timer made.  ``waits`` plans the
        game's waits after this action (``None``: they stay as they are, as after a private
        action, whose timing must not show anywhere); the log entry records how long its
        player had been waited on (``waited``), only when it is given.
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
            changes: WaitChanges | None = None
            waited: float | None = None
            if waits is not None:
                context = await self._wait_context(db, game_id, now)
                mine = context.waits.get(seat)
                waited = None if mine is None else max(0.0, now - mine.since)
                changes = waits(context)
            await db.execute(
                "INSERT INTO actions (game_id, version, seat, user_id, action, at, how, waited)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, user_id, json.dumps(action.to_json()), now, how, waited),
            )
            if changes is not None:
                await self._apply_waits(db, game_id, changes)
        return new_version

    async def actions(self, game_id: int) -> list[tuple[int, int, Action]]:
        """``(version, seat, action)`` in order, of the moves that stand: what a replay applies
        (a move taken back stays in the log, see :meth:`log_entries`, but is skipped here)."""
        rows = await self._fetch(
            "SELECT version, seat, action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY version",
            (game_id,),
        )
        return [(int(r[0]), int(r[1]), Action.from_json(json.loads(r[2]))) for r in rows]

    # -- waits and deadlines ---------------------------------------------------------------------
    #
    # A game's waits are written by the change that causes them (``start``, ``record_action``,
    # ``set_status``), in its transaction.  The scheduler finds the next deadline with one query on
    # two partial indexes, and claims each due one with a conditional UPDATE, so two ticks (or a
    # tick and a restart) never fire the same deadline twice.

    async def _wait_context(self, db: aiosqlite.Connection, game_id: int, now: float) -> WaitContext:
        """Inside a transaction: the game's clocks, its away players and its current waits."""
        async with db.execute(
            "SELECT g.remind_hours, g.timer_hours, s.remind_hours, s.timer_hours FROM games g"
            " LEFT JOIN guilds s ON s.guild_id = g.guild_id WHERE g.id = ?",
            (game_id,),
        ) as cur:
            clocks = await cur.fetchone()
        async with db.execute(
            "SELECT st.seat, p.away_until FROM seats st JOIN players p ON p.user_id = st.user_id"
            " WHERE st.game_id = ? AND p.away_until > ?",
            (game_id, now),
        ) as cur:
            away = {int(r[0]): float(r[1]) for r in await cur.fetchall()}
        async with db.execute(f"SELECT {_WAIT_COLUMNS} FROM waits WHERE game_id = ?", (game_id,)) as cur:
            waits = {int(r[1]): _wait(r) for r in await cur.fetchall()}
        values = tuple(clocks) if clocks is not None else (None, None, None, None)
        return WaitContext(
            _hours(values[0]), _hours(values[1]), _hours(values[2]), _hours(values[3]), away, waits
        )

    @staticmethod
    async def _apply_waits(db: aiosqlite.Connection, game_id: int, changes: WaitChanges) -> None:
        """Write ``changes`` inside the caller's transaction; a seat they do not name loses its row."""
        named = set(changes.restart) | set(changes.keep) | set(changes.redue) | set(changes.due_now)
        marks = ", ".join("?" for _ in named)
        await db.execute(
            f"DELETE FROM waits WHERE game_id = ? AND seat NOT IN ({marks})", (game_id, *sorted(named))
        )
        await db.executemany(
            "INSERT INTO waits (game_id, seat, since, remind_due, reminders, timeout_due) VALUES (?, ?, ?, ?, 0, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET since = excluded.since, remind_due = excluded.remind_due,"
            " reminders = 0, timeout_due = excluded.timeout_due",
            [
                (game_id, seat, changes.since, due.remind_due, due.timeout_due)
                for seat, due in sorted(changes.restart.items())
            ],
        )
        await db.executemany(
            "UPDATE waits SET remind_due = ?, timeout_due = ? WHERE game_id = ? AND seat = ?",
            [(due.remind_due, due.timeout_due, game_id, seat) for seat, due in sorted(changes.redue.items())],
        )
        await db.executemany(
            "INSERT INTO waits (game_id, seat, since, remind_due, reminders, timeout_due) VALUES (?, ?, ?, NULL, 0, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET timeout_due = excluded.timeout_due",
            [(game_id, seat, changes.since, changes.since) for seat in sorted(changes.due_now)],
        )

    async def next_due(self) -> float | None:
        """The earliest reminder or timeout of all games: one query, two index lookups, no scan."""
        rows = await self._fetch(NEXT_DUE_SQL)
        # Each half is NULL when its index is empty (SQLite's two-argument MIN would then be NULL too).
        found = [float(v) for v in rows[0] if v is not None]
        return min(found) if found else None

    async def due_waits(self, now: float, limit: int) -> list[WaitRow]:
        """Waits with a reminder or a timeout due at ``now``, the earliest first (a range on each index)."""
        rows = await self._fetch(
            f"SELECT {_WAIT_COLUMNS} FROM ("
            f" SELECT {_WAIT_COLUMNS} FROM waits WHERE remind_due <= ?"
            f" UNION SELECT {_WAIT_COLUMNS} FROM waits WHERE timeout_due <= ?)"
            " ORDER BY MIN(COALESCE(remind_due, 1e308), COALESCE(timeout_due, 1e308)), game_id, seat"
            " LIMIT ?",
            (now, now, limit),
        )
        return [_wait(r) for r in rows]

    async def wait(self, game_id: int, seat: int) -> WaitRow | None:
        rows = await self._fetch(
            f"SELECT {_WAIT_COLUMNS} FROM waits WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return _wait(rows[0]) if rows else None

    async def waits(self, game_id: int) -> list[WaitRow]:
        rows = await self._fetch(
            f"SELECT {_WAIT_COLUMNS} FROM waits WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_wait(r) for r in rows]

    async def claim_reminder(self, game_id: int, seat: int, due: float, next_due: float | None) -> bool:
        """Count one reminder as sent, before it is sent: ``True`` for the one caller that got it.

        Conditional on the deadline still being ``due``: a move (which restarts the wait) or
        another tick that claimed it first makes this a no-op.
        """
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE waits SET reminders = reminders + 1, remind_due = ?"
                " WHERE game_id = ? AND seat = ? AND remind_due = ?",
                (next_due, game_id, seat, due),
            )
            return cur.rowcount == 1

    async def move_reminder(self, game_id: int, seat: int, due: float, new_due: float | None) -> bool:
        """Postpone (or drop, ``None``) a due reminder without counting it as sent."""
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE waits SET remind_due = ? WHERE game_id = ? AND seat = ? AND remind_due = ?",
                (new_due, game_id, seat, due),
            )
            return cur.rowcount == 1

    async def clear_timeout(self, game_id: int, seat: int, due: float) -> bool:
        """Drop a timeout that cannot be applied (the engine refused its default move)."""
        return await self.move_timeout(game_id, seat, due, None)

    async def move_timeout(self, game_id: int, seat: int, due: float, new_due: float | None) -> bool:
        """Postpone (or drop, ``None``) a due timeout, if it is still the one at ``due``."""
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE waits SET timeout_due = ? WHERE game_id = ? AND seat = ? AND timeout_due = ?",
                (new_due, game_id, seat, due),
            )
            return cur.rowcount == 1

    async def clear_waits(self, game_id: int) -> None:
        """A game that no longer runs waits on nobody (a leftover of a game ended elsewhere)."""
        await self._write("DELETE FROM waits WHERE game_id = ?", (game_id,))

    async def table_clocks(self, game_id: int) -> TableClocks | None:
        rows = await self._fetch(
            "SELECT g.remind_hours, g.timer_hours, s.remind_hours, s.timer_hours FROM games g"
            " LEFT JOIN guilds s ON s.guild_id = g.guild_id WHERE g.id = ?",
            (game_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return TableClocks(_hours(r[0]), _hours(r[1]), _hours(r[2]), _hours(r[3]))

    async def set_table_clocks(
        self,
        game_id: int,
        *,
        remind_hours: int | None,
        timer_hours: int | None,
        now: float,
        waits: WaitPlanner,
    ) -> None:
        """A table's own intervals (``None``: the server's), and its running waits' new deadlines."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET remind_hours = ?, timer_hours = ? WHERE id = ?",
                (remind_hours, timer_hours, game_id),
            )
            changes = waits(await self._wait_context(db, game_id, now))
            await self._apply_waits(db, game_id, changes)

    async def player(self, user_id: int) -> PlayerRow:
        """A player's preferences; someone who never set any gets the defaults."""
        rows = await self._fetch("SELECT notify, away_until FROM players WHERE user_id = ?", (user_id,))
        if not rows:
            return PlayerRow(user_id, "thread", None)
        return PlayerRow(user_id, str(rows[0][0]), None if rows[0][1] is None else float(rows[0][1]))

    async def set_notify(self, user_id: int, how: str) -> None:
        await self._write(
            "INSERT INTO players (user_id, notify) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
            (user_id, how),
        )

    async def set_away(self, user_id: int, until: float | None, now: float) -> list[int]:
        """Mark a player away until ``until`` (``None``: back now); returns the running games
        whose waits on them moved.

        Every wait on the player in a running game moves by the change in the away time still
        to come: going away for three days pushes their reminders and timeouts three days on,
        coming back a day early pulls them a day back in.  One transaction, so a crash never
        leaves some tables shifted and others not.
        """
        async with self._transaction() as db:
            async with db.execute("SELECT away_until FROM players WHERE user_id = ?", (user_id,)) as cur:
                found = await cur.fetchone()
            old = float(found[0]) if found is not None and found[0] is not None else None
            shift = max(0.0, (until or now) - now) - max(0.0, (old or now) - now)
            await db.execute(
                "INSERT INTO players (user_id, away_until) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until",
                (user_id, until),
            )
            async with db.execute(
                "SELECT DISTINCT w.game_id FROM waits w JOIN seats s ON s.game_id = w.game_id AND s.seat = w.seat"
                " JOIN games g ON g.id = w.game_id WHERE s.user_id = ? AND g.status = 'active' ORDER BY w.game_id",
                (user_id,),
            ) as cur:
                games = [int(r[0]) for r in await cur.fetchall()]
            if shift:
                await db.execute(
                    "UPDATE waits SET remind_due = remind_due + ?, timeout_due = timeout_due + ?"
                    " WHERE (game_id, seat) IN (SELECT s.game_id, s.seat FROM seats s"
                    " JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.status = 'active')",
                    (shift, shift, user_id),
                )
        return games

    async def away_players(self, now: float) -> dict[int, float]:
        """Players away at ``now``, and until when (few: read once at start)."""
        rows = await self._fetch("SELECT user_id, away_until FROM players WHERE away_until > ?", (now,))
        return {int(r[0]): float(r[1]) for r in rows}

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

    # -- undo, tables of a player, settings, stats -----------------------------------------------
    #
    # Undo.  A move taken back stays in the log, marked ``undone`` (:data:`UNDONE`; a hidden move
    # made after it that no longer fits without it is taken back with it, :data:`UNDONE_WITH`),
    # and the snapshot is rebuilt from the log without them.  The undo is a change of its own:
    # ``version`` and ``public_version`` each go up by one, never back, so every button drawn
    # before it is stale (a version that came back would wake buttons drawn for another state),
    # and a process still holding the old state gets ``VersionConflict``.  No action row carries
    # the undo's version: the primary key (game_id, version) only ever sees larger versions, and
    # the log has one gap per undo (rows + undos == version).  ``standing_log`` renumbers replays.
    #
    # Ranks.  ``seats.rank`` is written just after the move that ends a game; a crash in between
    # (or a game that ended before ranks existed) leaves NULL, filled the next time stats are
    # read (``unranked_games``).  In a game nobody wins (Last Will, everyone still employed) the
    # places count from 2, so "won" is simply rank 1 everywhere.

    async def log_entries(self, game_id: int) -> list[LogEntry]:
        """Every logged action, taken back or not, in order (exports, undo, the torture checks)."""
        rows = await self._fetch(
            f"SELECT {_LOG_COLUMNS} FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
        )
        return [_log_entry(r) for r in rows]

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        rows = await self._fetch(
            "SELECT game_id, version, seat, accepted, asked_at FROM undo_requests WHERE game_id = ?",
            (game_id,),
        )
        return _undo_request(rows[0]) if rows else None

    async def ask_undo(
        self, game_id: int, *, version: int, seat: int, now: float
    ) -> tuple[UndoRequest, bool]:
        """Open a request at public ``version``; ``(request, True)`` when this call opened it.

        One request per game: a request still open at this version is returned as it is (a
        second click asks nobody twice), one left from an older version is replaced.
        """
        async with self._transaction() as db:
            async with db.execute(
                "SELECT game_id, version, seat, accepted, asked_at FROM undo_requests WHERE game_id = ?",
                (game_id,),
            ) as cur:
                found = await cur.fetchone()
            if found is not None and int(found[1]) == version:
                return _undo_request(found), False
            await db.execute(
                "INSERT OR REPLACE INTO undo_requests (game_id, version, seat, accepted, asked_at)"
                " VALUES (?, ?, ?, '[]', ?)",
                (game_id, version, seat, now),
            )
        return UndoRequest(game_id, version, seat, frozenset(), now), True

    async def accept_undo(self, game_id: int, *, version: int, seat: int) -> UndoRequest | None:
        """Count ``seat``'s consent to the request open at ``version`` (``None``: no such request)."""
        async with self._transaction() as db:
            async with db.execute(
                "SELECT game_id, version, seat, accepted, asked_at FROM undo_requests"
                " WHERE game_id = ? AND version = ?",
                (game_id, version),
            ) as cur:
                found = await cur.fetchone()
            if found is None:
                return None
            request = _undo_request(found)
            accepted = request.accepted | {seat}
            await db.execute(
                "UPDATE undo_requests SET accepted = ? WHERE game_id = ?",
                (json.dumps(sorted(accepted)), game_id),
            )
        return UndoRequest(game_id, request.version, request.seat, accepted, request.asked_at)

    async def drop_undo(self, game_id: int, *, version: int | None = None) -> bool:
        """Close the game's request (only the one asked at ``version`` when given); ``True`` if one was open."""
        sql = "DELETE FROM undo_requests WHERE game_id = ?"
        params: list[Any] = [game_id]
        if version is not None:
            sql += " AND version = ?"
            params.append(version)
        async with self._transaction() as db:
            cur = await db.execute(sql, params)
            return cur.rowcount > 0

    async def record_undo(
        self,
        game_id: int,
        *,
        expected_version: int,
        public_version: int,
        target: int,
        dropped: Sequence[int],
        snapshot: str,
        now: float,
        waits: WaitPlanner | None = None,
    ) -> int:
        """Take back the action logged at version ``target`` (and ``dropped``), atomically.

        The snapshot (the log replayed without them) and both versions move forward, the rows
        are marked undone, the game's undo request is closed and its waits re-planned, in one
        transaction guarded like :meth:`record_action` (``VersionConflict`` when another
        writer got there first).  Returns the new version.
        """
        new_version = expected_version + 1
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET version = ?, snapshot = ?, public_version = ?, updated_at = ?, public_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, snapshot, public_version, now, now, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            await db.execute(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND version = ? AND undone = 0",
                (UNDONE, game_id, target),
            )
            await db.executemany(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND version = ? AND undone = 0",
                [(UNDONE_WITH, game_id, version) for version in dropped],
            )
            await db.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
            if waits is not None:
                await self._apply_waits(db, game_id, waits(await self._wait_context(db, game_id, now)))
        return new_version

    async def set_ranks(self, game_id: int, ranks: Sequence[int]) -> None:
        """Each seat's final place (``ranks[seat]``), once the game is over."""
        async with self._transaction() as db:
            await db.executemany(
                "UPDATE seats SET rank = ? WHERE game_id = ? AND seat = ?",
                [(rank, game_id, seat) for seat, rank in enumerate(ranks)],
            )

    async def games_with_bots(self) -> list[int]:
        """Running games with a bot seat: their bots are moved again after a restart."""
        rows = await self._fetch(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.status = 'active' AND s.bot IS NOT NULL ORDER BY g.id",
            (),
        )
        return [int(r[0]) for r in rows]

    async def unranked_games(self, guild_id: int | None) -> list[int]:
        """Finished games (of one server, or all) with a seat whose place was never written."""
        sql = (
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.status = 'finished' AND s.rank IS NULL"
        )
        params: list[Any] = []
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetch(sql + " ORDER BY g.id", params)
        return [int(r[0]) for r in rows]

    async def tables_of(
        self, user_id: int, *, guild_id: int | None = None, statuses: Sequence[str] = ("lobby", "active")
    ) -> list[GameRow]:
        """The tables where ``user_id`` sits (in one server, or in every one), oldest first."""
        marks = ", ".join("?" for _ in statuses)
        sql = (
            f"SELECT {', '.join(f'g.{c.strip()}' for c in _GAME_COLUMNS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks})"
        )
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetch(sql + " ORDER BY g.id", params)
        return [_game(r) for r in rows]

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings; a server that never set any gets all ``None`` (the defaults)."""
        rows = await self._fetch(
            "SELECT remind_hours, timer_hours, channel_id, opener_role_id FROM guilds WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return GuildSettings(guild_id)
        r = rows[0]
        return GuildSettings(
            guild_id,
            _hours(r[0]),
            _hours(r[1]),
            None if r[2] is None else int(r[2]),
            None if r[3] is None else int(r[3]),
        )

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        await self._write(
            "INSERT INTO guilds (guild_id, remind_hours, timer_hours, channel_id, opener_role_id)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " remind_hours = excluded.remind_hours, timer_hours = excluded.timer_hours,"
            " channel_id = excluded.channel_id, opener_role_id = excluded.opener_role_id",
            (
                settings.guild_id,
                settings.remind_hours,
                settings.timer_hours,
                settings.channel_id,
                settings.opener_role_id,
            ),
        )

    async def player_record(
        self, user_id: int, *, guild_id: int | None = None, game: str | None = None
    ) -> PlayerRecord:
        """Games played and won (finished ones), and how quickly they move (finished or running).

        Abandoned and broken games count for nothing; a move taken back counts for nothing
        (its replacement is the move that was made).
        """
        where = "s.user_id = ? AND s.bot IS NULL"  # a bot has no record of its own
        params: list[Any] = [user_id]
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params.append(guild_id)
        if game is not None:
            where += " AND g.game = ?"
            params.append(game)
        games = await self._fetch(
            "SELECT COUNT(*), COALESCE(SUM(s.rank = 1), 0) FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE {where} AND g.status = 'finished'",
            params,
        )
        moves = await self._fetch(
            "SELECT COUNT(a.waited) FILTER (WHERE a.how = 'player'),"
            " AVG(a.waited) FILTER (WHERE a.how = 'player'),"
            " COUNT(*) FILTER (WHERE a.how = 'timeout')"
            " FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat"
            f" JOIN games g ON g.id = a.game_id WHERE {where} AND g.status IN ('active', 'finished')"
            " AND a.undone = 0",
            params,
        )
        played, won = (int(v) for v in games[0])
        answered, waited, timeouts = moves[0]
        return PlayerRecord(
            played, won, int(answered), None if waited is None else float(waited), int(timeouts)
        )

    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10) -> list[BoardRow]:
        """A server's best players at one game: most wins, then the best share of wins, then the
        most games; abandoned games do not count, and bots are not players here (their seats
        count for the people they played against, not on the board).  Each named as in their
        newest game here."""
        rows = await self._fetch(
            "SELECT s.user_id, COUNT(*) AS played, COALESCE(SUM(s.rank = 1), 0) AS won,"
            " (SELECT s2.name FROM seats s2 JOIN games g2 ON g2.id = s2.game_id"
            "  WHERE s2.user_id = s.user_id AND g2.guild_id = ? ORDER BY g2.id DESC LIMIT 1)"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.guild_id = ? AND g.game = ? AND g.status = 'finished' AND s.bot IS NULL"
            " GROUP BY s.user_id ORDER BY won DESC, CAST(won AS REAL) / played DESC, played DESC, s.user_id"
            " LIMIT ?",
            (guild_id, guild_id, game, limit),
        )
        return [BoardRow(int(r[0]), str(r[3] or r[0]), int(r[1]), int(r[2])) for r in rows]
