"""Reminders and timeouts as players see them on Discord.

A thread reminder is the live board itself, moved to the bottom of the table's thread with one
line under its status and a ping for that one player (:meth:`bot.ui.publisher.Publisher.remind`):
the thread keeps one board at the bottom and gains no message, and the line goes away with the
board's next change.  A direct message is one short line with a link to the board; when Discord
refuses it (the player does not take messages from server members), the thread is used instead.

A timeout is published like any move: its lines open with whose time ran out.
"""

from __future__ import annotations

import logging

import discord

from bot.core.i18n import Catalog, plural
from bot.services.sessions import Applied, LiveGame
from bot.storage import MessageKind
from bot.ui import safe
from bot.ui.publisher import Publisher

log = logging.getLogger(__name__)


class Nudges:
    """The Discord side of :class:`bot.services.reminders.Notifier` and
    :class:`bot.services.timers.Announcer`."""

    def __init__(self, client: discord.Client, publisher: Publisher, catalog: Catalog) -> None:
        self.client = client
        self.publisher = publisher
        self.catalog = catalog
        self.messages = self.publisher.messages

    def t(self, key: str, language: str, /, **params: object) -> str:
        return self.catalog.text(key, language, **params)

    def duration(self, language: str, seconds: float) -> str:
        """``an hour``, ``5 hours``, ``a day``, ``3 days``: how long the table has waited (whole
        hours under a day, whole days from one day on)."""
        hours = max(1, int(seconds // 3600))
        if hours < 24:
            return self.t(f"host.remind.hours_{plural(language, hours)}", language, count=hours)
        days = hours // 24
        return self.t(f"host.remind.days_{plural(language, days)}", language, count=days)

    # -- reminders -------------------------------------------------------------------------------

    async def remind(self, game: LiveGame, seat: int, waited: float, how: str) -> str:
        lang = game.row.language
        if how == "dm" and await self._direct(game, seat, waited):
            return "dm"
        line = self.t("host.remind.thread", lang, player=game.names[seat], waited=self.duration(lang, waited))
        return "thread" if await self.publisher.remind(game, seat, line) else "none"

    async def _direct(self, game: LiveGame, seat: int, waited: float) -> bool:
        """A direct message with a link to the board; ``False`` when Discord refuses it."""
        lang = game.row.language
        link = await self._link(game)
        text = self.t(
            "host.remind.dm",
            lang,
            game=game.entry.rules.title,
            id=game.id,
            waited=self.duration(lang, waited),
            link=link,
        )
        sent = await safe.direct(self.client, game.user_of(seat), text)
        if not sent:
            log.info("game %s: seat %s was not reached directly (%s); using the table", game.id, seat, sent)
        return bool(sent)

    async def _link(self, game: LiveGame) -> str:
        """A jump link to the live board (to the table's thread when none is recorded)."""
        channel = game.row.table_channel_id
        guild = game.row.guild_id or "@me"
        boards = await self.messages.live(game.id, MessageKind.TABLE)
        if boards:
            return f"https://discord.com/channels/{guild}/{boards[-1].channel_id}/{boards[-1].message_id}"
        return f"https://discord.com/channels/{guild}/{channel}"

    # -- timeouts --------------------------------------------------------------------------------

    def committed(self, applied: Applied) -> None:
        # Queued at once, like a click's move (bot.ui.clicks.Clicks.act), so the journal keeps
        # commit order; a private step shows nothing, as when a player makes it.
        if applied.public:
            self.publisher.shown(applied.game.id).journal.append(applied)

    async def show(self, game: LiveGame) -> None:
        await self.publisher.publish(game)
