"""The codes the database stores as text, one name each: a game's status (and the groups code
asks about), a table message's kind, how a logged move came.

Each is a ``StrEnum``, so a member *is* its stored text: rows keep the plain strings the database
gave them, comparisons with those strings hold, and JSON and SQL parameters need no conversion.
They sit in :mod:`bot.storage` because every layer above (services, the UI, the cogs, the
benchmarks) may import from here. The status groups are tuples, not sets, because they become SQL
``IN`` lists: the same order gives the same query text every time.
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """The ``CHECK`` of migration 1: a game goes from the lobby to active to finished, or is
    abandoned on the way; a stored game that no longer replays is broken."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    BROKEN = "broken"


OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.ACTIVE)
"""Games that still take players or moves: they count against the server's limits and are listed
by ``/game mine``."""

ENDED_STATUSES = (GameStatus.FINISHED, GameStatus.ABANDONED)
"""Games that stamp ``games.ended_at`` (migration 9) when they get there: the sweeps' and
``prune``'s index."""

CLOSED_STATUSES = (GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.BROKEN)
"""Games where nothing more happens, broken ones included."""

STARTED_STATUSES = (GameStatus.ACTIVE, GameStatus.FINISHED)
"""Games that were dealt: a seed and a log to replay."""


class MessageKind(StrEnum):
    """``messages.kind``: what a message the bot posted for a game is, so it can be found again."""

    LOBBY = "lobby"  # the lobby's sign-up message (in the channel, and again in the thread)
    TABLE = "table"  # a table message: the board, the moves since, the players' buttons
    FINAL = "final"  # the result, posted once the game ended


class How(StrEnum):
    """``actions.how``: who made a logged move, which decides whether it counts as the player's
    answer (their move figures, an undo) or the turn timer's default move."""

    PLAYER = "player"  # a seat's own move, a bot's included
    TIMEOUT = "timeout"  # the turn timer's default move


def sql_list(statuses: tuple[GameStatus, ...]) -> str:
    """``('lobby', 'active')``: a group written into SQL text, which stays the text it was (the
    values are this module's own words, never a user's)."""
    return "(" + ", ".join(f"'{status}'" for status in statuses) + ")"
