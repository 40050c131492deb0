"""Who may do what, and where: the checks every command and button shares, written once.

The same check written at each call site drifts apart (one reads ``interaction.permissions``
directly, another guards a missing attribute), and a refusal worded at each site could change
in one place and not the others.
"""

from __future__ import annotations

import discord

from bot.services.sessions import Refusal

DM = "host.refuse.dm"
"""The refusal of a command that needs a server, used in a direct message."""


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the member has Manage Server where they clicked or typed: the server's moderators
    pass the per-member limits, close or abandon any table, set any table's clock, repost any
    board and change ``/game settings``."""
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)


def server_of(interaction: discord.Interaction) -> int:
    """The server a command was used in. Commands stay allowed in direct messages so that each
    answers there with a sentence instead of being silently hidden; this refuses them."""
    if interaction.guild_id is None:
        raise Refusal(DM)
    return interaction.guild_id


def server_and_channel(interaction: discord.Interaction) -> tuple[int, int]:
    """The server and the channel a command was used in, for one that places a table there."""
    guild_id = server_of(interaction)
    if interaction.channel_id is None:
        raise Refusal(DM)
    return guild_id, interaction.channel_id


def settings_server(interaction: discord.Interaction, channel: object | None) -> int:
    """The server whose ``/game settings`` a manager changes, once the channel given (if any) is
    one a table can be opened in (a text channel or a forum); both settings commands check this."""
    guild_id = server_of(interaction)
    if not is_manager(interaction):
        raise Refusal("host.settings.managers_only")
    if channel is not None and not isinstance(channel, (discord.TextChannel, discord.ForumChannel)):
        raise Refusal("host.settings.bad_channel")
    return guild_id
