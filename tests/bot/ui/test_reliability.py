"""What players see when things go wrong (issue 7), through the real discord.py path.

Each test breaks one thing the way production breaks it (a restart racing a
click, a database that stops taking writes or is deleted, Discord refusing a
post) and checks the player still gets one honest answer, nothing is lost or
invented, and the table mends itself without a restart.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import GameBot
from bot.storage import GameRow, StoreError
from bot.storage.sqlite import SqliteDatabase
from harness.messages import controls, response_of, words_of
from tests.simcord import make_bot, open_table, playable

NOTHING_SAVED = "Nothing was saved"


def db_row(tmp_path: Path, game_id: int = 1) -> tuple[Any, ...]:
    """The game's row as an independent connection sees it (what a restart would load)."""
    with sqlite3.connect(tmp_path / "host.sqlite3") as db:
        row = db.execute(
            "SELECT version, public_version, snapshot, status FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    assert row is not None
    return tuple(row)


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_restart_then_a_move_while_a_panel_loads_leaves_no_stuck_table(tmp_path: Path) -> None:
    """The reported race: after a restart, one player moves while another's panel is loading."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        board = table.table_message()
        mover = table.on_turn()
        # The other player's panel is opening: its read of the game is slow and spans the move.
        real = bot.store.games.fetch_game
        holding, release = asyncio.Event(), asyncio.Event()

        async def slow_game(game_id: int) -> GameRow | None:
            row = await real(game_id)
            if not holding.is_set():
                holding.set()
                await release.wait()
            return row

        bot.store.games.fetch_game = slow_game  # type: ignore[method-assign]
        panel_read = asyncio.create_task(bot.sessions.load(1))
        await holding.wait()
        bot.store.games.fetch_game = real  # type: ignore[method-assign]
        moved = await mover.click(board, label="Add 2")
        assert moved.acknowledged and not moved.ephemeral
        release.set()
        await panel_read
        # The next player's click on the new table is accepted, and the board shows both moves.
        fresh = table.table_message()
        assert "total 2" in table.recent()
        result = await table.on_turn().click(fresh, label="Add 1")
        assert result.acknowledged and not result.ephemeral, getattr(result.response, "content", "")
        assert "total 3" in table.recent()


async def test_a_database_that_refuses_writes_gets_an_honest_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        before, count = db_row(tmp_path), len(table.messages())
        # A real SQLite failure on the bot's own connection, as a read-only or full disk gives.
        db = bot.store._db
        assert isinstance(db, SqliteDatabase)
        await db.connection.execute("PRAGMA query_only = ON")
        result = await table.on_turn().click(board, label="Add 1")
        assert result.ephemeral and NOTHING_SAVED in words_of(result.response)
        assert db_row(tmp_path) == before and len(table.messages()) == count
        assert words_of(table.table_message()) == words_of(board)
        assert any("nothing saved" in m for m in errors(caplog))
        await db.connection.execute("PRAGMA query_only = OFF")
        # Nothing half-done is left behind: the same button works once the disk is back.
        result = await table.on_turn().click(board, label="Add 1")
        assert result.acknowledged and not result.ephemeral
        assert db_row(tmp_path)[0] == 1


async def test_database_errors_anywhere_are_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Panels, lobby buttons and commands: a failing database is one line, never "interaction failed"."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        guild = env.guild
        lobby = response_of(await table.players[0].slash(table.channel, "game new", name="toy")).message
        board = table.table_message()
        bot.sessions._games.clear()  # make every handler read the database

        async def broken(*_: Any, **__: Any) -> Any:
            raise StoreError("The database at x failed: disk I/O error")

        bot.store.games.fetch_game = broken  # type: ignore[method-assign]
        bot.store.games.list_games = broken  # type: ignore[method-assign]
        bot.store.games.list_games_in_channel = broken  # type: ignore[method-assign]
        late = guild.add_member(env.create_user("cy"))
        answers = [
            await table.players[0].click(board, label="My secret"),
            await table.on_turn().click(board, label="Add 1"),
            await late.click(lobby, label="Join"),
            await table.players[0].slash(table.channel, "game list"),
            await table.players[0].slash(table.thread, "game show"),
        ]
        for answer in answers:
            assert answer.acknowledged
            text = words_of(answer.response) if answer.response else words_of(answer.followups[-1])
            assert "database" in text and "nothing was changed" not in text.lower(), text
        assert all(not e.startswith("Traceback") for e in errors(caplog))
        # SimCord also records the two commands' errors that the tree's handler answered above.
        assert all(isinstance(getattr(e, "original", e), StoreError) for e in env.errors)


async def test_a_deleted_database_stops_moves_and_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        await table.on_turn().click(table.table_message(), label="Add 1")
        path = tmp_path / "host.sqlite3"
        os.remove(path)
        assert bot.store.health() is not None
        assert any(str(path) in m and "deleted" in m for m in errors(caplog))
        result = await table.on_turn().click(table.table_message(), label="Add 1")
        assert result.ephemeral and NOTHING_SAVED in words_of(result.response)
        assert "total 1" in table.recent()


async def test_a_replaced_database_file_stops_moves(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        path = tmp_path / "host.sqlite3"
        other = tmp_path / "restored.sqlite3"
        sqlite3.connect(other).close()
        os.replace(other, path)
        result = await table.on_turn().click(table.table_message(), label="Add 1")
        assert result.ephemeral and NOTHING_SAVED in words_of(result.response)
        assert "replaced" in (bot.store.fault or "")


async def test_the_minutely_check_notices_a_deleted_database_without_any_click(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        await open_table(env, ["ana", "bob"])
        os.remove(tmp_path / "host.sqlite3")
        assert not errors(caplog)
        await env.advance_time(125)
        assert any("deleted" in m for m in errors(caplog))
        assert bot.store.fault is not None


def refuse_posts(env: simcord.Env, times: int | None) -> None:
    """Discord fails new messages (a 503 Discord is down with), ``times`` times.  (A refusal that
    will not pass, like Missing Permissions, parks the table instead: tests/bot/ui/test_reach.py.)"""
    env.inject_error(
        "POST", "/channels/*/messages", status=503, code=0, message="Service Unavailable", times=times
    )


def quick(bot: GameBot) -> None:
    bot.publisher.retry_delays = (0.0, 0.0)


async def test_a_table_whose_post_failed_is_reposted_by_the_sweep(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        quick(bot)
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        mover = table.on_turn()
        refuse_posts(env, times=3)  # the first try and both retries
        moved = await mover.click(board, label="Add 2")
        assert moved.acknowledged, "the move was saved and acknowledged"
        assert db_row(tmp_path)[0] == 1
        # The click was answered by folding the old board into its history line.
        folded = table.messages()[-1]
        assert folded.id == board.id and "adds 2" in words_of(folded) and not controls(folded)
        assert not any(playable(m) for m in table.messages()), "no new table yet"
        await env.advance_time(125)  # the minutely sweep
        fresh = table.table_message()
        assert fresh.id != board.id and "Total 2" in words_of(fresh) and "move 1" in words_of(fresh)
        assert [m.id for m in table.messages() if controls(m)] == [fresh.id]
        assert [m.id for m in table.boards()] == [fresh.id]
        result = await table.on_turn().click(fresh, label="Add 1")
        assert result.acknowledged and not result.ephemeral


async def test_a_stale_click_on_a_stranded_table_brings_the_table_back(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        quick(bot)
        table = await open_table(env, ["ana", "bob"])
        board = table.table_message()
        # Nothing reaches Discord for a moment: the answer that would fold the board (and its one
        # retry), the fallback edit and every post.  Only the plain acknowledgement gets through.
        env.inject_error("POST", "/interactions/*/*/callback", status=500, code=0, message="down", times=2)
        env.inject_error("PATCH", "/channels/*/messages/*", status=500, code=0, message="down", times=1)
        refuse_posts(env, times=3)
        moved = await table.on_turn().click(board, label="Add 2")
        assert moved.acknowledged
        # The next player only has the old table: their click is refused, and the table is reposted.
        waiting = next(p for p in table.players if f"<@{p.id}>" not in words_of(board))
        result = await waiting.click(board, label="Add 1")
        assert result.ephemeral and "moved on" in words_of(result.response)
        await env.advance_time(1)
        fresh = table.table_message()
        assert fresh.id != board.id and "move 1" in words_of(fresh)
        assert [m.id for m in table.boards()] == [fresh.id], "the stranded board was removed"


async def test_game_show_reports_the_truth(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        quick(bot)
        table = await open_table(env, ["ana", "bob"])
        ana = table.players[0]
        refuse_posts(env, times=3)
        failed = await ana.slash(table.thread, "game show")
        text = words_of(failed.followups[-1]) if failed.followups else words_of(failed.response)
        assert "could not be posted" in text and "Here is" not in text
        shown = await ana.slash(table.thread, "game show")
        text = words_of(shown.followups[-1]) if shown.followups else words_of(shown.response)
        assert "Here is table #1" in text


async def test_final_standings_that_failed_are_posted_later(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        quick(bot)
        table = await open_table(env, ["ana"])
        while "Add 3" in str([getattr(c, "label", "") for c in controls(table.table_message())]):
            await table.players[0].click(table.table_message(), label="Add 3")
        refuse_posts(env, times=3)
        await table.players[0].click(table.table_message(), label="gg")
        assert db_row(tmp_path)[3] == "finished"
        assert not any("Final standings" in words_of(m) for m in table.messages())
        await env.advance_time(125)
        finals = [m for m in table.messages() if "Final standings" in words_of(m)]
        assert len(finals) == 1 and words_of(finals[0]).count("Final standings") == 1
        assert not any(playable(m) for m in table.messages())
        await env.advance_time(125)
        assert len([m for m in table.messages() if "Final standings" in words_of(m)]) == 1, "posted once"


async def test_an_old_lobby_cancel_button_does_not_end_a_running_game(tmp_path: Path) -> None:
    """Found by the fuzz: a lobby message whose edit failed kept Cancel, which ended the game."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana, bob = (guild.add_member(env.create_user(n)) for n in ("ana", "bob"))
        lobby = response_of(await ana.slash(channel, "game new", name="toy")).message
        await bob.click(lobby, label="Join")
        env.inject_error("PATCH", "*", times=None)  # the lobby keeps its buttons
        await ana.click(lobby, label="Start")
        env.backend.faults.clear()
        assert db_row(tmp_path)[3] == "active"
        result = await ana.click(lobby, label="Cancel")
        assert result.ephemeral and "/game abandon" in words_of(result.response)
        assert db_row(tmp_path)[3] == "active"
