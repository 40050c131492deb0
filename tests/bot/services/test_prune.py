"""Storage that lasts (issue 25, findings 7 and 10): ``prune`` and HOT updates.

Before this change nothing was ever removed (``python -m bot prune`` did not exist, and the
store had no way to drop a game's log), and on PostgreSQL every click rewrote the whole ``games``
row because ``games_by_status`` indexed ``updated_at``: 0 HOT updates.  Each test below fails
on that code (no ``bot.services.prune`` module, no ``prune`` command, no HOT update).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.games import REGISTRY
from bot.services.export import replay_export
from bot.services.lobby import LobbyService
from bot.services.prune import database_bytes, prune
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.services.stats import StatsService
from bot.storage import Store
from bot.storage.codes import GameStatus, MessageKind
from rules.core import Action
from tests.bot.test_cli import cli

DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def table(lobby: LobbyService, n: int) -> LiveGame:
    """A started two-player toy race to 6, hosted by its own pair of players (limits stay out)."""
    made = await lobby.create(
        game="toy",
        options_text="target=6",
        host_id=100 + 2 * n,
        host_name=f"host {n}",
        guild_id=1,
        channel_id=2,
        language="en",
    )
    await lobby.join(made.id, 101 + 2 * n, f"guest {n}")
    return await lobby.start(made.id, 100 + 2 * n, seed=n)


async def play_out(sessions: SessionService, game_id: int, clock: Clock) -> None:
    """Add 1 at a time, waiting a minute per move, until the race is over and everyone said gg."""
    while True:
        game = await sessions.load(game_id)
        if game.status != "active":
            return
        clock.now += 60
        seat = min(game.waiting())
        kind = Action("gg") if game.state.phase == "cheer" else Action("add", (1,))
        await sessions.act(game_id, game.user_of(seat), kind, version=game.public_version)


async def test_prune_exports_replays_and_keeps_what_stats_need(
    store_target: str | Path, tmp_path: Path
) -> None:
    clock = Clock()
    store = await Store.open(store_target)
    try:
        sessions = SessionService(store, REGISTRY, clock=clock)
        lobby = LobbyService(sessions)
        old = [await table(lobby, n) for n in range(3)]
        for game in old:
            await play_out(sessions, game.id, clock)
            await store.messages.add_message(game.id, 2, 9_000 + game.id, MessageKind.TABLE, 1)
            await store.messages.retire_message(9_000 + game.id)
            await store.messages.add_message(game.id, 2, 8_000 + game.id, MessageKind.FINAL, game.version)
        abandoned = await table(lobby, 3)
        await sessions.act(
            abandoned.id, abandoned.user_of(min(abandoned.waiting())), Action("add", (1,)), version=0
        )
        await store.games.set_status(abandoned.id, GameStatus.ABANDONED, reason="abandoned_by:x", now=clock())
        cutoff = clock.now + 1
        clock.now += 30 * DAY
        recent = await table(lobby, 4)
        await play_out(sessions, recent.id, clock)  # ended after the cutoff: kept
        running = await table(lobby, 5)
        await sessions.act(
            running.id, running.user_of(min(running.waiting())), Action("add", (1,)), version=0
        )

        stats = StatsService(sessions)
        records = {user: await stats.record(user, guild_id=1, game=None) for user in (100, 101, 104, 105)}
        board = await stats.seasons.board(1, "toy")
        finals = {game.id: (await store.games.fetch_game(game.id)) for game in old}

        report = await prune(store, REGISTRY, ended_before=cutoff, folder=tmp_path / "out", now=clock())
        assert report.pruned == 4 and report.kept == []

        for game in [*old, abandoned]:
            data = json.loads((tmp_path / "out" / f"game-{game.id}.json").read_text(encoding="utf-8"))
            assert replay_export(data, REGISTRY).matches
            assert await store.log.load_log(game.id) == []
            row = await store.games.fetch_game(game.id)
            assert row is not None and row.snapshot is None and row.pruned_at == clock()
            with pytest.raises(Refusal) as refused:
                await SessionService(store, REGISTRY).load(game.id)
            assert refused.value.key == "host.refuse.pruned"
        for game in old:
            before = finals[game.id]
            assert before is not None
            data = json.loads((tmp_path / "out" / f"game-{game.id}.json").read_text(encoding="utf-8"))
            assert json.dumps(data["snapshot"], sort_keys=True, separators=(",", ":")) == before.snapshot
            # The retired table message went; the closing message (a sweep looks for it) stayed.
            assert [m.message_id for m in await store.messages.fetch_live_messages(game.id)] == [
                8_000 + game.id
            ]
            assert await store.messages.has_message(game.id, MessageKind.FINAL)

        # What stats, leaderboards and /game mine read is unchanged.
        fresh = StatsService(SessionService(store, REGISTRY, clock=clock))
        assert {user: await fresh.record(user, guild_id=1, game=None) for user in records} == records
        assert await fresh.seasons.board(1, "toy") == board
        kept = await store.games.fetch_game(recent.id)
        assert len(await store.log.load_log(recent.id)) > 0 and kept is not None and kept.snapshot
        assert len(await store.log.load_log(running.id)) == 1

        again = await prune(store, REGISTRY, ended_before=cutoff, folder=tmp_path / "out", now=clock())
        assert again.pruned == 0
    finally:
        await store.close()


async def test_a_game_whose_export_does_not_replay_is_kept(tmp_path: Path) -> None:
    clock = Clock()
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        sessions = SessionService(store, REGISTRY, clock=clock)
        game = await table(LobbyService(sessions), 0)
        await play_out(sessions, game.id, clock)
        async with store.database.transaction() as db:  # a log that no longer gives the snapshot
            await db.execute("DELETE FROM actions WHERE game_id = ? AND version = 1", (game.id,))
        report = await prune(store, REGISTRY, ended_before=clock() + 1, folder=tmp_path / "out", now=clock())
        assert (report.pruned, report.kept) == (0, [game.id])
        assert len(await store.log.load_log(game.id)) > 0
        assert not (tmp_path / "out" / f"game-{game.id}.json").exists()
    finally:
        await store.close()


@pytest.mark.parametrize("made_before_9", [False, True])
async def test_pruning_gives_the_space_back(tmp_path: Path, made_before_9: bool) -> None:
    """A file made by this version shrinks by incremental vacuum; one made before it (no
    ``auto_vacuum``) is converted once by a full VACUUM, and shrinks too."""
    from benchmarks.prune import playthroughs, write_finished

    path = tmp_path / "big.sqlite3"
    store = await Store.open(path)
    await store.close()
    if made_before_9:
        db = sqlite3.connect(path)
        db.execute("PRAGMA auto_vacuum = NONE")
        db.execute("VACUUM")
        assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 0
        db.close()
    store = await Store.open(path)
    try:
        await write_finished(store, playthroughs(REGISTRY, ("estates",), 2), 40, start=1_700_000_000.0)
        before = await database_bytes(store)
        report = await prune(store, REGISTRY, ended_before=1_800_000_000.0, folder=tmp_path / "out", now=1.0)
        after = await database_bytes(store)
    finally:
        await store.close()
    assert report.pruned == 40
    assert before is not None and after is not None and after < before / 3
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()


def test_the_prune_command(tmp_path: Path) -> None:
    db_path = tmp_path / "db" / "host.sqlite3"
    db_path.parent.mkdir()
    clock = Clock()

    async def fill() -> int:
        store = await Store.open(db_path)
        try:
            sessions = SessionService(store, REGISTRY, clock=clock)
            game = await table(LobbyService(sessions), 0)
            await play_out(sessions, game.id, clock)
            return game.id
        finally:
            await store.close()

    game_id = asyncio.run(fill())
    out = tmp_path / "exports"
    done = cli(tmp_path, "prune", "--finished-before", "2100-01-01", "--out", str(out))
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["pruned"] == 1 and line["ok"] and line["bytes_after"] <= line["bytes_before"]
    export = out / f"game-{game_id}.json"
    assert cli(tmp_path, "replay", str(export)).returncode == 0
    refused = cli(tmp_path, "export", str(game_id))
    assert refused.returncode == 2 and "pruned" in refused.stderr
    assert cli(tmp_path, "prune", "--finished-before", "soon").returncode == 2


async def test_an_older_database_learns_when_its_games_ended(tmp_path: Path) -> None:
    """Migration 9 fills ``ended_at`` from ``updated_at`` for games that ended before it, so the
    sweeps (``games_missing_final``) and ``prune`` still find them."""
    from bot.storage.base import SQLITE, migrations

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for number, script in migrations(SQLITE):
        if number <= 7:
            db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
    db.execute(
        "INSERT INTO games (id, game, status, host_id, created_at, updated_at, thread_id)"
        " VALUES (1, 'toy', 'finished', 1, 10, 20, 5), (2, 'toy', 'active', 1, 10, 30, 6)"
    )
    db.execute(
        "INSERT INTO messages (message_id, game_id, channel_id, kind, version) VALUES (1, 1, 5, 'table', 1)"
    )
    db.commit()
    db.close()
    store = await Store.open(path)
    try:
        assert await store.messages.list_games_missing_final(ended_since=15) == [1]
        assert await store.games.list_prunable(ended_before=25, limit=10) == [1]
    finally:
        await store.close()


async def test_a_click_is_a_hot_update_on_postgresql(postgres_server: str) -> None:
    """No index of ``games`` holds a column a click changes, so PostgreSQL updates the row in
    place (HOT).  Before migration 9 the share was 0 (``games_by_status`` held ``updated_at``)."""
    from harness.postgres import create_database

    url = await create_database(postgres_server, "hot_updates")
    store = await Store.open(url)
    try:
        game = await table(LobbyService(SessionService(store, REGISTRY)), 0)
    finally:
        await store.close()  # a backend reports its statistics when it exits
    con = await asyncpg.connect(url)
    try:
        before = await _updates(con)
        store = await Store.open(url)
        try:
            sessions = SessionService(store, REGISTRY)
            for _ in range(4):
                live = await sessions.load(game.id)
                await sessions.act(
                    game.id,
                    live.user_of(min(live.waiting())),
                    Action("add", (1,)),
                    version=live.public_version,
                )
        finally:
            await store.close()
        for _ in range(50):
            after = await _updates(con)
            if after[0] >= before[0] + 4:
                break
            await asyncio.sleep(0.2)
        assert after[0] - before[0] == 4
        assert after[1] - before[1] == 4
    finally:
        await con.close()


async def _updates(con: asyncpg.Connection) -> tuple[int, int]:
    await con.execute("SELECT pg_stat_clear_snapshot()")
    row = await con.fetchrow(
        "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games'"
    )
    assert row is not None
    return int(row[0]), int(row[1])
