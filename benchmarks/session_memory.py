"""Per-game memory (issue 25, finding 9): a process's RSS as it touches ever more games.

``--games`` one-player toy races (default 10,000 per round) are stored in one transaction, then
played through :class:`bot.services.sessions.SessionService` with the default cache and a
:class:`bot.services.bot_players.BotPlayers` listening (it is poked after every commit, as in the
bot): every game gets one move, and every other game is played to its end, so half of them
are left running (evicted from the cache while running, the case that used to keep a lock and a
generation for ever) and half finished.  A second round does the same on as many new games.

Reported after each round: RSS (``/proc/self/status``), the sizes of the per-game maps (cached
games, locks, generations, bot drivers) and the RSS growth per 1,000 games of the second round,
which is the memory a long-running bot would keep per game.  The database lives in ``/dev/shm``
when it exists (memory is measured here, not the disk).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/session_memory.py [--games 10000]

The last line is one JSON object; ``ok`` is true when the maps are no bigger than the cache
after each round and the second round grew RSS by under 1 MB per 1,000 games.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import harness.toygame  # noqa: F401  (registers the toy game)
from bot.games import REGISTRY
from bot.services.bot_players import BotPlayers
from bot.services.sessions import SessionService
from bot.storage import Store
from rules.core import Action
from rules.play import canonical

T0 = 1_800_000_000.0
GOAL_KB_PER_1000 = 1024


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def store_games(store: Store, first_user: int, count: int) -> list[int]:
    entry = REGISTRY.get("toy")
    assert entry is not None
    snapshot = canonical(entry.rules.dump(entry.rules.setup(1, {"target": 3}, 1)))
    ids = []
    async with store.database.transaction() as db:
        for n in range(count):
            user = first_user + n
            rows = await db.fetch(
                "INSERT INTO games (guild_id, channel_id, game, options, seed, status, version, snapshot,"
                " host_id, language, created_at, updated_at) VALUES (1, 2, 'toy', ?, 1, 'active', 0, ?, ?,"
                " 'en', ?, ?) RETURNING id",
                (json.dumps({"target": 3}), snapshot, user, T0, T0),
            )
            ids.append(int(rows[0][0]))
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, 'p')", (ids[-1], user)
            )
    return ids


async def touch(sessions: SessionService, bots: BotPlayers, ids: list[int], first_user: int) -> None:
    for n, game_id in enumerate(ids):
        game = await sessions.load(game_id)
        await sessions.act(
            game_id, first_user + n, Action("add", (1 if n % 2 else 3,)), version=game.public_version
        )
        if not n % 2:
            game = await sessions.load(game_id)
            await sessions.act(game_id, first_user + n, Action("gg"), version=game.public_version)
    await bots.idle()
    await asyncio.sleep(0)


def maps(sessions: SessionService, bots: BotPlayers) -> dict[str, int]:
    return {
        "cached": sessions.cached(),
        "locks": len(sessions._locks),
        "generations": len(sessions._generations),
        "bot_tasks": len(bots._tasks),
    }


async def run(count: int) -> dict[str, Any]:
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        store = await Store.open(Path(folder) / "memory.sqlite3")
        try:
            first = await store_games(store, 10_000, count)
            second = await store_games(store, 10_000 + count, count)
            sessions = SessionService(store, REGISTRY)
            bots = BotPlayers(sessions, None, 0)
            gc.collect()
            start = rss_kb()
            await touch(sessions, bots, first, 10_000)
            gc.collect()
            after_first = rss_kb()
            maps_first = maps(sessions, bots)
            await touch(sessions, bots, second, 10_000 + count)
            gc.collect()
            after_second = rss_kb()
            maps_second = maps(sessions, bots)
        finally:
            await store.close()
    growth = (after_second - after_first) * 1000 / count
    cache = sessions.cache_size
    ok = (
        all(v <= cache for v in maps_first.values())
        and all(v <= cache for v in maps_second.values())
        and growth < GOAL_KB_PER_1000
    )
    return {
        "games_per_round": count,
        "cache_size": cache,
        "rss_kb_start": start,
        "rss_kb_after_round_1": after_first,
        "rss_kb_after_round_2": after_second,
        "maps_after_round_1": maps_first,
        "maps_after_round_2": maps_second,
        "kb_per_1000_games_round_2": round(growth, 1),
        "ok": ok,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.games))
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
