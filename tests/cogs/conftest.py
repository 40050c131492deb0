"""Fixtures shared by the Discord tests of the games."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from bot.core.registry import GameEntry
from bot.games import REGISTRY
from cogs.lastwill import LastWillPresenter
from cogs.monopoly import MonopolyPresenter
from renderers.kit import Words
from renderers.lastwill import render as render_lastwill
from renderers.monopoly import render
from rules.lastwill import RULES as LASTWILL
from rules.lastwill import LastWillRules
from rules.monopoly import RULES, MonopolyRules


def _registered(entry: Callable[[Any], GameEntry], default: Any) -> Iterator[Callable[..., None]]:
    """Register the game ``entry(rules)`` makes (``default`` rules unless told) for one test; the
    entry registered before is put back afterwards."""
    name = entry(default).name
    before = REGISTRY.get(name)

    def register(rules: Any = default) -> None:
        REGISTRY.register(entry(rules))

    yield register
    if before is None:
        REGISTRY.unregister(name)
    else:
        REGISTRY.register(before)


@pytest.fixture
def registered() -> Iterator[Callable[[MonopolyRules], None]]:
    """Register Monopoly with the given rules (an arranged start) for one test, then restore it.

    Arranged rules start a game from a chosen position, so a test reaches a shortage or a
    bankruptcy in a few clicks; the real entry is put back afterwards.
    """
    yield from _registered(lambda rules: GameEntry(rules, render, MonopolyPresenter), RULES)


def public_board(view: dict[str, Any], names: Sequence[str], words: Words) -> bytes:
    """Last Will's real board, with a check that only the public view (no seat's ``you``) ever
    reaches a renderer."""
    assert "you" not in view and view["game"] == "lastwill", "the renderer gets the public view only"
    return render_lastwill(view, names, words)


@pytest.fixture(autouse=True)
def boards_are_drawn(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """A board that fails to draw only costs the picture in play (the host logs it and goes on),
    so a game test would pass over a broken renderer: here that log line fails the test."""
    yield
    failed = [
        r.getMessage() for r in caplog.records if "could not" in r.getMessage() and "draw" in r.getMessage()
    ]
    assert not failed, failed


@pytest.fixture
def lastwill_registered() -> Iterator[Callable[[LastWillRules], None]]:
    """Register Last Will (its rules, or arranged ones) with :func:`public_board` for one test;
    the registered entry is put back afterwards."""
    yield from _registered(lambda rules: GameEntry(rules, public_board, LastWillPresenter), LASTWILL)
