"""Players: their preferences (how they are told, when they are away), their record and the
servers' leaderboards."""

from __future__ import annotations

from typing import Any

from bot.storage.codes import GameStatus, How
from bot.storage.rows import PlayerRecord, PlayerRow
from bot.storage.sql import STARTED, Part


class PlayerStore(Part):
    """``players``, and the figures read from ``seats`` and ``actions`` about one player."""

    async def fetch_player(self, user_id: int) -> PlayerRow:
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

    async def fetch_away_players(self, now: float) -> dict[int, float]:
        """Players away at ``now``, and until when (few: read once at start)."""
        rows = await self._fetch("SELECT user_id, away_until FROM players WHERE away_until > ?", (now,))
        return {int(r[0]): float(r[1]) for r in rows}

    async def fetch_record(
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
            f" JOIN games g ON g.id = a.game_id WHERE {where} AND g.status IN {STARTED}"
            " AND a.undone = 0"
            " UNION ALL SELECT s.moves, s.waited_total, s.timeouts FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE {where} AND g.status = '{GameStatus.FINISHED}' AND s.moves IS NOT NULL) AS figures",
            [*params, *params],
        )
        played, won = (int(v) for v in games[0])
        answered, total, timeouts = moves[0]
        waited = float(total) / int(answered) if total is not None and int(answered) else None
        return PlayerRecord(played, won, int(answered), waited, int(timeouts))
