"""The sandbox (``bot/sandbox.py``) at SimCord level, without a browser: the simulated server it
builds (members with real names), a table played in its channel (the channel's refusal of threads
logged at INFO, a WARNING on a server), and a restart that finds the same server and the table.

The page itself is driven by a real browser in ``test_browser.py``; ``python -m bot`` starting
the sandbox without a token is checked here, as a child process.
"""

from __future__ import annotations

import logging
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
from bot.core.config import Settings
from bot.games import REGISTRY
from bot.sandbox import GUILD_ID, MEMBERS, World, build_world, sandbox_settings, started
from bot.ui import lobby_message
from harness.messages import alt_texts, controls, response_of, words_of
from tests.helpers import en, fr

REPO = Path(__file__).resolve().parents[3]
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


def _table_messages(channel: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if m.attachments and controls(m)]


def _everything_said(channel: simcord.ChannelHandle) -> str:
    """Every message's words and image descriptions in the channel, oldest first."""
    messages = reversed(channel.history())
    return "\n".join("\n".join([words_of(m), *alt_texts(m)]) for m in messages)


ADDRESSED_AS_YOU = re.compile(
    r"\byou's\b|\byou (?:plays|chooses|takes|has|is|names|sends|draws|bought|buys|to play)\b"
)
"""What the bot writes about a member called "you": "you's mansion", "you plays first"."""


async def test_a_table_is_played_in_the_channel_and_posted_again_after_a_restart(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    async with started(settings) as sandbox:
        you, channel = sandbox.world.you, sandbox.world.channel
        before = sandbox.world.ids()
        created = await you.slash(channel, "game new", name="california")
        lobby = response_of(created).message
        await you.click(lobby, label=en("host.lobby.bot_normal"))
        await you.click(lobby, label=en("host.lobby.bot_normal"))
        await you.click(lobby, label=en("host.lobby.start"))
        assert channel.threads == [], "the channel gives tables no thread: everything is on the page"
        (board,) = _table_messages(channel)
        assert "table #1" in words_of(board) and f"<@{you.id}>" in words_of(board)
        started_line = words_of(channel.history()[0])
        assert "Its board is below" in started_line and "thread" not in started_line
        # A store tile (its price depends on the sandbox's secret seed): a tile's id names its store slot.
        room = next(
            c.custom_id
            for c in controls(board)
            if not c.disabled and (c.custom_id or "").split(":")[-1].startswith(("t.", "buy.", "loan_buy."))
        )
        bought = await you.click(board, custom_id=room)
        assert bought.acknowledged
    async with started(settings) as again:
        assert again.world.ids() == before
        (board,) = _table_messages(again.world.channel)
        assert "table #1" in words_of(board), "the running table is posted again after the restart"
        # Its buttons still work: the game and its seats line up with the same members.
        more = await again.world.you.click(board, label=en("host.button.catch_up"))
        assert more.ephemeral


async def test_a_french_table_answers_its_members_in_french_even_after_a_restart(tmp_path: Path) -> None:
    """Sandbox members have no Discord language of their own (SimCord gives each an English
    client): what the host answers one of them alone follows the table's language."""
    settings = _settings(tmp_path)
    assert settings.client_languages is False
    async with started(settings) as sandbox:
        you, channel = sandbox.world.you, sandbox.world.channel
        created = await you.slash(channel, "game new", name="california", language="fr")
        lobby = response_of(created).message
        await you.click(lobby, label=fr("host.lobby.bot_normal"))
        await you.click(lobby, label=fr("host.lobby.start"))
        (board,) = _table_messages(channel)
        nosy = sandbox.world.members[1]
        refused = await nosy.click(board, label=fr("california.button.coin"))
        assert refused.ephemeral and words_of(refused.response) == fr("host.refuse.not_seated")
    async with started(settings) as again:
        said = [words_of(m) for m in again.world.channel.history()]
        shown = await again.world.you.slash(again.world.channel, "game show", table=1)
        assert words_of(shown.response) == fr("host.lobby.shown", id=1), said


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def test_without_a_token_the_default_command_serves_the_sandbox(tmp_path: Path) -> None:
    """The README's start command with no token: one line on connecting to Discord instead, then
    a loopback address within 30 s that answers; SIGTERM stops it cleanly.  (``run`` without a
    token still stops with exit 2: ``tests/bot/test_cli.py``.)"""
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
    """Hot-seat: Alex opens the table, Ana (another member at the same keyboard) joins, a bot takes
    the third seat; the table is posted in the channel with its board, and a private panel asked
    for by one member is shown to that member only.  Every message names the members by their
    names: nothing reads "you's mansion" or "you plays first"."""
    async with started(_settings(tmp_path)) as sandbox:
        you, ana = sandbox.world.members[:2]
        channel = sandbox.world.channel
        lobby = response_of(await you.slash(channel, "game new", name=game)).message
        await ana.click(lobby, label=en("host.lobby.join"))
        await you.click(lobby, label=en("host.lobby.bot_normal"))
        await you.click(lobby, label=en("host.lobby.start"))
        boards = _table_messages(channel)
        assert boards, f"{game}: no table with a board in the channel"
        mine = await ana.click(boards[-1], label=en("host.button.catch_up"))
        assert mine.ephemeral, "Ana's catch-up is hers alone"
        said = _everything_said(channel)
        assert MEMBERS[0] == you.name and "Alex" in said, said
        assert not ADDRESSED_AS_YOU.search(said), ADDRESSED_AS_YOU.search(said)


def _no_thread_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == lobby_message.log.name and hasattr(r, "no_thread_channel")]


async def test_a_channel_without_threads_is_a_warning_on_a_server_and_only_news_in_the_sandbox(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The same thread-less channel: on a server the bot warns (a setup problem: tables play in the
    channel), in the sandbox the line is INFO (that channel refuses threads by design)."""
    caplog.set_level(logging.INFO)
    async with simcord.run(GameBot(_settings(tmp_path / "server")), strict_sync=False) as env:
        world = build_world(env)
        await world.you.slash(world.channel, "game new", name="california")
    (server,) = _no_thread_lines(caplog)
    assert server.levelno == logging.WARNING and server.__dict__["no_thread_channel"] == world.channel.id
    caplog.clear()
    async with started(_settings(tmp_path)) as sandbox:
        await sandbox.world.you.slash(sandbox.world.channel, "game new", name="california")
        await sandbox.world.you.slash(sandbox.world.channel, "game new", name="estates")
    assert [(r.levelno, r.levelname) for r in _no_thread_lines(caplog)] == [(logging.INFO, "INFO")] * 2
    assert not lobby_message.log.filters, "the sandbox takes its filter away when it stops"
