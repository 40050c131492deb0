"""Shared fixtures: the test-only game is registered for every test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

# Importing registers the test-only games: the toy (the smallest complete game) and the market
# (offers, any-time moves, secret choices made at once: the host patterns of Monopoly and Last Will).
import tests.toygame
import tests.toymarket  # noqa: F401
from tests.host.discord_kit import close_bots


@pytest.fixture(autouse=True)
async def _close_bot_databases() -> AsyncIterator[None]:
    """Every bot a test made gets its database closed while the test's event loop still runs."""
    yield
    await close_bots()
