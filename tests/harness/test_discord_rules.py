"""The Discord rules layer (``harness/discord_rules.py``) enforces each rule through discord.py's code path.

A tiny bot of our own (one slash command family and three buttons) runs in SimCord on the layer;
each test shows the exact ``discord.HTTPException`` status and code the bot sees, so no suite on
top of the layer can pass on a kinder Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

import discord
import pytest
import simcord
from discord import app_commands
from simcord.http import router as sim_router

from harness.discord_rules import DiscordRules, Enforcement, Limits, enforce, rules_for

# -- a tiny bot ----------------------------------------------------------------------------------


class Buttons(discord.ui.View):
    """Edit answers by editing the clicked message (type 7), Ack only acknowledges (type 6), Whisper
    answers ephemerally."""

    def __init__(self, bot: RulesBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Edit", custom_id="rules:edit")
    async def edit(self, interaction: discord.Interaction, _: discord.ui.Button[Buttons]) -> None:
        await self.bot.guard(interaction.response.edit_message(content="edited"))

    @discord.ui.button(label="Ack", custom_id="rules:ack")
    async def ack(self, interaction: discord.Interaction, _: discord.ui.Button[Buttons]) -> None:
        await self.bot.guard(interaction.response.defer())

    @discord.ui.button(label="Whisper", custom_id="rules:whisper")
    async def whisper(self, interaction: discord.Interaction, _: discord.ui.Button[Buttons]) -> None:
        await self.bot.guard(interaction.response.send_message("psst", ephemeral=True))


class RulesBot(discord.Client):
    """``/ping`` answers (after ``delay`` seconds, twice when ``twice``) and keeps the interaction;
    Discord's refusals are kept in ``failures`` instead of failing the test at teardown."""

    def __init__(self, *, max_ratelimit_timeout: float | None = None) -> None:
        super().__init__(intents=discord.Intents.default(), max_ratelimit_timeout=max_ratelimit_timeout)
        self.tree = app_commands.CommandTree(self)
        self.failures: list[discord.HTTPException] = []
        self.delay = 0.0
        self.twice = False
        self.last: discord.Interaction | None = None

        @self.tree.command(name="ping", description="pong")
        async def ping(interaction: discord.Interaction) -> None:
            self.last = interaction
            if self.delay:
                await asyncio.sleep(self.delay)
            await self.guard(interaction.response.send_message("pong"))
            if self.twice:  # as a second process holding the same interaction would
                await self.guard(discord.InteractionResponse(interaction).send_message("again"))

    async def setup_hook(self) -> None:
        self.add_view(Buttons(self))

    async def guard(self, call: Awaitable[Any]) -> None:
        try:
            await call
        except discord.HTTPException as error:
            self.failures.append(error)


@dataclass
class World:
    env: simcord.Env
    bot: RulesBot
    rules: DiscordRules
    guild: Any
    channel: Any
    ana: Any

    @property
    def text(self) -> discord.TextChannel:
        channel = self.bot.get_channel(self.channel.id)
        assert isinstance(channel, discord.TextChannel)
        return channel

    async def thread(self, minutes: Literal[60, 1440, 4320, 10080] = 1440) -> discord.Thread:
        return await self.text.create_thread(
            name="table", type=discord.ChannelType.public_thread, auto_archive_duration=minutes
        )

    def handle(self, thread: discord.Thread) -> Any:
        return next(t for t in self.channel.threads if t.id == thread.id)

    def cached(self, thread: discord.Thread) -> discord.Thread:
        cached = self.bot.get_channel(thread.id)
        assert isinstance(cached, discord.Thread)
        return cached


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Enforcement]:
    """``layer(Limits(...))`` puts every SimCord env of this test on the rules; undone after it."""
    return lambda limits=None: enforce(monkeypatch, limits)


@asynccontextmanager
async def world(bot: RulesBot | None = None) -> AsyncIterator[World]:
    bot = bot or RulesBot()
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        yield World(env, bot, rules_for(env), guild, channel, ana)


async def refused(call: Awaitable[Any]) -> tuple[int, int]:
    """The status and Discord code a call was refused with."""
    with pytest.raises(discord.HTTPException) as caught:
        await call
    return caught.value.status, caught.value.code


MINUTE = 60.0


# -- 1, 2, 3: archiving, archived threads, unarchiving --------------------------------------------


async def test_a_thread_archives_after_its_duration_without_a_new_message(layer: Any) -> None:
    layer()
    async with world() as w:
        hour, day = await w.thread(60), await w.thread(1440)
        sent = await hour.send("board")
        cached = w.cached(hour)
        await w.env.advance_time(50 * MINUTE)
        await sent.edit(content="edited")  # an edit is not activity
        await w.env.advance_time(9 * MINUTE)
        assert not w.rules.archived(hour.id)
        await w.env.advance_time(2 * MINUTE)
        assert w.rules.archived(hour.id) and not w.rules.archived(day.id)
        assert cached.archived, "THREAD_UPDATE reached discord.py's cache"
        assert w.bot.get_channel(hour.id) is None, "which drops archived threads"
        meta = w.env.backend.channels[hour.id].thread_metadata
        assert meta is not None and meta.archive_timestamp == "2026-01-01T01:00:00+00:00"
        await w.env.advance_time(1380 * MINUTE)
        assert w.rules.archived(day.id)


async def test_nothing_in_an_archived_thread_can_be_edited(layer: Any) -> None:
    layer()
    async with world() as w:
        thread = await w.thread()
        board = await thread.send("board", view=Buttons(w.bot))
        await w.ana.slash(w.handle(thread), "ping")
        original = await w.bot.last.original_response() if w.bot.last else None
        assert original is not None
        w.rules.archive(thread.id)
        assert await refused(board.edit(content="x")) == (400, 50083)
        assert await refused(board.delete()) == (400, 50083)
        assert await refused(board.add_reaction("👍")) == (400, 50083)
        assert await refused(board.pin()) == (400, 50083)
        assert await refused(original.edit(content="x")) == (400, 50083)  # PATCH .../@original
        stored = w.handle(thread).history()[0]
        clicked = await w.ana.click(stored, label="Edit")  # callback type 7 UPDATE_MESSAGE
        assert not clicked.acknowledged and [(e.status, e.code) for e in w.bot.failures] == [(400, 50083)]
        assert (await w.ana.click(stored, label="Ack")).acknowledged  # type 6 is allowed
        whisper = await w.ana.click(stored, label="Whisper")
        assert whisper.acknowledged and whisper.ephemeral
        assert w.rules.archived(thread.id), "neither acknowledging nor whispering unarchives"
        assert len(w.bot.failures) == 1


async def test_a_new_message_unarchives_a_thread(layer: Any) -> None:
    layer()
    async with world() as w:
        thread = await w.thread()
        await w.ana.slash(w.handle(thread), "ping")
        w.rules.archive(thread.id)
        await thread.send("a new move")
        assert not w.rules.archived(thread.id) and not w.cached(thread).archived
        w.rules.archive(thread.id)
        assert w.bot.last is not None
        await w.bot.last.followup.send("whisper", ephemeral=True)
        assert w.rules.archived(thread.id), "an ephemeral followup is not a message in the thread"
        await w.bot.last.followup.send("said aloud")
        assert not w.rules.archived(thread.id)
        await w.env.advance_time(1439 * MINUTE)
        assert not w.rules.archived(thread.id), "unarchiving restarted the clock"


# -- 4, 5: locked threads, the active-thread cap --------------------------------------------------


async def test_a_locked_thread_refuses_the_bot_without_manage_threads(layer: Any) -> None:
    layer()
    async with world() as w:
        thread = await w.thread()
        sent = await thread.send("board")
        w.rules.lock(thread.id)
        assert w.rules.locked(thread.id) and w.cached(thread).locked
        assert await refused(thread.send("move")) == (403, 160005)
        assert await refused(sent.edit(content="x")) == (403, 160005)
        w.rules.archive(thread.id)
        assert await refused(thread.edit(archived=False)) == (403, 160005)
        assert await refused(thread.send("move")) == (403, 160005)
        await w.ana.send(w.handle(thread), "a member's message lands but does not unarchive it")
        assert w.rules.archived(thread.id)
        w.rules.unlock(thread.id)
        await thread.send("move")
        assert not w.rules.archived(thread.id)


async def test_a_moderator_bot_may_write_in_a_locked_thread(layer: Any) -> None:
    layer(Limits(bot_manages_threads=True))
    async with world() as w:
        thread = await w.thread()
        w.rules.lock(thread.id)
        w.rules.archive(thread.id)
        await thread.send("move")
        assert not w.rules.archived(thread.id) and w.rules.locked(thread.id)


async def test_the_active_thread_cap_refuses_creating_and_unarchiving(layer: Any) -> None:
    layer()
    async with world() as w:
        w.rules.set_thread_cap(w.guild.id, 3)
        w.rules.occupy(w.guild.id, 1)
        first, _ = await w.thread(), await w.thread()
        assert w.rules.active_threads(w.guild.id) == 3
        assert await refused(w.thread()) == (400, 160006)
        starter = await w.text.send("from a message")
        assert await refused(starter.create_thread(name="t")) == (400, 160006)
        w.rules.archive(first.id)
        third = await w.thread()
        assert await refused(first.send("move")) == (400, 160006)
        assert await refused(first.edit(archived=False)) == (400, 160006)
        await third.edit(archived=True)
        await first.send("move")
        assert not w.rules.archived(first.id) and w.rules.active_threads(w.guild.id) == 3


# -- 6, 7: rate limits, invalid requests ------------------------------------------------------------


async def test_a_burst_hits_the_global_limit_and_is_retried_like_discord_py(layer: Any) -> None:
    layer(Limits(routes={"POST /channels/{channel_id}/messages": (100, 1.0)}))
    async with world() as w:
        start = time.perf_counter()
        sent = await asyncio.gather(*(w.text.send(f"m{i}") for i in range(60)))
        assert len({m.id for m in sent}) == 60 and len(w.channel.history()) == 60
        limited = [p for kind, name, p in w.env.backend.transcript if kind == "RULES" and name == "429 0"]
        assert len(limited) >= 10 and all(p["global"] and 0 < p["retry_after"] <= 1 for p in limited)
        assert w.rules.answers[(429, 0)] == len(limited) and w.rules.invalid == len(limited)
        assert w.rules.peak_rps >= 50 and time.perf_counter() - start >= min(
            p["retry_after"] for p in limited
        )
        assert w.rules.requests == len(w.env.http_requests)  # refused ones are in the log too


async def test_a_route_bucket_is_per_channel_and_its_429_is_retried(layer: Any) -> None:
    layer(Limits(route=(2, 0.5), client_waits=False))
    async with world() as w:
        other = w.guild.create_text_channel("other")
        elsewhere = w.bot.get_channel(other.id)
        assert isinstance(elsewhere, discord.TextChannel)
        await w.text.send("1")
        await w.text.send("2")
        await elsewhere.send("another channel, another bucket")
        assert w.rules.answers[(429, 0)] == 0
        await w.text.send("3")  # 429, slept, retried
        assert w.rules.answers[(429, 0)] == 1 and len(w.channel.history()) == 3


async def test_discord_py_waits_on_an_exhausted_bucket_or_gives_up_past_its_timeout(layer: Any) -> None:
    layer(Limits(route=(1, 0.3)))
    async with world() as w:
        start = time.perf_counter()
        await w.text.send("1")
        await w.text.send("2")  # waited for the reset instead of spending a 429
        assert w.rules.answers[(429, 0)] == 0 and len(w.channel.history()) == 2
        assert time.perf_counter() - start >= 0.25
    layer(Limits(route=(1, 60.0)))
    async with world(RulesBot(max_ratelimit_timeout=30.0)) as w:
        await w.text.send("1")
        with pytest.raises(discord.RateLimited):
            await w.text.send("2")


async def test_interaction_routes_are_not_bound_by_the_global_limit(layer: Any) -> None:
    layer(Limits(global_per_second=1))
    async with world() as w:
        await w.ana.slash(w.channel, "ping")  # SimCord syncs the commands (a globally limited PUT)
        await w.env.advance_time(1.5)
        limited = w.rules.answers[(429, 0)]
        await w.text.send("spends the global bucket")
        result = await w.ana.slash(w.channel, "ping")
        assert result.acknowledged and w.rules.answers[(429, 0)] == limited


async def test_invalid_requests_are_counted_in_a_rolling_window_and_ban_the_bot(layer: Any) -> None:
    layer(Limits(ban_at=3))
    async with world() as w:
        text = w.text
        w.rules.remove_bot(w.guild.id)
        for _ in range(3):
            assert await refused(text.send("x")) == (403, 50001)
        assert w.rules.invalid == 3 and w.rules.invalid_peak == 3
        other = w.env.create_guild().create_text_channel("elsewhere")
        assert await refused(w.bot.get_partial_messageable(other.id).send("x")) == (429, 0)  # banned
        await w.env.advance_time(601)
        assert w.rules.invalid == 0 and w.rules.invalid_peak == 3
        await w.bot.get_partial_messageable(other.id).send("the ban is over")


# -- 8: edits of old messages ---------------------------------------------------------------------


async def test_edits_of_messages_older_than_an_hour_are_rationed_per_channel(layer: Any) -> None:
    layer(Limits(old_edits_per_hour=2, route=(50, 5.0)))
    async with world() as w:
        old = await w.text.send("old")
        await w.env.advance_time(61 * MINUTE)
        young = await w.text.send("young")
        await old.edit(content="1")
        await old.edit(content="2")
        assert await refused(old.edit(content="3")) == (400, 30046)
        for n in range(4):
            await young.edit(content=str(n))
        await w.env.advance_time(61 * MINUTE)
        await old.edit(content="an hour later")


# -- 9: interaction timing ------------------------------------------------------------------------


async def test_a_first_response_after_three_seconds_is_refused_and_listed(layer: Any) -> None:
    layer()
    async with world() as w:
        quick = await w.ana.slash(w.channel, "ping")
        assert quick.acknowledged
        w.bot.delay = 5.0
        slow = await w.ana.slash(w.channel, "ping")
        await w.env.advance_time(5)
        assert not slow.acknowledged
        assert [(e.status, e.code) for e in w.bot.failures] == [(404, 10062)]
        first, late = w.rules.interactions
        assert first.kind == "slash" and first.latency is not None and first.latency < 3 and not first.late
        assert late.late and late.latency is None
        assert w.rules.late() == [late] and w.rules.unanswered() == [late]
        assert w.bot.last is not None  # the missed deadline invalidated the token
        assert await refused(w.bot.last.followup.send("sorry")) == (404, 10015)
        board = await w.text.send("board", view=Buttons(w.bot))
        w.bot.delay, w.bot.twice = 0.0, True
        await w.ana.click(w.channel.history()[-1], label="Ack")
        assert w.rules.interactions[-1].kind == "button" and board.id
        await w.ana.slash(w.channel, "ping")
        assert w.bot.failures[-1].code == 40060 and w.rules.answers[(400, 40060)] == 1


async def test_a_token_lasts_fifteen_minutes(layer: Any) -> None:
    layer()
    async with world() as w:
        await w.ana.slash(w.channel, "ping")
        interaction = w.bot.last
        assert interaction is not None
        await interaction.followup.send("within the quarter hour")
        await w.env.advance_time(901)
        assert await refused(interaction.followup.send("too late")) == (401, 50027)
        assert await refused(interaction.edit_original_response(content="x")) == (401, 50027)


# -- 10: counters ---------------------------------------------------------------------------------


async def test_every_answer_is_counted_by_status_and_code(layer: Any) -> None:
    layer()
    async with world() as w:
        before = w.rules.requests
        thread = await w.thread()
        await thread.send("ok")
        w.rules.lock(thread.id)
        await refused(thread.send("no"))
        assert w.rules.requests - before == 3
        assert w.rules.answers[(200, 0)] >= 2 and w.rules.answers[(403, 160005)] == 1


# -- world actions, installing --------------------------------------------------------------------


async def test_deleted_channels_and_a_removed_bot_fail_as_on_discord(layer: Any) -> None:
    layer()
    async with world() as w:
        thread = await w.thread()
        text = w.text
        w.rules.delete_channel(w.channel.id)
        await w.env.settle()
        assert w.bot.get_channel(thread.id) is None and w.bot.get_channel(text.id) is None
        assert await refused(thread.send("x")) == (404, 10003)
        assert await refused(text.send("x")) == (404, 10003)
        kept = w.guild.create_text_channel("kept")
        channel = w.bot.get_channel(kept.id)
        assert isinstance(channel, discord.TextChannel)
        w.rules.remove_bot(w.guild.id)
        await w.env.settle()
        assert w.bot.get_guild(w.guild.id) is None
        assert await refused(channel.send("x")) == (403, 50001)


async def test_the_rules_survive_a_restart(layer: Any) -> None:
    layer()
    async with world() as w:
        thread = await w.thread(60)
        await w.env.advance_time(61 * MINUTE)
        requests = w.rules.requests
        second = RulesBot()
        await w.env.restart_bot(second)
        assert rules_for(w.env) is w.rules and w.rules.archived(thread.id)
        again = await second.fetch_channel(thread.id)
        assert isinstance(again, discord.Thread) and again.archived
        assert await refused(again.edit(name="renamed")) == (400, 50083)
        assert w.rules.requests == requests + 3  # the new login, the fetch, the refused edit


async def test_bots_on_one_backend_share_the_rules(layer: Any) -> None:
    layer()
    async with world() as w:
        thread = await w.thread(60)
        await w.env.advance_time(61 * MINUTE)
    bot = RulesBot()
    other = simcord.Env(bot, strict_sync=False)
    other.backend = w.env.backend  # a second process on the same Discord
    assert DiscordRules.install(other) is w.rules and rules_for(other) is w.rules
    requests = w.rules.requests
    await other.start()
    try:
        again = await bot.fetch_channel(thread.id)
        assert isinstance(again, discord.Thread)
        assert await refused(again.edit(name="renamed")) == (400, 50083)
    finally:
        await other.shutdown()
    assert w.rules.requests > requests and w.rules.answers[(400, 50083)] == 1


CLOSED = Limits(thread_cap=0)
"""Limits no other test uses: a backend still on them after their switch is off would be a leak."""


def plain_env(bot: RulesBot) -> simcord.Env:
    """An env on plain SimCord, whatever switch is on (``tests/conftest.py`` puts every test on one)."""
    env = simcord.Env(bot, strict_sync=False)
    with contextlib.suppress(LookupError):
        rules_for(env).uninstall()
    return env


async def test_the_switch_is_undone_and_install_works_alone() -> None:
    with enforce(None, CLOSED) as switch:
        inside = simcord.Env(RulesBot())
        assert rules_for(inside).limits is CLOSED and switch.made == [rules_for(inside)]
        assert sim_router.dispatch.__module__ == "harness.discord_rules"
    with pytest.raises(LookupError):
        rules_for(inside)
    later = simcord.Env(RulesBot())
    with contextlib.suppress(LookupError):
        assert rules_for(later).limits is not CLOSED
        rules_for(later).uninstall()
    assert sim_router.dispatch.__module__ == "simcord.http.router"
    bot = RulesBot()
    env = plain_env(bot)
    await env.start()
    try:
        rules = DiscordRules.install(env, CLOSED)
        channel = env.create_guild().create_text_channel("games")
        text = bot.get_channel(channel.id)
        assert isinstance(text, discord.TextChannel)
        thread = text.create_thread(name="t", type=discord.ChannelType.public_thread)
        assert await refused(thread) == (400, 160006)
        rules.uninstall()
        await text.create_thread(name="t", type=discord.ChannelType.public_thread)
    finally:
        await env.shutdown()
    assert sim_router.dispatch.__module__ == "simcord.http.router"


def test_nothing_leaks_between_tests() -> None:
    """No rules object outlives its test: SimCord's dispatch is its own again, and a new env is not
    on another test's limits."""
    assert sim_router.dispatch.__module__ == "simcord.http.router"
    env = simcord.Env(RulesBot())
    with contextlib.suppress(LookupError):
        assert rules_for(env).limits is not CLOSED
