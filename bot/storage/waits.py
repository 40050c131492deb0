"""Waits, their reminders and timeouts, and a table's clocks.

A game's waits are written by the change that causes them (a start, a move, an undo, a status,
new clocks), in that change's transaction: the owner of the change calls :func:`wait_context`
and :func:`apply_waits` with its own connection.  The scheduler finds the next deadline with one
query on two partial indexes, and claims each due one with a conditional UPDATE, so two ticks (or
a tick and a restart) never fire the same deadline twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.base import Connection
from bot.storage.rows import TableClocks, WaitChanges, WaitContext, WaitPlanner, WaitRow
from bot.storage.sql import Part, hours

WAIT_COLUMNS = "game_id, seat, since, remind_due, reminders, timeout_due"

NEXT_DUE_SQL = (
    "SELECT (SELECT MIN(remind_due) FROM waits WHERE remind_due IS NOT NULL),"
    " (SELECT MIN(timeout_due) FROM waits WHERE timeout_due IS NOT NULL)"
)
"""The next deadline: each half is the first entry of its partial index (the benchmark shows the plan)."""

_CLOCKS = (
    "SELECT g.remind_hours, g.timer_hours, s.remind_hours, s.timer_hours FROM games g"
    " LEFT JOIN guilds s ON s.guild_id = g.guild_id WHERE g.id = ?"
)


def _wait(row: Sequence[Any]) -> WaitRow:
    return WaitRow(
        int(row[0]),
        int(row[1]),
        float(row[2]),
        None if row[3] is None else float(row[3]),
        int(row[4]),
        None if row[5] is None else float(row[5]),
    )


async def wait_context(db: Connection, game_id: int, now: float) -> WaitContext:
    """Inside a transaction: the game's clocks, its away players and its current waits."""
    clocks = await db.fetch(_CLOCKS, (game_id,))
    found = await db.fetch(
        "SELECT st.seat, p.away_until FROM seats st JOIN players p ON p.user_id = st.user_id"
        " WHERE st.game_id = ? AND p.away_until > ?",
        (game_id, now),
    )
    away = {int(r[0]): float(r[1]) for r in found}
    rows = await db.fetch(f"SELECT {WAIT_COLUMNS} FROM waits WHERE game_id = ?", (game_id,))
    waits = {int(r[1]): _wait(r) for r in rows}
    values = tuple(clocks[0]) if clocks else (None, None, None, None)
    return WaitContext(hours(values[0]), hours(values[1]), hours(values[2]), hours(values[3]), away, waits)


async def apply_waits(db: Connection, game_id: int, changes: WaitChanges) -> None:
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


async def replan_waits(db: Connection, game_id: int, now: float, waits: WaitPlanner | None) -> None:
    """Inside the caller's transaction: the game's waits as ``waits`` plans them (``None``: as they are)."""
    if waits is not None:
        await apply_waits(db, game_id, waits(await wait_context(db, game_id, now)))


async def drop_waits(db: Connection, game_id: int) -> None:
    """Inside the caller's transaction: the game waits on nobody any more."""
    await db.execute("DELETE FROM waits WHERE game_id = ?", (game_id,))


class WaitStore(Part):
    """``waits`` (who is waited on, since when, their next reminder and timeout) and the clocks
    of a table (``games.remind_hours``/``timer_hours`` over the server's)."""

    async def fetch_next_due(self) -> float | None:
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

    async def list_due_waits(self, now: float, limit: int) -> list[WaitRow]:
        """Waits with a reminder or a timeout due at ``now``, the earliest first (a range on each index)."""
        rows = await self._fetch(
            f"SELECT {WAIT_COLUMNS} FROM ("
            f" SELECT {WAIT_COLUMNS} FROM waits WHERE remind_due <= ?"
            f" UNION SELECT {WAIT_COLUMNS} FROM waits WHERE timeout_due <= ?) AS due"
            f" WHERE {self._mine('(SELECT g.guild_id FROM games g WHERE g.id = due.game_id)')}"
            f" ORDER BY {self.dialect.least}(COALESCE(remind_due, 1e308), COALESCE(timeout_due, 1e308)),"
            " game_id, seat"
            " LIMIT ?",
            (now, now, limit),
        )
        return [_wait(r) for r in rows]

    async def fetch_wait(self, game_id: int, seat: int) -> WaitRow | None:
        rows = await self._fetch(
            f"SELECT {WAIT_COLUMNS} FROM waits WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return _wait(rows[0]) if rows else None

    async def fetch_waits(self, game_id: int) -> list[WaitRow]:
        rows = await self._fetch(
            f"SELECT {WAIT_COLUMNS} FROM waits WHERE game_id = ? ORDER BY seat", (game_id,)
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
        async with self._transaction() as db:
            await drop_waits(db, game_id)

    async def fetch_table_clocks(self, game_id: int) -> TableClocks | None:
        rows = await self._fetch(_CLOCKS, (game_id,))
        if not rows:
            return None
        r = rows[0]
        return TableClocks(hours(r[0]), hours(r[1]), hours(r[2]), hours(r[3]))

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
            await replan_waits(db, game_id, now, waits)
