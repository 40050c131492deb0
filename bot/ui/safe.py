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
