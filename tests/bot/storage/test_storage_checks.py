"""Start-up refuses a database it cannot trust, and says which file and why (issue 7, finding 4)."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bot.cli import main
from bot.core.config import load_settings
from bot.storage import Store, StoreError

REPO = Path(__file__).resolve().parents[3]


async def make_database(path: Path) -> None:
    store = await Store.open(path)
    await store.games.create_game(
        game="toy",
        options={},
        host_id=1,
        host_name="ana",
        guild_id=1,
        channel_id=1,
        language="en",
        now=0.0,
    )
    await store.close()


async def test_a_damaged_database_is_refused_naming_the_path(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    await make_database(path)
    with sqlite3.connect(path) as db:
        page = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    # Scribble over the second page (the first table's b-tree): the header still says "SQLite".
    data[page : page + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    # Issue 25: the check left start-up (it reads every page); it runs after ready and in
    # ``health``, and a damaged file then stops taking writes, naming its path.
    try:
        store = await Store.open(path)
    except StoreError as refused:  # the damage may already break the migration's reads
        assert str(path) in str(refused)
        return
    try:
        assert await store.integrity() is not None
        assert str(path) in (store.health() or "")
        with pytest.raises(StoreError, match="damaged"):
            await store.set_meta("after", "damage")
    finally:
        await store.close()


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are not the tables you are looking for" * 200)
    with pytest.raises(StoreError) as refused:
        await Store.open(path)
    assert str(path) in str(refused.value) and "not a database" in str(refused.value)


def test_run_refuses_a_damaged_database_before_connecting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"\x00junk" * 4000)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("GAMEHOST_DB", str(path))
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    assert str(path) in capsys.readouterr().err


PROBE = """
import asyncio, sys
from bot.storage import Store, StoreError
try:
    asyncio.run(Store.open(sys.argv[1]))
except StoreError as exc:
    print(exc)
    sys.exit(3)
print("opened")
"""


async def test_a_read_only_database_is_refused(tmp_path: Path) -> None:
    """SQLite opens a file it may not write read-only without a word; start-up must notice.

    Root may write any file, so as root the check runs in a child process that has
    dropped every capability (``setpriv``), which makes it as bound by modes as anyone.
    """
    folder = Path(tempfile.mkdtemp(prefix="gamehost-ro-"))
    try:
        path = folder / "ro.sqlite3"
        await make_database(path)
        path.chmod(0o444)
        if os.geteuid() != 0:
            with pytest.raises(StoreError) as refused:
                await Store.open(path)
            message = str(refused.value)
        else:
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip("running as root without setpriv: cannot make a file read-only for this process")
            child = subprocess.run(
                [
                    setpriv,
                    "--inh-caps=-all",
                    "--bounding-set=-all",
                    "--",
                    sys.executable,
                    "-c",
                    PROBE,
                    str(path),
                ],
                cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO)},
                capture_output=True,
                text=True,
                check=False,
            )
            assert child.returncode == 3, child.stdout + child.stderr
            message = child.stdout
        assert str(path) in message and "readonly" in message.replace("-", "").replace(" ", "")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_database_path_is_absolute_whatever_the_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings({"GAMEHOST_DB": "data/games.sqlite3"}, env_file=tmp_path / "none")
    assert settings.database == tmp_path / "data" / "games.sqlite3"
    assert load_settings({}, env_file=tmp_path / "none").database == tmp_path / "gamehost.sqlite3"


async def test_a_new_database_is_announced_and_an_existing_one_is_not(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    path = tmp_path / "fresh.sqlite3"
    store = await Store.open(path)
    await store.close()
    assert any(
        "created a new, empty one" in r.getMessage() and str(path) in r.getMessage() for r in caplog.records
    )
    caplog.clear()
    store = await Store.open(path)
    await store.close()
    assert not any("created" in r.getMessage() for r in caplog.records)
