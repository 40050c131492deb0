"""Every answer about a move tells the truth about the database (issue 25, findings 1-4 and 8).

1. A COMMIT that fails does not say whether it landed: the database is asked (a fresh read) and
   the player is told what it holds; "could not confirm" only when it cannot even be read.
2. The database or its WAL deleted under the bot: nothing is acknowledged after, what was
   acknowledged is kept (or the games that lost moves are named and held), and ``run`` never
   puts an empty database in place of one that vanished.
3. ``/game show`` blames the database, not Discord, when the database failed.
4. The integrity check is off the start-up path, and ``health`` runs it.

Each test here fails on the code before issue 25 (its docstring says how).  SQLite only: these
are faults of a file under the bot; the PostgreSQL side of (1) is the same ``Store`` code.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import harness.toygame  # noqa: F401  (registers the toy game)
from bot.cli import main
from bot.core.i18n import shipped
from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import LiveGame, Refusal, SessionService
from bot.storage import Store, StoreError
from bot.storage.base import Unconfirmed
from bot.storage.health import check
from bot.storage.sqlite import SqliteDatabase
from harness.toygame.tables import toy_table

HOST = 500


async def new_game(sessions: SessionService, host: int = HOST, players: int = 2, seed: int = 1) -> LiveGame:
    return await toy_table(LobbyService(sessions), host=host, players=players, seed=seed, target=60)


async def move(sessions: SessionService, game: LiveGame, rng: random.Random) -> LiveGame:
    seat = rng.choice(sorted(game.waiting()))
    action = rng.choice(game.entry.rules.legal_actions(game.state, seat))
    return (await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)).game


def on_disk(path: Path, game_id: int) -> tuple[int, int]:
    """``(games.version, log rows)`` as a restarted process would read them (a connection of its own)."""
    with sqlite3.connect(path) as con:
        (version,) = con.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        (rows,) = con.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
    return int(version), int(rows)


def sqlite_of(store: Store) -> SqliteDatabase:
    db = store.database
    assert isinstance(db, SqliteDatabase)
    return db


def fail_commit(store: Store, *, performed: bool) -> Callable[[], None]:
    """The next COMMIT raises "disk I/O error", after doing its work (``performed``) or without.

    A test double around the shared connection's ``execute``: the two halves of what an EIO on
    the WAL's fsync can mean (frames written and found at the next start, or not).
    """
    connection = sqlite_of(store).connection
    original = connection.execute
    armed = [True]

    def execute(sql: str, parameters: Any = None) -> Any:
        if sql == "COMMIT" and armed[0]:
            armed[0] = False

            async def failing() -> Any:
                if performed:
                    await original(sql)
                raise sqlite3.OperationalError("disk I/O error")

            return failing()
        return original(sql) if parameters is None else original(sql, parameters)

    connection.execute = execute  # type: ignore[method-assign]
    return lambda: setattr(connection, "execute", original)


# -- 1. ambiguous commits --------------------------------------------------------------------------


async def test_a_commit_that_failed_after_landing_is_answered_as_saved(tmp_path: Path) -> None:
    """Finding 1: the move was answered "disk I/O error" yet it was in the log after a restart.
    Before issue 25 ``act`` raised ``StoreError`` here (the player read "Nothing was saved")."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(path)
    try:
        sessions = SessionService(store, REGISTRY)
        game = await new_game(sessions)
        rng = random.Random(3)
        for _ in range(3):
            game = await move(sessions, game, rng)
        fail_commit(store, performed=True)
        seat = min(game.waiting())
        action = game.entry.rules.legal_actions(game.state, seat)[0]
        applied = await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
        assert applied.version == 4
        assert on_disk(path, game.id) == (4, 4)
        live = await sessions.load(game.id)
        assert live.version == 4 and live is applied.game  # the cache is what the disk holds
    finally:
        await store.close()


async def test_a_commit_that_failed_before_landing_is_answered_as_not_saved(tmp_path: Path) -> None:
    """The other half: nothing landed, the player is told nothing was saved, and the cache follows."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(path)
    try:
        sessions = SessionService(store, REGISTRY)
        game = await new_game(sessions)
        game = await move(sessions, game, random.Random(4))
        fail_commit(store, performed=False)
        seat = min(game.waiting())
        action = game.entry.rules.legal_actions(game.state, seat)[0]
        with pytest.raises(StoreError) as failed:
            await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
        assert not isinstance(failed.value, Unconfirmed)
        assert "not there" in str(failed.value)
        assert on_disk(path, game.id) == (1, 1)
        assert (await sessions.load(game.id)).version == 1
        # The write that settled it means no stray WAL frame can bring the move back later.
        applied = await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
        assert applied.version == 2 and on_disk(path, game.id) == (2, 2)
    finally:
        await store.close()


async def test_a_commit_that_cannot_be_read_back_is_unconfirmed(tmp_path: Path) -> None:
    """Neither read nor write possible after the failed COMMIT: the one honest answer is that we
    could not confirm, worded in both languages, and the cached game is dropped."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(path)
    try:
        sessions = SessionService(store, REGISTRY)
        game = await new_game(sessions)
        fail_commit(store, performed=False)
        database = sqlite_of(store)

        async def unreadable(sql: str, params: Any = ()) -> Any:
            raise StoreError("The database at test failed: disk I/O error")

        database.fetch_fresh = unreadable  # type: ignore[method-assign]
        seat = min(game.waiting())
        action = game.entry.rules.legal_actions(game.state, seat)[0]
        with pytest.raises(Unconfirmed):
            await sessions.act(game.id, game.user_of(seat), action, version=game.public_version)
        assert sessions.cached() == 0
        for language in ("en", "fr"):
            assert shipped().text("host.storage_unconfirmed", language) != "host.storage_unconfirmed"
    finally:
        await store.close()


# -- 2. files replaced under the bot ---------------------------------------------------------------


async def test_no_move_is_acknowledged_after_the_database_is_deleted(tmp_path: Path) -> None:
    """Finding 2: moves were acknowledged after the deletion.  Every act after it is refused, and
    what was acknowledged before is copied where the operator is told to find it."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(path)
    try:
        sessions = SessionService(store, REGISTRY)
        game = await new_game(sessions)
        rng = random.Random(5)
        for _ in range(4):
            game = await move(sessions, game, rng)
        path.unlink()
        for _ in range(3):
            with pytest.raises(StoreError, match="deleted"):
                await move(sessions, game, rng)
        rescued = Path(str(path) + ".rescued")
        assert on_disk(rescued, game.id) == (4, 4)
    finally:
        await store.close()


def test_run_refuses_to_replace_a_vanished_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 2: the restarted bot silently made a new, empty database.  ``run`` now stops with
    exit 2 naming the path; ``--new-database`` is how an operator says that is meant."""
    import asyncio

    path = tmp_path / "g.sqlite3"

    async def make() -> None:
        store = await Store.open(path)
        await store.close()

    asyncio.run(make())
    path.unlink()
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("GAMEHOST_DB", str(path))
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    said = capsys.readouterr().err
    assert str(path) in said and "missing" in said and "--new-database" in said
    assert not path.exists()


async def test_a_deleted_wal_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """Finding 3: after the WAL was deleted the restarted bot saw fewer moves than it had
    acknowledged.  Moves are refused from then on, and the WAL's commits are copied into the
    file first, so a restart sees every acknowledged one."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(path)
    versions: dict[int, int] = {}
    try:
        sessions = SessionService(store, REGISTRY)
        rng = random.Random(6)
        for table in range(3):
            game = await new_game(sessions, host=HOST + 10 * table, seed=table)
            for _ in range(5):
                game = await move(sessions, game, rng)
            versions[game.id] = game.version
        os.unlink(str(path) + "-wal")
        with pytest.raises(StoreError, match="wal was deleted"):
            await move(sessions, game, rng)
    finally:
        await store.close()
    again = await Store.open(path)
    try:
        for game_id, version in versions.items():
            row = await again.games.fetch_game(game_id)
            assert row is not None and row.version == version
    finally:
        await again.close()


WAL_CHILD = """
import asyncio, logging, os, random, signal, sqlite3, sys
from bot.games import REGISTRY
from bot.services.sessions import SessionService
from bot.storage import StoreError, Store
from tests.bot.storage.test_storage_truth import move, new_game

async def main(path):
    store = await Store.open(path)
    sessions = SessionService(store, REGISTRY)
    rng = random.Random(7)
    game = await move(sessions, await new_game(sessions), rng)
    other = sqlite3.connect(path)  # the file itself now holds everything up to here
    other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    other.close()
    print("SAVED", game.id, game.version, flush=True)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM games").fetchone()  # pins that snapshot: no checkpoint past it
    for _ in range(4):
        game = await move(sessions, game, rng)
        print("ACK", game.id, game.version, flush=True)
    os.unlink(path + "-wal")
    try:
        await move(sessions, game, rng)
        print("ACK", game.id, game.version + 1, flush=True)
    except StoreError:
        print("REFUSED", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

logging.basicConfig(level=logging.ERROR)
asyncio.run(main(sys.argv[1]))
"""


async def test_moves_a_deleted_wal_took_are_named_and_held(tmp_path: Path) -> None:
    """Finding 3 with a SIGKILL: acknowledged moves lost with the WAL.  When its commits cannot all
    be copied into the file (another reader pins an older snapshot), the games that lost moves are
    named in an ERROR at once, and after the restart their moves are refused until an operator
    accepts it (``run --accept-lost``).  Before issue 25 the restart just saw fewer moves."""
    import subprocess
    import sys

    path = tmp_path / "g.sqlite3"
    repo = Path(__file__).resolve().parents[3]
    child = subprocess.run(
        [sys.executable, "-c", WAL_CHILD, str(path)],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = child.stdout.split()
    assert "REFUSED" in lines, child.stdout + child.stderr
    game_id, saved = int(lines[1]), int(lines[2])
    acked = max(int(lines[i + 2]) for i, word in enumerate(lines) if word == "ACK")
    assert f"game {game_id} (version {acked} acknowledged, {saved} on disk)" in child.stderr
    assert "ACKNOWLEDGED MOVES ARE LOST" in child.stderr

    rng = random.Random(8)
    again = await Store.open(path)
    try:
        sessions = SessionService(again, REGISTRY)
        live = await sessions.load(game_id)
        assert live.version == saved  # lost indeed: the refusal below is about real moves
        with pytest.raises(Refusal) as held:
            await move(sessions, live, rng)
        assert held.value.key == "host.refuse.held"
    finally:
        await again.close()
    from bot.cli import accept_lost

    accept_lost(path)
    again = await Store.open(path)
    try:
        sessions = SessionService(again, REGISTRY)
        live = await move(sessions, await sessions.load(game_id), rng)
        assert live.version == saved + 1
    finally:
        await again.close()


# -- 4. the integrity check leaves start-up --------------------------------------------------------


async def test_open_runs_no_integrity_check_and_health_does(tmp_path: Path) -> None:
    """Finding 8: ``PRAGMA quick_check`` at open took 1.24 s of a 1.36 s start.  Open now runs none
    (counted through SQLite's trace of the statements it runs); ``health`` reports it."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(path)
    await store.close()
    seen: list[str] = []
    original = sqlite3.connect

    def tracing(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        con: sqlite3.Connection = original(*args, **kwargs)
        con.set_trace_callback(seen.append)
        return con

    mp = pytest.MonkeyPatch()
    mp.setattr(sqlite3, "connect", tracing)  # the module aiosqlite opens its connection with
    try:
        store = await Store.open(path)
    finally:
        mp.undo()
    try:
        assert seen and not any("quick_check" in sql for sql in seen)
        report = await check(store, now=time.time())
        assert report["database"]["integrity"] == "ok" and report["ok"]
    finally:
        await store.close()


# -- 3. every answer names the real cause ----------------------------------------------------------


async def test_game_show_blames_the_database_when_it_cannot_be_written(tmp_path: Path) -> None:
    """Finding 4: with the database read-only (``query_only``: every write refused, as on a
    read-only file system) ``/game show`` said Discord refused the table.  It names the database;
    and a move is answered "Nothing was saved", never as played."""
    import simcord

    from harness.messages import words_of
    from tests.simcord import make_bot, open_table

    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        bot.publisher.retry_delays = (0.0, 0.0)
        table = await open_table(env, ["ana", "bob"])
        ana = table.players[0]
        await sqlite_of(bot.store).connection.execute("PRAGMA query_only = 1")
        shown = await ana.slash(table.thread, "game show")
        text = words_of(shown.followups[-1]) if shown.followups else words_of(shown.response)
        assert "database" in text and "Discord refused" not in text
        board = table.table_message()
        moved = await table.on_turn().click(board, label="Add 2")
        said = words_of(moved.followups[-1]) if moved.followups else words_of(moved.response)
        assert "Nothing was saved" in said
        await sqlite_of(bot.store).connection.execute("PRAGMA query_only = 0")
        shown = await ana.slash(table.thread, "game show")
        text = words_of(shown.followups[-1]) if shown.followups else words_of(shown.response)
        assert "Here is table #1" in text
