"""Persistence: the only package that speaks SQL.

:class:`Store` (:mod:`bot.storage.store`) holds every query and hands out the plain rows of
:mod:`bot.storage.rows`; :mod:`bot.storage.base` says what a backend provides;
:mod:`bot.storage.sqlite` (the embedded default, one file) and :mod:`bot.storage.postgres`
(several processes on one server) are the two backends, chosen by ``Store.open``'s target.
"""

from bot.storage.base import Dialect, StoreError, VersionConflict
from bot.storage.rows import (
    PARK_REASONS,
    UNDONE,
    UNDONE_WITH,
    BoardRow,
    Deadlines,
    GameRow,
    GuildSettings,
    LogEntry,
    MessageRow,
    PlayerRecord,
    PlayerRow,
    ReachRow,
    SeatRow,
    TableClocks,
    UndoRequest,
    WaitChanges,
    WaitContext,
    WaitPlanner,
    WaitRow,
    standing_log,
)
from bot.storage.store import NEXT_DUE_SQL, Store

__all__ = [
    "NEXT_DUE_SQL",
    "PARK_REASONS",
    "UNDONE",
    "UNDONE_WITH",
    "BoardRow",
    "Deadlines",
    "Dialect",
    "GameRow",
    "GuildSettings",
    "LogEntry",
    "MessageRow",
    "PlayerRecord",
    "PlayerRow",
    "ReachRow",
    "SeatRow",
    "Store",
    "StoreError",
    "TableClocks",
    "UndoRequest",
    "VersionConflict",
    "WaitChanges",
    "WaitContext",
    "WaitPlanner",
    "WaitRow",
    "standing_log",
]
