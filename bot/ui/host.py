"""What the command cogs use of the bot they are loaded into.

A cog sits below the client (``top -> cogs -> ui -> ...``, ``tests/bot/test_layers.py``), so it
cannot name ``bot.client.GameBot`` even for typing; it names this protocol, which the client
satisfies, and its ``setup(bot)`` casts discord.py's ``commands.Bot`` to it.  A service a cog
needs is added here, so the list says at a glance what the commands reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import discord

    from bot.core.config import Settings
    from bot.core.i18n import Catalog
    from bot.core.registry import Registry
    from bot.services.clocks import Clocks
    from bot.services.lobby import LobbyService
    from bot.services.scheduler import Scheduler
    from bot.services.sessions import SessionService
    from bot.ui.clicks import Clicks
    from bot.ui.lobby_message import LobbyDesk
    from bot.ui.players import PlayerDesk
    from bot.ui.publisher import Publisher
    from bot.ui.safe import Ledger


class Host(Protocol):
    """The bot as the cogs see it (read-only: a cog never replaces a service)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def catalog(self) -> Catalog: ...

    @property
    def registry(self) -> Registry: ...

    @property
    def ledger(self) -> Ledger: ...

    @property
    def sessions(self) -> SessionService: ...

    @property
    def lobby(self) -> LobbyService: ...

    @property
    def scheduler(self) -> Scheduler: ...

    @property
    def clocks(self) -> Clocks: ...

    @property
    def publisher(self) -> Publisher: ...

    @property
    def clicks(self) -> Clicks: ...

    @property
    def lobby_desk(self) -> LobbyDesk: ...

    @property
    def players(self) -> PlayerDesk: ...

    def server_language(self, interaction: discord.Interaction, /) -> str: ...

    def reader(self, interaction: discord.Interaction, /) -> str: ...

    async def wait_until_ready(self) -> None: ...
