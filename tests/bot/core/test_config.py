"""Settings: the environment wins over ``.env``, and the token never reaches a log line.

In-process checks of ``bot.core.config`` and of ``python -m bot``'s start-up up to the
point where it would connect; the same start-up as a real child process (with the
network replaced) is in ``test_cli.py``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord
import discord.http
import pytest

from bot import cli
from bot.core.config import ConfigError, Settings, load_settings

SENTINEL = "SENTINEL-TOKEN-must-never-be-logged-9876543210"
KEYS = (
    "DISCORD_TOKEN",
    "GAMEHOST_DB",
    "GAMEHOST_DEV_GUILD",
    "GAMEHOST_LOG_LEVEL",
    "GAMEHOST_LANGUAGE",
    "GAMEHOST_PLUGINS",
)


def _values(settings: Settings) -> dict[str, object]:
    return {
        "token": settings.token,
        "database": Path(settings.database).name,  # relative or made absolute: the file is what counts
        "dev_guild": settings.dev_guild,
        "log_level": settings.log_level,
        "language": settings.language,
        "plugins": settings.plugins,
    }


FROM_FILE = {
    "DISCORD_TOKEN": "file-token",
    "GAMEHOST_DB": "file.sqlite3",
    "GAMEHOST_DEV_GUILD": "111",
    "GAMEHOST_LOG_LEVEL": "ERROR",
    "GAMEHOST_LANGUAGE": "fr",
    "GAMEHOST_PLUGINS": "file_plugin",
}
FROM_ENV = {
    "DISCORD_TOKEN": "env-token",
    "GAMEHOST_DB": "env.sqlite3",
    "GAMEHOST_DEV_GUILD": "222",
    "GAMEHOST_LOG_LEVEL": "DEBUG",
    "GAMEHOST_LANGUAGE": "en",
    "GAMEHOST_PLUGINS": "env_plugin",
}
ENV_SETTINGS = {
    "token": "env-token",
    "database": "env.sqlite3",
    "dev_guild": 222,
    "log_level": "DEBUG",
    "language": "en",
    "plugins": "env_plugin",
}


def _write_env_file(path: Path, values: dict[str, str]) -> Path:
    path.write_text("".join(f"{k}={v}\n" for k, v in values.items()), encoding="utf-8")
    return path


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    """README: "Read from the environment, then from .env ... (the environment wins)"."""
    env_file = _write_env_file(tmp_path / "dotenv", FROM_FILE)
    assert _values(load_settings(environ=FROM_ENV, env_file=env_file)) == ENV_SETTINGS
    # The file is only a fallback: a key the environment leaves out still comes from it.
    partial = {"DISCORD_TOKEN": "env-token", "GAMEHOST_LOG_LEVEL": "warning"}
    settings = load_settings(environ=partial, env_file=env_file)
    assert _values(settings) == {
        "token": "env-token",
        "database": "file.sqlite3",
        "dev_guild": 111,
        "log_level": "WARNING",
        "language": "fr",
        "plugins": "file_plugin",
    }


def test_the_process_environment_wins_over_dot_env_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The defaults (``os.environ`` and ``./.env``), as ``python -m bot`` uses them."""
    _write_env_file(tmp_path / ".env", FROM_FILE)
    monkeypatch.chdir(tmp_path)
    for key in KEYS:
        monkeypatch.setenv(key, FROM_ENV[key])
    assert _values(load_settings()) == ENV_SETTINGS
    monkeypatch.delenv("GAMEHOST_LANGUAGE")
    assert load_settings().language == "fr"


def _leaks(caplog: pytest.LogCaptureFixture, captured: Any) -> list[str]:
    """Every place the sentinel token showed up: a log message, its arguments, stdout, stderr."""
    found = [
        f"{record.name}:{record.levelname}: {record.getMessage()}"
        for record in caplog.records
        if SENTINEL in record.getMessage() or SENTINEL in repr(record.args) or SENTINEL in str(record.msg)
    ]
    found += [
        f"{stream}: {text}"
        for stream, text in (("stdout", captured.out), ("stderr", captured.err))
        if SENTINEL in text
    ]
    return found


@pytest.mark.parametrize("source", ["environment", "dotenv"])
def test_start_up_at_debug_level_never_logs_the_token(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    source: str,
) -> None:
    """``python -m bot run`` with ``GAMEHOST_LOG_LEVEL=DEBUG``, up to the point of connecting.

    Every logger is captured at DEBUG from before the settings are read, so a debug line
    anywhere on the way (reading the settings, checking the database, discord.py's
    ``run``, the host's ``setup_hook`` with every cog) that carried the token shows up here.
    Only the network is replaced: login runs ``setup_hook`` instead of calling Discord,
    connect returns at once, and any HTTP request at all fails the test.
    """
    monkeypatch.chdir(tmp_path)
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    values = {"GAMEHOST_LOG_LEVEL": "DEBUG", "GAMEHOST_DB": str(tmp_path / "db.sqlite3")}
    if source == "environment":
        values["DISCORD_TOKEN"] = SENTINEL
    else:
        _write_env_file(tmp_path / ".env", {"DISCORD_TOKEN": SENTINEL})
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    handed: list[str] = []

    async def login(self: Any, token: str) -> None:
        handed.append(token)
        self.http.token = token  # what discord.py's static_login does before its request
        await self.setup_hook()

    async def connect(self: Any, *, reconnect: bool = True) -> None:
        return None

    async def request(self: Any, route: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"the test forbids network access: {route.method} {route.path}")

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setattr(discord.Client, "connect", connect)
    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    caplog.set_level(logging.DEBUG)
    assert cli.main(["run"]) == 0
    assert handed == [SENTINEL], "the start-up did not reach the point of connecting"
    assert any(r.levelno == logging.DEBUG for r in caplog.records), "DEBUG logging was not on"
    assert (tmp_path / "db.sqlite3").exists(), "setup_hook did not open the database"
    assert _leaks(caplog, capsys.readouterr()) == []


def test_settings_and_their_loading_never_log_the_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    env_file = _write_env_file(
        tmp_path / "dotenv", {"DISCORD_TOKEN": SENTINEL, "GAMEHOST_LOG_LEVEL": "DEBUG"}
    )
    for settings in (
        load_settings(environ={}, env_file=env_file),
        load_settings(
            environ={"DISCORD_TOKEN": SENTINEL, "GAMEHOST_LOG_LEVEL": "DEBUG"}, env_file=tmp_path / "no"
        ),
    ):
        assert settings.require_token() == SENTINEL
        logging.getLogger("bot").debug("loaded %r / %s", settings, settings)
        assert SENTINEL not in repr(settings) + str(settings)
    assert _leaks(caplog, capsys.readouterr()) == []


def test_every_setting_is_documented_in_env_example_and_the_readme() -> None:
    import re

    root = Path(__file__).resolve().parents[3]
    read = set(
        re.findall(r'"((?:GAMEHOST|DISCORD)_[A-Z_]+)"', (root / "bot" / "core" / "config.py").read_text())
    )
    example = set(re.findall(r"^((?:GAMEHOST|DISCORD)_[A-Z_]+)=", (root / ".env.example").read_text(), re.M))
    readme = (root / "README.md").read_text()
    assert "GAMEHOST_SHARDS" in read and "GAMEHOST_DB_POOL" in read
    assert read == example, f"read but not in .env.example: {read - example}; stale: {example - read}"
    assert all(f"`{key}`" in readme for key in read), [k for k in read if f"`{k}`" not in readme]


def test_discords_budget_is_shared_among_the_shard_processes(tmp_path: Path) -> None:
    """``GAMEHOST_DISCORD_RATE`` is the whole bot's: a process running 2 of 8 shards takes a quarter."""
    alone = load_settings({"GAMEHOST_DISCORD_RATE": "40"}, env_file=tmp_path / "none")
    assert alone.process_rate == 40.0 and alone.invalid_guard == 1000
    sharded = load_settings(
        {"GAMEHOST_DISCORD_RATE": "40", "GAMEHOST_SHARDS": "0-1", "GAMEHOST_SHARD_COUNT": "8"},
        env_file=tmp_path / "none",
    )
    assert sharded.process_rate == 10.0
    assert load_settings({}, env_file=tmp_path / "none").discord_rate == 25.0
    for key, bad in (("GAMEHOST_DISCORD_RATE", "60"), ("GAMEHOST_INVALID_GUARD", "lots")):
        with pytest.raises(ConfigError, match=key):
            load_settings({key: bad}, env_file=tmp_path / "none")
