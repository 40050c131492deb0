"""``/game leaderboard`` by rating and ``/game settings new_season:`` through SimCord: toy games
rate their players, a manager starts a season (a member may not), the past one stays readable."""

from __future__ import annotations

from pathlib import Path

import discord
import simcord

from benchmarks.torture_discord_common import quick_settle
from bot.services.ratings import shown
from tests.bot.ui.test_players_discord import newest_table, play_toy_to_the_end, started_target3, text
from tests.simcord import make_bot, open_table


async def test_the_board_ranks_by_rating_and_seasons_start_fresh(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    with quick_settle():
        async with simcord.run(bot, strict_sync=False, settle_timeout=60) as env:
            table = await open_table(env, ["ana", "bob"], options="target=3")
            channel = table.channel
            ana, bob = table.players
            guild = channel.guild
            assert guild is not None
            await play_toy_to_the_end(env, table)
            for _ in range(2):
                await started_target3(channel, ana, bob)
                await play_toy_to_the_end(env, newest_table(env, channel, table.players))
            # cy plays once: listed apart, under the newcomers' heading.
            cy = guild.add_member(env.create_user("cy"))
            await started_target3(channel, cy, ana)
            await play_toy_to_the_end(env, newest_table(env, channel, [cy, ana]))
            ratings = {
                name: await bot.store.ratings.fetch_rating(guild.id, "toy", 1, f"u:{member.id}")
                for name, member in (("ana", ana), ("bob", bob), ("cy", cy))
            }
            assert {n: r.games for n, r in ratings.items() if r} == {"ana": 4, "bob": 3, "cy": 1}

            board = await bob.slash(channel, "game leaderboard", game="toy")
            lines = text(board).splitlines()
            assert board.ephemeral
            assert lines[0] == "**Toy Race** · season 1 · best ratings in this server"
            order = sorted(("ana", "bob"), key=lambda n: -shown(ratings[n]))  # type: ignore[arg-type]
            first = ratings[order[0]]
            assert first is not None
            assert lines[1].startswith(f"**1.** {order[0]}: {shown(first):,} · {first.games} rated games")
            assert lines[2].split(":")[0].endswith(order[1])
            assert lines[3] == "Fewer than 3 rated games:"
            assert lines[4].startswith("**1.** cy: ") and "1 rated games" in lines[4]

            # A member without Manage Server may not start a season; nothing changes.
            refused = await bob.slash(channel, "game settings", new_season=True)
            assert refused.ephemeral and "Manage Server" in text(refused)
            assert await bot.store.ratings.fetch_season(guild.id) == 1
            mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
            mod = guild.add_member(env.create_user("mod"), roles=[mods])
            started = await mod.slash(channel, "game settings", new_season=True)
            assert started.ephemeral and text(started).startswith("Season 2 has started")
            assert await bot.store.ratings.fetch_season(guild.id) == 2
            empty = await bob.slash(channel, "game leaderboard", game="toy")
            assert "Nobody has a rated game of Toy Race in season 2" in text(empty)

            # A game in the new season starts from a fresh rating; the old board is unchanged.
            await started_target3(channel, bob, ana)  # bob: ana opened three tables in a row
            await play_toy_to_the_end(env, newest_table(env, channel, [bob, ana]))
            now = await bot.store.ratings.fetch_rating(guild.id, "toy", 2, f"u:{ana.id}")
            assert now is not None and now.games == 1
            past = await bob.slash(channel, "game leaderboard", game="toy", season=1)
            past_lines = text(past).splitlines()
            assert past_lines[0].startswith("**Toy Race** · season 1 (past; this is season 2)")
            assert past_lines[1:5] == lines[1:5]
            missing = await bob.slash(channel, "game leaderboard", game="toy", season=3)
            assert missing.ephemeral and "There is no season 3" in text(missing)
