"""Which games exist: name -> rules, renderer and the cog that presents it.

This is the one place that names games; the rest of the host looks them up
here.  The cog is named by module path because cogs sit above the host (they
import the session and the UI, which import this module) and are loaded as
discord.py extensions; the path is checked when the game registers, and the
client checks at start that the cog's ``setup`` registered the game's
presenter, so a typo or a forgotten ``setup`` stops the bot with a sentence
instead of leaving the game on a bare presenter.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from renderers.kit import Words
from rules.core import JSON, Rules
from rules.search import Hints, PlainHints

PLAIN = PlainHints()
"""Hints for a game that gives none: bots search it with uniform playouts and its outcome."""

Renderer = Callable[[dict[str, JSON], Sequence[str], Words], bytes]
"""A public view, the players' names (seat order) and the table's language in, PNG bytes out."""


class RegistryError(Exception):
    """A game that cannot be presented: raised at registration or at the bot's start, never later."""


def check_cog(name: str, cog: str) -> None:
    """Refuse a cog path that names no module, so a typo fails when the game registers.

    ``find_spec`` locates the module without importing it: importing a cog here would import
    the session and the UI from inside this module's own import.
    """
    try:
        found = importlib.util.find_spec(cog) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise RegistryError(
            f"game {name!r} names its cog {cog!r}, which is not a module that can be imported"
        )


@dataclass(frozen=True, slots=True)
class GameEntry:
    rules: Rules[Any]
    renderer: Renderer
    cog: str
    """Import path of the discord.py extension whose ``setup(bot)`` puts the game's presenter in
    ``bot.tables.presenters[name]`` (checked by :func:`check_cog` and at the bot's start)."""
    hidden: bool = False
    """Hidden games (the test game) are playable but not offered to users."""
    hints: Hints[Any] = PLAIN
    """What bot players know about the game's positions (``rules/<game>/heuristics.py``)."""

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def has_bots(self) -> bool:
        """Whether bots can play it: a bot thinks on states sampled from its seat's view, so
        the game must offer ``sample_state`` (``rules.search.SearchRules``)."""
        return callable(getattr(self.rules, "sample_state", None))


class Registry:
    def __init__(self) -> None:
        self._games: dict[str, GameEntry] = {}

    def register(self, entry: GameEntry) -> None:
        check_cog(entry.name, entry.cog)
        self._games[entry.name] = entry

    def unregister(self, name: str) -> None:
        self._games.pop(name, None)

    def get(self, name: str) -> GameEntry | None:
        return self._games.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def __iter__(self) -> Iterator[GameEntry]:
        return iter(list(self._games.values()))

    def public(self) -> list[GameEntry]:
        return [entry for entry in self._games.values() if not entry.hidden]


REGISTRY = Registry()


def _register_builtin_games() -> None:
    """Real games join here as they land (rules package, renderer module, cog)."""
    import renderers.california
    import renderers.estates
    import renderers.lastwill
    import renderers.monopoly
    import rules.california
    import rules.estates
    import rules.lastwill
    import rules.monopoly

    REGISTRY.register(
        GameEntry(
            rules.california.RULES,
            renderers.california.render,
            "cogs.california",
            hints=rules.california.heuristics.HINTS,
        )
    )
    REGISTRY.register(
        GameEntry(rules.estates.RULES, renderers.estates.render, "cogs.estates", hints=rules.estates.HINTS)
    )
    REGISTRY.register(
        GameEntry(
            rules.monopoly.RULES,
            renderers.monopoly.render,
            "cogs.monopoly",
            hints=rules.monopoly.heuristics.HINTS,
        )
    )
    REGISTRY.register(
        GameEntry(
            rules.lastwill.RULES,
            renderers.lastwill.render,
            "cogs.lastwill",
            hints=rules.lastwill.heuristics.HINTS,
        )
    )


_register_builtin_games()
