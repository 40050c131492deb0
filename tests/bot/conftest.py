"""Fixtures the host's tests share below Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import SessionService
from bot.storage import Store


@pytest.fixture
async def services(store_target: str | Path) -> AsyncIterator[tuple[SessionService, LobbyService]]:
    """A session service and a lobby on a fresh store, on each backend ``store_target`` gives."""
    store = await Store.open(store_target)
    sessions = SessionService(store, REGISTRY)
    yield sessions, LobbyService(sessions)
    await store.close()
