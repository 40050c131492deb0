"""Shared fixtures: the test-only game is registered for every test; every SimCord Discord runs
on real Discord's rules; French Discord clients; every string a picture hands to Pillow."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import simcord.interactions
from PIL import ImageDraw

# Importing registers the test-only games: the toy (the smallest complete game) and the market
# (offers, any-time moves, secret choices made at once: the host patterns of Monopoly and Last Will).
import harness.toygame  # noqa: F401
import tests.toymarket  # noqa: F401
from harness.discord_rules import Limits, enforce
from tests.backends import postgres_server, store_target  # noqa: F401  (fixtures for every test)
from tests.helpers import clear_render_caches
from tests.simcord import close_bots

SUITE_LIMITS = Limits(route=(10_000, 1.0), global_per_second=10_000)
"""Discord's rules for every test, but its rate limits: a test clicks faster than any table of
people could (a whole game in a second of wall time), and SimCord's clock does not move while a
call waits for a bucket.  The rate limits are enforced where they are the subject:
``tests/harness/test_discord_rules.py``, ``tests/bot/ui/test_reach.py`` and the week on Discord
(``benchmarks/discord_week.py``), whose players come back after hours, as people do."""


@pytest.fixture(autouse=True)
def _real_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SimCord backend a test makes runs on real Discord's rules (``harness/discord_rules.py``):
    threads archive, locked threads and the thread cap refuse, the three seconds of an
    interaction hold (its rate limits do not: :data:`SUITE_LIMITS`).  A test that needs other
    limits calls ``enforce`` again: the newest switch makes the backends."""
    enforce(monkeypatch, SUITE_LIMITS)


@pytest.fixture(autouse=True)
async def _close_bot_databases() -> AsyncIterator[None]:
    """Every bot a test made gets its database closed while the test's event loop still runs."""
    yield
    await close_bots()


@pytest.fixture
def french_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[int]]:
    """User ids whose Discord client is in French: add a member's id and their interactions carry
    ``locale: fr``.

    SimCord sends every interaction with ``locale: en-US``, so a French client is made by rewriting
    the payload SimCord builds, exactly as Discord would send it for a French client."""
    french: set[int] = set()
    build = simcord.interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(*args, **kwargs)
        if kwargs.get("user_id") in french:
            payload["locale"] = "fr"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    yield french


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string any picture hands to Pillow (``ImageDraw.text``) from now on.

    Every renderer's caches are forgotten before (so no string is served from an earlier test's
    cached layer, sprite or glyph mask instead of being drawn) and after (so no picture drawn here
    is served to a later test)."""
    seen: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, value: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(value))
        real(self, xy, value, *args, **kwargs)

    clear_render_caches()
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    yield seen
    clear_render_caches()
