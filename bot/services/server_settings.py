"""``/game settings``: a server's defaults for new tables, where they open, and who may open them.

Stored in ``guilds`` (:class:`bot.storage.GuildSettings`).  The reminder and timer defaults are read
by the deadlines of every table of the server that has no clock of its own
(:mod:`bot.services.deadlines`); the channel and the opener role by ``/game new``.

The limits on opening tables (issue 25: one member's 200 ``/game new`` made 200 lobbies, 200
threads and 400 messages in 8 seconds) are here too (:class:`bot.storage.limits.GuildLimits`),
judged by :func:`check_opening` for ``/game new`` and Rematch alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from bot.services.clocks import hours_option
from bot.services.sessions import Refusal
from bot.storage import GuildSettings, Store
from bot.storage.limits import GuildLimits, OpenCounts

DEFAULT_WORDS = frozenset({"default", "reset", "défaut", "par défaut"})
"""What a clock option says to go back to the bot's own default."""


def clock_option(text: str | None) -> tuple[bool, int | None]:
    """``(given, hours)`` of a ``remind:`` / ``timer:`` option: ``"24h"``, ``"2d"``, ``"off"`` (0) or
    ``"default"`` (``None``, the bot's default).  Raises ``Refusal`` for anything else."""
    if text is None or not text.strip():
        return False, None
    if text.strip().lower() in DEFAULT_WORDS:
        return True, None
    return True, hours_option(text)


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits in force in a server (its own, else the defaults); 0 means no limit."""

    lobbies_per_user: int
    tables_per_user: int
    cooldown_seconds: int
    tables_per_server: int


DEFAULT_LIMITS = Limits(lobbies_per_user=3, tables_per_user=10, cooldown_seconds=30, tables_per_server=200)
"""Chosen, not measured against a rule.  Three lobbies let a member offer a game to three groups at
once, and ten open tables (lobbies included) are more slow games than one person follows.  Thirty
seconds between tables (after :data:`BURST` at once) is nothing to someone opening one for their
friends, and makes a flood of 200 take an hour and a half.  Two hundred open tables per server keeps even a busy server's threads
(one per table) well under Discord's cap of 1,000 active threads, and its slow games' reminders
paced.  Every one can be changed per server with ``/game settings``."""

BURST = 3
"""Tables one member may open within one cooldown before it applies: someone setting up a game for
two or three groups at once is not made to wait, while a flood still gets three at most."""

LIMIT_BOUNDS = {
    "lobbies_per_user": 50,
    "tables_per_user": 200,
    "cooldown_seconds": 3600,
    "tables_per_server": 1000,
}
"""The largest value ``/game settings`` takes for each limit (0: no limit).  Above a thousand open
tables a server is at Discord's own cap on active threads, so the bot would only be turned away."""


def limits_in_force(stored: GuildLimits) -> Limits:
    """The server's own limits where it set them, the defaults elsewhere."""
    return Limits(
        *(
            own if own is not None else getattr(DEFAULT_LIMITS, name)
            for name, own in (
                ("lobbies_per_user", stored.lobbies_per_user),
                ("tables_per_user", stored.tables_per_user),
                ("cooldown_seconds", stored.cooldown_seconds),
                ("tables_per_server", stored.tables_per_server),
            )
        )
    )


def check_opening(limits: Limits, counts: OpenCounts, *, now: float, manager: bool) -> None:
    """Refuse a new table (``/game new`` or Rematch) past a limit: ``Refusal`` naming the limit,
    the current count and when to try again.

    The server's cap comes first and binds everyone: it protects the server's threads and the
    bot's request budget, which a member with Manage Server can raise but should not overrun by
    accident.  The per-member limits then bind everyone but Manage Server, who opens tables for
    others (events, tournaments).
    """
    if limits.tables_per_server and counts.server_tables >= limits.tables_per_server:
        raise Refusal("host.limit.server", count=counts.server_tables, limit=limits.tables_per_server)
    if manager:
        return
    if limits.lobbies_per_user and counts.user_lobbies >= limits.lobbies_per_user:
        raise Refusal("host.limit.lobbies", count=counts.user_lobbies, limit=limits.lobbies_per_user)
    if limits.tables_per_user and counts.user_tables >= limits.tables_per_user:
        raise Refusal("host.limit.tables", count=counts.user_tables, limit=limits.tables_per_user)
    if limits.cooldown_seconds and len(counts.recent) >= BURST:
        ready = counts.recent[BURST - 1] + limits.cooldown_seconds
        if now < ready:
            raise Refusal(
                "host.limit.cooldown", count=BURST, seconds=limits.cooldown_seconds, at=math.ceil(ready)
            )


def may_open(settings: GuildSettings, role_ids: set[int], *, manager: bool) -> bool:
    """Whether a member may open tables: anyone, unless the server named a role (Manage Server
    always may, so a server can never lock itself out)."""
    return settings.opener_role_id is None or manager or settings.opener_role_id in role_ids


class ServerSettings:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def limits(self, guild_id: int) -> tuple[GuildLimits, Limits]:
        """A server's limits as stored (``None``: the default) and as in force."""
        stored = await self.store.servers.fetch_limits(guild_id)
        return stored, limits_in_force(stored)

    @staticmethod
    def check_limits(values: dict[str, int | None]) -> None:
        """``Refusal`` naming the first value out of its bounds (0 to :data:`LIMIT_BOUNDS`)."""
        for name, value in values.items():
            if name not in LIMIT_BOUNDS:
                raise ValueError(f"no limit called {name!r}")
            if value is not None and not 0 <= value <= LIMIT_BOUNDS[name]:
                raise Refusal(f"host.limit.bad.{name}", value=value, max=LIMIT_BOUNDS[name])

    async def change_limits(
        self, guild_id: int, values: dict[str, int | None], *, reset: bool = False
    ) -> Limits:
        """Set the limits named in ``values`` (``None``: unchanged; 0: no limit), after ``reset``
        (every limit back to the default).  Raises ``Refusal`` naming a value out of bounds, and
        then changes nothing."""
        self.check_limits(values)
        current = await self.store.servers.fetch_limits(guild_id)
        changed = GuildLimits(guild_id) if reset else current
        given = {name: value for name, value in values.items() if value is not None}
        changed = replace(changed, **given)
        if changed != current:
            await self.store.servers.set_limits(changed)
        return limits_in_force(changed)

    async def get(self, guild_id: int) -> GuildSettings:
        return await self.store.servers.fetch_settings(guild_id)

    async def change(
        self,
        guild_id: int,
        *,
        remind: str | None = None,
        timer: str | None = None,
        channel_id: int | None = None,
        opener_role_id: int | None = None,
        reset: str | None = None,
    ) -> GuildSettings:
        """Apply the options given (``None``: unchanged); ``reset`` names one setting to clear:
        ``channel`` (tables open where ``/game new`` is typed), ``role`` (anyone opens tables)
        or ``clocks`` (the bot's default reminder and timer).  Raises ``Refusal``."""
        current = await self.store.servers.fetch_settings(guild_id)
        changed = current
        if reset == "channel":
            changed = replace(changed, channel_id=None)
        elif reset == "role":
            changed = replace(changed, opener_role_id=None)
        elif reset == "clocks":
            changed = replace(changed, remind_hours=None, timer_hours=None)
        elif reset is not None:
            raise Refusal("host.settings.bad_reset", value=reset[:20])
        given, hours = clock_option(remind)
        if given:
            changed = replace(changed, remind_hours=hours)
        given, hours = clock_option(timer)
        if given:
            changed = replace(changed, timer_hours=hours)
        if channel_id is not None:
            changed = replace(changed, channel_id=channel_id)
        if opener_role_id is not None:
            changed = replace(changed, opener_role_id=opener_role_id)
        if changed != current:
            await self.store.servers.set_settings(changed)
        return changed
