"""``/game stats`` and ``/game leaderboard``: games played and won, and how quickly players move.

Figures come from the database (:meth:`bot.storage.players.PlayerStore.fetch_record`, ``leaderboard``): a game
counts once it is finished (abandoned and broken games never do), a win is first place
(``seats.rank`` = 1), and the time to move is the average of ``actions.waited`` over the moves a
player made themselves.  Places are written when a game ends; a finished game without them (it
ended before places were stored, or the write failed) is filled in here, from its snapshot,
before any figure is read, so every finished game counts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from fractions import Fraction

from bot.services.sessions import Refusal, SessionService, places
from bot.storage import BoardRow, GameStatus, PlayerRecord, StoreError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Placed:
    """A leaderboard line with its place; players equal in wins and share of wins share a place."""

    place: int
    row: BoardRow


class StatsService:
    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.store = sessions.store

    async def fill_places(self, guild_id: int | None) -> int:
        """Write the places of finished games that have none yet; returns how many games."""
        filled = 0
        for game_id in await self.store.games.list_unranked_games(guild_id):
            try:
                game = await self.sessions.load(game_id)
            except (Refusal, StoreError) as exc:
                log.warning("game %s: no places for stats (%s)", game_id, exc)
                continue
            outcome = (
                game.outcome() if game.state is not None and game.status == GameStatus.FINISHED else None
            )
            if outcome is not None:
                await self.store.games.set_ranks(game_id, places(outcome))
                filled += 1
            self.sessions.forget(game_id)  # read once for this; keep the cache for live games
        return filled

    async def record(self, user_id: int, *, guild_id: int | None, game: str | None) -> PlayerRecord:
        await self.fill_places(guild_id)
        return await self.store.players.fetch_record(user_id, guild_id=guild_id, game=game)

    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10) -> list[Placed]:
        await self.fill_places(guild_id)
        rows = await self.store.players.fetch_leaderboard(guild_id, game, limit=limit)
        return rank_rows(rows)


def rank_rows(rows: list[BoardRow]) -> list[Placed]:
    """Competition places (1, 1, 3) over rows already sorted by wins, then share of wins."""
    placed: list[Placed] = []
    for index, row in enumerate(rows):
        key = (row.won, Fraction(row.won, row.played) if row.played else Fraction(0))
        if placed:
            last = placed[-1].row
            last_key = (last.won, Fraction(last.won, last.played) if last.played else Fraction(0))
            if key == last_key:
                placed.append(Placed(placed[-1].place, row))
                continue
        placed.append(Placed(index + 1, row))
    return placed
