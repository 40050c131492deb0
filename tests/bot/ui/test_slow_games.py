"""Slow games through the real discord.py path (issue 12): reminders, turn timers, away.

Time is SimCord's: the bot's clock reads discord.py's (``bot.client.discord_time``), which
SimCord moves with ``advance_time``, and the scheduler's loop is a ``discord.ext.tasks`` loop
whose sleeps SimCord recognises.  ``quick_settle`` makes each virtual minute cheap (the minutely
sweep and the clock wake once a virtual minute); nothing else about settling changes.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from benchmarks.torture_discord_common import quick_settle
from bot.client import GameBot
from harness.messages import Table, response_of, words_of
from tests.simcord import make_bot

HOUR = 3600.0
MINUTE = 60.0


@contextlib.asynccontextmanager
async def running(tmp_path: Path) -> AsyncIterator[simcord.Env]:
    with quick_settle():
        async with simcord.run(make_bot(tmp_path), strict_sync=False, settle_timeout=60) as env:
            yield env


def bot_of(env: simcord.Env) -> GameBot:
    bot = env.bot
    assert isinstance(bot, GameBot)
    return bot


async def slow_table(env: simcord.Env, **clocks: str) -> Table:
    """Ana hosts a toy table with the given ``remind``/``timer`` options; Bob joins; it starts."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in ("ana", "bob")]
    result = await players[0].slash(channel, "game new", name="toy", **clocks)
    lobby = response_of(result).message
    await players[1].click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    return Table(env, channel, players)


def rows(tmp_path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(tmp_path / "host.sqlite3") as db:
        return [tuple(r) for r in db.execute(sql, params).fetchall()]


def pinged(env: simcord.Env, message: discord.Message) -> list[int]:
    """Whom a message notified (its allowed mentions), as SimCord stored it."""
    return list(env.backend.get_message(message.channel.id, message.id).ping_user_ids)


def reminder_line(table: Table) -> str | None:
    found = re.search(
        r"⏰ \w+, the table has been waiting for you for [^.]+\.", words_of(table.table_message())
    )
    return found.group(0) if found else None


def other(table: Table, player: Any) -> Any:
    return next(p for p in table.players if p.id != player.id)


async def restart(env: simcord.Env, tmp_path: Path) -> GameBot:
    bot = make_bot(tmp_path)
    await env.restart_bot(bot)
    return bot


# -- reminders -----------------------------------------------------------------------------------


async def test_a_reminder_moves_the_board_down_and_pings_only_the_waited_player(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="2h")
        ana_or_bob = table.on_turn()
        count = len(table.messages())
        await env.advance_time(2 * HOUR - MINUTE)
        assert reminder_line(table) is None
        await env.advance_time(2 * MINUTE)
        board = table.table_message()
        assert (
            reminder_line(table) == f"⏰ {ana_or_bob.name}, the table has been waiting for you for 2 hours."
        )
        assert pinged(env, board) == [ana_or_bob.id]
        # The board moved down (the old one was deleted): one board, at the bottom, no extra message.
        assert (
            len(table.boards()) == 1
            and table.messages()[-1].id == board.id
            and len(table.messages()) == count
        )


async def test_reminders_come_again_after_a_restart_and_stop_when_the_player_acts(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="2h")
        slow = table.on_turn()
        await env.advance_time(2 * HOUR + MINUTE)
        assert reminder_line(table) is not None
        await restart(env, tmp_path)
        await env.advance_time(2 * HOUR)
        assert reminder_line(table) == f"⏰ {slow.name}, the table has been waiting for you for 4 hours."
        assert rows(tmp_path, "SELECT reminders FROM waits") == [(2,)]
        result = await slow.click(table.table_message(), label="Add 1")
        assert result.acknowledged and not result.ephemeral
        assert reminder_line(table) is None  # the reminder went with the board's change
        fast = other(table, slow)
        await env.advance_time(2 * HOUR + MINUTE)
        board = table.table_message()
        assert reminder_line(table) == f"⏰ {fast.name}, the table has been waiting for you for 2 hours."
        assert pinged(env, board) == [fast.id]


async def test_at_most_three_reminders(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="1h")
        for waited in ("an hour", "2 hours", "3 hours"):
            await env.advance_time(HOUR)
            assert (reminder_line(table) or "").endswith(f"for {waited}.")
        third = table.table_message().id
        await env.advance_time(3 * HOUR)
        assert table.table_message().id == third
        assert rows(tmp_path, "SELECT reminders, remind_due FROM waits") == [(3, None)]


async def test_a_direct_message_reminder_links_to_the_board(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="2h")
        slow = table.on_turn()
        answer = await slow.slash(table.channel, "game notify", how="dm")
        assert answer.ephemeral and "direct message" in words_of(answer.response)
        board = table.table_message()
        await env.advance_time(2 * HOUR + MINUTE)
        (dm,) = slow.user.dm_channel.history()
        assert "table #1 has been waiting for you for 2 hours" in words_of(dm)
        assert f"/{table.thread.id}/{board.id}" in words_of(dm)
        assert (
            table.table_message().id == board.id and reminder_line(table) is None
        )  # the thread is left alone


async def test_a_refused_direct_message_falls_back_to_the_thread(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="2h")
        slow = table.on_turn()
        await slow.slash(table.channel, "game notify", how="dm")
        # The player does not take direct messages from server members: Discord answers 403 / 50007.
        env.inject_error(
            "POST",
            f"/channels/{slow.user.dm_channel.id}/messages",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )
        await env.advance_time(2 * HOUR + MINUTE)
        assert slow.user.dm_channel.history() == []
        assert reminder_line(table) == f"⏰ {slow.name}, the table has been waiting for you for 2 hours."
        assert pinged(env, table.table_message()) == [slow.id]


async def test_notify_none_sends_nothing(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="1h")
        slow = table.on_turn()
        await slow.slash(table.channel, "game notify", how="none")
        board = table.table_message().id
        await env.advance_time(HOUR + MINUTE)
        assert table.table_message().id == board and reminder_line(table) is None
        assert rows(tmp_path, "SELECT reminders FROM waits") == [(1,)]


async def test_a_private_move_does_not_move_the_reminder(tmp_path: Path) -> None:
    """The player on turn rerolls their secret (private) an hour in: the reminder still comes at 2 h."""
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="2h", timer="3h")
        slow = table.on_turn()
        before = rows(tmp_path, "SELECT * FROM waits")
        await env.advance_time(HOUR)
        panel = await slow.click(table.table_message(), label="My secret")
        done = await slow.click(response_of(panel).message, label="Reroll my secret")
        assert "Your new secret is" in words_of(done.response)
        assert rows(tmp_path, "SELECT * FROM waits") == before
        await env.advance_time(HOUR + MINUTE)
        assert reminder_line(table) == f"⏰ {slow.name}, the table has been waiting for you for 2 hours."


# -- turn timers ---------------------------------------------------------------------------------


async def test_a_timeout_makes_the_default_move_once_across_a_restart(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, timer="1h", remind="off")
        slow = table.on_turn()
        await env.advance_time(HOUR + MINUTE)
        assert rows(tmp_path, "SELECT seat, action, how, user_id FROM actions")[0][1:] == (
            '["add", 3]',
            "timeout",
            None,
        )
        assert f"⏰ {slow.name}'s time ran out: {slow.name} adds 3 (total 3)." in table.recent()
        assert pinged(env, table.table_message()) == [other(table, slow).id]
        await restart(env, tmp_path)
        await env.advance_time(30 * MINUTE)
        assert len(rows(tmp_path, "SELECT * FROM actions")) == 1
        # The next player's timer, which began with the default move, runs as usual.
        await env.advance_time(31 * MINUTE)
        assert [r[0] for r in rows(tmp_path, "SELECT how FROM actions")] == ["timeout", "timeout"]


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once_at_start(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, timer="1h", remind="off")
        bot = bot_of(env)
        clock: Any = bot.get_cog("TasksCog")
        clock.clock.cancel()  # the bot is down: nothing fires while time passes
        await env.advance_time(2 * HOUR)
        assert rows(tmp_path, "SELECT * FROM actions") == []
        await restart(env, tmp_path)
        assert [r[0] for r in rows(tmp_path, "SELECT how FROM actions")] == ["timeout"]
        assert "time ran out" in table.recent()
        await restart(env, tmp_path)  # and a restart right after it: nothing more
        await env.advance_time(MINUTE)
        assert len(rows(tmp_path, "SELECT * FROM actions")) == 1


async def test_a_table_where_everyone_times_out_ends(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, timer="1h", remind="off")
        for _ in range(12):
            await env.advance_time(HOUR)
        assert rows(tmp_path, "SELECT status FROM games") == [("finished",)]
        assert "Final standings" in words_of(table.messages()[-1])
        assert rows(tmp_path, "SELECT * FROM waits") == []


# -- away ----------------------------------------------------------------------------------------


async def test_away_pauses_reminders_and_timers_and_coming_back_clears_it(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="2h", timer="3h")
        slow = table.on_turn()
        answer = await slow.slash(table.channel, "game away", days=1)
        assert answer.ephemeral and "You are away until <t:" in words_of(answer.response)
        assert re.search(rf"{slow.name} is away until <t:\d+:f>\.", words_of(table.table_message()))
        await env.advance_time(4 * HOUR)
        assert reminder_line(table) is None and rows(tmp_path, "SELECT * FROM actions") == []
        back = await slow.slash(table.channel, "game away", back=True)
        assert "Welcome back" in words_of(back.response)
        assert "is away until" not in words_of(table.table_message())
        # Four hours of the day away were used: every deadline moved back by the other twenty.
        await env.advance_time(2 * HOUR - MINUTE)
        assert reminder_line(table) is None
        await env.advance_time(2 * MINUTE)
        assert reminder_line(table) == f"⏰ {slow.name}, the table has been waiting for you for 6 hours."
        await env.advance_time(HOUR)
        assert [r[0] for r in rows(tmp_path, "SELECT how FROM actions")] == ["timeout"]


async def test_away_without_days_says_where_you_stand(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env)
        slow = table.on_turn()
        assert "not marked away" in words_of((await slow.slash(table.channel, "game away")).response)
        await slow.slash(table.channel, "game away", days=2)
        assert "You are away until" in words_of((await slow.slash(table.channel, "game away")).response)


# -- a table's clocks ----------------------------------------------------------------------------


async def test_game_new_takes_the_table_s_clocks(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        await ana.slash(channel, "game new", name="toy", remind="3h", timer="2d")
        assert rows(tmp_path, "SELECT remind_hours, timer_hours FROM games") == [(3, 48)]
        refused = await ana.slash(channel, "game new", name="toy", timer="soon")
        assert refused.ephemeral and "'soon' is not a time" in words_of(refused.response)
        assert len(rows(tmp_path, "SELECT * FROM games")) == 1


async def test_game_clock_shows_and_changes_a_table_s_clocks(tmp_path: Path) -> None:
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="3h")
        ana, bob = table.players
        shown = await bob.slash(table.thread, "game clock")
        assert "reminders after 3 h" in words_of(shown.response) and "no turn timer (default)" in words_of(
            shown.response
        )
        refused = await bob.slash(table.thread, "game clock", timer="1h")
        assert refused.ephemeral and "Only the host" in words_of(refused.response)
        changed = await ana.slash(table.thread, "game clock", timer="1h", remind="off")
        assert "no reminders · default move after 1 h" in words_of(changed.response)
        assert rows(tmp_path, "SELECT remind_hours, timer_hours FROM games") == [(0, 1)]
        await env.advance_time(HOUR + MINUTE)
        assert [r[0] for r in rows(tmp_path, "SELECT how FROM actions")] == ["timeout"]


async def test_a_deadline_written_close_wakes_the_sleeping_clock(tmp_path: Path) -> None:
    """Away 20 s before a reminder, back ten minutes later: the reminder is due 20 s after the
    return, sooner than the loop planned to look, so the loop is woken for it."""
    async with running(tmp_path) as env:
        table = await slow_table(env, remind="1h")
        slow = table.on_turn()
        bot = bot_of(env)
        ((due,),) = rows(tmp_path, "SELECT remind_due FROM waits")
        await env.advance_time(due - bot.sessions.clock() - 20)
        await slow.slash(table.channel, "game away", days=1)
        await env.advance_time(10 * MINUTE)
        loop: Any = bot.get_cog("TasksCog")
        planned = loop.clock.next_iteration
        await slow.slash(table.channel, "game away", back=True)
        ((due,),) = rows(tmp_path, "SELECT remind_due FROM waits")
        assert due == pytest.approx(bot.sessions.clock() + 20, abs=1)
        assert loop.clock.next_iteration < planned  # woken earlier than it meant to
        ticks = loop.clock.current_loop
        await env.advance_time(21)
        assert loop.clock.current_loop > ticks
        assert reminder_line(table) == f"⏰ {slow.name}, the table has been waiting for you for an hour."
