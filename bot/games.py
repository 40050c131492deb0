"""The games this bot offers, each registered with its rules, renderer and presenter class.

This is the one place that names the built-in games; the rest of the host looks them up in
:data:`REGISTRY`.  It sits on the top floor, beside the client, because a game's presenter lives
in ``cogs/`` and the registry's types in ``bot/core``: importing the classes here makes a
misspelt presenter fail at import.  Test games and plugins (``GAMEHOST_PLUGINS``) register into
the same :data:`REGISTRY` when imported (``harness/toygame/__init__.py`` is the pattern).

The CLI's offline commands (``--help``, ``simulate``, ``render``) import this module to list the
games, and must not pay for discord.py (``tests/bot/test_cli.py``): a presenter module imports
``discord`` only under ``TYPE_CHECKING``, for its annotations.
"""

from __future__ import annotations

import renderers.california
import renderers.estates
import renderers.lastwill
import renderers.monopoly
import rules.california
import rules.california.story
import rules.estates
import rules.estates.story
import rules.lastwill
import rules.lastwill.story
import rules.monopoly
import rules.monopoly.story
from bot.core.registry import GameEntry, Registry
from cogs.california import CaliforniaPresenter
from cogs.estates import EstatesPresenter
from cogs.lastwill import LastWillPresenter
from cogs.monopoly import MonopolyPresenter

REGISTRY = Registry()
"""Every game this process can play: the four below, then test games and plugins as imported."""

REGISTRY.register(
    GameEntry(
        rules.california.RULES,
        renderers.california.render,
        CaliforniaPresenter,
        hints=rules.california.heuristics.HINTS,
        story=rules.california.story.STORY,
    )
)
REGISTRY.register(
    GameEntry(
        rules.estates.RULES,
        renderers.estates.render,
        EstatesPresenter,
        hints=rules.estates.HINTS,
        story=rules.estates.story.STORY,
    )
)
REGISTRY.register(
    GameEntry(
        rules.monopoly.RULES,
        renderers.monopoly.render,
        MonopolyPresenter,
        hints=rules.monopoly.heuristics.HINTS,
        story=rules.monopoly.story.STORY,
    )
)
REGISTRY.register(
    GameEntry(
        rules.lastwill.RULES,
        renderers.lastwill.render,
        LastWillPresenter,
        hints=rules.lastwill.heuristics.HINTS,
        story=rules.lastwill.story.STORY,
    )
)
