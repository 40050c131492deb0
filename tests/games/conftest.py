"""Fixtures shared by the Discord tests of the games."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from bot.registry import REGISTRY, GameEntry
from renderers.monopoly import render
from rules.lastwill import RULES as LASTWILL
from rules.lastwill import LastWillRules
from rules.monopoly import RULES, MonopolyRules

TINY_PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4"
    b"\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x03\x00\x08\xfc\x02\xfe\xa7\x9a\xa0\xa0\x00\x00\x00\x00IEND"
    b"\xaeB`\x82"
)
"""A valid one-pixel PNG: the board of a game whose renderer is not under test."""


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


def stand_in_board(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Last Will's board until its renderer lands: one pixel, and a check that only the public
    view (no seat's ``you``) ever reaches a renderer."""
    assert "you" not in view and view["game"] == "lastwill", "the renderer gets the public view only"
    return TINY_PNG


@pytest.fixture
def lastwill_registered() -> Iterator[Callable[[LastWillRules], None]]:
    """Register Last Will (its rules, or arranged ones) with :func:`stand_in_board` for one test.

    Last Will is not in the registry until its renderer lands; the test's bot loads
    ``cogs.lastwill`` because the entry names it.  Whatever was registered before is put back.
    """
    before = REGISTRY.get("lastwill")

    def register(rules: LastWillRules = LASTWILL) -> None:
        REGISTRY.register(GameEntry(rules, stand_in_board, "cogs.lastwill"))

    yield register
    if before is None:
        REGISTRY.unregister("lastwill")
    else:
        REGISTRY.register(before)
