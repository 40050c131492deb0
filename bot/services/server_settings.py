"""``/game settings``: a server's defaults for new tables, where they open, and who may open them.

Stored in ``guilds`` (:class:`bot.storage.GuildSettings`).  The reminder and timer defaults are read
by the deadlines of every table of the server that has no clock of its own
(:mod:`bot.services.deadlines`); the channel and the opener role by ``/game new``.
"""

from __future__ import annotations

from dataclasses import replace

from bot.services.clocks import hours_option
from bot.session import Refusal
from bot.storage import GuildSettings, Store

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


def may_open(settings: GuildSettings, role_ids: set[int], *, manager: bool) -> bool:
    """Whether a member may open tables: anyone, unless the server named a role (Manage Server
    always may, so a server can never lock itself out)."""
    return settings.opener_role_id is None or manager or settings.opener_role_id in role_ids


class ServerSettings:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

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
        current = await self.store.guild_settings(guild_id)
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
            await self.store.set_guild_settings(changed)
        return changed
