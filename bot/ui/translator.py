"""Slash commands in the players' languages: discord.py's ``Translator`` over the catalog.

Discord shows a command, its options and their choices under the names and descriptions of the
client's language when the synced command carries ``name_localizations`` /
``description_localizations``; discord.py asks a :class:`discord.app_commands.Translator` for each
of them when it builds the payload of ``tree.sync``.  Ours reads the ``[commands]`` section of
``bot/locales/<lang>.toml``:

* ``commands.<group>[.<command>].name`` / ``.description`` for a group or command
  (``commands.game.new.name = "nouvelle"``),
* ``commands.<command path>.param.<option>.name`` / ``.description`` for an option,
* a choice's own key, given where the choice is defined (``locale_str(..., key=...)``; see
  :func:`choice`); a choice without one (a language, named in itself) is never translated.

English is the code's own text (Discord's default), so nothing is returned for it; the English
catalog repeats that text only so that every language has the same keys (and a test checks the
code and the catalog agree).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.core.i18n import DEFAULT_LANGUAGE, Catalog

ROOT = "commands"


def choice(name: str, value: str, key: str) -> app_commands.Choice[str]:
    """A choice whose name the catalog translates, under ``key`` (``commands.…``)."""
    return app_commands.Choice(name=app_commands.locale_str(name, key=key), value=value)


def command_key(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> str:
    """``commands.game.new`` for ``/game new``."""
    return ".".join((ROOT, *command.qualified_name.split()))


def parameter_key(parameter: app_commands.Parameter) -> str:
    """``commands.game.new.param.language`` for ``/game new``'s ``language``."""
    return f"{command_key(parameter.command)}.param.{parameter.name}"


def key_for(string: app_commands.locale_str, context: app_commands.TranslationContextTypes) -> str | None:
    """The catalog key of one string discord.py asks about, or ``None`` when it has none."""
    given = string.extras.get("key")
    if isinstance(given, str):
        return given
    location, data = context.location, context.data
    if location in (Where.command_name, Where.group_name) and isinstance(
        data, (app_commands.Command, app_commands.Group)
    ):
        return f"{command_key(data)}.name"
    if location in (Where.command_description, Where.group_description) and isinstance(
        data, (app_commands.Command, app_commands.Group)
    ):
        return f"{command_key(data)}.description"
    if location is Where.parameter_name and isinstance(data, app_commands.Parameter):
        return f"{parameter_key(data)}.name"
    if location is Where.parameter_description and isinstance(data, app_commands.Parameter):
        return f"{parameter_key(data)}.description"
    return None


class CatalogTranslator(app_commands.Translator):
    """Names and descriptions of our slash commands from ``[commands]`` in each catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = self.catalog.match(locale)
        if language is None or language == DEFAULT_LANGUAGE:
            return None
        key = key_for(string, context)
        if key is None:
            return None
        return self.catalog.own(key, language)
