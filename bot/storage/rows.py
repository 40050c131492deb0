"""The plain data the store hands out: frozen rows, never a cursor or a connection.

Services and the UI read games, seats, messages, waits and records through these, so nothing
above :mod:`bot.storage` knows which database they came from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.codes import GameStatus, How, MessageKind
from rules.core import Action


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    bot: str | None = None
    """``"easy"`` or ``"normal"`` for a seat a bot plays; ``None`` for a person."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    game: str
    options: dict[str, Any]
    seed: int | None
    status: GameStatus
    version: int
    snapshot: str | None
    host_id: int
    language: str
    reason: str | None
    created_at: float
    updated_at: float
    public_version: int
    public_at: float | None
    """When others last saw the game change (``None`` before the first public move was stored)."""
    pruned_at: float | None = None
    """When ``python -m bot prune`` removed its log and snapshot (``None``: they are all here)."""

    @property
    def table_channel_id(self) -> int | None:
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class MessageRow:
    message_id: int
    channel_id: int
    kind: MessageKind
    version: int
    since: int | None = None
    """The public version this table message's turn began at (its lines are the moves after it)."""
    pinged: frozenset[int] | None = None
    """The seats this message mentioned when it was posted (``None``: not recorded)."""


@dataclass(frozen=True, slots=True)
class WaitRow:
    """One seat a game waits on, since when, and its next reminder and timeout (``None``: none)."""

    game_id: int
    seat: int
    since: float
    remind_due: float | None
    reminders: int
    """Reminders already sent for this wait."""
    timeout_due: float | None


@dataclass(frozen=True, slots=True)
class Deadlines:
    remind_due: float | None
    timeout_due: float | None


@dataclass(frozen=True, slots=True)
class WaitChanges:
    """What one committed change does to a game's waits; every seat it does not name loses its row.

    Written in the transaction of the change itself, so no move is ever on disk without the
    deadlines it implies (nor deadlines without their move).
    """

    since: float
    """The moment of the change: a restarted wait is waited on from here."""
    restart: Mapping[int, Deadlines] = field(default_factory=dict)
    """Seats whose wait starts (again) now: ``since`` is now and no reminder was sent yet."""
    keep: frozenset[int] = frozenset()
    """Seats whose row stays exactly as it is."""
    redue: Mapping[int, Deadlines] = field(default_factory=dict)
    """Seats whose deadlines move while their wait goes on (``since`` and the count are kept)."""
    due_now: frozenset[int] = frozenset()
    """Seats still waited on after their own default move: their timeout is due again at once,
    so a default made of several steps is played to its end (and resumed after a crash)."""


@dataclass(frozen=True, slots=True)
class WaitContext:
    """What the deadlines of a game's waits depend on, read inside the writing transaction."""

    remind_hours: int | None
    """The table's own reminder interval (``None``: the server's; 0: off)."""
    timer_hours: int | None
    server_remind_hours: int | None
    server_timer_hours: int | None
    away: Mapping[int, float]
    """Seats whose player is away, and until when (only those still away at the change)."""
    waits: Mapping[int, WaitRow]
    """The game's waits before the change."""


WaitPlanner = Callable[[WaitContext], WaitChanges]
"""Turns a :class:`WaitContext` into the changes to write; called inside the transaction."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    user_id: int
    notify: str
    """How reminders reach this player: ``thread``, ``dm`` or ``none``."""
    away_until: float | None


@dataclass(frozen=True, slots=True)
class TableClocks:
    """A table's reminder and timer intervals in hours, its own and its server's (``None``: unset)."""

    remind_hours: int | None
    timer_hours: int | None
    server_remind_hours: int | None
    server_timer_hours: int | None


UNDONE = 1
"""``actions.undone`` of a move its player took back."""


UNDONE_WITH = 2
"""``actions.undone`` of a hidden move made after a move that was taken back, which no longer fitted
without it and was taken back with it (see :meth:`bot.storage.log.LogStore.record_undo`)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of a game's action log, kept whether it stands or was taken back."""

    version: int
    seat: int
    user_id: int | None
    action: Action
    at: float
    how: How
    """``player``, or ``timeout`` for a default move the turn timer made."""
    undone: int
    """0: it stands; :data:`UNDONE` or :data:`UNDONE_WITH`: taken back (replays skip it)."""
    waited: float | None
    """Seconds its player had been waited on when it was made (``None``: not recorded)."""


def standing_log(entries: Sequence[LogEntry]) -> tuple[list[tuple[int, Action]], list[int]]:
    """The moves that stand, ``(seat, action)`` in order, and where undos moved the public version.

    Every replay skips what was taken back; a replay that numbers public versions (the table's
    lines, Catch me up, a form's "then", the torture checks) adds, before each standing move,
    the public versions undos used up there: two for each move its player took back (its own
    public change and the undo's), none for a hidden move taken back with it.  The second list
    has one entry per standing move plus one for after the last.
    """
    log: list[tuple[int, Action]] = []
    bumps: list[int] = []
    pending = 0
    for entry in entries:
        if entry.undone == UNDONE:
            pending += 2
        elif not entry.undone:
            log.append((entry.seat, entry.action))
            bumps.append(pending)
            pending = 0
    bumps.append(pending)
    return log, bumps


@dataclass(frozen=True, slots=True)
class UndoRequest:
    """A player asked to take back their last move and waits for the others' consent."""

    game_id: int
    version: int
    """The public version it was asked at: any public change since cancels it."""
    seat: int
    accepted: frozenset[int]
    """Seats that have accepted so far."""
    asked_at: float


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices from ``/game settings``; ``None`` everywhere means "not set".

    ``remind_hours`` / ``timer_hours``: the defaults of new tables (``None``: the bot's own
    defaults; 0: off).  ``channel_id``: the text or forum channel where ``/game new`` opens tables
    (``None``: where the command is typed).  ``opener_role_id``: only members with this role (or
    Manage Server) may open tables (``None``: anyone).
    """

    guild_id: int
    remind_hours: int | None = None
    timer_hours: int | None = None
    channel_id: int | None = None
    opener_role_id: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's figures over finished games (abandoned and broken ones do not count)."""

    played: int
    won: int
    answered: int
    """Moves they made themselves (not taken back) whose waiting time is known."""
    waited: float | None
    """Their average time to move, in seconds, over those (``None``: none known)."""
    timeouts: int
    """Moves the turn timer made for them."""


PARK_REASONS = ("guild_gone", "thread_gone", "channel_gone", "no_access", "no_permission", "locked")
"""Why a table is parked: the server removed the bot; its thread or channel was deleted; Discord
answered Missing Access (50001), Missing Permissions (50013) or Thread is locked (160005)."""


@dataclass(frozen=True, slots=True)
class ReachRow:
    """What the bot knows about reaching one table on Discord (the ``reach`` table)."""

    game_id: int
    parked: str | None = None
    """Why the table is parked (one of :data:`PARK_REASONS`), or ``None`` while it is reachable."""
    parked_at: float | None = None
    told: str | None = None
    """The trouble its players were last told about (each is told once)."""
    failures: int = 0
    """Sweeps in a row whose repost of this table failed."""
    retry_at: float | None = None
    """When the sweep may try this table again (``None``: at once)."""
    archived_at: float | None = None
    """When its finished table's thread was archived."""
