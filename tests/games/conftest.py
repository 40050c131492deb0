"""Fixtures shared by the Discord tests of the games."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot.registry import REGISTRY, GameEntry
from renderers.monopoly import render
from rules.monopoly import RULES, MonopolyRules


@pytest.fixture
def registered() -> Iterator[Callable[[MonopolyRules], None]]:
    """Register Monopoly (with given rules) for one test, and restore the registry after it.

    Monopoly is not offered to players yet, so its Discord tests put it in the registry
    themselves.
    """
    before = REGISTRY.get("monopoly")

    def register(rules: MonopolyRules = RULES) -> None:
        REGISTRY.register(GameEntry(rules, render, "cogs.monopoly"))

    yield register
    if before is None:
        REGISTRY.unregister("monopoly")
    else:
        REGISTRY.register(before)
