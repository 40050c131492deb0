"""Discord calls that may fail for reasons outside our control.

A deleted thread, a missing permission, an expired interaction token or a
network fault must never crash a handler or leave the player with "This
interaction failed": these wrappers log one line and report failure to the
caller.  They also keep every text within Discord's 2,000 characters, since
an over-long message is refused outright (and an unanswered click follows).
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

from bot.i18n import clip

log = logging.getLogger(__name__)

FAILURES: tuple[type[BaseException], ...] = (
    discord.HTTPException,
    aiohttp.ClientError,
    OSError,
    TimeoutError,
)
"""What a Discord call can fail with that is not our bug: HTTP errors and network faults."""


def _clipped(kwargs: dict[str, Any]) -> dict[str, Any]:
    content = kwargs.get("content")
    if isinstance(content, str):
        kwargs["content"] = clip(content)
    return kwargs


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> bool:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    kwargs.setdefault("ephemeral", True)
    content = clip(content)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content, **kwargs)
        else:
            await interaction.response.send_message(content, **kwargs)
        return True
    except FAILURES as exc:
        log.warning("could not reply to interaction %s: %s", interaction.id, exc)
        return False


def chunks(text: str, limit: int = 2000) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, each cut at a line's end.

    For a text longer than one message (``/game rules`` with a game's rulings): a reader gets
    whole lines in order, never a sentence broken between two messages.  Only a single line
    longer than a message is cut inside itself.
    """
    parts: list[str] = []
    current: str | None = None
    for line in text.split("\n"):
        while len(line) > limit:
            if current is not None:
                parts.append(current)
                current = None
            parts.append(line[:limit])
            line = line[limit:]
        if not current:  # nothing yet, or only a blank line: a part never starts blank
            current = line
        elif len(current) + 1 + len(line) <= limit:
            current = f"{current}\n{line}"
        else:
            parts.append(current)
            current = line
    if current is not None:
        parts.append(current)
    return [part for part in parts if part.strip()] or [""]


async def reply_long(interaction: discord.Interaction, text: str, **kwargs: Any) -> bool:
    """An ephemeral answer of any length: one message per :func:`chunks` part, in order.

    ``True`` when every part was sent; the first failure stops the rest (a reader must not get
    the end of a text without its start).
    """
    for part in chunks(text):
        if not await reply(interaction, part, **kwargs):
            return False
    return True


async def defer(interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> None:
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
    except FAILURES as exc:
        log.warning("could not defer interaction %s: %s", interaction.id, exc)


async def send(channel: discord.abc.Messageable, **kwargs: Any) -> discord.Message | None:
    try:
        return await channel.send(**_clipped(kwargs))
    except FAILURES as exc:
        log.warning("could not send to channel %s: %s", getattr(channel, "id", "?"), exc)
        return None


async def edit(
    message: discord.PartialMessage | discord.Message, *, missing_ok: bool = False, **kwargs: Any
) -> bool:
    """Edit a message; a deleted one counts as done only with ``missing_ok`` (folding it away)."""
    try:
        await message.edit(**_clipped(kwargs))
        return True
    except discord.NotFound:
        return missing_ok
    except FAILURES as exc:
        log.warning("could not edit message %s: %s", message.id, exc)
        return False


async def delete(message: discord.PartialMessage | discord.Message) -> bool:
    """Delete a message; ``True`` when it is gone (also when someone deleted it first)."""
    try:
        await message.delete()
        return True
    except discord.NotFound:
        return True
    except FAILURES as exc:
        log.warning("could not delete message %s: %s", message.id, exc)
        return False
