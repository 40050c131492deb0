"""Shared fixtures: the test-only game is registered for every test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import tests.toygame  # noqa: F401  (registers the toy game)
from tests.host.discord_kit import close_bots


@pytest.fixture(autouse=True)
async def _close_bot_databases() -> AsyncIterator[None]:
    """Every bot a test made gets its database closed while the test's event loop still runs."""
    yield
    await close_bots()
