"""Reaching tables on Discord: parked tables, what their players were told, the sweep's back-off,
archived threads.

A parked table (``reach.parked``) is one Discord will not let us reach.  It keeps its waits' rows
(who is waited on, since when) but not their deadlines: the transaction that parks it sets them
aside in ``reach.paused``, so the scheduler's partial indexes never meet them, and the one that
unparks it gives them back moved on by the time it was parked (nobody is reminded or timed out
over a table they could not see).  Nothing else needs a check: the sweep's and the bots' queries
leave parked tables out (:data:`bot.storage.sql.NOT_PARKED`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.storage.codes import MessageKind
from bot.storage.rows import ReachRow
from bot.storage.sql import ENDED, Part

_REACH_COLUMNS = "game_id, parked, parked_at, told, failures, retry_at, archived_at"


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


class ReachStore(Part):
    """``reach``: one row per table that was ever hard to reach (or archived)."""

    async def fetch_reach(self, game_id: int) -> ReachRow:
        """What is known about reaching a table (a table never in trouble has the defaults)."""
        rows = await self._fetch(f"SELECT {_REACH_COLUMNS} FROM reach WHERE game_id = ?", (game_id,))
        return _reach(rows[0]) if rows else ReachRow(game_id)

    async def fetch_parked(self, game_ids: Iterable[int]) -> dict[int, ReachRow]:
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

    async def list_backing_off(self, now: float) -> set[int]:
        """Tables the sweep leaves alone until later (their reposts kept failing)."""
        rows = await self._fetch("SELECT game_id FROM reach WHERE retry_at > ?", (now,))
        return {int(r[0]) for r in rows}

    async def list_threads_to_archive(
        self, *, ended_since: float, ended_before: float, guild_id: int | None = None, limit: int = 100
    ) -> list[tuple[int, int]]:
        """``(game, thread)`` of tables (of one server, or of this process's) that ended between
        ``ended_since`` and ``ended_before``, whose closing message is out and whose thread is
        not archived yet, the oldest first."""
        server = "g.guild_id = ?" if guild_id is not None else self._mine("g.guild_id")
        rows = await self._fetch(
            f"SELECT g.id, g.thread_id FROM games g WHERE g.status IN {ENDED}"
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
