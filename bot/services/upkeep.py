"""The database's upkeep as the bot's background loops see it: is it writable, is its file sound,
save what can be saved after a fault, and leave this process's figures for ``python -m bot health``.

The loops (:mod:`cogs.tasks`) decide when; the store knows how.  ``problem`` is cheap (no query),
so the clock may ask it before every tick.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from bot.services.sessions import SessionService


class Upkeep:
    """Holds no state of its own (the store is read through the session service at each call)."""

    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions

    def problem(self) -> str | None:
        """``None`` while the database can be written, else what is wrong with it."""
        return self.sessions.store.health()

    async def check_integrity(self) -> str | None:
        """SQLite's quick check, on its own connection so clicks go on (``None``: sound, or not SQLite)."""
        return await self.sessions.store.integrity()

    async def rescue(self) -> None:
        """After a file fault: keep what was acknowledged, or name what is lost (SQLite only)."""
        await self.sessions.store.rescue()

    async def report(self, key: str, figures: Mapping[str, object]) -> None:
        """Leave this process's figures under ``key`` for ``python -m bot health`` to read."""
        await self.sessions.store.set_meta(key, json.dumps(figures))
