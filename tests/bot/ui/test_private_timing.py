"""A private action leaves no trace in time either (issue 7, finding 5).

``/game list`` shows when a table last moved; it must be the last *public*
move, or a bystander sees the moment of a hidden stow.  Logs at INFO and
above are public enough (an operator's screen, a shared channel) to count.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import simcord

from harness.messages import response_of, words_of
from tests.simcord import make_bot, open_table


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_game_list_times_only_public_moves(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        clock = Clock(1_800_000_000.0)
        bot.sessions.clock = clock
        table = await open_table(env, ["ana", "bob"])
        clock.now += 600
        await table.on_turn().click(table.table_message(), label="Add 1")
        bystander = env.guild.add_member(env.create_user("eve"))
        before = words_of((await bystander.slash(table.channel, "game list")).response)
        assert f"<t:{int(clock.now)}:R>" in before
        clock.now += 3600
        idle = next(p for p in table.players if f"<@{p.id}>" not in words_of(table.table_message()))
        panel = await idle.click(table.table_message(), label="My secret")
        rerolled = await idle.click(response_of(panel).message, label="Reroll my secret")
        assert "Your new secret is" in words_of(rerolled.response)
        after = words_of((await bystander.slash(table.channel, "game list")).response)
        assert after == before
        clock.now += 60
        await table.on_turn().click(table.table_message(), label="Add 1")
        moved = words_of((await bystander.slash(table.channel, "game list")).response)
        assert f"<t:{int(clock.now)}:R>" in moved


async def test_private_actions_accepted_or_refused_log_nothing_at_info(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"])
        idle = next(p for p in table.players if f"<@{p.id}>" not in words_of(table.table_message()))
        caplog.clear()
        caplog.set_level(logging.INFO)
        # Two panels open (a phone and a laptop): a reroll on one, then again on the other.
        phone = response_of(await idle.click(table.table_message(), label="My secret")).message
        laptop = response_of(await idle.click(table.table_message(), label="My secret")).message
        first = await idle.click(phone, label="Reroll my secret")
        assert "Your new secret is" in words_of(first.response)
        second = await idle.click(laptop, label="Reroll my secret")
        assert second.ephemeral and "Your new secret" not in words_of(second.response)
        public = [
            r for r in caplog.records if r.levelno >= logging.INFO and r.name.startswith(("bot", "cogs"))
        ]
        assert public == [], [r.getMessage() for r in public]
