"""The rating store: a game is rated once whatever replays its end, and a rating that cannot be
written leaves the move that ended the game unsaved (one transaction), on both backends."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

import bot.storage.log
from bot.services.lobby import LobbyService
from bot.services.ratings import rate
from bot.services.sessions import LiveGame, SessionService
from bot.storage import Store, StoreError
from bot.storage.base import Connection
from bot.storage.codes import GameStatus
from bot.storage.ratings import RatedGame, Rating, RatingPlan
from harness.toygame.tables import toy_table
from rules.core import Action

ANA, BOB = 701, 702


def plan(game_id: int, places: tuple[int, ...] = (1, 2)) -> RatingPlan:
    players = ("u:1", "u:2")

    def rater(before: Mapping[str, Rating]) -> Mapping[str, Rating]:
        return rate(players, places, before)

    return RatingPlan(game_id, 9, "toy", players, places, rater)


async def test_a_game_is_rated_once_however_often_its_end_is_replayed(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        first = await store.ratings.rate_game(plan(40), 100.0)
        assert first is not None and first.seq == 1
        once = await store.ratings.list_ratings()
        # A restart that commits the same end again (even claiming another order) changes nothing.
        assert await store.ratings.rate_game(plan(40, (2, 1)), 200.0) is None
        assert await store.ratings.list_ratings() == once
        assert [r.rating.games for r in once] == [1, 1]
        assert [g.game_id for g in await store.ratings.list_rated_games()] == [40]
        second = await store.ratings.rate_game(plan(41), 300.0)
        assert second is not None and second.seq == 2
        assert [s.before for s in second.seats] == [r.rating for r in once]
    finally:
        await store.close()


async def test_the_season_is_the_servers_and_starts_at_one(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        assert await store.ratings.fetch_season(9) == 1
        await store.ratings.rate_game(plan(40), 100.0)
        async with store.database.transaction() as con:
            await con.execute("UPDATE seasons SET season = 2 WHERE guild_id = 9")
        rated = await store.ratings.rate_game(plan(41), 200.0)
        assert rated is not None and rated.season == 2
        # A new season starts fresh: the keys' season-1 ratings are not its "before".
        assert [s.before for s in rated.seats] == [None, None]
        assert await store.ratings.fetch_rating(9, "toy", 1, "u:1") is not None
        rating = await store.ratings.fetch_rating(9, "toy", 2, "u:1")
        assert rating is not None and rating.games == 1
    finally:
        await store.close()


async def one_move_from_the_end(
    sessions: SessionService, lobby: LobbyService
) -> tuple[LiveGame, int, Action]:
    """A toy game where the next move finishes it: its seat and that move."""
    game = await toy_table(lobby, host=ANA, target=3)
    seat = min(game.waiting())
    await sessions.act(game.id, game.user_of(seat), Action("add", (3,)), version=game.public_version)
    game = await sessions.load(game.id)
    while True:
        seat = min(game.waiting())
        work = game.entry.rules.load(game.entry.rules.dump(game.state))
        action = game.entry.rules.legal_actions(game.state, seat)[0]
        game.entry.rules.apply(work, seat, action)
        if game.entry.rules.outcome(work) is not None:
            return game, seat, action
        await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
        game = await sessions.load(game.id)


async def test_a_rating_that_cannot_be_written_leaves_the_final_move_unsaved(
    services: tuple[SessionService, LobbyService], monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions, lobby = services
    store = sessions.store
    game, seat, action = await one_move_from_the_end(sessions, lobby)
    version = game.version
    log_rows = len(await store.log.load_log(game.id))

    async def broken(db: Connection, plan: RatingPlan, now: float) -> RatedGame | None:
        await db.execute("INSERT INTO meta (key, value) VALUES ('half', 'written')")
        raise StoreError("disk full while writing the ratings")

    monkeypatch.setattr(bot.storage.log, "apply_rating", broken)
    with pytest.raises(StoreError):
        await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
    row = await store.games.fetch_game(game.id)
    assert row is not None and (row.status, row.version) == (GameStatus.ACTIVE, version)
    assert len(await store.log.load_log(game.id)) == log_rows
    assert await store.database.fetch("SELECT 1 FROM meta WHERE key = 'half'") == []
    assert await store.ratings.fetch_rated_game(game.id) is None and await store.ratings.list_ratings() == []

    # Once the ratings can be written, the same move ends the game and rates it, together.
    monkeypatch.undo()
    game = await sessions.load(game.id)
    await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
    row = await store.games.fetch_game(game.id)
    assert row is not None and row.status == GameStatus.FINISHED
    rated = await store.ratings.fetch_rated_game(game.id)
    assert rated is not None and [s.player for s in rated.seats] == [f"u:{ANA}", f"u:{ANA + 1}"]
