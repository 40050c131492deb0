"""The scheduler below Discord: deadlines as rows, fired exactly once, with a fake clock.

Reminders and timeouts of toy tables, driven by ``Scheduler.tick(now)`` on each backend (a
SQLite file, a PostgreSQL database): exactly once (two ticks, two schedulers on one database, a restart), in due order, across many
tables; waits restarted by a move and untouched by a private one; away players; a table's own
clocks; and the one indexed query that finds the next deadline.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.games import REGISTRY
from bot.services.clocks import Clocks, hours_option
from bot.services.deadlines import HOUR, MAX_REMINDERS, Hours, parse_hours
from bot.services.lobby import LobbyService
from bot.services.reminders import Reminders
from bot.services.scheduler import Scheduler
from bot.services.sessions import Applied, LiveGame, Refusal, SessionService
from bot.services.timers import Timers
from bot.storage import NEXT_DUE_SQL, Store, WaitRow
from rules.core import Action
from tests.bot.services.kit import ANA, BOB, on_turn

T0 = 1_800_000_000.0


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now

    def hours(self, hours: float) -> float:
        self.now += hours * HOUR
        return self.now


@dataclass
class Pings:
    """A notifier that records who was reminded, how, and after how many hours."""

    sent: list[tuple[int, int, int, str]] = field(default_factory=list)

    async def remind(self, game: LiveGame, seat: int, waited: float, how: str) -> str:
        self.sent.append((game.id, seat, round(waited / HOUR), how))
        return how


@dataclass
class Board:
    """An announcer that records the default moves as a table would show them."""

    moves: list[Applied] = field(default_factory=list)
    shown: int = 0

    def committed(self, applied: Applied) -> None:
        self.moves.append(applied)

    async def show(self, game: LiveGame) -> None:
        self.shown += 1


@dataclass
class Host:
    store: Store
    sessions: SessionService
    lobby: LobbyService
    scheduler: Scheduler
    clocks: Clocks
    clock: FakeClock
    pings: Pings
    board: Board


def build(store: Store, clock: FakeClock) -> Host:
    sessions = SessionService(store, REGISTRY, clock=clock)
    pings, board = Pings(), Board()
    scheduler = Scheduler(sessions, Reminders(sessions, pings), Timers(sessions, board))
    return Host(
        store, sessions, LobbyService(sessions), scheduler, Clocks(sessions, scheduler), clock, pings, board
    )


@pytest.fixture
async def host(store_target: str | Path) -> AsyncIterator[Host]:
    store = await Store.open(store_target)
    yield build(store, FakeClock())
    await store.close()


async def table(
    host: Host,
    *,
    remind: int | None = None,
    timer: int | None = None,
    target: int = 12,
    seed: int = 7,
    guild_id: int = 1,
) -> LiveGame:
    game = await host.lobby.create(
        game="toy",
        options_text=f"target={target}",
        host_id=ANA,
        host_name="ana",
        guild_id=guild_id,
        channel_id=2,
        language="en",
        remind_hours=remind,
        timer_hours=timer,
    )
    await host.lobby.join(game.id, BOB, "bob")
    return await host.lobby.start(game.id, ANA, seed=seed)


def waited_seat(game: LiveGame) -> int:
    (seat,) = game.waiting()
    return seat


async def test_a_started_game_waits_with_its_deadlines(host: Host) -> None:
    game = await table(host, remind=24, timer=48)
    seat = waited_seat(game)
    assert await host.store.waits.fetch_waits(game.id) == [
        WaitRow(game.id, seat, T0, T0 + 24 * HOUR, 0, T0 + 48 * HOUR)
    ]
    assert await host.store.waits.fetch_next_due() == T0 + 24 * HOUR


async def test_a_reminder_fires_once_then_every_interval_and_at_most_three_times(host: Host) -> None:
    game = await table(host, remind=24)
    seat = waited_seat(game)
    assert await host.scheduler.tick(host.clock.hours(23)) == 0
    assert await host.scheduler.tick(host.clock.hours(1)) == 1
    assert await host.scheduler.tick() == 0  # the same moment again: already claimed
    assert host.pings.sent == [(game.id, seat, 24, "thread")]
    for _ in range(5):
        await host.scheduler.tick(host.clock.hours(24))
    assert [hours for _, _, hours, _ in host.pings.sent] == [24, 48, 72]
    assert len(host.pings.sent) == MAX_REMINDERS
    assert await host.store.waits.fetch_next_due() is None


async def test_a_move_restarts_the_wait_and_the_old_reminder_never_comes(host: Host) -> None:
    game = await table(host, remind=24)
    mover = on_turn(game)
    host.clock.hours(20)
    await host.sessions.act(game.id, mover, Action("add", (1,)), version=game.public_version)
    await host.scheduler.tick(host.clock.hours(5))  # 25 h after the start, 5 h after the move
    assert host.pings.sent == []
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert wait.seat == waited_seat(game) and wait.since == T0 + 20 * HOUR
    await host.scheduler.tick(host.clock.hours(19))
    assert host.pings.sent == [(game.id, wait.seat, 24, "thread")]


async def test_the_log_records_how_long_its_player_was_waited_on(host: Host) -> None:
    game = await table(host)
    host.clock.hours(3)
    await host.sessions.act(game.id, on_turn(game), Action("add", (1,)), version=game.public_version)
    assert await host.store._fetch("SELECT how, waited FROM actions") == [("player", 3 * HOUR)]


async def test_a_private_move_changes_no_wait(host: Host) -> None:
    """A reroll is private: its timing must not show, not even as a reminder that moved."""
    game = await table(host, remind=24, timer=48)
    before = await host.store.waits.fetch_waits(game.id)
    host.clock.hours(5)
    for user in (ANA, BOB):  # the player on turn and the other one
        applied = await host.sessions.act(game.id, user, Action("reroll"), version=None)
        assert not applied.public
    assert await host.store.waits.fetch_waits(game.id) == before
    assert await host.store._fetch("SELECT waited FROM actions") == [(None,), (None,)]


async def test_two_schedulers_on_one_database_fire_a_reminder_once(
    host: Host, store_target: str | Path
) -> None:
    """A second process (or the bot after a restart) finds the reminder already claimed."""
    game = await table(host, remind=24)
    other_store = await Store.open(store_target)
    try:
        other = build(other_store, host.clock)
        now = host.clock.hours(24)
        assert await host.scheduler.tick(now) + await other.scheduler.tick(now) == 1
        assert len(host.pings.sent) + len(other.pings.sent) == 1
        (wait,) = await other_store.waits.fetch_waits(game.id)
        assert wait.reminders == 1 and wait.remind_due == now + 24 * HOUR
    finally:
        await other_store.close()


async def test_a_deadline_that_passed_while_down_fires_once_at_the_first_tick(
    host: Host, store_target: str | Path
) -> None:
    game = await table(host, remind=24, timer=48)
    seat = waited_seat(game)
    await host.store.close()
    host.clock.hours(100)  # the bot was down for four days
    store = await Store.open(store_target)
    host.store = store  # the fixture closes this one
    restarted = build(store, host.clock)
    assert await restarted.scheduler.tick() == 1  # the timeout only: a reminder now would be noise
    assert restarted.pings.sent == []
    assert [(a.seat, a.action, a.how) for a in restarted.board.moves] == [
        (seat, Action("add", (3,)), "timeout")
    ]
    assert await restarted.scheduler.tick() == 0
    assert await store._fetch("SELECT seat, how, waited FROM actions") == [(seat, "timeout", 100 * HOUR)]


async def test_a_timeout_makes_the_default_move_once(host: Host, store_target: str | Path) -> None:
    game = await table(host, timer=48, remind=0)
    seat = waited_seat(game)
    assert await host.scheduler.tick(host.clock.hours(47.9)) == 0
    now = host.clock.hours(0.1)
    other_store = await Store.open(store_target)
    try:
        other = build(other_store, host.clock)
        assert await host.scheduler.tick(now) == 1
        assert await other.scheduler.tick(now) == 0  # another process, or a restart: nothing left
    finally:
        await other_store.close()
    (applied,) = host.board.moves
    assert (applied.seat, applied.action, applied.how, applied.public) == (
        seat,
        Action("add", (3,)),
        "timeout",
        True,
    )
    assert host.board.shown == 1
    live = await host.sessions.load(game.id)
    assert live.state.total == 3 and waited_seat(live) != seat
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert wait.since == now and wait.timeout_due == now + 48 * HOUR


async def test_a_game_where_everyone_times_out_still_ends(host: Host) -> None:
    game = await table(host, timer=1, remind=0, target=10)
    for _ in range(20):
        await host.scheduler.tick(host.clock.hours(1))
    live = await host.sessions.load(game.id)
    assert live.status == "finished"
    kinds = [a.action.kind for a in host.board.moves]
    assert kinds.count("add") == 4 and kinds.count("gg") == 2  # 3+3+3+3 >= 10, then both press gg
    assert (
        await host.store.waits.fetch_waits(game.id) == [] and await host.store.waits.fetch_next_due() is None
    )


async def test_a_default_move_the_engine_refuses_is_dropped_not_retried(
    host: Host, caplog: pytest.LogCaptureFixture
) -> None:
    game = await table(host, timer=2)
    rules = game.entry.rules
    real = rules.timeout_action
    rules.timeout_action = lambda state, seat: Action("add", (9,))  # type: ignore[method-assign]
    try:
        assert await host.scheduler.tick(host.clock.hours(2)) == 0
        assert await host.scheduler.tick(host.clock.hours(1)) == 0
    finally:
        rules.timeout_action = real  # type: ignore[method-assign]
    assert any("could not be made" in r.getMessage() for r in caplog.records)
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert wait.timeout_due is None and wait.remind_due is not None  # the reminder still comes
    assert (await host.sessions.load(game.id)).version == 0


async def test_many_tables_fire_in_due_order_and_only_when_due(host: Host) -> None:
    games = [await table(host, remind=hours) for hours in (5, 3, 8, 1, 3, 30)]
    host.clock.now = T0  # every table started at T0 (starting them took no time)
    assert await host.scheduler.tick(T0 + 6 * HOUR) == 4
    order = [game_id for game_id, _, _, _ in host.pings.sent]
    assert order == [games[3].id, games[1].id, games[4].id, games[0].id]
    assert await host.scheduler.tick(T0 + 6 * HOUR) == 0
    # The 1-hour table's second reminder (an hour after its first), before the 8-hour table's first.
    assert await host.store.waits.fetch_next_due() == T0 + 7 * HOUR


async def test_a_tick_reads_in_batches_until_nothing_is_due(host: Host) -> None:
    for _ in range(7):
        await table(host, remind=1)
    host.scheduler.batch = 3
    assert await host.scheduler.tick(host.clock.hours(1)) == 7


async def test_ended_and_abandoned_games_wait_on_nobody(host: Host) -> None:
    game = await table(host, remind=24)
    await host.lobby.close(game.id, ANA, moderator=False, status="abandoned", reason="test")
    assert await host.store.waits.fetch_waits(game.id) == []
    assert await host.scheduler.tick(host.clock.hours(30)) == 0


async def test_away_pauses_reminders_and_timers_and_coming_back_early_pulls_them_back(host: Host) -> None:
    game = await table(host, remind=24, timer=48)
    seat = waited_seat(game)
    user = game.user_of(seat)
    host.clock.hours(10)
    until, games = await host.clocks.set_away(user, 3)
    assert until == T0 + 10 * HOUR + 72 * HOUR and games == [game.id]
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert (wait.remind_due, wait.timeout_due) == (T0 + 96 * HOUR, T0 + 120 * HOUR)
    # Nothing fires while away.
    assert await host.scheduler.tick(host.clock.hours(60)) == 0
    # Back a day early: every deadline comes back by the unused day.
    _, games = await host.clocks.set_away(user, 0)
    assert games == [game.id] and user not in host.clocks.away
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert (wait.remind_due, wait.timeout_due) == (T0 + 84 * HOUR, T0 + 108 * HOUR)
    assert await host.scheduler.tick(host.clock.hours(14)) == 1  # the reminder, 14 h after coming back
    assert host.pings.sent == [(game.id, seat, 84, "thread")]


async def test_a_wait_that_begins_while_away_counts_from_the_return(host: Host) -> None:
    game = await table(host, remind=24, timer=48)
    mover = on_turn(game)
    other = ANA if mover == BOB else BOB
    until, _ = await host.clocks.set_away(other, 2)
    assert until is not None
    host.clock.hours(1)
    await host.sessions.act(game.id, mover, Action("add", (1,)), version=game.public_version)
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert (wait.since, wait.remind_due, wait.timeout_due) == (
        host.clock.now,
        until + 24 * HOUR,
        until + 48 * HOUR,
    )


async def test_a_reminder_due_for_an_away_player_waits_for_their_return(host: Host) -> None:
    """Defensive: a deadline that was not moved (written by hand, or by an older bot) is postponed."""
    game = await table(host, remind=24)
    user = game.user_of(waited_seat(game))
    await host.store.players.set_away(user, T0 + 100 * HOUR, T0 + 100 * HOUR)  # away, with no shift
    assert await host.scheduler.tick(host.clock.hours(24)) == 0
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert wait.remind_due == T0 + 124 * HOUR and wait.reminders == 0


async def test_notify_none_counts_reminders_without_sending_them(host: Host) -> None:
    game = await table(host, remind=24)
    await host.scheduler.reminders.set_notify(game.user_of(waited_seat(game)), "none")
    assert await host.scheduler.tick(host.clock.hours(24)) == 1
    assert host.pings.sent == []
    with pytest.raises(Refusal):
        await host.scheduler.reminders.set_notify(ANA, "carrier pigeon")


async def test_a_table_uses_its_own_clocks_else_the_server_s_else_the_bot_s(host: Host) -> None:
    host.sessions.hours = Hours(24, 0)
    await host.store._write("INSERT INTO guilds (guild_id, remind_hours, timer_hours) VALUES (1, 6, 12)")
    own = await table(host, remind=2)
    server = await table(host)
    (a,) = await host.store.waits.fetch_waits(own.id)
    (b,) = await host.store.waits.fetch_waits(server.id)
    assert (a.remind_due, a.timeout_due) == (T0 + 2 * HOUR, T0 + 12 * HOUR)
    assert (b.remind_due, b.timeout_due) == (T0 + 6 * HOUR, T0 + 12 * HOUR)


async def test_changing_a_table_s_clocks_counts_from_the_change(host: Host) -> None:
    game = await table(host, remind=24)
    (before,) = await host.store.waits.fetch_waits(game.id)
    now = host.clock.hours(10)
    with pytest.raises(Refusal) as refused:
        await host.clocks.set_table(game.id, 999, moderator=False, remind=None, timer="48h")
    assert refused.value.key == "host.refuse.host_or_moderator"
    report = await host.clocks.set_table(game.id, ANA, moderator=False, remind=None, timer="2d")
    assert report.hours == Hours(24, 48) and report.own.timer_hours == 48
    (after,) = await host.store.waits.fetch_waits(game.id)
    assert (after.since, after.remind_due, after.timeout_due) == (
        before.since,
        before.remind_due,
        now + 48 * HOUR,
    )
    report = await host.clocks.set_table(game.id, ANA, moderator=False, remind="off", timer="default")
    assert report.hours == Hours(0, 0) and report.own.timer_hours is None
    (after,) = await host.store.waits.fetch_waits(game.id)
    assert (after.remind_due, after.timeout_due) == (None, None)


def test_hours_are_written_as_people_write_them() -> None:
    assert [parse_hours(t) for t in ("24h", "36", "2d", "1 day", "off", "0", " 12 hours ")] == [
        24,
        36,
        48,
        24,
        0,
        0,
        12,
    ]
    # French hosts write days as j(ours), hours as heure(s), and "non" for off.
    assert [parse_hours(t) for t in ("2j", "3 jours", "12 heures", "1 heure", "non", "aucun")] == [
        48,
        72,
        12,
        1,
        0,
        0,
    ]
    for bad in ("soon", "-3", "1.5h", "99999", "61d", "61j", "²", "bientôt"):
        with pytest.raises(ValueError):
            parse_hours(bad)
    assert hours_option(None) is None and hours_option("3d") == 72
    with pytest.raises(Refusal) as refused:
        hours_option("tomorrow")
    assert refused.value.key == "host.timer.bad_hours"


async def test_the_next_deadline_is_one_query_on_the_indexes(host: Host) -> None:
    for _ in range(3):
        await table(host, remind=24, timer=48)
    if host.store.dialect.name == "sqlite":
        rows = await host.store._fetch("EXPLAIN QUERY PLAN " + NEXT_DUE_SQL)
        plan = " | ".join(str(r[3]) for r in rows)
        assert "SCAN waits" not in plan.replace("USING COVERING INDEX", "").replace("USING INDEX", ""), plan
    else:
        # Three tables are too few for PostgreSQL's planner to bother with an index unless told
        # that scanning is off: what this shows is that the indexes can answer the query alone.
        async with host.store._transaction() as db:
            await db.execute("SET LOCAL enable_seqscan = off")
            plan = " | ".join(str(r[0]) for r in await db.fetch("EXPLAIN " + NEXT_DUE_SQL))
        assert "Seq Scan" not in plan, plan
    assert "waits_by_remind_due" in plan and "waits_by_timeout_due" in plan, plan


async def test_a_deadline_whose_firing_fails_is_tried_again_an_hour_later(
    host: Host, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await table(host, remind=24)

    async def broken(game_id: int) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(host.store.waits, "fetch_table_clocks", broken)
    now = host.clock.hours(24)
    assert await host.scheduler.tick(now) == 0
    assert any("trying again in an hour" in r.getMessage() for r in caplog.records)
    (wait,) = await host.store.waits.fetch_waits(game.id)
    assert (wait.remind_due, wait.reminders) == (now + HOUR, 0)
    assert await host.scheduler.next_due() == now + HOUR


def test_the_bot_s_default_clocks_come_from_the_environment(tmp_path: Path) -> None:
    from bot.core.config import ConfigError, load_settings

    none = tmp_path / "no.env"
    defaults = load_settings({}, none)
    assert (defaults.remind_hours, defaults.timer_hours) == (24, 0)
    chosen = load_settings({"GAMEHOST_REMIND_HOURS": "12", "GAMEHOST_TIMER_HOURS": "48"}, none)
    assert (chosen.remind_hours, chosen.timer_hours) == (12, 48)
    for bad in ("-1", "2d", "99999", "²"):
        with pytest.raises(ConfigError, match="GAMEHOST_TIMER_HOURS"):
            load_settings({"GAMEHOST_TIMER_HOURS": bad}, none)
