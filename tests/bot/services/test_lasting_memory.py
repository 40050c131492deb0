"""Per-game memory goes once a game is neither cached nor running (issue 25, finding 9).

Before: ``SessionService`` kept a lock and a generation counter for every game touched since
start (only ended games that were in the cache when forgotten lost theirs), and ``BotPlayers``
kept every finished driver task.  Touching many games now leaves those maps no bigger than the
cache, and the two guarantees the maps exist for still hold: a lock is never dropped while
someone holds or waits for it, and a load in flight still notices a commit made meanwhile.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import REGISTRY
from bot.services.bot_players import BotPlayers
from bot.services.sessions import Refusal, SessionService
from bot.storage import GameRow, Store
from rules.core import Action
from rules.play import canonical

T0 = 1_800_000_000.0


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "memory.sqlite3")
    yield store
    await store.close()


async def running_toy_games(store: Store, count: int) -> list[int]:
    """``count`` one-player toy races to 3 at their start, written in one transaction (cheap)."""
    entry = REGISTRY.get("toy")
    assert entry is not None
    snapshot = canonical(entry.rules.dump(entry.rules.setup(1, {"target": 3}, 1)))
    ids = []
    async with store.database.transaction() as db:
        for n in range(count):
            rows = await db.fetch(
                "INSERT INTO games (guild_id, channel_id, game, options, seed, status, version, snapshot,"
                " host_id, language, created_at, updated_at) VALUES (1, 2, 'toy', ?, 1, 'active', 0, ?, ?,"
                " 'en', ?, ?) RETURNING id",
                (json.dumps({"target": 3}), snapshot, 500 + n, T0, T0),
            )
            ids.append(int(rows[0][0]))
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, 'p')", (ids[-1], 500 + n)
            )
    return ids


async def test_locks_and_generations_shrink_back_to_the_cache(store: Store) -> None:
    """300 games loaded and played (half to the end): the maps hold at most the cached games.
    On the code before this change ``_locks`` and ``_generations`` kept ~300 entries."""
    sessions = SessionService(store, REGISTRY, cache_size=10)
    ids = await running_toy_games(store, 300)
    for n, game_id in enumerate(ids):
        game = await sessions.load(game_id)
        await sessions.act(game_id, 500 + n, Action("add", (3,)), version=game.public_version)
        if n % 2:
            game = await sessions.load(game_id)
            await sessions.act(game_id, 500 + n, Action("gg"), version=game.public_version)
    assert sessions.cached() <= 10
    assert len(sessions._locks) <= 10
    assert len(sessions._generations) <= 10
    assert not sessions._reading
    # A game never seen (a stray click) leaves nothing behind either.
    with pytest.raises(Refusal):
        await sessions.act(999_999, 1, Action("gg"), version=0)
    assert 999_999 not in sessions._locks and 999_999 not in sessions._generations


async def test_a_lock_someone_waits_for_is_not_dropped(store: Store) -> None:
    """Released with a waiter about to take it (``locked()`` is already False then): forgetting
    the game must keep that lock, or a newcomer would get a second lock for the same game."""
    sessions = SessionService(store, REGISTRY, cache_size=10)
    (game_id,) = await running_toy_games(store, 1)
    await sessions.load(game_id)
    lock = sessions.lock(game_id)
    await lock.acquire()
    inside = asyncio.Event()

    async def waiter() -> None:
        async with sessions.lock(game_id):
            inside.set()
            await asyncio.sleep(0)

    task = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    sessions.forget(game_id)
    lock.release()
    assert not lock.locked()  # the gap the drop must respect: nobody holds it, one waits
    assert sessions.lock(game_id) is lock
    await task
    assert inside.is_set()
    assert game_id not in sessions._locks  # and once the waiter is done, it goes


async def test_a_load_in_flight_still_sees_a_commit_made_meanwhile(store: Store) -> None:
    """The generation guard survives dropping: a load that read before a commit on an uncached
    game retries instead of caching the older state (the drop waits for the read to finish)."""
    sessions = SessionService(store, REGISTRY, cache_size=10)
    (game_id,) = await running_toy_games(store, 1)
    real = store.games.fetch_game
    hold = asyncio.Event()
    release = asyncio.Event()
    armed = [True]
    slowed = game_id

    async def slow_game(game_id: int) -> GameRow | None:
        row = await real(game_id)
        if armed[0] and game_id == slowed:
            armed[0] = False
            hold.set()
            await release.wait()
        return row

    store.games.fetch_game = slow_game  # type: ignore[method-assign]
    reader = asyncio.create_task(sessions.load(game_id))
    await hold.wait()
    # Meanwhile another path commits a move and forgets the game (as a second process would).
    other = SessionService(store, REGISTRY)
    await other.act(game_id, 500, Action("add", (3,)), version=0)
    sessions.forget(game_id)
    release.set()
    loaded = await reader
    assert loaded.version == 1


async def test_finished_bot_drivers_are_not_kept(store: Store) -> None:
    """Every poke of a game with no bot waited on ends at once; before, each left its finished
    task in ``BotPlayers._tasks`` for ever (one per game touched since start)."""
    sessions = SessionService(store, REGISTRY, cache_size=10)
    bots = BotPlayers(sessions, None, 0)
    ids = await running_toy_games(store, 50)
    for game_id in ids:
        bots.poke(game_id)
    await bots.idle()
    await asyncio.sleep(0)  # done callbacks run on the next turn of the loop
    assert bots._tasks == {}
    assert bots._again == set()
