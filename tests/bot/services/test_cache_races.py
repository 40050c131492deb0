"""The session cache never runs behind the database (issue 7, finding 1).

A load without the game's lock used to be able to put a state read *before*
a commit into the cache after that commit; from then on every fresh click was
refused as stale.  These tests hold a read open across a commit, on purpose,
so the race happens every time instead of 17 times in 10,000.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.storage import GameRow, Store
from rules.core import Action
from rules.play import canonical
from tests.bot.services.kit import ANA, BOB, on_turn, started


class HeldRead:
    """Holds the next read of one game's row until released: a slow read racing a commit."""

    def __init__(self, store: Store, game_id: int) -> None:
        self.real = store.games.fetch_game
        self.game_id = game_id
        self.armed = True
        self.holding = asyncio.Event()
        self.release = asyncio.Event()
        store.games.fetch_game = self.game  # type: ignore[method-assign]

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.real(game_id)
        if self.armed and game_id == self.game_id:
            self.armed = False
            self.holding.set()
            await self.release.wait()
        return row


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    store = await Store.open(store_target)
    yield store
    await store.close()


async def started_on(store: Store) -> LiveGame:
    return await started(LobbyService(SessionService(store, REGISTRY)), seed=11, target=60)


async def assert_in_step(sessions: SessionService, store: Store, game_id: int) -> None:
    """The cached copy is exactly what the database holds, and a fresh click is accepted."""
    row = await store.games.fetch_game(game_id)
    assert row is not None
    game = await sessions.load(game_id)
    assert (game.version, game.public_version) == (row.version, row.public_version)
    assert canonical(game.entry.rules.dump(game.state)) == row.snapshot
    applied = await sessions.act(game_id, on_turn(game), Action("add", (1,)), version=row.public_version)
    assert applied.version == row.version + 1


async def test_a_read_held_across_a_commit_does_not_cache_the_older_state(store: Store) -> None:
    game = await started_on(store)
    sessions = SessionService(store, REGISTRY)  # a cold cache, as right after a restart
    held = HeldRead(store, game.id)
    reader = asyncio.create_task(sessions.load(game.id))  # e.g. a panel opening, /game list
    await held.holding.wait()
    mover = on_turn(game)
    applied = await sessions.act(game.id, mover, Action("add", (2,)), version=0)
    held.release.set()
    seen = await reader
    assert seen.version == applied.version == 1, "the reader got the committed move, not its old read"
    await assert_in_step(sessions, store, game.id)


async def test_many_readers_racing_moves_never_leave_the_game_stuck(store: Store) -> None:
    game = await started_on(store)
    for round_ in range(25):
        sessions = SessionService(store, REGISTRY)
        row = await store.games.fetch_game(game.id)
        assert row is not None
        live = await SessionService(store, REGISTRY).load(game.id)
        mover = on_turn(live)

        async def read(delay: int, sessions: SessionService = sessions) -> None:
            for _ in range(delay):
                await asyncio.sleep(0)
            await sessions.load(game.id)

        results: list[Any] = await asyncio.gather(
            *(read(d) for d in range(round_ % 5)),
            sessions.act(game.id, mover, Action("add", (1,)), version=row.public_version),
            *(read(d) for d in range(round_ % 3, 6)),
        )
        assert sum(1 for r in results if r is not None) == 1
        await assert_in_step(sessions, store, game.id)


async def test_a_stale_refusal_first_asks_the_database(store: Store) -> None:
    """Two processes on one database: one moves, the other's cache is behind, a fresh click still works."""
    game = await started_on(store)
    here = SessionService(store, REGISTRY)
    there = SessionService(store, REGISTRY)
    cached = await here.load(game.id)
    assert cached.version == 0
    moved = await there.act(game.id, on_turn(cached), Action("add", (1,)), version=0)
    # ``here`` still holds version 0; the click carries the public version the new table shows.
    applied = await here.act(
        game.id, on_turn(moved.game), Action("add", (1,)), version=moved.game.public_version
    )
    assert applied.version == 2
    # And a click that really is stale is still refused, with nothing changed.
    with pytest.raises(Refusal) as refused:
        await here.act(game.id, on_turn(applied.game), Action("add", (1,)), version=0)
    assert refused.value.key == "host.refuse.stale"
    assert len(await store.log.load_actions(game.id)) == 2


async def test_nobody_sees_a_move_before_it_is_committed(store: Store) -> None:
    """While the commit is in flight, a reader sees the state on disk, not the move being saved."""
    game = await started_on(store)
    sessions = SessionService(store, REGISTRY)
    before = canonical(game.entry.rules.dump((await sessions.load(game.id)).state))
    real = store.log.record_action
    in_flight = asyncio.Event()
    finish = asyncio.Event()

    async def slow_commit(*args: Any, **kwargs: Any) -> int:
        in_flight.set()
        await finish.wait()
        return await real(*args, **kwargs)

    store.log.record_action = slow_commit  # type: ignore[method-assign]
    mover = asyncio.create_task(sessions.act(game.id, on_turn(game), Action("add", (3,)), version=0))
    await in_flight.wait()
    during = await sessions.load(game.id)
    assert canonical(during.entry.rules.dump(during.state)) == before
    finish.set()
    await mover
    after = await sessions.load(game.id)
    assert json.loads(canonical(after.entry.rules.dump(after.state)))["total"] == 3


async def test_a_private_move_by_another_process_does_not_make_a_fresh_click_stale(store: Store) -> None:
    """Process B rerolls (private: no public version change), then process A's cached copy is one
    log entry behind with the right public version.  A's fresh click must still be accepted."""
    game = await started_on(store)
    here = SessionService(store, REGISTRY)
    there = SessionService(store, REGISTRY)
    cached = await here.load(game.id)
    mover = on_turn(cached)
    idle = ANA if mover == BOB else BOB
    rerolled = await there.act(game.id, idle, Action("reroll"), version=None)
    assert not rerolled.public and rerolled.game.public_version == cached.public_version
    applied = await here.act(game.id, mover, Action("add", (2,)), version=cached.public_version)
    assert applied.version == 2
    assert [a.kind for _, _, a in await store.log.load_actions(game.id)] == ["reroll", "add"]
    await assert_in_step(here, store, game.id)
