"""The service methods the UI and the cogs use instead of the store (issue 27): finding a table
from where a command was typed, the parked tables among a list, a server that removed the bot,
a table moved elsewhere, and when a running clock's timer ends.  Each has a rule of its own
beyond the query; the pass-throughs are covered by the Discord tests that use them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.services.deadlines import HOUR
from bot.services.messages import TableMessages
from bot.services.reach import ReachService
from bot.storage import GameStatus, MessageKind, Store
from tests.bot.services.kit import ANA
from tests.bot.services.test_scheduler import T0, FakeClock, Host, build, table

THREAD = 50


@pytest.fixture
async def host(store_target: str | Path) -> AsyncIterator[Host]:
    store = await Store.open(store_target)
    yield build(store, FakeClock())
    await store.close()


async def _ended_in_its_thread(host: Host, *, guild_id: int = 1, thread: int | None = THREAD) -> int:
    """A table opened in channel 2 that played in its own thread, then was abandoned."""
    game = await table(host, guild_id=guild_id)
    if thread is not None:
        await host.lobby.set_thread(game.id, thread)
    await host.lobby.close(game.id, ANA, moderator=True, status=GameStatus.ABANDONED, reason="cancelled")
    return game.id


async def test_the_table_here_is_the_open_one_else_the_ended_one_whose_thread_this_is(host: Host) -> None:
    ended = await _ended_in_its_thread(host)
    assert await host.lobby.tables_here(THREAD) == [], "an ended table is named only when asked"
    assert [row.id for row in await host.lobby.tables_here(THREAD, ended=True)] == [ended]
    assert await host.lobby.tables_here(2, ended=True) == [], "the channel it came from names none"
    running = await table(host)
    await host.lobby.set_thread(running.id, THREAD)
    assert [row.id for row in await host.lobby.tables_here(THREAD, ended=True)] == [running.id], (
        "an open table comes before an ended one"
    )


async def test_the_last_ended_table_of_a_thread_is_the_one_named(host: Host) -> None:
    await _ended_in_its_thread(host)
    later = await _ended_in_its_thread(host)
    assert [row.id for row in await host.lobby.tables_here(THREAD, ended=True)] == [later]


async def test_only_parked_tables_are_named_with_their_reason(host: Host) -> None:
    places = ReachService(host.sessions)
    parked, told, quiet = await table(host), await table(host), await table(host)
    assert await places.park(parked.id, "locked")
    assert await places.tell_once(told.id, "thread_cap"), "a reach row that parks nothing"
    assert await places.parked_among([parked.id, told.id, quiet.id, 999]) == {parked.id: "locked"}
    assert await places.parked(parked.id) == "locked"
    assert await places.parked(told.id) is None


async def test_a_server_that_removed_the_bot_leaves_no_thread_to_archive(host: Host) -> None:
    places = ReachService(host.sessions)
    gone = await _ended_in_its_thread(host, guild_id=1)
    threadless = await _ended_in_its_thread(host, guild_id=1, thread=None)
    elsewhere = await _ended_in_its_thread(host, guild_id=9)
    host.clock.hours(1)
    await places.forget_threads_of_server(1)
    assert (await host.store.reach.fetch_reach(gone)).archived_at == T0 + HOUR
    assert (await host.store.reach.fetch_reach(threadless)).archived_at is None, "no thread, nothing archived"
    assert (await host.store.reach.fetch_reach(elsewhere)).archived_at is None, (
        "another server's threads stay"
    )


async def test_a_moved_table_forgets_every_message_it_had(host: Host) -> None:
    messages = TableMessages(host.sessions)
    game = await table(host)
    await messages.posted(game.id, 2, 500, MessageKind.LOBBY, 0)
    await messages.posted(game.id, THREAD, 501, MessageKind.TABLE, game.public_version, since=0)
    await messages.move_table(game.id, 7, 70)
    assert await messages.live(game.id) == []
    newest = await messages.newest(game.id, MessageKind.TABLE)
    assert newest is not None and newest.message_id == 501, "retired, not deleted"
    row = await host.store.games.fetch_game(game.id)
    assert row is not None and (row.channel_id, row.thread_id) == (7, 70)


async def test_a_running_clock_ends_with_the_earliest_timeout_of_the_seats_waited_on(host: Host) -> None:
    timed = await table(host, timer=48)
    assert await host.sessions.timer_ends(timed) == T0 + 48 * HOUR
    over = replace(timed, status=GameStatus.FINISHED)
    assert await host.sessions.timer_ends(over) is None, "a seat no longer waited on has no say"
    untimed = await table(host)
    assert await host.sessions.timer_ends(untimed) is None
