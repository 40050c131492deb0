"""``/game mine``, ``/game settings``, ``/game stats`` and ``/game leaderboard`` through SimCord."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord
import simcord

from benchmarks.torture_discord_common import quick_settle
from bot.client import GameBot
from bot.services.deadlines import Hours, table_hours
from bot.storage import GuildSettings
from bot.storage.codes import GameStatus
from harness.messages import Table, labels, words_of
from tests.simcord import make_bot, open_table

HOUR = 3600.0
PAUSE = 20 * 60.0
"""Minutes that pass before each move in the stats test."""


def text(result: Any) -> str:
    texts = [words_of(result.response)] if result.response is not None and words_of(result.response) else []
    texts += [words_of(f) for f in result.followups]
    return "\n".join(texts)


async def play_toy_to_the_end(env: simcord.Env, table: Table, pause: float = 0.0) -> None:
    """Everyone adds 3 until the target (3) is reached, then everyone presses gg; ``pause``
    seconds pass before every move (what "time to move" averages)."""
    while "gg" not in labels(table.table_message()):
        if pause:
            await env.advance_time(pause)
        await table.on_turn().click(table.table_message(), label="Add 3")
    for player in table.players:
        if "gg" in labels(table.table_message()):
            if pause:
                await env.advance_time(pause)
            await player.click(table.table_message(), label="gg")


async def started(env: simcord.Env, channel: Any, host: Any, others: list[Any], game: str = "toy") -> Any:
    lobby = (await host.slash(channel, "game new", name=game)).response.message
    for player in others:
        await player.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return lobby


# -- /game mine ------------------------------------------------------------------------------------


async def test_my_tables_here_waiting_for_me_first_and_in_a_dm_by_server(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        ana_user, bob_user = env.create_user("ana"), env.create_user("bob")
        north = env.create_guild("North")
        south = env.create_guild("South")
        games_n = north.create_text_channel("games")
        games_s = south.create_text_channel("games")
        ana_n, bob_n = north.add_member(ana_user), north.add_member(bob_user)
        ana_s, bob_s = south.add_member(ana_user), south.add_member(bob_user)
        # North: a lobby ana hosts, and a running game; South: a running game.
        await ana_n.slash(games_n, "game new", name="toy")
        await started(env, games_n, bob_n, [ana_n])
        await started(env, games_s, ana_s, [bob_s])
        rows = await bot.store.games.list_games(statuses=(GameStatus.ACTIVE,))
        waiting_for_ana = []
        for row in rows:
            game = await bot.sessions.load(row.id)
            if game.seat_of(ana_user.id) in game.waiting():
                waiting_for_ana.append(row.id)
        here = await ana_n.slash(games_n, "game mine")
        assert here.ephemeral
        lines = words_of(here.response).splitlines()
        assert lines[0] == "**Your tables in this server** (2):"
        north_active = next(r for r in rows if r.guild_id == north.id)
        first = "⏳" if north_active.id in waiting_for_ana else "▶️"
        assert lines[1].startswith(f"{first} **Toy Race #{north_active.id}**")
        assert "🪑" in lines[2] and "you host" in lines[2] and "not started, 1 seated" in lines[2]
        assert f"https://discord.com/channels/{north.id}/{north_active.thread_id}/" in lines[1]
        assert all(f"#{r.id}" not in words_of(here.response) for r in rows if r.guild_id == south.id)
        # In a direct message: every server, grouped by name, the one waiting for ana first.
        dm = await ana_user.slash("game mine")
        content = words_of(dm.response)
        assert content.splitlines()[0] == "**Your tables** (3):"
        assert "__North__" in content and "__South__" in content
        assert content.count("https://discord.com/channels/") == 3
        south_active = next(r for r in rows if r.guild_id == south.id)
        assert f"https://discord.com/channels/{south.id}/{south_active.thread_id}/" in content
        nobody = env.create_user("cy")
        assert "no open tables" in words_of((await nobody.slash("game mine")).response)


# -- /game settings --------------------------------------------------------------------------------


async def test_settings_are_for_managers_and_shape_the_next_table(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild("Club")
        general = guild.create_text_channel("general")
        forum = guild.create_forum_channel("tables")
        mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
        players = guild.create_role("players")
        mod = guild.add_member(env.create_user("mod"), roles=[mods])
        ria = guild.add_member(env.create_user("ria"), roles=[players])
        pat = guild.add_member(env.create_user("pat"))
        refused = await pat.slash(general, "game settings")
        assert refused.ephemeral and "Manage Server" in text(refused)
        shown = await mod.slash(general, "game settings")
        assert shown.ephemeral and "every 24 h (the bot's default)" in text(shown)
        assert "where `/game new` is typed" in text(shown) and "anyone" in text(shown)
        saved = await mod.slash(
            general, "game settings", remind="12h", timer="2d", channel=forum, role=players
        )
        assert (
            "Saved" in text(saved) and f"<#{forum.id}>" in text(saved) and f"<@&{players.id}>" in text(saved)
        )
        settings = await bot.store.servers.fetch_settings(guild.id)
        assert settings == GuildSettings(guild.id, 12, 48, forum.id, players.id)
        bad = await mod.slash(general, "game settings", remind="soon")
        assert "is not a time" in text(bad)
        # Only the role (or Manage Server) opens tables, and they open in the forum, as a post.
        no = await pat.slash(general, "game new", name="toy")
        assert no.ephemeral and f"<@&{players.id}>" in text(no)
        assert await bot.store.games.list_games() == []
        opened = await ria.slash(general, "game new", name="toy", options="target=3")
        (row,) = await bot.store.games.list_games()
        assert f"<#{forum.id}>" in text(opened) and row.channel_id == forum.id
        (post,) = forum.threads
        assert row.thread_id == post.id and general.history() == []
        lobby = post.history()[0]
        assert set(labels(lobby)) == {"Join", "Leave", "Start", "Cancel", "Add a bot", "Add an easy bot"}
        await mod.click(lobby, label="Join")
        await ria.click(lobby, label="Start")
        assert any(m.attachments for m in post.history()), "the board is in the post"
        # The new table runs on the server's clocks: what the deadlines read for it.
        clocks = await bot.store.waits.fetch_table_clocks(row.id)
        assert clocks is not None
        assert (clocks.server_remind_hours, clocks.server_timer_hours) == (12, 48)
        effective = table_hours(
            clocks.remind_hours,
            clocks.timer_hours,
            clocks.server_remind_hours,
            clocks.server_timer_hours,
            Hours(24, 0),
        )
        assert effective == Hours(12, 48)
        # Played to the end in the post; its rematch opens a new post in the forum.
        await play_toy_to_the_end(env, Table(env, forum, [ria, mod]))  # its first post
        final = post.history()[-1]
        await mod.click(final, label="Rematch")
        assert len(forum.threads) == 2
        assert set(labels(forum.threads[-1].history()[0])) == {
            "Join",
            "Leave",
            "Start",
            "Cancel",
            "Add a bot",
            "Add an easy bot",
        }
        # A text channel: a message there and its own thread.
        tables = guild.create_text_channel("tables-text")
        await mod.slash(general, "game settings", channel=tables)
        await ria.slash(general, "game new", name="toy")
        newest = (await bot.store.games.list_games())[-1]
        assert newest.channel_id == tables.id and tables.threads and newest.thread_id == tables.threads[0].id
        # Back to the defaults: anyone opens tables, where they type the command.
        await mod.slash(general, "game settings", reset="channel")
        await mod.slash(general, "game settings", reset="role")
        here = await pat.slash(general, "game new", name="toy")
        assert "looking for players" in words_of(here.response)
        assert (await bot.store.games.list_games())[-1].channel_id == general.id
        await mod.slash(general, "game settings", reset="clocks")
        assert await bot.store.servers.fetch_settings(guild.id) == GuildSettings(guild.id)


# -- /game stats and /game leaderboard ------------------------------------------------------------


async def test_stats_and_leaderboard_count_finished_games_only(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    with quick_settle():
        async with simcord.run(bot, strict_sync=False, settle_timeout=60) as env:
            await stats_and_leaderboard(env, bot, tmp_path)


async def stats_and_leaderboard(env: simcord.Env, bot: GameBot, tmp_path: Path) -> None:
    table = await open_table(env, ["ana", "bob"], options="target=3")
    guild_channel = table.channel
    ana, bob = table.players
    await play_toy_to_the_end(env, table, pause=PAUSE)
    for _ in range(2):
        await started_target3(guild_channel, ana, bob)
        await play_toy_to_the_end(env, newest_table(env, guild_channel, table.players), pause=PAUSE)
    # An abandoned game counts for nothing.
    await started_target3(guild_channel, ana, bob)
    (running,) = await bot.store.games.list_games(statuses=(GameStatus.ACTIVE,))
    await ana.slash(guild_channel, "game abandon", table=running.id)
    finished = await bot.store.games.list_games(statuses=(GameStatus.FINISHED,))
    assert len(finished) == 3
    wins = {ana.id: 0, bob.id: 0}
    for row in finished:
        game = await bot.sessions.load(row.id)
        outcome = game.outcome()
        assert outcome is not None
        for seat in outcome.winners():
            wins[game.user_of(seat)] += 1
    # A game whose places were never written (it ended before they were kept) still counts.
    await bot.store._write("UPDATE seats SET rank = NULL WHERE game_id = ?", (finished[0].id,))
    mine = await ana.slash(guild_channel, "game stats")
    content = text(mine)
    assert mine.ephemeral and content.startswith("**ana** · all games · this server")
    rate = round(100 * wins[ana.id] / 3)
    assert f"Finished games: 3 · won {wins[ana.id]} ({rate}%)" in content
    with sqlite3.connect(tmp_path / "host.sqlite3") as db:
        (average,) = db.execute(
            "SELECT AVG(a.waited) FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat"
            " JOIN games g ON g.id = a.game_id WHERE s.user_id = ? AND g.status != 'abandoned'",
            (ana.id,),
        ).fetchone()
    assert average >= PAUSE
    assert f"Average time to move: {bot.players.duration('en', average)} (over " in content
    assert await bot.store.games.list_unranked_games(None) == [], "the missing places were filled in"
    theirs = await ana.slash(guild_channel, "game stats", player=bob, game="toy")
    assert "**bob** · Toy Race" in text(theirs) and f"won {wins[bob.id]}" in text(theirs)
    # The board ranks by rating (tests/bot/ui/test_rating_board_discord.py); the abandoned game
    # was never rated, so each has 3 rated games and the wins counted above.
    board = await bob.slash(guild_channel, "game leaderboard", game="toy")
    lines = text(board).splitlines()
    assert lines[0] == "**Toy Race** · season 1 · best ratings in this server"
    for name, member in (("ana", ana), ("bob", bob)):
        (line,) = [line for line in lines[1:3] if f" {name}: " in line]
        assert f"3 rated games, {wins[member.id]} won" in line
    for command in ("game leaderboard", "game stats"):
        offered = await bob.autocomplete(guild_channel, command, "game", "estat")
        assert [choice["value"] for choice in offered] == ["estates"]
    empty = await bob.slash(guild_channel, "game leaderboard", game="california")
    assert "Nobody has a rated game of California in season 1" in text(empty)
    # In a direct message: your own stats only, over every server.
    dm = await ana.user.slash("game stats")
    assert "every server" in text(dm) and "Finished games: 3" in text(dm)
    other = await ana.user.slash("game stats", player=bob.user)
    assert "your own stats only" in text(other)


async def started_target3(channel: Any, host: Any, other: Any) -> None:
    lobby = (await host.slash(channel, "game new", name="toy", options="target=3")).response.message
    await other.click(lobby, label="Join")
    await host.click(lobby, label="Start")


def newest_table(env: simcord.Env, channel: Any, players: list[Any]) -> Table:
    return _Newest(env, channel, players)


class _Newest(Table):
    """A channel's newest table (the kit's ``Table`` looks at its first thread)."""

    @property
    def thread(self) -> Any:
        return self.channel.threads[-1]
