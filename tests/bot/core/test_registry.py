"""A game is presentable or the bot does not start (issue 27: it fell back silently on a bare
presenter).  A game registers with its presenter class as an object, so what can still go wrong
is a class drawn for another game (refused when the game registers), something that is no
presenter class at all (a plugin's old cog path: refused the same way), and a class whose
builder returns something that is not a presenter (refused when the bot starts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import GameBot
from bot.core.registry import GameEntry, Registry, RegistryError
from bot.games import REGISTRY
from bot.ui.presenter import Presenter, PresenterHost
from cogs.california import CaliforniaPresenter
from cogs.monopoly import MonopolyPresenter
from harness.toygame.cog import TEXT, ToyPresenter
from harness.toygame.renderer import render
from harness.toygame.rules import ToyRules
from tests.simcord import OPEN_BOTS, settings


class SilentRules(ToyRules):
    """The toy game under another name, so the toy's presenter (``game = "toy"``) is not its."""

    name = "toy_silent"


class SilentPresenter(ToyPresenter):
    game = SilentRules.name


class Impostor:
    """Says it presents the game, but builds something that is not a presenter."""

    game = SilentRules.name

    @classmethod
    def for_host(cls, host: PresenterHost, /) -> object:
        return object()


@pytest.mark.parametrize(
    ("presenter", "named", "presents"),
    [
        (ToyPresenter, "ToyPresenter", "'toy'"),
        (CaliforniaPresenter, "CaliforniaPresenter", "'california'"),
        ("cogs.california", "'cogs.california'", "None"),
        (None, "None", "None"),
    ],
)
def test_a_presenter_for_another_game_is_refused_at_registration(
    presenter: Any, named: str, presents: str
) -> None:
    registry = Registry()
    with pytest.raises(RegistryError) as refused:
        registry.register(GameEntry(rules=SilentRules(), renderer=render, presenter=presenter))
    message = str(refused.value)
    assert "'toy_silent'" in message and named in message and f"presents {presents}" in message
    assert "toy_silent" not in registry and list(registry) == []


def test_a_presenter_of_the_game_registers() -> None:
    registry = Registry()
    entry = GameEntry(rules=SilentRules(), renderer=render, presenter=SilentPresenter)
    registry.register(entry)
    assert registry.get("toy_silent") is entry and list(registry) == [entry]


def test_every_registered_game_names_a_presenter_of_its_own() -> None:
    """Registration checked it; the registry a bot starts with holds nothing else."""
    registry = Registry()
    for entry in REGISTRY:
        registry.register(entry)
        assert issubclass(entry.presenter, Presenter) and entry.presenter is not Presenter, entry.name
    assert [e.name for e in registry] == [e.name for e in REGISTRY]


def bot_with(tmp_path: Path, *entries: GameEntry) -> GameBot:
    registry = Registry()
    for entry in entries:
        registry.register(entry)
    bot = GameBot(settings(tmp_path), registry=registry)
    OPEN_BOTS.append(bot)
    return bot


async def test_a_presenter_class_that_builds_no_presenter_stops_the_start(tmp_path: Path) -> None:
    entry = GameEntry(rules=SilentRules(), renderer=render, presenter=Impostor, hidden=True)
    with pytest.raises(RegistryError) as refused:
        async with simcord.run(bot_with(tmp_path, entry), strict_sync=False):
            raise AssertionError("the bot started with a game that has no presenter")
    message = str(refused.value)
    assert "'toy_silent'" in message and "built a object" in message


async def test_every_registered_game_gets_its_own_presenter_at_start(tmp_path: Path) -> None:
    """Each game's presenter is of its entry's class, under the game's name (never the bare
    ``Presenter``), and a game the bot was not started with has none to fall back on."""
    bot = bot_with(tmp_path, *REGISTRY)
    async with simcord.run(bot, strict_sync=False):
        presenters = bot.publisher.presenters
        assert sorted(presenters) == sorted(e.name for e in REGISTRY)
        for entry in REGISTRY:
            presenter = presenters[entry.name]
            assert type(presenter) is entry.presenter and presenter.game == entry.name, entry.name
            assert presenter.catalog is bot.catalog, entry.name
        assert "toy_silent" not in presenters


async def test_presenters_are_built_with_their_hooks_and_text(tmp_path: Path) -> None:
    """What the game cogs' ``setup`` used to do, now each class's ``for_host``: Monopoly's clock is
    read before every board (after the host's own Undo check), and a test game's text joins the
    bot's catalog only when the bot has that game."""
    monopoly, toy = REGISTRY.get("monopoly"), REGISTRY.get("toy")
    assert monopoly is not None and toy is not None
    bot = bot_with(tmp_path, monopoly, toy)
    async with simcord.run(bot, strict_sync=False):
        presenter = bot.publisher.presenters["monopoly"]
        assert isinstance(presenter, MonopolyPresenter) and presenter.sessions is bot.sessions
        assert bot.publisher.host_prepares == [bot.undo_desk.prepare, presenter.prepare]
        assert bot.catalog.text("toy.status", "en", total=3, target=10, players="Ana") == (
            TEXT["toy.status"].format(total=3, target=10, players="Ana")
        )
    bare = bot_with(tmp_path / "bare", monopoly)
    async with simcord.run(bare, strict_sync=False):
        assert not bare.catalog.has("toy.status", "en")
