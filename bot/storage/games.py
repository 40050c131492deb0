"""Games and their seats: lobbies opened, started, moved, ended, ranked, and pruned.

A start writes the game's first waits and an end drops them, each in its own transaction
(:func:`bot.storage.waits.replan_waits`, :func:`~bot.storage.waits.drop_waits` on the same
connection).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.base import VersionConflict
from bot.storage.codes import ENDED_STATUSES, OPEN_STATUSES, GameStatus, How
from bot.storage.rows import GameRow, SeatRow, WaitPlanner
from bot.storage.sql import ENDED, NOT_PARKED, OPEN, Part
from bot.storage.waits import drop_waits, replan_waits

GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, game, options, seed, status, version, snapshot, host_id, "
    "language, reason, created_at, updated_at, public_version, public_at, pruned_at"
)


def game_row(row: Sequence[Any]) -> GameRow:
    values = list(row)
    values[5] = json.loads(values[5])
    values[7] = GameStatus(values[7])
    return GameRow(*values)


class GameStore(Part):
    """``games`` and ``seats``."""

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

    async def fetch_game(self, game_id: int) -> GameRow | None:
        rows = await self._fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        row = rows[0] if rows else None
        return game_row(row) if row else None

    async def list_games(
        self, *, guild_id: int | None = None, statuses: Sequence[GameStatus] = ()
    ) -> list[GameRow]:
        sql = f"SELECT {GAME_COLUMNS} FROM games"
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
        return [game_row(row) for row in rows]

    async def count_games(self, statuses: Sequence[GameStatus]) -> dict[GameStatus, int]:
        """How many games are in each of ``statuses`` (every one named, zero included)."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetch(
            f"SELECT status, COUNT(*) FROM games WHERE status IN ({marks}) GROUP BY status", statuses
        )
        found = {str(r[0]): int(r[1]) for r in rows}
        return {status: found.get(status, 0) for status in statuses}

    async def fetch_rematch(self, game_id: int) -> GameRow | None:
        """The newest table opened as a rematch of ``game_id`` that is still open or running."""
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE rematch_of = ? AND status IN {OPEN}"
            " ORDER BY id DESC LIMIT 1",
            (game_id,),
        )
        return game_row(rows[0]) if rows else None

    async def list_games_in_channel(self, channel_id: int, statuses: Sequence[GameStatus]) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE (thread_id = ? OR channel_id = ?) AND status IN ({marks})"
            " ORDER BY id",
            (channel_id, channel_id, *statuses),
        )
        return [game_row(row) for row in rows]

    async def list_tables_of(
        self, user_id: int, *, guild_id: int | None = None, statuses: Sequence[GameStatus] = OPEN_STATUSES
    ) -> list[GameRow]:
        """The tables where ``user_id`` sits (in one server, or in every one), oldest first."""
        marks = ", ".join("?" for _ in statuses)
        sql = (
            f"SELECT {', '.join(f'g.{c.strip()}' for c in GAME_COLUMNS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks})"
        )
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetch(sql + " ORDER BY g.id", params)
        return [game_row(r) for r in rows]

    async def list_games_with_bots(self) -> list[int]:
        """Running games with a bot seat: their bots are moved again after a restart."""
        rows = await self._fetch(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE g.status = '{GameStatus.ACTIVE}' AND s.bot IS NOT NULL AND {self._mine('g.guild_id')}"
            f" AND {NOT_PARKED} ORDER BY g.id",
            (),
        )
        return [int(r[0]) for r in rows]

    async def list_unranked_games(self, guild_id: int | None) -> list[int]:
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

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self._write("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def move_table(self, game_id: int, channel_id: int, thread_id: int | None) -> None:
        """Show a table somewhere else from now on (a parked table brought back by ``/game show``)."""
        await self._write(
            "UPDATE games SET channel_id = ?, thread_id = ? WHERE id = ?", (channel_id, thread_id, game_id)
        )

    async def set_status(self, game_id: int, status: GameStatus, *, reason: str | None, now: float) -> None:
        """A game that ends here (abandoned, broken) stops waiting on anyone in the same transaction."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET status = ?, reason = ?, updated_at = ?, ended_at = ? WHERE id = ?",
                (status, reason, now, now if status in ENDED_STATUSES else None, game_id),
            )
            if status not in OPEN_STATUSES:
                await drop_waits(db, game_id)

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
            await replan_waits(db, game_id, now, waits)

    # -- seats -----------------------------------------------------------------------------------

    async def fetch_seats(self, game_id: int) -> list[SeatRow]:
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

    async def set_ranks(self, game_id: int, ranks: Sequence[int]) -> None:
        """Each seat's final place (``ranks[seat]``), once the game is over.

        ``seats.rank`` is written just after the move that ends a game; a crash in between (or a
        game that ended before ranks existed) leaves NULL, filled the next time stats are read
        (:meth:`list_unranked_games`).  In a game nobody wins (Last Will, everyone still
        employed) the places count from 2, so "won" is simply rank 1 everywhere."""
        async with self._transaction() as db:
            await db.executemany(
                "UPDATE seats SET rank = ? WHERE game_id = ? AND seat = ?",
                [(rank, game_id, seat) for seat, rank in enumerate(ranks)],
            )

    # -- pruning (issue 25) ----------------------------------------------------------------------
    #
    # A finished or abandoned game's log, snapshot and retired messages are most of the file and
    # are read again only to show or replay that game.  ``python -m bot prune`` writes each old
    # one to a file (``bot.services.export``) and then removes them here; what stats, leaderboards and
    # ``/game mine`` read stays: the game row, its seats with their places, and per seat the
    # log's three figures for ``PlayerStore.fetch_record``.  Live messages stay too (the closing
    # message tells the sweeps the table was closed).

    async def list_prunable(self, *, ended_before: float, limit: int) -> list[int]:
        """Games that ended (finished or abandoned) before ``ended_before`` and still hold their
        log, the oldest first (``games_by_end``)."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE ended_at IS NOT NULL AND ended_at < ? AND pruned_at IS NULL"
            f" AND status IN {ENDED} ORDER BY ended_at, id LIMIT ?",
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
