"""Settings from the environment, with a ``.env`` file as a fallback.

Only ``run`` needs the token, so everything else (tests, simulations,
rendering, the admin commands) works on a machine that has none.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.core.shards import Shards, parse_ids
from bot.core.urls import public_url

TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
    "open Bot > Reset Token, and put the token in the environment or in .env (see .env.example)."
)


class ConfigError(Exception):
    """A setting is missing or unusable; the message says which and how to fix it."""


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines; ``#`` comments and blank lines ignored, quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None
    database: Path | str
    """The SQLite file (an absolute path), or a ``postgresql://`` URL (a string)."""
    dev_guild: int | None
    log_level: str
    language: str
    plugins: str = ""
    remind_hours: int = 24
    """Hours a table waits on a player before reminding them (then again, up to 3 times); 0: off."""
    timer_hours: int = 0
    """Hours after which a table makes a waited-on player's default move; 0: off."""
    bot_delay: float = 2.0
    """Seconds a bot player waits before moving, so people can follow the table (0 in tests)."""
    shards: Shards | None = None
    """The shards this process runs (``None``: one unsharded connection for every server)."""
    db_pool: int = 10
    """Connections a process keeps to PostgreSQL (SQLite always has one)."""
    discord_rate: float = 25.0
    """Requests per second the whole bot (every process together) may spend on Discord for work
    nobody is waiting on (reminders, timers, the sweep, reposts); each process takes its shards'
    share.  Discord allows 50 for everything: the rest is kept for answering clicks."""
    invalid_guard: int = 1000
    """Invalid requests (401, 403, 429) in ten minutes past which a process stops its background
    work: Discord bans a bot's address at 10,000."""
    client_languages: bool = True
    """Whether a player's own answers follow their Discord client's language.  Not a setting of
    the environment: the sandbox turns it off, since its members are one person at one keyboard
    and SimCord gives every one of them an English client (its answers then follow the table's
    language, or the bot's)."""
    sandbox_database: Path = Path("sandbox.sqlite3")
    """The sandbox's own SQLite file (``python -m bot sandbox``): its simulated server's games
    never mix with a real server's, and survive a restart of the sandbox."""

    @property
    def process_rate(self) -> float:
        """This process's share of :attr:`discord_rate`: its shards' part of the whole."""
        if self.shards is None:
            return self.discord_rate
        return self.discord_rate * len(self.shards.ids) / self.shards.count

    def __repr__(self) -> str:  # never show the token, even in a traceback
        token = "set" if self.token else "missing"
        database = self.database if isinstance(self.database, Path) else public_url(self.database)
        return (
            f"Settings(token={token}, database={str(database)!r}, dev_guild={self.dev_guild}, "
            f"log_level={self.log_level!r}, language={self.language!r}, remind_hours={self.remind_hours}, "
            f"timer_hours={self.timer_hours}, shards={self.shards})"
        )

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(TOKEN_HELP)
        return self.token


def load_settings(environ: Mapping[str, str] | None = None, env_file: Path | None = None) -> Settings:
    """The environment wins over ``.env`` so a deployment can override a checked-in default."""
    merged = read_env_file(env_file if env_file is not None else Path(".env"))
    merged.update(os.environ if environ is None else environ)

    guild_text = merged.get("GAMEHOST_DEV_GUILD", "").strip()
    dev_guild: int | None = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(f"GAMEHOST_DEV_GUILD must be a server id (digits), not {guild_text!r}.")
        dev_guild = int(guild_text)

    level = merged.get("GAMEHOST_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"GAMEHOST_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")

    language = merged.get("GAMEHOST_LANGUAGE", "en").strip() or "en"
    remind_hours = _hours_setting(merged, "GAMEHOST_REMIND_HOURS", 24)
    timer_hours = _hours_setting(merged, "GAMEHOST_TIMER_HOURS", 0)
    bot_delay = _seconds_setting(merged, "GAMEHOST_BOT_DELAY", 2.0)
    target = merged.get("GAMEHOST_DB", "").strip() or "gamehost.sqlite3"
    database: Path | str = target
    if not target.startswith(("postgresql://", "postgres://")):
        # Absolute from here on, and logged at start: a relative path silently meant another
        # (new, empty) database whenever the bot was started from another directory.
        database = Path(target.removeprefix("sqlite:///")).expanduser().absolute()
    sandbox_target = merged.get("GAMEHOST_SANDBOX_DB", "").strip() or "sandbox.sqlite3"
    if "://" in sandbox_target.removeprefix("sqlite:///"):
        raise ConfigError(
            f"GAMEHOST_SANDBOX_DB must be a SQLite file (the sandbox is local), not {public_url(sandbox_target)!r}."
        )
    return Settings(
        token=merged.get("DISCORD_TOKEN", "").strip() or None,
        database=database,
        dev_guild=dev_guild,
        log_level=level,
        language=language,
        plugins=merged.get("GAMEHOST_PLUGINS", "").strip(),
        remind_hours=remind_hours,
        timer_hours=timer_hours,
        bot_delay=bot_delay,
        shards=shard_settings(merged.get("GAMEHOST_SHARDS", ""), merged.get("GAMEHOST_SHARD_COUNT", "")),
        db_pool=_count_setting(merged, "GAMEHOST_DB_POOL", 10, 1, 100),
        discord_rate=float(_count_setting(merged, "GAMEHOST_DISCORD_RATE", 25, 1, 45)),
        invalid_guard=_count_setting(merged, "GAMEHOST_INVALID_GUARD", 1000, 10, 5000),
        sandbox_database=Path(sandbox_target.removeprefix("sqlite:///")).expanduser().absolute(),
    )


def shard_settings(
    ids_text: str, count_text: str, names: tuple[str, str] = ("GAMEHOST_SHARDS", "GAMEHOST_SHARD_COUNT")
) -> Shards | None:
    """The shard ids and count a process was given, as :class:`Shards`: nothing set is one
    unsharded process; a count alone runs every shard here.  ``names`` are what the refusals
    call the two values (the settings, or ``run``'s ``--shards`` / ``--shard-count``)."""
    ids_text, count_text = ids_text.strip(), count_text.strip()
    ids_name, count_name = names
    if not ids_text and not count_text:
        return None
    if not (count_text.isascii() and count_text.isdigit()):
        raise ConfigError(
            f"{count_name} must be the total number of shards (digits), not {count_text!r}"
            + (f"; {ids_name} needs it." if ids_text else ".")
        )
    count = int(count_text)
    try:
        ids = parse_ids(ids_text) if ids_text else tuple(range(count))
        return Shards(ids, count)
    except ValueError as exc:
        raise ConfigError(f"{ids_name} / {count_name}: {exc}.") from None


def _count_setting(merged: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    text = merged.get(key, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ConfigError(f"{key} must be a whole number from {low} to {high}, not {text!r}.")
    return int(text)


MAX_CLOCK_HOURS = 24 * 60
MAX_BOT_DELAY = 60.0


def _seconds_setting(merged: Mapping[str, str], key: str, default: float) -> float:
    """Seconds from 0 to a minute (decimals allowed); empty means ``default``."""
    text = merged.get(key, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not text.isascii() or not 0.0 <= value <= MAX_BOT_DELAY:
        raise ConfigError(f"{key} must be a number of seconds from 0 to {MAX_BOT_DELAY:g}, not {text!r}.")
    return value


def _hours_setting(merged: Mapping[str, str], key: str, default: int) -> int:
    """A whole number of hours from 0 (off) to 60 days; empty means ``default``."""
    text = merged.get(key, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_CLOCK_HOURS:
        raise ConfigError(
            f"{key} must be a whole number of hours from 0 (off) to {MAX_CLOCK_HOURS}, not {text!r}."
        )
    return int(text)
