"""Whether a table can be reached on Discord, as the host remembers it across restarts: parked
tables, the troubles their players were told of, and finished threads left to archive.

The Discord side (what failed, whom to tell, how) is :mod:`bot.ui.reach`; this is what it keeps.
A park and an unpark each move the table's deadlines in the same transaction as the mark (see
:meth:`bot.storage.reach.ReachStore.park`), so nothing here has to stop the scheduler by hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.services.sessions import SessionService
from bot.storage import ENDED_STATUSES, OPEN_STATUSES, GameRow, GameStatus


class ReachService:
    """The ``reach`` rows of tables; holds no state of its own (the store is read through the
    session service at each call)."""

    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions

    # -- parking ---------------------------------------------------------------------------------

    async def park(self, game_id: int, reason: str) -> bool:
        """Park a table now; ``True`` when it was reachable until now (a table parked already
        keeps its first moment and takes the newer reason)."""
        return await self.sessions.store.reach.park(game_id, reason, self.sessions.clock())

    async def unpark(self, game_id: int) -> float | None:
        """The table is shown again: its deadlines come back moved on by the time it stood
        parked.  Its next deadline, for the scheduler (``None``: none, or it was not parked)."""
        return await self.sessions.store.reach.unpark(game_id, self.sessions.clock())

    async def parked(self, game_id: int) -> str | None:
        """Why the table is parked, or ``None`` while it can be reached."""
        return (await self.sessions.store.reach.fetch_reach(game_id)).parked

    async def parked_among(self, game_ids: Iterable[int]) -> dict[int, str]:
        """Why each parked table among ``game_ids`` is parked (one query for a whole list)."""
        found = await self.sessions.store.reach.fetch_parked(game_ids)
        return {game_id: row.parked for game_id, row in found.items() if row.parked is not None}

    async def tell_once(self, game_id: int, what: str) -> bool:
        """Whether the table's players are to be told of ``what`` now: ``True`` once per trouble,
        whichever process asks."""
        return await self.sessions.store.reach.tell_once(game_id, what)

    # -- places that went away -------------------------------------------------------------------

    async def open_tables_in_server(self, guild_id: int) -> list[GameRow]:
        """The lobbies and running tables of a server (the bot was removed from it)."""
        return await self.sessions.store.games.list_games(guild_id=guild_id, statuses=OPEN_STATUSES)

    async def open_tables_in_channel(self, channel_id: int) -> list[GameRow]:
        """The lobbies and running tables shown in a channel or thread (it was deleted or locked)."""
        return await self.sessions.store.games.list_games_in_channel(channel_id, OPEN_STATUSES)

    async def running_tables_in_channel(self, channel_id: int) -> list[GameRow]:
        """The running tables shown in a channel or thread (its thread was archived)."""
        return await self.sessions.store.games.list_games_in_channel(channel_id, (GameStatus.ACTIVE,))

    async def forget_threads_of_server(self, guild_id: int) -> None:
        """The server's finished tables' threads are beyond reach: none is left to archive."""
        for ended in await self.sessions.store.games.list_games(guild_id=guild_id, statuses=ENDED_STATUSES):
            if ended.thread_id is not None:
                await self.sessions.store.reach.mark_archived(ended.id, self.sessions.clock())

    # -- finished threads ------------------------------------------------------------------------

    async def threads_to_archive(
        self, *, ended_since: float, ended_before: float, guild_id: int | None = None
    ) -> list[tuple[int, int]]:
        """``(game, thread)`` of tables (of one server, or of this process's) that ended between
        the two moments, whose final standings are out and whose thread is still open."""
        return await self.sessions.store.reach.list_threads_to_archive(
            ended_since=ended_since, ended_before=ended_before, guild_id=guild_id
        )

    async def archived(self, game_id: int, now: float) -> None:
        """The table's thread is archived (or gone): the archiving pass looks at it no more."""
        await self.sessions.store.reach.mark_archived(game_id, now)
