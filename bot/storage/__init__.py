"""Persistence: the only package that speaks SQL.

:class:`Store` (:mod:`bot.storage.store`) is the one object callers hold; its small stores, one
per seam (``store.games``, ``store.log``, ``store.waits``, ``store.messages``, ``store.reach``,
``store.players``, ``store.servers``: :mod:`bot.storage.games` and its siblings), hold every
query and hand out the plain rows of :mod:`bot.storage.rows`, with the stored codes (a game's status, a message's kind) named in
:mod:`bot.storage.codes`; :mod:`bot.storage.base` says what a backend provides;
:mod:`bot.storage.sqlite` (the embedded default, one file) and :mod:`bot.storage.postgres`
(several processes on one server) are the two backends, chosen by ``Store.open``'s target.
"""

from bot.storage.base import Dialect, StoreError, VersionConflict
from bot.storage.codes import (
    CLOSED_STATUSES,
    ENDED_STATUSES,
    OPEN_STATUSES,
    STARTED_STATUSES,
    GameStatus,
    How,
    MessageKind,
)
from bot.storage.rows import (
    PARK_REASONS,
    UNDONE,
    UNDONE_WITH,
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
from bot.storage.store import Store
from bot.storage.waits import NEXT_DUE_SQL

__all__ = [
    "CLOSED_STATUSES",
    "ENDED_STATUSES",
    "NEXT_DUE_SQL",
    "OPEN_STATUSES",
    "PARK_REASONS",
    "STARTED_STATUSES",
    "UNDONE",
    "UNDONE_WITH",
    "Deadlines",
    "Dialect",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "How",
    "LogEntry",
    "MessageKind",
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
