"""Discord calls that may fail for reasons outside our control.

A deleted thread, a missing permission or an expired interaction token must
never crash a handler or leave the player with "This interaction failed":
these wrappers log one line and report failure to the caller.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> bool:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    kwargs.setdefault("ephemeral", True)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content, **kwargs)
        else:
            await interaction.response.send_message(content, **kwargs)
        return True
    except discord.HTTPException as exc:
        log.warning("could not reply to interaction %s: %s", interaction.id, exc)
        return False


async def defer(interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> None:
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        log.warning("could not defer interaction %s: %s", interaction.id, exc)


async def send(channel: discord.abc.Messageable, **kwargs: Any) -> discord.Message | None:
    try:
        return await channel.send(**kwargs)
    except discord.HTTPException as exc:
        log.warning("could not send to channel %s: %s", getattr(channel, "id", "?"), exc)
        return None


async def edit(message: discord.PartialMessage | discord.Message, **kwargs: Any) -> bool:
    try:
        await message.edit(**kwargs)
        return True
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:
        log.warning("could not edit message %s: %s", message.id, exc)
        return False
