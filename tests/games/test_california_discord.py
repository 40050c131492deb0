"""California through the real discord.py path (SimCord): a whole game played only by clicks."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from tests.host.discord_kit import Table, labels, make_bot, open_table


def buttons(message: discord.Message) -> list[Any]:
    return [child for row in message.components for child in row.children]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.lobby.secrets.randbits", lambda _bits: 20261125)


async def buy_something(table: Table, player: Any, rng: random.Random) -> bool:
    """Buy through the private panels: a tile, then an affordable space. False if nothing fits."""
    opened = await player.click(table.table_message(), label="Buy a tile…")
    panel = opened.response.message
    tiles = [b for b in buttons(panel) if not b.disabled]
    if not tiles:
        return False
    picked = await player.click(panel, custom_id=rng.choice(tiles).custom_id)
    panel = picked.response.message
    affordable = [b for b in buttons(panel) if b.style == discord.ButtonStyle.success and not b.disabled]
    if not affordable:
        back = await player.click(panel, label="Back")
        assert "Which tile?" in back.response.message.content
        return False
    done = await player.click(panel, custom_id=rng.choice(affordable).custom_id)
    assert done.acknowledged
    assert not done.response.message.components, "the private panel closes after the purchase"
    return True


async def test_a_whole_three_player_game_by_clicks(tmp_path: Path) -> None:
    rng = random.Random(7)
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        first = table.table_message()
        assert first.attachments and "Day 1 of 12" in first.content
        assert set(labels(first)) >= {"Take a coin", "Buy a tile…", "Take a loan (+3)", "Repay loan (4)"}
        for _ in range(400):
            if not any(m.components for m in table.messages()):
                break
            player = table.on_turn()
            if rng.random() < 0.75 and await buy_something(table, player, rng):
                continue
            result = await player.click(table.table_message(), label="Take a coin")
            assert result.acknowledged and not result.ephemeral
        else:
            raise AssertionError("the game did not end")
        text = "\n".join(m.content for m in table.messages())
        assert "Final standings" in text
        assert "bought" in text and "took a gold coin" in text and "Day 12 of 12 begins" in text
        final = table.messages()[-1]
        assert final.attachments
        assert "gifts" in final.content and "spaces" in final.content


async def test_loan_out_of_turn_and_refusals(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        mover = table.on_turn()
        idle = next(p for p in table.players if p.id != mover.id)
        board = table.table_message()

        loan = await idle.click(board, label="Take a loan (+3)")
        assert any("You took a loan" in f.content and f.ephemeral for f in loan.followups)
        assert table.table_message().id == board.id, "an out-of-turn loan edits the table in place"
        assert "took a loan (+3 silver)" in table.table_message().content

        again = await idle.click(table.table_message(), label="Take a loan (+3)")
        assert again.ephemeral and "already have a loan" in again.response.content

        not_yours = await idle.click(table.table_message(), label="Buy a tile…")
        assert not_yours.ephemeral and "only on your turn" in not_yours.response.content
        wrong = await idle.click(table.table_message(), label="Take a coin")
        assert wrong.ephemeral

        repay = await idle.click(table.table_message(), label="Repay loan (4)")
        assert any("Loan repaid" in f.content for f in repay.followups)
        none = await idle.click(table.table_message(), label="Repay loan (4)")
        assert none.ephemeral and "loan" in none.response.content


async def test_a_purchase_the_player_cannot_afford_is_refused_privately(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="california")
        mover = table.on_turn()
        # Spend down to nothing affordable: buy the dearest spaces until a grey (unaffordable) one shows.
        for _ in range(20):
            opened = await mover.click(table.table_message(), label="Buy a tile…")
            tiles = [b for b in buttons(opened.response.message) if not b.disabled]
            picked = await mover.click(opened.response.message, custom_id=tiles[0].custom_id)
            panel = picked.response.message
            grey = [
                b
                for b in buttons(panel)
                if b.style == discord.ButtonStyle.secondary
                and "·" in (b.label or "")
                and not b.disabled
                and b.label != "Back"
            ]
            if grey:
                count = len(table.messages())
                refused = await mover.click(panel, custom_id=grey[0].custom_id)
                assert refused.ephemeral and "silver" in refused.response.content
                assert len(table.messages()) == count
                return
            await mover.click(panel, custom_id=next(b.custom_id for b in buttons(panel) if not b.disabled))
            mover = table.on_turn()
        raise AssertionError("never found an unaffordable space")


async def test_restart_mid_game(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        await table.on_turn().click(table.table_message(), label="Take a coin")
        board = table.table_message()
        opened = await table.on_turn().click(board, label="Buy a tile…")
        await env.restart_bot(make_bot(tmp_path))
        # Both the table buttons and the private panel drawn before the restart still work.
        panel = opened.response.message
        tile = next(b for b in buttons(panel) if not b.disabled)
        picked = await table.on_turn().click(panel, custom_id=tile.custom_id)
        assert "where does it go" in picked.response.message.content
        result = await table.on_turn().click(board, label="Take a coin")
        assert result.acknowledged and not result.ephemeral
        assert "took a gold coin" in table.table_message().content


async def test_an_old_panel_is_redrawn_after_someone_else_moves(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        mover = table.on_turn()
        idle = next(p for p in table.players if p.id != mover.id)
        opened = await mover.click(table.table_message(), label="Buy a tile…")
        await idle.click(table.table_message(), label="Take a loan (+3)")  # the public version moves on
        tile = next(b for b in buttons(opened.response.message) if not b.disabled)
        picked = await mover.click(opened.response.message, custom_id=tile.custom_id)
        assert not picked.response.message.flags.ephemeral or "where does it go" in picked.response.content
        space = next(b for b in buttons(picked.response.message) if b.style == discord.ButtonStyle.success)
        bought = await mover.click(picked.response.message, custom_id=space.custom_id)
        assert bought.acknowledged and "bought" in table.messages()[-1].content
