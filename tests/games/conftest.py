"""Fixtures shared by the Discord tests of the games."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot.registry import REGISTRY, GameEntry
from renderers.monopoly import render
from rules.monopoly import RULES, MonopolyRules


@pytest.fixture
def registered() -> Iterator[Callable[[MonopolyRules], None]]:
    """Register Monopoly with the given rules (an arranged start) for one test, then restore it.

    Arranged rules start a game from a chosen position, so a test reaches a shortage or a
    bankruptcy in a few clicks; the real entry is put back afterwards.
    """
    before = REGISTRY.get("monopoly")

    def register(rules: MonopolyRules = RULES) -> None:
        REGISTRY.register(GameEntry(rules, render, "cogs.monopoly"))

    yield register
    if before is None:
        REGISTRY.unregister("monopoly")
    else:
        REGISTRY.register(before)
