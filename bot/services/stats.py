"""``/game stats``: games played and won, ratings, and how quickly players move.

``/game leaderboard`` ranks by rating (:mod:`bot.services.seasons`).  Figures come from the
database (:meth:`bot.storage.players.PlayerStore.fetch_record`): a game
counts once it is finished (abandoned and broken games never do), a win is first place
(``seats.rank`` = 1), and the time to move is the average of ``actions.waited`` over the moves a
player made themselves.  Places are written when a game ends; a finished game without them (it
ended before places were stored, or the write failed) is filled in here, from its snapshot,
before any figure is read, so every finished game counts.
"""

from __future__ import annotations

import logging

from bot.services.ratings import GameRating, RatingReads
from bot.services.seasons import SeasonService
from bot.services.sessions import Refusal, SessionService, places
from bot.storage import GameStatus, PlayerRecord, StoreError

log = logging.getLogger(__name__)


class StatsService:
    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self.seasons = SeasonService(self.store)
        """Rating leaderboards and seasons (:mod:`bot.services.seasons`)."""

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

    async def ratings(self, user_id: int, guild_id: int, game: str | None) -> tuple[int, list[GameRating]]:
        """The server's current season and the player's rating in it at ``game`` (every game when
        ``None``, in the registry's order), for each game they have a rated game of."""
        games = [game] if game is not None else [entry.name for entry in self.sessions.registry]
        return await RatingReads(self.sessions).player(guild_id, user_id, games)
