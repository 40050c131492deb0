"""``/game leaderboard`` by rating and a server's seasons (issue 28).

The board ranks a season's people (bots are rated, never listed) by openskill's ordinal, the
conservative rating a newcomer's uncertainty keeps low, read in that order from the database
(:meth:`bot.storage.ratings.RatingStore.list_leaderboard`) so a server of 100,000 rated players
is not sorted here.  People with fewer than :data:`MIN_GAMES` rated games are listed apart: a
lucky first game would otherwise top the board.  Equal displayed ratings share a place (1, 1, 3).

A new season starts every rating fresh; past seasons keep their rows and stay readable.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.ratings import shown
from bot.services.sessions import Refusal
from bot.storage.ratings import BoardEntry
from bot.storage.store import Store

MIN_GAMES = 3
"""Rated games before a person is ranked with the others (issue 28)."""

LIMIT = 10
"""Lines of each part of a board: it must fit one message on a phone."""


@dataclass(frozen=True, slots=True)
class BoardLine:
    place: int
    user_id: int
    name: str
    rating: int
    """On the displayed scale (:func:`bot.services.ratings.shown`)."""
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class Board:
    season: int
    current: int
    """The server's current season (``season`` is a past one when smaller)."""
    ranked: list[BoardLine]
    newcomers: list[BoardLine]
    """Fewer than :data:`MIN_GAMES` rated games; placed among themselves."""


def placed(entries: list[BoardEntry]) -> list[BoardLine]:
    """Competition places over entries already in rating order: an equal shown rating shares the
    place above (1, 1, 3)."""
    lines: list[BoardLine] = []
    for index, entry in enumerate(entries):
        value = shown(entry.rating)
        place = lines[-1].place if lines and lines[-1].rating == value else index + 1
        lines.append(
            BoardLine(place, entry.user_id, entry.name, value, entry.rating.games, entry.rating.wins)
        )
    return lines


class SeasonService:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def current(self, guild_id: int) -> int:
        return await self.store.ratings.fetch_season(guild_id)

    async def board(self, guild_id: int, game: str, season: int | None = None) -> Board:
        """A season's board (default: the current one); a season not yet started, or below 1,
        is refused."""
        current = await self.store.ratings.fetch_season(guild_id)
        chosen = current if season is None else season
        if not 1 <= chosen <= current:
            raise Refusal("host.season.unknown", season=chosen, current=current)
        ratings = self.store.ratings
        ranked = await ratings.list_leaderboard(guild_id, game, chosen, limit=LIMIT, min_games=MIN_GAMES)
        newcomers = await ratings.list_leaderboard(
            guild_id, game, chosen, limit=LIMIT, min_games=MIN_GAMES, established=False
        )
        return Board(chosen, current, placed(ranked), placed(newcomers))

    async def start(self, guild_id: int) -> int:
        """Start the server's next season (the caller checked the member may); returns it."""
        return await self.store.ratings.start_season(guild_id)
