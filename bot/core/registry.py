"""Which games exist: the types a game registers with (name -> rules, renderer, presenter class).

The games themselves are listed one floor up, in :mod:`bot.games`: this module sits in
``bot/core``, below the UI that presenters are written in, so it knows a presenter class only by
the little the client needs of it (:class:`Presents`).  A game is registered with its
presenter class as an object, so a misspelt class fails when the module is imported, and a
presenter drawn for another game fails when the game registers (:class:`RegistryError`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from renderers.kit import Words
from rules.core import JSON, Rules
from rules.play import Story
from rules.search import Hints, PlainHints

PLAIN = PlainHints()
"""Hints for a game that gives none: bots search it with uniform playouts and its outcome."""

Renderer = Callable[[dict[str, JSON], Sequence[str], Words], bytes]
"""A public view, the players' names (seat order) and the table's language in, PNG bytes out."""


class RegistryError(Exception):
    """A game that cannot be presented: raised at registration or at the bot's start, never later."""


class Presents(Protocol):
    """A game's presenter (a :class:`bot.ui.presenter.Presenter`), as the registry and the client
    see it from down here: the game it presents, checked against the entry's name at
    registration, and the builder the client calls at start with itself.

    The host is typed ``Any`` because its type lives above this floor; the client checks that what
    the builder returns is a ``Presenter`` before it files it.
    """

    game: str

    @classmethod
    def for_host(cls, host: Any, /) -> object: ...


@dataclass(frozen=True, slots=True)
class GameEntry:
    rules: Rules[Any]
    renderer: Renderer
    presenter: type[Presents]
    """The class whose :meth:`~bot.ui.presenter.Presenter.for_host` the client calls at start to
    build the game's presenter; its ``game`` must be the entry's name."""
    hidden: bool = False
    """Hidden games (the test game) are playable but not offered to users."""
    hints: Hints[Any] = PLAIN
    """What bot players know about the game's positions (``rules/<game>/heuristics.py``)."""
    story: Story | None = None
    """Each seat's public score from a public view (``rules/<game>/story.py``), for the chart of a
    finished game and the export; ``None`` for a game that has none to tell."""

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
        """File ``entry``, refusing a presenter class drawn for another game: the host looks
        presenters up by the entry's name, so a mismatch would leave this game with none.  What
        is no presenter class at all (a plugin's old cog path, which mypy would have caught in
        our code) is refused the same way, by the sentence rather than an ``AttributeError``."""
        game = getattr(entry.presenter, "game", None)
        if game != entry.name:
            named = getattr(entry.presenter, "__qualname__", None) or repr(entry.presenter)
            raise RegistryError(
                f"game {entry.name!r} names the presenter {named}, which presents {game!r}; "
                f"its class must say game = {entry.name!r}"
            )
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
