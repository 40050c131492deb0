"""A Discord server's settings (its default clocks, its channel, who may open tables), its limits
on opening tables, and what is open there now."""

from __future__ import annotations

from bot.storage.codes import GameStatus
from bot.storage.limits import GuildLimits, OpenCounts
from bot.storage.rows import GuildSettings
from bot.storage.sql import OPEN, Part, hours


class ServerStore(Part):
    """``guilds``, and the counts of ``games`` a server's limits are checked against."""

    async def fetch_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings; a server that never set any gets all ``None`` (the defaults)."""
        rows = await self._fetch(
            "SELECT remind_hours, timer_hours, channel_id, opener_role_id FROM guilds WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return GuildSettings(guild_id)
        r = rows[0]
        return GuildSettings(
            guild_id,
            hours(r[0]),
            hours(r[1]),
            None if r[2] is None else int(r[2]),
            None if r[3] is None else int(r[3]),
        )

    async def set_settings(self, settings: GuildSettings) -> None:
        await self._write(
            "INSERT INTO guilds (guild_id, remind_hours, timer_hours, channel_id, opener_role_id)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " remind_hours = excluded.remind_hours, timer_hours = excluded.timer_hours,"
            " channel_id = excluded.channel_id, opener_role_id = excluded.opener_role_id",
            (
                settings.guild_id,
                settings.remind_hours,
                settings.timer_hours,
                settings.channel_id,
                settings.opener_role_id,
            ),
        )

    async def fetch_limits(self, guild_id: int) -> GuildLimits:
        """A server's limits on opening tables; ``None`` for each it never set (the defaults)."""
        rows = await self._fetch(
            "SELECT lobbies_per_user, tables_per_user, cooldown_seconds, tables_per_server"
            " FROM guilds WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return GuildLimits(guild_id)
        values = [None if v is None else int(v) for v in rows[0]]
        return GuildLimits(guild_id, *values)

    async def set_limits(self, limits: GuildLimits) -> None:
        """Store a server's limits, leaving its other settings as they are."""
        await self._write(
            "INSERT INTO guilds (guild_id, lobbies_per_user, tables_per_user, cooldown_seconds,"
            " tables_per_server) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " lobbies_per_user = excluded.lobbies_per_user, tables_per_user = excluded.tables_per_user,"
            " cooldown_seconds = excluded.cooldown_seconds, tables_per_server = excluded.tables_per_server",
            (
                limits.guild_id,
                limits.lobbies_per_user,
                limits.tables_per_user,
                limits.cooldown_seconds,
                limits.tables_per_server,
            ),
        )

    async def count_open(self, guild_id: int, user_id: int, recent: int = 1) -> OpenCounts:
        """What ``user_id`` hosts open in ``guild_id`` (lobbies; lobbies and running tables), the
        server's open tables, and when the member opened their ``recent`` newest tables there
        (read by the ``games_by_host`` and ``games_by_guild`` indexes)."""
        rows = await self._fetch(
            "SELECT"
            f" (SELECT COUNT(*) FROM games WHERE guild_id = ? AND host_id = ? AND status = '{GameStatus.LOBBY}'),"
            f" (SELECT COUNT(*) FROM games WHERE guild_id = ? AND host_id = ? AND status IN {OPEN}),"
            f" (SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN {OPEN})",
            (guild_id, user_id, guild_id, user_id, guild_id),
        )
        times = await self._fetch(
            "SELECT created_at FROM games WHERE guild_id = ? AND host_id = ? ORDER BY created_at DESC LIMIT ?",
            (guild_id, user_id, recent),
        )
        r = rows[0]
        return OpenCounts(int(r[0]), int(r[1]), int(r[2]), tuple(float(t[0]) for t in times))
