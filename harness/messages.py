"""Reading the messages SimCord holds (or the payloads the bot sent) as a player sees them:
the words, the image descriptions, the buttons and selects, in reading order.

discord.py objects and raw payload dicts alike: the tests read both, and the benchmarks read the
payloads they intercept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import simcord

V2 = 1 << 15
"""Discord's IS_COMPONENTS_V2 message flag: the message shows text displays, not ``content``."""
TEXT_DISPLAY, BUTTON_TYPES = 10, (2, 3, 5, 6, 7, 8)
"""Component types: a text display; a button and the selects (string, user, role, mentionable, channel)."""


def kind_of(component: Any) -> int:
    """A component's type number (a payload dict or a discord.py object)."""
    if isinstance(component, dict):
        return int(component.get("type", 0))
    return int(getattr(getattr(component, "type", None), "value", 0) or 0)


def children(component: Any) -> list[Any]:
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
            visit(children(component))

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
        c["content"] if isinstance(c, dict) else c.content
        for c in walk(message)
        if kind_of(c) == TEXT_DISPLAY
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
                visit(children(component))

    visit(body.get("components"))
    return "\n".join(t for t in texts if t)


MEDIA_GALLERY = 12


def alt_texts(message: Any) -> list[str]:
    """The descriptions (alt text) of a message's media gallery items, in order."""
    found: list[str] = []
    for component in walk(message):
        if kind_of(component) != MEDIA_GALLERY:
            continue
        items = component.get("items") if isinstance(component, dict) else getattr(component, "items", [])
        for item in items or []:
            text = item.get("description") if isinstance(item, dict) else getattr(item, "description", None)
            found.append(str(text or ""))
    return found


def controls(message: Any) -> list[Any]:
    """A message's buttons and selects, in order (in rows, sections and containers alike)."""
    return [c for c in walk(message) if kind_of(c) in BUTTON_TYPES]


def labels(message: discord.Message) -> list[str]:
    return [getattr(child, "label", None) or "" for child in controls(message)]


@dataclass
class Table:
    """A table opened in a SimCord server: its channel (the lobby), its thread and its players."""

    env: simcord.Env
    channel: simcord.ChannelHandle
    players: list[simcord.MemberActor]

    @property
    def guild(self) -> simcord.GuildHandle:
        """The server the table's channel is in (SimCord types a channel's server as optional: a DM has none)."""
        guild = self.channel.guild
        if guild is None:
            raise AssertionError("a table's channel is in a server")
        return guild

    @property
    def thread(self) -> simcord.ChannelHandle:
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

    def on_turn(self) -> simcord.MemberActor:
        content = words_of(self.table_message())
        for player in self.players:
            if f"<@{player.id}>" in content:
                return player
        raise AssertionError(f"nobody is pinged in {content!r}")


def response_of(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The message an interaction was answered with.

    SimCord gives ``None`` when the bot answered with no message (a modal, a deferral, a deleted
    reply); a caller that expects one fails here, saying what it got, not on ``None.message``."""
    response = result.response
    if response is None:
        raise AssertionError(f"the interaction was answered with no message: {result!r}")
    return response
