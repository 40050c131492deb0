"""The rating leaderboard's read and the seasons' write, on both backends: people only, best
conservative rating first in SQL, newcomers apart, each season its own board."""

from __future__ import annotations

from pathlib import Path

from bot.services.seasons import placed
from bot.storage import Store
from bot.storage.ratings import BoardEntry, Rating, StoredRating

GUILD, OTHER = 9, 10


def rating(
    guild: int, player: str, mu: float, sigma: float, games: int, *, season: int = 1, game: str = "toy"
) -> StoredRating:
    return StoredRating(guild, game, season, player, Rating(mu, sigma, games, games // 2), 100.0)


ROWS = [
    rating(GUILD, "u:3", 20.0, 1.0, 3),  # ordinal 17
    rating(GUILD, "u:2", 30.0, 2.0, 4),  # ordinal 24, tied with u:1
    rating(GUILD, "u:1", 27.0, 1.0, 5),  # ordinal 24
    rating(GUILD, "u:4", 40.0, 1.0, 2),  # ordinal 37, but two rated games only
    rating(GUILD, "u:8", 10.0, 3.0, 1),  # ordinal 1, a newcomer
    rating(GUILD, "b:easy", 50.0, 1.0, 30),  # a bot: rated, never listed
    rating(GUILD, "u:5", 45.0, 1.0, 6, season=2),
    rating(GUILD, "u:6", 45.0, 1.0, 6, game="california"),
    rating(OTHER, "u:7", 45.0, 1.0, 6),
]


async def test_the_board_is_ordered_by_ordinal_people_only_newcomers_apart(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        await store.ratings.replace_all([], ROWS)
        board = await store.ratings.list_leaderboard(GUILD, "toy", 1, limit=10, min_games=3)
        # Equal ordinals come in key order (u:1 before u:2), so the order never flickers.
        assert [e.user_id for e in board] == [1, 2, 3]
        assert board[0].rating == Rating(27.0, 1.0, 5, 2)
        assert board[0].name == "1", "no seat to name them: the account number"
        newcomers = await store.ratings.list_leaderboard(
            GUILD, "toy", 1, limit=10, min_games=3, established=False
        )
        assert [e.user_id for e in newcomers] == [4, 8]
        top = await store.ratings.list_leaderboard(GUILD, "toy", 1, limit=2, min_games=3)
        assert [e.user_id for e in top] == [1, 2]
        assert [
            e.user_id for e in await store.ratings.list_leaderboard(GUILD, "toy", 2, limit=10, min_games=3)
        ] == [5]
        assert [
            e.user_id for e in await store.ratings.list_leaderboard(OTHER, "toy", 1, limit=10, min_games=3)
        ] == [7]
    finally:
        await store.close()


async def test_a_new_season_starts_empty_and_the_past_one_stays(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        await store.ratings.replace_all([], [r for r in ROWS if r.season == 1])
        before = await store.ratings.list_leaderboard(GUILD, "toy", 1, limit=10, min_games=3)
        assert await store.ratings.start_season(GUILD) == 2
        assert await store.ratings.fetch_season(GUILD) == 2
        assert await store.ratings.fetch_season(OTHER) == 1, "another server's season is its own"
        assert await store.ratings.list_leaderboard(GUILD, "toy", 2, limit=10, min_games=3) == []
        assert await store.ratings.list_leaderboard(GUILD, "toy", 1, limit=10, min_games=3) == before
        assert await store.ratings.start_season(GUILD) == 3
        assert await store.ratings.fetch_season(GUILD) == 3
    finally:
        await store.close()


def test_equal_shown_ratings_share_a_place() -> None:
    entries = [
        BoardEntry(1, "ana", Rating(27.0, 1.0, 5, 2)),
        BoardEntry(2, "bob", Rating(30.0, 2.0, 4, 2)),
        BoardEntry(3, "cy", Rating(20.0, 1.0, 3, 1)),
    ]
    lines = placed(entries)
    assert [(line.place, line.name) for line in lines] == [(1, "ana"), (1, "bob"), (3, "cy")]
    assert lines[0].rating > lines[2].rating
