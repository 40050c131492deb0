"""A game's own clock (Monopoly's open auction) as the host runs it: the waits it plans.

Pure planner checks first (:func:`bot.services.deadlines.plan_waits` and ``plan_new_clocks`` with
a :class:`rules.core.GameClock`), then the clock at work in a real Monopoly game on the session
service and the scheduler: a bid restarts everyone's clock, ``/game clock`` does not move it, and
when it runs out one tick passes for everyone still in and closes the auction.
"""

from __future__ import annotations

from bot.services.deadlines import HOUR, Hours, plan_new_clocks, plan_waits
from bot.storage import Deadlines, WaitContext, WaitRow
from rules.core import GameClock

NOW = 1_000_000.0
TABLE = Hours(remind=6, timer=0)
"""A table that reminds after 6 h and has no turn timer (the usual case)."""


def context(
    waits: dict[int, WaitRow], away: dict[int, float] | None = None, timer: int | None = None
) -> WaitContext:
    return WaitContext(None, timer, None, None, away or {}, waits)


def row(seat: int, since: float, timeout: float | None, remind: float | None = None) -> WaitRow:
    return WaitRow(1, seat, since, remind, 0, timeout)


def test_an_auction_that_opens_starts_everyones_clock() -> None:
    clock = GameClock(24, (1, 0))
    # The decliner (seat 0) was waited on for the buy; everyone now waits on the auction.
    changes = plan_waits(
        context({0: row(0, NOW - HOUR, None, NOW + 5 * HOUR)}),
        now=NOW,
        actor=0,
        before=frozenset({0}),
        after=frozenset({0, 1, 2}),
        timed_out=False,
        defaults=TABLE,
        clock=clock,
    )
    assert changes.restart == {s: Deadlines(NOW + 6 * HOUR, NOW + 24 * HOUR) for s in (0, 1, 2)}
    assert not changes.keep and not changes.due_now


def test_a_bid_restarts_every_waited_seat_and_a_pass_keeps_the_others() -> None:
    waits = {s: row(s, NOW - 10 * HOUR, NOW + 14 * HOUR, NOW - 4 * HOUR) for s in (0, 1, 2)}
    bid = plan_waits(
        context(waits),
        now=NOW,
        actor=1,
        before=frozenset({0, 1, 2}),
        after=frozenset({0, 2}),
        timed_out=False,
        defaults=TABLE,
        clock_before=GameClock(24, (1, 0)),
        clock=GameClock(24, (1, 1)),
    )
    assert bid.restart == {s: Deadlines(NOW + 6 * HOUR, NOW + 24 * HOUR) for s in (0, 2)}
    assert not bid.keep, "the high bidder is no longer waited on; the others get the whole clock again"
    passed = plan_waits(
        context(waits),
        now=NOW,
        actor=2,
        before=frozenset({0, 2}),
        after=frozenset({0}),
        timed_out=False,
        defaults=TABLE,
        clock_before=GameClock(24, (1, 1)),
        clock=GameClock(24, (1, 1)),
    )
    assert passed.keep == {0} and not passed.restart, "a pass does not restart anyone's clock"


def test_the_outbid_seat_waits_anew_with_the_whole_clock() -> None:
    waits = {0: row(0, NOW - 3 * HOUR, NOW + 21 * HOUR)}
    changes = plan_waits(
        context(waits),
        now=NOW,
        actor=0,
        before=frozenset({0}),
        after=frozenset({1}),
        timed_out=False,
        defaults=TABLE,
        clock_before=GameClock(24, (1, 1)),
        clock=GameClock(24, (1, 2)),
    )
    assert changes.restart == {1: Deadlines(NOW + 6 * HOUR, NOW + 24 * HOUR)}


def test_the_game_clock_wins_over_the_tables_timer_and_leaves_with_the_auction() -> None:
    waits = {s: row(s, NOW - HOUR, NOW + 23 * HOUR) for s in (1, 2)}
    with_timer = plan_waits(
        context({}, timer=2),
        now=NOW,
        actor=0,
        before=frozenset({0}),
        after=frozenset({1, 2}),
        timed_out=False,
        defaults=TABLE,
        clock=GameClock(48, (1, 0)),
    )
    assert {d.timeout_due for d in with_timer.restart.values()} == {NOW + 48 * HOUR}
    # The clock passed for seat 2, the last one still in besides the high bidder: the auction
    # closes and the turn player (seat 1) is waited on again, on the table's own 2 h timer,
    # even though its own default move made this change (no "due at once").
    closed = plan_waits(
        context(waits, timer=2),
        now=NOW,
        actor=1,
        before=frozenset({1, 2}),
        after=frozenset({1}),
        timed_out=True,
        defaults=TABLE,
        clock_before=GameClock(48, (1, 1)),
        clock=None,
    )
    assert closed.restart == {1: Deadlines(NOW + 6 * HOUR, NOW + 2 * HOUR)} and not closed.due_now


def test_an_away_players_clock_starts_when_they_are_back() -> None:
    back = NOW + 30 * HOUR
    changes = plan_waits(
        context({}, away={2: back}),
        now=NOW,
        actor=0,
        before=frozenset({0}),
        after=frozenset({1, 2}),
        timed_out=False,
        defaults=TABLE,
        clock=GameClock(24, (1, 0)),
    )
    assert changes.restart[1].timeout_due == NOW + 24 * HOUR
    assert changes.restart[2] == Deadlines(back + 6 * HOUR, back + 24 * HOUR)


def test_without_a_game_clock_nothing_changes() -> None:
    waits = {1: row(1, NOW - HOUR, None)}
    plain = plan_waits(
        context(waits),
        now=NOW,
        actor=0,
        before=frozenset({0, 1}),
        after=frozenset({0, 1}),
        timed_out=True,
        defaults=TABLE,
    )
    assert plain.due_now == {0} and plain.keep == {1} and not plain.restart


def test_changing_the_tables_timer_does_not_move_an_auctions_deadlines() -> None:
    waits = {s: row(s, NOW - HOUR, NOW + 23 * HOUR, NOW + 5 * HOUR) for s in (1, 2)}
    moved = plan_new_clocks(
        context(waits),
        now=NOW,
        old=TABLE,
        new=Hours(remind=2, timer=1),
        game_clock=GameClock(24, (1, 0)),
    )
    assert {d.timeout_due for d in moved.redue.values()} == {NOW + 23 * HOUR}
    assert {d.remind_due for d in moved.redue.values()} == {NOW + 2 * HOUR}, "reminders follow the table"
    plain = plan_new_clocks(context(waits), now=NOW, old=TABLE, new=Hours(remind=6, timer=1))
    assert {d.timeout_due for d in plain.redue.values()} == {NOW + HOUR}
