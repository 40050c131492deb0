"""A real game with a bot at the table, through SimCord: California, one person and one normal
bot, played to the final standings with a restart on the way.  The person only takes gold coins
(always legal); the bot thinks (``rules.search`` with California's hints) and moves on its own.
"""

from __future__ import annotations

from pathlib import Path

import simcord

from bot.client import GameBot
from harness.messages import Table, labels, response_of, words_of
from tests.helpers import en
from tests.simcord import make_bot


async def test_one_person_and_a_normal_bot_play_california_to_the_end(tmp_path: Path) -> None:
    bot: GameBot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        created = await ana.slash(channel, "game new", name="california")
        lobby = response_of(created).message
        await ana.click(lobby, label=en("host.lobby.bot_normal"))
        await ana.click(lobby, label=en("host.lobby.start"))
        table = Table(env, channel, [ana])
        restarted = False
        for turn in range(200):
            await bot.bots.idle()
            message = table.table_message()
            if "Final standings" in words_of(message):
                break
            if turn == 10 and not restarted:
                bot = make_bot(tmp_path)
                await env.restart_bot(bot)
                restarted = True
                continue
            assert f"<@{ana.id}>" in words_of(message), "the table waits on ana whenever the bot has moved"
            took = await ana.click(message, label=en("california.button.coin"))
            assert took.acknowledged
        else:
            raise AssertionError("the game did not end")
        thread = "\n".join(words_of(m) for m in table.messages())
        assert "Ada (bot) bought" in thread, "the bot bought tiles of its own accord"
        final = table.messages()[-1]
        assert "Final standings" in words_of(final) and "Ada (bot)" in words_of(final)
        assert labels(final) == [en("host.button.catch_up"), en("host.button.rematch")]
        assert restarted
