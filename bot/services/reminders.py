"""Reminders: a short nudge to a player the table has waited on for a while.

A due reminder is *claimed* before it is sent: one conditional UPDATE counts it and sets the next
one (or none after the third), and only the caller whose UPDATE changed the row sends it.  So a
restart, a second tick or a second process never sends it twice.  The price is a tiny window: a
crash between the claim and the send skips that one message (the next one, if any, still comes);
a reminder is a nudge, and a repeated ping is worse than a missed one.  A reminder Discord
refused (a locked thread, a missing permission, Discord down) is given back, not used up: it
comes again later, or once its parked table is shown again.

How it reaches the player is theirs to choose (``/game notify``) and Discord's to do: the
:class:`Notifier` (``bot.ui.nudges``) pings them on the table or sends a direct message.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.services.deadlines import HOUR, MAX_REMINDERS, next_reminder, table_hours
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.storage import GameStatus, WaitRow

log = logging.getLogger(__name__)

UNDELIVERED_RETRY = 3600.0
"""A reminder Discord would not deliver is tried again this much later (not counted as sent)."""

NOTIFY = ("thread", "dm", "none")
"""How a player may be reminded: a ping on the table's thread, a direct message, or not at all."""


class Notifier(Protocol):
    async def remind(self, game: LiveGame, seat: int, waited: float, how: str) -> str:
        """Remind ``seat``'s player, who has been waited on for ``waited`` seconds, the way they
        chose (``thread`` or ``dm``).  Returns how it went out (``thread``, ``dm``), or ``none``
        when it could not (the table is gone); never raises for a Discord failure."""
        ...


class Reminders:
    def __init__(self, sessions: SessionService, notifier: Notifier | None = None) -> None:
        self.sessions = sessions
        self.notifier = notifier

    async def set_notify(self, user_id: int, how: str) -> None:
        if how not in NOTIFY:
            raise Refusal("host.notify.unknown", how=how)
        await self.sessions.store.players.set_notify(user_id, how)

    async def fire(self, wait: WaitRow, now: float) -> bool:
        """Send the reminder due on ``wait`` if it is still due and ours; ``True`` when claimed."""
        due = wait.remind_due
        if due is None:
            return False
        store = self.sessions.store
        try:
            game = await self.sessions.load(wait.game_id)
        except Refusal as refusal:
            # Its game is not on this bot now (a game type switched off): this reminder is dropped.
            log.warning("game %s: reminder dropped (%s)", wait.game_id, refusal.key)
            await store.waits.move_reminder(wait.game_id, wait.seat, due, None)
            return False
        if game.status != GameStatus.ACTIVE or not 0 <= wait.seat < len(game.seats):
            await store.waits.clear_waits(wait.game_id)  # a leftover of a game that ended elsewhere
            return False
        clocks = await store.waits.fetch_table_clocks(game.id)
        hours = self.sessions.hours
        if clocks is not None:
            hours = table_hours(
                clocks.remind_hours,
                clocks.timer_hours,
                clocks.server_remind_hours,
                clocks.server_timer_hours,
                self.sessions.hours,
            )
        player = await store.players.fetch_player(game.user_of(wait.seat))
        if hours.remind <= 0 or game.is_bot(wait.seat):
            # Reminders off, or a bot's seat: a bot needs no nudge (its own driver moves it).
            await store.waits.move_reminder(game.id, wait.seat, due, None)  # reminders were turned off
            return False
        if player.away_until is not None and player.away_until > now:
            # Away players are not reminded; counting starts again when they are back.
            await store.waits.move_reminder(game.id, wait.seat, due, player.away_until + hours.remind * HOUR)
            return False
        sent = wait.reminders + 1
        if not await store.waits.claim_reminder(game.id, wait.seat, due, next_reminder(now, hours, sent)):
            return False  # the player moved, or another tick claimed it
        if player.notify == "none" or self.notifier is None:
            log.info(
                "game %s: reminder %d of %d for seat %s (not sent: none)",
                game.id,
                sent,
                MAX_REMINDERS,
                wait.seat,
            )
            return True
        went = await self.notifier.remind(game, wait.seat, now - wait.since, player.notify)
        if went == "none":
            # Not delivered (Discord refused it, or the table was parked on the way): not used up.
            await store.waits.unclaim_reminder(game.id, wait.seat, sent, now + UNDELIVERED_RETRY)
            log.info(
                "game %s: reminder %d for seat %s not delivered; kept for later", game.id, sent, wait.seat
            )
            return True
        log.info("game %s: reminder %d of %d for seat %s (%s)", game.id, sent, MAX_REMINDERS, wait.seat, went)
        return True
