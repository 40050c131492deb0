"""Every query the host makes, and the plain rows they return.

Every accepted action is written together with the new snapshot and version
in one transaction, so what a player has been shown is always on disk, and
the log alone (with the seed) can rebuild any game.  The SQL is the part SQLite
and PostgreSQL share; a backend (:mod:`bot.storage.base`) only runs it.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from bot.core.shards import Shards
from bot.core.urls import is_postgres_url
from bot.storage.base import (
    CommitUnknown,
    Connection,
    Database,
    Row,
    StoreError,
    Unconfirmed,
    VersionConflict,
)
from bot.storage.codes import (
    ENDED_STATUSES,
    OPEN_STATUSES,
    STARTED_STATUSES,
    GameStatus,
    How,
    MessageKind,
    sql_list,
)
from bot.storage.limits import GuildLimits, OpenCounts
from bot.storage.rows import (
    UNDONE,
    UNDONE_WITH,
    BoardRow,
    GameRow,
    GuildSettings,
    LogEntry,
    MessageRow,
    PlayerRecord,
    PlayerRow,
    ReachRow,
    SeatRow,
    TableClocks,
    UndoRequest,
    WaitChanges,
    WaitContext,
    WaitPlanner,
    WaitRow,
)
from rules.core import Action

log = logging.getLogger(__name__)


_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, game, options, seed, status, version, snapshot, host_id, "
    "language, reason, created_at, updated_at, public_version, public_at, pruned_at"
)
_OPEN = sql_list(OPEN_STATUSES)
_ENDED = sql_list(ENDED_STATUSES)
_STARTED = sql_list(STARTED_STATUSES)
"""The status groups as SQL ``IN`` lists, written into the query text as before (not bound), so
each query keeps its one plan."""


def _game(row: Sequence[Any]) -> GameRow:
    values = list(row)
    values[5] = json.loads(values[5])
    return GameRow(*values)


def _message(row: Sequence[Any]) -> MessageRow:
    pinged = None if row[5] is None else frozenset(int(s) for s in json.loads(row[5]))
    return MessageRow(
        int(row[0]), int(row[1]), str(row[2]), int(row[3]), None if row[4] is None else int(row[4]), pinged
    )


# -- waits and deadlines: plain data ---------------------------------------------------------------


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


_REACH_COLUMNS = "game_id, parked, parked_at, told, failures, retry_at, archived_at"


_NOT_PARKED = "NOT EXISTS (SELECT 1 FROM reach r WHERE r.game_id = g.id AND r.parked IS NOT NULL)"
"""A condition on a game ``g``: it is not parked (the sweep, the bots and the archiver pass parked tables by)."""


def _reach(row: Sequence[Any]) -> ReachRow:
    return ReachRow(
        int(row[0]),
        None if row[1] is None else str(row[1]),
        None if row[2] is None else float(row[2]),
        None if row[3] is None else str(row[3]),
        int(row[4]),
        None if row[5] is None else float(row[5]),
        None if row[6] is None else float(row[6]),
    )


def _hours(value: Any) -> int | None:
    return None if value is None else int(value)


# -- undo, tables of a player, settings, stats: plain data ----------------------------------------


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
    """The only code that speaks SQL, over one backend (:class:`bot.storage.base.Database`)."""

    def __init__(self, db: Database, shards: Shards | None = None) -> None:
        self._db = db
        self.dialect = db.dialect
        self.name = db.name
        """What messages call the database: a file's path, or a server's URL without its password."""
        self.shards = shards
        """The servers whose background work this process does (``None``: all).  Only the
        queries that look for work are limited by it (games to resume, bots to move, deadlines
        due); a game asked for by id is always found, whichever process asks."""

    def _mine(self, guild_column: str) -> str:
        return "1 = 1" if self.shards is None else self.shards.sql(guild_column)

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

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self._db.transaction()

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._db.transaction() as db:
            return await db.execute(sql, params)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._db.fetch(sql, params)

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
            created = await db.fetch(
                "INSERT INTO games (guild_id, channel_id, game, options, host_id, language, created_at,"
                " updated_at, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
            game_id = int(created[0][0])
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

    async def count_games(self, statuses: Sequence[str]) -> dict[str, int]:
        """How many games are in each of ``statuses`` (every one named, zero included)."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetch(
            f"SELECT status, COUNT(*) FROM games WHERE status IN ({marks}) GROUP BY status", statuses
        )
        found = {str(r[0]): int(r[1]) for r in rows}
        return {status: found.get(status, 0) for status in statuses}

    async def rematch(self, game_id: int) -> GameRow | None:
        """The newest table opened as a rematch of ``game_id`` that is still open or running."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE rematch_of = ? AND status IN {_OPEN}"
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

    async def move_table(self, game_id: int, channel_id: int, thread_id: int | None) -> None:
        """Show a table somewhere else from now on (a parked table brought back by ``/game show``)."""
        await self._write(
            "UPDATE games SET channel_id = ?, thread_id = ? WHERE id = ?", (channel_id, thread_id, game_id)
        )

    async def set_status(self, game_id: int, status: str, *, reason: str | None, now: float) -> None:
        """A game that ends here (abandoned, broken) stops waiting on anyone in the same transaction."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET status = ?, reason = ?, updated_at = ?, ended_at = ? WHERE id = ?",
                (status, reason, now, now if status in ENDED_STATUSES else None, game_id),
            )
            if status not in OPEN_STATUSES:
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
            changed = await db.execute(
                f"UPDATE games SET status = '{GameStatus.ACTIVE}', seed = ?, snapshot = ?, version = 0,"
                " public_version = 0, updated_at = ?, public_at = ?"
                f" WHERE id = ? AND status = '{GameStatus.LOBBY}'",
                (seed, snapshot, now, now, game_id),
            )
            if changed != 1:
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
        how: str = How.PLAYER,
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
        logged = json.dumps(action.to_json())
        try:
            await self._record(
                game_id,
                expected_version,
                seat,
                user_id,
                logged,
                snapshot,
                status,
                public_version,
                now,
                how,
                waits,
            )
        except CommitUnknown as exc:
            return await self._settle_move(game_id, new_version, seat, logged, now, exc)
        return new_version

    async def _settle_move(
        self, game_id: int, version: int, seat: int, logged: str, now: float, failure: CommitUnknown
    ) -> int:
        """After a COMMIT that failed without saying whether it landed: the database decides.

        A fresh read (a new connection) looks for this very log row (same seat, action and
        moment).  There: the move is saved, ``version`` is returned as after any commit.  Not
        there: a small write must then succeed, because WAL frames a failed fsync left behind
        could come back at the next start until a later commit writes over them; only then is it
        "nothing was saved" (``StoreError``).  Neither read nor write possible: ``Unconfirmed``.
        """
        try:
            rows = await self._db.fetch_fresh(
                "SELECT seat, action, at FROM actions WHERE game_id = ? AND version = ?", (game_id, version)
            )
        except StoreError as exc:
            raise Unconfirmed(f"{failure}; reading it back failed too: {exc}") from failure
        if rows and (int(rows[0][0]), str(rows[0][1]), float(rows[0][2])) == (seat, logged, now):
            log.warning(
                "game %s: version %s was saved although its commit reported: %s", game_id, version, failure
            )
            return version
        try:
            await self._write(
                "INSERT INTO meta (key, value) VALUES ('settled', ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"{game_id}:{version}",),
            )
        except StoreError as exc:
            raise Unconfirmed(
                f"{failure}; not in the database, but it cannot be written to settle it: {exc}"
            ) from failure
        raise StoreError(
            f"{failure} (read back: version {version} of game {game_id} is not there)"
        ) from failure

    async def _record(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        user_id: int | None,
        logged: str,
        snapshot: str,
        status: str,
        public_version: int,
        now: float,
        how: str,
        waits: WaitPlanner | None,
    ) -> None:
        """:meth:`record_action`'s transaction."""
        new_version = expected_version + 1
        async with self._transaction() as db:
            # public_at moves only with the public version (the right-hand side reads the old row).
            changed = await db.execute(
                "UPDATE games SET version = ?, snapshot = ?, status = ?, public_version = ?, updated_at = ?,"
                " public_at = CASE WHEN public_version = ? THEN public_at ELSE ? END, ended_at = ?"
                f" WHERE id = ? AND version = ? AND status = '{GameStatus.ACTIVE}'",
                (
                    new_version,
                    snapshot,
                    status,
                    public_version,
                    now,
                    public_version,
                    now,
                    now if status in ENDED_STATUSES else None,
                    game_id,
                    expected_version,
                ),
            )
            if changed != 1:
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
                (game_id, new_version, seat, user_id, logged, now, how, waited),
            )
            if changes is not None:
                await self._apply_waits(db, game_id, changes)

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

    async def _wait_context(self, db: Connection, game_id: int, now: float) -> WaitContext:
        """Inside a transaction: the game's clocks, its away players and its current waits."""
        clocks = await db.fetch(
            "SELECT g.remind_hours, g.timer_hours, s.remind_hours, s.timer_hours FROM games g"
            " LEFT JOIN guilds s ON s.guild_id = g.guild_id WHERE g.id = ?",
            (game_id,),
        )
        found = await db.fetch(
            "SELECT st.seat, p.away_until FROM seats st JOIN players p ON p.user_id = st.user_id"
            " WHERE st.game_id = ? AND p.away_until > ?",
            (game_id, now),
        )
        away = {int(r[0]): float(r[1]) for r in found}
        rows = await db.fetch(f"SELECT {_WAIT_COLUMNS} FROM waits WHERE game_id = ?", (game_id,))
        waits = {int(r[1]): _wait(r) for r in rows}
        values = tuple(clocks[0]) if clocks else (None, None, None, None)
        return WaitContext(
            _hours(values[0]), _hours(values[1]), _hours(values[2]), _hours(values[3]), away, waits
        )

    @staticmethod
    async def _apply_waits(db: Connection, game_id: int, changes: WaitChanges) -> None:
        """Write ``changes`` inside the caller's transaction; a seat they do not name loses its row."""
        named = set(changes.restart) | set(changes.keep) | set(changes.redue) | set(changes.due_now)
        if named:
            marks = ", ".join("?" for _ in named)
            await db.execute(
                f"DELETE FROM waits WHERE game_id = ? AND seat NOT IN ({marks})", (game_id, *sorted(named))
            )
        else:  # PostgreSQL has no empty ``IN ()``
            await db.execute("DELETE FROM waits WHERE game_id = ?", (game_id,))
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
        """The earliest reminder or timeout of all games (of this process's servers): unsharded,
        one query, two index lookups, no scan; sharded, each index walked in due order until a
        deadline of one of this process's servers comes up."""
        if self.shards is None or self.shards.everything:
            rows = await self._fetch(NEXT_DUE_SQL)
        else:
            mine = self._mine("g.guild_id")
            rows = await self._fetch(
                " SELECT"
                + ", ".join(
                    f" (SELECT w.{due} FROM waits w JOIN games g ON g.id = w.game_id"
                    f" WHERE w.{due} IS NOT NULL AND {mine} ORDER BY w.{due} LIMIT 1)"
                    for due in ("remind_due", "timeout_due")
                )
            )
        # Each half is NULL when its index is empty (SQLite's two-argument MIN would then be NULL too).
        found = [float(v) for v in rows[0] if v is not None]
        return min(found) if found else None

    async def due_waits(self, now: float, limit: int) -> list[WaitRow]:
        """Waits with a reminder or a timeout due at ``now``, the earliest first (a range on each index)."""
        rows = await self._fetch(
            f"SELECT {_WAIT_COLUMNS} FROM ("
            f" SELECT {_WAIT_COLUMNS} FROM waits WHERE remind_due <= ?"
            f" UNION SELECT {_WAIT_COLUMNS} FROM waits WHERE timeout_due <= ?) AS due"
            f" WHERE {self._mine('(SELECT g.guild_id FROM games g WHERE g.id = due.game_id)')}"
            f" ORDER BY {self.dialect.least}(COALESCE(remind_due, 1e308), COALESCE(timeout_due, 1e308)),"
            " game_id, seat"
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

    async def _claim(
        self, column: str, sets: str, values: Sequence[Any], key: tuple[int, int, float]
    ) -> bool:
        """``UPDATE waits SET <sets>`` on one wait whose ``column`` is still ``key``'s due time.

        The row is taken ``FOR UPDATE SKIP LOCKED`` on PostgreSQL: when another process is
        claiming the same deadline right now, this one moves on at once instead of queueing
        behind it only to find the deadline gone.  (SQLite's write lock covers the file.)
        """
        async with self._transaction() as db:
            changed = await db.execute(
                f"UPDATE waits SET {sets} WHERE (game_id, seat) IN (SELECT game_id, seat FROM waits"
                f" WHERE game_id = ? AND seat = ? AND {column} = ?{self.dialect.skip_locked})",
                (*values, *key),
            )
            return changed == 1

    async def claim_reminder(self, game_id: int, seat: int, due: float, next_due: float | None) -> bool:
        """Count one reminder as sent, before it is sent: ``True`` for the one caller that got it.

        Conditional on the deadline still being ``due``: a move (which restarts the wait) or
        another tick that claimed it first makes this a no-op.
        """
        return await self._claim(
            "remind_due", "reminders = reminders + 1, remind_due = ?", (next_due,), (game_id, seat, due)
        )

    async def unclaim_reminder(self, game_id: int, seat: int, sent: int, due_again: float) -> bool:
        """A claimed reminder that could not be delivered is not used up: its count comes back,
        and it is due again at ``due_again``.  A table parked meanwhile keeps its deadlines set
        aside (they come back when it is shown again); only the count is given back then."""
        changed = await self._write(
            "UPDATE waits SET reminders = reminders - 1, remind_due = CASE WHEN EXISTS (SELECT 1 FROM"
            " reach r WHERE r.game_id = waits.game_id AND r.parked IS NOT NULL) THEN remind_due ELSE ? END"
            " WHERE game_id = ? AND seat = ? AND reminders = ?",
            (due_again, game_id, seat, sent),
        )
        return changed == 1

    async def move_reminder(self, game_id: int, seat: int, due: float, new_due: float | None) -> bool:
        """Postpone (or drop, ``None``) a due reminder without counting it as sent."""
        return await self._claim("remind_due", "remind_due = ?", (new_due,), (game_id, seat, due))

    async def clear_timeout(self, game_id: int, seat: int, due: float) -> bool:
        """Drop a timeout that cannot be applied (the engine refused its default move)."""
        return await self.move_timeout(game_id, seat, due, None)

    async def move_timeout(self, game_id: int, seat: int, due: float, new_due: float | None) -> bool:
        """Postpone (or drop, ``None``) a due timeout, if it is still the one at ``due``."""
        return await self._claim("timeout_due", "timeout_due = ?", (new_due,), (game_id, seat, due))

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
            rows = await db.fetch(
                f"SELECT away_until FROM players WHERE user_id = ?{self.dialect.lock}", (user_id,)
            )
            old = float(rows[0][0]) if rows and rows[0][0] is not None else None
            shift = max(0.0, (until or now) - now) - max(0.0, (old or now) - now)
            await db.execute(
                "INSERT INTO players (user_id, away_until) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until",
                (user_id, until),
            )
            found = await db.fetch(
                "SELECT DISTINCT w.game_id FROM waits w JOIN seats s ON s.game_id = w.game_id AND s.seat = w.seat"
                f" JOIN games g ON g.id = w.game_id WHERE s.user_id = ? AND g.status = '{GameStatus.ACTIVE}' ORDER BY w.game_id",
                (user_id,),
            )
            games = [int(r[0]) for r in found]
            if shift:
                await db.execute(
                    "UPDATE waits SET remind_due = remind_due + ?, timeout_due = timeout_due + ?"
                    " WHERE (game_id, seat) IN (SELECT s.game_id, s.seat FROM seats s"
                    f" JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.status = '{GameStatus.ACTIVE}')",
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
            "INSERT INTO messages (message_id, game_id, channel_id, kind, version, live, since, pinged)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (message_id) DO UPDATE SET game_id = excluded.game_id,"
            " channel_id = excluded.channel_id, kind = excluded.kind, version = excluded.version, live = 1,"
            " since = excluded.since, pinged = excluded.pinged",
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
            f"SELECT g.id FROM games g WHERE g.status = '{GameStatus.ACTIVE}' AND {self._mine('g.guild_id')}"
            f" AND {_NOT_PARKED} AND (g.public_version != COALESCE("
            f" (SELECT m.version FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.TABLE}' AND m.live = 1"
            "  ORDER BY m.message_id DESC LIMIT 1), -1)"
            f" OR (SELECT COUNT(*) FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.TABLE}' AND m.live = 1) > 1)"
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
            f"SELECT g.id FROM games g WHERE g.status IN {_ENDED} AND g.ended_at >= ? AND g.pruned_at IS NULL"
            f" AND {self._mine('g.guild_id')} AND {_NOT_PARKED}"
            f" AND EXISTS (SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.TABLE}')"
            f" AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.FINAL}')"
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

    # -- what processes report about themselves -------------------------------------------------------

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def meta_like(self, prefix: str) -> dict[str, str]:
        """``meta`` rows whose key starts with ``prefix`` (each process's Discord figures)."""
        rows = await self._fetch(
            "SELECT key, value FROM meta WHERE key LIKE ? ORDER BY key", (prefix.replace("%", "") + "%",)
        )
        return {str(r[0]): str(r[1]) for r in rows}

    # -- reaching tables on Discord ----------------------------------------------------------------
    #
    # A parked table (``reach.parked``) is one Discord will not let us reach.  It keeps its waits'
    # rows (who is waited on, since when) but not their deadlines: the transaction that parks it
    # sets them aside in ``reach.paused``, so the scheduler's partial indexes never meet them, and
    # the one that unparks it gives them back moved on by the time it was parked (nobody is
    # reminded or timed out over a table they could not see).  Nothing else needs a check: the
    # sweep's and the bots' queries leave parked tables out.

    async def reach(self, game_id: int) -> ReachRow:
        """What is known about reaching a table (a table never in trouble has the defaults)."""
        rows = await self._fetch(f"SELECT {_REACH_COLUMNS} FROM reach WHERE game_id = ?", (game_id,))
        return _reach(rows[0]) if rows else ReachRow(game_id)

    async def reaches(self, game_ids: Iterable[int]) -> dict[int, ReachRow]:
        """The parked tables among ``game_ids`` (for ``/game mine`` and ``/game list``)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._fetch(
            f"SELECT {_REACH_COLUMNS} FROM reach WHERE parked IS NOT NULL AND game_id IN ({marks})", ids
        )
        return {int(r[0]): _reach(r) for r in rows}

    async def park(self, game_id: int, reason: str, now: float) -> bool:
        """Park a table; ``True`` when it was reachable until now.  A table parked already
        keeps its first moment but takes the newer reason (a locked thread later deleted)."""
        async with self._transaction() as db:
            rows = await db.fetch(
                f"SELECT parked FROM reach WHERE game_id = ?{self.dialect.lock}", (game_id,)
            )
            if rows and rows[0][0] is not None:
                await db.execute("UPDATE reach SET parked = ? WHERE game_id = ?", (reason, game_id))
                return False
            dues = await db.fetch(
                "SELECT seat, remind_due, timeout_due FROM waits WHERE game_id = ?"
                " AND (remind_due IS NOT NULL OR timeout_due IS NOT NULL) ORDER BY seat",
                (game_id,),
            )
            paused = json.dumps([[int(r[0]), r[1], r[2]] for r in dues])
            await db.execute(
                "INSERT INTO reach (game_id, parked, parked_at, paused) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET parked = excluded.parked,"
                " parked_at = excluded.parked_at, paused = excluded.paused",
                (game_id, reason, now, paused),
            )
            await db.execute(
                "UPDATE waits SET remind_due = NULL, timeout_due = NULL WHERE game_id = ?", (game_id,)
            )
            return True

    async def unpark(self, game_id: int, now: float) -> float | None:
        """Unpark a table (it was shown again); returns its next deadline, or ``None`` (none, or
        it was not parked).  Its deadlines come back moved on by the time it was parked; what
        its players were told is forgotten, and so is the sweep's back-off."""
        async with self._transaction() as db:
            rows = await db.fetch(
                f"SELECT parked, parked_at, paused FROM reach WHERE game_id = ?{self.dialect.lock}",
                (game_id,),
            )
            if not rows or rows[0][0] is None:
                return None
            shift = max(0.0, now - float(rows[0][1] or now))
            upcoming: list[float] = []
            for seat, remind, timeout in json.loads(rows[0][2] or "[]"):
                dues = [None if due is None else float(due) + shift for due in (remind, timeout)]
                changed = await db.execute(
                    "UPDATE waits SET remind_due = ?, timeout_due = ? WHERE game_id = ? AND seat = ?"
                    " AND remind_due IS NULL AND timeout_due IS NULL",
                    (dues[0], dues[1], game_id, int(seat)),
                )
                if changed:
                    upcoming.extend(due for due in dues if due is not None)
            await db.execute(
                "UPDATE reach SET parked = NULL, parked_at = NULL, paused = NULL, told = NULL,"
                " failures = 0, retry_at = NULL WHERE game_id = ?",
                (game_id,),
            )
            return min(upcoming, default=None)

    async def tell_once(self, game_id: int, what: str) -> bool:
        """Whether the players of a table are to be told of ``what`` now: ``True`` once per
        trouble, whichever process asks (a conditional write, like a reminder's claim)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO reach (game_id) VALUES (?) ON CONFLICT (game_id) DO NOTHING", (game_id,)
            )
            changed = await db.execute(
                "UPDATE reach SET told = ? WHERE game_id = ? AND (told IS NULL OR told <> ?)",
                (what, game_id, what),
            )
            return changed > 0

    async def post_failed(self, game_id: int, now: float, *, first: float, longest: float) -> ReachRow:
        """One more failed repost of a table: the sweep waits ``first`` seconds after the first,
        twice as long after each further one, at most ``longest`` (kept across restarts)."""
        async with self._transaction() as db:
            rows = await db.fetch(
                f"SELECT failures FROM reach WHERE game_id = ?{self.dialect.lock}", (game_id,)
            )
            failures = (int(rows[0][0]) if rows else 0) + 1
            retry_at = now + min(longest, first * 2 ** (failures - 1))
            await db.execute(
                "INSERT INTO reach (game_id, failures, retry_at) VALUES (?, ?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET failures = excluded.failures, retry_at = excluded.retry_at",
                (game_id, failures, retry_at),
            )
        return ReachRow(game_id, failures=failures, retry_at=retry_at)

    async def post_succeeded(self, game_id: int) -> None:
        await self._write(
            "UPDATE reach SET failures = 0, retry_at = NULL WHERE game_id = ? AND failures > 0", (game_id,)
        )

    async def backing_off(self, now: float) -> set[int]:
        """Tables the sweep leaves alone until later (their reposts kept failing)."""
        rows = await self._fetch("SELECT game_id FROM reach WHERE retry_at > ?", (now,))
        return {int(r[0]) for r in rows}

    async def threads_to_archive(
        self, *, ended_since: float, ended_before: float, guild_id: int | None = None, limit: int = 100
    ) -> list[tuple[int, int]]:
        """``(game, thread)`` of tables (of one server, or of this process's) that ended between
        ``ended_since`` and ``ended_before``, whose closing message is out and whose thread is
        not archived yet, the oldest first."""
        server = "g.guild_id = ?" if guild_id is not None else self._mine("g.guild_id")
        rows = await self._fetch(
            f"SELECT g.id, g.thread_id FROM games g WHERE g.status IN {_ENDED}"
            f" AND g.thread_id IS NOT NULL AND g.ended_at >= ? AND g.ended_at <= ? AND {server}"
            f" AND EXISTS (SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = '{MessageKind.FINAL}')"
            " AND NOT EXISTS (SELECT 1 FROM reach r WHERE r.game_id = g.id"
            "  AND (r.archived_at IS NOT NULL OR r.parked IS NOT NULL))"
            " ORDER BY g.ended_at LIMIT ?",
            (ended_since, ended_before, *([guild_id] if guild_id is not None else []), limit),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def mark_archived(self, game_id: int, now: float) -> None:
        await self._write(
            "INSERT INTO reach (game_id, archived_at) VALUES (?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET archived_at = excluded.archived_at",
            (game_id, now),
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
            rows = await db.fetch(
                "SELECT game_id, version, seat, accepted, asked_at FROM undo_requests"
                f" WHERE game_id = ?{self.dialect.lock}",
                (game_id,),
            )
            if rows and int(rows[0][1]) == version:
                return _undo_request(rows[0]), False
            await db.execute(
                "INSERT INTO undo_requests (game_id, version, seat, accepted, asked_at) VALUES (?, ?, ?, '[]', ?)"
                " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, seat = excluded.seat,"
                " accepted = excluded.accepted, asked_at = excluded.asked_at",
                (game_id, version, seat, now),
            )
        return UndoRequest(game_id, version, seat, frozenset(), now), True

    async def accept_undo(self, game_id: int, *, version: int, seat: int) -> UndoRequest | None:
        """Count ``seat``'s consent to the request open at ``version`` (``None``: no such request)."""
        async with self._transaction() as db:
            rows = await db.fetch(
                "SELECT game_id, version, seat, accepted, asked_at FROM undo_requests"
                f" WHERE game_id = ? AND version = ?{self.dialect.lock}",
                (game_id, version),
            )
            if not rows:
                return None
            request = _undo_request(rows[0])
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
            return await db.execute(sql, params) > 0

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
            changed = await db.execute(
                "UPDATE games SET version = ?, snapshot = ?, public_version = ?, updated_at = ?, public_at = ?"
                f" WHERE id = ? AND version = ? AND status = '{GameStatus.ACTIVE}'",
                (new_version, snapshot, public_version, now, now, game_id, expected_version),
            )
            if changed != 1:
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
            f" WHERE g.status = '{GameStatus.ACTIVE}' AND s.bot IS NOT NULL AND {self._mine('g.guild_id')}"
            f" AND {_NOT_PARKED} ORDER BY g.id",
            (),
        )
        return [int(r[0]) for r in rows]

    async def unranked_games(self, guild_id: int | None) -> list[int]:
        """Finished games (of one server, or all) with a seat whose place was never written."""
        sql = (
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE g.status = '{GameStatus.FINISHED}' AND s.rank IS NULL"
        )
        params: list[Any] = []
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetch(sql + " ORDER BY g.id", params)
        return [int(r[0]) for r in rows]

    async def tables_of(
        self, user_id: int, *, guild_id: int | None = None, statuses: Sequence[str] = OPEN_STATUSES
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

    async def guild_limits(self, guild_id: int) -> GuildLimits:
        """A server's limits on opening tables; ``None`` for each it never set (the defaults)."""
        rows = await self._fetch(
            "SELECT lobbies_per_user, tables_per_user, cooldown_seconds, tables_per_server"
            " FROM guilds WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return GuildLimits(guild_id)
        values = [None if v is None else int(v) for v in rows[0]]
        return GuildLimits(guild_id, *values)

    async def set_guild_limits(self, limits: GuildLimits) -> None:
        """Store a server's limits, leaving its other settings as they are."""
        await self._write(
            "INSERT INTO guilds (guild_id, lobbies_per_user, tables_per_user, cooldown_seconds,"
            " tables_per_server) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " lobbies_per_user = excluded.lobbies_per_user, tables_per_user = excluded.tables_per_user,"
            " cooldown_seconds = excluded.cooldown_seconds, tables_per_server = excluded.tables_per_server",
            (
                limits.guild_id,
                limits.lobbies_per_user,
                limits.tables_per_user,
                limits.cooldown_seconds,
                limits.tables_per_server,
            ),
        )

    async def open_counts(self, guild_id: int, user_id: int, recent: int = 1) -> OpenCounts:
        """What ``user_id`` hosts open in ``guild_id`` (lobbies; lobbies and running tables), the
        server's open tables, and when the member opened their ``recent`` newest tables there
        (read by the ``games_by_host`` and ``games_by_guild`` indexes)."""
        rows = await self._fetch(
            "SELECT"
            f" (SELECT COUNT(*) FROM games WHERE guild_id = ? AND host_id = ? AND status = '{GameStatus.LOBBY}'),"
            f" (SELECT COUNT(*) FROM games WHERE guild_id = ? AND host_id = ? AND status IN {_OPEN}),"
            f" (SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN {_OPEN})",
            (guild_id, user_id, guild_id, user_id, guild_id),
        )
        times = await self._fetch(
            "SELECT created_at FROM games WHERE guild_id = ? AND host_id = ? ORDER BY created_at DESC LIMIT ?",
            (guild_id, user_id, recent),
        )
        r = rows[0]
        return OpenCounts(int(r[0]), int(r[1]), int(r[2]), tuple(float(t[0]) for t in times))

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
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN s.rank = 1 THEN 1 ELSE 0 END), 0) FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE {where} AND g.status = '{GameStatus.FINISHED}'",
            params,
        )
        # A pruned game's log is gone; its seats keep the same three figures (migration 9).
        moves = await self._fetch(
            "SELECT COALESCE(SUM(n), 0), SUM(total), COALESCE(SUM(t), 0) FROM ("
            f" SELECT COUNT(a.waited) FILTER (WHERE a.how = '{How.PLAYER}') AS n,"
            f" SUM(a.waited) FILTER (WHERE a.how = '{How.PLAYER}') AS total,"
            f" COUNT(*) FILTER (WHERE a.how = '{How.TIMEOUT}') AS t"
            " FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat"
            f" JOIN games g ON g.id = a.game_id WHERE {where} AND g.status IN {_STARTED}"
            " AND a.undone = 0"
            " UNION ALL SELECT s.moves, s.waited_total, s.timeouts FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE {where} AND g.status = '{GameStatus.FINISHED}' AND s.moves IS NOT NULL) AS figures",
            [*params, *params],
        )
        played, won = (int(v) for v in games[0])
        answered, total, timeouts = moves[0]
        waited = float(total) / int(answered) if total is not None and int(answered) else None
        return PlayerRecord(played, won, int(answered), waited, int(timeouts))

    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10) -> list[BoardRow]:
        """A server's best players at one game: most wins, then the best share of wins, then the
        most games; abandoned games do not count, and bots are not players here (their seats
        count for the people they played against, not on the board).  Each named as in their
        newest game here."""
        rows = await self._fetch(
            # The tally is a subquery because PostgreSQL sorts by an alias only when it stands alone.
            "SELECT user_id, played, won, name FROM ("
            " SELECT s.user_id, COUNT(*) AS played, SUM(CASE WHEN s.rank = 1 THEN 1 ELSE 0 END) AS won,"
            " (SELECT s2.name FROM seats s2 JOIN games g2 ON g2.id = s2.game_id"
            "  WHERE s2.user_id = s.user_id AND g2.guild_id = ? ORDER BY g2.id DESC LIMIT 1) AS name"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE g.guild_id = ? AND g.game = ? AND g.status = '{GameStatus.FINISHED}' AND s.bot IS NULL"
            " GROUP BY s.user_id) AS board"
            " ORDER BY won DESC, CAST(won AS DOUBLE PRECISION) / played DESC, played DESC, user_id LIMIT ?",
            (guild_id, guild_id, game, limit),
        )
        return [BoardRow(int(r[0]), str(r[3] or r[0]), int(r[1]), int(r[2])) for r in rows]

    # -- pruning (issue 25) ----------------------------------------------------------------------
    #
    # A finished or abandoned game's log, snapshot and retired messages are most of the file and
    # are read again only to show or replay that game.  ``python -m bot prune`` writes each old
    # one to a file (``bot.services.export``) and then removes them here; what stats, leaderboards and
    # ``/game mine`` read stays: the game row, its seats with their places, and per seat the
    # log's three figures for ``player_record``.  Live messages stay too (the closing message
    # tells the sweeps the table was closed).

    async def prunable(self, *, ended_before: float, limit: int) -> list[int]:
        """Games that ended (finished or abandoned) before ``ended_before`` and still hold their
        log, the oldest first (``games_by_end``)."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE ended_at IS NOT NULL AND ended_at < ? AND pruned_at IS NULL"
            f" AND status IN {_ENDED} ORDER BY ended_at, id LIMIT ?",
            (ended_before, limit),
        )
        return [int(r[0]) for r in rows]

    async def prune_game(self, game_id: int, *, now: float) -> bool:
        """Remove an ended game's log, snapshot, retired messages and undo request, keeping its
        seats' move figures; ``False`` (nothing changed) unless it is ended and not yet pruned."""
        async with self._transaction() as db:
            found = await db.fetch(
                f"SELECT status, pruned_at FROM games WHERE id = ?{self.dialect.lock}", (game_id,)
            )
            if not found or found[0][0] not in ENDED_STATUSES or found[0][1] is not None:
                return False
            await db.execute(
                "UPDATE seats SET"
                " moves = (SELECT COUNT(a.waited) FROM actions a WHERE a.game_id = seats.game_id"
                f"  AND a.seat = seats.seat AND a.how = '{How.PLAYER}' AND a.undone = 0),"
                " waited_total = (SELECT SUM(a.waited) FROM actions a WHERE a.game_id = seats.game_id"
                f"  AND a.seat = seats.seat AND a.how = '{How.PLAYER}' AND a.undone = 0),"
                " timeouts = (SELECT COUNT(*) FROM actions a WHERE a.game_id = seats.game_id"
                f"  AND a.seat = seats.seat AND a.how = '{How.TIMEOUT}' AND a.undone = 0)"
                " WHERE game_id = ?",
                (game_id,),
            )
            await db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            await db.execute("DELETE FROM messages WHERE game_id = ? AND live = 0", (game_id,))
            await db.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
            await db.execute("UPDATE games SET snapshot = NULL, pruned_at = ? WHERE id = ?", (now, game_id))
        return True

    async def reclaim(self) -> None:
        """Give the space of pruned rows back to the file system (or to PostgreSQL's free space)."""
        await self._db.reclaim()
