"""The sandbox (``bot/sandbox.py``) at SimCord level, without a browser: the simulated server it
builds, a table played in its channel, and a restart that finds the same server and the table.

The page itself is driven by a real browser in ``test_browser.py``; ``python -m bot`` starting
the sandbox without a token is checked here, as a child process.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import GameBot
from bot.config import Settings
from bot.registry import REGISTRY
from bot.sandbox import GUILD_ID, MEMBERS, World, build_world, sandbox_settings, started
from tests.helpers import en
from tests.host.discord_kit import ids, labels

REPO = Path(__file__).resolve().parents[2]
URL = re.compile(r"http://127\.0\.0\.1:(\d+)/#\S+")


def _settings(tmp_path: Path) -> Settings:
    return sandbox_settings(
        Settings(
            token=None,
            database=tmp_path / "real.sqlite3",
            dev_guild=None,
            log_level="INFO",
            language="en",
            sandbox_database=tmp_path / "sandbox.sqlite3",
        )
    )


def test_the_sandbox_keeps_to_its_own_database_and_moves_bots_at_once(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    assert settings.database == tmp_path / "sandbox.sqlite3"
    assert settings.token is None and settings.dev_guild is None and settings.shards is None
    assert settings.bot_delay == 0.0


def _world(tmp_path: Path) -> World:
    return build_world(simcord.Env(GameBot(_settings(tmp_path))))


def test_the_simulated_server_has_the_same_ids_every_time(tmp_path: Path) -> None:
    """Stored games name their server, channel and players by id: a new start must find them."""
    first, second = _world(tmp_path), _world(tmp_path)
    assert first.ids() == second.ids()
    assert first.guild.id == GUILD_ID
    assert [m.name for m in first.members] == list(MEMBERS)
    assert len(set(first.ids()["members"])) == len(MEMBERS)


def _table_messages(channel: object) -> list[discord.Message]:
    return [m for m in channel.history() if m.attachments and m.components]  # type: ignore[attr-defined]


async def test_a_table_is_played_in_the_channel_and_posted_again_after_a_restart(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    async with started(settings) as sandbox:
        you, channel = sandbox.world.you, sandbox.world.channel
        before = sandbox.world.ids()
        created = await you.slash(channel, "game new", name="california")
        lobby = created.response.message
        await you.click(lobby, label=en("host.lobby.bot_normal"))
        await you.click(lobby, label=en("host.lobby.bot_normal"))
        await you.click(lobby, label=en("host.lobby.start"))
        assert channel.threads == [], "the channel gives tables no thread: everything is on the page"
        (board,) = _table_messages(channel)
        assert "table #1" in board.content and f"<@{you.id}>" in board.content
        started_line = channel.history()[0].content
        assert "Its board is below" in started_line and "thread" not in started_line
        room = next(i for i, label in zip(ids(board), labels(board), strict=True) if "from 4" in label)
        bought = await you.click(board, custom_id=room)
        assert bought.acknowledged
    async with started(settings) as again:
        assert again.world.ids() == before
        (board,) = _table_messages(again.world.channel)
        assert "table #1" in board.content, "the running table is posted again after the restart"
        # Its buttons still work: the game and its seats line up with the same members.
        more = await again.world.you.click(board, label=en("host.button.catch_up"))
        assert more.ephemeral


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def test_without_a_token_the_default_command_serves_the_sandbox(tmp_path: Path) -> None:
    """The README's start command with no token: one line on connecting to Discord instead, then
    a loopback address within 30 s that answers; SIGTERM stops it cleanly.  (``run`` without a
    token still stops with exit 2: ``tests/host/test_cli.py``.)"""
    started_at = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert "DISCORD_TOKEN" in first and ".env" in first, first
        ready = child.stdout.readline()
        found = URL.search(ready)
        assert found, ready
        seconds = time.monotonic() - started_at
        assert seconds < 30, f"the address took {seconds:.1f} s"
        with urllib.request.urlopen(f"http://127.0.0.1:{found.group(1)}/", timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read()
        assert (tmp_path / "sandbox.sqlite3").exists() and not (tmp_path / "gamehost.sqlite3").exists()
    finally:
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    assert "Sandbox stopped" in out and "Traceback" not in err


@pytest.mark.parametrize("game", [entry.name for entry in REGISTRY.public()])
async def test_every_game_starts_at_one_keyboard_with_a_bot(tmp_path: Path, game: str) -> None:
    """Hot-seat: you open the table, Ana (another member at the same keyboard) joins, a bot takes
    the third seat; the table is posted in the channel with its board, and a private panel asked
    for by one member is shown to that member only."""
    async with started(_settings(tmp_path)) as sandbox:
        you, ana = sandbox.world.members[:2]
        channel = sandbox.world.channel
        lobby = (await you.slash(channel, "game new", name=game)).response.message
        await ana.click(lobby, label=en("host.lobby.join"))
        await you.click(lobby, label=en("host.lobby.bot_normal"))
        await you.click(lobby, label=en("host.lobby.start"))
        boards = _table_messages(channel)
        assert boards, f"{game}: no table with a board in the channel"
        mine = await ana.click(boards[-1], label=en("host.button.catch_up"))
        assert mine.ephemeral, "Ana's catch-up is hers alone"
