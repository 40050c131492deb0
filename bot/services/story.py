"""A table's story (each seat's public score over the game) read from its log, for the final post.

The series is replayed from the moves that stand (those taken back are no part of the game) and
read through the public view only (``rules.play.story_series``), so the chart posted with the
standings shows nothing a player at the table did not see.
"""

from __future__ import annotations

import asyncio

from bot.services.sessions import LiveGame, SessionService
from rules.core import IllegalAction, StateError
from rules.play import story_series


async def game_story(sessions: SessionService, game: LiveGame) -> list[list[int]] | None:
    """One point per public version of ``game`` up to now; ``None`` for a game with no story to
    tell (none registered, never started) or whose log no longer replays."""
    story = game.entry.story
    if story is None or game.row.seed is None:
        return None
    log = await sessions.store.log.load_log(game.id)
    moves = [(entry.seat, entry.action) for entry in log if not entry.undone]
    try:
        # A long game (thousands of Monopoly moves) replays in a fraction of a second: off the loop.
        return await asyncio.to_thread(
            story_series, game.entry.rules, story, len(game.seats), game.row.options, game.row.seed, moves
        )
    except (IllegalAction, StateError):
        return None
