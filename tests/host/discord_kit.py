"""Helpers for driving the real bot through SimCord (offline simulated Discord)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import GameBot
from bot.config import Settings


def settings(tmp: Path) -> Settings:
    return Settings(
        token=None,
        database=tmp / "host.sqlite3",
        dev_guild=None,
        log_level="INFO",
        language="en",
        bot_delay=0.0,
    )


OPEN_BOTS: list[GameBot] = []
"""Bots made by a test; ``tests/conftest.py`` closes their databases before the test's loop ends.

SimCord detaches a bot without closing it, and an open aiosqlite connection then
outlives the event loop it answers to.
"""


def make_bot(tmp: Path) -> GameBot:
    bot = GameBot(settings(tmp))
    OPEN_BOTS.append(bot)
    return bot


async def close_bots() -> None:
    while OPEN_BOTS:
        store = getattr(OPEN_BOTS.pop(), "store", None)
        if store is not None:
            await store.close()


def ids(message: discord.Message) -> list[str]:
    return [child.custom_id or "" for row in message.components for child in row.children]  # type: ignore[attr-defined]


def labels(message: discord.Message) -> list[str]:
    return [getattr(child, "label", None) or "" for row in message.components for child in row.children]  # type: ignore[attr-defined]


def playable(message: discord.Message) -> bool:
    """Whether a message still has game buttons (the final message keeps only Catch me up and Rematch)."""
    return any(
        i.startswith(("g:", "m:", "s:")) or (i.startswith("u:") and not i.endswith(":h.catchup"))
        for i in ids(message)
    )


@dataclass
class Table:
    env: simcord.Env
    channel: Any
    players: list[Any]

    @property
    def thread(self) -> Any:
        return self.channel.threads[0]

    def table_message(self) -> discord.Message:
        """The newest message in the thread that still has buttons."""
        for message in reversed(self.thread.history()):
            if message.components:
                return message
        raise AssertionError("no live table message")

    def messages(self) -> list[discord.Message]:
        return list(self.thread.history())

    def recent(self, count: int = 2) -> str:
        """The newest messages' text: the live board and the turn folded into history above it."""
        return "\n".join(m.content for m in self.messages()[-count:])

    def boards(self) -> list[discord.Message]:
        """Messages that still show a board image."""
        return [m for m in self.messages() if m.attachments]

    def on_turn(self) -> Any:
        content = self.table_message().content
        for player in self.players:
            if f"<@{player.id}>" in content:
                return player
        raise AssertionError(f"nobody is pinged in {content!r}")


async def open_table(
    env: simcord.Env, names: list[str], game: str = "toy", options: str | None = None
) -> Table:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in names]
    kwargs: dict[str, Any] = {"name": game}
    if options:
        kwargs["options"] = options
    result = await players[0].slash(channel, "game new", **kwargs)
    lobby = result.response.message
    for player in players[1:]:
        await player.click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    return Table(env, channel, players)
