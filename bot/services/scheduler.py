"""The host's clock work: deadlines are rows, and ``tick(now)`` fires each due one exactly once.

Where time comes from: one clock, ``SessionService.clock`` (the bot's reads Discord's, which
SimCord moves in tests); engines never read one.  What is due lives in the ``waits`` table, written
in the same transaction as the move that causes it (:mod:`bot.services.deadlines`), so a restart
loses none and a deadline that passed while the bot was down is simply due at the first tick.

Exactly once, per kind:

- a reminder is claimed by a conditional UPDATE before it is sent (:mod:`bot.services.reminders`);
- a timeout is a move, committed under the game's lock behind the version guard, and its commit
  replaces the wait it answered (:mod:`bot.services.timers`).

``tick`` costs one indexed query when nothing is due (:meth:`bot.storage.waits.WaitStore.fetch_next_due`); the loop
that calls it (``cogs/tasks.py``) sleeps until the next deadline, at most a minute.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.services.reminders import Reminders
from bot.services.sessions import SessionService
from bot.services.timers import Timers
from bot.storage import StoreError, WaitRow

log = logging.getLogger(__name__)

BATCH = 200
"""Due waits read at a time; a tick keeps reading until none is left."""

RETRY = 3600.0
"""A deadline whose firing failed (a bug, Discord down) is tried again this much later, rather
than every second: it is logged each time, and nothing is lost by waiting."""


class Scheduler:
    def __init__(
        self,
        sessions: SessionService,
        reminders: Reminders,
        timers: Timers,
        *,
        batch: int = BATCH,
        room: Callable[[], bool] = lambda: True,
    ) -> None:
        self.sessions = sessions
        self.reminders = reminders
        self.timers = timers
        self.batch = batch
        self.room = room
        """Whether Discord work may go on now (the bot's budget for background calls): a burst
        of due deadlines, after downtime, goes out at that pace instead of all at once."""
        self.upcoming: float | None = None
        """The next deadline as the last tick left it (``None``: none at all)."""
        self._waker: Callable[[float], None] | None = None

    async def next_due(self) -> float | None:
        return await self.sessions.store.waits.fetch_next_due()

    async def tick(self, now: float | None = None) -> int:
        """Fire every reminder and timeout due at ``now`` (default: the clock), earliest first.

        Returns how many fired.  A tick stops early when :attr:`room` says Discord work must
        wait, leaving the rest due for the next one.  Each wait is looked at once per tick and kind: one that is due
        again after it fired (the rest of a very long default move) waits for the next tick, so
        a tick always ends.  A failure in one (its error logged) does not stop the others.
        """
        if now is None:
            now = self.sessions.clock()
        fired = 0
        seen: set[tuple[int, int, str]] = set()
        while True:
            upcoming = await self.next_due()
            self.upcoming = upcoming
            if upcoming is None or upcoming > now:
                return fired
            fresh = [
                (row, kind)
                for row in await self.sessions.store.waits.list_due_waits(now, self.batch)
                for kind in [_kind(row, now)]
                if (row.game_id, row.seat, kind) not in seen
            ]
            if not fresh:
                return fired
            for row, kind in fresh:
                if not self.room():
                    self.upcoming = now  # the rest is due still: the loop comes back in a second
                    return fired
                seen.add((row.game_id, row.seat, kind))
                try:
                    if kind == "timeout":
                        fired += await self.timers.fire(row, now)
                    else:
                        fired += await self.reminders.fire(row, now)
                except StoreError:
                    raise  # the database is gone: the loop logs it and tries again later
                except Exception:
                    log.exception(
                        "game %s: the %s of seat %s failed; trying again in an hour",
                        row.game_id,
                        kind,
                        row.seat,
                    )
                    await self._postpone(row, kind, now + RETRY)

    async def _postpone(self, row: WaitRow, kind: str, at: float) -> None:
        store = self.sessions.store
        if kind == "timeout" and row.timeout_due is not None:
            await store.waits.move_timeout(row.game_id, row.seat, row.timeout_due, at)
        elif row.remind_due is not None:
            await store.waits.move_reminder(row.game_id, row.seat, row.remind_due, at)

    def delay(self, now: float, longest: float) -> float:
        """Seconds to sleep after a tick: until the next deadline, at most ``longest``."""
        if self.upcoming is None:
            return longest
        return max(0.0, min(longest, self.upcoming - now))

    def on_wake(self, waker: Callable[[float], None]) -> None:
        """The loop's hook for :meth:`wake` (``cogs/tasks.py`` registers itself)."""
        self._waker = waker

    def wake(self, at: float) -> None:
        """A deadline at ``at`` was written out of the usual course (a player came back, a table's
        clocks changed): the loop wakes for it if it would otherwise sleep past it.

        Moves need no call: the deadlines they write are at least an hour away, and the loop
        never sleeps more than a minute.
        """
        if self.upcoming is None or at < self.upcoming:
            self.upcoming = at
        if self._waker is not None:
            self._waker(at)


def _kind(row: WaitRow, now: float) -> str:
    """Which deadline of a due wait fires: its timeout when due (a reminder right before the
    move is made for the player would only be noise), else its reminder."""
    if row.timeout_due is not None and row.timeout_due <= now:
        return "timeout"
    return "remind"
