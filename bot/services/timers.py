"""Turn timers: when a table has waited on a player too long, the game makes their default move.

The move is the engine's (``Rules.timeout_action``: always legal, the least harmful choice),
applied through :meth:`bot.services.sessions.SessionService.timeout` like a click, so it is committed once
with its new waits, logged ``how='timeout'``, and published like any move, under one line saying
whose time ran out.  Other seats of the same game whose time ran out at the same moment (an
open auction's clock passes for everyone still in) are played in the same go and shown in one
post, so the table says once whose time ran out.  A default made of several steps (a split
drawn card by card) is played to its end at once; every step is its own commit, and a crash
midway leaves the rest due, so the next tick (after a restart: the first one) finishes it.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.services.sessions import Applied, LiveGame, Refusal, SessionService
from bot.storage import WaitRow
from rules.core import IllegalAction

log = logging.getLogger(__name__)

MAX_STEPS = 100
"""Default steps applied for one seat in one go; the rest (if an engine ever needs more) is due
again at once and taken by the next tick."""


class Announcer(Protocol):
    def committed(self, applied: Applied) -> None:
        """Called right after each default move is committed, with no await in between, so the
        table shows moves in the order they were committed."""
        ...

    async def show(self, game: LiveGame) -> None:
        """Publish what was committed; never raises (the moves are saved whatever happens)."""
        ...


class Timers:
    def __init__(self, sessions: SessionService, announcer: Announcer | None = None) -> None:
        self.sessions = sessions
        self.announcer = announcer

    async def fire(self, wait: WaitRow, now: float) -> bool:
        """Apply the default move due on ``wait``; ``True`` when at least one step was made."""
        due = wait.timeout_due
        if due is None:
            return False
        applied = await self._steps(wait.game_id, wait.seat, now)
        if applied is None:
            return False
        if applied and not applied[-1].finished:
            # Everyone else the game waits on whose time is up too: one post for all of them.
            for seat in sorted(applied[-1].waiting_after - {wait.seat}):
                more = await self._steps(wait.game_id, seat, now)
                applied += more or []
                if applied[-1].finished:
                    break
        if not applied:
            return False
        log.info("game %s: seat %s timed out; %d default move(s) made", wait.game_id, wait.seat, len(applied))
        if self.announcer is not None:
            await self.announcer.show(applied[-1].game)
        return True

    async def _steps(self, game_id: int, seat: int, now: float) -> list[Applied] | None:
        """The default steps of one seat whose timeout is due (``[]``: none was due; ``None``: the
        engine refused its own default, and that deadline was dropped)."""
        applied: list[Applied] = []
        for _ in range(MAX_STEPS):
            try:
                step = await self.sessions.timeout(game_id, seat, now)
            except (IllegalAction, Refusal) as exc:
                # Never retried: an engine that refuses its own default would loop forever.
                reason = exc.params.get("reason", exc.key) if isinstance(exc, Refusal) else str(exc)
                log.error(
                    "game %s: the default move for seat %s could not be made (%s); its timer is dropped",
                    game_id,
                    seat,
                    reason,
                )
                current = await self.sessions.store.waits.fetch_wait(game_id, seat)
                if current is not None and current.timeout_due is not None:
                    await self.sessions.store.waits.clear_timeout(game_id, seat, current.timeout_due)
                return applied or None
            if step is None:
                break
            applied.append(step)
            if self.announcer is not None:
                self.announcer.committed(step)
            if step.finished or seat not in step.waiting_after:
                break
        return applied
