"""The bot's background work: once a minute, check the database file and repair tables.

Thin by design (the work is :meth:`bot.ui.publisher.Publisher.sweep` and
:meth:`bot.store.Store.health`); this cog only owns the loop.  Each tick
catches everything, so one bad minute never ends the loop.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.store import StoreError

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0
"""How often: a deleted database is noticed, and a stranded table reposted, within a minute."""


class TasksCog(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.ticks = 0

    async def cog_load(self) -> None:
        self.minutely.start()

    async def cog_unload(self) -> None:
        self.minutely.cancel()

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def minutely(self) -> None:
        self.ticks += 1
        if self.ticks == 1:
            return  # on_ready has just done the same sweep
        try:
            problem = self.bot.store.health()
            if problem is not None:
                return  # logged once by the store; sweeping would only fail again
            await self.bot.tables.sweep()
        except StoreError as exc:
            log.error("minutely sweep: database error: %s", exc)
        except Exception:
            log.exception("minutely sweep failed")

    @minutely.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: GameBot) -> None:
    await bot.add_cog(TasksCog(bot))
