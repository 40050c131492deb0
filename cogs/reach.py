"""What Discord tells the bot about the places its tables live in.

A server that removes the bot, a deleted thread or channel, a thread a moderator locks: each
parks the tables that were there at once (:class:`bot.ui.reach.Reach`), so not one call is spent
on a place that can only refuse it.  A thread unlocked again brings its tables back, and a
running table's thread that Discord archives after a quiet week is opened again.

Thin by design: the work is in :mod:`bot.ui.reach`; this cog only listens.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.services.background import background
from bot.storage import OPEN_STATUSES, GameStatus, StoreError
from bot.ui import safe

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)


class ReachCog(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def _vanished(
        self, what: str, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> None:
        try:
            with background():
                parked = await self.bot.tables.reach.vanished(guild_id=guild_id, channel_id=channel_id)
        except StoreError as exc:
            log.error("%s: its tables could not be parked: %s", what, exc)
            return
        if parked:
            log.warning("%s: %d table(s) parked", what, parked)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._vanished(f"server {guild.id} removed the bot", guild_id=guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._vanished(f"thread {payload.thread_id} was deleted", channel_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._vanished(f"channel {channel.id} was deleted", channel_id=channel.id)

    async def _keep_open(self, thread_id: int) -> None:
        """A running table's thread archived after a quiet week is opened again at once: the
        table lives there, and its players find it among the active threads."""
        try:
            running = await self.bot.store.games_in_channel(thread_id, (GameStatus.ACTIVE,))
            if not running or (await self.bot.store.reach(running[0].id)).parked:
                return
            with background():
                reopened = await safe.set_archived(self.bot, thread_id, False)
            guild_id = running[0].guild_id
            if (
                isinstance(reopened, safe.Failed)
                and reopened.code == safe.THREAD_CAP
                and guild_id is not None
            ):
                self.bot.tables.reach.crowded.add(guild_id)
        except StoreError as exc:
            log.error("thread %s archived; its table could not be looked up: %s", thread_id, exc)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread locked parks its tables (a locked thread takes no message from the bot); one
        unlocked again brings back the tables it had parked for that."""
        metadata = payload.data.get("thread_metadata", {})
        if "locked" not in metadata:
            return
        if metadata.get("archived") and not metadata["locked"]:
            await self._keep_open(payload.thread_id)
        reach = self.bot.tables.reach
        store = self.bot.store
        try:
            with background():
                for row in await store.games_in_channel(payload.thread_id, OPEN_STATUSES):
                    game = await self.bot.sessions.load(row.id)
                    parked = (await store.reach(row.id)).parked
                    if metadata["locked"] and parked is None:
                        await reach.park(game, "locked")
                    elif not metadata["locked"] and parked == "locked":
                        await reach.unpark(game)
                        await self.bot.tables.repair(row.id)
        except StoreError as exc:
            log.error("thread %s changed; its tables could not be updated: %s", payload.thread_id, exc)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ReachCog(bot))
