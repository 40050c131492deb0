"""The scheduler at scale: what an idle minute costs with 200 and 2,000 open tables, and how long
the bot takes to start with 10,000 stored games.

What runs: the host's own code below Discord on a real SQLite file (WAL, ``synchronous = FULL``,
as the bot opens it): ``Store``, ``SessionService``, the ``Scheduler`` with its ``Reminders`` and
``Timers`` (their Discord side replaced by counters), the ``Clocks`` service and the table
``Publisher``.  Databases are written directly (one transaction) with rows the bot itself would
write: games of the four real games with the snapshots their engines set up, their seats, table
messages at their public version, action logs for ended games, and one wait per open table with
a reminder and (for half of them) a timeout hours or days away.  The clock is a fake one.

1. Idle cost.  For each number of open tables, the loop's work for a run of idle minutes (nothing
   falls due): one ``Scheduler.tick(now)`` and the sleep it computes per minute, which is what
   ``cogs/tasks.py`` does.  SQL statements are counted by SQLite's trace callback (every statement
   the connection runs), CPU is the process's (``time.process_time``: the aiosqlite thread too),
   per minute in the quietest block of an hour (the machine is shared).
   ``EXPLAIN QUERY PLAN`` of the next-deadline and due-waits queries shows both partial indexes.
   For comparison, the minutely table sweep of issue 8 (not the scheduler) is measured the same
   way: its queries are per minute too, but scan the open tables.
2. A burst: every table's reminder falls due at once; one tick fires each exactly once, and a
   second tick fires nothing.
3. Start-up with 10,000 stored games (most of them finished, the rest open, a few with deadlines
   that passed while the bot was down): ``Store.open`` (migrations, a test write; the integrity check runs after ready),
   the services and the away list, ``Publisher.resume`` (the start-up sweep), and the scheduler's
   first tick, which fires the overdue deadlines once.

Goals (issue 12): one query per idle minute at every size, and idle CPU per minute at the largest
size within 2x of the smallest (a scan would be about 10x); both queries on their indexes; the
burst fires each deadline once; start-up under 1 s.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/scheduler_scale.py [--tables 200,2000] [--stored 10000]
        [--minutes 600] [--quick]

The last line is one JSON object with every figure; its ``ok`` is true only when every goal is met.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bot.core.i18n import Catalog
from bot.games import REGISTRY
from bot.services.clocks import Clocks
from bot.services.deadlines import HOUR, Hours
from bot.services.reminders import Reminders
from bot.services.scheduler import Scheduler
from bot.services.sessions import Applied, LiveGame, SessionService
from bot.services.timers import Timers
from bot.storage import NEXT_DUE_SQL, GameStatus, Store
from bot.storage.sqlite import SqliteDatabase
from bot.ui.publisher import FINAL_WINDOW, Publisher
from rules.core import Action
from rules.play import canonical

T0 = 1_800_000_000.0
GAMES = tuple(entry.name for entry in REGISTRY.public())
"""Every offered game, in the registry's order (``bot.games``)."""
GOAL_QUERIES_PER_MINUTE = 1
GOAL_CPU_RATIO = 2.0
GOAL_STARTUP_S = 1.0
LOGGED_MOVES = 40
"""Action rows per ended game (a short game's log; the rows' size matters only to start-up's check)."""
BLOCK = 60
"""Idle minutes per timed block (see ``idle_level``)."""
OVERDUE = 20
"""Open tables whose reminder passed while the bot was down (fired by the first tick)."""

DUE_SQL = (
    "SELECT game_id, seat, since, remind_due, reminders, timeout_due FROM ("
    " SELECT game_id, seat, since, remind_due, reminders, timeout_due FROM waits WHERE remind_due <= ?"
    " UNION SELECT game_id, seat, since, remind_due, reminders, timeout_due FROM waits WHERE timeout_due <= ?)"
    " ORDER BY MIN(COALESCE(remind_due, 1e308), COALESCE(timeout_due, 1e308)), game_id, seat LIMIT ?"
)


# -- the database ------------------------------------------------------------------------------------


def snapshots() -> dict[str, tuple[int, str, list[int]]]:
    """Each game's players, a real snapshot from its engine's setup (sizes as in production) and
    the seats that state waits on (one wait row each)."""
    out: dict[str, tuple[int, str, list[int]]] = {}
    for name in GAMES:
        entry = REGISTRY.get(name)
        if entry is None:
            continue
        rules = entry.rules
        players = max(rules.min_players, min(3, rules.max_players))
        state = rules.setup(players, {}, 1)
        out[name] = (players, canonical(rules.dump(state)), sorted(rules.waiting_for(state)))
    return out


INSERTS = {
    "games": "INSERT INTO games (id, guild_id, channel_id, thread_id, game, options, seed, status, version,"
    " snapshot, host_id, language, reason, created_at, updated_at, public_version, public_at, ended_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "seats": "INSERT INTO seats (game_id, seat, user_id, name, rank) VALUES (?, ?, ?, ?, ?)",
    "messages": "INSERT INTO messages (message_id, game_id, channel_id, kind, version, live, since, pinged)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "actions": "INSERT INTO actions (game_id, version, seat, user_id, action, at, how, undone, waited)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "waits": "INSERT INTO waits (game_id, seat, since, remind_due, reminders, timeout_due) VALUES (?, ?, ?, ?, ?, ?)",
}
"""Each table's rows, in the column order :func:`stored_rows` builds them."""


def populate(path: Path, *, open_tables: int, ended: int, overdue: int, rng: random.Random) -> None:
    """Write ``open_tables`` running games (one wait each) and ``ended`` finished ones, as the bot would."""
    rows = stored_rows(open_tables=open_tables, ended=ended, overdue=overdue, rng=rng)
    db = sqlite3.connect(path)
    db.execute("BEGIN")
    for table, sql in INSERTS.items():
        db.executemany(sql, rows[table])
    db.execute("COMMIT")
    db.close()


def stored_rows(
    *, open_tables: int, ended: int, overdue: int, rng: random.Random
) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of ``open_tables`` running games and ``ended`` finished ones, table by table."""
    kinds = snapshots()
    names = list(kinds)
    message = 10_000_000
    games: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    messages: list[tuple[Any, ...]] = []
    actions: list[tuple[Any, ...]] = []
    waits: list[tuple[Any, ...]] = []
    logged = json.dumps(Action("coin").to_json())
    total = open_tables + ended
    for game_id in range(1, total + 1):
        name = names[game_id % len(names)]
        players, snapshot, waited = kinds[name]
        running = game_id > ended
        status = GameStatus.ACTIVE if running else GameStatus.FINISHED
        version = 0 if running else LOGGED_MOVES
        guild = 1 + game_id % 50
        created = T0 - rng.uniform(1, 90) * 24 * HOUR
        games.append(
            (
                game_id,
                guild,
                1000 + guild,
                5000 + game_id,
                name,
                "{}",
                game_id,
                status,
                version,
                snapshot,
                100 + game_id % 997,
                "en",
                None,
                created,
                created,
                version,
                created,
                None if running else created,
            )
        )
        for seat in range(players):
            user = 100 + (game_id + seat * 7919) % 997
            seats.append((game_id, seat, user + seat * 1000, f"p{seat}", None if running else seat + 1))
        message += 1
        messages.append((message, game_id, 5000 + game_id, "table", version, int(running), version, "[0]"))
        if running:
            for seat in waited:
                late = game_id > total - overdue
                remind = T0 - rng.uniform(0, 3) * HOUR if late else T0 + rng.uniform(12, 48) * HOUR
                timeout = T0 + rng.uniform(60, 96) * HOUR if game_id % 2 else None
                waits.append((game_id, seat, T0 - 3 * HOUR, remind, 0, timeout))
        else:
            message += 1
            messages.append((message, game_id, 5000 + game_id, "final", version, 1, None, None))
            actions.extend(
                (game_id, v, v % players, None, logged, created + v * 600, "player", 0, 600.0)
                for v in range(1, LOGGED_MOVES + 1)
            )
    return {"games": games, "seats": seats, "messages": messages, "actions": actions, "waits": waits}


async def fresh_database(path: Path) -> None:
    """The bot's schema, by the bot's own migrations."""
    store = await Store.open(path)
    await store.close()


# -- the host below Discord ------------------------------------------------------------------------


@dataclass
class Counters:
    """The Discord side of reminders and timeouts, counting instead of sending."""

    reminded: list[tuple[int, int]] = field(default_factory=list)
    moves: int = 0

    async def remind(self, game: LiveGame, seat: int, waited: float, how: str) -> str:
        self.reminded.append((game.id, seat))
        return how

    def committed(self, applied: Applied) -> None:
        self.moves += 1

    async def show(self, game: LiveGame) -> None:
        return None


@dataclass
class Host:
    store: Store
    sessions: SessionService
    scheduler: Scheduler
    counters: Counters
    statements: list[str]


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def host(path: Path, clock: Callable[[], float]) -> Host:
    store = await Store.open(path)
    sessions = SessionService(store, REGISTRY, clock=clock)
    sessions.hours = Hours(24, 0)
    counters = Counters()
    scheduler = Scheduler(sessions, Reminders(sessions, counters), Timers(sessions, counters))
    statements: list[str] = []
    assert isinstance(store._db, SqliteDatabase), "the scheduler benchmark counts SQLite statements"
    await store._db.connection.set_trace_callback(statements.append)
    return Host(store, sessions, scheduler, counters, statements)


async def plan(store: Store, sql: str, params: tuple[Any, ...] = ()) -> list[str]:
    return [str(row[3]) for row in await store._fetch("EXPLAIN QUERY PLAN " + sql, params)]


def uses_indexes(lines: list[str]) -> bool:
    text = " | ".join(lines)
    scans = [line for line in lines if line.startswith("SCAN waits")]
    return "waits_by_remind_due" in text and "waits_by_timeout_due" in text and not scans


# -- 1 and 2: idle minutes and a burst ---------------------------------------------------------------


async def idle_level(workdir: Path, tables: int, minutes: int, rng: random.Random) -> dict[str, Any]:
    path = workdir / f"idle-{tables}.sqlite3"
    await fresh_database(path)
    populate(path, open_tables=tables, ended=0, overdue=0, rng=rng)
    clock = Clock(T0)
    h = await host(path, clock)
    try:
        await h.scheduler.tick()  # warm: the first statement compiles
        h.statements.clear()
        # In blocks of BLOCK minutes; the quietest block counts (the machine is shared: another
        # process's work shows up as noise in any one block, never as less work).
        blocks: list[tuple[float, float]] = []
        sleeps = []
        for start in range(0, minutes, BLOCK):
            cpu = time.process_time()
            wall = time.perf_counter()
            for _ in range(start, min(minutes, start + BLOCK)):
                clock.now += 60.0
                fired = await h.scheduler.tick()
                assert fired == 0, "nothing is due in an idle minute"
                sleeps.append(h.scheduler.delay(clock.now, 60.0))
            done = min(minutes, start + BLOCK) - start
            blocks.append(((time.process_time() - cpu) / done, (time.perf_counter() - wall) / done))
        cpu_per_minute = min(b[0] for b in blocks)
        wall_per_minute = min(b[1] for b in blocks)
        queries = len(h.statements) / minutes
        # For comparison: the minutely table sweep (issue 8) over the same tables.
        h.statements.clear()
        sweep_cpu = time.process_time()
        for _ in range(minutes):
            await h.store.messages.list_games_behind_their_table()
            await h.store.messages.list_games_missing_final(ended_since=clock.now - FINAL_WINDOW)
        sweep_cpu = time.process_time() - sweep_cpu
        sweep_queries = len(h.statements) / minutes
        next_plan = await plan(h.store, NEXT_DUE_SQL)
        due_plan = await plan(h.store, DUE_SQL, (clock.now, clock.now, 200))
        # The burst: every reminder falls due (no timeout yet); each fires once, and nothing twice.
        waits = len(await h.store._fetch("SELECT 1 FROM waits"))
        clock.now = T0 + 49 * HOUR
        started = time.perf_counter()
        burst = await h.scheduler.tick()
        burst_s = time.perf_counter() - started
        again = await h.scheduler.tick()
        reminded = len(h.counters.reminded)
        distinct = len(set(h.counters.reminded))
    finally:
        await h.store.close()
    return {
        "tables": tables,
        "idle_minutes": minutes,
        "queries_per_idle_minute": round(queries, 3),
        "cpu_ms_per_idle_minute": round(cpu_per_minute * 1000, 4),
        "wall_ms_per_idle_minute": round(wall_per_minute * 1000, 4),
        "sleep_s": round(min(sleeps), 1),
        "next_due_plan": next_plan,
        "due_waits_plan": due_plan,
        "plans_use_indexes": uses_indexes(next_plan) and uses_indexes(due_plan),
        "sweep_queries_per_minute": round(sweep_queries, 3),
        "sweep_cpu_ms_per_minute": round(sweep_cpu * 1000 / minutes, 4),
        "burst_fired": burst,
        "burst_ms_per_deadline": round(burst_s * 1000 / max(1, burst), 3),
        "burst_again": again,
        "burst_waits": waits,
        "burst_exactly_once": burst == waits and again == 0 and reminded == distinct == waits,
    }


# -- 3: start-up ---------------------------------------------------------------------------------------


async def startup(workdir: Path, stored: int, open_tables: int, rng: random.Random) -> dict[str, Any]:
    path = workdir / "startup.sqlite3"
    await fresh_database(path)
    populate(path, open_tables=open_tables, ended=stored - open_tables, overdue=OVERDUE, rng=rng)
    size_mb = sum(p.stat().st_size for p in workdir.glob("startup.sqlite3*")) / 1e6
    figures = await measure_startup(path)
    return {"stored_games": stored, "open_tables": open_tables, "database_mb": round(size_mb, 1), **figures}


async def measure_startup(target: Path | str) -> dict[str, Any]:
    """The host's start on a populated database (a SQLite path or a PostgreSQL URL), step by step."""
    counting = await Store.open(target)
    try:
        overdue = len(await counting._fetch("SELECT 1 FROM waits WHERE remind_due <= ?", (T0,)))
    finally:
        await counting.close()
    clock = Clock(T0)
    times: dict[str, float] = {}
    started = time.perf_counter()
    store = await Store.open(target)
    times["open_store_s"] = time.perf_counter() - started
    try:
        mark = time.perf_counter()
        sessions = SessionService(store, REGISTRY, clock=clock)
        counters = Counters()
        scheduler = Scheduler(sessions, Reminders(sessions, counters), Timers(sessions, counters))
        clocks = Clocks(sessions, scheduler)
        await clocks.load()
        publisher = Publisher(discord.Client(intents=discord.Intents.none()), sessions, Catalog.load())
        publisher.away = clocks.away
        times["services_s"] = time.perf_counter() - mark
        mark = time.perf_counter()
        repaired = await publisher.resume()
        times["resume_sweep_s"] = time.perf_counter() - mark
        mark = time.perf_counter()
        fired = await scheduler.tick()
        times["first_tick_s"] = time.perf_counter() - mark
        total = time.perf_counter() - started
        again = await scheduler.tick()
    finally:
        await store.close()
    return {
        **{key: round(value, 4) for key, value in times.items()},
        "startup_s": round(total, 4),
        "repaired": repaired,
        "overdue_fired": fired,
        "overdue_expected": overdue,
        "fired_again": again,
    }


# -- report --------------------------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="scheduler-scale-", dir=args.workdir))
    try:
        levels = [await idle_level(workdir, n, args.minutes, rng) for n in args.tables]
        start = await startup(workdir, args.stored, args.open, rng)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    small, large = levels[0], levels[-1]
    ratio = large["cpu_ms_per_idle_minute"] / max(small["cpu_ms_per_idle_minute"], 1e-9)
    goals = {
        "one_query_per_idle_minute": all(
            level["queries_per_idle_minute"] == GOAL_QUERIES_PER_MINUTE for level in levels
        ),
        "idle_cpu_flat": ratio <= GOAL_CPU_RATIO,
        "indexed_plans": all(level["plans_use_indexes"] for level in levels),
        "burst_exactly_once": all(level["burst_exactly_once"] for level in levels),
        "startup_under_1s": start["startup_s"] < GOAL_STARTUP_S,
        "overdue_fired_once_at_start": start["overdue_fired"] == start["overdue_expected"]
        and start["fired_again"] == 0,
    }
    return {
        "benchmark": "scheduler_scale",
        "seed": args.seed,
        "levels": levels,
        "idle_cpu_ratio": round(ratio, 2),
        "startup": start,
        "goals": goals,
        "ok": all(goals.values()),
    }


def show(summary: dict[str, Any]) -> None:
    goals = summary["goals"]
    print("Idle minutes (nothing due): the loop's tick and sleep once a minute")
    for level in summary["levels"]:
        print(
            f"  {level['tables']:>6} open tables: {level['queries_per_idle_minute']:.2f} queries/min "
            f"(goal {GOAL_QUERIES_PER_MINUTE}), {level['cpu_ms_per_idle_minute']:.3f} ms CPU/min, "
            f"sleeps {level['sleep_s']} s; for comparison the minutely table sweep: "
            f"{level['sweep_queries_per_minute']:.0f} queries, {level['sweep_cpu_ms_per_minute']:.3f} ms CPU/min"
        )
    print(
        f"  CPU at {summary['levels'][-1]['tables']} vs {summary['levels'][0]['tables']} tables: "
        f"x{summary['idle_cpu_ratio']} (goal <= x{GOAL_CPU_RATIO}; a scan would be about "
        f"x{summary['levels'][-1]['tables'] / summary['levels'][0]['tables']:.0f})  "
        f"{verdict(goals['one_query_per_idle_minute'] and goals['idle_cpu_flat'])}"
    )
    level = summary["levels"][-1]
    print("  next deadline:  " + " / ".join(level["next_due_plan"]))
    print("  due waits:      " + " / ".join(level["due_waits_plan"]))
    print(f"  both on their partial indexes, no scan  {verdict(goals['indexed_plans'])}")
    for level in summary["levels"]:
        print(
            f"Burst at {level['tables']} tables ({level['burst_waits']} waits): {level['burst_fired']} reminders fired in one tick "
            f"({level['burst_ms_per_deadline']} ms each), {level['burst_again']} on the next  "
            f"{verdict(level['burst_exactly_once'])}"
        )
    start = summary["startup"]
    print(
        f"Start-up with {start['stored_games']} stored games ({start['open_tables']} open, "
        f"{start['database_mb']} MB): open store {start['open_store_s']:.3f} s, services "
        f"{start['services_s']:.3f} s, resume sweep {start['resume_sweep_s']:.3f} s, first tick "
        f"{start['first_tick_s']:.3f} s ({start['overdue_fired']} overdue reminders fired once); "
        f"total {start['startup_s']:.3f} s (goal < {GOAL_STARTUP_S} s)  "
        f"{verdict(goals['startup_under_1s'] and goals['overdue_fired_once_at_start'])}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", default="200,2000", help="open tables per idle level, comma-separated")
    parser.add_argument("--stored", type=int, default=10_000, help="games in the start-up database")
    parser.add_argument("--open", type=int, default=2_000, help="of which open (the rest finished)")
    parser.add_argument("--minutes", type=int, default=600, help="idle minutes measured per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default=None, help="where the temporary databases go")
    parser.add_argument("--quick", action="store_true", help="tiny run for the smoke test")
    args = parser.parse_args(argv)
    args.tables = [int(n) for n in str(args.tables).split(",") if n]
    if args.quick:
        args.tables, args.stored, args.open, args.minutes = [20, 200], 1_000, 200, 60
    summary = asyncio.run(run(args))
    show(summary)
    print(json.dumps(summary, sort_keys=True))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
