"""A catalog names each slash command and option as a client in its language shows them.

Discord shows ``/game new`` to a French client as ``/partie nouvelle`` (the ``[commands]``
section, :mod:`bot.ui.translator`), so a French sentence that says "use `/game new`" names a
command the reader cannot find.  The expected names are read from ``[commands]`` itself: renaming
a command there makes this test ask for the new name everywhere the catalog mentions it.

Checked in every string outside ``[commands]``' names: each ``/<group> <command>`` mention, each
``option:`` written in a backticked command (``/partie absent jours:3``) or alone (``rétablir:``),
and an option named in prose ("l'option table").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from bot.core.i18n import Catalog

CATALOG = Catalog.load()
PROSE_OPTION = {"fr": r"l['’]option ([\w-]+)", "en": r"the ([\w-]+) option"}
"""How each language names an option in a sentence; a language not listed here is checked only
for its commands and backticked options."""


@dataclass(frozen=True)
class Commands:
    """The names a client in one language sees: groups, their commands, each command's options."""

    groups: frozenset[str]
    commands: dict[str, frozenset[str]]
    """Group -> its commands' names."""
    options: dict[tuple[str, str], frozenset[str]]
    """(group, command) -> its options' names."""

    @property
    def every_option(self) -> frozenset[str]:
        return frozenset().union(*self.options.values())


def names(catalog: Catalog, language: str) -> Commands:
    """The group, command and option names of ``language``'s ``[commands]`` section: the keys
    ``commands.<group>.name``, ``commands.<group>.<command>.name`` and
    ``commands.<group>.<command>.param.<option>.name``."""

    def name(*path: str) -> str:
        text = catalog.own(".".join(("commands", *path, "name")), language)
        assert text is not None, path
        return text

    groups: set[str] = set()
    commands: dict[str, set[str]] = {}
    options: dict[tuple[str, str], set[str]] = {}
    for key in catalog.keys(language):
        path = key.split(".")
        if path[0] != "commands" or path[-1] != "name":
            continue
        inner = path[1:-1]
        group = name(inner[0])
        groups.add(group)
        commands.setdefault(group, set())
        if len(inner) >= 2:
            command = name(*inner[:2])
            commands[group].add(command)
            options.setdefault((group, command), set())
            if len(inner) == 4 and inner[2] == "param":
                options[(group, command)].add(name(*inner))
    return Commands(
        frozenset(groups),
        {group: frozenset(found) for group, found in commands.items()},
        {pair: frozenset(found) for pair, found in options.items()},
    )


def strings(catalog: Catalog, language: str) -> dict[str, str]:
    """Every string of the catalog but the command names themselves (their descriptions stay in:
    one may mention another command)."""
    return {
        key: text
        for key in sorted(catalog.keys(language))
        if not (key.startswith("commands.") and key.endswith(".name"))
        and (text := catalog.own(key, language)) is not None
    }


def problems(language: str, catalog: Catalog = CATALOG) -> list[str]:
    own = names(catalog, language)
    others = [names(catalog, other) for other in catalog.languages if other != language]
    any_group = "|".join(re.escape(g) for g in sorted(own.groups.union(*(o.groups for o in others))))
    mention = re.compile(rf"(?<![\w/<:])/({any_group})(?![\w-])(?: ([\w-]+))?")
    found = []
    for key, text in strings(catalog, language).items():
        for match in mention.finditer(text):
            group, command = match.group(1), match.group(2)
            if group not in own.groups:
                found.append(f"{key}: /{group} is not what a {language} client calls the group: {text!r}")
            elif command is not None and command not in own.commands[group]:
                found.append(f"{key}: /{group} {command}: no {language} command {command!r}: {text!r}")
        for span in re.findall(r"`([^`]*)`", text):
            called = re.match(r"/([\w-]+) ([\w-]+)\b(.*)", span)
            if called and (called.group(1), called.group(2)) in own.options:
                allowed = own.options[(called.group(1), called.group(2))]
                for option in re.findall(r"(?:^|\s)([^\s:]+):", called.group(3)):
                    if option not in allowed:
                        found.append(f"{key}: {option}: is no {language} option of {span!r}: {text!r}")
            elif (alone := re.fullmatch(r"([^\s:/]+):", span)) and alone.group(1) not in own.every_option:
                found.append(f"{key}: `{span}` is no {language} option name: {text!r}")
        if language in PROSE_OPTION:
            for option in re.findall(PROSE_OPTION[language], text):
                if option not in own.every_option:
                    found.append(f"{key}: option {option!r} is no {language} option name: {text!r}")
    return found


@pytest.mark.parametrize("language", CATALOG.languages)
def test_strings_name_commands_as_the_languages_clients_see_them(language: str) -> None:
    assert not (found := problems(language)), "\n".join(found)


def test_the_check_finds_english_names_in_french() -> None:
    """The check itself: English command and option names in a French string are caught."""
    catalog = Catalog.load()
    catalog.extend(
        "fr",
        {
            "probe.command": "Lancez-en une avec `/game new`.",
            "probe.option": "Revenez avec `/partie absent back:True`.",
            "probe.alone": "`reset:` revient au réglage par défaut.",
            "probe.prose": "Indiquez-la avec l'option channel.",
            "probe.fine": "Tapez `/partie absent jours:3` ou `/partie liste`, avec l'option table.",
        },
    )
    found = problems("fr", catalog)
    assert sorted(line.split(":")[0] for line in found) == [
        "probe.alone",
        "probe.command",
        "probe.option",
        "probe.prose",
    ]
