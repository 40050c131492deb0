"""The sandbox: the real bot inside a simulated Discord, played from a browser.

``python -m bot sandbox`` (and ``python -m bot`` with no token) starts the same :class:`GameBot`,
store, renderers and presenters as ``run``, but attaches it to SimCord (the simulated Discord the
tests use) instead of Discord, and serves SimCord's loopback preview: a Discord-like page whose
slash-command composer, buttons, selects and forms run the bot's real callbacks.  Nothing in the
games, the presenters or the cogs knows about it; this module is imported only by that command.

What the simulated server is, and why:

- One server, ``Sandbox``, with one text channel, ``#games``, and four members (:data:`MEMBERS`):
  ``Alex``, the one at the keyboard (the page opens as Alex, the server's owner, so ``/game
  show``, ``/game abandon`` and ``/game settings`` work as for a moderator), and three more to
  play hot-seat: the page's "Viewing as" picker switches between them, and each one's private
  panels show only while viewing as that member.  Every member has a real name, since the bot
  writes names into sentences ("Alex plays first", "Alex's mansion").  Seats beyond them are bot
  players (the lobby's "Add a bot").
- ``#games`` does not let anyone open threads.  The preview shows one channel, and the bot,
  refused a thread as it would be on a Discord server set up that way, plays each table in the
  channel itself: everything happens on the one page.  On a server that is a setup problem, and
  the bot logs a WARNING for it; here it is by design, so the sandbox logs that line at INFO
  (:class:`ThreadlessChannel`).
- The same ids on every start.  Stored games name their server, channel and players by id, so a
  restart must find the same ones: the server's id is pinned (:data:`GUILD_ID`) and the users
  and channel are made, in a fixed order, before the simulated clock moves, so SimCord's snowflake
  counter hands out the same ids each time (a test checks it).
- Then the simulated clock is set to the wall clock: every message made from then on has an id
  newer than any from an earlier start (a stored message id never names a new message), and the
  times shown are real.
- SimCord keeps its messages in memory, so a restart starts with an empty ``#games``: the games
  themselves are in the database (:attr:`Settings.sandbox_database`, a file of its own), and each
  running table is posted again at start by Alex typing ``/game show table:N``, the command a
  player would use.  Lobbies that were open are not (no command reposts a lobby).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import signal
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import discord
import simcord
from simcord.actors import MemberActor
from simcord.builders import ChannelHandle, GuildHandle

from bot.client import GameBot, make_bot
from bot.core.config import Settings
from bot.core.registry import Registry
from bot.games import REGISTRY
from bot.storage import GameStatus
from bot.ui import lobby_message

log = logging.getLogger(__name__)

GUILD_ID = 1_234_567_890_123_456_789
"""The simulated server's id, pinned so that stored games find their server after a restart."""
GUILD_NAME = "Sandbox"
CHANNEL_NAME = "games"
CHANNEL_TOPIC = (
    "Type /game new to open a table; in its lobby, Add a bot fills seats. "
    '"Viewing as" (top) switches to another player at this keyboard.'
)
MEMBERS = ("Alex", "Ana", "Bob", "Cleo")
"""The first is the one the page opens as (and the server's owner); the others are for hot-seat:
with bots for the remaining seats, every game's largest table (six) can be filled.  Real names,
not "you": the bot puts a player's name into sentences and onto boards."""
BOT_NAME = "Game host"
"""The bot user's name on the page (SimCord calls it TestBot)."""

BOT_DELAY = 0.0
"""Seconds a bot player waits before moving, in the sandbox.  The page is published when a click
has settled, and a click settles only once every bot moving after it has moved, so a delay here
would only make each click slower without showing anything in between."""
SETTLE_SECONDS = 120.0
"""How long a click may take to settle, bots' thinking included (SimCord's default of 5 s is
for tests, and a few bots searching in a long game can take longer)."""


@dataclass(frozen=True, slots=True)
class World:
    """The simulated server as the sandbox built it."""

    guild: GuildHandle
    channel: ChannelHandle
    members: tuple[MemberActor, ...]

    @property
    def you(self) -> MemberActor:
        """The member at the keyboard (:data:`MEMBERS`' first): the page opens as this member."""
        return self.members[0]

    def ids(self) -> dict[str, Any]:
        """Every id a stored game can name: the same on every start (checked by the tests)."""
        return {
            "guild": self.guild.id,
            "channel": self.channel.id,
            "members": [member.id for member in self.members],
        }


class ThreadlessChannel(logging.Filter):
    """The lobby's "no thread; playing in the channel" line, for the sandbox's own channel, at INFO.

    On a server a channel that refuses the bot threads is a setup problem, and the line is a
    WARNING (``bot/ui/lobby_message.py``, which names the channel in the record's
    ``no_thread_channel``); the sandbox's channel refuses threads by design, so every table
    there would otherwise start with a warning about nothing.  Lines about any other channel are
    left as they are.  Installed on that module's logger while the sandbox runs (:func:`started`).
    """

    def __init__(self, channel_id: int) -> None:
        super().__init__()
        self.channel_id = channel_id

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "no_thread_channel", None) != self.channel_id or record.levelno <= logging.INFO:
            return True
        record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
        # The logger let the record through as a WARNING: drop it where INFO is not wanted.
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)


def sandbox_settings(settings: Settings) -> Settings:
    """The bot's settings for the sandbox: its own database, no token, no shards, no
    development server to sync to, and bots that move at once (:data:`BOT_DELAY`)."""
    return dataclasses.replace(
        settings,
        token=None,
        database=settings.sandbox_database,
        dev_guild=None,
        shards=None,
        bot_delay=BOT_DELAY,
        client_languages=False,
    )


def build_world(env: simcord.Env) -> World:
    """Make the server, its channel and members; call it before the clock moves (ids).

    Users first, then the server (owned by the first member), then the channel: the order fixes
    the ids.
    """
    env.backend.edit_bot_profile(BOT_NAME)
    users = [env.create_user(name) for name in MEMBERS]
    guild = env.create_guild(GUILD_NAME, id=GUILD_ID, owner=users[0])
    no_threads = discord.PermissionOverwrite(create_public_threads=False, create_private_threads=False)
    channel = guild.create_text_channel(
        CHANNEL_NAME, topic=CHANNEL_TOPIC, overwrites={guild.roles["@everyone"]: no_threads}
    )
    members = tuple(guild.add_member(user) for user in users)
    return World(guild, channel, members)


def set_clock_to_now(env: simcord.Env) -> None:
    """Move SimCord's clock (which starts at its own fixed date) to the wall clock; never back."""
    behind = time.time() - env.now().timestamp()
    if behind > 0:
        env.backend.advance_clock(behind)


@dataclass
class Sandbox:
    """A started sandbox: the bot attached to a running simulated Discord with its world."""

    bot: GameBot
    env: simcord.Env
    world: World

    async def restore(self) -> list[int]:
        """Post again every running table of the sandbox's channel (after a restart the channel is
        empty), as its first member would with ``/game show``; returns the tables posted."""
        rows = await self.bot.store.games.list_games(
            guild_id=self.world.guild.id, statuses=(GameStatus.ACTIVE,)
        )
        shown = []
        for row in rows:
            if row.table_channel_id != self.world.channel.id:
                continue
            await self.world.you.slash(self.world.channel, "game show", table=row.id)
            shown.append(row.id)
        return shown


@contextlib.asynccontextmanager
async def started(settings: Settings, registry: Registry = REGISTRY) -> AsyncIterator[Sandbox]:
    """The sandbox, running until the block ends: the bot started, its commands published to
    the simulated Discord (the page's composer lists only published commands), tables restored.

    ``settings`` are taken as they are (see :func:`sandbox_settings`)."""
    bot = make_bot(settings, registry=registry)
    env = simcord.Env(bot, strict_sync=True, settle_timeout=SETTLE_SECONDS)
    world = build_world(env)
    set_clock_to_now(env)
    threadless = ThreadlessChannel(world.channel.id)
    lobby_message.log.addFilter(threadless)
    try:
        await env.start()
        try:
            with env.time_context():
                await bot.tree.sync()
                sandbox = Sandbox(bot, env, world)
                restored = await sandbox.restore()
                if restored:
                    log.info(
                        "tables posted again after the restart: %s", ", ".join(f"#{i}" for i in restored)
                    )
                yield sandbox
        finally:
            try:
                await env.shutdown()
            finally:
                # SimCord detaches the bot without closing it: close the database ourselves.
                store = getattr(bot, "store", None)
                if store is not None:
                    await store.close()
    finally:
        lobby_message.log.removeFilter(threadless)


async def serve(
    settings: Settings,
    announce: Callable[[str], None],
    *,
    port: int = 0,
    registry: Registry = REGISTRY,
) -> None:
    """Run the sandbox and its page until the page's "End preview session", Ctrl+C or SIGTERM.

    ``announce`` gets the page's address once it answers.  The page listens on 127.0.0.1 only
    (SimCord's preview binds loopback) and its address carries a secret that changes on every
    start: anyone with it can play as the members.  ``port`` 0 takes a free port, so a second
    sandbox or a busy port never stops a start (a bookmark would not survive the secret anyway).
    """
    async with started(settings, registry) as sandbox:
        world = sandbox.world
        preview = sandbox.env.preview(world.channel, viewers=list(world.members), layout="channel", port=port)
        async with preview:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(signum, lambda: asyncio.ensure_future(preview.close()))
            announce(preview.url)
            try:
                await preview.wait_closed()
            finally:
                for signum in (signal.SIGINT, signal.SIGTERM):
                    with contextlib.suppress(NotImplementedError, RuntimeError):
                        loop.remove_signal_handler(signum)
