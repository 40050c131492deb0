"""What Discord tells the bot about the places its tables live in.

A server that removes the bot, a deleted thread or channel, a thread a moderator locks: each
parks the tables that were there at once (:class:`bot.ui.reach.Reach`), so not one call is spent
on a place that can only refuse it.  A thread unlocked again brings its tables back, and a
running table's thread that Discord archives after a quiet week is opened again.

Thin by design: the work is in :mod:`bot.ui.reach`; this cog only listens.
"""

from __future__ import annotations

import logging
from typing import cast

import discord
from discord.ext import commands

from bot.services.background import background
from bot.services.reach import ReachService
from bot.storage import StoreError
from bot.ui import safe
from bot.ui.host import Host

log = logging.getLogger(__name__)


class ReachCog(commands.Cog):
    def __init__(self, bot: Host, client: discord.Client) -> None:
        self.bot = bot
        self.client = client
        """The same bot as discord.py's client, for the one raw call (reopening a thread)."""
        self.places = ReachService(bot.sessions)

    async def _vanished(
        self, what: str, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> None:
        try:
            with background():
                parked = await self.bot.publisher.reach.vanished(guild_id=guild_id, channel_id=channel_id)
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
            running = await self.places.running_tables_in_channel(thread_id)
            if not running or await self.places.parked(running[0].id):
                return
            with background():
                reopened = await safe.set_archived(self.client, thread_id, False)
            guild_id = running[0].guild_id
            if (
                isinstance(reopened, safe.Failed)
                and reopened.code == safe.THREAD_CAP
                and guild_id is not None
            ):
                self.bot.publisher.reach.crowded.add(guild_id)
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
        reach = self.bot.publisher.reach
        try:
            with background():
                for row in await self.places.open_tables_in_channel(payload.thread_id):
                    game = await self.bot.sessions.load(row.id)
                    parked = await self.places.parked(row.id)
                    if metadata["locked"] and parked is None:
                        await reach.park(game, "locked")
                    elif not metadata["locked"] and parked == "locked":
                        await reach.unpark(game)
                        await self.bot.publisher.repair(row.id)
        except StoreError as exc:
            log.error("thread %s changed; its tables could not be updated: %s", payload.thread_id, exc)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ReachCog(cast(Host, bot), bot))
