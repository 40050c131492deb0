"""The leaderboard's order is the store's: most wins, then the best share of wins, then the most
games, then the oldest player id, whatever order the players' games were written in.

``rank_rows`` only gives places to rows already in order, so a test that sorted the rows itself
before ranking them never exercised the store's ``ORDER BY``.  Here finished games are written
through the store, players in an order that is neither the board's nor their ids', and the board
is read back as ``/game leaderboard`` reads it (:meth:`StatsService.leaderboard`), on both
backends.
"""

from __future__ import annotations

from pathlib import Path

from bot.games import REGISTRY
from bot.services.sessions import SessionService
from bot.services.stats import StatsService
from bot.storage import SeatRow, Store
from bot.storage.codes import GameStatus

T0 = 1_800_000_000.0
GUILD = 1

RECORDS = [
    # (user id, name, games played, games won), written in this order
    (1, "cy", 4, 1),
    (7, "hal", 1, 0),
    (2, "bo", 2, 1),
    (6, "gus", 3, 0),
    (4, "al", 4, 2),
    (3, "di", 2, 1),
    (5, "eve", 2, 2),
]

BOARD = [
    (1, "eve"),  # 2 wins of 2
    (2, "al"),  # 2 wins of 4
    (3, "bo"),  # 1 of 2: a half, as di; the older id first
    (3, "di"),
    (5, "cy"),  # 1 of 4
    (6, "gus"),  # no wins: the most games first, sharing the place
    (6, "hal"),
]


async def finished_game(store: Store, user_id: int, name: str, *, won: bool, now: float) -> None:
    """A finished toy game of one person against a bot (bots are not on the board)."""
    game_id = await store.games.create_game(
        game="toy",
        options={"target": 3},
        host_id=user_id,
        host_name=name,
        guild_id=GUILD,
        channel_id=2,
        language="en",
        now=now,
    )
    seats = [SeatRow(0, user_id, name), SeatRow(1, 999, "Bot", "easy")]
    await store.games.start(game_id, seats=seats, seed=1, snapshot="{}", now=now)
    await store.games.set_status(game_id, GameStatus.FINISHED, reason=None, now=now)
    await store.games.set_ranks(game_id, [1, 2] if won else [2, 1])


async def test_the_board_is_in_the_stores_order_with_shared_places(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        now = T0
        for user_id, name, played, won in RECORDS:
            for n in range(played):
                now += 60
                await finished_game(store, user_id, name, won=n < won, now=now)
        # A game of The Estates is not on the toy's board.
        await finished_game(store, 8, "zed", won=True, now=now + 60)
        await store._write("UPDATE games SET game = 'estates' WHERE host_id = 8")

        board = await StatsService(SessionService(store, REGISTRY)).leaderboard(GUILD, "toy")
        assert [(p.place, p.row.name) for p in board] == BOARD
        played_won = {user_id: (played, won) for user_id, _, played, won in RECORDS}
        assert all((p.row.played, p.row.won) == played_won[p.row.user_id] for p in board)

        top = await store.players.fetch_leaderboard(GUILD, "toy", limit=3)
        assert [row.name for row in top] == ["eve", "al", "bo"], "the limit keeps the best, in order"
    finally:
        await store.close()
