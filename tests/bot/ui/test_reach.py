"""Slow games on real Discord's terms (``design.md``, "Real Discord"), through the tests' rules
layer (``harness/discord_rules.py``): threads that archive, lock and vanish, servers that remove
the bot, the thread cap, too many old edits, and clicks answered within three seconds whatever
Discord does.  Every test runs the real bot in SimCord with the layer enforcing Discord's rules.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from benchmarks.torture_discord_common import quick_settle
from bot.client import GameBot
from bot.services.background import background
from bot.ui import safe
from harness.discord_rules import DiscordRules, Limits, enforce, rules_for
from harness.messages import Table, response_of, words_of
from tests.simcord import make_bot, open_table, playable

HOUR = 3600.0
DAY = 24 * HOUR


@asynccontextmanager
async def on_discord(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limits: Limits | None = None
) -> AsyncIterator[tuple[simcord.Env, DiscordRules, GameBot]]:
    enforce(monkeypatch, limits)
    bot = make_bot(tmp_path)
    with quick_settle():
        async with simcord.run(bot, strict_sync=False, settle_timeout=120) as env:
            yield env, rules_for(env), bot


def stored(tmp_path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(tmp_path / "host.sqlite3") as db:
        return [tuple(r) for r in db.execute(sql, params).fetchall()]


def parked(tmp_path: Path, game_id: int = 1) -> str | None:
    found = stored(tmp_path, "SELECT parked FROM reach WHERE game_id = ?", (game_id,))
    return found[0][0] if found else None


async def toy_table(env: simcord.Env, **clocks: str) -> Table:
    """Ana hosts a toy table with the given ``remind``/``timer`` options; Bob joins; it starts."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in ("ana", "bob")]
    lobby = response_of(await players[0].slash(channel, "game new", name="toy", **clocks)).message
    await players[1].click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    return Table(env, channel, players)


def live_boards(table: Table) -> list[Any]:
    return [m for m in table.messages() if playable(m)]


def answered_well(rules: DiscordRules) -> None:
    assert rules.unanswered() == [], "a click was never acknowledged"
    assert rules.late() == [], "a first answer came after three seconds"


async def test_a_table_thread_lasts_a_week_without_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        thread = env.backend.get_channel(table.thread.id)
        assert thread.thread_metadata is not None and thread.thread_metadata.auto_archive_duration == 10080
        assert not rules.archived(table.thread.id)


async def test_an_archived_thread_is_reopened_for_the_next_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        # Archived while the bot could not reopen it at once (it was down, or Discord was).
        env.inject_error("PATCH", f"/channels/{table.thread.id}", status=503, code=0, message="down", times=1)
        rules.archive(table.thread.id)
        await env.advance_time(1)
        assert rules.archived(table.thread.id)
        moved = await table.on_turn().click(board, label="Add 2")
        assert moved.acknowledged and not moved.ephemeral
        assert not rules.archived(table.thread.id), "the bot unarchived its thread"
        assert rules.answers[(400, safe.ARCHIVED)] >= 1, "Discord refused the edit in the archived thread"
        fresh = table.table_message()
        assert fresh.id != board.id and "move 1" in words_of(fresh)
        assert [m.id for m in live_boards(table)] == [fresh.id]
        assert [m.id for m in table.boards()] == [fresh.id], "the old board was folded"
        answered_well(rules)


async def test_an_edit_in_place_reopens_the_thread_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A knock leaves the same player waited on: the board is edited where it is."""
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        rules.archive(table.thread.id)
        knocked = await table.on_turn().click(board, label="Knock")
        assert knocked.acknowledged
        assert not rules.archived(table.thread.id)
        assert table.table_message().id == board.id and "knock" in words_of(table.table_message()).lower()
        answered_well(rules)


async def test_a_finished_tables_thread_is_archived_a_day_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        abandoned = await table.players[0].slash(table.thread, "game abandon")
        assert abandoned.acknowledged
        assert any("abandoned by ana" in words_of(m) for m in table.messages())
        await env.advance_time(HOUR)
        assert not rules.archived(table.thread.id), "the last words have a day"
        await env.advance_time(DAY)
        assert rules.archived(table.thread.id)
        assert stored(tmp_path, "SELECT archived_at IS NOT NULL FROM reach WHERE game_id = 1") == [(1,)]


async def test_at_the_thread_cap_a_new_table_plays_in_the_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        rules.occupy(guild.id, 1000)
        ana, bob = (guild.add_member(env.create_user(name)) for name in ("ana", "bob"))
        lobby = response_of(await ana.slash(channel, "game new", name="toy")).message
        await bob.click(lobby, label="Join")
        await ana.click(lobby, label="Start")
        assert channel.threads == []
        assert rules.answers[(400, safe.THREAD_CAP)] == 1
        assert any(playable(m) for m in channel.history()), "the table plays in the channel"
        answered_well(rules)


async def test_a_thread_that_cannot_be_reopened_reaches_its_players_directly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        rules.archive(table.thread.id)
        rules.occupy(board.guild.id if board.guild else 0, 1000)
        mover = table.on_turn()
        moved = await mover.click(board, label="Add 1")
        assert moved.acknowledged
        waiting = next(p for p in table.players if p.id != mover.id)
        dms = [words_of(m) for m in waiting.user.dm_channel.history() if "waits for you" in words_of(m)]
        assert len(dms) == 1 and f"/{table.thread.id}" in dms[0]
        host = table.players[0]
        told = [
            words_of(m) for m in host.user.dm_channel.history() if "limit of active threads" in words_of(m)
        ]
        assert len(told) == 1, "the host is told once"
        assert parked(tmp_path) is None
        await env.advance_time(3 * 60)  # the sweep tries the table again: nobody is told twice
        again = [m for m in waiting.user.dm_channel.history() if "waits for you" in words_of(m)]
        assert len(again) == 1
        answered_well(rules)


async def test_a_locked_thread_parks_the_table_and_tells_the_players_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await toy_table(env, remind="1h")
        before = len(env.http_requests)
        rules.lock(table.thread.id)
        await env.advance_time(1)
        assert parked(tmp_path) == "locked"
        notices = [m for m in table.channel.history() if "parked" in words_of(m)]
        assert len(notices) == 1 and "its thread was locked" in words_of(notices[0])
        assert all(f"<@{p.id}>" in words_of(notices[0]) for p in table.players)
        # Hours pass: no reminder, no timer, no call to the locked thread.
        await env.advance_time(3 * HOUR)
        assert stored(tmp_path, "SELECT version FROM games WHERE id = 1") == [(0,)]
        assert not any(
            str(table.thread.id) in entry.path
            for entry in env.http_requests[before:]
            if entry.method == "POST"
        )
        mine = await table.players[1].slash(table.channel, "game mine")
        assert "parked: its thread was locked" in words_of(mine.response)
        # A moderator unlocks it: the table comes back, and nobody was told twice.
        rules.unlock(table.thread.id)
        await env.advance_time(1)
        assert parked(tmp_path) is None
        assert len(live_boards(table)) == 1
        assert len([m for m in table.channel.history() if "parked" in words_of(m)]) == 1


async def test_a_deleted_thread_parks_the_table_and_game_show_brings_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        thread_id, channel = table.thread.id, table.channel
        rules.delete_channel(thread_id)
        await env.advance_time(1)
        assert parked(tmp_path) == "thread_gone"
        assert sum("its thread was deleted" in words_of(m) for m in channel.history()) == 1
        listed = await table.players[0].slash(channel, "game list")
        assert "parked: its thread was deleted" in words_of(listed.response)
        failing = rules.answers[(404, safe.UNKNOWN_CHANNEL)]
        await env.advance_time(2 * HOUR)  # sweeps and clocks pass it by
        assert rules.answers[(404, safe.UNKNOWN_CHANNEL)] == failing
        env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013, times=1)
        refused = await table.players[1].slash(channel, "game show", table=1)
        text = words_of(refused.followups[-1]) if refused.followups else words_of(refused.response)
        assert "could not be posted here" in text and "stays parked" in text
        assert parked(tmp_path) == "no_permission"
        shown = await table.players[1].slash(channel, "game show", table=1)
        text = words_of(shown.followups[-1]) if shown.followups else words_of(shown.response)
        assert "Here is table #1" in text
        assert parked(tmp_path) is None
        assert stored(tmp_path, "SELECT channel_id, thread_id FROM games WHERE id = 1") == [
            (channel.id, None)
        ]
        board = next(m for m in reversed(channel.history()) if playable(m))
        assert "move 0" in words_of(board)
        mover = next(p for p in table.players if f"<@{p.id}>" in words_of(board))
        moved = await mover.click(board, label="Add 1")
        assert moved.acknowledged and not moved.ephemeral
        assert stored(tmp_path, "SELECT version FROM games WHERE id = 1") == [(1,)]
        answered_well(rules)


async def test_a_server_that_removes_the_bot_costs_no_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, bot):
        table = await toy_table(env, remind="1h", timer="2h")
        guild_id = table.guild.id
        rules.remove_bot(guild_id)
        await env.advance_time(1)
        assert parked(tmp_path) == "guild_gone"
        for player in table.players:
            dms = [words_of(m) for m in player.user.dm_channel.history()]
            assert len(dms) == 1 and "the server it was played in removed the bot" in dms[0]
        invalid = rules.invalid
        await env.advance_time(3 * HOUR)
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        await env.advance_time(3 * HOUR)
        assert rules.invalid == invalid, "no call went to the vanished server"
        # Neither reminders nor the turn timer ran: nobody is there to see the game played out.
        assert stored(tmp_path, "SELECT status, version FROM games WHERE id = 1") == [("active", 0)]
        assert stored(tmp_path, "SELECT reminders, remind_due, timeout_due FROM waits") == [(0, None, None)]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_missing_permissions_park_the_table_after_one_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        env.inject_error("POST", f"/channels/{table.thread.id}/messages", status=403, code=50013, times=None)
        moved = await table.on_turn().click(board, label="Add 1")
        assert moved.acknowledged
        assert parked(tmp_path) == "no_permission"
        refused = rules.answers[(403, safe.MISSING_PERMISSIONS)]
        assert refused == 1, "one failing call, no retries"
        await env.advance_time(2 * HOUR)
        assert rules.answers[(403, safe.MISSING_PERMISSIONS)] == refused
        answered_well(rules)


async def test_an_undelivered_reminder_is_not_used_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, _rules, _bot):
        await toy_table(env, remind="2h")
        env.inject_error("POST", "/channels/*/messages", status=503, code=0, message="down", times=3)
        await env.advance_time(2 * HOUR + 60)
        assert stored(tmp_path, "SELECT reminders FROM waits") == [(0,)], "the failed reminder was given back"
        await env.advance_time(HOUR + 60)
        assert stored(tmp_path, "SELECT reminders FROM waits") == [(1,)]


async def test_a_click_is_answered_in_time_with_the_production_retry_delays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing answer, a failing edit and failing posts (the publisher waits 1 s, then 4 s,
    between its tries): the click is acknowledged before any wait, and the move is saved."""
    async with on_discord(tmp_path, monkeypatch) as (env, rules, bot):
        assert bot.publisher.retry_delays == (1.0, 4.0)
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        env.inject_error("POST", "/interactions/*/*/callback", status=500, code=0, message="down", times=2)
        env.inject_error("PATCH", "/channels/*/messages/*", status=500, code=0, message="down", times=1)
        env.inject_error("POST", "/channels/*/messages", status=503, code=0, message="down", times=3)
        moved = await table.on_turn().click(board, label="Add 2")
        assert moved.acknowledged
        assert stored(tmp_path, "SELECT version FROM games WHERE id = 1") == [(1,)]
        answered_well(rules)


async def test_a_callback_that_fails_once_still_answers_the_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        env.inject_error("POST", "/interactions/*/*/callback", status=500, code=0, message="down", times=1)
        moved = await table.on_turn().click(board, label="Add 2")
        assert moved.acknowledged and not moved.ephemeral
        assert len(live_boards(table)) == 1 and "move 1" in words_of(table.table_message())
        answered_well(rules)


async def test_too_many_old_edits_repost_the_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with on_discord(tmp_path, monkeypatch, Limits(old_edits_per_hour=1)) as (env, rules, bot):
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        await env.advance_time(2 * HOUR)
        with background():
            await bot.publisher.redraw(1)  # an old message edited: the one edit allowed this hour
            await bot.publisher.redraw(1)  # a second: 30046
        assert rules.answers[(400, safe.OLD_EDITS)] == 1
        fresh = table.table_message()
        assert fresh.id != board.id, "the board was posted anew"
        assert [m.id for m in table.boards()] == [fresh.id], "the old board was taken away"
        answered_well(rules)


async def test_the_guard_holds_background_work_back(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    ledger = safe.Ledger(rate=5, guard=3, clock=lambda: now[0])
    for _ in range(4):
        ledger.record(403, 50013)
    assert ledger.paused and not ledger.has_room()
    assert any(r.levelno == logging.ERROR and "guard" in r.getMessage() for r in caplog.records)

    called: list[int] = []

    async def call() -> int:
        called.append(1)
        return 1

    with background():
        held = await safe._call(ledger, call, "test")
    assert isinstance(held, safe.Failed) and held.code == safe.PAUSED and called == []
    assert await safe._call(ledger, call, "a click's answer") == 1, "answers to people are never held back"
    now[0] += 601
    assert not ledger.paused and ledger.has_room()


async def test_the_budget_paces_background_work() -> None:
    """In any second, at most ``rate`` pieces start: no burst after a quiet spell."""
    now = [0.0]
    ledger = safe.Ledger(rate=4, guard=100, clock=lambda: now[0])
    now[0] += 60  # a quiet minute saves nothing up
    started = []
    for step in range(16):  # two seconds, in eighths
        if ledger.has_room():
            ledger.spend()
            started.append(step)
        now[0] += 0.125
    assert started == [0, 2, 4, 6, 8, 10, 12, 14], "four a second, evenly, never a burst"
    assert ledger.has_room()
    for _ in range(3):
        ledger.spend()  # a piece of three calls runs two into debt: the next waits them out
    now[0] += 0.5
    assert not ledger.has_room()
    now[0] += 0.25
    assert ledger.has_room()
    assert json.dumps(ledger.report())


async def test_health_reports_each_processs_discord_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.storage.health import check

    async with on_discord(tmp_path, monkeypatch) as (env, rules, bot):
        table = await open_table(env, ["ana", "bob"])
        env.inject_error("POST", f"/channels/{table.thread.id}/messages", status=403, code=50013, times=1)
        await table.on_turn().click(table.table_message(), label="Add 1")
        await env.advance_time(150)  # the minutely task writes this process's figures
        report = await check(bot.store, now=bot.sessions.clock())
        figures = report["discord"]["process"]
        assert figures["fresh"] and not figures["paused"] and figures["guard"] == 1000
        assert figures["answers"]["200"] > 0 and figures["answers"]["403/50013"] == 1
        assert figures["invalid_10min"] == 1 == rules.invalid
        # A process whose guard is up makes the whole report unhealthy.
        paused = {**figures, "paused": True, "at": bot.sessions.clock()}
        await bot.store.set_meta("discord:shards 0 of 2", json.dumps(paused))
        assert not (await check(bot.store, now=bot.sessions.clock()))["ok"]


async def test_reminders_and_game_show_work_in_an_archived_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await toy_table(env, remind="2h")
        rules.archive(table.thread.id)
        await env.advance_time(2 * HOUR + 60)
        assert "has been waiting for you for 2 hours" in words_of(table.table_message())
        assert not rules.archived(table.thread.id), "the reminder's new board reopened the thread"
        assert stored(tmp_path, "SELECT reminders FROM waits") == [(1,)]
        rules.archive(table.thread.id)
        shown = await table.players[0].slash(table.channel, "game show", table=1)
        text = words_of(shown.followups[-1]) if shown.followups else words_of(shown.response)
        assert "Here is table #1" in text and not rules.archived(table.thread.id)
        assert len(live_boards(table)) == 1 and len(table.boards()) == 1
        answered_well(rules)


async def test_a_table_with_a_bot_plays_on_in_an_archived_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, bot):
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        lobby = response_of(await ana.slash(channel, "game new", name="toy")).message
        await ana.click(lobby, label="Add a bot")
        await ana.click(lobby, label="Start")
        await bot.bots.idle()
        table = Table(env, channel, [ana])
        rules.archive(table.thread.id)
        moved = await ana.click(table.table_message(), label="Add 1")
        assert moved.acknowledged
        await bot.bots.idle()
        await env.advance_time(1)
        assert not rules.archived(table.thread.id)
        assert stored(tmp_path, "SELECT COUNT(*) FROM actions WHERE seat = 1") >= [(1,)], "the bot moved"
        assert len(live_boards(table)) == 1
        answered_well(rules)


async def test_an_answer_tried_again_carries_its_picture_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(SimCord refuses an injected fault before it reads the upload, so this shows the board keeps
    its picture, not the rewinding itself that real Discord needs: ``safe.rewound``.)"""
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        env.inject_error("POST", "/interactions/*/*/callback", status=500, code=0, message="down", times=1)
        knocked = await table.on_turn().click(board, label="Knock")
        assert knocked.acknowledged
        edited = table.table_message()
        assert edited.id == board.id and len(edited.attachments) == 1
        picture = env.backend.cdn.get(edited.attachments[0].url)
        assert picture is not None and picture.startswith(b"\x89PNG") and len(picture) > 1000
        answered_well(rules)


class _Response:
    def __init__(self, answers: list[int]) -> None:
        self.answers = answers
        self.done = False

    def is_done(self) -> bool:
        return self.done


class _Click:
    """An interaction whose first answers fail with the given codes (0: succeeds)."""

    def __init__(self, *codes: int) -> None:
        self.id = 1
        self.client = None
        self.response = _Response(list(codes))
        self.followups = 0

    async def first(self) -> None:
        code = self.response.answers.pop(0) if self.response.answers else 0
        if code:
            status = {40060: 400, 10062: 404, 50013: 403}.get(code, 500)
            raise discord.HTTPException(_Raw(status), {"code": code, "message": "no"})
        self.response.done = True

    async def later(self) -> None:
        self.followups += 1


@dataclass
class _Raw:
    status: int
    reason: str = "no"


@pytest.mark.parametrize(
    ("codes", "answered", "followups"),
    [
        ((0,), True, 0),
        ((500, 0), True, 0),  # a passing failure is tried once more
        ((500, 500), True, 1),  # then it may have reached Discord all the same: a followup
        ((40060,), True, 1),  # already acknowledged: a followup
        ((10062,), False, 0),  # too late: nothing can answer it now, and nothing pretends to
        ((50013,), False, 0),
    ],
)
async def test_a_first_answer_that_fails(codes: tuple[int, ...], answered: bool, followups: int) -> None:
    click: Any = _Click(*codes)
    assert await safe._respond(click, click.first, click.later, "answer") is answered
    assert click.followups == followups


async def test_in_a_server_at_the_cap_a_finished_thread_is_archived_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        guild_id = table.guild.id
        rules.occupy(guild_id, 999)  # with the table's own thread, the server is at its cap
        ana = table.players[0]
        await ana.slash(table.channel, "game new", name="toy")  # its thread is refused: 160006
        assert rules.answers[(400, safe.THREAD_CAP)] == 1
        await ana.slash(table.thread, "game abandon", table=1)
        assert rules.archived(table.thread.id), "its place under the cap is given back at once"
        assert rules.active_threads(guild_id) == 999


async def test_a_restart_into_stranded_tables_reposts_them_at_the_budgets_pace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, bot):
        bot.publisher.retry_delays = ()
        tables = [await open_table(env, ["ana", "bob"]) for _ in range(4)]
        env.inject_error("POST", "/channels/*/messages", status=503, code=0, message="down", times=None)
        for table in tables:
            assert (await table.on_turn().click(table.table_message(), label="Add 1")).acknowledged
        env.backend.faults.clear()
        assert not any(live_boards(table) for table in tables), "every table is stranded"
        fresh = make_bot(tmp_path)
        fresh.ledger = safe.Ledger(rate=2, guard=1000)
        await env.restart_bot(fresh)
        assert fresh.publisher.backlog, "two calls a second: the first sweep could not do them all"
        await env.advance_time(10)
        assert all(len(live_boards(table)) == 1 for table in tables), "all back within seconds"
        assert not fresh.publisher.backlog
        answered_well(rules)


async def test_a_running_tables_thread_archived_after_a_quiet_week_is_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        rules.archive(table.thread.id)  # as Discord does after a week without a message
        await env.advance_time(1)
        assert not rules.archived(table.thread.id), "the table's thread is open again"
        assert len(live_boards(table)) == 1
        rules.lock(table.thread.id)
        rules.archive(table.thread.id)  # a moderator locked and closed it: left as it is
        await env.advance_time(1)
        assert rules.archived(table.thread.id) and parked(tmp_path) == "locked"


async def test_a_direct_message_counts_every_request_it_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, bot):
        table = await open_table(env, ["ana", "bob"])
        bob = table.players[1]
        counted, made = sum(bot.ledger.answers.values()), rules.requests
        with background():
            assert await safe.direct(bot, bob.id, "hello") is True
        assert sum(bot.ledger.answers.values()) - counted == rules.requests - made >= 2
        assert [words_of(m) for m in bob.user.dm_channel.history()] == ["hello"]


async def test_a_finished_table_in_a_server_that_removed_the_bot_costs_no_archiving_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with on_discord(tmp_path, monkeypatch) as (env, rules, _bot):
        table = await open_table(env, ["ana", "bob"])
        guild_id = table.guild.id
        await table.players[0].slash(table.thread, "game abandon")
        rules.remove_bot(guild_id)
        await env.advance_time(DAY + 3 * 60)
        assert stored(tmp_path, "SELECT archived_at IS NOT NULL FROM reach WHERE game_id = 1") == [(1,)]
        assert rules.invalid == 0
