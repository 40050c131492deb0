"""Rows behind the limits on opening tables (issue 25): a server's own limits, and the counts
``/game new`` and Rematch are judged by.  The rules themselves (defaults, bounds, refusals) are
:mod:`bot.services.server_settings`'; these are plain data so the store can return them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GuildLimits:
    """A server's limits as ``/game settings`` stored them; ``None``: the bot's default, 0: none.

    ``lobbies_per_user`` and ``tables_per_user``: open lobbies, and open tables (lobbies
    included), one member may host; ``cooldown_seconds``: between two tables a member opens;
    ``tables_per_server``: open tables in the whole server.
    """

    guild_id: int
    lobbies_per_user: int | None = None
    tables_per_user: int | None = None
    cooldown_seconds: int | None = None
    tables_per_server: int | None = None


@dataclass(frozen=True, slots=True)
class OpenCounts:
    """What one member has open in one server, and when they opened their newest tables there
    (``recent``: newest first, as many as were asked for)."""

    user_lobbies: int
    user_tables: int
    server_tables: int
    recent: tuple[float, ...] = ()
