"""The messages a table has on Discord, as the host remembers them: which are live, what each
shows, and which tables the minutely sweep must repost.

The publisher and the desks ask for a table's messages in their own words here rather than in
the store's, so what they want stays readable where Discord is spoken, and the queries behind it
can change without them.  Nothing here calls Discord: a message is posted first, then recorded.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.services.sessions import SessionService
from bot.storage import MessageKind, MessageRow


class TableMessages:
    """The bookkeeping of table, lobby and final messages; holds no state of its own (the store
    is read through the session service at each call, so any number of these agree)."""

    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions

    # -- what a table shows ----------------------------------------------------------------------

    async def live(self, game_id: int, kind: MessageKind | None = None) -> list[MessageRow]:
        """The table's live messages (of one kind, or all), the oldest first: the last is the one
        players see at the bottom of the thread."""
        return await self.sessions.store.messages.fetch_live_messages(game_id, kind)

    async def newest(self, game_id: int, kind: MessageKind) -> MessageRow | None:
        """The newest message of this kind, live or retired (whom did the last board ping?)."""
        return await self.sessions.store.messages.fetch_last_message(game_id, kind)

    async def ever_posted(self, game_id: int, kind: MessageKind) -> bool:
        """Whether the table ever had a message of this kind (live or retired)."""
        return await self.sessions.store.messages.has_message(game_id, kind)

    async def posted(
        self,
        game_id: int,
        channel_id: int,
        message_id: int,
        kind: MessageKind,
        version: int,
        *,
        since: int | None = None,
        pinged: Iterable[int] | None = None,
    ) -> None:
        """A message is out: it is live from now on, drawn for ``version`` (its turn began at
        ``since``; ``pinged``: the players it told to play)."""
        await self.sessions.store.messages.add_message(
            game_id, channel_id, message_id, kind, version, since=since, pinged=pinged
        )

    async def edited(self, message_id: int, version: int, *, pinged: Iterable[int] | None = None) -> None:
        """A live message was edited in place to show ``version`` (and who has been told to play)."""
        await self.sessions.store.messages.update_message_version(message_id, version, pinged=pinged)

    async def retired(self, message_id: int) -> None:
        """A message no longer counts as the table's (folded, deleted, or out of reach)."""
        await self.sessions.store.messages.retire_message(message_id)

    async def move_table(self, game_id: int, channel_id: int, thread_id: int | None) -> None:
        """The table lives in ``channel_id`` (and ``thread_id``) from now on; its old messages are
        where the bot may no longer reach, so they are forgotten rather than deleted."""
        await self.sessions.store.games.move_table(game_id, channel_id, thread_id)
        for row in await self.sessions.store.messages.fetch_live_messages(game_id):
            await self.sessions.store.messages.retire_message(row.message_id)

    # -- the sweep -------------------------------------------------------------------------------

    async def behind_their_table(self) -> list[int]:
        """Running tables whose live board was drawn for an older move, or that show two boards."""
        return await self.sessions.store.messages.list_games_behind_their_table()

    async def missing_final(self, *, ended_since: float) -> list[int]:
        """Tables ended since ``ended_since`` that had a board but never got their final standings."""
        return await self.sessions.store.messages.list_games_missing_final(ended_since=ended_since)

    async def backing_off(self, now: float) -> set[int]:
        """Tables the sweep leaves alone until later (their reposts kept failing)."""
        return await self.sessions.store.reach.list_backing_off(now)

    async def repost_succeeded(self, game_id: int) -> None:
        """The sweep reposted the table: its back-off starts over."""
        await self.sessions.store.reach.post_succeeded(game_id)

    async def repost_failed(self, game_id: int, now: float, *, first: float, longest: float) -> None:
        """The sweep's repost failed again: it waits ``first`` seconds after the first failure,
        twice as long after each further one, at most ``longest`` (kept across restarts)."""
        await self.sessions.store.reach.post_failed(game_id, now, first=first, longest=longest)
