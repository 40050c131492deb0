"""Slash commands in French, checked below the Discord layer (SimCord's clients are all en-US).

The tree is the bot's own, built by its ``setup_hook`` under SimCord; the translator is called
as discord.py calls it for ``tree.sync``: for every command, option and choice, in every locale.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import discord
import simcord
from discord import app_commands
from discord.app_commands import TranslationContext, locale_str
from discord.app_commands import TranslationContextLocation as Where

from bot.core.i18n import Catalog
from bot.ui.translator import CatalogTranslator, command_key, parameter_key
from tests.simcord import make_bot

Command = app_commands.Command[Any, ..., Any] | app_commands.Group


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names: ``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase where the
    letter has a lowercase form."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    )


def walk(
    commands: Sequence[Command | app_commands.ContextMenu],
) -> Iterator[tuple[Command, Sequence[Command | app_commands.ContextMenu]]]:
    """Every command and group with its siblings."""
    for command in commands:
        assert not isinstance(command, app_commands.ContextMenu), "this test knows only slash commands"
        yield command, commands
        if isinstance(command, app_commands.Group):
            yield from walk(list(command.commands))


async def tree_of(tmp_path: Path) -> app_commands.CommandTree[Any]:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False):
        pass  # starting is the point: setup_hook builds the command tree and sets the translator
    assert isinstance(bot.tree.translator, CatalogTranslator), "setup_hook registers the translator"
    return bot.tree


CONTEXTS: dict[Where, Callable[[Any], TranslationContext[Any, Any]]] = {
    Where.command_name: lambda data: TranslationContext(Where.command_name, data),
    Where.command_description: lambda data: TranslationContext(Where.command_description, data),
    Where.group_name: lambda data: TranslationContext(Where.group_name, data),
    Where.group_description: lambda data: TranslationContext(Where.group_description, data),
    Where.parameter_name: lambda data: TranslationContext(Where.parameter_name, data),
    Where.parameter_description: lambda data: TranslationContext(Where.parameter_description, data),
    Where.choice_name: lambda data: TranslationContext(Where.choice_name, data),
}
"""The context discord.py hands the translator at each place (its types name the place literally)."""


async def say(
    translator: app_commands.Translator, text: locale_str, location: Where, data: Any, locale: str = "fr"
) -> str | None:
    return await translator.translate(text, discord.Locale(locale), CONTEXTS[location](data))


def test_valid_name_rule() -> None:
    assert valid_name("nouvelle") and valid_name("mes-tables") and valid_name("règles")
    assert not valid_name("Nouvelle") and not valid_name("mes tables") and not valid_name("x" * 33)
    assert not valid_name("") and not valid_name("a/b")


async def test_every_command_option_and_choice_has_a_valid_french_name(tmp_path: Path) -> None:
    tree = await tree_of(tmp_path)
    translator = tree.translator
    assert translator is not None
    seen = 0
    for command, siblings in walk(list(tree.get_commands())):
        group = isinstance(command, app_commands.Group)
        name = await say(
            translator, locale_str(command.name), Where.group_name if group else Where.command_name, command
        )
        assert name is not None and valid_name(name), (command.qualified_name, name)
        others = [
            await say(translator, locale_str(s.name), Where.command_name, s)
            for s in siblings
            if s is not command
        ]
        assert name not in others, f"two commands beside {command.qualified_name} are both {name!r} in French"
        where = Where.group_description if group else Where.command_description
        description = await say(translator, locale_str(command.description), where, command)
        assert description is not None and 1 <= len(description) <= 100, (command.qualified_name, description)
        seen += 1
        if isinstance(command, app_commands.Group):
            continue
        french_options: list[str] = []
        for parameter in command.parameters:
            option = await say(translator, locale_str(parameter.name), Where.parameter_name, parameter)
            assert option is not None and valid_name(option), (command.qualified_name, parameter.name, option)
            french_options.append(option)
            about = await say(
                translator, locale_str(parameter.description), Where.parameter_description, parameter
            )
            assert about is not None and 1 <= len(about) <= 100, (parameter_key(parameter), about)
            for choice in parameter.choices:
                said = await say(
                    translator, choice._locale_name or locale_str(choice.name), Where.choice_name, choice
                )
                if parameter.name == "language":
                    assert said is None, "a language is named in itself, for everyone"
                    continue
                assert said is not None and 1 <= len(said) <= 100, (parameter_key(parameter), choice.value)
        assert len(set(french_options)) == len(french_options), f"{command.qualified_name}: {french_options}"
    assert seen >= 15


async def test_english_is_the_codes_own_text_and_the_catalog_agrees(tmp_path: Path) -> None:
    """``en.toml``'s ``[commands]`` repeats the code's words (its keys are every language's keys)."""
    tree = await tree_of(tmp_path)
    translator = tree.translator
    assert translator is not None
    catalog = Catalog.load()
    for command, _ in walk(list(tree.get_commands())):
        key = command_key(command)
        assert catalog.own(f"{key}.name", "en") == command.name
        assert catalog.own(f"{key}.description", "en") == command.description
        for locale in ("en-US", "en-GB", "de"):
            where = Where.group_name if isinstance(command, app_commands.Group) else Where.command_name
            assert await say(translator, locale_str(command.name), where, command, locale) is None
        if isinstance(command, app_commands.Group):
            continue
        for parameter in command.parameters:
            assert catalog.own(f"{parameter_key(parameter)}.name", "en") == parameter.name
            assert catalog.own(f"{parameter_key(parameter)}.description", "en") == parameter.description
            for choice in parameter.choices:
                choice_key = choice._locale_name.extras.get("key") if choice._locale_name else None
                if choice_key is not None:
                    assert catalog.own(choice_key, "en") == choice.name


async def test_the_sync_payload_carries_french_localisations(tmp_path: Path) -> None:
    tree = await tree_of(tmp_path)
    translator = tree.translator
    assert translator is not None
    (game,) = tree.get_commands()
    payload = await game.get_translated_payload(tree, translator)
    assert payload["name"] == "game" and payload["name_localizations"] == {"fr": "partie"}
    assert payload["description_localizations"]["fr"] == "Tables de jeux de société"
    subcommands = {option["name"]: option for option in payload["options"]}
    new = subcommands["new"]
    assert new["name_localizations"] == {"fr": "nouvelle"}
    assert "fr" in new["description_localizations"]
    options = {option["name"]: option for option in new["options"]}
    assert options["language"]["name_localizations"] == {"fr": "langue"}
    assert {c["value"]: c["name"] for c in options["language"]["choices"]} == {
        "en": "English",
        "fr": "Français",
    }
    assert all(not c.get("name_localizations") for c in options["language"]["choices"])
    how = subcommands["notify"]["options"][0]
    assert how["name_localizations"] == {"fr": "comment"}
    assert {c["value"]: c["name_localizations"]["fr"] for c in how["choices"]}["none"] == "aucun rappel"
    for option in payload["options"]:
        assert set(option["name_localizations"]) == {"fr"}, option["name"]
        assert set(option["description_localizations"]) == {"fr"}, option["name"]
        for inner in option.get("options", []):
            assert "fr" in inner["name_localizations"] and "fr" in inner["description_localizations"]
