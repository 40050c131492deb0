"""SQLite migrations, one step at a time: each numbered script commits with its own schema number,
so a step that fails partway leaves the database at the step before, with nothing of the failed
step in it, and the next start runs that step again.

Steps are injected through ``migrations`` (the real scripts, plus two of the test's own), so
what is exercised is the real ``SqliteDatabase.migrate`` on a real file.  A migrate that wrote
the newest number after every step (or once at the end of a run) passes a start where every
step works; here the newest step fails, and the version it leaves is read back.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import bot.storage.sqlite
from bot.storage import Store, StoreError
from bot.storage.base import SQLITE, migrations

REAL = migrations(SQLITE)
LAST = REAL[-1][0]
GOOD = (LAST + 1, "CREATE TABLE step_one (x INTEGER NOT NULL); INSERT INTO step_one (x) VALUES (1)")
"""A step that works: it must stay applied whatever follows it."""
HALF = "CREATE TABLE step_two (x INTEGER NOT NULL); INSERT INTO step_two (x) VALUES (2)"
BROKEN = (LAST + 2, HALF + "; INSERT INTO no_such_table (x) VALUES (3)")
"""A step that fails partway: its first statements run, then one fails."""
FIXED = (LAST + 2, HALF)


def file_state(path: Path) -> tuple[int, set[str]]:
    """The file's schema number and its tables, read directly (the store refused to open)."""
    with sqlite3.connect(path) as db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return int(version), tables


async def test_a_step_failing_partway_leaves_the_step_before_and_runs_again_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "host.sqlite3"
    store = await Store.open(path)  # at the shipped schema
    assert await store.schema_version() == LAST
    await store.close()

    monkeypatch.setattr(bot.storage.sqlite, "migrations", lambda dialect: [*REAL, GOOD, BROKEN])
    with pytest.raises(StoreError, match="no_such_table"):
        await Store.open(path)
    version, tables = file_state(path)
    assert version == LAST + 1, "the step that worked is kept, the one that failed is not counted"
    assert "step_one" in tables and "step_two" not in tables, "the failed step left nothing behind"

    # Started again with the step still broken: refused again, nothing skipped.
    with pytest.raises(StoreError, match="no_such_table"):
        await Store.open(path)
    assert file_state(path)[0] == LAST + 1

    # Started with the step mended: it runs now, and only it (step one is not run twice).
    monkeypatch.setattr(bot.storage.sqlite, "migrations", lambda dialect: [*REAL, GOOD, FIXED])
    store = await Store.open(path)
    try:
        assert await store.schema_version() == LAST + 2
        assert [tuple(r) for r in await store._fetch("SELECT x FROM step_one")] == [(1,)]
        assert [tuple(r) for r in await store._fetch("SELECT x FROM step_two")] == [(2,)]
    finally:
        await store.close()


async def test_a_fresh_file_whose_last_step_fails_keeps_every_step_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From nothing: all the shipped steps commit one by one, the broken one does not count."""
    path = tmp_path / "host.sqlite3"
    monkeypatch.setattr(bot.storage.sqlite, "migrations", lambda dialect: [*REAL, BROKEN])
    with pytest.raises(StoreError):
        await Store.open(path)
    version, tables = file_state(path)
    assert version == LAST and "games" in tables and "step_two" not in tables
    monkeypatch.setattr(bot.storage.sqlite, "migrations", lambda dialect: [*REAL, FIXED])
    store = await Store.open(path)
    try:
        assert await store.schema_version() == LAST + 2
        assert [tuple(r) for r in await store._fetch("SELECT x FROM step_two")] == [(2,)]
    finally:
        await store.close()
