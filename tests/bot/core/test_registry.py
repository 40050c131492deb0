"""A game is presentable or the bot does not start: a cog path that names no module is refused
when the game registers, a cog that registers no presenter stops the start with a sentence, and
the host never draws a table with a bare presenter (issue 27: it fell back silently)."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.client import GameBot
from bot.core.registry import REGISTRY, GameEntry, Registry, RegistryError
from bot.ui.presenter import Presenter
from harness.toygame.renderer import render
from harness.toygame.rules import ToyRules
from tests.simcord import OPEN_BOTS, settings


class SilentRules(ToyRules):
    """The toy game under another name, so the toy cog's presenter (filed as "toy") is not its."""

    name = "toy_silent"


@pytest.mark.parametrize("cog", ["cogs.no_such_game", "no_such_package.cog", ""])
def test_a_cog_path_naming_no_module_is_refused_at_registration(cog: str) -> None:
    registry = Registry()
    with pytest.raises(RegistryError) as refused:
        registry.register(GameEntry(rules=SilentRules(), renderer=render, cog=cog))
    assert "'toy_silent'" in str(refused.value) and repr(cog) in str(refused.value)
    assert "toy_silent" not in registry and list(registry) == []


def test_every_registered_game_names_a_cog_that_exists() -> None:
    """Registration checked it; the registry a bot starts with holds nothing else."""
    registry = Registry()
    for entry in REGISTRY:
        registry.register(entry)
    assert [e.name for e in registry] == [e.name for e in REGISTRY]


def bot_with(tmp_path: Path, *entries: GameEntry) -> GameBot:
    registry = Registry()
    for entry in entries:
        registry.register(entry)
    bot = GameBot(settings(tmp_path), registry=registry)
    OPEN_BOTS.append(bot)
    return bot


async def test_a_cog_that_registers_no_presenter_stops_the_start(tmp_path: Path) -> None:
    """``cogs.reach`` loads fine but presents nothing: the start fails naming the game and the cog."""
    entry = GameEntry(rules=SilentRules(), renderer=render, cog="cogs.reach", hidden=True)
    with pytest.raises(RegistryError) as refused:
        async with simcord.run(bot_with(tmp_path, entry), strict_sync=False):
            raise AssertionError("the bot started with a game that has no presenter")
    message = str(refused.value)
    assert "'toy_silent'" in message and "'cogs.reach'" in message and "presenters['toy_silent']" in message


async def test_every_registered_game_gets_its_own_presenter_at_start(tmp_path: Path) -> None:
    """Each game's cog files a presenter of its own class under the game's name (never the bare
    ``Presenter``), and a game the bot was not started with has none to fall back on."""
    bot = bot_with(tmp_path, *REGISTRY)
    async with simcord.run(bot, strict_sync=False):
        presenters = bot.tables.presenters
        for entry in REGISTRY:
            presenter = presenters[entry.name]
            assert type(presenter) is not Presenter and presenter.game == entry.name, entry.name
        assert "toy_silent" not in presenters
