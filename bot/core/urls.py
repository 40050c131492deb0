"""Database addresses as settings read them and as logs may print them.

Settings, the CLI and both storage backends need the same two answers (is this PostgreSQL, and
what can be shown without the password), so they live below all of them.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def public_url(url: str) -> str:
    """The URL with its password replaced, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
