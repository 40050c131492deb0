"""Bot players at a Discord table (SimCord): seated from the lobby by the host, moving on their
own through the same path as a click, and picking up again after a restart.

The toy race is the game here (its bot samples states from its seat's view like every game's);
``tests/cogs`` plays the real games with bots.  Bots move without delay in tests
(``Settings.bot_delay`` is 0), in a background task: ``settle`` waits for it.
"""

from __future__ import annotations

from pathlib import Path

import discord
import simcord

from bot.client import GameBot
from bot.services.bot_players import NAMES, Level, bot_name
from bot.storage import Store
from harness.messages import Table, controls, labels, response_of, words_of
from tests.helpers import en
from tests.simcord import make_bot


async def settle(bot: GameBot) -> None:
    """Let every bot that is waited on move, and the table be published."""
    await bot.bots.idle()


def lobby_now(table: Table, lobby: discord.Message) -> discord.Message:
    """The lobby message as it stands now (edited by each click)."""
    return next(m for m in table.channel.history() if m.id == lobby.id)


async def lobby_with_bot(env: simcord.Env, level: str = "bot_normal") -> tuple[Table, discord.Message]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in ("ana", "bob")]
    created = await players[0].slash(channel, "game new", name="toy")
    lobby = response_of(created).message
    await players[1].click(lobby, label=en("host.lobby.join"))
    return Table(env, channel, players), lobby


async def test_the_host_seats_bots_and_only_the_host(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table, lobby = await lobby_with_bot(env)
        ana, bob = table.players
        refused = await bob.click(lobby, label=en("host.lobby.bot_normal"))
        assert refused.ephemeral and words_of(refused.response) == en("host.refuse.host_only_bots")
        assert en("host.lobby.unbot") not in labels(lobby_now(table, lobby))
        await ana.click(lobby, label=en("host.lobby.bot_normal"))
        await ana.click(lobby, label=en("host.lobby.bot_easy"))
        shown = lobby_now(table, lobby)
        assert "Ada (bot)" in words_of(shown) and "Blaise (easy bot)" in words_of(shown)
        assert en("host.lobby.unbot") in labels(shown)
        await ana.click(shown, label=en("host.lobby.unbot"))
        shown = lobby_now(table, lobby)
        assert "Ada (bot)" in words_of(shown) and "Blaise" not in words_of(shown)


async def test_two_people_and_a_bot_play_to_the_end_across_a_restart(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table, lobby = await lobby_with_bot(env)
        ana = table.players[0]
        await ana.click(lobby, label=en("host.lobby.bot_normal"))
        await ana.click(lobby, label=en("host.lobby.start"))
        await settle(bot)
        restarted = False
        for _ in range(80):
            await settle(bot)
            live = [m for m in table.thread.history() if controls(m) and any(labels(m))]
            message = live[-1]
            if "Final standings" in words_of(message):
                break
            if not restarted and "Ada (bot)" in table.recent(4):
                # The bot has moved at least once: stop the process and start it again.
                bot = make_bot(tmp_path)
                await env.restart_bot(bot)
                restarted = True
                continue
            player = table.on_turn()
            label = "gg" if "gg" in labels(message) else "Add 3"
            assert (await player.click(message, label=label)).acknowledged
        else:
            raise AssertionError("the game did not end")
        await settle(bot)
        assert restarted
        final = table.thread.history()[-1]
        assert "Final standings" in words_of(final) and "Ada (bot)" in words_of(final)
        assert "<@-" not in "\n".join(words_of(m) for m in table.thread.history()), "a bot is never pinged"
    store = await Store.open(tmp_path / "host.sqlite3")
    try:
        (game,) = await store.games.list_games()
        seats = await store.games.fetch_seats(game.id)
        (ada,) = [s for s in seats if s.bot is not None]
        assert ada.bot == "normal" and ada.user_id < 0 and ada.name == "Ada (bot)"
        moves = await store.log.load_log(game.id)
        assert any(entry.seat == ada.seat for entry in moves), "the bot made moves of its own"
        record = await store.players.fetch_record(ada.user_id)
        assert record.played == 0, "a bot has no record of its own"
    finally:
        await store.close()


async def test_a_bot_restarted_mid_thought_moves_once(tmp_path: Path) -> None:
    """Stopped while thinking, the bot thinks again after a restart and moves exactly once."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table, lobby = await lobby_with_bot(env, "bot_easy")
        ana = table.players[0]
        await ana.click(lobby, label=en("host.lobby.bot_easy"))
        bot.bots.delay = 3600.0  # from now on the bot is "thinking" (waiting) when it must move
        await ana.click(lobby, label=en("host.lobby.start"))
        for _ in range(4):
            if "Ada (easy bot)." in words_of(table.table_message()):
                break
            await table.on_turn().click(table.table_message(), label="Add 1")
        assert "Waiting for Ada (easy bot)." in words_of(table.table_message())
        before = len(await bot.store.log.load_log(1))
        assert any(not t.done() for t in bot.bots._tasks.values())
        restarted = make_bot(tmp_path)
        await env.restart_bot(restarted)
        await settle(restarted)
        entries = await restarted.store.log.load_log(1)
        (bot_seat,) = [s.seat for s in await restarted.store.games.fetch_seats(1) if s.bot is not None]
        bot_moves = [e for e in entries[before:] if e.seat == bot_seat]
        assert len(bot_moves) == 1


def test_bot_names_are_free_at_the_table() -> None:
    def words(key: str) -> str:
        return {"host.bot.normal": "{name} (bot)", "host.bot.easy": "{name} (easy bot)"}[key]

    assert bot_name(["ana"], Level.NORMAL, words) == "Ada (bot)"
    assert bot_name(["ana", "Ada (bot)"], Level.NORMAL, words) == "Blaise (bot)"
    assert bot_name(["Ada (bot)"], Level.EASY, words) == "Blaise (easy bot)"
    assert bot_name(list(NAMES), Level.EASY, words) == "Ada 9 (easy bot)"
