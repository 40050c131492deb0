"""Helpers for driving the real bot through SimCord (offline simulated Discord).

Reading messages (words, labels, controls, a ``Table``) is ``harness.messages``, shared with the
benchmarks; what only tests need (a bot on a temporary file, a table opened by slash commands,
custom ids) is here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import GameBot
from bot.config import Settings
from harness.messages import Table, children, controls, kind_of, response_of, walk


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


def row_labels(message: Any) -> list[str]:
    """Labels of the buttons in a message's action rows: the moves, without a heading's aside."""
    rows = [c for c in walk(message) if kind_of(c) == 1]
    return [getattr(child, "label", None) or "" for row in rows for child in children(row)]


def ids(message: discord.Message) -> list[str]:
    return [getattr(child, "custom_id", None) or "" for child in controls(message)]


def playable(message: discord.Message) -> bool:
    """Whether a message still has game buttons (the final message keeps only Catch me up and Rematch)."""
    return any(
        i.startswith(("g:", "m:", "s:")) or (i.startswith("u:") and not i.endswith(":h.catchup"))
        for i in ids(message)
    )


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
    lobby = response_of(result).message
    for player in players[1:]:
        await player.click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    return Table(env, channel, players)
