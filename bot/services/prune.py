"""``python -m bot prune``: old ended games out of the database, into export files.

The database grows with every game ever played, and most of it is the logs, snapshots and
retired table messages of games nobody will open again.  Pruning a game that ended (finished or
abandoned) before a date:

1. writes its export (the JSON of ``/game export``, :func:`bot.services.export.export_game`) to
   ``<folder>/game-<id>.json``, flushed to disk;
2. checks that the export replays to its stored snapshot (:func:`bot.services.export.replay_export`): a
   game whose export would not give it back is *kept*, and reported, never deleted;
3. writes its places again from the snapshot (stats read ``seats.rank``; they used to be filled from the
   snapshot on demand, which is about to go);
4. removes its log, snapshot, retired messages and undo request (:meth:`GameStore.prune_game`),
   keeping what stats, leaderboards and ``/game mine`` read;

and finally gives the space back (:meth:`Store.reclaim`).  It is safe to run while the bot runs
(each game is one transaction, and an ended game takes no moves), and safe to run again: a
pruned game is not pruned twice, and an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.registry import Registry
from bot.services.export import export_game, replay_export
from bot.services.sessions import places
from bot.storage import GameStatus, Store, StoreError
from rules.core import StateError

log = logging.getLogger(__name__)


@dataclass(slots=True)
class PruneReport:
    """What a run did, for the command's one JSON line."""

    folder: str
    pruned: int = 0
    kept: list[int] = field(default_factory=list)
    """Ended games left alone because their export did not replay (each logged with why)."""
    bytes_before: int | None = None
    bytes_after: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "pruned": self.pruned,
            "kept": self.kept,
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "ok": not self.kept,
        }


def export_path(folder: Path, game_id: int) -> Path:
    """Where a pruned game's export goes: the file name ``/game export`` gives it too."""
    return folder / f"game-{game_id}.json"


def _write_durably(path: Path, data: dict[str, Any]) -> None:
    """Write then rename, with both synced: the game is deleted only once its file is on disk."""
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as out:
        json.dump(data, out, indent=1)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


async def database_bytes(store: Store) -> int | None:
    """The database's size on disk: a SQLite file with its write-ahead log, or PostgreSQL's
    ``pg_database_size`` (``None`` for an in-memory database)."""
    db = store.database
    if db.dialect.name == "sqlite":
        if db.name == ":memory:":
            return None
        return sum(os.path.getsize(n) for n in (db.name, db.name + "-wal") if os.path.exists(n))
    rows = await db.fetch("SELECT pg_database_size(current_database())")
    return int(rows[0][0])


async def _write_places(store: Store, registry: Registry, game_id: int, data: dict[str, Any]) -> None:
    """Write a finished game's places from its snapshot (stats read them; usually already there,
    but a crash just after the last move can leave them to be filled from the snapshot)."""
    if data.get("status") != GameStatus.FINISHED or data.get("snapshot") is None:
        return
    entry = registry.get(str(data["game"]))
    if entry is None:
        return
    outcome = entry.rules.outcome(entry.rules.load(data["snapshot"]))
    if outcome is not None:
        await store.games.set_ranks(game_id, places(outcome))


async def prune(
    store: Store,
    registry: Registry,
    *,
    ended_before: float,
    folder: Path,
    now: float,
    reclaim: bool = True,
    progress: Callable[[str], None] = lambda _: None,
) -> PruneReport:
    """Export and prune every game that ended before ``ended_before`` (see the module's steps).

    Raises ``StoreError`` when the database fails, ``OSError`` when the folder cannot be
    written: games pruned before that stay pruned, their files written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    report = PruneReport(str(folder))
    report.bytes_before = await database_bytes(store)
    ids = await store.games.list_prunable(ended_before=ended_before, limit=10**9)
    progress(f"{len(ids)} ended games to export and prune into {folder}")
    for done, game_id in enumerate(ids, 1):
        data = await export_game(store, game_id, registry)
        try:
            replayed = replay_export(data, registry)
            problem = None if replayed.matches else replayed.detail
        except (ValueError, KeyError, TypeError, StateError) as exc:
            problem = f"{type(exc).__name__}: {exc}"
        if problem is not None:
            log.error("game %s kept: its export does not replay (%s)", game_id, problem)
            report.kept.append(game_id)
            continue
        _write_durably(export_path(folder, game_id), data)
        await _write_places(store, registry, game_id, data)
        if await store.games.prune_game(game_id, now=now):
            report.pruned += 1
        if done % 100 == 0:
            progress(f"{done} of {len(ids)} games done")
    if reclaim and report.pruned:
        progress("giving the space back")
        try:
            await store.reclaim()
        except StoreError as exc:
            # The games are pruned either way; only the file's size waits for a later run.
            log.error("space not given back: %s", exc)
    report.bytes_after = await database_bytes(store)
    return report
