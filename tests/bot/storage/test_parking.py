"""The store's side of reaching tables on Discord (the ``reach`` rows), on SQLite and PostgreSQL:
a parked table's deadlines are set aside and come back moved on, each trouble is told once, the
sweep's back-off outlives a restart, an undelivered reminder is given back, and finished
threads are found for archiving.  Discord itself is in ``test_reach.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.deadlines import HOUR
from bot.storage import ReachRow, Store, WaitRow
from bot.storage.codes import MessageKind
from tests.bot.services.test_scheduler import T0, FakeClock, Host, build, table, waited_seat


@pytest.fixture
async def host(store_target: str | Path) -> AsyncIterator[Host]:
    store = await Store.open(store_target)
    yield build(store, FakeClock())
    await store.close()


async def test_a_parked_table_sets_its_deadlines_aside_and_gets_them_back_moved_on(host: Host) -> None:
    game = await table(host, remind=24, timer=48)
    seat = waited_seat(game)
    store = host.store
    assert await store.reach.park(game.id, "locked", T0 + HOUR)
    assert await store.waits.fetch_next_due() is None, "nothing of a parked table is due"
    assert await host.scheduler.tick(T0 + 100 * HOUR) == 0
    assert not await store.reach.park(game.id, "thread_gone", T0 + 2 * HOUR), "parked already"
    assert (await store.reach.fetch_reach(game.id)).parked == "thread_gone"
    reaches = await store.reach.fetch_parked([game.id, 999])
    assert list(reaches) == [game.id] and reaches[game.id].parked_at == T0 + HOUR
    upcoming = await store.reach.unpark(game.id, T0 + 11 * HOUR)
    assert upcoming == T0 + 34 * HOUR
    assert await store.waits.fetch_waits(game.id) == [
        WaitRow(game.id, seat, T0, T0 + 34 * HOUR, 0, T0 + 58 * HOUR)
    ]
    assert await store.reach.fetch_reach(game.id) == ReachRow(game.id)
    assert await store.reach.unpark(game.id, T0 + 12 * HOUR) is None, "not parked any more"


async def test_the_sweep_and_the_bots_pass_a_parked_table_by(host: Host) -> None:
    game = await table(host)
    store = host.store
    await store.messages.add_message(game.id, 2, 500, MessageKind.TABLE, game.public_version - 1, since=0)
    assert await store.messages.list_games_behind_their_table() == [game.id]
    await store.reach.park(game.id, "no_access", T0)
    assert await store.messages.list_games_behind_their_table() == []


async def test_each_trouble_is_told_once(host: Host) -> None:
    game = await table(host)
    store = host.store
    assert await store.reach.tell_once(game.id, "locked")
    assert not await store.reach.tell_once(game.id, "locked")
    assert await store.reach.tell_once(game.id, "thread_gone"), "a new trouble is told"
    await store.reach.park(game.id, "thread_gone", T0)
    await store.reach.unpark(game.id, T0 + 1)
    assert await store.reach.tell_once(game.id, "thread_gone"), "back from parking: told afresh next time"


async def test_the_sweeps_back_off_doubles_and_outlives_a_restart(host: Host) -> None:
    game = await table(host)
    store = host.store
    first = await store.reach.post_failed(game.id, T0, first=60.0, longest=3600.0)
    second = await store.reach.post_failed(game.id, T0 + 60, first=60.0, longest=3600.0)
    assert (first.failures, first.retry_at) == (1, T0 + 60) and second.retry_at == T0 + 60 + 120
    for _ in range(10):
        last = await store.reach.post_failed(game.id, T0 + 200, first=60.0, longest=3600.0)
    assert last.retry_at == T0 + 200 + 3600
    assert await store.reach.list_backing_off(T0 + 300) == {game.id}
    await store.reach.post_succeeded(game.id)
    assert await store.reach.list_backing_off(T0 + 300) == set()


async def test_an_undelivered_reminder_is_given_back(host: Host) -> None:
    game = await table(host, remind=24)
    seat = waited_seat(game)
    store = host.store
    due = T0 + 24 * HOUR
    assert await store.waits.claim_reminder(game.id, seat, due, due + 24 * HOUR)
    assert await store.waits.unclaim_reminder(game.id, seat, 1, due + HOUR)
    (wait,) = await store.waits.fetch_waits(game.id)
    assert (wait.reminders, wait.remind_due) == (0, due + HOUR)
    assert not await store.waits.unclaim_reminder(game.id, seat, 1, due + HOUR), "given back once"
    # Parked meanwhile: only the count comes back; the deadline stays set aside.
    assert await store.waits.claim_reminder(game.id, seat, due + HOUR, due + 25 * HOUR)
    await store.reach.park(game.id, "locked", due + HOUR)
    assert await store.waits.unclaim_reminder(game.id, seat, 1, due + 2 * HOUR)
    (wait,) = await store.waits.fetch_waits(game.id)
    assert (wait.reminders, wait.remind_due) == (0, None)


async def test_finished_threads_are_found_for_archiving_once(host: Host) -> None:
    game = await table(host)
    store = host.store
    await store.games.set_thread(game.id, 77)
    await host.lobby.close(game.id, game.row.host_id, moderator=True, status="abandoned", reason="cancelled")
    row = await store.games.fetch_game(game.id)
    assert row is not None
    ended = row.updated_at
    assert await store.reach.list_threads_to_archive(ended_since=ended - 1, ended_before=ended + 1) == [], (
        "no final yet"
    )
    await store.messages.add_message(game.id, 77, 900, MessageKind.FINAL, 0)
    found = await store.reach.list_threads_to_archive(ended_since=ended - 1, ended_before=ended + 1)
    assert found == [(game.id, 77)]
    assert await store.reach.list_threads_to_archive(ended_since=ended + 1, ended_before=ended + 2) == []
    assert (
        await store.reach.list_threads_to_archive(ended_since=ended - 1, ended_before=ended + 1, guild_id=2)
        == []
    )
    await store.reach.mark_archived(game.id, ended + 5)
    assert await store.reach.list_threads_to_archive(ended_since=ended - 1, ended_before=ended + 1) == []
