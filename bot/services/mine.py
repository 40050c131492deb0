"""``/game mine``: every table a player sits at, the ones waiting for them first.

Plain data for the command to phrase: which table, where it is (the message to jump to), and
whether it waits for the player.  Only public facts: whom a game waits for is on its table.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.sessions import Refusal, SessionService
from bot.storage import OPEN_STATUSES, GameStatus, MessageKind, StoreError


@dataclass(frozen=True, slots=True)
class MyTable:
    """One of a player's tables, as ``/game mine`` lists it."""

    game_id: int
    guild_id: int | None
    title: str
    status: str
    """``lobby`` or ``active``."""
    your_move: bool
    """The game waits for this player (always ``False`` in a lobby)."""
    waiting: tuple[str, ...]
    """Whom a running game waits for, by name."""
    seated: int
    min_players: int
    max_players: int
    host: bool
    last_move: float | None
    """When the game last changed publicly (``None`` in a lobby, or before the first move)."""
    channel_id: int | None
    """The channel (or thread) to open: the table's thread, else its channel."""
    message_id: int | None
    """The message to jump to: the live board, else the lobby message (``None``: the channel)."""
    parked: str | None = None
    """Why the table is parked (Discord will not let the bot reach it), or ``None``."""

    @property
    def order(self) -> tuple[int, float, int]:
        """Waiting for you first, then running games (longest quiet first), lobbies, parked tables."""
        group = 3 if self.parked else 0 if self.your_move else 1 if self.status == GameStatus.ACTIVE else 2
        return (group, self.last_move or 0.0, self.game_id)


class MineService:
    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.store = sessions.store

    async def tables(self, user_id: int, *, guild_id: int | None = None) -> list[MyTable]:
        """``user_id``'s open tables in one server (or in all, ``guild_id=None``), in :attr:`MyTable.order`."""
        found: list[MyTable] = []
        rows = await self.store.games.list_tables_of(user_id, guild_id=guild_id, statuses=OPEN_STATUSES)
        parked = await self.store.reach.fetch_parked(row.id for row in rows)
        for row in rows:
            try:
                game = await self.sessions.load(row.id)
            except (Refusal, StoreError):
                continue  # a game this bot can no longer load is not one you can go and play
            if game.status not in OPEN_STATUSES:
                continue
            seat = game.seat_of(user_id)
            waiting = game.waiting() if game.status == GameStatus.ACTIVE else frozenset()
            kind = MessageKind.TABLE if game.status == GameStatus.ACTIVE else MessageKind.LOBBY
            messages = await self.store.messages.fetch_live_messages(game.id, kind)
            message = messages[-1] if messages else None
            rules = game.entry.rules
            found.append(
                MyTable(
                    game_id=game.id,
                    guild_id=row.guild_id,
                    title=rules.title,
                    status=game.status,
                    your_move=seat is not None and seat in waiting,
                    waiting=tuple(game.names[s] for s in sorted(waiting)),
                    seated=len(game.seats),
                    min_players=rules.min_players,
                    max_players=rules.max_players,
                    host=row.host_id == user_id,
                    last_move=row.public_at if game.status == GameStatus.ACTIVE else None,
                    channel_id=message.channel_id if message is not None else row.table_channel_id,
                    message_id=message.message_id if message is not None else None,
                    parked=parked[row.id].parked if row.id in parked else None,
                )
            )
        return sorted(found, key=lambda table: table.order)
