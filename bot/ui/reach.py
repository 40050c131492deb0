"""Reaching a table on real Discord: parked tables, archived threads, the thread cap.

A slow game outlives what Discord keeps open for it.  Its thread archives after a week without
a new message (the longest Discord offers; :data:`bot.ui.safe.ARCHIVE_WEEK`), a moderator may
lock or delete it, a server may remove the bot.  What this module does about each:

- **Archived** threads are ordinary: the publisher unarchives before an edit (the bot created
  the thread, so it may) and a new message unarchives by itself.  A finished table's thread is
  archived a day after its final standings, or at once in a server at its thread cap.
- **At the cap** (160006) a thread can be neither created nor unarchived: a new table plays in
  the channel, and a running one whose thread cannot be reopened reaches the players it waits
  on by direct message with a link; its host is told once.
- **Parked**: when the table's place is gone or closed to the bot (the server removed it, the
  thread or channel was deleted or locked, access or a permission is missing) the table is
  parked.  Nothing runs on it (no reminder, timer or bot move; the sweep passes it by) and its
  players are told once, in the parent channel or by direct message.  ``/game show`` brings it
  back where it is asked for, with its clocks moved on by the time it stood parked.

Every Discord call goes through :mod:`bot.ui.safe`; what must outlast a restart is in the
``reach`` rows (:mod:`bot.services.reach`), so a parked table costs no call after a restart,
and the players of a trouble are told once across processes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.core.i18n import Catalog
from bot.services.background import background
from bot.services.reach import ReachService
from bot.services.sessions import LiveGame, SessionService
from bot.storage import OPEN_STATUSES, GameStatus
from bot.ui import safe

log = logging.getLogger(__name__)

DAY = 86_400.0
ARCHIVE_AFTER = DAY
"""A finished table's thread stays open this long after its final standings, for the last words."""
ARCHIVE_LOOKBACK = 8 * DAY
"""Tables that ended longer ago than this are not looked at: their threads archived themselves
a week after their last message (the duration the bot gives them)."""

IN_THE_CHANNEL = frozenset({"thread_gone", "locked"})
"""Troubles told in the table's parent channel (the thread is closed to us, the channel is not);
the others reach each player by direct message."""


class Reach:
    """The Discord side of a table's place; one per bot."""

    def __init__(
        self,
        client: discord.Client,
        sessions: SessionService,
        catalog: Catalog,
        wake: Callable[[float], None] | None = None,
    ) -> None:
        self.client = client
        self.sessions = sessions
        self.places = ReachService(sessions)
        self.catalog = catalog
        self.wake = wake
        """Wakes the scheduler for a deadline given back by :meth:`unpark`."""
        self.crowded: set[int] = set()
        """Servers seen at their active-thread cap since start: finished threads close at once."""
        self._dm_version: dict[int, int] = {}
        """The public version each table last reached its players by direct message for: the
        sweep's retries of the same table tell nobody twice."""

    def t(self, key: str, language: str, /, **params: Any) -> str:
        return self.catalog.text(key, language, **params)

    def link(self, game: LiveGame, message_id: int | None = None) -> str:
        guild = game.row.guild_id or "@me"
        where = f"{game.row.table_channel_id}" + (f"/{message_id}" if message_id else "")
        return f"https://discord.com/channels/{guild}/{where}"

    # -- parking ---------------------------------------------------------------------------------

    async def trouble(self, game: LiveGame, failed: safe.Failed, channel_id: int | None = None) -> bool:
        """A table call failed: park the table or reach its players another way when the answer
        says so.  ``True`` when the failure was one of those (nothing to retry)."""
        reason = failed.park_reason
        if reason == "channel_gone" and channel_id is not None and channel_id == game.row.thread_id:
            reason = "thread_gone"
        if reason is not None:
            await self.park(game, reason)
            return True
        if failed.code == safe.THREAD_CAP:
            if game.row.guild_id is not None:
                self.crowded.add(game.row.guild_id)
            await self.by_direct_message(game)
            return True
        return False

    async def park(self, game: LiveGame, reason: str) -> bool:
        """Park a table and tell its players once; ``True`` when it was not parked before."""
        if not await self.places.park(game.id, reason):
            return False
        log.warning("game %s: parked (%s); nothing runs on it until /game show", game.id, reason)
        self.sessions.forget(game.id)
        if game.status in OPEN_STATUSES and await self.places.tell_once(game.id, reason):
            await self._tell(game, reason)
        return True

    async def _tell(self, game: LiveGame, reason: str) -> None:
        lang = game.row.language
        text = self.t(
            "host.parked.told_guild" if reason == "guild_gone" else "host.parked.told",
            lang,
            game=game.entry.rules.title,
            id=game.id,
            reason=self.t(f"host.parked.{reason}", lang),
        )
        people = [seat.user_id for seat in game.seats if seat.bot is None]
        with background():
            if reason in IN_THE_CHANNEL and game.row.thread_id is not None and game.row.channel_id:
                mentions = " ".join(f"<@{user}>" for user in people)
                sent = await safe.send(
                    self.client.get_partial_messageable(game.row.channel_id),
                    content=f"{text}\n{mentions}",
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(id=u) for u in people], everyone=False, roles=False
                    ),
                )
                if sent:
                    return
            for user in people:
                await safe.direct(self.client, user, text)

    async def unpark(self, game: LiveGame) -> bool:
        """The table is shown again: its clocks run again, moved on by the time it stood parked."""
        upcoming = await self.places.unpark(game.id)
        self.sessions.forget(game.id)
        log.info("game %s: back from parking", game.id)
        if upcoming is not None and self.wake is not None:
            self.wake(upcoming)
        return True

    async def vanished(self, *, guild_id: int | None = None, channel_id: int | None = None) -> int:
        """Discord says a server removed the bot, or a channel or thread was deleted: park the
        tables that were there (without a call that could only fail).  How many were parked."""
        if guild_id is not None:
            rows = await self.places.open_tables_in_server(guild_id)
        elif channel_id is not None:
            rows = await self.places.open_tables_in_channel(channel_id)
        else:
            return 0
        if guild_id is not None:
            # Its ended tables' threads are beyond reach too: nothing is left to archive there.
            await self.places.forget_threads_of_server(guild_id)
        parked = 0
        for row in rows:
            reason = (
                "guild_gone"
                if guild_id is not None
                else ("thread_gone" if row.thread_id == channel_id else "channel_gone")
            )
            parked += await self.park(await self.sessions.load(row.id), reason)
        return parked

    # -- the thread cap ------------------------------------------------------------------------------

    async def by_direct_message(self, game: LiveGame) -> None:
        """The table's thread cannot be reopened (the server is at its thread cap): the players
        it waits on get a direct message with a link, and its host is told why, once."""
        if game.status != GameStatus.ACTIVE or self._dm_version.get(game.id) == game.public_version:
            return
        self._dm_version[game.id] = game.public_version
        lang = game.row.language
        link = self.link(game)
        with background():
            for seat in sorted(game.waiting()):
                if not game.is_bot(seat):
                    text = self.t(
                        "host.reach.your_turn", lang, game=game.entry.rules.title, id=game.id, link=link
                    )
                    await safe.direct(self.client, game.user_of(seat), text)
            if await self.places.tell_once(game.id, "thread_cap"):
                text = self.t("host.reach.host_cap", lang, game=game.entry.rules.title, id=game.id, link=link)
                await safe.direct(self.client, game.row.host_id, text)

    # -- finished threads ----------------------------------------------------------------------------

    async def archive_finished(self) -> int:
        """Archive the threads of tables that ended a day ago (at once in a crowded server); how
        many.  Each frees a place under its server's cap and takes nothing from the players: the
        thread stays readable, and a message in it opens it again."""
        now = self.sessions.clock()
        since = now - ARCHIVE_LOOKBACK
        due = await self.places.threads_to_archive(ended_since=since, ended_before=now - ARCHIVE_AFTER)
        for guild_id in sorted(self.crowded):
            due.extend(
                await self.places.threads_to_archive(ended_since=since, ended_before=now, guild_id=guild_id)
            )
        archived = 0
        ledger = safe.ledger_of(self.client)
        with background():
            for game_id, thread_id in dict(due).items():
                if not ledger.has_room():
                    break
                result = await safe.set_archived(self.client, thread_id, True)
                if result or result.park_reason is not None or result.code == safe.ARCHIVED:
                    # Archived now, or gone or closed to us: either way nothing is left to do.
                    await self.places.archived(game_id, now)
                    archived += bool(result)
        return archived
