"""The discord.py client: wires the services together and owns their lifetime."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.config import Settings
from bot.core.i18n import Catalog
from bot.core.registry import GameEntry, Registry, RegistryError
from bot.games import REGISTRY
from bot.services.background import background
from bot.services.bot_players import BotPlayers
from bot.services.clocks import Clocks
from bot.services.deadlines import Hours
from bot.services.lobby import LobbyService
from bot.services.mine import MineService
from bot.services.reminders import Reminders
from bot.services.scheduler import Scheduler
from bot.services.server_settings import ServerSettings
from bot.services.sessions import SessionService
from bot.services.stats import StatsService
from bot.services.timers import Timers
from bot.services.undo import UndoService
from bot.storage import Store, StoreError
from bot.ui import safe
from bot.ui.clicks import Clicks
from bot.ui.components import COMPONENT_PREFIXES, DYNAMIC_ITEMS, FORM_PREFIX, Handler
from bot.ui.lobby_message import LobbyDesk
from bot.ui.nudges import Nudges
from bot.ui.players import PlayerDesk
from bot.ui.presenter import Presenter
from bot.ui.publisher import Publisher
from bot.ui.translator import CatalogTranslator
from bot.ui.undo import UndoDesk

log = logging.getLogger(__name__)


class GameBot(commands.Bot):
    """One bot process; every service hangs off it so cogs reach them through ``interaction.client``."""

    store: Store
    sessions: SessionService
    scheduler: Scheduler
    clocks: Clocks
    lobby: LobbyService
    publisher: Publisher
    clicks: Clicks
    lobby_desk: LobbyDesk
    undo_desk: UndoDesk
    players: PlayerDesk

    def __init__(
        self,
        settings: Settings,
        *,
        registry: Registry = REGISTRY,
        catalog: Catalog | None = None,
        sync_dev_guild: bool = True,
        **options: Any,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options
        )
        self.settings = settings
        self.registry = registry
        self.catalog = catalog or Catalog.load()
        self.sync_dev_guild = sync_dev_guild
        self.ledger = safe.Ledger(rate=settings.process_rate, guard=settings.invalid_guard)
        """Every Discord call this process makes, counted and paced (:mod:`bot.ui.safe`)."""
        self.tree.error(self.on_app_command_error)

    async def setup_hook(self) -> None:
        self.store = await Store.open(
            self.settings.database, shards=self.settings.shards, pool_size=self.settings.db_pool
        )
        log.info("database: %s", self.store.name)
        # One clock for the host: Discord's (SimCord moves it in tests with advance_time).
        self.sessions = SessionService(self.store, self.registry, clock=discord_time)
        self.sessions.hours = Hours(self.settings.remind_hours, self.settings.timer_hours)
        self.lobby = LobbyService(self.sessions)
        self.publisher = Publisher(self, self.sessions, self.catalog)
        self.clicks = Clicks(self.publisher)
        self.publisher.client_languages = self.settings.client_languages
        nudges = Nudges(self, self.publisher, self.catalog)
        self.scheduler = Scheduler(
            self.sessions,
            Reminders(self.sessions, nudges),
            Timers(self.sessions, nudges),
            room=self.ledger.has_room,
        )
        self.publisher.reach.wake = self.scheduler.wake
        self.bots = BotPlayers(self.sessions, nudges, self.settings.bot_delay)
        self.clocks = Clocks(self.sessions, self.scheduler)
        self.publisher.away = self.clocks.away  # one dict: a table shows who is away as /game away sets it
        await self.clocks.load()
        self.lobby_desk = LobbyDesk(self.clicks, self.lobby)
        self.undo_desk = UndoDesk(self.clicks, UndoService(self.sessions))
        self.players = PlayerDesk(
            self.lobby_desk,
            self.lobby,
            MineService(self.sessions),
            StatsService(self.sessions),
            ServerSettings(self.store),
            self.reader,
        )
        # Command names and descriptions in every language we have (sent with tree.sync).
        await self.tree.set_translator(CatalogTranslator(self.catalog))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.load_extension("cogs.lobby")
        await self.load_extension("cogs.tasks")
        await self.load_extension("cogs.reach")
        for entry in self.registry:
            self.publisher.presenters[entry.name] = self.build_presenter(entry)
        if self.settings.dev_guild and self.sync_dev_guild:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server", len(synced))

    def build_presenter(self, entry: GameEntry) -> Presenter:
        """The game's presenter, built from the class its entry names (called after the undo desk
        is made, so a hook the presenter files runs after the host's own, as it always did).
        Anything but a ``Presenter`` stops the start: the tables never draw with a stranger."""
        presenter = entry.presenter.for_host(self)
        if not isinstance(presenter, Presenter):
            raise RegistryError(
                f"game {entry.name!r}: its presenter class built a {type(presenter).__name__}, "
                "not a bot.ui.presenter.Presenter"
            )
        return presenter

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()

    async def on_ready(self) -> None:
        shards = self.settings.shards
        log.info(
            "connected as %s to %d servers%s",
            self.user,
            len(self.guilds),
            f" (shards {shards})" if shards else "",
        )
        try:
            with background():
                await self.publisher.resume()
                moving = await self.bots.resume()
        except StoreError as exc:
            log.error("could not check the tables after connecting: %s", exc)
        else:
            if moving:
                log.info("bot players resumed in %d game(s)", moving)

    def server_language(self, interaction: discord.Interaction) -> str:
        """The server's preferred language when we have a catalog for it, else the bot's
        (``GAMEHOST_LANGUAGE``, English by default): a new table's, and the fallback of a
        player's own answers."""
        guild = interaction.guild
        for locale in (guild.preferred_locale if guild is not None else None, interaction.guild_locale):
            found = self.catalog.match(locale)
            if found is not None:
                return found
        return self.settings.language

    def reader(self, interaction: discord.Interaction) -> str:
        """The language of an answer only this player reads: their Discord locale when we have
        it, else the server's (:meth:`server_language`)."""
        own = self.catalog.match(interaction.locale) if self.settings.client_languages else None
        return own or self.server_language(interaction)

    def handler(self, kind: str) -> Handler:
        """Who answers a component id of this kind (:class:`bot.ui.components.Router`)."""
        handlers: dict[str, Handler] = {
            "g": self.clicks.on_action_click,
            "a": self.clicks.on_lasting_click,
            "u": self.clicks.on_panel_click,
            "m": self.clicks.on_form_click,
            "l": self.lobby_desk.on_click,
        }
        return handlers.get(kind, self.clicks.on_malformed)

    async def on_select(self, interaction: discord.Interaction, rest: str, values: list[str]) -> None:
        await self.clicks.on_select(interaction, rest, values)

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """Run a click or form handler so that it always answers, even when it fails.

        Handlers answer what they expect themselves; this is the net under them for a
        database that stopped working or a bug, so the player never sees "This
        interaction failed" and is never told something succeeded when it did not.
        """
        language = self.reader(interaction)
        try:
            await work
        except StoreError as exc:
            log.error(
                "interaction %s by user %s: database error: %s", interaction.id, interaction.user.id, exc
            )
            await safe.reply(interaction, self.catalog.text("host.storage_trouble", language))
        except Exception:
            log.exception("interaction %s by user %s failed", interaction.id, interaction.user.id)
            await safe.reply(interaction, self.catalog.text("host.internal_error", language))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Forms, and anything no handler claims, so no click ever ends in "This interaction failed"."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if interaction.type == discord.InteractionType.modal_submit and custom_id.startswith(FORM_PREFIX):
            await self.guarded(
                interaction,
                self.clicks.on_form_submit(interaction, custom_id[len(FORM_PREFIX) :], _first_value(data)),
            )
            return
        answered = interaction.type == discord.InteractionType.component and custom_id.startswith(
            COMPONENT_PREFIXES
        )
        if (
            interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit)
            and not answered
        ):
            log.debug("refused unknown component id from user %s", interaction.user.id)
            await safe.reply(
                interaction, self.catalog.text("host.unknown_component", self.reader(interaction))
            )

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        language = self.reader(interaction)
        if isinstance(error, app_commands.NoPrivateMessage):
            await safe.reply(interaction, self.catalog.text("host.refuse.dm", language))
            return
        name = interaction.command and interaction.command.name
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, StoreError):
            log.error("command %s: database error: %s", name, cause)
            await safe.reply(interaction, self.catalog.text("host.storage_trouble", language))
            return
        log.error("command %s failed: %s", name, error, exc_info=cause)
        await safe.reply(interaction, self.catalog.text("host.internal_error", language))


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The same bot connecting several shards at once (discord.py's ``AutoShardedBot``): one of
    several processes sharing a PostgreSQL database, each running its own shards."""


def make_bot(settings: Settings, **options: Any) -> GameBot:
    """The bot the settings ask for: one plain connection, or the shards ``settings.shards`` names."""
    if settings.shards is None:
        return GameBot(settings, **options)
    shards = settings.shards
    return ShardedGameBot(settings, shard_ids=list(shards.ids), shard_count=shards.count, **options)


def discord_time() -> float:
    """Now, as a Unix time, from discord.py's clock: the wall clock in production, SimCord's
    virtual one in tests, so deadlines and ``advance_time`` agree."""
    return discord.utils.utcnow().timestamp()


def _first_value(data: dict[str, Any]) -> str:
    """The first text input of a submitted modal (our forms have exactly one)."""
    for row in data.get("components", []):
        for component in row.get("components", [row.get("component", {})]) if isinstance(row, dict) else []:
            if isinstance(component, dict) and "value" in component:
                return str(component["value"])
        if isinstance(row, dict) and "component" in row and "value" in row["component"]:
            return str(row["component"]["value"])
    return ""
