"""When a table reminds a player and when it moves for them: the policy, as pure functions.

A wait (a row in ``waits``) begins when a game starts waiting on a seat.  Its first reminder is
due ``remind`` hours later, then every ``remind`` hours, at most :data:`MAX_REMINDERS` times; its
timeout is due ``timer`` hours after it began.  Either clock is off at 0.  A table's clocks are
its own (``/game new remind:…``, ``/game clock``), else its server's (``/game settings``), else
the bot's (``GAMEHOST_REMIND_HOURS``, ``GAMEHOST_TIMER_HOURS``).

A player who is away has every deadline pushed back by the away time still to come, so their
reminders stop and their timers stand still until they are back (:meth:`bot.storage.players.PlayerStore.set_away`
moves the waits that exist; :func:`first_dues` adds the rest to waits that begin meanwhile).

A game's own clock (:class:`rules.core.GameClock`, Monopoly's open auction) overrides the table's
timer while it runs: every seat waited on is timed out ``clock.hours`` after the clock's mark last
changed, whatever ``/game clock`` says, and each restart of the clock (a new auction, a bid)
restarts every wait.  Reminders keep the table's schedule.  An away player's wait is pushed back
like any other (their own deadline only: the others' clock runs on, and the auction waits for
the away player's pass or return), so going away never makes anyone lose a bid by surprise.

Nothing here reads a clock or the database: the session service hands in ``now`` and the
:class:`bot.storage.WaitContext` its transaction read, and writes back what these functions plan.
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass

from bot.storage import Deadlines, WaitChanges, WaitContext, WaitPlanner
from rules.core import GameClock

HOUR = 3600.0
MAX_REMINDERS = 3
"""Reminders per wait: a nudge, not nagging; after the third only the timer (if any) is left."""
DEFAULT_REMIND_HOURS = 24
DEFAULT_TIMER_HOURS = 0
MAX_HOURS = 24 * 60
"""The longest clock a table may set (60 days)."""
OFF_WORDS = frozenset({"off", "none", "no", "0", "non", "aucun", "aucune", "désactivé"})
"""What turns a clock off, in the languages we speak (players type these into slash commands)."""

_HOURS = re.compile(r"(\d{1,4})\s*(h|hours?|heures?|d|days?|j|jours?)?")
_DAY_UNITS = ("d", "j")


@dataclass(frozen=True, slots=True)
class Hours:
    """A table's two clocks in whole hours; 0 is off."""

    remind: int
    timer: int


def parse_hours(text: str) -> int:
    """``"24h"``, ``"36"``, ``"2d"``, ``"off"`` -> whole hours (0: off); French works too
    (``"2j"``, ``"3 jours"``, ``"12 heures"``, ``"non"``).

    Raises ``ValueError`` for anything else, and for more than :data:`MAX_HOURS`.
    """
    cleaned = text.strip().lower()
    if cleaned in OFF_WORDS:
        return 0
    match = _HOURS.fullmatch(cleaned)
    if match is None:
        raise ValueError(text)
    number = int(match.group(1))
    hours = number * 24 if (match.group(2) or "h").startswith(_DAY_UNITS) else number
    if hours > MAX_HOURS:
        raise ValueError(text)
    return hours


def table_hours(
    own_remind: int | None,
    own_timer: int | None,
    server_remind: int | None,
    server_timer: int | None,
    defaults: Hours,
) -> Hours:
    """The clocks a table runs on: its own, else its server's, else the bot's."""
    remind = own_remind if own_remind is not None else server_remind
    timer = own_timer if own_timer is not None else server_timer
    return Hours(
        defaults.remind if remind is None else remind,
        defaults.timer if timer is None else timer,
    )


def context_hours(context: WaitContext, defaults: Hours) -> Hours:
    return table_hours(
        context.remind_hours,
        context.timer_hours,
        context.server_remind_hours,
        context.server_timer_hours,
        defaults,
    )


def first_dues(now: float, hours: Hours, away_until: float | None) -> Deadlines:
    """The deadlines of a wait that begins at ``now``; an away player's start after their return."""
    start = max(now, away_until or now)
    return Deadlines(
        start + hours.remind * HOUR if hours.remind > 0 else None,
        start + hours.timer * HOUR if hours.timer > 0 else None,
    )


def waits_planner(
    *,
    now: float,
    actor: int | None,
    before: Set[int],
    after: Set[int],
    defaults: Hours,
    timed_out: bool = False,
    clocks: tuple[GameClock | None, GameClock | None] = (None, None),
) -> WaitPlanner:
    """``plan_waits`` with everything but the table's context bound, for the store to call inside
    the transaction that writes the change (the context is read there, so it cannot go stale);
    ``clocks`` is the game's own clock before and after the change."""
    return lambda context: plan_waits(
        context,
        now=now,
        actor=actor,
        before=before,
        after=after,
        timed_out=timed_out,
        defaults=defaults,
        clock_before=clocks[0],
        clock=clocks[1],
    )


def plan_waits(
    context: WaitContext,
    *,
    now: float,
    actor: int | None,
    before: Set[int],
    after: Set[int],
    timed_out: bool,
    defaults: Hours,
    clock_before: GameClock | None = None,
    clock: GameClock | None = None,
) -> WaitChanges:
    """The waits after a public change (a move, or the start with ``actor=None``).

    A seat waited on afterwards starts waiting afresh when it has just moved or was not waited
    on before; any other seat still waited on keeps its row (another player's move does not
    restart my clock); everybody else's row goes.  A seat still waited on after its own default
    move (a choice made in several steps) is due again at once.

    ``clock_before`` and ``clock`` are the game's own clock around the change
    (``Rules.game_clock``).  While one runs, timeouts are due ``clock.hours`` after a wait begins,
    and when it starts, restarts (a new mark: a bid) or stops, every seat waited on starts afresh:
    a bid gives everyone still in the whole clock again, and the end of an auction gives the
    table's own timer back to whoever the game waits on next.
    """
    hours = context_hours(context, defaults)
    if clock is not None:
        hours = Hours(hours.remind, clock.hours)
    changed = clock != clock_before
    restart: dict[int, Deadlines] = {}
    keep: set[int] = set()
    due_now: set[int] = set()
    for seat in sorted(after):
        if changed:
            restart[seat] = first_dues(now, hours, context.away.get(seat))
        elif timed_out and seat == actor:
            due_now.add(seat)
        elif seat == actor or seat not in before or seat not in context.waits:
            # A row missing for a seat that was waited on (a game from before deadlines
            # existed) is started here, so every running game gets its clocks in time.
            restart[seat] = first_dues(now, hours, context.away.get(seat))
        else:
            keep.add(seat)
    return WaitChanges(now, restart=restart, keep=frozenset(keep), due_now=frozenset(due_now))


def plan_new_clocks(
    context: WaitContext, *, now: float, old: Hours, new: Hours, game_clock: GameClock | None = None
) -> WaitChanges:
    """The running waits after a table's clocks changed: a changed clock counts from now
    (nobody is timed out by surprise when a host shortens the timer), an unchanged one stays.

    While the game's own clock runs (``game_clock``: an open auction) the timeouts are its, not
    the table's: they stay where they are, so a host cannot move an auction's deadline."""
    redue: dict[int, Deadlines] = {}
    for seat, wait in context.waits.items():
        fresh = first_dues(now, new, context.away.get(seat))
        remind = wait.remind_due
        if new.remind != old.remind:
            remind = fresh.remind_due if wait.reminders < MAX_REMINDERS else None
        timer_moved = new.timer != old.timer and game_clock is None
        timeout = fresh.timeout_due if timer_moved else wait.timeout_due
        redue[seat] = Deadlines(remind, timeout)
    return WaitChanges(now, redue=redue)


def next_reminder(now: float, hours: Hours, sent: int) -> float | None:
    """When the reminder after the ``sent``-th one is due (``None``: that was the last)."""
    if sent >= MAX_REMINDERS or hours.remind <= 0:
        return None
    return now + hours.remind * HOUR
