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


V2 = 1 << 15
"""Discord's IS_COMPONENTS_V2 message flag: the message shows text displays, not ``content``."""
TEXT_DISPLAY, BUTTON_TYPES = 10, (2, 3, 5, 6, 7, 8)
"""Component types: a text display; a button and the selects (string, user, role, mentionable, channel)."""


def _kind(component: Any) -> int:
    if isinstance(component, dict):
        return int(component.get("type", 0))
    return int(getattr(getattr(component, "type", None), "value", 0) or 0)


def _nested(component: Any) -> list[Any]:
    """A component's children, a section's accessory included (payload dicts or discord.py objects)."""
    if isinstance(component, dict):
        out = list(component.get("components") or [])
        return [*out, component["accessory"]] if component.get("accessory") else out
    out = list(getattr(component, "children", None) or [])
    accessory = getattr(component, "accessory", None)
    return [*out, accessory] if accessory is not None else out


def walk(message: Any) -> list[Any]:
    """Every component of a message, depth first, in the order a reader meets them."""
    found: list[Any] = []

    def visit(components: Any) -> None:
        for component in components or []:
            found.append(component)
            visit(_nested(component))

    visit(message.components)
    return found


def is_layout(message: Any) -> bool:
    flags = getattr(message, "flags", 0)
    value = flags if isinstance(flags, int) else getattr(flags, "value", 0)
    return bool(value & V2)


def words_of(message: Any) -> str:
    """The words a message shows: its ``content``, or its text displays in order (a layout)."""
    if not is_layout(message):
        return str(message.content or "")
    texts = [
        c["content"] if isinstance(c, dict) else c.content for c in walk(message) if _kind(c) == TEXT_DISPLAY
    ]
    return "\n".join(texts)


def payload_words(body: dict[str, Any]) -> str:
    """The words a message payload the bot sent shows: ``content`` and every text display."""
    texts = [str(body.get("content") or "")]

    def visit(components: Any) -> None:
        for component in components or []:
            if isinstance(component, dict):
                if component.get("type") == TEXT_DISPLAY:
                    texts.append(str(component.get("content") or ""))
                visit(_nested(component))

    visit(body.get("components"))
    return "\n".join(t for t in texts if t)


MEDIA_GALLERY = 12


def alt_texts(message: Any) -> list[str]:
    """The descriptions (alt text) of a message's media gallery items, in order."""
    found: list[str] = []
    for component in walk(message):
        if _kind(component) != MEDIA_GALLERY:
            continue
        items = component.get("items") if isinstance(component, dict) else getattr(component, "items", [])
        for item in items or []:
            text = item.get("description") if isinstance(item, dict) else getattr(item, "description", None)
            found.append(str(text or ""))
    return found


def controls(message: Any) -> list[Any]:
    """A message's buttons and selects, in order (in rows, sections and containers alike)."""
    return [c for c in walk(message) if _kind(c) in BUTTON_TYPES]


def row_labels(message: Any) -> list[str]:
    """Labels of the buttons in a message's action rows: the moves, without a heading's aside."""
    rows = [c for c in walk(message) if _kind(c) == 1]
    return [getattr(child, "label", None) or "" for row in rows for child in _nested(row)]


def ids(message: discord.Message) -> list[str]:
    return [getattr(child, "custom_id", None) or "" for child in controls(message)]


def labels(message: discord.Message) -> list[str]:
    return [getattr(child, "label", None) or "" for child in controls(message)]


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
            if controls(message):
                return message
        raise AssertionError("no live table message")

    def messages(self) -> list[discord.Message]:
        return list(self.thread.history())

    def recent(self, count: int = 2) -> str:
        """The newest messages' text: the live board and the turn folded into history above it."""
        return "\n".join(words_of(m) for m in self.messages()[-count:])

    def boards(self) -> list[discord.Message]:
        """Messages that still show a board image."""
        return [m for m in self.messages() if m.attachments]

    def on_turn(self) -> Any:
        content = words_of(self.table_message())
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
