"""The bot's background work: once a minute, check the database file and repair tables; and the
clock, which fires reminders and turn timers as they fall due.

Thin by design (the work is :meth:`bot.ui.publisher.Publisher.sweep`,
:class:`bot.services.upkeep.Upkeep` and :meth:`bot.services.scheduler.Scheduler.tick`); this cog only
owns the loops.  Each tick catches everything, so one bad minute never ends a loop.

Both are ``discord.ext.tasks`` loops, whose sleeps SimCord recognises and moves only with
``advance_time``: a test drives reminders and timeouts through virtual hours, restarts included.
"""

from __future__ import annotations

import datetime
import logging
from typing import cast

import discord
from discord.ext import commands, tasks

from bot.services.background import background
from bot.services.upkeep import Upkeep
from bot.storage import StoreError
from bot.ui.host import Host

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0
"""How often: a deleted database is noticed, and a stranded table reposted, within a minute."""
BACKLOG_SECONDS = 1.0
"""How soon the sweep comes back when Discord's budget stopped it with tables still to repost
(after a restart into many stranded tables, say): they go out at the budget's pace, not one a minute."""

CLOCK_LONGEST = 60.0
"""The clock sleeps until the next deadline, but never longer: a deadline written by another
process, or by hand, is seen within a minute."""
CLOCK_SHORTEST = 1.0
"""…and never less, so a deadline that keeps failing costs a query a second, not a busy loop."""


class TasksCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.upkeep = Upkeep(bot.sessions)
        self.ticks = 0
        self.fired = 0
        """Deadlines the clock has fired since start (for tests and logs)."""
        self.checked = False
        """Whether the database's integrity check has run since start (the first minutely tick
        runs it, after ready: start-up no longer waits for it, issue 25)."""

    async def cog_load(self) -> None:
        self.minutely.start()
        self.bot.scheduler.on_wake(self.wake)
        self.clock.start()

    async def cog_unload(self) -> None:
        self.minutely.cancel()
        self.clock.cancel()

    # -- the clock ---------------------------------------------------------------------------------

    @tasks.loop(seconds=CLOCK_LONGEST)
    async def clock(self) -> None:
        """Fire what is due, then sleep until the next deadline (its first run is at start, so a
        deadline that passed while the bot was down fires once, now)."""
        delay = CLOCK_LONGEST
        try:
            if self.upkeep.problem() is None:
                with background():
                    self.fired += await self.bot.scheduler.tick()
                delay = self.bot.scheduler.delay(self.bot.sessions.clock(), CLOCK_LONGEST)
        except StoreError as exc:
            log.error("clock: database error: %s", exc)
        except Exception:
            log.exception("clock tick failed")
        self._sleep_for(max(CLOCK_SHORTEST, delay))

    def _sleep_for(self, seconds: float) -> None:
        """Set the loop's next wake-up ``seconds`` from now (it counts from the iteration's start)."""
        started = self.clock.next_iteration
        if started is None:
            return
        started -= datetime.timedelta(seconds=self._interval())
        target = discord.utils.utcnow() + datetime.timedelta(seconds=seconds)
        self.clock.change_interval(seconds=max(0.0, (target - started).total_seconds()))

    def _interval(self) -> float:
        return (
            float(self.clock.seconds or 0)
            + 60.0 * float(self.clock.minutes or 0)
            + 3600.0 * float(self.clock.hours or 0)
        )

    def wake(self, at: float) -> None:
        """Wake for a deadline at ``at`` (the host's clock) if the loop would sleep past it."""
        planned = self.clock.next_iteration
        if planned is None or not self.clock.is_running():
            return
        wanted = discord.utils.utcnow() + datetime.timedelta(seconds=max(0.0, at - self.bot.sessions.clock()))
        if wanted < planned:
            self._sleep_for(max(0.0, (wanted - discord.utils.utcnow()).total_seconds()))

    @clock.before_loop
    async def _clock_ready(self) -> None:
        await self.bot.wait_until_ready()

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def minutely(self) -> None:
        self.ticks += 1
        try:
            if not self.checked:
                self.checked = True
                damaged = await self.upkeep.check_integrity()  # on its own connection: clicks go on
                if damaged is not None:
                    log.error("database integrity check failed: %s", damaged)
            problem = self.upkeep.problem()
            if problem is not None:
                await self.upkeep.rescue()  # once: keep what was acknowledged, or name what is lost
                return  # logged once by the store; sweeping would only fail again
            await self.bot.publisher.sweep()
            backlog = self.bot.publisher.backlog
            self.minutely.change_interval(seconds=BACKLOG_SECONDS if backlog else SWEEP_SECONDS)
            if backlog:
                return  # the rest of the sweep first; the rest of the minute's work after it
            await self.bot.publisher.reach.archive_finished()
            await self.report()
        except StoreError as exc:
            log.error("minutely sweep: database error: %s", exc)
        except Exception:
            log.exception("minutely sweep failed")

    async def report(self) -> None:
        """This process's Discord figures, for ``python -m bot health``."""
        shards = self.bot.settings.shards
        key = f"discord:{'shards ' + str(shards) if shards is not None else 'process'}"
        figures = {"at": self.bot.sessions.clock(), **self.bot.ledger.report()}
        await self.upkeep.report(key, figures)

    @minutely.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TasksCog(cast(Host, bot)))
